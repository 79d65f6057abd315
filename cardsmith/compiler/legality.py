"""Compiled legality predicates: an action's (or an activated ability's) legal parameter
combinations without probing.

A played match finds an action's legal moves by *probing* (engine/moves.py): it runs the
action's compiled rule up to its payment once per prefix of answers to its leading
choices, under the journal, and rolls every run back. That is the rule itself deciding,
so it can never disagree with taking the move — but each run pays for a generator, a
snapshot and a roll-back, and the last choice is run once per option.

For the actions whose legality the IR makes plain, the compiler writes a second function
from the *same IR nodes*, with the same expression writer: the choices' options (their
sources and `where`s), the condition, and a payment's test (natives.CHECKS: `pay` asks
whether it could pay instead of paying). It walks the answers as nested loops and
returns the combinations probing would find, in the same (breadth-first, hence
lexicographic) order. It changes nothing, so it needs no journal.

The fragment (`fragment_problem` says why an action or activated ability is outside it;
those keep probing): every leading parameter is a `let` or a one-of `choose` the actor
makes; the cost tests at most one line, a checked native (`pay`) that no rule hooks, and
may also hold lines that cannot fail and that nothing before the payment is made reads
(`_cost_problem`): trailing moves of the played card to a shared zone that no trigger
acts on (an event's `move c to stack`), and an ability's `set self.<status> to yes`; no
expression asks, rolls or calls a function that could change the state; no per-turn
`limit`. An ability's predicate tests its condition first, as its rule does.
tests/conformance runs every legal-move computation both ways and fails on any
difference, and tests/test_legality_predicates.py does so over random positions of the
library's games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.compiler.actions import option_blind_parameters
from cardsmith.compiler.codegen_exprs import Scope, ident
from cardsmith.compiler.codegen_stmts import BodyWriter
from cardsmith.compiler.purity import PURE_NATIVES, nodes
from cardsmith.dsl import ir
from cardsmith.dsl.words import EVERY_DETERMINERS

if TYPE_CHECKING:
    from cardsmith.compiler.codegen import CodeGenerator

# Native procedures with a side-effect-free test of whether they would succeed; the engine
# binds the tests (engine/natives.py CHECKS, which a test keeps equal to this set).
CHECKED_NATIVES = frozenset({"pay"})

# The native a cost's `move c to z` calls, and the events it emits (engine/natives.py _move):
# such a line at the end of a cost may be left out of the predicate (_unobserved_move_problem).
MOVE_NATIVE = "move_cards"
MOVE_EVENTS = frozenset({"left", "entered"})

_FAIL = "except rt.ILLEGAL_ERRORS as _error:"


# an action, or a card's or keyword's activated ability: the decisions a window offers
Decision = ir.ActionDecl | ir.Activated


def fragment_problem(decision: Decision, gen: CodeGenerator) -> str | None:
    """Why the decision's legality must be probed rather than computed, or None."""
    if isinstance(decision, ir.ActionDecl) and decision.limit is not None:
        return "it has a limit per turn"
    lead = ir.action_parameters(decision.body)
    params = decision.body[:lead]
    sources: set[int] = set()
    for stmt in params:
        if isinstance(stmt, ir.Choose):
            if stmt.count.n is not None or stmt.count.mode != "one":
                return f"line {stmt.span.line} chooses several"
            if stmt.by is not None:
                return f"line {stmt.span.line} is a choice someone else makes"
            sources.add(id(stmt.source))
    choices: dict[str, ir.Choose | None] = {}  # each name the parameters bind: its choice (None: a `let`'s)
    for stmt in params:
        if isinstance(stmt, ir.Choose):
            choices[stmt.var] = stmt
        elif isinstance(stmt, ir.Let):
            choices[stmt.name] = None
    problem = _cost_problem(decision, gen, choices)
    if problem is not None:
        return problem
    natives = {f.name for f in gen.game.functions if f.native}
    for node in nodes([params, decision.condition, decision.cost]):
        if isinstance(node, ir.Roll | ir.ChooseOne | ir.Simultaneously):
            return f"line {node.span.line} asks or rolls"
        if isinstance(node, ir.Query) and node.det not in EVERY_DETERMINERS and id(node) not in sources:
            return f"line {node.span.line} asks a player or picks at random"
        if isinstance(node, ir.Call) and node.func not in gen.pure \
                and not (node.func in natives and node.func in PURE_NATIVES):
            return f"it calls {node.func!r}, which may change the state"
    return None


