"""Semantic checks over an assembled game.

Resolves every name in its namespace, infers expression types, checks phrase
arguments against procedure parameters, validates cards against their card type and
the game's enums and keywords, and records what is used so that unused definitions
can be reported. Problems become diagnostics; checking never stops at the first one.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from cardsmith import values
from cardsmith.compiler.purity import nodes
from cardsmith.compiler.rulenames import declared_rules
from cardsmith.compiler.static_eval import fold
from cardsmith.compiler.symbols import (
    GLOBAL_BUILTINS,
    PERIODS,
    QUERY_ADJECTIVES,
    SCENARIO_STATEMENTS,
    TYPE_NAMES,
    ZONE_BUILTINS,
    Symbols,
    native_result,
)
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import DiagnosticSink, did_you_mean
from cardsmith.dsl.source import Span
from cardsmith.printables.geometry import CARD_SIZES, parse_size

Scope = dict[str, str]

NUMERIC = {"number", "dice", "any"}
# how deeply an expression may nest (operators, `not`, calls): far beyond any card game's
# rules, well within Python's stack for the passes that walk the tree
MAX_EXPR_DEPTH = 200
SINGLE_DETS = {"target", "a", "an", "any", "random", "another"}
# Actions the engine offers by itself: `activate` uses a card's activated abilities,
# `pass` ends the player's part in the stage.
ENGINE_ACTIONS = {"activate", "pass"}
# Query nouns that select players rather than cards.
PLAYER_NOUNS = {"player", "players", "opponent", "opponents"}
# Parameter types whose argument is a *name* (of a counter, status, ...) not a value.
NAME_PARAMS = {"counter", "status", "keyword", "field", "stage", "region"}


class Checker:
    def __init__(self, game: ir.Game, sink: DiagnosticSink, core_file: str,
                 broken: Iterable[str] = ()) -> None:
        self.game = game
        self.in_scenario_body = False  # scenario statements (SCENARIO_STATEMENTS) are allowed
        self.sink = sink
        self.sym = Symbols.build(game)
        self.core_file = core_file
        # names whose declaration failed to build (already reported there): their uses
        # stay quiet rather than each saying "unknown ..., did you mean <something else>?"
        self.broken = frozenset(broken)
        self.used: set[tuple[str, str]] = set()
        # params whose value depends on itself (set by check_params), and folded constants
        self.cyclic: set[str] = set()
        self._constants: dict[str, Fraction | None] = {}
        self._depth = 0  # how deep infer() is in the expression being checked
        self._too_deep_reported = False
        self._outermost: ir.Expr | None = None

    # ------------------------------------------------------------ entry point

    def run(self) -> None:
        g = self.game
        self.check_game_decl()
        self.check_params()
        for e in g.enums:
            self.check_enum(e)
        for c in g.counters:
            for value in (c.start, c.min, c.max):
                if value is not None:
                    self.expect_type(value, {}, NUMERIC, "a counter bound")
            self.check_counter_bounds(c)
        for z in g.zones:
            if z.board is not None:
                self.use("board", z.board)
                if z.board not in self.sym.boards:
                    self.error(z.span, "CS0202", f"unknown board '{z.board}'",
                               did_you_mean(z.board, self.sym.boards))
            if z.capacity is not None:
                self.expect_type(z.capacity, self.base_scope(), NUMERIC, "a capacity")
        for b in g.boards:
            self.check_board_cells(b)
        for t in g.cardtypes:
            self.check_cardtype(t)
        for card in g.cards:
            self.check_card(card)
        for k in g.keywords:
            self.check_keyword(k)
        for p in g.procedures:
            self.check_procedure(p)
        for f in g.functions:
            self.check_function(f)
        for event in g.events:
            self.check_duplicate_params(event.params)
            for param in event.params:
                self.check_type_name(param)
        for s in g.setup:
            self.block(s.body, self.base_scope())
            self.check_setup_owners(s)
        for flow in g.flows:
            self.check_flow(flow)
        for a in g.actions:
            self.check_action(a)
        for check in g.checks:
            self.block(check.body, self.base_scope())
        for trigger in g.triggers:
            self.check_trigger(trigger, self.base_scope())
        for h in g.hooks:
            self.check_hook(h, self.base_scope())
        if g.scoring is not None:
            scope = {**self.base_scope(), "p": "player"}
            self.expect_type(g.scoring.score, scope, NUMERIC, "a score")
            for tiebreak in g.scoring.tiebreak:
                self.expect_type(tiebreak, scope, NUMERIC, "a tiebreak")
        if g.heuristic is not None:
            self.expect_type(g.heuristic.value, self.base_scope(), NUMERIC, "a heuristic")
        if g.deck is not None:
            self.check_deck(g.deck)
        for layout in g.layouts:
            self.check_layout(layout)
        for sheet in g.sheets:
            scope = {**self.base_scope(), "card": "card"}
            for value in sheet.properties.values():
                self.infer(value, scope)
        for ref in g.references:
            for row in ref.rows:
                for value in row.properties.values():
                    self.infer(value, self.base_scope())
        for sc in g.scenarios:
            self.check_scenario_setup(g, sc)
            scope = self.base_scope()
            self.block(sc.setup, scope, share=True)
            self.in_scenario_body = True
            try:
                self.block(sc.body, scope, share=True)
            finally:
                self.in_scenario_body = False
        for m in g.modes:
            for name, value in m.overrides.items():
                if name not in self.sym.params:
                    self.error(value.span, "CS0202", f"mode '{m.name}' sets unknown param '{name}'",
                               did_you_mean(name, self.sym.params))
                else:
                    self.use("param", name)
                    self.check_param_value(self.sym.params[name], value, f"mode '{m.name}' sets '{name}' to")
        self.check_coverage()
        self.report_unused()

    def check_coverage(self) -> None:
        """Each key of a `coverage { }` block names a rule of the game, spelt as the
        dead-rule report spells it (compiler/rulenames.py), and only once: an exclusion
        that names nothing would silently excuse nothing."""
        if not self.game.coverage:
            return
        names = [rule.name for rule in declared_rules(self.game, self.core_file)]
        known = set(names)
        first: dict[str, ir.CoverageExclusion] = {}
        for exclusion in self.game.coverage:
            name = exclusion.rule
            if name in first:
                where = first[name].span
                self.error(exclusion.span, "CS0201", f"'{name}' is excluded twice",
                           f"the first is at {where.file}:{where.line}:{where.column}")
                continue
            first[name] = exclusion
            if name in known:
                continue
            kind = name.split(" ", 1)[0]
            same_kind = [n for n in names if n.startswith(kind + " ")]
            hint = did_you_mean(name, same_kind or names)
            if hint is None and same_kind:
                hint = f"the game's {kind} rules: " + ", ".join(same_kind[:6]) + (", ..." if len(same_kind) > 6 else "")
            elif hint is None:
                hint = f"the game has no {kind} rule"
            self.error(exclusion.span, "CS0202", f"coverage names no rule of the game: '{name}'", hint)

    def check_setup_owners(self, setup: ir.SetupDecl) -> None:
        """`create("Name", zone)` with no owner gives the card to whoever runs the rule —
        in setup, always the first player. Combat Cards made both players' Draw cards that
        way, and player2's drew for player1 (the first seat won 80% of random matches)."""
        for node in nodes(setup.body):
            if isinstance(node, ir.Call) and node.func == "create" and len(node.args) < 3:
                self.sink.warning(node.span, "CS0902", "in setup, a card created without an owner belongs to "
                                  "the first player", "give its owner: create(\"Name\", zone, p), or none")

    def check_scenario_setup(self, g: ir.Game, sc: ir.ScenarioDecl) -> None:
        """A scenario's `mode:` must be one the game declares, and its `players:` within
        what the game (or that mode) allows — as `cardsmith play` requires."""
        modes = [m.name for m in g.modes]
        if sc.mode is not None and sc.mode not in modes:
            self.error(sc.span, "CS0202", f"scenario '{sc.name}' names unknown mode '{sc.mode}'",
                       did_you_mean(sc.mode, modes))
            return
        low, high = ir.seat_range(g, sc.mode)
        if not low <= sc.players <= high:
            allowed = f"{low}" if low == high else f"{low} to {high}"
            where = f" in mode {sc.mode}" if sc.mode is not None else ""
            self.error(sc.span, "CS0301", f"scenario '{sc.name}' has {sc.players} players; "
                       f"the game is played by {allowed}{where}", f"write players: {low}")

    # ------------------------------------------------------------ helpers

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.sink.error(span, code, message, hint)

    def use(self, kind: str, name: str) -> None:
        self.used.add((kind, name))

    def base_scope(self) -> Scope:
        return {}

    def check_game_decl(self) -> None:
        g = self.game.game
        if g.players_min < 1 or g.players_max < g.players_min:
            self.error(g.span, "CS0301", f"player count {g.players_min}..{g.players_max} is empty")
        if g.first_player not in ("random", "choose", "seat1"):
            self.error(g.span, "CS0301", f"unknown first_player '{g.first_player}'",
                       "use random, choose or seat1")

    def check_params(self) -> None:
        """Each param's type and value: a value of the declared type, no param defined in
        terms of itself (directly, through other params or through functions)."""
        params = {p.name: p for p in self.game.params}
        functions = {f.name: f for f in self.game.functions if not f.native}
        deps: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for p in self.game.params:
            deps[("param", p.name)] = _references(p.value, params, functions, set())
        for f in functions.values():
            local = {q.name for q in f.params} | {n.name for n in nodes([f.body]) if isinstance(n, ir.Let)}
            deps[("function", f.name)] = _references([f.expr, f.body], params, functions, local)
        for p in self.game.params:
            path = _cycle(("param", p.name), deps)
            if path is not None:
                self.cyclic.add(p.name)
                through = " -> ".join(f"{kind} {name}" for kind, name in path)
                hint = ("a param cannot read its own value" if len(path) == 2 else
                        f"its value goes round: {through}") + "; give it a value of its own"
                self.error(p.value.span, "CS0301", f"param '{p.name}' is defined in terms of itself", hint)
        for p in self.game.params:
            self.check_type_name(p)
            self.check_param_value(p, p.value, f"param '{p.name}' is")

    def check_param_value(self, p: ir.ParamDecl, value: ir.Expr, what: str) -> None:
        actual = self.infer(value, self.base_scope())
        want = self.param_value_type(p.type)
        if not _compatible(want, actual):
            self.error(value.span, "CS0301", f"{what} {_article(actual)}, but it is declared {p.type}",
                       f"give {_article(want)}, or declare the param's type as what it holds")

    def constant(self, e: ir.Expr | None, scope: Scope | None = None) -> Fraction | None:
        """The value of a constant number expression (literals, arithmetic, params), or None."""
        if isinstance(e, ir.Num):
            return Fraction(e.num, e.den)
        if isinstance(e, ir.Neg):
            v = self.constant(e.operand, scope)
            return None if v is None else -v
        if isinstance(e, ir.Ref):
            if (scope and e.name in scope) or e.name not in self.sym.params or e.name in self.cyclic:
                return None
            if e.name not in self._constants:
                self._constants[e.name] = None  # guards against cycles check_params has not seen
                self._constants[e.name] = self.constant(self.sym.params[e.name].value)
            return self._constants[e.name]
        if isinstance(e, ir.BinOp):
            a, b = self.constant(e.left, scope), self.constant(e.right, scope)
            if a is None or b is None:
                return None
            folded = fold(e.op, a, b)
            return None if folded is None else Fraction(folded)
        return None

    def check_counter_bounds(self, c: ir.CounterDecl) -> None:
        low, high, start = self.constant(c.min), self.constant(c.max), self.constant(c.start)
        if low is not None and high is not None and low > high:
            assert c.max is not None
            self.error(c.max.span, "CS0301", f"counter '{c.name}' has max {_show(high)} below its min {_show(low)}",
                       "min must not be greater than max")
            return
        if start is not None and ((low is not None and start < low) or (high is not None and start > high)):
            bounds = f"{_show(low) if low is not None else ''}..{_show(high) if high is not None else ''}"
            default = " (the default)" if c.start.span == c.span else ""
            self.error(c.start.span, "CS0301",
                       f"counter '{c.name}' starts at {_show(start)}{default}, outside its bounds {bounds}",
                       "give a start between min and max")

    def check_type_name(self, p: ir.Param | ir.FieldDef | ir.ParamDecl) -> None:
        name = p.type
        if name in TYPE_NAMES or name in self.sym.enums or name in self.sym.cardtypes:
            if name in self.sym.enums:
                self.use("enum", name)
            return
        pool = list(TYPE_NAMES) + list(self.sym.enums) + list(self.sym.cardtypes)
        self.error(p.span, "CS0202", f"unknown type '{name}'", did_you_mean(name, pool))

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

    def param_value_type(self, declared: str) -> str:
        if declared in self.sym.enums:
            return f"enum:{declared}"
        if declared in self.sym.cardtypes:
            return "card"
        return declared if declared in TYPE_NAMES else "any"

    # ------------------------------------------------------------ declarations

    def check_enum(self, e: ir.EnumDecl) -> None:
        seen: dict[str, ir.EnumValue] = {}
        for v in e.values:
            if v.name in seen:
                self.error(v.span, "CS0201", f"enum '{e.name}' lists '{v.name}' twice")
            seen[v.name] = v
        if not e.values:
            self.error(e.span, "CS0204", f"enum '{e.name}' has no values")
            return
        keys = [set(v.properties) for v in e.values]
        all_keys = set().union(*keys)
        for v in e.values:
            missing = all_keys - set(v.properties)
            if missing:
                self.error(v.span, "CS0304", f"'{e.name}.{v.name}' does not give "
                           + ", ".join(sorted(missing)), "every value of an enum gives the same properties")
        for key in all_keys:
            kinds = {type(v.properties[key]).__name__ for v in e.values if key in v.properties}
            if len(kinds) > 1:
                self.error(e.span, "CS0304", f"enum '{e.name}' property '{key}' has values of different kinds")

    def check_cardtype(self, t: ir.CardTypeDecl) -> None:
        for f in (*t.stats, *t.properties):
            self.check_type_name(f)
            if f.default is not None:
                self.check_field_value(f, f.default)
        names = [f.name for f in (*t.stats, *t.properties)]
        for name in set(names):
            if names.count(name) > 1:
                self.error(t.span, "CS0201", f"card type '{t.name}' declares '{name}' twice")
        if t.enters is not None:
            self.use("zone", t.enters)
            if t.enters not in self.sym.zones:
                self.error(t.span, "CS0202", f"card type '{t.name}' enters unknown zone '{t.enters}'",
                           did_you_mean(t.enters, self.sym.zones))
        for status in t.enters_with:
            self.use("status", status)
            if status not in self.sym.statuses:
                self.error(t.span, "CS0202", f"unknown status '{status}'",
                           did_you_mean(status, self.sym.statuses))
        if t.layout is not None:
            self.use("layout", t.layout)
            if t.layout not in self.sym.layouts:
                self.error(t.span, "CS0202", f"unknown layout '{t.layout}'",
                           did_you_mean(t.layout, self.sym.layouts))
        if t.token is not None:
            self.expect_type(t.token, {"card": "card"}, {"bool", "any"}, "a token rule")

    def check_field_value(self, f: ir.FieldDef, value: ir.Expr) -> None:
        if f.type in self.sym.enums:
            self.use("enum", f.type)
            enum = self.sym.enums[f.type]
            names = [v.name for v in enum.values]
            if isinstance(value, ir.Attr) and isinstance(value.obj, ir.Ref) and value.obj.name == f.type:
                value = ir.Ref(span=value.span, name=value.name)
            if not isinstance(value, ir.Ref) or value.name not in names:
                shown = value.name if isinstance(value, ir.Ref) else "this"
                self.error(value.span, "CS0202", f"'{shown}' is not a {f.type}",
                           did_you_mean(shown, names) or "expected one of: " + ", ".join(names))
            else:
                self.use("enumvalue", value.name)
            return
        if f.type == "number":
            self.expect_type(value, {}, {"number", "any"}, f"'{f.name}'")
        elif f.type == "text":
            self.expect_type(value, {}, {"text", "any"}, f"'{f.name}'")
        elif f.type == "bool":
            self.expect_type(value, {}, {"bool", "any"}, f"'{f.name}'")
        elif f.type == "dice":
            self.expect_type(value, {}, {"dice", "number", "none", "any"}, f"'{f.name}'", "dice (like 2d6) or a number")

    def check_board_cells(self, b: ir.BoardDecl) -> None:
        """Every cell a region names lies on its board: [0, 0] to [width - 1, height - 1]
        (a region off the board would name cells no card can stand on)."""
        if b.width < 1 or b.height < 1:
            return  # no size: reported where the board is built
        for region in b.regions:
            for rect in region.cells:
                corners = (rect.start,) if rect.start.x == rect.end.x and rect.start.y == rect.end.y else (
                    rect.start, rect.end)
                for cell in corners:
                    if not (0 <= cell.x < b.width and 0 <= cell.y < b.height):
                        self.error(cell.span, "CS0301",
                                   f"cell [{cell.x}, {cell.y}] of region '{region.name}' is outside board "
                                   f"'{b.name}' ({b.width} x {b.height})",
                                   f"its cells run from [0, 0] to [{b.width - 1}, {b.height - 1}]: "
                                   f"move the region, or make the board's size larger")

    def check_card(self, c: ir.CardDecl) -> None:
        t = self.sym.cardtypes.get(c.type)
        if t is not None:
            self.use("cardtype", t.name)
            declared = {f.name: f for f in (*t.stats, *t.properties)}
            for f in (*t.stats, *t.properties):
                given = c.stats.get(f.name) if f in t.stats else c.properties.get(f.name)
                if given is None:
                    if f.default is None:
                        self.error(c.span, "CS0402", f"card '{c.name}' misses {f.name}",
                                   f"add {f.name}: ... (required by card type {t.name})")
                    continue
                self.check_field_value(declared[f.name], given)
        if c.copies < 0:
            self.error(c.span, "CS0301", "copies cannot be negative")
        scope: Scope = {"self": "card", "card": "card"}
        for use in c.keywords:
            self.check_keyword_use(use, scope)
        if c.play_condition is not None:
            self.expect_type(c.play_condition, scope, {"bool", "any"}, "a play condition")
        for ability in c.abilities:
            self.check_ability(ability, scope)

    def check_keyword_use(self, use: ir.KeywordUse, scope: Scope) -> None:
        kw = self.sym.keywords.get(use.name)
        if kw is None:
            if use.name not in self.broken:
                self.error(use.span, "CS0501", f"unknown keyword '{use.name}'",
                           did_you_mean(use.name, self.sym.keywords))
            return
        self.use("keyword", kw.name)
        required = sum(1 for p in kw.params if p.default is None)
        if not required <= len(use.args) <= len(kw.params):
            want = str(required) if required == len(kw.params) else f"{required} to {len(kw.params)}"
            example = kw.name + "".join(f" {p.name.upper()}" for p in kw.params)
            self.error(use.span, "CS0502",
                       f"keyword '{kw.name}' takes {want} argument(s), {len(use.args)} given",
                       f"write {example}")
        for arg in use.args:
            self.infer(arg, scope)

    def check_keyword(self, k: ir.KeywordDecl) -> None:
        scope = {"self": "card", **self.param_scope(k.params)}
        for ability in k.abilities:
            self.check_ability(ability, scope)

    def check_ability(self, ability: ir.Ability, scope: Scope) -> None:
        if isinstance(ability, ir.Effect):
            self.block(ability.body, dict(scope))
        elif isinstance(ability, ir.Trigger):
            self.check_trigger(ability, scope)
        elif isinstance(ability, ir.Hook):
            self.check_hook(ability, scope)
        elif isinstance(ability, ir.Activated):
            inner = dict(scope)
            if ability.condition is not None:
                self.expect_type(ability.condition, inner, {"bool", "any"}, "a condition")
            self.block(ability.cost, inner)
            self.block(ability.body, inner)
        elif isinstance(ability, ir.Static):
            inner = dict(scope)
            if ability.target is not None:
                self.infer(ability.target, inner)
            if ability.condition is not None:
                self.expect_type(ability.condition, inner, {"bool", "any"}, "a condition")
            for m in ability.modifiers:
                if self.sym.card_field_type(m.stat) is None:
                    self.error(m.span, "CS0202", f"unknown stat '{m.stat}'",
                               did_you_mean(m.stat, self.sym.card_field_names()))
                self.expect_type(m.value, inner, NUMERIC | {"bool", "text"}, "a modifier")
            for g in ability.grants:
                self.check_keyword_use(g, inner)

    def check_trigger(self, t: ir.Trigger, scope: Scope) -> None:
        event = self.sym.events.get(t.event)
        inner = dict(scope)
        # the values the trigger names: typed by the event below; of unknown type when the
        # event is unknown, so the condition and body are checked without an error per use
        inner.update({name: "any" for name in t.bindings})
        if event is None:
            if t.event not in self.broken:
                self.error(t.span, "CS0202", f"unknown event '{t.event}'",
                           did_you_mean(t.event, self.sym.events))
        else:
            self.use("event", event.name)
            if len(t.bindings) > len(event.params):
                self.error(t.span, "CS0502", f"event '{event.name}' has {len(event.params)} "
                           f"value(s), {len(t.bindings)} named")
            for p in event.params:
                inner[p.name] = self.param_value_type(p.type)
            for name, p in zip(t.bindings, event.params, strict=False):
                inner[name] = self.param_value_type(p.type)
        for zone in t.zones:
            self.use("zone", zone)
            if zone not in self.sym.zones:
                self.error(t.span, "CS0202", f"unknown zone '{zone}'", did_you_mean(zone, self.sym.zones))
        if t.condition is not None:
            self.expect_type(t.condition, inner, {"bool", "any"}, "a trigger condition")
        self.block(t.body, inner)

    def check_hook(self, h: ir.Hook, scope: Scope) -> None:
        proc = self.sym.procedures.get(h.procedure)
        inner = dict(scope)
        if proc is None:
            if h.procedure not in self.broken:
                self.error(h.span, "CS0202", f"unknown procedure '{h.procedure}'",
                           did_you_mean(h.procedure, self.sym.procedures))
        else:
            self.use("procedure", proc.name)
            for p in proc.params:
                inner[p.name] = self.param_value_type(p.type)
        if h.condition is not None:
            self.expect_type(h.condition, inner, {"bool", "any"}, "a hook condition")
        self.block(h.body, inner)

    def check_procedure(self, p: ir.ProcedureDecl) -> None:
        scope = self.param_scope(p.params)
        if p.native and p.span.file != self.core_file:
            self.error(p.span, "CS0205", "only the core prelude declares native procedures",
                       "write a procedure with a body")
        self.block(p.body, scope)

    def check_function(self, f: ir.FunctionDecl) -> None:
        scope = self.param_scope(f.params)
        if f.native and f.span.file != self.core_file:
            self.error(f.span, "CS0204", f"function '{f.name}' needs '= expression' or a body")
        if f.expr is not None:
            self.infer(f.expr, scope)
        self.block(f.body, scope)

    def check_flow(self, flow: ir.FlowDecl) -> None:
        seen: set[str] = set()
        for stage in flow.stages:
            if stage.name in seen:
                self.error(stage.span, "CS0201", f"stage '{stage.name}' is declared twice")
            seen.add(stage.name)
            self.check_stage(stage)

    def check_stage(self, stage: ir.StageDecl) -> None:
        self.block(stage.body, self.base_scope())
        if stage.simultaneous and stage.responses:
            self.error(stage.span, "CS0205", f"stage '{stage.name}' is both simultaneous and open to responses",
                       "in a simultaneous stage every player picks at once; responses need turns of priority")
        if stage.simultaneous and not stage.actions:
            self.error(stage.span, "CS0204", f"simultaneous stage '{stage.name}' lists no actions",
                       "write 'actions: ...': the actions every player picks from at once")
        if not stage.passing and not stage.actions:
            self.error(stage.span, "CS0204", f"stage '{stage.name}' forbids passing but lists no actions",
                       "write 'actions: ...', or remove 'pass: no'")
        if stage.skip is not None:
            self.expect_type(stage.skip, self.base_scope(), {"bool", "any"}, "a skip condition")
        for action in stage.actions:
            self.use("action", action)
            if action not in self.sym.actions and action not in ENGINE_ACTIONS:
                self.error(stage.span, "CS0202", f"stage '{stage.name}' allows unknown action '{action}'",
                           did_you_mean(action, self.sym.actions))
        for step in stage.steps:
            self.check_stage(step)

    def check_action(self, a: ir.ActionDecl) -> None:
        scope = self.base_scope()
        if a.limit is not None:
            self.expect_type(a.limit, scope, NUMERIC, "a limit")
        # The choices before the cost are the action's parameters: the condition and the
        # cost may read them (the engine checks the condition once per combination).
        body_scope = dict(scope)
        lead = ir.action_parameters(a.body)
        self.block(a.body[:lead], body_scope, share=True)
        if a.condition is not None:
            self.expect_type(a.condition, body_scope, {"bool", "any"}, "a condition")
        self.block(a.cost, body_scope, share=True)
        self.block(a.body[lead:], body_scope, share=True)

    def check_deck(self, d: ir.DeckRules) -> None:
        scope: Scope = {"card": "card", "factions": "list", "deck": "deck"}
        for s in d.sections:
            for t in s.types:
                self.use("cardtype", t)
                if t not in self.sym.cardtypes:
                    self.error(s.span, "CS0202", f"unknown card type '{t}'", did_you_mean(t, self.sym.cardtypes))
            if s.count is not None:
                self.expect_type(s.count, scope, {"range", "number"}, "a section count")
        names = {s.name for s in d.sections}
        for s in d.sections:
            if s.within is not None and s.within not in names:
                self.error(s.span, "CS0202", f"unknown section '{s.within}'", did_you_mean(s.within, names))
        if d.size is not None:
            self.expect_type(d.size, scope, {"range", "number"}, "a deck size")
        for value, what in ((d.copies, "a copy limit"), (d.allow, "an allow rule"),
                            (d.excluded, "an exclusion rule")):
            if value is not None:
                self.expect_type(value, scope, NUMERIC | {"bool"}, what)
        for r in d.requirements:
            self.expect_type(r.condition, scope, {"bool", "any"}, "a deck rule")
        for summary in d.summaries:
            for value in summary.fields.values():
                self.infer(value, {"deck": "deck", "factions": "list"})

    def check_layout(self, layout: ir.LayoutDecl) -> None:
        scope: Scope = {"card": "card"}
        size = layout.properties.get("size")
        if isinstance(size, ir.Ref | ir.Text):
            word = size.name if isinstance(size, ir.Ref) else size.value
            if parse_size(word) is None:
                self.error(size.span, "CS0202", f"unknown card size '{word}'",
                           did_you_mean(word, CARD_SIZES) or
                           "use " + ", ".join(CARD_SIZES) + ", or WIDTHxHEIGHT such as \"63mmx88mm\"")
        for key, value in layout.properties.items():
            if not _style_word(key, value):
                self.infer(value, scope)
        for region in layout.regions:
            for key, value in region.properties.items():
                if not _style_word(key, value):
                    self.infer(value, scope)

    # ------------------------------------------------------------ statements

    def block(self, body: list[ir.Stmt], scope: Scope, share: bool = False) -> None:
        inner = scope if share else dict(scope)
        for stmt in body:
            self.statement(stmt, inner)

    def statement(self, s: ir.Stmt, scope: Scope) -> None:
        if isinstance(s, ir.Let):
            scope[s.name] = self.infer(s.value, scope)
        elif isinstance(s, ir.Assign):
            self.check_assign(s, scope)
        elif isinstance(s, ir.If):
            for b in s.branches:
                self.expect_type(b.condition, scope, {"bool", "any"}, "a condition")
                self.block(b.body, scope)
            if s.orelse is not None:
                self.block(s.orelse, scope)
        elif isinstance(s, ir.ForEach):
            source = self.infer(s.source, scope)
            inner = dict(scope)
            inner[s.var] = _element(source)
            self.block(s.body, inner, share=True)
        elif isinstance(s, ir.Repeat):
            self.expect_type(s.count, scope, NUMERIC, "a repeat count")
            self.block(s.body, scope)
        elif isinstance(s, ir.While):
            self.expect_type(s.condition, scope, {"bool", "any"}, "a condition")
            self.block(s.body, scope)
        elif isinstance(s, ir.Choose):
            source = self.infer(s.source, scope)
            if s.condition is not None:
                inner = {**scope, "it": _element(source)}
                self.expect_type(s.condition, inner, {"bool", "any"}, "a where clause")
            if source not in ("cards", "card", "players", "list", "any", "range", "player"):
                self.error(s.source.span, "CS0301", f"cannot choose from {_article(source)}",
                           "choose from a query, a zone's cards, a list or players")
            if s.by is not None:
                self.expect_type(s.by, scope, {"player", "any"}, "the chooser")
            if s.count.n is not None:
                self.expect_type(s.count.n, scope, NUMERIC, "a count")
            element = _element(source)
            scope[s.var] = element if s.count.mode == "one" else _plural(element)
        elif isinstance(s, ir.ChooseOne):
            if s.by is not None:
                self.expect_type(s.by, scope, {"player", "any"}, "the chooser")
            for o in s.options:
                self.block(o.body, scope)
        elif isinstance(s, ir.Simultaneously):
            self.block(s.body, scope, share=True)
        elif isinstance(s, ir.Emit):
            self.check_emit(s, scope)
        elif isinstance(s, ir.Return):
            if s.value is not None:
                self.infer(s.value, scope)
        elif isinstance(s, ir.Invoke):
            self.check_invoke(s, scope)
        elif isinstance(s, ir.Perform):
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
        elif isinstance(s, ir.Expect):
            if not self.in_scenario_body:
                self.error(s.span, "CS0205", "'expect' only works in a scenario",
                           "a rule that must hold is a 'check' block; a scenario asserts with 'expect'")
            self.expect_type(s.condition, scope, {"bool", "any"}, "an expectation")

    def check_assign(self, s: ir.Assign, scope: Scope) -> None:
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
                       "e.g. set t.attack to 3, increase gold by 1")
            return
        vt = self.infer(s.value, scope)
        if s.op != "set" and tt not in NUMERIC:
            self.error(target.span, "CS0301", f"cannot {s.op} {_article(tt)}", "only numbers change by an amount")
        if s.op != "set" and vt not in NUMERIC:
            self.error(s.value.span, "CS0301", f"expected a number, found {_article(vt)}")
        if s.op == "set" and tt == "number" and vt not in NUMERIC:
            self.error(s.value.span, "CS0301", f"expected a number, found {_article(vt)}")
        if s.op == "set" and tt == "bool" and vt not in ("bool", "any"):
            self.error(s.value.span, "CS0301", f"expected yes/no (true or false), found {_article(vt)}")
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

    def check_emit(self, s: ir.Emit, scope: Scope) -> None:
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

    def check_invoke(self, s: ir.Invoke, scope: Scope) -> None:
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
        if declared in NAME_PARAMS:
            self.check_name_argument(declared, arg, scope)
            return
        if declared == "cardname":
            if isinstance(arg, ir.Text):
                self.check_card_name(arg)
                return
            found = self.infer(arg, scope)
            if found not in ("text", "any", "cardname"):  # (a card or a query would fail at play time)
                self.error(arg.span, "CS0301", f"'{proc}' expects a card name for {p.name}, found {_article(found)}",
                           'write the name in quotes ("Guard"), or a name from catalog("TYPE")')
            return
        actual = self.infer(arg, scope)
        want = self.param_value_type(declared)
        if not _compatible(want, actual):
            self.error(arg.span, "CS0301", f"'{proc}' expects {_article(want)} for {p.name}, "
                       f"found {_article(actual)}")

    def check_name_argument(self, declared: str, arg: ir.Expr, scope: Scope) -> None:
        if isinstance(arg, ir.Ref) and arg.name in scope:
            return
        if not isinstance(arg, ir.Ref):
            self.error(arg.span, "CS0301", f"expected the name of a {declared}")
            return
        name = arg.name
        pools: dict[str, Iterable[str]] = {
            "counter": self.sym.counters, "status": self.sym.statuses, "keyword": self.sym.keywords,
            # a field of a card or of a player: `sum(each player, score)` reads p.score
            "field": self.sym.card_field_names() + self.sym.player_field_names(), "stage": self.sym.stages,
            "region": self.sym.regions,
        }
        pool = list(pools[declared])
        if name not in pool:
            if name not in self.broken:
                self.error(arg.span, "CS0202", f"unknown {declared} '{name}'", did_you_mean(name, pool))
        else:
            self.use(declared, name)
            if declared == "field":  # `sum(all gems, wear)` reads the counter or status as `it.wear` would
                self.use("counter", name)
                self.use("status", name)
                self.use("zone", name)

    def check_card_name(self, arg: ir.Text) -> None:
        if arg.value.lower() not in self.sym.cards:
            self.error(arg.span, "CS0202", f"unknown card \"{arg.value}\"",
                       did_you_mean(arg.value, [c.name for c in self.game.cards]))
        else:
            self.use("card", arg.value.lower())

    # ------------------------------------------------------------ expressions

    def expect_type(self, e: ir.Expr, scope: Scope, allowed: set[str], what: str, expected: str = "") -> str:
        """Infer `e`'s type and report it unless allowed; the message names `expected`, or
        else the allowed type the designer most likely means (_expected)."""
        t = self.infer(e, scope)
        if t not in allowed and t != "any" and not (t.startswith("enum:") and "any" in allowed):
            self.error(e.span, "CS0301", f"{what} must be {expected or _expected(allowed)}, found {_article(t)}")
        return t

    def infer(self, e: ir.Expr, scope: Scope) -> str:
        """The type of an expression — bounded in depth: an expression nested deeper than
        MAX_EXPR_DEPTH (`not not not ... true`, a sum of thousands of terms) is reported
        where it starts instead of exhausting Python's stack with no location."""
        self._depth += 1
        if self._depth == 1:
            self._outermost = e
        try:
            if self._depth > MAX_EXPR_DEPTH:
                if not self._too_deep_reported:
                    self._too_deep_reported = True
                    outermost = self._outermost if self._outermost is not None else e
                    self.error(outermost.span, "CS0301",
                               f"this expression is nested more than {MAX_EXPR_DEPTH} levels deep",
                               "split it into functions or intermediate `let`s")
                return "any"
            return self._infer(e, scope)
        finally:
            self._depth -= 1

    def _infer(self, e: ir.Expr, scope: Scope) -> str:
        if isinstance(e, ir.Num):
            return "number"
        if isinstance(e, ir.Text):
            return "text"
        if isinstance(e, ir.Bool):
            return "bool"
        if isinstance(e, ir.NoneLit):
            return "none"
        if isinstance(e, ir.Dice):
            if e.sides < 2 or e.count < 1:
                self.error(e.span, "CS0301", "dice need at least one die of two or more sides")
            elif e.count > values.MAX_DICE or e.sides > values.MAX_SIDES:
                self.error(e.span, "CS0301", f"cannot roll {e.count}d{e.sides}: too many dice or sides",
                           f"a roll throws at most {values.MAX_DICE:,} dice of at most {values.MAX_SIDES:,} sides")
            return "dice"
        if isinstance(e, ir.Dim):
            return "dim"
        if isinstance(e, ir.Ref):
            return self.resolve_ref(e, scope)
        if isinstance(e, ir.CardRef):
            self.check_card_name(ir.Text(span=e.span, value=e.name))
            return "cardname"
        if isinstance(e, ir.Attr):
            return self.infer_attr(e, scope)
        if isinstance(e, ir.Call):
            return self.infer_call(e, scope)
        if isinstance(e, ir.Index):
            self.infer(e.obj, scope)
            self.infer(e.index, scope)
            return "any"
        if isinstance(e, ir.BinOp):
            for side in (e.left, e.right):
                t = self.infer(side, scope)
                if t not in NUMERIC:
                    self.error(side.span, "CS0301", f"arithmetic needs numbers, found {_article(t)}")
            if e.op in ("/", "//", "%") and self.constant(e.right, scope) == 0:
                self.error(e.right.span, "CS0301", "this divides by zero",
                           "the value after '" + e.op + "' is always 0")
            elif isinstance(e.left, ir.Num) and isinstance(e.right, ir.Num):  # (two literals: no deep walk)
                dividend, divisor = self.constant(e.left, scope), self.constant(e.right, scope)
                if dividend is not None and divisor is not None and fold(e.op, dividend, divisor) is None:
                    self.error(e.span, "CS0301", "this number is too large",
                               f"results are kept within {values.MAX_NUMBER:,} (docs/language.md, Limits)")
            return "number"
        if isinstance(e, ir.Neg):
            self.expect_type(e.operand, scope, NUMERIC, "a negated value")
            return "number"
        if isinstance(e, ir.Compare):
            left, right = self.infer(e.left, scope), self.infer(e.right, scope)
            if e.op in ("<", "<=", ">", ">="):
                for side, t in ((e.left, left), (e.right, right)):
                    if t not in NUMERIC:
                        self.error(side.span, "CS0301", f"'{e.op}' compares numbers, found {_article(t)}")
            return "bool"
        if isinstance(e, ir.Logic):
            self.expect_type(e.left, scope, {"bool", "any"}, f"each side of '{e.op}'")
            self.expect_type(e.right, scope, {"bool", "any"}, f"each side of '{e.op}'")
            return "bool"
        if isinstance(e, ir.Not):
            self.expect_type(e.operand, scope, {"bool", "any"}, "the operand of 'not'")
            return "bool"
        if isinstance(e, ir.Contains):
            self.infer(e.item, scope)
            t = self.infer(e.collection, scope)
            if t not in ("list", "cards", "players", "range", "zone", "any", "deck"):
                self.error(e.collection.span, "CS0301", f"'in' needs a list, zone or range, found {_article(t)}")
            return "bool"
        if isinstance(e, ir.IsTest):
            self.infer(e.value, scope)
            for word in e.words:
                self.check_adjective(word, e.span, allow_nouns=True)
            return "bool"
        if isinstance(e, ir.Conditional):
            self.expect_type(e.condition, scope, {"bool", "any"}, "a condition")
            then, otherwise = self.infer(e.then, scope), self.infer(e.otherwise, scope)
            return then if then == otherwise else "any"
        if isinstance(e, ir.RangeExpr):
            for bound in (e.low, e.high):
                if bound is not None:
                    self.expect_type(bound, scope, NUMERIC, "a range bound")
            if isinstance(e.low, ir.Num) and isinstance(e.high, ir.Num) and \
                    e.low.num * e.high.den > e.high.num * e.low.den:
                self.error(e.span, "CS0301", "this range is empty (its low end is above its high end)")
            return "range"
        if isinstance(e, ir.ListExpr):
            for item in e.items:
                self.infer(item, scope)
            return "list"
        if isinstance(e, ir.Roll):
            self.expect_type(e.dice, scope, {"dice", "number", "any"}, "what is rolled")
            return "number"
        if isinstance(e, ir.TopOf):
            if e.count is not None:
                self.expect_type(e.count, scope, NUMERIC, "a count")
            self.expect_type(e.zone, scope, {"zone", "any"}, "'top of'/'bottom of'")
            return "card" if e.count is None else "cards"
        if isinstance(e, ir.Query):
            return self.infer_query(e, scope)
        return "any"  # pragma: no cover

    def resolve_ref(self, e: ir.Ref, scope: Scope) -> str:
        name = e.name
        if name in scope:
            return scope[name]
        if name in GLOBAL_BUILTINS and name != "it":
            return GLOBAL_BUILTINS[name]
        sym = self.sym
        if name in sym.params:
            self.use("param", name)
            return "number" if sym.params[name].type == "number" else "any"
        if name in sym.counters:
            self.use("counter", name)
            return "number"
        if name in sym.zones:
            self.use("zone", name)
            return "zone"
        if name in sym.enum_values:
            self.use("enumvalue", name)
            enums = sym.enum_values[name]
            if len(enums) > 1:
                self.error(e.span, "CS0603", f"'{name}' is a value of several enums: " + ", ".join(enums),
                           f"write {enums[0]}.{name}")
            self.use("enum", enums[0])
            return f"enum:{enums[0]}"
        if name in sym.enums:
            self.use("enum", name)
            return f"enumtype:{name}"
        if name in sym.statuses:
            self.use("status", name)
            return "status"
        if name in sym.cardtypes:
            self.use("cardtype", name)
            return "cardtype"
        if name in sym.keywords:
            self.use("keyword", name)
            return "keyword"
        if name in sym.regions:
            return "region"
        if name in sym.stages:
            return "stage"
        if name == "it":
            self.error(e.span, "CS0202", "'it' is only defined inside a query's where clause",
                       "name the card with choose or for each")
            return "any"
        pool = (list(scope) + list(GLOBAL_BUILTINS) + list(sym.params) + list(sym.counters)
                + list(sym.zones) + list(sym.enum_values) + list(sym.enums) + list(sym.statuses)
                + list(sym.cardtypes) + list(sym.keywords))
        if name not in self.broken:
            self.error(e.span, "CS0202", f"unknown name '{name}'", did_you_mean(name, pool))
        return "any"

    def infer_attr(self, e: ir.Attr, scope: Scope) -> str:
        obj = self.infer(e.obj, scope)
        name = e.name
        if obj == "player":
            t = self.sym.player_field_type(name)
            if t is None:
                if name not in self.broken:
                    self.error(e.span, "CS0202", f"a player has no '{name}'",
                               did_you_mean(name, self.sym.player_field_names()))
                return "any"
            self.use("counter", name)
            self.use("zone", name)
            return t
        if obj in ("card", "cards", "list"):
            t = self.sym.card_field_type(name)
            if t is None and obj == "card":
                if name not in self.broken:
                    self.error(e.span, "CS0202", f"a card has no '{name}'",
                               did_you_mean(name, self.sym.card_field_names()))
                return "any"
            if t is None:
                return "any"
            self.use("counter", name)
            self.use("status", name)
            return t if obj == "card" else "list"
        if obj == "players":
            t = self.sym.player_field_type(name)
            return "list" if t is not None else "any"
        if obj.startswith("enum:"):
            enum = self.sym.enums.get(obj[5:])
            if enum is not None and enum.values:
                props = enum.values[0].properties
                if name not in props:
                    self.error(e.span, "CS0202", f"{enum.name} values have no '{name}'",
                               did_you_mean(name, props) or
                               ("its properties are " + ", ".join(props) if props else
                                f"{enum.name} values have no properties"))
                    return "any"
                prop = props[name]
                return {"num": "number", "text": "text", "bool": "bool"}.get(getattr(prop, "kind", ""), "any")
            return "any"
        if obj.startswith("enumtype:"):
            enum = self.sym.enums.get(obj[9:])
            if enum is not None:
                names = [v.name for v in enum.values]
                if name not in names:
                    self.error(e.span, "CS0202", f"{enum.name} has no value '{name}'", did_you_mean(name, names))
                    return "any"
                self.use("enumvalue", name)
                return f"enum:{enum.name}"
            return "any"
        if obj == "cell":
            if name not in ("x", "y"):
                self.error(e.span, "CS0202", f"a cell has no '{name}'", "a cell has x and y")
                return "any"
            return "number"
        if obj == "region":
            known = {k for r in self.sym.region_decls for k in r.properties} | {"name", "cells", "board"}
            if name not in known:
                self.error(e.span, "CS0202", f"no region has a property '{name}'", did_you_mean(name, known))
                return "any"
            return "list" if name == "cells" else "any"
        if obj == "zone":
            if name not in ZONE_BUILTINS:
                self.error(e.span, "CS0202", f"a zone has no '{name}'", did_you_mean(name, ZONE_BUILTINS))
                return "any"
            return ZONE_BUILTINS[name]
        if obj == "deck":
            sections = [s.name for s in self.game.deck.sections] if self.game.deck else []
            if name not in sections and name not in ("cards", "size"):
                self.error(e.span, "CS0202", f"the deck has no section '{name}'", did_you_mean(name, sections))
            return "number" if name == "size" else "cards"
        if obj == "any":
            return "any"
        self.error(e.span, "CS0301", f"{_article(obj)} has no fields")
        return "any"

    def infer_call(self, e: ir.Call, scope: Scope) -> str:
        f = self.sym.functions.get(e.func)
        if f is None:
            if e.func not in self.broken:
                self.error(e.span, "CS0202", f"unknown function '{e.func}'",
                           did_you_mean(e.func, self.sym.functions))
            for a in [*e.args, *e.kwargs.values()]:
                self.infer(a, scope)
            return "any"
        self.use("function", f.name)
        required = sum(1 for p in f.params if p.default is None)
        given = len(e.args) + len(e.kwargs)
        if not required <= given <= len(f.params):
            want = str(required) if required == len(f.params) else f"{required} to {len(f.params)}"
            self.error(e.span, "CS0502", f"'{f.name}' takes {want} argument(s), {given} given")
        types = ["any"] * len(f.params)  # each parameter's argument type, for native_result
        last = len(e.args) - 1  # the last parameter given a value
        for i, (p, a) in enumerate(zip(f.params, e.args, strict=False)):
            types[i] = self.infer_argument(p, a, scope)
        position = {p.name: i for i, p in enumerate(f.params)}
        for name, a in e.kwargs.items():
            i = position.get(name, -1)
            if i < 0:
                self.error(a.span, "CS0202", f"'{f.name}' has no parameter '{name}'",
                           did_you_mean(name, list(position)))
                self.infer(a, scope)
            elif i < len(e.args):
                self.error(a.span, "CS0502", f"'{f.name}' is given '{name}' twice",
                           "once by its place and once by its name: give it one way")
                self.infer(a, scope)
            else:
                types[i] = self.infer_argument(f.params[i], a, scope)
                last = max(last, i)
        if required <= given <= len(f.params):
            missing = [p.name for p in f.params[len(e.args):] if p.default is None and p.name not in e.kwargs]
            if missing:
                self.error(e.span, "CS0502", f"'{f.name}' is given no value for "
                           + ", ".join(repr(n) for n in missing), f"give {'it' if len(missing) == 1 else 'them'} "
                           "by place or by name")
        if f.native:
            return native_result(f.name, types[:last + 1])
        return "any"

    def infer_argument(self, p: ir.Param, a: ir.Expr, scope: Scope) -> str:
        """Check one argument against its parameter: a name parameter (a field, a counter,
        ...) takes a declared name, a card name a card of the game; the rest are typed."""
        if p.type in NAME_PARAMS:
            self.check_name_argument(p.type, a, scope)
            return "any"
        if p.type == "cardname" and isinstance(a, ir.Text):
            self.check_card_name(a)
            return "cardname"
        return self.infer(a, scope)

    def infer_query(self, e: ir.Query, scope: Scope) -> str:
        noun = e.noun.lower()
        if noun in PLAYER_NOUNS:
            for word in e.adjectives:
                if word not in ("other", "eliminated", "active"):
                    self.error(e.span, "CS0202", f"unknown quality '{word}' for players",
                               "players can be other, eliminated or active")
            if e.zone is not None:
                self.error(e.zone.span, "CS0301", "players are not in a zone")
            if e.count is not None:
                self.expect_type(e.count, scope, NUMERIC, "a count")
            if e.where is not None:
                self.expect_type(e.where, {**scope, "it": "player"}, {"bool", "any"}, "a where clause")
            single = e.det in SINGLE_DETS and (e.count is None or (not e.up_to and _is_one(e.count)))
            return "player" if single else "players"
        if noun not in self.sym.nouns:
            hint = did_you_mean(noun, self.sym.nouns)
            self.error(e.span, "CS0202", f"unknown kind of card '{e.noun}'", hint)
        else:
            type_name = self.sym.nouns[noun]
            if type_name:
                self.use("cardtype", type_name)
        for word in e.adjectives:
            self.check_adjective(word, e.span, allow_nouns=False)
        if e.count is not None:
            self.expect_type(e.count, scope, NUMERIC, "a count")
        if e.zone is not None:
            self.expect_type(e.zone, scope, {"zone", "any", "cards", "list"}, "where to look")
        if e.where is not None:
            inner = {**scope, "it": "card"}
            self.expect_type(e.where, inner, {"bool", "any"}, "a where clause")
        if e.det in SINGLE_DETS and (e.count is None or (e.up_to is False and _is_one(e.count))):
            return "card"
        return "cards"

    def check_adjective(self, word: str, span: Span, allow_nouns: bool) -> None:
        sym = self.sym
        if word in QUERY_ADJECTIVES or word in ("not",):
            return
        if word in sym.statuses:
            self.use("status", word)
            return
        if word in sym.enum_values:
            self.use("enumvalue", word)
            self.use("enum", sym.enum_values[word][0])
            return
        if allow_nouns and (word.lower() in sym.nouns or word in sym.cardtypes):
            self.use("cardtype", sym.nouns.get(word.lower()) or word)
            return
        if word in sym.keywords:
            self.use("keyword", word)
            return
        pool = list(QUERY_ADJECTIVES) + list(sym.statuses) + list(sym.enum_values) + list(sym.keywords)
        if allow_nouns:
            pool += list(sym.nouns)
        if word in self.broken:
            return
        self.error(span, "CS0202", f"unknown quality '{word}'", did_you_mean(word, pool) or
                   "qualities are statuses, enum values, keywords, friendly, enemy and other")

    # ------------------------------------------------------------ unused

    def report_unused(self) -> None:
        g = self.game
        hooked = {h.procedure for h in g.hooks}
        for k in g.keywords:
            for a in k.abilities:
                if isinstance(a, ir.Hook):
                    hooked.add(a.procedure)
        for c in g.cards:
            for a in c.abilities:
                if isinstance(a, ir.Hook):
                    hooked.add(a.procedure)
        checks: list[tuple[str, Iterable[Any], str]] = [
            ("procedure", g.procedures, "procedure"), ("function", g.functions, "function"),
            ("event", g.events, "event"), ("keyword", g.keywords, "keyword"),
            ("counter", g.counters, "counter"), ("status", g.statuses, "status"),
            ("action", g.actions, "action"), ("layout", g.layouts, "layout"),
            ("enum", g.enums, "enum"), ("param", g.params, "param"), ("zone", g.zones, "zone"),
        ]
        for kind, decls, label in checks:
            for d in decls:
                if d.span.file == self.core_file or (kind, d.name) in self.used:
                    continue
                if kind == "procedure" and d.name in hooked:
                    continue
                if kind == "action" and d.name in self.sym.actions and _action_by_card(d):
                    continue
                self.sink.warning(d.span, "CS0901", f"{label} '{d.name}' is never used",
                                  "remove it, or use it in a rule or card")


