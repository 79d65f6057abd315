"""Raster exports: one PNG per card face, and Tabletop Simulator deck sheets.

Both rasterise a one-card-per-page PDF made by the same renderer as cards.pdf, so the
images match the print exactly. TTS limits: at most 10 x 7 cards and 4096 px a side
per sheet, RGB; the last slot is left free for TTS's hidden-card image.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from cardsmith.dsl import ir
from cardsmith.printables.build import Output, art_root, resolve_layouts, write_atomic
from cardsmith.printables.cards import CardRenderer
from cardsmith.printables.draw import Forms
from cardsmith.printables.geometry import MM
from cardsmith.printables.imposition import Options, new_canvas
from cardsmith.printables.png import page_images, to_png

PNG_DPI = 300
TTS_COLS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def faces_pdf(game: ir.Game, opts: Options) -> tuple[bytes, list[tuple[str, ir.CardDecl]]]:
    """Every distinct card's front, then one back per card type, one per page, no bleed."""
    layouts = resolve_layouts(game, opts.paper, [])
    renderer = CardRenderer(game, layouts, "ink-saver" if opts.mode == "ink-saver" else "home", art_root(game))
    buf = io.BytesIO()
    c = new_canvas(buf, f"{game.game.name} — faces", (63 * MM, 88 * MM))
    forms = Forms(c)
    faces: list[tuple[str, ir.CardDecl]] = []
    backs: dict[str, ir.CardDecl] = {}
    for card in game.cards:
        lay = layouts[card.type]
        c.setPageSize((lay.width_mm * MM, lay.height_mm * MM))
        renderer.draw_front(c, forms, card, 0, 0)
        c.showPage()
        faces.append(("front", card))
        backs.setdefault(card.type, card)
    for card in backs.values():
        lay = layouts[card.type]
        c.setPageSize((lay.width_mm * MM, lay.height_mm * MM))
        renderer.draw_back(c, forms, card, 0, 0)
        c.showPage()
        faces.append(("back", card))
    c.save()
    return buf.getvalue(), faces


def write_pngs(game: ir.Game, out: Path, opts: Options) -> Output:
    data, faces = faces_pdf(game, opts)
    folder = out / "png"
    images = page_images(data, PNG_DPI)
    for (side, card), image in zip(faces, images, strict=True):
        name = f"{slug(card.name)}.png" if side == "front" else f"back-{slug(card.type)}.png"
        write_atomic(folder / name, to_png(image))
    return Output(folder, len(images), "png")


def write_tts(game: ir.Game, out: Path, opts: Options) -> list[Output]:
    """Deck sheets per card type (up to 69 cards each) and the saved object that loads them."""
    from PIL import Image

    data, faces = faces_pdf(game, opts)
    layouts = resolve_layouts(game, opts.paper, [])
    fronts = [card for side, card in faces if side == "front"]
    backs = {card.type: i for i, (side, card) in enumerate(faces) if side == "back"}
    folder = out / "tts"
    outputs: list[Output] = []
    objects: list[dict[str, Any]] = []
    by_type: dict[str, list[int]] = {}
    for i, card in enumerate(fronts):
        by_type.setdefault(card.type, []).append(i)
    deck_id = 0
    for ctype, indices in by_type.items():
        layout = layouts[ctype]
        w_mm, h_mm = layout.width_mm, layout.height_mm
        # The largest resolution at which a 10 x 7 sheet stays within 4096 px a side.
        dpi = min(TTS_MAX_PX / TTS_COLS / (w_mm / 25.4), TTS_MAX_PX / TTS_ROWS / (h_mm / 25.4), 200.0)
        cell_w, cell_h = int(w_mm / 25.4 * dpi), int(h_mm / 25.4 * dpi)
        back_img = page_images(data, dpi, [backs[ctype]])[0].resize((cell_w, cell_h))
        back_name = f"back-{slug(ctype)}.png"
        write_atomic(folder / back_name, to_png(back_img))
        per_sheet = TTS_COLS * TTS_ROWS - 1
        for start in range(0, len(indices), per_sheet):
            deck_id += 1
            chunk = indices[start:start + per_sheet]
            images = page_images(data, dpi, chunk)
            sheet = Image.new("RGB", (cell_w * TTS_COLS, cell_h * TTS_ROWS), (255, 255, 255))
            for k, image in enumerate(images):
                r, col = divmod(k, TTS_COLS)
                sheet.paste(image.resize((cell_w, cell_h)), (col * cell_w, r * cell_h))
            name = f"{slug(ctype)}-{deck_id}.png"
            write_atomic(folder / name, to_png(sheet))
            outputs.append(Output(folder / name, 1, "sheet"))
            contained, ids = [], []
            for k, idx in enumerate(chunk):
                card = fronts[idx]
                for _ in range(max(card.copies, 1)):
                    cid = deck_id * 100 + k
                    ids.append(cid)
                    contained.append({"Name": "Card", "Nickname": card.name, "CardID": cid,
                                      "Transform": _transform(0)})
            objects.append({
                "Name": "DeckCustom", "Nickname": f"{game.game.name}: {ctype}",
                "Transform": _transform(len(objects) * 3.0),
                "DeckIDs": ids,
                "CustomDeck": {str(deck_id): {
                    "FaceURL": (folder / name).resolve().as_uri(),
                    "BackURL": (folder / back_name).resolve().as_uri(),
                    "NumWidth": TTS_COLS, "NumHeight": TTS_ROWS, "BackIsHidden": True, "UniqueBack": False}},
                "ContainedObjects": contained,
            })
    saved = {"SaveName": game.game.name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
             "TabStates": {}, "VersionNumber": ""}
    target = folder / f"{slug(game.game.id)}.json"
    write_atomic(target, json.dumps(saved, indent=2).encode("utf-8"))
    outputs.append(Output(target, len(objects), "json"))
    return outputs


def _transform(x: float) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
