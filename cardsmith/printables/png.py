"""PNG images of PDF pages and of single card faces, rasterised with pypdfium2.

pypdfium2 (PDFium, the engine in Chrome) is an optional dependency: only `--png`,
`--tts` and the reference-image tests need it, so it is imported lazily.
"""

from __future__ import annotations

import io
from typing import Any

from cardsmith.printables.geometry import MM


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("PNG output needs pypdfium2: pip install pypdfium2") from exc
    return pypdfium2


def page_images(pdf: bytes, dpi: float, pages: list[int] | None = None) -> list[Any]:
    """PIL images of the given pages (all when None), rendered at `dpi`."""
    pdfium = _pdfium()
    doc = pdfium.PdfDocument(pdf)
    try:
        indices = range(len(doc)) if pages is None else pages
        out = []
        for i in indices:
            bitmap = doc[i].render(scale=dpi / 72.0)
            out.append(bitmap.to_pil().convert("RGB"))
        return out
    finally:
        doc.close()


def crop_card(image: Any, x: float, y: float, w: float, h: float, page_h: float, dpi: float) -> Any:
    """Cut one card (PDF points, origin bottom left) out of a rendered page."""
    s = dpi / 72.0
    box = (round(x * s), round((page_h - y - h) * s), round((x + w) * s), round((page_h - y) * s))
    return image.crop(box)


def to_png(image: Any) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


__all__ = ["MM", "crop_card", "page_images", "to_png"]
