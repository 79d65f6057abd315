"""What `cardsmith deck show` prints: the deck's derived values, cost curve and type mix.

The derived values are the game's own `summary "Label" { ... }` blocks (e.g. the final
stats of a deck led by two cards), evaluated over the deck and its `let` names. The
curve and mix are generic: the curve counts the main deck's cards by their `cost` stat
when the game's cards have one, the mix by card type.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from cardsmith.compiler.static_eval import DeckValue, EnumVal, NotStatic
from cardsmith.decks.games import GameContext
from cardsmith.decks.model import Decklist, DeckReport

CURVE_FIELD = "cost"


def _plain(value: Any) -> Any:
    if isinstance(value, EnumVal):
        return value.name
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return str(getattr(value, "name", value))


def main_cards(decklist: Decklist, ctx: GameContext) -> list[Any]:
    """The cards that count toward the deck's size (a leading section's cards left out)."""
    counting = {s.name for s in ctx.rules.sections if s.counts_toward_size}
    return [e.card for e in decklist.entries if e.section in counting and e.section not in decklist.within
            for _ in range(e.count)]


def deck_summary(report: DeckReport, ctx: GameContext) -> dict[str, Any]:
    """Everything `deck show` prints, as JSON-ready data."""
    deck = report.decklist
    cards = main_cards(deck, ctx)
    value = DeckValue(deck.sections(), len(cards), deck.physical())
    scope: dict[str, Any] = {**ctx.bindings(value), "deck": value}
    summaries: dict[str, dict[str, Any]] = {}
    for summary in ctx.rules.summaries:
        values: dict[str, Any] = {}
        for name, expr in summary.fields.items():
            try:
                values[name] = _plain(ctx.env.eval(expr, scope))
            except (NotStatic, ArithmeticError, TypeError, ValueError):
                values[name] = None
        summaries[summary.label] = values
    curve: Counter[int] = Counter()
    for card in cards:
        cost = ctx.value(card, CURVE_FIELD)
        if isinstance(cost, int) and not isinstance(cost, bool):
            curve[cost] += 1
    types = Counter(card.type for card in cards)
    return {
        "game": ctx.game_id,
        "path": deck.path,
        "legal": report.ok,
        "size": len(cards),
        "sections": {name: len(deck.section(name)) for name in deck.section_order},
        "summaries": summaries,
        "curve": {str(k): curve[k] for k in sorted(curve)},
        "types": dict(types.most_common()),
    }


def render_summary(data: dict[str, Any]) -> str:
    lines = [f"{data['path']} ({data['game']}): {data['size']} cards, "
             + ("legal" if data["legal"] else "NOT legal (see `cardsmith deck check`)")]
    lines.append("sections: " + ", ".join(f"{k} {v}" for k, v in data["sections"].items()))
    for label, values in data["summaries"].items():
        lines.append(f"{label}: " + ", ".join(f"{k} {'?' if v is None else v}" for k, v in values.items()))
    size = max(1, data["size"])
    if data["curve"]:
        lines.append(f"{CURVE_FIELD} curve:")
        peak = max(data["curve"].values())
        for cost, n in data["curve"].items():
            bar = "#" * max(1, round(20 * n / peak))
            lines.append(f"  {cost:>3} | {bar} {n}")
        total = sum(int(k) * n for k, n in data["curve"].items())
        lines.append(f"  average {total / max(1, sum(data['curve'].values())):.2f}")
    lines.append("types:")
    for ctype, n in data["types"].items():
        lines.append(f"  {ctype:<12} {n:>3}  {100 * n / size:5.1f}%")
    return "\n".join(lines)


def verdict(report: DeckReport, ctx: GameContext) -> str:
    """A checked decklist in one line, as `deck check` ends and the studio shows it."""
    n = len(report.errors)
    if n:
        return f"{report.source.path}: {n} error(s): not a legal {ctx.name} deck"
    size = len(main_cards(report.decklist, ctx))
    aside = len(report.decklist.physical()) - size
    extra = f" + {aside} not counted" if aside else ""
    return f"{report.source.path}: legal {ctx.name} deck ({size} cards{extra})"
