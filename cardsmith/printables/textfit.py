"""Fit text into a box: wrap at word boundaries, shrink in half-point steps down to 6 pt.

The result says what size was used and whether it fitted, so the renderer can warn
below 8 pt and refuse (an error naming the card and the box) when even 6 pt overflows:
text never silently runs off a card. Results are cached because card copies and
repeated labels fit the same text into the same box many times.

A word wider than the box is hyphenated where English allows it (pyphen's patterns,
the ones LibreOffice uses), or after a hyphen or slash it already has. Only when no
such point fits, at any size down to 6 pt, is it broken at an arbitrary point — still
marked with a hyphen — and the result lists it in `unbreakable`, so the renderer warns
(CS2008) instead of printing a silent mid-word break.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pyphen

from cardsmith.printables.fonts import width

MIN_SIZE = 6.0
WARN_SIZE = 8.0
LEADING = 1.18
HYPHEN = "-"
# Characters after which a word may break without adding a hyphen.
_BREAK_AFTER = frozenset("-/\u2013\u2014")
# Card text is English (the language's keywords are); one dictionary for every game.
HYPHENATION_LANGUAGE = "en_US"


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size: float
    fits: bool
    # words that had to be broken at a point hyphenation does not allow (see module doc)
    unbreakable: tuple[str, ...] = ()

    @property
    def leading(self) -> float:
        return self.size * LEADING


@lru_cache(maxsize=1)
def _dictionary() -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=HYPHENATION_LANGUAGE)


@lru_cache(maxsize=16384)
def break_points(word: str) -> tuple[tuple[int, bool], ...]:
    """Where `word` may break, in order: (index of the first character of the rest,
    whether a hyphen is added at the end of the line)."""
    points = {i: True for i in _dictionary().positions(word)}
    for i, ch in enumerate(word[:-1]):
        if ch in _BREAK_AFTER and i > 0:
            points[i + 1] = False
    return tuple(sorted(points.items()))


def _split_long(word: str, font: str, size: float, max_w: float) -> tuple[list[str], bool]:
    """A word wider than the box, as the pieces of its lines: each piece taken as long as
    the box allows at a legal break point. Returns (pieces, whether some piece had to be
    cut at an arbitrary point because no legal one fitted)."""
    pieces: list[str] = []
    forced = False
    start = 0
    points = break_points(word)
    while width(word[start:], font, size) > max_w:
        best = None
        for index, hyphen in points:
            if index <= start:
                continue
            piece = word[start:index] + (HYPHEN if hyphen else "")
            if width(piece, font, size) > max_w:
                break
            best = index, piece
        if best is None:  # no legal point fits: cut as late as the box allows, marked with a hyphen
            forced = True
            end = start + 1
            while end + 1 < len(word) and width(word[start:end + 1] + HYPHEN, font, size) <= max_w:
                end += 1
            best = end, word[start:end] + HYPHEN
        start, piece = best
        pieces.append(piece)
    pieces.append(word[start:])
    return pieces, forced


def wrap_words(text: str, font: str, size: float, max_w: float) -> tuple[list[str], list[str]]:
    """Greedy word wrap. A word wider than the box is hyphenated (see `_split_long`).
    Returns (lines, the words that had to be cut at an arbitrary point)."""
    out: list[str] = []
    forced: list[str] = []
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
                pieces, cut = _split_long(word, font, size, max_w)
                if cut:
                    forced.append(word)
                out.extend(pieces[:-1])
                line, line_w = pieces[-1], width(pieces[-1], font, size)
                continue
            if not line:
                line, line_w = word, w
            elif line_w + space + w <= max_w:
                line, line_w = f"{line} {word}", line_w + space + w
            else:
                out.append(line)
                line, line_w = word, w
        out.append(line)
    return out, forced


def wrap(text: str, font: str, size: float, max_w: float) -> list[str]:
    """Greedy word wrap; a word wider than the box is hyphenated (never cut silently)."""
    return wrap_words(text, font, size, max_w)[0]


@lru_cache(maxsize=16384)
def fit(text: str, font: str, size: float, max_w: float, max_h: float) -> Fitted:
    """The largest size from `size` down to 6 pt at which `text` fits the box with every
    long word hyphenated at a legal point. When no size allows that, the largest size at
    which it fits with some word cut anywhere (listed in `unbreakable`)."""
    current = size
    fallback: Fitted | None = None
    while True:
        lines, forced = wrap_words(text, font, current, max_w)
        # The last line needs only the glyph height, not a full line of leading.
        needed = current * (LEADING * (len(lines) - 1) + 1.0)
        if needed <= max_h + 0.01:
            if not forced:
                return Fitted(tuple(lines), current, True)
            if fallback is None:
                fallback = Fitted(tuple(lines), current, True, tuple(dict.fromkeys(forced)))
        nxt = round(current - 0.5, 2)
        if current <= MIN_SIZE or nxt < MIN_SIZE - 1e-9:
            if current > MIN_SIZE:
                current = MIN_SIZE
                continue
            return fallback or Fitted(tuple(lines), current, False, tuple(dict.fromkeys(forced)))
        current = nxt
