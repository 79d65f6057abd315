"""Compiled legality predicates: an action's legal parameter combinations without probing.

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

The fragment (`fragment_problem` says why an action is outside it; those keep probing):
every leading parameter is a `let` or a one-of `choose` the actor makes; the cost is at
most one line, a checked native (`pay`) that no rule hooks; no expression asks, rolls or
calls a function that could change the state; no per-turn `limit`. tests/conformance
runs every legal-move computation both ways and fails on any difference, and
tests/test_legality_predicates.py does so over random positions of the library's games.
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

_FAIL = "except rt.ILLEGAL_ERRORS as _error:"


def fragment_problem(action: ir.ActionDecl, gen: CodeGenerator) -> str | None:
    """Why the action's legality must be probed rather than computed, or None."""
    if action.limit is not None:
        return "it has a limit per turn"
    lead = ir.action_parameters(action.body)
    params = action.body[:lead]
    sources: set[int] = set()
    for stmt in params:
        if isinstance(stmt, ir.Choose):
            if stmt.count.n is not None or stmt.count.mode != "one":
                return f"line {stmt.span.line} chooses several"
            if stmt.by is not None:
                return f"line {stmt.span.line} is a choice someone else makes"
            sources.add(id(stmt.source))
    if len(action.cost) > 1:
        return "its cost has more than one line"
    for stmt in action.cost:
        if not (isinstance(stmt, ir.Invoke) and stmt.procedure in CHECKED_NATIVES):
            return f"its cost (line {stmt.span.line}) does more than pay"
        proc = gen.procedures.get(stmt.procedure)
        if proc is None or not proc.native or stmt.procedure in gen.hooked:
            return f"its cost calls {stmt.procedure!r}, which a rule hooks"
    natives = {f.name for f in gen.game.functions if f.native}
    for node in nodes([params, action.condition, action.cost]):
        if isinstance(node, ir.Roll | ir.ChooseOne | ir.Simultaneously):
            return f"line {node.span.line} asks or rolls"
        if isinstance(node, ir.Query) and node.det not in EVERY_DETERMINERS and id(node) not in sources:
            return f"line {node.span.line} asks a player or picks at random"
        if isinstance(node, ir.Call) and node.func not in gen.pure \
                and not (node.func in natives and node.func in PURE_NATIVES):
            return f"it calls {node.func!r}, which may change the state"
    return None


def write_predicate(gen: CodeGenerator, action: ir.ActionDecl) -> BodyWriter:
    """The body of `LP_<action>(m, ctx, keep, limit)`: the legal combinations of the
    action's leading choices, each a list of answers. `keep` filters a choice's options as
    probing does (a card whose `play:` condition fails is no answer); past `limit`
    combinations it stops."""
    writer = BodyWriter(gen)
    writer.entry_step = False
    scope = Scope()
    lead = ir.action_parameters(action.body)
    params = action.body[:lead]
    # the last choice's answer cannot change legality: test the first, take them all
    blind = option_blind_parameters(action) == lead and lead > 0
    writer.at = params[0].span.line if params else action.span.line
    writer.line(f"m.step({writer.at!r})")
    writer.line("found = []")
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
        if site is not None:  # handed on to the move's own choice (rt.offered)
            path = f"({action.name!r}, ctx.you.index{''.join(', ' + c for c in chosen)})"
            options = f"rt.offered(m, {site!r}, {path}, {options})"
        scope.bind(stmt.var)
        held = writer.fresh()
        _guarded(writer, [f"{held} = keep({options})"], [escape])
        if blind and i == lead - 1:
            writer.line(f"if {held}:")
            writer.indent += 1
            writer.line(f"{ident(stmt.var)} = {held}[0]")
            _final_test(writer, action, scope, f"found.extend([{''.join(c + ', ' for c in chosen)}_o] "
                                               f"for _o in {held})")
            writer.indent -= 1
            break
        writer.line(f"for {ident(stmt.var)} in {held}:")
        writer.indent += 1
        loops += 1
        chosen.append(ident(stmt.var))
    else:
        _final_test(writer, action, scope, f"found.append([{', '.join(chosen)}])")
    if loops:
        writer.indent = 1 + loops
        writer.line("if len(found) > limit:")
        writer.line("    return found")
    writer.indent = 1
    writer.at = 0
    writer.line("return found")
    return writer


def _final_test(writer: BodyWriter, action: ir.ActionDecl, scope: Scope, keep_line: str) -> None:
    """The condition, then the cost's test, for the answers bound so far; `keep_line`
    records them when both hold."""
    tests: list[str] = []
    if action.condition is not None:
        writer.at = action.condition.span.line or writer.at
        tests.append(f"({writer.expr(action.condition, scope, decide=False)})")
    for stmt in action.cost:
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
