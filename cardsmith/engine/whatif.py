"""What-if: a game with card stats overridden, and two versions of a game compared match by match.

Overrides (`--set "Savage Strike.Damage high=60"`) are applied to a *copy of the game's
folder*, by rewriting the overridden value in the copy's `.cards` source at the source
location the checked IR gives for it. Why a copy and not a change to the loaded IR: the
changed game then goes through the same checker and compiler as any game (a value of the
wrong type is reported like any other error, with its line), worker processes load it by
its folder like any other game, and the report names every change as the source read
before it. Nothing per game is written in Python.

An override names a card, then one of:
- a stat or property of the card (`Blue Knight.value=9`), also one its card type declares
  with a default that the card does not set (the line is added to the card);
- a keyword the card uses, followed by as many of its leading arguments as it takes to
  tell the card's uses of that keyword apart (`Savage Strike.Damage high=60`): the
  use's last number is replaced.

The comparison is paired: both versions play the same seeds in the same seat orders, so
each match of one has a twin in the other, and a difference of win rates is estimated
from the per-pair differences (mean ± 1.96·sd/√n), much tighter than two independent runs.
"""

from __future__ import annotations

import math
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardsmith.compiler.loader import LoadError, resolve
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.source import Span
from cardsmith.engine.balance import ENDED, WON, Z95, Played, as_measured

MAX_OVERRIDES = 50
_VALUE = re.compile(r'^(-?\d+(\.\d+)?|[A-Za-z_][A-Za-z0-9_]*|"[^"\n]*")$')


class OverrideError(LoadError):
    """An override that names no card or stat, or is not written `Card.stat=value`: like
    a target that names no game, bad usage of the command line (exit 2)."""


@dataclass(frozen=True)
class Override:
    card: str
    stat: str
    value: str

    def __str__(self) -> str:
        return f"{self.card}.{self.stat}={self.value}"


@dataclass(frozen=True)
class Edit:
    """One change to one source file: replace [line:col, end) — or insert a line after
    `line` when `insert` — and what it changes, for the report."""

    file: Path
    line: int
    column: int
    end_column: int
    text: str
    insert: bool
    label: str  # "Savage Strike Damage high 14 → 60"


def parse_override(spec: str, game: ir.Game) -> Override:
    """`Card Name.stat=value`, checked against the game's cards (OverrideError if not)."""
    left, eq, value = spec.rpartition("=")
    value = value.strip()
    if not eq or "." not in left or not value:
        raise OverrideError(f"cannot read the override {spec!r}", 'write it as "Card Name.stat=value"')
    if not _VALUE.match(value):
        raise OverrideError(f"the override {spec!r} sets {value!r}, which is not a number, a name or a quoted text")
    names = {c.name for c in game.cards}
    for cut in [i for i, ch in enumerate(left) if ch == "."][::-1]:
        card, stat = left[:cut].strip(), left[cut + 1:].strip()
        if card in names and stat:
            return Override(card, " ".join(stat.split()), value)
    card = left.rpartition(".")[0].strip()
    raise OverrideError(f"the override {spec!r} names no card of {game.game.name}: {card!r}",
                        did_you_mean(card, names) or "the card's name as its `card \"...\"` line writes it")


def _text(source: str, span: Span) -> str:
    lines = source.splitlines()
    if span.line != span.end_line or span.line > len(lines):
        return ""
    return str(lines[span.line - 1][span.column - 1:span.end_column - 1])


def _file_of(span: Span, files: Sequence[Path]) -> Path:
    """The game file a span points at (spans of library games may be relative)."""
    wanted = Path(span.file)
    tail = wanted.as_posix().lstrip("./")
    for f in files:
        if f == wanted.resolve() or f.as_posix().endswith("/" + tail):
            return f
    raise OverrideError(f"cannot find the source file {span.file} of the game")


