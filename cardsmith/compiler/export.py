"""The JSON export of a checked game, and the JSON Schema that describes it.

Other tools (spreadsheets, web viewers, print services) consume this; its shape is
declared as pydantic models so `cardsmith schema` and the export can never disagree.
Every card property (faction, border, colour, ...) is a top-level key of the card.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cardsmith.compiler.expansions import collector_numbers
from cardsmith.compiler.text import card_text, render_expr
from cardsmith.dsl import ir
from cardsmith.util.version import VERSION as __version__


class ExportExpansion(BaseModel):
    """An expansion checked together with the game: which one, and which version of it
    (print services and deck sites tell editions apart by it)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    version: str
    base: str = Field(description="the id of the game it adds to")


class ExportGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    id: str
    version: str
    description: str
    players: list[int] = Field(description="[minimum, maximum] player count")
    card_size: str
    card_width_mm: float
    card_height_mm: float
    expansions: list[ExportExpansion] = Field(default_factory=list)


class ExportCard(BaseModel):
    """One card; its type's properties (faction, border, ...) appear as extra keys."""

    model_config = ConfigDict(extra="allow")
    name: str
    type: str
    text: str
    copies: int
    stats: dict[str, int | float | str | bool | None]
    keywords: list[str]
    flavour: str | None = None
    art: str | None = None
    expansion: str | None = None
    set_code: str | None = Field(default=None, description="the set code of the card's game or expansion, if declared")
    collector_number: int | None = Field(default=None, description="the card's number within its set (1, 2, ...)")
    source: str = Field(description="file:line where the card is declared")


class ExportKeyword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    params: list[str]
    reminder: str


class ExportCardType(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    stats: dict[str, str]
    properties: dict[str, str]
    enters: str | None


class ExportEnum(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    values: dict[str, dict[str, int | float | str | bool | None]]


class ExportDocument(BaseModel):
    model_config = ConfigDict(extra="forbid", title="cardsmith game export")
    cardsmith: str = Field(description="version of cardsmith that wrote this")
    game: ExportGame
    cardtypes: list[ExportCardType]
    enums: list[ExportEnum]
    keywords: list[ExportKeyword]
    cards: list[ExportCard]


def plain(value: ir.Expr | None) -> int | float | str | bool | None:
    """A literal IR value as plain JSON; other expressions as their readable text."""
    if value is None or isinstance(value, ir.NoneLit):
        return None
    if isinstance(value, ir.Num):
        if value.den == 1:
            return value.num
        return float(Fraction(value.num, value.den))
    if isinstance(value, ir.Text):
        return value.value
    if isinstance(value, ir.Bool):
        return value.value
    if isinstance(value, ir.Ref):
        return value.name
    if isinstance(value, ir.Attr) and isinstance(value.obj, ir.Ref):
        return value.name
    return render_expr(value)


def keyword_label(use: ir.KeywordUse) -> str:
    args = " ".join(str(plain(a)) for a in use.args)
    return f"{use.name} {args}".strip()


def export_game(game: ir.Game) -> ExportDocument:
    g = game.game
    types = {t.name: t for t in game.cardtypes}
    cards = []
    collectors = collector_numbers(game)
    for c in game.cards:
        ctype = types.get(c.type)
        collector = collectors.get(c.name)
        stats: dict[str, Any] = {}
        props: dict[str, Any] = {}
        if ctype is not None:
            for f in ctype.stats:
                stats[f.name] = plain(c.stats.get(f.name, f.default))
            for f in ctype.properties:
                props[f.name] = plain(c.properties.get(f.name, f.default))
        reserved = set(ExportCard.model_fields)
        extra = {k: v for k, v in props.items() if k not in reserved}
        cards.append(ExportCard(
            name=c.name, type=c.type, text=card_text(game, c), copies=c.copies, stats=stats,
            keywords=[keyword_label(k) for k in c.keywords], flavour=c.flavour, art=c.art,
            expansion=c.expansion, set_code=collector.set_code if collector else None,
            collector_number=collector.number if collector else None, source=f"{c.span.file}:{c.span.line}", **extra))
    return ExportDocument(
        cardsmith=__version__,
        game=ExportGame(name=g.name, id=g.id, version=g.version, description=g.description,
                        players=[g.players_min, g.players_max], card_size=g.card_size,
                        card_width_mm=g.card_width_mm, card_height_mm=g.card_height_mm,
                        expansions=[ExportExpansion(name=e.name, version=e.version, base=e.base)
                                    for e in game.expansions]),
        cardtypes=[ExportCardType(name=t.name, stats={f.name: f.type for f in t.stats},
                                  properties={f.name: f.type for f in t.properties}, enters=t.enters)
                   for t in game.cardtypes],
        enums=[ExportEnum(name=e.name, values={v.name: {k: plain(x) for k, x in v.properties.items()}
                                               for v in e.values}) for e in game.enums],
        keywords=[ExportKeyword(name=k.name, params=[p.name for p in k.params], reminder=k.reminder)
                  for k in game.keywords if k.span.file != "<core>/core.cards"],
        cards=cards,
    )


def export_schema() -> dict[str, Any]:
    schema = ExportDocument.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
