"""Check a decklist against the construction rules its game declares.

Nothing here knows any game: sections, sizes, copy limits, what is allowed or
excluded and the deck-wide `require`/`forbid` rules are all read from the game's
`deck { }` block and evaluated with the static evaluator. Every violation is reported
(never just the first) against the decklist line it comes from, with a hint quoting
the rule and the values it read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from cardsmith.compiler.static_eval import DeckValue, NotStatic, as_bounds
from cardsmith.decks.decklist import DeckLine, Header, ParsedDecklist, parse_decklist
from cardsmith.decks.explain import card_hint, rule_hint, sections_read, show
from cardsmith.decks.games import GameContext, game_context, other_game_of
from cardsmith.decks.model import DeckEntry, Decklist, DeckReport
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Diagnostic, DiagnosticSink, Severity, did_you_mean
from cardsmith.dsl.source import Span
from cardsmith.util.fastmodel import construct

_ERRORS = (NotStatic, ArithmeticError, TypeError, ValueError)
_PLACED_MAX = 100_000  # (header, card) pairs remembered per game before starting afresh


def check_decklist(path: str, data: bytes | str, game: str | ir.Game | GameContext) -> DeckReport:
    """Parse and check one decklist (bytes from a file, or text) against a game."""
    ctx = game if isinstance(game, GameContext) else game_context(game)
    parsed = parse_decklist(path, data, [s.name for s in ctx.rules.sections])
    return validate(parsed, ctx)


def validate(parsed: ParsedDecklist, ctx: GameContext) -> DeckReport:
    return _Validator(parsed, ctx).run()


def bounds_text(low: int | None, high: int | None) -> str:
    if low is not None and low == high:
        return f"exactly {low}"
    if high is None:
        return f"at least {low}"
    if low is None or low <= 0:
        return f"at most {high}"
    return f"{low} to {high}"


def _within(n: int, low: int | None, high: int | None) -> bool:
    return (low is None or n >= low) and (high is None or n <= high)


@dataclass(frozen=True, slots=True)
class _Verdict:
    excluded: bool
    allowed: bool | None
    limit: int | None


class _Sink(DiagnosticSink):
    """A sink whose errors skip pydantic's validation: the validator builds every field
    itself (a Span, a code, text), and a decklist with mistakes gets several of them."""

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.items.append(construct(Diagnostic, span=span, severity=Severity.ERROR, code=code,
                                    message=message, hint=hint))


class _Validator:
    def __init__(self, parsed: ParsedDecklist, ctx: GameContext) -> None:
        self.parsed = parsed
        self.ctx = ctx
        self.rules = ctx.rules
        self.plan = plan = ctx.plan
        self.sink = _Sink()
        self.sink.extend(parsed.diagnostics)
        self.headers: dict[str, Header] = {}
        self.by_line: dict[int, DeckLine] | None = None  # (built when a diagnostic needs a span)
        self.aside = plan.aside
        self.within = plan.within
        self.claimed = plan.claimed
        # filled by resolve(): the deck's sections, its cards, its size
        self.sections: dict[str, list[ir.CardDecl]] = {}
        self.physical: list[ir.CardDecl] = []
        self.size = 0
        self.chosen_within = False

    def run(self) -> DeckReport:
        entries = self.resolve()
        deck = Decklist(self.parsed.source.path, self.ctx.game_id, entries, dict(self.within),
                        list(self.plan.section_names))
        # the deck block's `let` names, computed once over the whole deck, are read by
        # every rule below (a name the deck cannot give yet leaves its rules unjudged)
        value = DeckValue(self.sections, self.size, self.physical)
        scope: dict[str, Any] = self.ctx.bindings(value)
        self.per_card(deck, scope)
        if self.chosen_within:
            self.check_within(deck)
        self.counts(deck, self.size)
        self.requirements(deck, scope, value)
        diagnostics = sorted(self.sink.items, key=lambda d: (d.span.line, d.span.column, d.code))
        return DeckReport(deck, diagnostics, self.parsed.source)

    # ---- names and sections
    def resolve(self) -> list[DeckEntry]:
        names = [s.name for s in self.rules.sections]
        for header in self.parsed.headers:
            section = self.ctx.section(header.name)
            if section is None:
                self.sink.error(header.span, "CS1004", f"{self.ctx.name} decks have no '{header.name}' section",
                                did_you_mean(header.name, names) or "sections: " + ", ".join(names))
            else:
                self.headers.setdefault(section.name, header)
        entries: list[DeckEntry] = []
        placed = self.plan.placed  # (where a line goes depends only on its header and card)
        sink = self.sink.items
        # with the entries, in the same pass: Decklist.sections() and physical(), the size
        # (the cards that count toward the size: `deck.size` in the rules), and whether a
        # section chosen `within` another names any card
        sections: dict[str, list[ir.CardDecl]] = {name: [] for name in self.plan.section_names}
        physical: list[ir.CardDecl] = []
        self.sections, self.physical = sections, physical
        within, aside = self.within, self.aside
        size = 0
        for line in self.parsed.lines:
            hit = placed.get((line.header, line.key))
            if hit is None:
                card = self.ctx.cards.get(line.key)
                if card is None:
                    self.unknown(line)
                    continue
                made = len(sink)
                section = self.ctx.section(line.header) if line.header is not None else None
                section = self.home(card) if section is None else self.check_section(line, card, section)
                name = section.name if section is not None else None
                # what the line's copies are: chosen within another section (0), dealt but
                # not counted in the size (1), dealt and counted (2)
                kind = 0 if name in within else 1 if name in aside else 2
                hit = (card, name, sections.get(name) is not None if name is not None else False, kind)
                if len(sink) == made:
                    if len(placed) > _PLACED_MAX:
                        placed.clear()
                    placed[(line.header, line.key)] = hit
            card, name, listed, kind = hit
            if name is None:
                continue
            count = line.count
            entries.append(DeckEntry(name, card, count, line.line))
            copies = [card] * count
            if listed:
                sections[name] += copies
            if kind:
                physical += copies
                if kind == 2:
                    size += count
            else:
                self.chosen_within = True
        self.size = size
        return entries

    def unknown(self, line: DeckLine) -> None:
        other = other_game_of(self.ctx, line.key)
        if other is not None:
            game_name, card_name, game_id = other
            self.sink.error(line.span, "CS1002", f"'{card_name}' is a {game_name} card, not a {self.ctx.name} card",
                            f"remove it, or check the deck against its game with --game {game_id}")
            return
        hint = did_you_mean(line.name, (c.name for c in self.ctx.game.cards))
        self.sink.error(line.span, "CS1001", f"{self.ctx.name} has no card named '{line.name}'",
                        hint or "check the spelling against the game's cards")

    def home(self, card: ir.CardDecl) -> ir.DeckSection | None:
        """The section an entry belongs to when the decklist names none."""
        if card.type in self.claimed:
            return self.claimed[card.type]
        for s in self.rules.sections:
            if s.within is None and card.type in s.types:
                return s
        return self.ctx.main_section() or (self.rules.sections[0] if self.rules.sections else None)

    def check_section(self, line: DeckLine, card: ir.CardDecl, section: ir.DeckSection) -> ir.DeckSection | None:
        home = self.home(card)
        wrong = (section.types and card.type not in section.types) or (
            card.type in self.claimed and self.claimed[card.type] is not section)
        if not wrong:
            return section
        ctype = self.ctx.env.cardtypes.get(card.type)
        what = ctype.singular if ctype is not None else card.type
        if section.types:
            message = (f"'{card.name}' is a {what}; the {section.name} section holds only "
                       f"{', '.join(section.types)} cards")
        else:
            message = f"'{card.name}' is a {what} and does not go in the {section.name} section"
        fits = home is not None and (not home.types or card.type in home.types)
        self.sink.error(line.span, "CS1005", message,
                        f"list it under '{home.name}:'" if fits and home is not None else
                        "remove it from this section")
        return home if fits else None

    # ---- per card: excluded, allowed, copies
    def verdict(self, card: ir.CardDecl, scope: dict[str, Any], bound: tuple[Any, ...]) -> _Verdict:
        verdicts = self.ctx.memo.setdefault(bound, {})
        memo = verdicts.get(id(card))
        if memo is not None:
            return _Verdict(*memo)
        plan = self.plan
        local = {**scope, "card": card}
        excluded = allowed = limit = None
        try:
            excluded = plan.excluded is not None and bool(plan.excluded(local))
        except _ERRORS:
            excluded = False
        if plan.allow is not None:
            try:
                allowed = bool(plan.allow(local))
            except _ERRORS:
                allowed = None
        if plan.copies is not None:
            try:
                value = plan.copies(local)
                limit = int(value) if value is not None else None
            except _ERRORS:
                limit = None
        verdicts[id(card)] = (bool(excluded), allowed, limit)
        return _Verdict(bool(excluded), allowed, limit)

    def per_card(self, deck: Decklist, scope: dict[str, Any]) -> None:
        totals: dict[int, int] = {}
        reported: set[int] = set()
        bound = self.ctx.per_card_key(scope)
        memo = self.ctx.memo.get(bound) or {}
        within = self.within
        for entry in deck.entries:
            if entry.section in within:
                continue
            card = entry.card
            total = totals.get(id(card), 0) + entry.count
            hit = memo.get(id(card))
            # (the common case, a card the rules let in within its limit: nothing to say)
            if hit is not None and not hit[0] and hit[1] is not False and (hit[2] is None or total <= hit[2]):
                totals[id(card)] = total
                continue
            span = self.span_of(entry)
            verdict = self.verdict(card, scope, bound)
            if verdict.excluded:
                assert self.rules.excluded is not None
                self.sink.error(span, "CS1009", f"'{card.name}' can never be put in a {self.ctx.name} deck",
                                card_hint(self.ctx, self.rules.excluded, card, scope, "the deck rules exclude"))
                continue
            if verdict.allowed is False:
                assert self.rules.allow is not None
                self.sink.error(span, "CS1010", f"'{card.name}' is not allowed in this deck",
                                card_hint(self.ctx, self.rules.allow, card, scope, "a deck allows only"))
            totals[id(card)] = total
            if verdict.limit is not None and total > verdict.limit and id(card) not in reported:
                reported.add(id(card))
                assert self.rules.copies is not None
                lead = f"the copy limit is {verdict.limit}:"
                self.sink.error(span, "CS1008",
                                f"{total} copies of '{card.name}'; a deck may hold at most {verdict.limit}",
                                card_hint(self.ctx, self.rules.copies, card, scope, lead))

    def check_within(self, deck: Decklist) -> None:
        for name, parent in self.within.items():
            chosen = [e for e in deck.entries if e.section == name]
            if not chosen:
                continue
            # (the parent section's copies of each card, counted from its cards)
            held = Counter(map(id, self.sections.get(parent, ())))
            used: dict[int, int] = {}
            for e in chosen:
                used[id(e.card)] = used.get(id(e.card), 0) + e.count
                have = held.get(id(e.card), 0)
                if used[id(e.card)] > have:
                    self.sink.error(self.span_of(e), "CS1012",
                                    f"the {name} section names {used[id(e.card)]} '{e.card.name}' but the "
                                    f"{parent} section holds {have}",
                                    f"the {name} section is chosen from the {parent} section: list the card "
                                    f"under '{parent}:' too")

    # ---- counts
    def counts(self, deck: Decklist, size: int) -> int:
        main = self.ctx.main_section()
        size_rule = self.ctx.size_rule()
        for s in self.rules.sections:
            if s.count is None or s.count is size_rule:  # the main section's size: checked below
                continue
            bounds = self.bounds(s.count)
            if bounds is None:
                continue
            n = sum(e.count for e in deck.entries if e.section == s.name)
            if not _within(n, *bounds):
                self.sink.error(self.section_span(deck, s.name), "CS1006",
                                f"the {s.name} section holds {n} card(s); it must hold {bounds_text(*bounds)}",
                                f"the rule is `section {s.name} {{ count: {self.ctx.text(s.count)} }}`")
        bounds = self.bounds(size_rule) if size_rule is not None else None
        if bounds is not None and not _within(size, *bounds):
            low, high = bounds
            fix = (f"add {low - size} card(s)" if low is not None and size < low else
                   f"remove {size - (high or 0)} card(s)")
            aside = [s.name for s in self.rules.sections if not s.counts_toward_size]
            if aside:
                fix += f"; the {', '.join(aside)} section does not count toward the size"
            self.sink.error(self.section_span(deck, main.name if main is not None else None), "CS1007",
                            f"the deck holds {size} card(s); it must hold {bounds_text(low, high)}", fix)
        return size

    def bounds(self, expr: ir.Expr | None) -> tuple[int | None, int | None] | None:
        """A count rule's (low, high): it reads no deck, so it is worked out once per game."""
        if expr is None:
            return None
        known = self.plan.bounds.get(id(expr))
        if known is not None and known[0] is expr:
            return known[1]
        try:
            bounds: tuple[int | None, int | None] | None = as_bounds(self.ctx.env.eval(expr, {}))
        except _ERRORS:
            bounds = None
        self.plan.bounds[id(expr)] = (expr, bounds)
        return bounds

    # ---- deck-wide rules
    def requirements(self, deck: Decklist, scope: dict[str, Any], value: DeckValue) -> None:
        base = {**scope, "deck": value}
        for rule in self.rules.requirements:
            if not self.violated(rule, base):
                continue
            alone, without = self.blame(rule, deck, base)
            for entry in alone:
                one = self.with_section(base, entry.section, [entry.card])
                self.sink.error(self.span_of(entry), "CS1011", rule.message,
                                f"'{entry.card.name}' alone breaks it: " + rule_hint(self.ctx, rule.condition, one))
            for entry in without:
                self.sink.error(self.span_of(entry), "CS1011", rule.message,
                                f"without '{entry.card.name}' the deck would pass this rule: "
                                + rule_hint(self.ctx, rule.condition, base))
            if not alone and not without:
                read = sections_read(rule.condition)
                span = self.section_span(deck, read[0] if read else None)
                self.sink.error(span, "CS1011", rule.message, rule_hint(self.ctx, rule.condition, base))

    def violated(self, rule: ir.DeckRequirement, scope: dict[str, Any]) -> bool:
        try:
            held = bool(self.plan.compiled(rule.condition)(scope))
        except _ERRORS:
            return False  # the rule cannot be decided for this deck (e.g. a section still empty)
        return held if rule.forbid else not held

    def blame(self, rule: ir.DeckRequirement, deck: Decklist,
              base: dict[str, Any]) -> tuple[list[DeckEntry], list[DeckEntry]]:
        """The lines to point at: those that break the rule on their own, else the few
        whose removal would mend it (a horror card in a fantasy deck); tried in the first
        section the rule reads. Nothing when no line stands out: the section is blamed."""
        for name in sections_read(rule.condition):
            section = self.ctx.section(name)
            entries = [e for e in deck.entries if section is not None and e.section == section.name]
            if not entries:
                continue
            alone = [e for e in entries if self.violated(rule, self.with_section(base, e.section, [e.card]))]
            if alone:
                return alone, []
            if len(entries) < 3:
                return [], []
            cards = [e.card for e in entries for _ in range(e.count)]
            without: list[DeckEntry] = []
            at = 0
            for e in entries:
                rest = cards[:at] + cards[at + e.count:]
                at += e.count
                if not self.violated(rule, self.with_section(base, e.section, rest)):
                    without.append(e)
            return ([], without) if 2 * len(without) < len(entries) else ([], [])
        return [], []

    def with_section(self, base: dict[str, Any], section: str, cards: list[ir.CardDecl]) -> dict[str, Any]:
        """The rules' scope for the deck with one section replaced (its `let` names anew)."""
        deck: DeckValue = base["deck"]
        trial = DeckValue({**deck.sections, section: cards}, deck.size, deck.cards)
        if not self.rules.bindings or self.plan.bindings_ignore(section):
            return {**base, "deck": trial}
        return {**self.ctx.bindings(trial), "deck": trial}

    # ---- where to point
    def span_of(self, entry: DeckEntry) -> Span:
        if self.by_line is None:
            self.by_line = {line.line: line for line in self.parsed.lines}
        line = self.by_line.get(entry.line)
        return line.span if line is not None else self.parsed.first_line_span()

    def section_span(self, deck: Decklist, section: str | None) -> Span:
        """A section's header, else its first line, else the decklist's first line."""
        if section is not None:
            if section in self.headers:
                return self.headers[section].span
            for entry in deck.entries:
                if entry.section == section:
                    return self.span_of(entry)
        return self.parsed.first_line_span()


__all__ = ["bounds_text", "check_decklist", "show", "validate"]