def _cost_problem(decision: Decision, gen: CodeGenerator, choices: dict[str, ir.Choose | None]) -> str | None:
    """Why the cost cannot be decided by testing its lines (`_checked_lines`), or None: at
    most one line is tested, a checked native no rule hooks; the others are left out —
    trailing moves of the played card nothing sees (`_unobserved_move_problem`), and an
    ability's `set self.<status> to yes/no` (`_status_of_self`) that no tested line after
    it can read (its arguments are literals or a counter's name: the test reads a counter,
    never a card's status)."""
    end = _trailing_moves_start(decision)
    for stmt in decision.cost[end:]:
        problem = _unobserved_move_problem(stmt, gen, choices)
        if problem is not None:
            return problem
    checked = _checked_lines(decision, gen)
    if len(checked) > 1:
        return "its cost has more than one line"
    counters = {c.name for c in gen.game.counters}
    status_set = False
    for stmt in decision.cost[:end]:
        if _status_of_self(stmt, decision, gen.game):
            status_set = True
            continue
        if not (isinstance(stmt, ir.Invoke) and stmt.procedure in CHECKED_NATIVES):
            return f"its cost (line {stmt.span.line}) does more than pay"
        proc = gen.procedures.get(stmt.procedure)
        if proc is None or not proc.native or stmt.procedure in gen.hooked:
            return f"its cost calls {stmt.procedure!r}, which a rule hooks"
        if status_set and not all(isinstance(a, ir.Num | ir.Text | ir.Bool)
                                  or (isinstance(a, ir.Ref) and a.name in counters) for a in stmt.args.values()):
            return f"its cost (line {stmt.span.line}) may read the status set before it"
    return None


def _trailing_moves_start(decision: Decision) -> int:
    """Where the cost's trailing `move` lines begin (its length when there are none)."""
    end = len(decision.cost)
    while end and isinstance(stmt := decision.cost[end - 1], ir.Invoke) and stmt.procedure == MOVE_NATIVE:
        end -= 1
    return end


def _checked_lines(decision: Decision, gen: CodeGenerator) -> list[ir.Stmt]:
    """The cost's lines the predicate tests: all but the trailing moves and an ability's
    status changes of its own card (`_cost_problem` says why those may be left out)."""
    return [stmt for stmt in decision.cost[:_trailing_moves_start(decision)]
            if not _status_of_self(stmt, decision, gen.game)]


def _status_of_self(stmt: ir.Stmt, decision: Decision, game: ir.Game) -> bool:
    """Is the line an ability's `set self.<status> to yes` (or `no`)? It cannot fail — the
    ability's card is a card; a status is no counter; it changes nothing else, hooks and
    triggers never hear it (runtime.change_field) — and only what reads the status sees it."""
    if not (isinstance(decision, ir.Activated) and isinstance(stmt, ir.Assign) and stmt.op == "set"
            and stmt.duration is None and isinstance(stmt.value, ir.Bool)):
        return False
    target = stmt.target
    return isinstance(target, ir.Attr) and isinstance(target.obj, ir.Ref) and target.obj.name == "self" \
        and target.name in {s.name for s in game.statuses} \
        and target.name not in {c.name for c in game.counters}


