"""`cardsmith deck new`: build a legal starter deck from a game's rules and advice.

The builder knows no game. It picks the cards of the deck's head section (the first
section, when it stands apart from the deck) as asked — by name (`--head "Card"`) or by
a field's value (`--with field=value`), one card per pick — evaluates the deck block's
`let` names over them, asks the deck rules which cards are eligible and how many copies
each may have, and
fills every counted part of the deck to its minimum. How the deck is balanced comes
from the game's optional `decks/advice.md` (`Type: share` lines such as
`Unit: 1/3..1/2`, and `curve: <stat>` to favour cheap cards); without advice the
types are mixed at random. The result is checked like any decklist and rebuilt with
the next random draw if a deck-wide rule rejects it, so `deck new` only prints legal
decks.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from cardsmith.compiler.expansions import expansion_cards
from cardsmith.compiler.loader import LoadError, resolve
from cardsmith.compiler.static_eval import DeckValue, NotStatic, as_bounds
from cardsmith.decks.decklist import normalize_name
from cardsmith.decks.games import GameContext
from cardsmith.decks.model import DeckReport
from cardsmith.decks.validate import check_decklist
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean

ATTEMPTS = 25


class BuildError(Exception):
    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass
class Advice:
    """Share of the deck per card type ((low, high) fractions) and the curve stat."""

    shares: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)
    curve: str | None = None


_SHARE = re.compile(r"(\d+(?:/\d+)?%?)(?:\s*\.\.\s*(\d+(?:/\d+)?%?))?")


def _fraction(text: str) -> Fraction:
    return Fraction(text[:-1]) / 100 if text.endswith("%") else Fraction(text)


def parse_advice(text: str) -> Advice:
    """`Type: 1/3..1/2`, `Type: 25%`, `curve: cost`; anything else is ignored."""
    advice = Advice()
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if ":" not in line:
            continue
        key, value = (part.strip() for part in line.split(":", 1))
        if key == "curve":
            advice.curve = value or None
            continue
        match = _SHARE.fullmatch(value)
        if match is None:
            continue
        try:
            low = _fraction(match.group(1))
            high = _fraction(match.group(2)) if match.group(2) else low
        except (ValueError, ZeroDivisionError):
            continue
        advice.shares[key] = (min(low, high), max(low, high))
    return advice


def game_advice(ctx: GameContext) -> Advice:
    try:
        folder = resolve(ctx.target).root
    except LoadError:
        return Advice()
    path = Path(folder) / "decks" / "advice.md"
    try:
        return parse_advice(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return Advice()


Pick = tuple[str, str]
"""(field, value): a card whose `field` has `value` (`name` picks a card by its name)."""


def parse_pick(text: str) -> Pick:
    """`field=value` as `--with` takes it."""
    field_name, sep, value = text.partition("=")
    if not sep or not field_name.strip() or not value.strip():
        raise BuildError(f"'--with {text}' is not FIELD=VALUE", "e.g. --with colour=red")
    return field_name.strip(), value.strip()


def build_deck(ctx: GameContext, picks: list[Pick], seed: int = 1,
               with_base: bool = True) -> tuple[str, DeckReport]:
    """A legal decklist (its text and its check report) built around the picked cards.

    Each pick chooses one card of the head section; a game without one keeps only the
    main cards the picks match. Without `with_base`, a game checked with an expansion
    builds a deck that features the expansion's cards: each one the deck may hold goes
    in at its copy limit first (up to half the deck), the base game's cards fill the rest."""
    advice = game_advice(ctx)
    rng = random.Random(seed)
    last: DeckReport | None = None
    for _ in range(ATTEMPTS):
        featured = set() if with_base else {c.name for c in expansion_cards(ctx.game)}
        text = _Builder(ctx, picks, advice, rng, featured).decklist_text()
        report = check_decklist(f"new-{ctx.game_id}.deck", text, ctx)
        if report.ok:
            return _add_chosen_sections(ctx, text, report, rng)
        last = report
    assert last is not None
    raise BuildError(f"could not build a legal {ctx.name} deck in {ATTEMPTS} tries",
                     last.errors[0].message if last.errors else None)


