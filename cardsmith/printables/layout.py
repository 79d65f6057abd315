"""Card layouts resolved from the IR, with a default for card types that declare none.

A designer's `layout` gives regions in mm from the card's top-left corner. This module
turns each into a `Region` with its style words parsed (font, shape, alignment) so the
renderer never re-reads them per card; unknown properties are collected once so the
build can warn about each a single time instead of crashing or printing nonsense.
A card type without a layout gets `default_layout`, so a new game prints with no layout
work at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardsmith.dsl import ir
from cardsmith.dsl.source import Span
from cardsmith.printables.evaluate import dim_mm, style_word
from cardsmith.printables.geometry import parse_size

REGION_PROPS = frozenset({
    "x", "y", "w", "h", "text", "image", "font", "align", "valign", "shape", "fill", "background", "label",
    "symbols", "section", "icon", "fit", "orientation", "columns", "heading", "track", "checkboxes", "colour",
    "border", "style", "weight",
})
LAYOUT_PROPS = frozenset({"size", "background", "border"})

_SIZE = re.compile(r"([0-9.]+)\s*pt")


@dataclass(frozen=True)
class Region:
    name: str
    x: float
    y: float
    w: float
    h: float
    props: dict[str, ir.Expr]
    span: Span
    font_size: float = 8.0
    bold: bool = False
    italic: bool = False
    align: str = "left"
    valign: str = "middle"
    shape: str = ""
    orientation: str = ""
    fit: str = "contain"

    def get(self, name: str) -> ir.Expr | None:
        return self.props.get(name)


@dataclass
class Layout:
    name: str
    width_mm: float
    height_mm: float
    regions: list[Region]
    background: ir.Expr | None
    border: ir.Expr | None
    span: Span
    unknown: list[tuple[str, Span]] = field(default_factory=list)
    default: bool = False


def parse_font(words: str, default_size: float = 8.0) -> tuple[float, bool, bool]:
    """`bold italic 9pt` → (9.0, True, True)."""
    lowered = words.lower()
    m = _SIZE.search(lowered)
    size = float(m.group(1)) if m else default_size
    return size, "bold" in lowered, ("italic" in lowered or "oblique" in lowered)


def _region(reg: ir.LayoutRegion, unknown: list[tuple[str, Span]]) -> Region:
    p = reg.properties
    for key in p:
        if key not in REGION_PROPS:
            unknown.append((f"region {reg.name}: {key}", p[key].span))
    size, bold, italic = parse_font(style_word(p.get("font")))
    h = dim_mm(p.get("h"), 8.0)
    valign = style_word(p.get("valign")) or ("top" if h > 12 else "middle")
    return Region(name=reg.name, x=dim_mm(p.get("x")), y=dim_mm(p.get("y")), w=dim_mm(p.get("w"), 20.0), h=h,
                  props=dict(p), span=reg.span, font_size=size, bold=bold, italic=italic,
                  align=style_word(p.get("align")) or "left", valign=valign, shape=style_word(p.get("shape")),
                  orientation=style_word(p.get("orientation")), fit=style_word(p.get("fit")) or "contain")


def card_size(game: ir.Game, ctype: ir.CardTypeDecl | None, decl: ir.LayoutDecl | None) -> tuple[float, float]:
    """The physical size: card type's `size`, else the layout's, else the game's."""
    for word in (ctype.size if ctype else None, style_word(decl.properties.get("size")) if decl else None):
        if word:
            found = parse_size(word)
            if found is not None:
                return found
    return game.game.card_width_mm, game.game.card_height_mm


def resolve_layout(game: ir.Game, ctype: ir.CardTypeDecl) -> Layout:
    decls = {d.name: d for d in game.layouts}
    decl = decls.get(ctype.layout) if ctype.layout else None
    w, h = card_size(game, ctype, decl)
    if decl is None:
        return default_layout(game, ctype, w, h)
    unknown: list[tuple[str, Span]] = []
    for key, value in decl.properties.items():
        if key not in LAYOUT_PROPS:
            unknown.append((f"layout {decl.name}: {key}", value.span))
    regions = [_region(r, unknown) for r in decl.regions]
    return Layout(decl.name, w, h, regions, decl.properties.get("background"), decl.properties.get("border"),
                  decl.span, unknown)


