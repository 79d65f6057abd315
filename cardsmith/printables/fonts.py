"""The one font family cardsmith prints with, shipped inside the package.

DejaVu Sans Condensed (free licence, see fonts/LICENSE) is embedded in every PDF so a
card prints the same on any machine, and condensed so more rules text fits a poker card.
Widths are cached because text fitting measures the same words thousands of times.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

REGULAR, BOLD, ITALIC, BOLD_ITALIC = ("CardsmithSans", "CardsmithSans-Bold", "CardsmithSans-Oblique",
                                      "CardsmithSans-BoldOblique")
_FILES = {
    REGULAR: "DejaVuSansCondensed.ttf",
    BOLD: "DejaVuSansCondensed-Bold.ttf",
    ITALIC: "DejaVuSansCondensed-Oblique.ttf",
    BOLD_ITALIC: "DejaVuSansCondensed-BoldOblique.ttf",
}
_registered = False


def register() -> None:
    """Register the family with reportlab once per process (idempotent)."""
    global _registered
    if _registered:
        return
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)
    _registered = True


def font_name(bold: bool = False, italic: bool = False) -> str:
    if bold and italic:
        return BOLD_ITALIC
    if bold:
        return BOLD
    return ITALIC if italic else REGULAR


@lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    """The width of `text` in points; cached since the same words are measured often."""
    if not _registered:
        register()
    return float(pdfmetrics.stringWidth(text, font, size))


@lru_cache(maxsize=4096)
def missing_glyphs(text: str, font: str = REGULAR) -> tuple[str, ...]:
    """Characters of `text` the font cannot draw (they would print as empty boxes)."""
    register()
    face = pdfmetrics.getFont(font).face
    mapping: dict[int, int] = face.charToGlyph
    return tuple(sorted({ch for ch in text if ch not in "\n\t" and ord(ch) not in mapping}))
