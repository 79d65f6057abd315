"""Statements → Python lines: the other half of a rule body's lowering.

Every rule body becomes a generator function: a decision is `yield`ed as a request and
the engine sends the answer back, so the same compiled code serves agents, people at a
terminal and scenario tests. This writer turns each IR statement into Python lines (its
expressions come from ExprWriter, codegen_exprs.py) and tags each line with the .cards
line of its statement, for the module's line table (linetable.py): a rules error is
traced back to its .cards line from the traceback, so the code stores no line as it runs.
The only line it stores is the loop guard's (`m.last_line`, with `m.steps`: count_step),
counted at each call and each time round a loop, which also tells the engine where the
rules were when an error has no generated frame in its traceback.
"""

from __future__ import annotations

import ast
import keyword
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from cardsmith.compiler import codegen_catalogue, codegen_first, codegen_scan, inline
from cardsmith.compiler.codegen_exprs import CodegenError, ExprWriter, Scope, ident
from cardsmith.compiler.purity import nodes
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import members
from cardsmith.dsl.words import EVERY_DETERMINERS
from cardsmith.model.values import MAX_LISTED

if TYPE_CHECKING:
    from cardsmith.compiler.codegen import CodeGenerator

_INT = re.compile(r"-?[0-9]+\Z")  # generated code that is an int literal
_LITERAL_RANGE = re.compile(r"range\((-?[0-9]+), (-?[0-9]+)\)\Z")  # int_range's over two literals
SHORT_LOOP = 16  # numbers at most in a loop counted as one step (nested, 16**depth times round)


def _rolls_dice(node: Any) -> bool:
    """Does this statement (or anything inside it) roll dice?"""
    if isinstance(node, ir.Roll | ir.Dice):
        return True
    if isinstance(node, list):
        return any(_rolls_dice(item) for item in node)
    if isinstance(node, dict):
        return any(_rolls_dice(item) for item in node.values())
    if isinstance(node, ir.Node):
        return any(_rolls_dice(getattr(node, name)) for name in type(node).model_fields if name != "span")
    return False


