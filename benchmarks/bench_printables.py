"""Benchmark: Kingdom Combat cards.pdf against a bare reportlab script, from one run.

Prints pages per second for cardsmith's renderer (planning, text fitting, forms,
imposition, duplex backs) and for a bare reportlab script that draws the same boxes and
text on the same pages with no fitting or reuse, their ratio (target <= 1.5), and the
file size per 100 pages (target well under 1 MiB without art).

    .venv/bin/python benchmarks/bench_printables.py [--copies 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import time

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from cardsmith.compiler.api import load_game_ir
from cardsmith.dsl import ir
from cardsmith.printables import fonts
from cardsmith.printables.build import art_root, resolve_layouts
from cardsmith.printables.cards import CardRenderer, TextOp
from cardsmith.printables.geometry import make_grid
from cardsmith.printables.imposition import Options, render_cards, sequence


def scaled(game: ir.Game, copies: int) -> ir.Game:
    return game.model_copy(update={"cards": [c.model_copy(update={"copies": copies}) for c in game.cards]})


def ours(game: ir.Game) -> tuple[float, int, int]:
    start = time.perf_counter()
    layouts = resolve_layouts(game, "a4", [])
    renderer = CardRenderer(game, layouts, "home", art_root(game))
    pdf = render_cards(game, renderer, Options())
    return time.perf_counter() - start, len(pdf.pages), len(pdf.data)


def bare(game: ir.Game, texts: dict[str, list[tuple[float, float, float, float, str, float]]]) -> tuple[float, int]:
    """The same cards as plain reportlab: frame, region boxes, wrapped text, backs."""
    start = time.perf_counter()
    buf = io.BytesIO()
    grid = make_grid("a4", 63, 88)
    assert grid is not None
    c = Canvas(buf, pagesize=(grid.page_w, grid.page_h), invariant=1, initialFontName=fonts.REGULAR)
    cards = sequence(game)
    pages = 0
    for first in range(0, len(cards), 9):
        chunk = cards[first:first + 9]
        for side in ("front", "back"):
            for i, card in enumerate(chunk):
                row, col = grid.slot(i) if side == "front" else grid.back_slot(i, "long-edge")
                x, y = grid.cell(row, col)
                c.setFillColorRGB(0.2, 0.3, 0.5)
                c.rect(x, y, grid.card_w, grid.card_h, stroke=0, fill=1)
                c.setFillColorRGB(0.95, 0.95, 0.9)
                c.roundRect(x + 7, y + 7, grid.card_w - 14, grid.card_h - 14, 4, stroke=0, fill=1)
                c.setFillColorRGB(0, 0, 0)
                if side == "back":
                    c.setFont(fonts.BOLD, 16)
                    c.drawCentredString(x + grid.card_w / 2, y + grid.card_h / 2, game.game.name)
                    continue
                for rx, ry, rw, rh, text, size in texts[card.name]:
                    c.rect(x + rx, y + ry, rw, rh, stroke=1, fill=0)
                    c.setFont(fonts.REGULAR, size)
                    ty = y + ry + rh - size
                    for line in simpleSplit(text, fonts.REGULAR, size, rw):
                        c.drawString(x + rx, ty, line)
                        ty -= size * 1.2
            for k in range(4):
                c.line(grid.x0 + k * grid.card_w, grid.top + 3, grid.x0 + k * grid.card_w, grid.top + 17)
            c.showPage()
            pages += 1
    c.save()
    return time.perf_counter() - start, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=6, help="copies of each card (6 gives ~100 pages)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs of each")
    args = parser.parse_args()
    fonts.register()
    game = scaled(load_game_ir("kingdom_combat"), args.copies)
    cold, cold_pages, _ = ours(game)   # first run: empty text-fitting caches
    # The text each card shows, as the bare script's input (planned once, outside the timing).
    renderer = CardRenderer(game, resolve_layouts(game, "a4", []), "home", art_root(game))
    texts: dict[str, list[tuple[float, float, float, float, str, float]]] = {}
    for card in game.cards:
        plan = renderer.plan(card)
        texts[card.name] = [(op.x, op.top - op.box_h, op.w, max(op.box_h, op.fitted.size), " ".join(op.fitted.lines),
                             op.fitted.size) for op in plan.ops if isinstance(op, TextOp)]
    ours(game)  # warm caches and fonts for both
    bare(game, texts)
    best_ours, pages, size = min(ours(game) for _ in range(args.repeat))
    best_bare, bare_pages = min(bare(game, texts) for _ in range(args.repeat))
    print(f"cardsmith (cold, first run): {cold_pages} pages in {cold:.3f} s = {cold_pages / cold:.0f} pages/s")
    print(f"cardsmith: {pages} pages in {best_ours:.3f} s = {pages / best_ours:.0f} pages/s")
    print(f"bare reportlab: {bare_pages} pages in {best_bare:.3f} s = {bare_pages / best_bare:.0f} pages/s")
    ratio = (best_ours / pages) / (best_bare / bare_pages)
    print(f"ratio (time per page, cardsmith / bare): {ratio:.2f}  (target <= 1.5)")
    print(f"file size per 100 pages: {size * 100 / pages / 1024:.0f} KiB  (target < 1024 KiB)")


if __name__ == "__main__":
    main()
