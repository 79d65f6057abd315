"""Semantic checks over an assembled game.

Resolves every name in its namespace, infers expression types, checks phrase
arguments against procedure parameters, validates cards against their card type and
the game's enums and keywords, and records what is used so that unused definitions
can be reported. Problems become diagnostics; checking never stops at the first one.

The checks are split by concern into mixins (check_exprs, check_stmts, check_values,
check_cards, check_rules, check_printables over check_base); this module composes
them and holds what spans the whole game: the order of the checks, scenarios,
coverage exclusions and the unused report.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardsmith.compiler.check_cards import CardChecker
from cardsmith.compiler.check_printables import PrintableChecker
from cardsmith.compiler.check_rules import RuleChecker
from cardsmith.compiler.check_types import NUMERIC
from cardsmith.compiler.check_values import ValueChecker
from cardsmith.compiler.rulenames import declared_rules
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean


class Checker(ValueChecker, CardChecker, RuleChecker, PrintableChecker):
    """Checks a whole game, part by part, in a fixed order (so diagnostics come out
    in the same order every time)."""

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
            self.check_sheet(sheet)
        for ref in g.references:
            self.check_reference(ref)
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
        self.report_reminder_only()

    def report_reminder_only(self) -> None:
        """A keyword with reminder text but no behaviour of its own, that no rule reads,
        changes nothing in a match: its cards promise what the game never does (CS0903).
        The warning names the cards that print it, where a designer will look. A keyword
        the designer means as a printed reminder only says so in `coverage` (with why)."""
        excused = {e.rule for e in self.game.coverage}
        for kw in self.game.keywords:
            if (kw.span.file == self.core_file or not kw.reminder or kw.abilities or f"keyword {kw.name}" in excused
                    or ("keyword-read", kw.name) in self.used or ("keyword", kw.name) not in self.used):
                continue
            cards = [c for c in self.game.cards if any(u.name == kw.name for u in c.keywords)]
            where = ", ".join(f"'{c.name}' ({c.span.file}:{c.span.line})" for c in cards[:4])
            more = f" and {len(cards) - 4} more" if len(cards) > 4 else ""
            self.sink.warning(kw.span, "CS0903", f"keyword '{kw.name}' has reminder text but no behaviour, "
                              f"and no rule reads it; it is printed on {where}{more}",
                              "give it a rule of its own (`before`, `after`, `static`, `activate` ...), "
                              f"read it in a rule (has_keyword(c, {kw.name})), or, if it is a printed "
                              f"reminder only, say why in coverage {{ keyword {kw.name}: \"...\" }}")


def _action_by_card(d: ir.ActionDecl) -> bool:
    return d.by in ("any", "responder")