# ---------------------------------------------------------------- defaults

def _card_attr(name: str, span: Span) -> ir.Expr:
    return ir.Attr(span=span, obj=ir.Ref(span=span, name="card"), name=name)


def _colour_field(game: ir.Game, ctype: ir.CardTypeDecl, span: Span) -> ir.Expr | None:
    """`card.<prop>.colour` for the first enum property whose values carry a colour."""
    enums = {e.name: e for e in game.enums}
    for f in ctype.properties:
        enum = enums.get(f.type)
        if enum is None or not enum.values:
            continue
        for key in ("colour", "color", "hex"):
            if all(key in v.properties for v in enum.values):
                return ir.Attr(span=span, obj=_card_attr(f.name, span), name=key)
    return None


def default_layout(game: ir.Game, ctype: ir.CardTypeDecl, w: float, h: float) -> Layout:
    """A clean generic card: name and cost, type line, art, rules text, flavour, stats."""
    span = ctype.span
    m = 3.5
    stats = [f for f in ctype.stats if f.name != "cost"]
    has_cost = any(f.name == "cost" for f in ctype.stats)
    regions: list[Region] = []

    def add(name: str, x: float, y: float, rw: float, rh: float, size: float, **props: ir.Expr | str) -> None:
        exprs = {k: v for k, v in props.items() if isinstance(v, ir.Node)}
        words = {k: v for k, v in props.items() if isinstance(v, str)}
        bold = "bold" in words.get("font", "")
        italic = "italic" in words.get("font", "")
        regions.append(Region(name, x, y, rw, rh, exprs, span, font_size=size, bold=bold, italic=italic,
                              align=words.get("align", "left"), valign=words.get("valign", "middle"),
                              shape=words.get("shape", "")))

    cost_w = 9.0 if has_cost else 0.0
    add("name", m, m, w - 2 * m - cost_w - (1 if has_cost else 0), 7, 10, text=_card_attr("name", span), font="bold")
    if has_cost:
        add("cost", w - m - cost_w, m - 0.5, cost_w, cost_w, 12, text=_card_attr("cost", span), font="bold",
            shape="circle", align="center")
    type_words = ctype.name
    colour = _colour_field(game, ctype, span)
    colour_prop = colour.obj.name if isinstance(colour, ir.Attr) and isinstance(colour.obj, ir.Attr) else ""
    extra = [f.name for f in ctype.properties if f.type != "bool" and f.name != colour_prop]
    if extra:
        type_words += " — " + " · ".join("{" + n + "}" for n in extra[:2])
    stat_h = 6.0 if stats else 0.0
    flavour_h = 6.0
    # Art and rules text share what the fixed lines leave, so small cards keep room for text.
    remaining = h - (11.5 + 1 + 5.5 + stat_h + flavour_h + m + 1)
    art_h = text_h = max(remaining / 2, 5.0)
    add("art", m, 11.5, w - 2 * m, art_h, 8, image=_card_attr("art", span))
    y = 11.5 + art_h + 1
    add("type_line", m, y, w - 2 * m, 5, 7.5, text=ir.Text(span=span, value=type_words), font="bold")
    y += 5.5
    add("text", m, y, w - 2 * m, text_h, 8, text=_card_attr("rules_text", span), valign="top")
    y += text_h
    add("flavour", m, y, w - 2 * m, flavour_h, 6.5, text=_card_attr("flavour", span), font="italic")
    if stats:
        template = "   ".join(f"{f.name.replace('_', ' ').title()} {{{f.name}}}" for f in stats)
        add("stats", m, h - m - stat_h, w - 2 * m, stat_h, 8, text=ir.Text(span=span, value=template), font="bold",
            align="center", shape="badge")
    if game.game.set_code or any(e.set_code for e in game.expansions):  # `ASH 12/40`, in the bottom margin
        add("collector", m, h - m + 0.2, w - 2 * m, m - 0.6, 5, text=_card_attr("collector", span), align="right")
    return Layout(f"default:{ctype.name}", w, h, regions, ir.Text(span=span, value="#FAF7F0"),
                  colour or ir.Text(span=span, value="#3A3A3A"), span, [], default=True)
