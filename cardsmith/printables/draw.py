"""Drawing primitives shared by cards and sheets: colours, shapes and reusable forms.

Everything repeated (card frames, backs, stat icons, art placeholders) becomes a PDF
form XObject drawn once per document and referenced by name afterwards, which keeps a
hundred pages of cards well under a megabyte. Ink-saver mode turns fills into outlines
and colours into greys here, in one place.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from reportlab.pdfgen.canvas import Canvas

from cardsmith.printables import fonts
from cardsmith.printables.geometry import MM

RGB = tuple[float, float, float]
WHITE: RGB = (1.0, 1.0, 1.0)
BLACK: RGB = (0.0, 0.0, 0.0)


@lru_cache(maxsize=1024)
def rgb(hex_colour: str) -> RGB:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    return int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255


def luminance(c: RGB) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def grey(c: RGB) -> RGB:
    v = luminance(c)
    return v, v, v


def ink_on(background: RGB) -> RGB:
    """Black or white text, whichever reads better on the background."""
    return WHITE if luminance(background) < 0.5 else BLACK


class Painter:
    """Colours for one output mode (home, ink-saver, print-shop)."""

    def __init__(self, mode: str) -> None:
        self.ink_saver = mode == "ink-saver"

    def colour(self, c: RGB) -> RGB:
        return grey(c) if self.ink_saver else c

    def surface(self, c: RGB) -> RGB:
        """A filled area: white in ink-saver mode (the shape is outlined instead)."""
        return WHITE if self.ink_saver else c


class Forms:
    """Names of the forms already defined in one canvas; defines each on first use."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.defined: set[str] = set()

    def use(self, name: str, draw: Callable[[Canvas], None], x: float, y: float) -> None:
        c = self.canvas
        if name not in self.defined:
            c.beginForm(name)
            draw(c)
            c.endForm()
            self.defined.add(name)
        c.saveState()
        c.translate(x, y)
        c.doForm(name)
        c.restoreState()


def shape_path(c: Canvas, shape: str, w: float, h: float) -> object:
    """A path for a named shape filling a w x h box at the origin."""
    p = c.beginPath()
    if shape in ("circle", "coin"):
        r = min(w, h) / 2
        p.circle(w / 2, h / 2, r)
    elif shape == "heart":
        s = min(w, h)
        cx, cy = w / 2, h / 2
        p.moveTo(cx, cy - s * 0.45)
        p.curveTo(cx - s * 0.9, cy + s * 0.05, cx - s * 0.35, cy + s * 0.65, cx, cy + s * 0.25)
        p.curveTo(cx + s * 0.35, cy + s * 0.65, cx + s * 0.9, cy + s * 0.05, cx, cy - s * 0.45)
        p.close()
    elif shape == "shield":
        p.moveTo(0, h)
        p.lineTo(w, h)
        p.lineTo(w, h * 0.45)
        p.curveTo(w, h * 0.15, w * 0.6, 0, w / 2, 0)
        p.curveTo(w * 0.4, 0, 0, h * 0.15, 0, h * 0.45)
        p.close()
    elif shape == "triangle":
        p.moveTo(0, 0)
        p.lineTo(w, 0)
        p.lineTo(w / 2, h)
        p.close()
    elif shape == "star":
        r_out, r_in = min(w, h) / 2, min(w, h) / 5
        for i in range(10):
            r = r_out if i % 2 == 0 else r_in
            a = math.pi / 2 + i * math.pi / 5
            x, y = w / 2 + r * math.cos(a), h / 2 + r * math.sin(a)
            if i == 0:
                p.moveTo(x, y)
            else:
                p.lineTo(x, y)
        p.close()
    elif shape == "badge":
        p.roundRect(0, 0, w, h, min(w, h) / 2.5)
    else:  # square, box and anything unknown
        p.rect(0, 0, w, h)
    return p


def draw_shape(c: Canvas, painter: Painter, shape: str, w: float, h: float, fill: RGB, stroke: RGB | None = None,
               line: float = 0.6) -> None:
    path = shape_path(c, shape, w, h)
    if painter.ink_saver:
        c.setStrokeColorRGB(*painter.colour(stroke or fill))
        c.setLineWidth(line)
        c.drawPath(path, stroke=1, fill=0)
        return
    c.setFillColorRGB(*fill)
    if stroke is not None:
        c.setStrokeColorRGB(*stroke)
        c.setLineWidth(line)
    c.drawPath(path, stroke=1 if stroke is not None else 0, fill=1)
    if shape == "coin":
        c.setStrokeColorRGB(*ink_on(fill))
        c.setLineWidth(0.4)
        r = min(w, h) / 2 - 1.2
        c.circle(w / 2, h / 2, r, stroke=1, fill=0)


def placeholder(c: Canvas, painter: Painter, w: float, h: float) -> None:
    """A clean art placeholder: a pale panel with a simple landscape mark."""
    base = (0.92, 0.92, 0.90)
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.5)
    if painter.ink_saver:
        c.setDash(2, 2)
        c.rect(0, 0, w, h, stroke=1, fill=0)
        c.setDash()
    else:
        c.setFillColorRGB(*base)
        c.rect(0, 0, w, h, stroke=1, fill=1)
    s = min(w, h) * 0.35
    cx, cy = w / 2, h / 2
    p = c.beginPath()
    p.moveTo(cx - s, cy - s * 0.5)
    p.lineTo(cx - s * 0.3, cy + s * 0.3)
    p.lineTo(cx + s * 0.05, cy - s * 0.1)
    p.lineTo(cx + s * 0.4, cy + s * 0.2)
    p.lineTo(cx + s, cy - s * 0.5)
    p.close()
    c.setStrokeColorRGB(0.7, 0.7, 0.7)
    c.drawPath(p, stroke=1, fill=0)
    c.circle(cx + s * 0.55, cy + s * 0.55, s * 0.15, stroke=1, fill=0)


def text_lines(c: Canvas, lines: tuple[str, ...] | list[str], font: str, size: float, x: float, top: float, w: float,
               align: str, colour: RGB, leading: float) -> None:
    """Draw wrapped lines from `top` downwards, aligned within width `w`."""
    t = c.beginText()
    t.setFont(font, size)
    t.setFillColorRGB(*colour)
    y = top - size * 0.8
    for line in lines:
        if align in ("center", "centre"):
            lx = x + (w - fonts.width(line, font, size)) / 2
        elif align == "right":
            lx = x + w - fonts.width(line, font, size)
        else:
            lx = x
        t.setTextOrigin(lx, y)
        t.textOut(line)
        y -= leading
    c.drawText(t)


def checkbox(c: Canvas, x: float, y: float, size: float = 3.2 * MM) -> None:
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.6)
    c.rect(x, y, size, size, stroke=1, fill=0)
