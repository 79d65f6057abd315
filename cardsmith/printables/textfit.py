"""Fit text into a box: wrap at word boundaries, shrink in half-point steps down to 6 pt.

The result says what size was used and whether it fitted, so the renderer can warn
below 8 pt and refuse (an error naming the card and the box) when even 6 pt overflows:
text never silently runs off a card. Results are cached because card copies and
repeated labels fit the same text into the same box many times.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cardsmith.printables.fonts import width

MIN_SIZE = 6.0
WARN_SIZE = 8.0
LEADING = 1.18


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size: float
    fits: bool

    @property
    def leading(self) -> float:
        return self.size * LEADING


def wrap(text: str, font: str, size: float, max_w: float) -> list[str]:
    """Greedy word wrap; a word wider than the box is broken between characters."""
    out: list[str] = []
    space = width(" ", font, size)
    for para in text.split("\n"):
        words = para.split()
        if not words:
            out.append("")
            continue
        line, line_w = "", 0.0
        for word in words:
            w = width(word, font, size)
            if w > max_w:
                if line:
                    out.append(line)
                    line, line_w = "", 0.0
                chunk = ""
                for ch in word:
                    if chunk and width(chunk + ch, font, size) > max_w:
                        out.append(chunk)
                        chunk = ""
                    chunk += ch
                line, line_w = chunk, width(chunk, font, size)
                continue
            if not line:
                line, line_w = word, w
            elif line_w + space + w <= max_w:
                line, line_w = f"{line} {word}", line_w + space + w
            else:
                out.append(line)
                line, line_w = word, w
        out.append(line)
    return out


@lru_cache(maxsize=16384)
def fit(text: str, font: str, size: float, max_w: float, max_h: float) -> Fitted:
    """The largest size from `size` down to 6 pt at which `text` fits the box."""
    current = size
    while True:
        lines = wrap(text, font, current, max_w)
        # The last line needs only the glyph height, not a full line of leading.
        needed = current * (LEADING * (len(lines) - 1) + 1.0)
        if needed <= max_h + 0.01:
            return Fitted(tuple(lines), current, True)
        nxt = round(current - 0.5, 2)
        if current <= MIN_SIZE or nxt < MIN_SIZE - 1e-9:
            if current > MIN_SIZE:
                current = MIN_SIZE
                continue
            return Fitted(tuple(lines), current, False)
        current = nxt
