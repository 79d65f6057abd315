"""Rendered pages against committed reference images, and the raster exports (PNG, TTS).

Reference images are small (40 dpi) so the repository stays light; the comparison
allows a little anti-aliasing noise. Regenerate them after an intended visual change
with CARDSMITH_UPDATE_REFERENCE=1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardsmith.compiler.api import load_game_ir
from cardsmith.printables.build import render
from cardsmith.printables.imposition import Options

pytest.importorskip("pypdfium2")
from PIL import Image, ImageChops, ImageStat

from cardsmith.printables.exports import write_pngs, write_tts
from cardsmith.printables.png import page_images

REFERENCE = Path(__file__).resolve().parent / "reference"
DPI = 40
CASES = [
    ("kingdom_combat", "cards.pdf", 0),
    ("kingdom_cards", "cards.pdf", 0),
    ("combat_cards", "cards.pdf", 0),
    ("two_kingdoms", "unit-sheets.pdf", 0),
    ("construct_and_combat", "action-sheets.pdf", 0),
]


@pytest.mark.parametrize(("game", "pdf", "page"), CASES)
def test_page_matches_reference_image(game: str, pdf: str, page: int) -> None:
    result = render(load_game_ir(game), Options())
    image = page_images(result.files[pdf], DPI, [page])[0]
    path = REFERENCE / f"{game}-{pdf.removesuffix('.pdf')}-p{page + 1}.png"
    if os.environ.get("CARDSMITH_UPDATE_REFERENCE") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, optimize=True)
    reference = Image.open(path).convert("RGB")
    assert reference.size == image.size
    diff = ImageChops.difference(reference, image)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    assert mean < 3.0, f"{path.name}: mean difference {mean:.2f}"


def test_png_export_one_image_per_face_at_300_dpi(tmp_path: Path) -> None:
    game = load_game_ir("kingdom_cards")
    written = write_pngs(game, tmp_path, Options())
    files = sorted((tmp_path / "png").glob("*.png"))
    types = {c.type for c in game.cards}
    assert written.pages == len(files) == len(game.cards) + len(types)
    image = Image.open(tmp_path / "png" / "blue-servant.png")
    assert image.size == (round(63 / 25.4 * 300), round(88 / 25.4 * 300)) or abs(image.size[0] - 744) <= 2


def test_tts_sheets_and_saved_object(tmp_path: Path) -> None:
    game = load_game_ir("construct_and_combat")
    outputs = write_tts(game, tmp_path, Options())
    sheets = [o for o in outputs if o.kind == "sheet"]
    assert sheets
    for o in sheets:
        image = Image.open(o.path)
        assert image.mode == "RGB" and max(image.size) <= 4096
    saved = json.loads(next(o.path for o in outputs if o.kind == "json").read_text())
    decks = saved["ObjectStates"]
    assert len(decks) == len(sheets)
    total = sum(len(d["ContainedObjects"]) for d in decks)
    assert total == sum(c.copies for c in game.cards)
    for deck in decks:
        (custom,) = deck["CustomDeck"].values()
        assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7
        assert custom["FaceURL"].startswith("file://")