# Layout properties whose value is a style word (`shape: circle`), not an expression.
STYLE_KEYS = {"size", "font", "shape", "align", "valign", "style", "orientation", "fit", "fill",
              "icon", "weight", "corner", "kind", "side"}


def _style_word(key: str, value: ir.Expr) -> bool:
    return key in STYLE_KEYS and isinstance(value, ir.Ref | ir.Text)


def _action_by_card(d: ir.ActionDecl) -> bool:
    return d.by in ("any", "responder")


def _is_one(e: ir.Expr) -> bool:
    return isinstance(e, ir.Num) and e.num == 1 and e.den == 1


def _element(t: str) -> str:
    return {"cards": "card", "card": "card", "players": "player", "player": "player",
            "range": "number", "zone": "card"}.get(t, "any")


def _plural(t: str) -> str:
    return {"card": "cards", "player": "players"}.get(t, "list")


def _compatible(want: str, actual: str) -> bool:
    if want == "any" or actual == "any" or want == actual:
        return True
    pairs = {
        ("cards", "card"), ("cards", "list"), ("players", "player"), ("players", "list"),
        ("number", "dice"), ("player", "none"), ("card", "none"), ("text", "number"),
        ("list", "cards"), ("list", "players"), ("list", "range"), ("zone", "none"),
    }
    if (want, actual) in pairs:
        return True
    return want == "number" and actual.startswith("enum:") is False and actual == "number"


