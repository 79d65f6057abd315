"""Statements, the scopes they run in, and phrase arguments.

Walks rule bodies: `let` and `choose` bind names in the scope, loops bind their
variable, `set`/`increase` need a settable target of a matching type, and each phrase
(procedure call) gets arguments of its parameters' types. Declarations of every kind
(cards, keywords, procedures, stages, scenarios) check their bodies through `block`.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardsmith.compiler.check_exprs import ExpressionChecker
from cardsmith.compiler.check_types import NUMERIC, Scope, article, compatible, element_of, plural_of
from cardsmith.compiler.namekinds import NAME_PARAM_TYPES
from cardsmith.compiler.symbols import PERIODS, SCENARIO_STATEMENTS
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.visitor import members


class StatementChecker(ExpressionChecker):
    """Checks statements in a scope, and builds the scope parameters open.

    `statement` dispatches to `visit_<Stmt>`; `covers` adds the statements to the
    expressions, so this class's table (and the composed Checker's) holds both."""

    covers = members(ir.Expr) + members(ir.Stmt)

    def param_scope(self, params: Iterable[ir.Param]) -> Scope:
        scope: Scope = {}
        self.check_duplicate_params(params)
        for p in params:
            self.check_type_name(p)
            scope[p.name] = self.param_value_type(p.type)
            if p.default is not None and not (isinstance(p.default, ir.Ref)
                                              and p.default.name in ("self", "you", "none")):
                self.infer(p.default, {})
        return scope

    def check_duplicate_params(self, params: Iterable[ir.Param]) -> None:
        """Two parameters of one procedure, function, keyword or event with one name."""
        seen: dict[str, ir.Param] = {}
        for p in params:
            first = seen.setdefault(p.name, p)
            if first is not p:
                self.error(p.span, "CS0201", f"duplicate parameter '{p.name}'",
                           f"the first '{p.name}' is at line {first.span.line}, column "
                           f"{first.span.column}; rename one")

    def block(self, body: list[ir.Stmt], scope: Scope, share: bool = False) -> None:
        inner = scope if share else dict(scope)
        for stmt in body:
            self.statement(stmt, inner)

    def statement(self, s: ir.Stmt, scope: Scope) -> None:
        self.visit(s, scope)

    # One method per statement kind, found by the Visitor's table; a statement may bind
    # names in `scope` (let, choose), so each gets the scope it runs in.

    def visit_Let(self, s: ir.Let, scope: Scope) -> None:
        scope[s.name] = self.infer(s.value, scope)

    def visit_If(self, s: ir.If, scope: Scope) -> None:
        for b in s.branches:
            self.expect_type(b.condition, scope, {"bool", "any"}, "a condition")
            self.block(b.body, scope)
        if s.orelse is not None:
            self.block(s.orelse, scope)

    def visit_ForEach(self, s: ir.ForEach, scope: Scope) -> None:
        source = self.infer(s.source, scope)
        inner = dict(scope)
        inner[s.var] = element_of(source)
        self.block(s.body, inner, share=True)

    def visit_Repeat(self, s: ir.Repeat, scope: Scope) -> None:
        self.expect_type(s.count, scope, NUMERIC, "a repeat count")
        self.block(s.body, scope)

    def visit_While(self, s: ir.While, scope: Scope) -> None:
        self.expect_type(s.condition, scope, {"bool", "any"}, "a condition")
        self.block(s.body, scope)

    def visit_Choose(self, s: ir.Choose, scope: Scope) -> None:
        source = self.infer(s.source, scope)
        if s.condition is not None:
            inner = {**scope, "it": element_of(source)}
            self.expect_type(s.condition, inner, {"bool", "any"}, "a where clause")
        if source not in ("cards", "card", "players", "list", "any", "range", "player"):
            self.error(s.source.span, "CS0301", f"cannot choose from {article(source)}",
                       "choose from a query, a zone's cards, a list or players")
        if s.by is not None:
            self.expect_type(s.by, scope, {"player", "any"}, "the chooser")
        if s.count.n is not None:
            self.expect_type(s.count.n, scope, NUMERIC, "a count")
        element = element_of(source)
        scope[s.var] = element if s.count.mode == "one" else plural_of(element)

    def visit_ChooseOne(self, s: ir.ChooseOne, scope: Scope) -> None:
        if s.by is not None:
            self.expect_type(s.by, scope, {"player", "any"}, "the chooser")
        for o in s.options:
            self.block(o.body, scope)

    def visit_Simultaneously(self, s: ir.Simultaneously, scope: Scope) -> None:
        self.block(s.body, scope, share=True)

    def visit_Cancel(self, s: ir.Cancel, scope: Scope) -> None:
        """`cancel` names nothing and computes nothing: there is nothing to check."""

    def visit_Return(self, s: ir.Return, scope: Scope) -> None:
        if s.value is not None:
            self.infer(s.value, scope)

    def visit_Perform(self, s: ir.Perform, scope: Scope) -> None:
        if not self.in_scenario_body:
            self.error(s.span, "CS0205", f"'{'expect illegal' if s.expect_illegal else 'perform'}' only works "
                       "in a scenario", "in the rules, players take actions through the stages' windows")
        self.use("action", s.action)
        if s.action not in self.sym.actions:
            self.error(s.span, "CS0202", f"unknown action '{s.action}'",
                       did_you_mean(s.action, self.sym.actions))
        self.expect_type(s.by, scope, {"player", "any", "number"}, "the acting player")
        for c in s.choosing:
            self.infer(c, scope)

    def visit_Expect(self, s: ir.Expect, scope: Scope) -> None:
        if not self.in_scenario_body:
            self.error(s.span, "CS0205", "'expect' only works in a scenario",
                       "a rule that must hold is a 'check' block; a scenario asserts with 'expect'")
        self.expect_type(s.condition, scope, {"bool", "any"}, "an expectation")

    def visit_Assign(self, s: ir.Assign, scope: Scope) -> None:
        target = s.target
        if isinstance(target, ir.Ref):
            name = target.name
            if name not in scope:
                counter = self.sym.counters.get(name)
                if counter is None or counter.scope == "card":
                    known = list(scope) + [c.name for c in self.game.counters if c.scope != "card"]
                    self.error(target.span, "CS0202", f"cannot set '{name}': not a local or counter",
                               did_you_mean(name, known))
                    return
                self.use("counter", name)
            tt = scope.get(name, "number")
        elif isinstance(target, ir.Attr | ir.Index):
            tt = self.infer(target, scope)
        else:
            self.error(target.span, "CS0301", "only a name or a field can be set",
                       "e.g. set t.attack to 3, increase score by 1")
            return
        vt = self.infer(s.value, scope)
        if s.op != "set" and tt not in NUMERIC:
            self.error(target.span, "CS0301", f"cannot {s.op} {article(tt)}", "only numbers change by an amount")
        if s.op != "set" and vt not in NUMERIC:
            self.error(s.value.span, "CS0301", f"expected a number, found {article(vt)}")
        if s.op == "set" and tt == "number" and vt not in NUMERIC:
            self.error(s.value.span, "CS0301", f"expected a number, found {article(vt)}")
        if s.op == "set" and tt == "bool" and vt not in ("bool", "any"):
            self.error(s.value.span, "CS0301", f"expected yes/no, found {article(vt)}")
        if s.duration is not None:
            self.check_duration(s.duration, scope)
            if s.duration.kind != "permanently":
                self.check_lapsing_target(s, scope)

    def check_lapsing_target(self, s: ir.Assign, scope: Scope) -> None:
        """Only a card's stats and properties carry changes that lapse (modifiers); a
        counter, status, player value or local keeps what it is set to, so a duration on
        one would be silently ignored."""
        target = s.target
        what = None
        if isinstance(target, ir.Ref):
            what = f"'{target.name}' (a {'local' if target.name in scope else 'counter'})"
        elif isinstance(target, ir.Index):
            what = "an element of a list"
        elif isinstance(target, ir.Attr):
            counter = self.sym.counters.get(target.name)
            if counter is not None:
                what = f"the counter '{target.name}'"
            elif target.name in self.sym.statuses:
                what = f"the status '{target.name}'"
            elif self.infer(target.obj, scope) == "player":
                what = f"a player's '{target.name}'"
        if what is not None:
            assert s.duration is not None
            self.error(s.duration.span, "CS0303", f"{what} cannot change for a while: this duration would be ignored",
                       "durations work on a card's stats and properties; give a counter or status a "
                       "'reset:' time, or change it back in a trigger")

    def check_duration(self, d: ir.Duration, scope: Scope) -> None:
        if d.kind == "until_end" and d.period == "game":
            self.error(d.span, "CS0303", "'until end of game' only repeats 'permanently'",
                       "write 'permanently' (or nothing: a change lasts unless it says otherwise)")
            return
        if d.period is not None and d.period not in PERIODS and d.period not in self.sym.stages:
            self.error(d.span, "CS0202", f"unknown period '{d.period}'",
                       did_you_mean(d.period, PERIODS | self.sym.stages))
        if d.condition is not None:
            self.expect_type(d.condition, scope, {"bool", "any"}, "a duration condition")

    def visit_Emit(self, s: ir.Emit, scope: Scope) -> None:
        event = self.sym.events.get(s.event)
        for a in s.args:
            self.infer(a, scope)
        if event is None:
            if s.event not in self.broken:
                self.error(s.span, "CS0202", f"unknown event '{s.event}'", did_you_mean(s.event, self.sym.events))
            return
        self.use("event", s.event)
        if len(s.args) != len(event.params):
            self.error(s.span, "CS0502", f"event '{s.event}' takes {len(event.params)} value(s), "
                       f"{len(s.args)} given")

    def visit_Invoke(self, s: ir.Invoke, scope: Scope) -> None:
        proc = self.sym.procedures.get(s.procedure)
        if proc is None:  # the builder only resolves to known procedures
            return
        self.use("procedure", proc.name)
        if proc.name in SCENARIO_STATEMENTS and not self.in_scenario_body:
            self.error(s.span, "CS0205", f"'{s.phrase or proc.name}' only works in a scenario",
                       "it runs a scenario's played flow forward; the rules move time with stages and 'end the turn'")
        if proc.name == "run_stage":
            self.check_stage_name(s.args.get("stage"))
        for p in proc.params:
            arg = s.args.get(p.name)
            if arg is None:
                if p.default is None:
                    self.error(s.span, "CS0204", f"'{proc.name}' needs a value for '{p.name}'")
                continue
            self.check_argument(proc.name, p, arg, scope)

    def check_stage_name(self, arg: ir.Expr | None) -> None:
        """`run stage "S"` names a stage or step (or a `stage.step` path) of the flow."""
        if not isinstance(arg, ir.Text):
            if arg is not None:
                self.error(arg.span, "CS0301", "'run stage' takes the stage's name in quotes", 'e.g. run stage "main"')
            return
        known: set[str] = set()

        def walk(stages: list[ir.StageDecl], prefix: str) -> None:
            for stage in stages:
                known.update({stage.name, prefix + stage.name})
                walk(stage.steps, f"{prefix}{stage.name}.")
        for flow in self.game.flows:
            walk(flow.stages, "")
        if arg.value not in known:
            self.error(arg.span, "CS0202", f"no stage or step is named '{arg.value}'", did_you_mean(arg.value, known))

    def check_argument(self, proc: str, p: ir.Param, arg: ir.Expr, scope: Scope) -> None:
        declared = p.type
        if declared in NAME_PARAM_TYPES:
            self.check_name_argument(declared, arg, scope)
            return
        if declared == "cardname":
            if isinstance(arg, ir.Text):
                self.check_card_name(arg)
                return
            found = self.infer(arg, scope)
            if found not in ("text", "any", "cardname"):  # (a card or a query would fail at play time)
                self.error(arg.span, "CS0301", f"'{proc}' expects a card name for {p.name}, found {article(found)}",
                           'write the name in quotes ("Guard"), or a name from catalog("TYPE")')
            return
        actual = self.infer(arg, scope)
        want = self.param_value_type(declared)
        if not compatible(want, actual):
            self.error(arg.span, "CS0301", f"'{proc}' expects {article(want)} for {p.name}, "
                       f"found {article(actual)}")