def plan_edit(override: Override, game: ir.Game, files: Sequence[Path]) -> Edit:
    """Where in the source the override changes what (OverrideError if it cannot)."""
    card = next(c for c in game.cards if c.name == override.card)
    words = override.stat.split()
    head = words[0]
    fields = {**card.stats, **card.properties}
    if len(words) == 1 and head in fields:
        expr = fields[head]
        path = _file_of(expr.span, files)
        old = _text(path.read_text(encoding="utf-8"), expr.span)
        return Edit(path, expr.span.line, expr.span.column, expr.span.end_column, override.value, False,
                    f"{card.name} {head} {old} → {override.value}")
    cardtype = next((t for t in game.cardtypes if t.name == card.type), None)
    declared = {f.name: f for f in (cardtype.stats + cardtype.properties)} if cardtype else {}
    if len(words) == 1 and head in declared:
        default = declared[head].default
        path = _file_of(card.span, files)
        old = _text(_file_of(default.span, files).read_text(encoding="utf-8"), default.span) if default else "unset"
        return Edit(path, card.span.line, 1, 1, f"  {head}: {override.value}", True,
                    f"{card.name} {head} {old} → {override.value}")
    uses = [k for k in card.keywords if k.name.lower() == head.lower()]
    if not uses:
        choices = sorted(set(fields) | set(declared) | {k.name for k in card.keywords})
        raise OverrideError(f"{card.name} has no stat, property or keyword {head!r}",
                            did_you_mean(head, choices) or f"it has: {', '.join(choices)}")
    path = _file_of(uses[0].span, files)
    source = path.read_text(encoding="utf-8")

    def described(use: ir.KeywordUse) -> list[str]:
        return [_text(source, a.span) for a in use.args]

    fitting = [u for u in uses if [w.lower() for w in described(u)[:len(words) - 1]] == [w.lower() for w in words[1:]]]
    named = [" ".join([u.name, *described(u)]) for u in uses]
    if len(fitting) != 1:
        problem = "matches none" if not fitting else "matches several"
        raise OverrideError(f"{override.card}.{override.stat} {problem} of the card's uses of {uses[0].name}",
                            "name the use by its leading arguments, one of: " + "; ".join(named))
    use = fitting[0]
    number = next((a for a in reversed(use.args) if isinstance(a, ir.Num)), None)
    if number is None:
        raise OverrideError(f"{override.card}'s {' '.join([use.name, *described(use)])} has no number to set")
    old = _text(source, number.span)
    return Edit(path, number.span.line, number.span.column, number.span.end_column, override.value, False,
                f"{card.name} {' '.join([use.name, *described(use)[:len(words) - 1]])} {old} → {override.value}")


def apply_overrides(target: str, game: ir.Game, specs: Sequence[str], into: Path) -> tuple[list[str], str]:
    """Copy the game's folder into `into` and apply the overrides there; one label per
    change ("Savage Strike Damage high 14 → 60") and the copy's path."""
    if len(specs) > MAX_OVERRIDES:
        raise OverrideError(f"at most {MAX_OVERRIDES} overrides at once")
    found = resolve(target)
    if found.expansion_roots:
        raise OverrideError("overrides of an expansion are not supported", "override the cards of the base game")
    overrides = [parse_override(s, game) for s in specs]
    edits = [plan_edit(o, game, found.files) for o in overrides]
    copy = into / found.root.name
    shutil.copytree(found.root, copy)
    by_file: dict[Path, list[Edit]] = {}
    for e in edits:
        by_file.setdefault(e.file, []).append(e)
    for original, changes in by_file.items():
        lines = original.read_text(encoding="utf-8").splitlines(keepends=True)
        # from the bottom up, so earlier positions stay valid
        for e in sorted(changes, key=lambda e: (e.line, e.column), reverse=True):
            row = lines[e.line - 1]
            if e.insert:
                lines.insert(e.line, e.text + "\n")
            else:
                lines[e.line - 1] = row[:e.column - 1] + e.text + row[e.end_column - 1:]
        (copy / original.relative_to(found.root)).write_text("".join(lines), encoding="utf-8")
    return [e.label for e in edits], str(copy)


