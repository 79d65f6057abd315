"""What the cards pages say about cards, read from the game's IR only.

The gallery's filters come from the game's declarations: its card types, every property
whose type is one of its enums, its number stats and its keywords — so each game gets
its own filters and no game's words appear here. A card's page shows its rules text as
written and as the compiler generates it (compiler/text.py, as `cardsmith text` does),
with the words that differ marked, its keywords' reminders filled in as printed, and the
ready decks that use it (decks.library.ready_decks, as `deck list` reads them).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from cardsmith.compiler.text import card_text, generated_text, keyword_reminder, render_expr
from cardsmith.dsl import ir

__all__ = ["CardItem", "Filters", "card_item", "card_page", "filters", "word_diff"]


@dataclass(frozen=True)
class Filters:
    """The gallery's filter choices for one game."""

    types: list[str]
    properties: list[tuple[str, list[str]]]  # enum-valued property -> its values
    stats: list[str]  # number stats
    keywords: list[str]


@dataclass(frozen=True)
class CardItem:
    """One card of the gallery: what it shows and what the filters read."""

    name: str
    type: str
    properties: dict[str, str]
    stats: dict[str, float]
    keywords: list[str]
    text: str
    copies: int


@dataclass
class CardPage:
    item: CardItem
    written: str | None
    generated: str
    diff: list[tuple[str, str]]
    stats: list[tuple[str, str]]
    properties: list[tuple[str, str]]
    keywords: list[tuple[str, str]]
    decks: list[tuple[str, int, str]]
    decks_problem: str = ""
    source: str = ""
    abilities: int = 0
    notes: list[str] = field(default_factory=list)


def _fields(game: ir.Game, ctype: str) -> tuple[list[ir.FieldDef], list[ir.FieldDef]]:
    for t in game.cardtypes:
        if t.name == ctype:
            return t.stats, t.properties
    return [], []


def _value(expr: ir.Expr | None) -> str:
    if expr is None:
        return ""
    if isinstance(expr, ir.Ref):
        return expr.name
    return render_expr(expr)


def _number(expr: ir.Expr | None) -> float | None:
    if isinstance(expr, ir.Num) and expr.den:
        return expr.num / expr.den
    return None


def filters(game: ir.Game) -> Filters:
    enums = {e.name: [v.name for v in e.values] for e in game.enums}
    used_types = {c.type for c in game.cards}
    properties: dict[str, list[str]] = {}
    stats: list[str] = []
    for t in game.cardtypes:
        if t.name not in used_types:
            continue
        for f in t.properties:
            if f.type in enums:
                values = properties.setdefault(f.name, [])
                values.extend(v for v in enums[f.type] if v not in values)
        for f in t.stats:
            if f.type == "number" and f.name not in stats:
                stats.append(f.name)
    used_keywords = {u.name for c in game.cards for u in c.keywords}
    return Filters(types=[t.name for t in game.cardtypes if t.name in used_types],
                   properties=sorted(properties.items()), stats=stats,
                   keywords=[k.name for k in game.keywords if k.name in used_keywords])


def card_item(game: ir.Game, card: ir.CardDecl) -> CardItem:
    stat_defs, prop_defs = _fields(game, card.type)
    enums = {e.name for e in game.enums}
    properties = {f.name: _value(card.properties.get(f.name, f.default)) for f in prop_defs if f.type in enums}
    stats: dict[str, float] = {}
    for f in stat_defs:
        number = _number(card.stats.get(f.name, f.default))
        if number is not None:
            stats[f.name] = number
    return CardItem(name=card.name, type=card.type, properties=properties, stats=stats,
                    keywords=[u.name for u in card.keywords], text=card_text(game, card), copies=card.copies)


def word_diff(written: str, generated: str) -> list[tuple[str, str]]:
    """The generated text against the written one, word by word: (op, text) with op
    "same", "del" (written only) or "ins" (generated only); words are compared without
    the spaces between them, which come back as "same" runs of one space."""
    a, b = written.split(), generated.split()
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        runs = [("same", a[i1:i2])] if op == "equal" else [("del", a[i1:i2]), ("ins", b[j1:j2])]
        for kind, words in runs:
            if words:
                if out:
                    out.append(("same", " "))
                out.append((kind, " ".join(words)))
    return out


def _source(card: ir.CardDecl, root: Path) -> str:
    path = Path(card.span.file)
    try:
        shown = str(path.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        shown = str(path)
    return f"{shown}:{card.span.line}"


def _decks(game: ir.Game, name: str) -> tuple[list[tuple[str, int, str]], str]:
    """(deck, copies, sections) for each ready deck holding the card, or why they could not be read."""
    from cardsmith.decks.library import ready_decks

    try:
        decks = ready_decks(game)
    except Exception as exc:  # a deck that no longer matches the edited game
        return [], f"the ready decks could not be read: {exc}"
    rows: list[tuple[str, int, str]] = []
    for deck_name, deck in sorted(decks.items()):
        counts: dict[str, int] = {}
        for entry in deck.entries:
            if entry.card.name == name:
                counts[entry.section] = counts.get(entry.section, 0) + entry.count
        if counts:
            physical = sum(n for section, n in counts.items() if section not in deck.within)
            rows.append((deck_name, physical or sum(counts.values()), ", ".join(sorted(counts))))
    return rows, ""


def print_notes(game: ir.Game, card: ir.CardDecl) -> list[str]:
    """What the printer says about this card's face (text shrunk or cut, art missing),
    as `build` would report it: the card is planned, not drawn."""
    from cardsmith.printables.build import art_root, resolve_layouts
    from cardsmith.printables.cards import CardRenderer

    try:
        renderer = CardRenderer(game, resolve_layouts(game, "a4", []), "home", art_root(game))
        renderer.plan(card)
    except Exception as exc:  # the face route serves a placeholder saying the same
        return [f"error: the card cannot be drawn: {type(exc).__name__}: {exc}"]
    return [f"{d.severity.value}: {d.message}" + (f" ({d.hint})" if d.hint else "") for d in renderer.diagnostics]


def card_page(game: ir.Game, card: ir.CardDecl, root: Path) -> CardPage:
    stat_defs, prop_defs = _fields(game, card.type)
    keywords = {k.name: k for k in game.keywords}
    generated = generated_text(game, card)
    kw_rows: list[tuple[str, str]] = []
    for use in card.keywords:
        decl = keywords.get(use.name)
        label = use.name.replace("_", " ") + "".join(f" {render_expr(a)}" for a in use.args)
        kw_rows.append((label, keyword_reminder(decl, use) if decl is not None else ""))
    decks, problem = _decks(game, card.name)
    return CardPage(
        item=card_item(game, card), written=card.text, generated=generated,
        diff=word_diff(card.text, generated) if card.text is not None else [],
        stats=[(f.name, _value(card.stats.get(f.name, f.default)) or "—") for f in stat_defs],
        properties=[(f.name, _value(card.properties.get(f.name, f.default)) or "—") for f in prop_defs],
        keywords=kw_rows, decks=decks, decks_problem=problem, source=_source(card, root),
        abilities=len(card.abilities), notes=print_notes(game, card))