def _unobserved_move_problem(stmt: ir.Stmt, gen: CodeGenerator, choices: dict[str, ir.Choose | None]) -> str | None:
    """Why a trailing cost line `move c to z` (the played card to a zone, after the
    payment) cannot be left out of the predicate, or None. It can when nothing can see it
    and it cannot fail: it is the last thing the cost does (only other such moves follow,
    then the move is paid: no later test reads where the card went); no rule hooks the
    move; no trigger runs a rule on the events it emits (`_move_heard_problem`); the card
    is a choice's answer from a query of one card type (reading it cannot fail); the zone
    a shared zone without a capacity (always there; a full zone would run the capacity's
    rule). Then the move always succeeds, and the action is legal exactly when the test
    before it passes."""
    line = stmt.span.line
    if not (isinstance(stmt, ir.Invoke) and stmt.procedure == MOVE_NATIVE):
        return f"its cost (line {line}) does more than pay"
    proc = gen.procedures.get(stmt.procedure)
    if proc is None or not proc.native or stmt.procedure in gen.hooked:
        return f"its cost calls {stmt.procedure!r}, which a rule hooks"
    cards, zone = stmt.args.get("cards"), stmt.args.get("zone")
    choice = choices.get(cards.name) if isinstance(cards, ir.Ref) else None
    nouns = {noun: t.name for t in gen.game.cardtypes for noun in (t.name.lower(), t.singular.lower(),
                                                                  t.plural.lower())}
    moved_type = nouns.get(choice.source.noun.lower()) \
        if choice is not None and isinstance(choice.source, ir.Query) else None
    if set(stmt.args) != {"cards", "zone"} or moved_type is None:
        return f"its cost (line {line}) moves something other than a chosen card of one type"
    shared = {z.name: z for z in gen.game.zones if z.scope == "shared"}
    shadowing = set(choices) | {p.name for k in gen.game.keywords for p in k.params}  # (names that hide a zone's)
    if not (isinstance(zone, ir.Ref) and zone.name in shared and shared[zone.name].capacity is None
            and zone.name not in shadowing):
        return f"its cost (line {line}) moves a card to a zone that is not a shared zone without a capacity"
    return _move_heard_problem(gen.game, moved_type, line)


def _move_heard_problem(game: ir.Game, moved_type: str, line: int) -> str | None:
    """Why a trigger may run a rule when a card of `moved_type` moves, or None. No rule's
    trigger hears the move's events (`left`, `entered`); a card's or keyword's may, when
    its condition begins with `card == self` (the moved card is its own card: the engine
    tests that first and stops, engine/events.py `_react`) and no card of `moved_type`
    has it (a card's type is its definition's: no rule changes it)."""
    if any(t.event in MOVE_EVENTS for t in game.triggers):
        return f"its cost (line {line}) moves a card, and a rule's trigger hears it"
    keywords = {k.name: k for k in game.keywords}
    for card in game.cards:
        abilities = [*card.abilities]
        for use in card.keywords:
            keyword = keywords.get(use.name)
            abilities += keyword.abilities if keyword is not None else []
        for ability in abilities:
            if not (isinstance(ability, ir.Trigger) and ability.event in MOVE_EVENTS):
                continue
            if card.type == moved_type or not _first_test_is_self(ability):
                return f"its cost (line {line}) moves a card, and {card.name!r} hears it"
    return None


def _first_test_is_self(trigger: ir.Trigger) -> bool:
    """Does the trigger's condition begin with `card == self` (its event's first value, the
    moved card, is the trigger's own card)?"""
    test = trigger.condition
    while isinstance(test, ir.Logic) and test.op == "and":
        test = test.left
    if not (isinstance(test, ir.Compare) and test.op == "==" and trigger.bindings):
        return False
    sides = {(type(test.left), getattr(test.left, "name", None)), (type(test.right), getattr(test.right, "name", None))}
    return sides == {(ir.Ref, trigger.bindings[0]), (ir.Ref, "self")}