class BodyWriter(ExprWriter):
    """Writes the Python lines of one function body. A visitor over statements as well as
    expressions (its `covers` replaces ExprWriter's, so it names both): `stmt` dispatches
    to the statement's `visit_<Kind>`, `expr` to the expression's."""

    covers = members(ir.Expr) + members(ir.Stmt)

    def __init__(self, gen: CodeGenerator, indent: int = 1) -> None:
        super().__init__(gen, indent)
        self.entry_step = True  # the body's first statement counts the call as a step
        self.rebound: set[str] | None = None  # names never "certainly a card" (rebound_names)
        for text in gen.preamble:
            self.line(text)


    def block(self, body: list[ir.Stmt], scope: Scope) -> None:
        if self.rebound is None:  # the whole body: the first block written
            self.rebound = rebound_names(body)
        if not body:
            self.line("pass")
            return
        for stmt in body:
            self.stmt(stmt, scope)

    def nested(self, body: list[ir.Stmt], scope: Scope) -> None:
        known = dict(self.known)  # (a block run only sometimes: what it reads is not known after it)
        self.indent += 1
        self.block(body, scope)
        self.indent -= 1
        self.known = known
        self.forget(body)

    def forget_name(self, name: str) -> None:
        """What is known of `name` (its stats read, the calls naming it: ExprWriter.known) is
        forgotten: the name is given a value. (A key may name it only as a word: forgotten too.)"""
        marks = (f"'{name}'", f"{ident(name)}.", f"'{ident(name)}'")
        self.known = {key: temp for key, temp in self.known.items() if not any(mark in key for mark in marks)}

    def forget(self, body: list[ir.Stmt]) -> None:
        """What was known of a name the block gives a value to (a `let`, `set`, loop or
        choice anywhere in it) is not known after it, nor, in a loop, at the top of its
        body the next time round (forget_name)."""
        if self.known:
            for name in {name for s in nodes(body) if (name := _binds(s)) is not None}:
                self.forget_name(name)

    def loop_body(self, line: int, body: list[ir.Stmt], scope: Scope, counted: bool = True) -> None:
        """A loop's body counts a step each time round: the guard against rules that
        loop without end (straight-line code cannot loop, so only loops and calls count).
        `counted` False: the loop counted its one step before it (visit_ForEach)."""
        self.forget(body)
        known = dict(self.known)
        self.indent += 1
        if counted:
            self.count_step(line)
        self.block(body, scope)
        self.indent -= 1
        self.known = known


    def stmt(self, s: ir.Stmt, scope: Scope) -> None:
        """One statement; its lines (and those of its hoisted choices, and the lines of
        an `if` that test its later branches) map to its .cards line, a nested statement's
        to that statement's own."""
        outer, self.at = self.at, s.span.line
        binds = _binds(s)
        if binds is not None:  # (a name given a value: what was known of it, or of a name it hides, is not)
            self.forget_name(binds)
        self._stmt(s, scope)
        if binds is not None:
            self.forget_name(binds)
        if _rolls_dice(s) and not isinstance(s, ir.Return):
            # the `rolled` event follows the statement that rolled
            self.line("yield from m.emit_rolls(ctx)")
        self.at = outer

    def count_step(self, line: int) -> None:
        """The loop guard's step (Match.step) counted in line: the count and the line kept,
        Match.step called only to raise once the count is past rt.MAX_STEPS. A call of a
        method per step cost more than the step (Two Kingdoms counts ~60 an action)."""
        self.line(f"m.steps += 1; m.last_line = {line!r}")
        self.line(f"if m.steps > rt.MAX_STEPS: m.step({line!r})")

    def _stmt(self, s: ir.Stmt, scope: Scope) -> None:
        if self.entry_step:
            self.entry_step = False
            self.count_step(s.span.line)  # a call counts a step too
        self.visit(s, scope)

    # one method per statement kind: (node, scope), writing its lines
    def visit_Let(self, s: ir.Let, scope: Scope) -> None:
        value = self.expr(s.value, scope)
        scope.bind(s.name)
        self.line(f"{ident(s.name)} = {value}")

    def visit_If(self, s: ir.If, scope: Scope) -> None:
        after_first: dict[str, str] = {}
        for i, branch in enumerate(s.branches):
            cond = self.expr(branch.condition, scope)
            if i == 0:  # (only the first test is always asked: what a later one reads is not known after)
                after_first = dict(self.known)
            self.line(f"{'if' if i == 0 else 'elif'} {cond}:")
            self.nested(branch.body, scope.child())
        if s.orelse is not None:
            self.line("else:")
            self.nested(s.orelse, scope.child())
        blocks = [branch.body for branch in s.branches] + ([s.orelse] if s.orelse is not None else [])
        self.known = after_first
        for block in blocks:
            self.forget(block)

    def visit_ForEach(self, s: ir.ForEach, scope: Scope) -> None:
        deck = codegen_catalogue.catalogue_loop(self, s, scope)
        if deck is not None:  # (a deck made from the catalogue: one call, its steps counted there)
            self.line(deck)
            return
        counted = self.int_range(s.source, scope)
        source = counted if counted is not None else self.expr(s.source, scope)
        self.forget_name(s.var)  # (the source read a name the loop's variable may hide)
        inner = scope.child()
        each = isinstance(s.source, ir.Query) and s.source.det in EVERY_DETERMINERS
        inner.bind(s.var, card=each and isinstance(s.source, ir.Query)
                   and s.source.noun.lower() not in ir.PLAYER_NOUNS and s.var not in (self.rebound or ()))
        # a query's result, a range and the players (rt.players) are new lists: looped over as they are
        if each and codegen_first.returns_at_once(s.body):
            source = codegen_first.lazily(source) or source  # (no list: the first card found is all it reads)
        # a loop over a few literal numbers (`for each dx in -1..1`, ~100 times an action in
        # Two Kingdoms' path search) cannot go on without end: one step counts it, before it
        short = counted is not None and (bounds := _LITERAL_RANGE.match(counted)) is not None \
            and int(bounds[2]) - int(bounds[1]) <= SHORT_LOOP
        # so does a loop over the players (the seats at the table: a few, never more while it runs)
        short = short or source == "rt.players(m)"
        if short:
            self.count_step(s.span.line)
        if each or counted is not None or source == "rt.players(m)":
            self.line(f"for {ident(s.var)} in {source}:")
        else:
            self.line(f"for {ident(s.var)} in rt.iterate(m, {source}):")
        self.loop_body(s.span.line, s.body, inner, counted=not short)

    def int_range(self, source: ir.Expr, scope: Scope) -> str | None:
        """The loop's source for `for each dx in -1..1` (None for any other source): over two
        plain ints Python's range, as rt.iterate lists a Range of ints (Two Kingdoms' path
        search loops so ~70 times an action); the Range for anything else (a fraction,
        none, a range too long to list: its error). Each bound is written once."""
        if not isinstance(source, ir.RangeExpr) or source.low is None or source.high is None:
            return None
        low, high = self.expr(source.low, scope), self.expr(source.high, scope)
        if _INT.match(low) and _INT.match(high):
            a, b = int(low), int(high)
            if b - a < MAX_LISTED:
                return f"range({a}, {b + 1})"
        guarded = self.int_guard(low, high)
        if guarded is None:
            return f"rt.iterate(m, rt.Range({low}, {high}))"
        guard, (a_, b_) = guarded
        return (f"(range({a_}, {b_} + 1) if {guard} and {b_} - {a_} < {MAX_LISTED} "
                f"else rt.iterate(m, rt.Range({a_}, {b_})))")

    def visit_Repeat(self, s: ir.Repeat, scope: Scope) -> None:
        count = self.expr(s.count, scope)
        first, held = self.held(count)  # (a plain int counts itself, as rt.whole answers it)
        whole = held if _INT.match(count) else f"{held} if type({first}) is int else rt.whole(m, {held})"
        self.line(f"for _ in range({whole}):")
        self.loop_body(s.span.line, s.body, scope.child())

    def visit_While(self, s: ir.While, scope: Scope) -> None:
        cond = self.expr(s.condition, scope)
        self.line(f"while {cond}:")
        self.loop_body(s.span.line, s.body, scope.child())

    def visit_ChooseOne(self, s: ir.ChooseOne, scope: Scope) -> None:
        by = self.expr(s.by, scope) if s.by is not None else "ctx.you"
        labels = [o.label for o in s.options]
        pick = self.fresh()
        self.line(f"{pick} = yield rt.ChooseOption(m, {by}, {labels!r}, {s.span.line!r})")
        for i, option in enumerate(s.options):
            self.line(f"{'if' if i == 0 else 'elif'} {pick} == {i!r}:")
            self.nested(option.body, scope.child())

    def visit_Simultaneously(self, s: ir.Simultaneously, scope: Scope) -> None:
        self.line("yield rt.BeginSimultaneous()")
        self.block(s.body, scope)
        self.line("yield rt.EndSimultaneous()")

    def visit_Emit(self, s: ir.Emit, scope: Scope) -> None:
        args = ", ".join(self.expr(a, scope) for a in s.args)
        self.line(f"yield from rt.emit(m, ctx, {s.event!r}, [{args}])")

    def visit_Cancel(self, s: ir.Cancel, scope: Scope) -> None:
        self.line("raise rt.Cancelled()")

    def visit_Return(self, s: ir.Return, scope: Scope) -> None:
        self.line(f"return {self.expr(s.value, scope) if s.value is not None else 'None'}")

    def visit_Perform(self, s: ir.Perform, scope: Scope) -> None:
        by = self.expr(s.by, scope)
        choosing = ", ".join(self.expr(c, scope) for c in s.choosing)
        self.line(f"yield from rt.perform(m, ctx, {s.action!r}, {by}, [{choosing}], "
                  f"{s.expect_illegal!r}, {s.span.line!r})")

    def visit_Expect(self, s: ir.Expect, scope: Scope) -> None:
        cond = self.expr(s.condition, scope)
        self.line(f"rt.expect(m, {cond}, {s.message!r}, {s.span.line!r})")


    def visit_Invoke(self, s: ir.Invoke, scope: Scope) -> None:
        """A procedure call. One that no rule or card hooks, written in the game's files,
        is called straight (its missing arguments take their defaults here); a native or
        hooked one goes through the engine, which runs its hooks."""
        kinds = self.gen.proc_name_params.get(s.procedure, set())
        values = {k: repr(v.name) if k in kinds and isinstance(v, ir.Ref) and v.name not in scope.locals
                  else self.expr(v, scope) for k, v in s.args.items()}
        proc = self.gen.procedures.get(s.procedure)
        if proc is not None and not proc.native and s.procedure not in self.gen.hooked \
                and all(p.name in values or p.default is not None for p in proc.params):
            args = "".join(f", {values[p.name] if p.name in values else self.default(p)}" for p in proc.params)
            self.line(f"yield from {ident(s.procedure, 'P_')}(m, ctx{args})")
            return
        native = self.native_args(s, scope, values)
        if native is not None:
            # the engine's own method, called straight; it may return a generator to run
            temp = self.fresh()
            self.line(f"{temp} = m.natives[{s.procedure!r}](ctx{native})")
            self.line(f"if type({temp}) is rt.GeneratorType:")
            self.line(f"    yield from {temp}")
            return
        pairs = ", ".join(f"{k!r}: {v}" for k, v in values.items())
        self.line(f"yield from rt.invoke(m, ctx, {s.procedure!r}, {{{pairs}}})")

    def native_args(self, s: ir.Invoke, scope: Scope, values: dict[str, str] | None = None) -> str | None:
        """`, name=value, ...` for a straight call of an unhooked native procedure (every
        parameter given or defaulted), or None when the call must go through the engine.
        One spelling for the call itself and for its check in a legality predicate."""
        proc = self.gen.procedures.get(s.procedure)
        if proc is None or not proc.native or s.procedure in self.gen.hooked \
                or not all(p.name.isidentifier() and not keyword.iskeyword(p.name) for p in proc.params):
            return None
        if values is None:
            kinds = self.gen.proc_name_params.get(s.procedure, set())
            values = {k: repr(v.name) if k in kinds and isinstance(v, ir.Ref) and v.name not in scope.locals
                      else self.expr(v, scope) for k, v in s.args.items()}
        if not all(p.name in values or p.default is not None for p in proc.params):
            return None
        return "".join(f", {p.name}={values[p.name] if p.name in values else self.default(p)}" for p in proc.params)


    def counter_change(self, obj: str, field: str, op: str, value: str) -> None:
        """`set p.health to 0` (increase, decrease) with no duration: a player's counter, or
        a counter the card has, changed by the setter rt.change_field would call (Combat Cards
        changes a dozen an action); rt.change_field for anything else. The object, then the
        value, are evaluated once, in that order, as the call's arguments were."""
        held = []
        for code in (obj, value):
            if not inline.plain(code):
                code, temp = self.fresh(), code
                self.line(f"{code} = {temp}")
            held.append(code)
        obj, value = held
        new = {"set": lambda read: value, "increase": lambda read: f"rt.add({read}, {value})",
               "decrease": lambda read: f"rt.sub({read}, {value})"}.get(op)
        if new is None:  # (the checker allows only these three)
            self.line(f"rt.change_field(m, {obj}, {field!r}, {op!r}, {value}, None, None)")
            return
        # (a counter set to an int it can hold that it holds already is no change: the
        # setters return at once, so it is not called — Combat Cards' section resets, ~9 an action)
        same = op == "set" and _INT.match(value) is not None and _holds(self.gen.game, field, int(value))
        old = self.fresh() if same else ""
        self.line(f"if type({obj}) is rt.Player:")
        if same:
            self.line(f"    if type(({old} := {obj}.counters.get({field!r}))) is not int or {old} != {value}:")
        self.line(f"    {'    ' if same else ''}m.set_counter({obj}, {field!r}, "
                  f"{new(f'{obj}.counters.get({field!r}, 0)')})")
        self.line(f"elif type({obj}) is rt.Card and {field!r} in {obj}.counters:")
        if same:
            self.line(f"    if type(({old} := {obj}.counters[{field!r}])) is not int or {old} != {value}:")
        self.line(f"    {'    ' if same else ''}m.set_card_counter({obj}, {field!r}, "
                  f"{new(f'{obj}.counters[{field!r}]')})")
        if op == "set" and field in {d.name for d in self.gen.game.statuses}:
            # a card's status set to what it already is: no change, nothing logged (as
            # rt.change_field decides; Two Kingdoms' `ready` clears four statuses of every unit)
            on = value if value in ("True", "False") else f"bool({value})"
            self.line(f"elif type({obj}) is rt.Card and ({field!r} in {obj}.statuses) is {on}:")
            self.line("    pass")
        self.line("else:")
        self.line(f"    rt.change_field(m, {obj}, {field!r}, {op!r}, {value}, None, None)")

    def visit_Assign(self, s: ir.Assign, scope: Scope) -> None:
        value = self.expr(s.value, scope)
        period = None
        condition = "None"
        if s.duration is not None and s.duration.kind in ("until_end", "until_next"):
            period = s.duration.period if s.duration.kind == "until_end" else f"next:{s.duration.period}"
        elif s.duration is not None and s.duration.kind == "while" and s.duration.condition is not None:
            condition = f"(lambda: {self.expr(s.duration.condition, scope)})"
        target = s.target
        if isinstance(target, ir.Ref) and target.name in scope.locals:
            name = ident(target.name)
            if s.op == "set":
                self.line(f"{name} = {value}")
            else:
                sign = "+" if s.op == "increase" else "-"
                self.line(f"{name} = rt.arith({sign!r}, {name}, {value})")
            return
        if isinstance(target, ir.Ref):
            owner = "None" if self.gen.counter_scope(target.name) == "shared" else "ctx.you"
            if owner == "None" and s.op == "set":  # (rt.change_counter's own call, without its frame)
                self.line(f"m.set_counter(None, {target.name!r}, {value})")
                return
            self.line(f"rt.change_counter(m, {owner}, {target.name!r}, {s.op!r}, {value})")
            return
        if isinstance(target, ir.Attr):
            obj = self.expr(target.obj, scope)
            # `until your next X` lapses when the player making the change next begins X
            lapse = f"rt.next_period({period!r}, ctx.you or m.current)" if period and period.startswith("next:") \
                else repr(period)
            if period is None and condition == "None":
                self.counter_change(obj, target.name, s.op, value)
                return
            self.line(f"rt.change_field(m, {obj}, {target.name!r}, {s.op!r}, {value}, {lapse}, {condition})")
            return
        if isinstance(target, ir.Index):
            obj = self.expr(target.obj, scope)
            index = self.expr(target.index, scope)
            self.line(f"rt.change_index(m, {obj}, {index}, {s.op!r}, {value})")
            return
        raise CodegenError(f"cannot assign to {target.kind}")  # the checker rejects this first

    def visit_Choose(self, s: ir.Choose, scope: Scope) -> None:
        options = self.choice_options(s, scope)
        by = self.expr(s.by, scope) if s.by is not None else "ctx.you"
        n = self.expr(s.count.n, scope) if s.count.n is not None else "None"
        scope.bind(s.var)
        targeting = isinstance(s.source, ir.Query) and s.source.det == "target"
        site = self.gen.choice_site(s)
        self.line(f"{ident(s.var)} = yield rt.Choose(m, {by}, rt.probed_options(m, {site!r}, "
                  f"lambda: {options}), "
                  f"{s.count.mode!r}, {n}, hidden={s.hidden!r}, optional={s.optional!r}, "
                  f"targeting={targeting!r}, label={s.var!r}, line={s.span.line!r})")

    def choice_options(self, s: ir.Choose, scope: Scope) -> str:
        """A choice's options: its source, filtered by its `where`. One expression for the
        choice itself and for the action's compiled legality predicate (legality.py)."""
        source = self.expr(s.source, scope, decide=False)
        if s.condition is None and isinstance(s.source, ir.Query) and _query_call(source):
            return source  # (a query's list is always a new one: rt.options would only copy it)
        where = "None"
        if s.condition is not None:
            inner = scope.child()
            inner.bind("it")
            where = f"(lambda v_it: {self.expr(s.condition, inner, decide=False)})"
        return f"rt.options(m, {source}, {where})"