# ---------------------------------------------------------------- the paired comparison


def _paired(diffs: Sequence[float]) -> dict[str, Any]:
    """Mean of per-pair differences with its normal 95% interval."""
    n = len(diffs)
    if n == 0:
        return {"diff": None, "low": None, "high": None, "pairs": 0}
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"diff": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4), "pairs": n,
            "significant": n > 1 and (mean - half > 0 or mean + half < 0)}


def _independent(a: dict[str, Any] | None, b: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    """b[key] - a[key] of two estimates with 95% intervals, as if independent (their
    standard errors read back from the interval widths): conservative for paired seeds."""
    if not a or not b or a.get(key) is None or b.get(key) is None:
        return None
    se_a = (a[f"{key}_high"] - a[f"{key}_low"]) / (2 * Z95)
    se_b = (b[f"{key}_high"] - b[f"{key}_low"]) / (2 * Z95)
    diff = b[key] - a[key]
    half = Z95 * math.sqrt(se_a ** 2 + se_b ** 2)
    return {"diff": round(diff, 4), "low": round(diff - half, 4), "high": round(diff + half, 4),
            "significant": diff - half > 0 or diff + half < 0}


def compare(base: Sequence[Played], variant: Sequence[Played], base_stats: dict[str, Any],
            variant_stats: dict[str, Any], players: int, seeds: Sequence[int]) -> dict[str, Any]:
    """Every difference between two simulations of the same seeds: per seat win rate
    (paired), per deck win rate (paired), match length (paired), ended matches, and each
    card's impact and IWD (independent-sample intervals)."""
    measure = base_stats.get("outcome_measure", WON)  # (simrun has both versions count the same)
    base, variant = as_measured(base, measure), as_measured(variant, measure)
    twins = {(getattr(b, "seed", i), getattr(b, "rotation", 0)): b for i, b in enumerate(variant)}
    pairs = [(a, twins[key]) for i, a in enumerate(base)
             if (key := (getattr(a, "seed", i), getattr(a, "rotation", 0))) in twins]  # same seed, same seat order
    both = [(a, b) for a, b in pairs if a.outcome in ENDED and b.outcome in ENDED]
    seats = {f"player{s + 1}": _paired([float(b.winners == [s]) - float(a.winners == [s]) for a, b in both])
             for s in range(players)}
    decks: dict[str, Any] = {}
    for name in sorted({d for a, _ in both for d in (a.decks or [])}):
        diffs = []
        for a, b in both:
            for seat, deck in enumerate(a.decks or []):
                if deck == name:
                    diffs.append(float(b.winners == [seat]) - float(a.winners == [seat]))
        decks[name] = _paired(diffs)
    turns = _paired([float(_turns(b) - _turns(a)) for a, b in pairs])
    cards: dict[str, Any] = {}
    base_cards = {r["card"]: r for r in base_stats["card_impact"]}
    for row in variant_stats["card_impact"]:
        old = base_cards.get(row["card"])
        impact = _independent(old, row, "impact")
        iwd = _independent(old, row, "iwd")
        if impact or iwd:
            cards[row["card"]] = {"impact": impact, "iwd": iwd,
                                  "impact_before": old["impact"] if old else None, "impact_after": row["impact"]}
    ordered = dict(sorted(cards.items(), key=lambda kv: -abs((kv[1]["impact"] or {}).get("diff") or 0.0)))
    return {"pairs": len(both), "seeds": [seeds[0], seeds[-1]] if seeds else [],
            "seats": seats, "decks": decks, "turns": turns,
            "ended": {"before": base_stats["ended"], "after": variant_stats["ended"]},
            "outcomes": {"before": base_stats["outcomes"], "after": variant_stats["outcomes"]},
            "cards": ordered}


def _turns(match: Played) -> int:
    return int(getattr(match, "turns", 0))