def write_predicate(gen: CodeGenerator, decision: Decision, outer: Scope | None = None) -> BodyWriter:
    """The body of `LP_<action>(m, ctx, keep, limit)` — for an ability, `(m, ctx, keep,
    limit, head)`: the legal combinations of the decision's leading choices, each a list of
    answers. `keep` filters a choice's options as probing does (a card whose `play:`
    condition fails is no answer); past `limit` combinations it stops. An ability's
    condition reads only its card, so it is tested first, as its rule does (codegen
    `decision`); `head` starts the key its options are handed on under (the card, the
    ability and its user: moves.MoveFinder._probe_key). `outer`: the names a keyword's
    ability reads (its parameters)."""
    writer = BodyWriter(gen)
    writer.entry_step = False
    scope = outer.child() if outer is not None else Scope()
    lead = ir.action_parameters(decision.body)
    params = decision.body[:lead]
    ability = isinstance(decision, ir.Activated)
    # the last choice's answer cannot change legality: test the first, take them all
    blind = isinstance(decision, ir.ActionDecl) and option_blind_parameters(decision) == lead and lead > 0
    writer.at = params[0].span.line if params else decision.span.line
    writer.count_step(writer.at)
    writer.line("found = []")
    if ability and decision.condition is not None:
        writer.at = decision.condition.span.line or writer.at
        condition = writer.expr(decision.condition, scope, decide=False)
        _guarded(writer, [f"if not ({condition}):", "    return found"], ["return found"])
    head = f"{decision.name!r}, ctx.you.index" if isinstance(decision, ir.ActionDecl) else "*head"
    chosen: list[str] = []
    loops = 0
    for i, stmt in enumerate(params):
        writer.at = stmt.span.line
        escape = "continue" if loops else "return found"
        if isinstance(stmt, ir.Let):
            value = writer.expr(stmt.value, scope, decide=False)
            scope.bind(stmt.name)
            _guarded(writer, [f"{ident(stmt.name)} = {value}"], [escape])
            continue
        assert isinstance(stmt, ir.Choose)
        options = writer.choice_options(stmt, scope)
        site = gen.site_of.get(id(stmt))
        scope.bind(stmt.var)
        held = writer.fresh()
        body = [f"{held} = {options}"]
        if site is not None:  # handed on to the move's own choice (rt.probed_options reads it)
            path = f"({head}, {''.join(c + ', ' for c in chosen)})"  # (in line: a call less a choice)
            body += ["try:", f"    m.probe_cache[({site!r}, m.version, {path})] = {held}",
                     "except TypeError:  # (an answer that cannot be a key: computed again)", "    pass"]
        # (keep is rt.keep_all unless some card has a `play:` condition: then no call)
        _guarded(writer, [*body, "if keep is not rt.keep_all:", f"    {held} = keep({held})"], [escape])
        if blind and i == lead - 1:
            writer.line(f"if {held}:")
            writer.indent += 1
            writer.line(f"{ident(stmt.var)} = {held}[0]")
            _final_test(writer, gen, decision, scope, f"found.extend([[{''.join(c + ', ' for c in chosen)}_o] "
                                                      f"for _o in {held}])")
            writer.indent -= 1
            break
        writer.line(f"for {ident(stmt.var)} in {held}:")
        writer.indent += 1
        loops += 1
        chosen.append(ident(stmt.var))
    else:
        _final_test(writer, gen, decision, scope, f"found.append([{', '.join(chosen)}])")
    if loops:
        writer.indent = 1 + loops
        writer.line("if len(found) > limit:")
        writer.line("    return found")
    writer.indent = 1
    writer.at = 0
    writer.line("return found")
    return writer


def _final_test(writer: BodyWriter, gen: CodeGenerator, decision: Decision, scope: Scope, keep_line: str) -> None:
    """The condition (an action's: an ability's was tested first), then the cost's test,
    for the answers bound so far; `keep_line` records them when both hold."""
    tests: list[str] = []
    if isinstance(decision, ir.ActionDecl) and decision.condition is not None:
        writer.at = decision.condition.span.line or writer.at
        tests.append(f"({writer.expr(decision.condition, scope, decide=False)})")
    for stmt in _checked_lines(decision, gen):  # (the lines left out cannot fail: _cost_problem)
        assert isinstance(stmt, ir.Invoke)
        writer.at = stmt.span.line
        args = writer.native_args(stmt, scope)
        assert args is not None
        tests.append(f"m.native_checks[{stmt.procedure!r}](ctx{args})")
    if not tests:
        writer.line(keep_line)
        return
    _guarded(writer, [f"if {' and '.join(tests)}:", f"    {keep_line}"], ["pass"])


def _guarded(writer: BodyWriter, body: list[str], on_error: list[str]) -> None:
    """`body` under the errors that make a probed move illegal (rt.illegal says which;
    others, and limits broken, stop the match as they would when the move ran)."""
    writer.line("try:")
    for text in body:
        writer.line("    " + text)
    writer.line(_FAIL)
    writer.line("    if not rt.illegal(_error):")
    writer.line("        raise")
    for text in on_error:
        writer.line("    " + text)