# which allowed type an expectation names: the one a designer means ("any" only lets an
# unknown value through, and a number may stand for dice or a range, not the other way)
_EXPECTED_ORDER = ("bool", "number", "text", "player", "card", "zone", "cards", "players", "list", "dice",
                   "range", "cell")


def _expected(allowed: set[str]) -> str:
    """What an expectation asks for, in words: `yes/no (true or false)`, `a number`, ..."""
    named = [t for t in _EXPECTED_ORDER if t in allowed] or sorted(allowed - {"any", "none"}) or ["any"]
    return "yes/no (true or false)" if named[0] == "bool" else _article(named[0])


def _article(t: str) -> str:
    if t.startswith("enum:"):
        return f"a {t[5:]} value"
    if t.startswith("enumtype:"):
        return f"the enum {t[9:]}"
    words = {"number": "a number", "text": "text", "bool": "yes/no", "player": "a player",
             "players": "players", "card": "a card", "cards": "cards", "zone": "a zone",
             "any": "anything", "none": "none", "list": "a list", "range": "a range",
             "dice": "dice", "cell": "a cell", "status": "a status", "cardtype": "a card type",
             "keyword": "a keyword", "deck": "the deck", "cardname": "a card name",
             "dim": "a length", "region": "a region", "stage": "a stage"}
    return words.get(t, t)


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _references(root: object, params: dict[str, ir.ParamDecl], functions: dict[str, ir.FunctionDecl],
                local: set[str]) -> list[tuple[str, str]]:
    """The params (by bare name, not shadowed by `local`) and game functions `root` reads."""
    out: list[tuple[str, str]] = []
    for node in nodes(root):
        if isinstance(node, ir.Ref) and node.name in params and node.name not in local:
            out.append(("param", node.name))
        elif isinstance(node, ir.Call) and node.func in functions:
            out.append(("function", node.func))
    return out


def _cycle(start: tuple[str, str], deps: dict[tuple[str, str], list[tuple[str, str]]]) -> \
        list[tuple[str, str]] | None:
    """A path start -> ... -> start through `deps`, or None (iterative depth-first search)."""
    stack: list[tuple[tuple[str, str], list[tuple[str, str]]]] = [(start, [start])]
    seen: set[tuple[str, str]] = set()
    while stack:
        node, path = stack.pop()
        for nxt in deps.get(node, []):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None
