"""Page geometry: paper and card sizes, the card grid, crop marks and duplex mirroring.

All positions are in PDF points with the origin at the bottom left of the page. Cards
are butted (shared cut lines) and the grid is centred, so a back page mirrored for the
flip lands exactly behind its front.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardsmith.dsl.units import CARD_SIZES_MM, PAPERS_MM, parse_size

__all__ = ["CARD_SIZES", "MM", "PAPERS", "Grid", "Segment", "make_grid", "parse_size"]

MM = 72.0 / 25.4

PAPERS = PAPERS_MM
CARD_SIZES = CARD_SIZES_MM

MARK_GAP = 1.0 * MM     # crop marks start this far outside the cut line
MARK_LEN = 5.0 * MM
MARK_WIDTH = 0.6        # points: at least 0.5 pt so home printers do not drop them
MIN_MARGIN = 4.0 * MM   # room kept for crop marks and the printer's unprintable edge

@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Grid:
    """A centred grid of butted cards on one page size."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def x0(self) -> float:
        return (self.page_w - self.cols * self.card_w) / 2

    @property
    def top(self) -> float:
        return (self.page_h + self.rows * self.card_h) / 2

    def cell(self, row: int, col: int) -> tuple[float, float]:
        """Bottom-left corner of the card in (row, col), row 0 at the top."""
        return self.x0 + col * self.card_w, self.top - (row + 1) * self.card_h

    def slot(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def back_slot(self, index: int, duplex: str) -> tuple[int, int]:
        """Where the back of the card in front slot `index` goes on the back page.

        Long-edge flip turns the sheet about its vertical axis (columns mirror);
        short-edge flip turns it about the horizontal axis (rows mirror).
        """
        row, col = self.slot(index)
        if duplex == "short-edge":
            return self.rows - 1 - row, col
        return row, self.cols - 1 - col

    def crop_marks(self, used: int) -> list[Segment]:
        """Cut-line marks for the first `used` slots, all outside the block of cards.

        Each cut line gets a short mark beyond both ends of the occupied block, so no mark
        crosses a card, and a partial page still gets every line it needs.
        """
        if used <= 0:
            return []
        rows = math.ceil(used / self.cols)
        cols = min(used, self.cols)
        left, right = self.x0, self.x0 + cols * self.card_w
        top, bottom = self.top, self.top - rows * self.card_h
        marks: list[Segment] = []
        for c in range(cols + 1):
            x = self.x0 + c * self.card_w
            marks.append(Segment(x, top + MARK_GAP, x, top + MARK_GAP + MARK_LEN))
            marks.append(Segment(x, bottom - MARK_GAP, x, bottom - MARK_GAP - MARK_LEN))
        for r in range(rows + 1):
            y = top - r * self.card_h
            marks.append(Segment(left - MARK_GAP - MARK_LEN, y, left - MARK_GAP, y))
            marks.append(Segment(right + MARK_GAP, y, right + MARK_GAP + MARK_LEN, y))
        return marks

    def mirrored_marks(self, used: int, duplex: str) -> list[Segment]:
        """The front page's crop marks as they fall on the back page after the flip."""
        out = []
        for s in self.crop_marks(used):
            if duplex == "short-edge":
                out.append(Segment(s.x1, self.page_h - s.y1, s.x2, self.page_h - s.y2))
            else:
                out.append(Segment(self.page_w - s.x1, s.y1, self.page_w - s.x2, s.y2))
        return out


def make_grid(paper: str, card_w_mm: float, card_h_mm: float, max_cols: int = 3, max_rows: int = 3) -> Grid | None:
    """As many cards as fit (at most 3x3) with room for crop marks; None if none fit."""
    pw, ph = PAPERS[paper]
    page_w, page_h = pw * MM, ph * MM
    cw, ch = card_w_mm * MM, card_h_mm * MM
    room = 2 * (MIN_MARGIN + MARK_GAP)
    cols = min(max_cols, int((page_w - room) // cw))
    rows = min(max_rows, int((page_h - room) // ch))
    if cols < 1 or rows < 1:
        return None
    return Grid(page_w, page_h, cw, ch, cols, rows)
