"""Card and paper sizes and the units they are written in: the one table of them.

A game's `card_size:`, a layout's `size:` and the printables all read sizes here, so a
name means the same card everywhere (before, `bridge` was 57.0x89.0 mm to the language
and 57.15x88.9 mm to the printer, and only the language knew `tall`).
"""

from __future__ import annotations

import re

CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),       # 2.5 in x 3.5 in, as sold
    "bridge": (57.15, 88.9),     # 2.25 in x 3.5 in
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "tall": (133.35, 101.6),     # 5.25 in x 4 in, a landscape reference card
}
"""Named card sizes, width x height in millimetres."""

PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes the printables impose cards on, width x height in millimetres."""

UNITS_MM: dict[str | None, float] = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0, None: 1.0}
"""Millimetres per unit a dimension may be written in (a bare number is millimetres)."""

_DIMENSIONS = re.compile(r"^\s*([0-9.]+)\s*(mm|cm|in|pt)?\s*[x\u00d7]\s*([0-9.]+)\s*(mm|cm|in|pt)?\s*$")


def parse_size(word: str) -> tuple[float, float] | None:
    """A named card size or `WxH` dimensions (`63mm x 88mm`, `2.5in x 3.5in`), in mm;
    None when not understood."""
    key = word.strip().lower()
    if key in CARD_SIZES_MM:
        return CARD_SIZES_MM[key]
    found = _DIMENSIONS.match(key)
    if found is None:
        return None
    try:
        width, height = float(found.group(1)), float(found.group(3))
    except ValueError:  # "1.2.3"
        return None
    unit_w = UNITS_MM[found.group(2) or found.group(4)]
    unit_h = UNITS_MM[found.group(4) or found.group(2)]
    return width * unit_w, height * unit_h
