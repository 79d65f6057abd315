"""Cards onto pages: the 3x3 grid with crop marks, duplex back pages, print-shop pages.

Returns the PDF bytes and a record of what went where (card slots, crop marks), which
the tests check against the PDF itself.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from cardsmith.dsl import ir
from cardsmith.printables import fonts
from cardsmith.printables.cards import CardRenderer
from cardsmith.printables.draw import Forms, text_lines
from cardsmith.printables.geometry import MARK_WIDTH, MM, PAPERS, Grid, Segment, make_grid
from cardsmith.printables.textfit import fit

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Options:
    paper: str = "a4"
    mode: str = "home"                # home | ink-saver | print-shop
    duplex: str = "long-edge"         # long-edge | short-edge | none
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm, applied to back pages
    bleed_mm: float = 3.0


@dataclass
class PageRecord:
    side: str                           # front | back | calibration
    cards: list[tuple[str, float, float, float, float]] = field(default_factory=list)   # name, x, y, w, h
    marks: list[Segment] = field(default_factory=list)


@dataclass
class CardsPdf:
    data: bytes
    pages: list[PageRecord]


def new_canvas(buf: io.BytesIO, title: str, size: tuple[float, float]) -> Canvas:
    """A deterministic canvas: invariant mode, fixed metadata, compressed streams."""
    fonts.register()
    c = Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=fonts.REGULAR)
    c.setTitle(title)
    c.setAuthor("cardsmith")
    c.setCreator("cardsmith")
    c.setProducer("cardsmith")
    return c


def _draw_marks(c: Canvas, marks: list[Segment]) -> None:
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(MARK_WIDTH)
    for s in marks:
        c.line(s.x1, s.y1, s.x2, s.y2)


def sequence(game: ir.Game) -> list[ir.CardDecl]:
    """Every printed card face in order, each as many times as its copies."""
    out: list[ir.CardDecl] = []
    for card in game.cards:
        out.extend([card] * max(card.copies, 0))
    return out


def render_cards(game: ir.Game, renderer: CardRenderer, opts: Options, progress: Progress | None = None) -> CardsPdf:
    if opts.mode == "print-shop":
        return _print_shop(game, renderer, opts, progress)
    buf = io.BytesIO()
    pw, ph = PAPERS[opts.paper]
    c = new_canvas(buf, f"{game.game.name} — cards", (pw * MM, ph * MM))
    forms = Forms(c)
    records: list[PageRecord] = []
    # Cards of different sizes go on their own pages, in order of first appearance.
    groups: dict[tuple[float, float], list[ir.CardDecl]] = {}
    for card in sequence(game):
        lay = renderer.layouts[card.type]
        groups.setdefault((lay.width_mm, lay.height_mm), []).append(card)
    grids: dict[tuple[float, float], Grid] = {}
    for size in groups:
        grid = make_grid(opts.paper, *size)
        if grid is None:
            raise ValueError(f"{size[0]:g} x {size[1]:g} mm cards do not fit on {opts.paper} paper")
        grids[size] = grid
    total = sum(-(-len(cards) // grids[s].per_page) for s, cards in groups.items())
    total *= 2 if opts.duplex != "none" else 1
    done = 0
    ox, oy = opts.back_offset[0] * MM, opts.back_offset[1] * MM
    for size, cards in groups.items():
        grid = grids[size]
        for start in range(0, len(cards), grid.per_page):
            chunk = cards[start:start + grid.per_page]
            front = PageRecord("front", marks=grid.crop_marks(len(chunk)))
            for i, card in enumerate(chunk):
                x, y = grid.cell(*grid.slot(i))
                renderer.draw_front(c, forms, card, x, y)
                front.cards.append((card.name, x, y, grid.card_w, grid.card_h))
            _draw_marks(c, front.marks)
            c.showPage()
            records.append(front)
            done += 1
            if opts.duplex != "none":
                back = PageRecord("back", marks=[Segment(s.x1 + ox, s.y1 + oy, s.x2 + ox, s.y2 + oy)
                                                 for s in grid.mirrored_marks(len(chunk), opts.duplex)])
                for i, card in enumerate(chunk):
                    x, y = grid.cell(*grid.back_slot(i, opts.duplex))
                    renderer.draw_back(c, forms, card, x + ox, y + oy)
                    back.cards.append((card.name, x + ox, y + oy, grid.card_w, grid.card_h))
                _draw_marks(c, back.marks)
                c.showPage()
                records.append(back)
                done += 1
            if progress is not None:
                progress(done, total)
    if opts.duplex != "none":
        records.extend(_calibration(c, opts))
    c.save()
    return CardsPdf(buf.getvalue(), records)


def _target(c: Canvas, x: float, y: float, r: float = 4 * MM) -> None:
    c.setLineWidth(0.5)
    c.line(x - r, y, x + r, y)
    c.line(x, y - r, x, y + r)
    c.circle(x, y, r / 2, stroke=1, fill=0)


def _calibration(c: Canvas, opts: Options) -> list[PageRecord]:
    """A front/back pair for measuring how far the printer shifts the back side.

    The front has targets and a millimetre scale; the back has the same targets where
    a perfect duplex would put them (mirrored for the flip, plus the current offset).
    Held against the light, the distance between the two targets is the correction.
    """
    pw, ph = PAPERS[opts.paper]
    w, h = pw * MM, ph * MM
    points = [(w * 0.25, h * 0.75), (w * 0.75, h * 0.75), (w * 0.5, h * 0.5), (w * 0.25, h * 0.25),
              (w * 0.75, h * 0.25)]
    c.setStrokeColorRGB(0, 0, 0)
    for x, y in points:
        _target(c, x, y)
        for k in range(-5, 6):
            tick = 2 * MM if k % 5 == 0 else 1 * MM
            c.line(x + k * MM, y - 6 * MM, x + k * MM, y - 6 * MM - tick)
            c.line(x + 6 * MM, y + k * MM, x + 6 * MM + tick, y + k * MM)
    c.setLineWidth(0.8)
    c.line(20 * MM, 20 * MM, 120 * MM, 20 * MM)
    for k in range(0, 11):
        c.line(20 * MM + k * 10 * MM, 20 * MM, 20 * MM + k * 10 * MM, 22 * MM)
    info = (f"Duplex calibration ({opts.duplex}). Print this page and the next on one sheet. Hold the sheet to the "
            "light: each cross on the back should sit on its cross here. Read the shift on the millimetre "
            "scales and rebuild with --back-offset X,Y (mm, 0.1 mm steps; X to the right, Y up as seen on "
            "the back). The bar below must measure exactly 100 mm: otherwise turn off 'fit to page'.")
    f = fit(info, fonts.REGULAR, 10.0, w - 40 * MM, 40 * MM)
    text_lines(c, f.lines, fonts.REGULAR, f.size, 20 * MM, h - 20 * MM, w - 40 * MM, "left", (0, 0, 0), f.leading)
    c.showPage()
    ox, oy = opts.back_offset[0] * MM, opts.back_offset[1] * MM
    c.setStrokeColorRGB(0.8, 0, 0)
    for x, y in points:
        bx, by = (w - x, y) if opts.duplex != "short-edge" else (x, h - y)
        _target(c, bx + ox, by + oy)
    c.showPage()
    return [PageRecord("calibration"), PageRecord("calibration")]


def _print_shop(game: ir.Game, renderer: CardRenderer, opts: Options, progress: Progress | None) -> CardsPdf:
    """One card per page with bleed, TrimBox and BleedBox; front then back for each card."""
    buf = io.BytesIO()
    bleed = opts.bleed_mm * MM
    cards = sequence(game)
    first = renderer.layouts[cards[0].type] if cards else None
    size = ((first.width_mm * MM + 2 * bleed), (first.height_mm * MM + 2 * bleed)) if first else (1.0, 1.0)
    c = new_canvas(buf, f"{game.game.name} — cards (print shop)", size)
    forms = Forms(c)
    records: list[PageRecord] = []
    for n, card in enumerate(cards):
        lay = renderer.layouts[card.type]
        cw, ch = lay.width_mm * MM, lay.height_mm * MM
        page = (cw + 2 * bleed, ch + 2 * bleed)
        for side in ("front", "back"):
            c.setPageSize(page)
            c.setTrimBox((bleed, bleed, bleed + cw, bleed + ch))
            c.setBleedBox((0, 0, page[0], page[1]))
            if side == "front":
                renderer.draw_front(c, forms, card, bleed, bleed, bleed)
            else:
                renderer.draw_back(c, forms, card, bleed, bleed, bleed)
            c.showPage()
            records.append(PageRecord(side, cards=[(card.name, bleed, bleed, cw, ch)]))
        if progress is not None and n % 9 == 8:
            progress(len(records), 2 * len(cards))
    c.save()
    return CardsPdf(buf.getvalue(), records)