def _add_chosen_sections(ctx: GameContext, text: str, report: DeckReport,
                         rng: random.Random) -> tuple[str, DeckReport]:
    """Fill each optional section chosen from another (the starting Garrison).

    Cards of the section's types are taken from its parent section in random order and
    kept while the deck stays legal, so the deck rules alone (budget, no free units)
    decide what fits: the section ends up as full as the rules allow.
    """
    for section in ctx.rules.sections:
        if section.within is None:
            continue
        pool = [c for c in report.decklist.section(section.within) if not section.types or c.type in section.types]
        rng.shuffle(pool)
        chosen: list[str] = []
        for card in pool:
            lines = [*chosen, f"1 {card.name}"]
            trial = text + f"\n{section.name}:\n" + "\n".join(lines) + "\n"
            attempt = check_decklist(f"new-{ctx.game_id}.deck", trial, ctx)
            if attempt.ok:
                chosen, report = lines, attempt
        if chosen:
            text += f"\n{section.name}:\n" + "\n".join(chosen) + "\n"
    return text, report


class _Builder:
    def __init__(self, ctx: GameContext, picks: list[Pick], advice: Advice, rng: random.Random,
                 featured: set[str] | None = None) -> None:
        self.ctx = ctx
        self.featured = featured or set()
        self.rules = ctx.rules
        self.picks = picks
        self.advice = advice
        self.rng = rng
        self.env = ctx.env

    def field_of(self, card: ir.CardDecl, name: str) -> str | None:
        value = self.ctx.value(card, name)
        return None if value is None else normalize_name(str(value))

    def matching(self, pool: list[ir.CardDecl], pick: Pick, what: str) -> list[ir.CardDecl]:
        """The cards of the pool a pick names; a BuildError (with the values there are)
        when none does."""
        name, value = pick
        found = [c for c in pool if self.field_of(c, name) == normalize_name(value)]
        if found:
            return found
        known = sorted({str(v) for c in pool for v in [self.ctx.value(c, name)] if v is not None})
        if not known:
            fields = sorted({f for c in pool for f in ("name", *c.stats, *c.properties)})
            raise BuildError(f"no {what} of {self.ctx.name} has a '{name}'",
                             did_you_mean(name, fields) or "fields: " + ", ".join(fields))
        label = "" if name == "name" else f" {name}"
        raise BuildError(f"{self.ctx.name} has no {what} with the{label} '{value}'",
                         did_you_mean(value, known) or f"{name}: " + ", ".join(known))

    def heads(self) -> list[ir.CardDecl]:
        head = self.ctx.head_section()
        if head is None:
            for pick in self.picks:
                self.matching(self.ctx.game.cards, pick, "card")
            return []
        pool = [c for c in self.ctx.game.cards if c.type in head.types]
        if not self.picks:
            return [self.rng.choice(pool)] if pool else []
        return [self.rng.choice(self.matching(pool, pick, f"{head.name} card")) for pick in self.picks]

    def scope(self, heads: list[ir.CardDecl]) -> dict[str, Any]:
        """The deck block's `let` names over a deck of the head cards alone."""
        head = self.ctx.head_section()
        return self.ctx.bindings(DeckValue({head.name: heads} if head is not None else {}, 0, heads))

    def picked(self, card: ir.CardDecl) -> bool:
        """Without a head section the picks choose the deck's cards: a card must match
        every field picked (one of the values given for it)."""
        wanted: dict[str, set[str]] = {}
        for name, value in self.picks:
            wanted.setdefault(name, set()).add(normalize_name(value))
        return all(self.field_of(card, name) in values for name, values in wanted.items())

    def eligible(self, scope: dict[str, Any], types: list[str]) -> dict[str, tuple[ir.CardDecl, int]]:
        claimed = {t for s in self.rules.sections if s.types and not s.counts_toward_size for t in s.types}
        filtered = bool(self.picks) and self.ctx.head_section() is None
        out: dict[str, tuple[ir.CardDecl, int]] = {}
        for card in self.ctx.game.cards:
            if card.type in claimed or (types and card.type not in types):
                continue
            if filtered and not self.picked(card):
                continue
            local = {**scope, "card": card}
            try:
                if self.rules.excluded is not None and self.env.eval(self.rules.excluded, local):
                    continue
                if self.rules.allow is not None and not self.env.eval(self.rules.allow, local):
                    continue
                limit = self.env.eval(self.rules.copies, local) if self.rules.copies is not None else 4
            except (NotStatic, ArithmeticError, TypeError, ValueError):
                continue
            if limit is not None and int(limit) > 0:
                out[card.name] = (card, int(limit))
        return out

    def weight(self, card: ir.CardDecl) -> float:
        if self.advice.curve is None:
            return 1.0
        cost = self.ctx.value(card, self.advice.curve)
        return 1.0 / (1.0 + float(cost)) if isinstance(cost, int | Fraction) and cost >= 0 else 1.0

    def fill(self, pool: dict[str, tuple[ir.CardDecl, int]], target: int) -> dict[str, int]:
        """`target` cards from the pool: advised shares per type first, then anything."""
        picked: dict[str, int] = {}
        by_type: dict[str, list[tuple[ir.CardDecl, int]]] = {}
        for card, limit in pool.values():
            by_type.setdefault(card.type, []).append((card, limit))
        for card, limit in pool.values():  # an expansion's own cards first
            if card.name in self.featured:
                picked[card.name] = max(0, min(limit, target // 2 - sum(picked.values())))
        for ctype, (low, high) in self.advice.shares.items():
            if ctype not in by_type:
                continue
            want = self.rng.randint(math.ceil(low * target), max(math.ceil(low * target), math.floor(high * target)))
            self.pick(by_type[ctype], want - sum(picked.get(c.name, 0) for c, _ in by_type[ctype]), picked)
        rest = [entry for ctype, entries in by_type.items() if ctype not in self.advice.shares for entry in entries]
        self.pick(rest, target - sum(picked.values()), picked)
        self.pick(list(pool.values()), target - sum(picked.values()), picked)
        return picked

    def pick(self, entries: list[tuple[ir.CardDecl, int]], want: int, picked: dict[str, int]) -> None:
        while want > 0:
            open_ = [(c, lim) for c, lim in entries if picked.get(c.name, 0) < lim]
            if not open_:
                return
            card, _limit = self.rng.choices(open_, weights=[self.weight(c) for c, _ in open_])[0]
            picked[card.name] = picked.get(card.name, 0) + 1
            want -= 1

    def target(self, expr: ir.Expr | None) -> int | None:
        if expr is None:
            return None
        try:
            low, high = as_bounds(self.env.eval(expr, {}))
        except (NotStatic, ArithmeticError, TypeError, ValueError):
            return None
        return low if low is not None else high

    def decklist_text(self) -> str:
        heads = self.heads()
        scope = self.scope(heads)
        lines: list[str] = [f"# A {self.ctx.name} deck built by `cardsmith deck new`"]
        head = self.ctx.head_section()
        if head is not None:
            lines += ["", f"{head.name}:"] + [f"1 {c.name}" for c in heads]
        main = self.ctx.main_section()
        for section in self.rules.sections:
            if section is head or section.within is not None or not section.counts_toward_size:
                continue
            size_rule = self.ctx.size_rule()
            target = self.target(size_rule if section is main and size_rule is not None else section.count)
            if target is None:
                continue
            picked = self.fill(self.eligible(scope, section.types), target)
            lines += ["", f"{section.name}:"]
            by_type: dict[str, list[str]] = {}
            for name, n in picked.items():
                by_type.setdefault(self.ctx.cards[normalize_name(name)].type, []).append(f"{n} {name}")
            for ctype, entries in by_type.items():
                lines.append(f"# {ctype} ({sum(int(e.split(' ', 1)[0]) for e in entries)})")
                lines += sorted(entries, key=lambda e: e.split(" ", 1)[1])
        return "\n".join(lines) + "\n"
