"""Conformance: what a game prints (docs/language.md §2 "card", "cardtype", "layout,
sheet, reference"): card text, flavour and art, a card type's layout and size, unit
sheets and reference sheets — rendered through the printables API and read back from
the PDFs with pypdf."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cardsmith.compiler.api import check_game
from cardsmith.dsl import ir
from cardsmith.printables.build import BuildResult, render
from cardsmith.printables.geometry import MM
from cardsmith.printables.imposition import Options
from conformance.support import build_folder, covers

RULES = '''
game "Printed" {
  id: printed
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
zone hand per player { visibility: owner }
cardtype Spell {
  stats { cost: number = 0 }
}
cardtype Hero {
  plural: heroes
  stats { hp: number = 5; pieces: number = 3 }
  layout: heroic
  size: 70mm x 70mm
}
keyword Swift(n: number) { reminder: "Moves {n} extra." }
card "Spark" {
  type: Spell
  cost: 2
  flavour: "Small but bright."
  art: "art/spark.png"
  effect { gain 2 gold }
}
card "Quill" {
  type: Spell
  text: "Write your own rules."
}
card "Aldo" { type: Hero; hp: 9; pieces: 2; keywords: Swift 2 }
layout heroic {
  background: "#DDEEFF"
  region title { x: 4mm; y: 4mm; w: 60mm; h: 8mm; text: card.name; font: bold 10pt }
  region life  { x: 4mm; y: 20mm; w: 60mm; h: 8mm; text: "Life {hp} of Aldoria" }
}
sheet heroes "Hero record sheet" {
  for: all heroes
  rows: card.pieces
  row_label: "Piece {n}"
  track: card.hp
  checkboxes: "Wounded", "Inspired"
}
reference turns "Quick reference" {
  note: "Keep this by the board."
  row "Cast a spell" { cost: "its cost in gold"; text: "Resolve its effect." }
  row "Rest" { text: "Gain nothing at all." }
}
setup {
  for each p in players {
    for each name in catalog("Spell") { let c = create(name, hand of p, p) }
  }
}
action cast "Cast" {
  choose c from a spell in your hand
  resolve the effect of c
}
turn {
  stage main { actions: cast; label: "Casting Phase" }
}
'''


def png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), (200, 30, 30)).save(path)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> tuple[ir.Game, BuildResult]:
    folder = build_folder(tmp_path_factory.mktemp("print"), "printed", RULES)
    png(folder / "art" / "spark.png")
    game = check_game(str(folder)).game
    assert game is not None
    result = render(game, Options())
    assert result.ok and not result.diagnostics, [(d.code, d.message) for d in result.diagnostics]
    return game, result


def text_of(data: bytes) -> str:
    return " ".join((page.extract_text() or "") for page in PdfReader(io.BytesIO(data)).pages)


def flat(text: str) -> str:
    return " ".join(text.split())


@covers("CardDecl.text", "CardDecl.flavour")
def test_a_cards_text_and_flavour_are_printed(printed: tuple[ir.Game, BuildResult]) -> None:
    _game, result = printed
    cards = flat(text_of(result.files["cards.pdf"]))
    assert "Write your own rules." in cards, "the designer's text"
    assert "Small but bright." in cards
    # without `text:` the rules text is generated from the effects
    assert "Gain 2 gold" in cards or "gain 2 gold" in cards


@covers("CardDecl.art")
def test_a_cards_art_is_drawn_and_a_missing_file_is_reported(printed: tuple[ir.Game, BuildResult],
                                                             tmp_path: Path) -> None:
    _game, result = printed
    reader = PdfReader(io.BytesIO(result.files["cards.pdf"]))
    images = [name for page in reader.pages for name in (page.images.keys() if page.images else [])]
    assert images, "the art image is on a page"
    folder = build_folder(tmp_path, "noart", RULES)
    game = check_game(str(folder)).game
    assert game is not None
    missing = render(game, Options())
    assert [d.code for d in missing.diagnostics] == ["CS2003"] and "spark.png" in missing.diagnostics[0].message


@covers("CardTypeDecl.layout", "CardTypeDecl.size", "LayoutDecl.name", "LayoutDecl.properties",
        "LayoutDecl.regions", "LayoutRegion.name", "LayoutRegion.properties")
def test_a_card_type_prints_with_its_layout_at_its_size(printed: tuple[ir.Game, BuildResult], tmp_path: Path) -> None:
    _game, result = printed
    assert result.cards is not None
    sizes = {name: (round(w / MM, 1), round(h / MM, 1))
             for page in result.cards.pages if page.side == "front" for name, _x, _y, w, h in page.cards}
    assert sizes["Aldo"] == (70.0, 70.0), "the type's size overrides the game's"
    assert sizes["Spark"] == (63.0, 88.0)
    text = flat(text_of(result.files["cards.pdf"]))
    # the layout's region `life` fills its template from the card
    assert "Life 9 of Aldoria" in text
    # an unknown layout property is reported
    bad = RULES.replace('background: "#DDEEFF"', 'background: "#DDEEFF"\n  sparkle: 3')
    assert "sparkle" in " ".join(d.message for d in render_rules(tmp_path, bad).diagnostics)


def render_rules(tmp_path: Path, rules: str) -> BuildResult:
    folder = build_folder(tmp_path, "variant", rules)
    png(folder / "art" / "spark.png")
    game = check_game(str(folder)).game
    assert game is not None
    return render(game, Options())


@covers("SheetDecl.name", "SheetDecl.label", "SheetDecl.properties")
def test_a_sheet_prints_one_block_per_card_and_one_row_per_piece(printed: tuple[ir.Game, BuildResult]) -> None:
    _game, result = printed
    text = flat(text_of(result.files["unit-sheets.pdf"]))
    assert "Hero record sheet" in text and "Aldo" in text and "9 HP" in text
    assert "Piece 1" in text and "Piece 2" in text and "Piece 3" not in text, "rows: card.pieces"
    assert "Wounded" in text and "Inspired" in text


@covers("ReferenceDecl.name", "ReferenceDecl.label", "ReferenceDecl.properties", "ReferenceDecl.rows",
        "ReferenceRow.label", "ReferenceRow.properties", "StageDecl.label")
def test_a_reference_prints_its_rows_and_the_rules_reference_names_the_stages(
        printed: tuple[ir.Game, BuildResult]) -> None:
    _game, result = printed
    text = flat(text_of(result.files["action-sheets.pdf"]))
    assert "Quick reference" in text and "Keep this by the board." in text
    assert "Cast a spell" in text and "its cost in gold" in text and "Resolve its effect." in text
    assert "Rest" in text and "Gain nothing at all." in text
    # the generated rules reference: the stage by its label, the keyword with its reminder
    assert "Casting Phase" in text and "Moves n extra." in text