def _holds(game: ir.Game, counter: str, value: int) -> bool:
    """Is `value` within the bounds of every counter of that name, as written (an int
    literal or none)? Then the setters' clamp leaves it as it is (counters.py)."""
    for decl in game.counters:
        if decl.name != counter:
            continue
        for bound, low in ((decl.min, True), (decl.max, False)):
            if bound is None:
                continue
            if not isinstance(bound, ir.Num) or bound.den != 1 or (value < bound.num if low else value > bound.num):
                return False
    return True


def _query_call(code: str) -> bool:
    """Is the code one call of q.query (engine/queries.py), or a query's scan in line
    (codegen_scan.py: a comprehension), nothing around it?"""
    tree = ast.parse(code, mode="eval").body
    if codegen_scan.lists_all(tree):
        return True
    return isinstance(tree, ast.Call) and isinstance(tree.func, ast.Attribute) and tree.func.attr == "query" \
        and isinstance(tree.func.value, ast.Name) and tree.func.value.id == "q"


def _binds(s: object) -> str | None:
    """The local name a statement gives a value to, if any."""
    if isinstance(s, ir.Let):
        return s.name
    if isinstance(s, ir.ForEach | ir.Choose):
        return s.var
    if isinstance(s, ir.Assign) and isinstance(s.target, ir.Ref):
        return s.target.name
    return None


def rebound_names(body: list[ir.Stmt]) -> set[str]:
    """Names a body binds more than once, or sets: a loop's variable is "certainly a card"
    only when nothing else in the whole body can give the Python variable another value
    (Python variables live as long as the function, not the block)."""
    bound: Counter[str] = Counter()
    assigned: set[str] = set()
    for node in nodes(body):
        if isinstance(node, ir.Let):
            bound[node.name] += 1
        elif isinstance(node, ir.ForEach | ir.Choose):
            bound[node.var] += 1
        elif isinstance(node, ir.Assign) and isinstance(node.target, ir.Ref):
            assigned.add(node.target.name)
    return {name for name, count in bound.items() if count > 1} | assigned
