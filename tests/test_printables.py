"""Printables: true sizes, crop marks, duplex, fonts, text fitting, sheets, determinism."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import GAMES, MINI_CARDS, MINI_RULES, write_game
from pypdf import PdfReader
from typer.testing import CliRunner

from cardsmith.compiler.api import load_game_ir
from cardsmith.dsl import ir
from cardsmith.printables.build import BuildResult, build, render
from cardsmith.printables.geometry import MARK_WIDTH, MM, make_grid
from cardsmith.printables.imposition import Options
from cardsmith.printables.textfit import fit

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)

_CACHE: dict[tuple[str, Options], tuple[ir.Game, BuildResult]] = {}


def rendered(game: str, opts: Options | None = None) -> tuple[ir.Game, BuildResult]:
    """Render once per (game, options) for the whole module: rendering is the slow part."""
    opts = opts or Options()
    key = (game, opts)
    if key not in _CACHE:
        g = load_game_ir(game)
        _CACHE[key] = (g, render(g, opts))
    return _CACHE[key]


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def overlaps(seg: tuple[float, float, float, float], rect: tuple[float, float, float, float]) -> bool:
    """Whether a crop mark enters a card's interior (touching an edge is fine)."""
    x1, y1, x2, y2 = seg
    rx, ry, rw, rh = rect
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    return lo_x < rx + rw - 0.01 and hi_x > rx + 0.01 and lo_y < ry + rh - 0.01 and hi_y > ry + 0.01


# ---------------------------------------------------------------- geometry


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_go_three_by_three_at_true_size(paper: str) -> None:
    grid = make_grid(paper, 63, 88)
    assert grid is not None and (grid.cols, grid.rows) == (3, 3)
    assert grid.card_w == pytest.approx(63 * MM) and grid.card_h == pytest.approx(88 * MM)


@pytest.mark.parametrize("used", [1, 2, 4, 7, 9])
def test_crop_marks_stay_outside_every_card(used: int) -> None:
    grid = make_grid("a4", 63, 88)
    assert grid is not None
    cards = [(*grid.cell(*grid.slot(i)), grid.card_w, grid.card_h) for i in range(grid.per_page)]
    marks = grid.crop_marks(used)
    assert marks
    for m in marks:
        assert min(m.x1, m.x2) >= 0 and max(m.x1, m.x2) <= grid.page_w
        assert min(m.y1, m.y2) >= 0 and max(m.y1, m.y2) <= grid.page_h
        for rect in cards:
            assert not overlaps((m.x1, m.y1, m.x2, m.y2), rect)
    # every cut line of the used cards has a mark
    xs = {round(m.x1, 2) for m in marks if m.x1 == m.x2}
    for i in range(used):
        x, _ = grid.cell(*grid.slot(i))
        assert round(x, 2) in xs and round(x + grid.card_w, 2) in xs
    assert MARK_WIDTH >= 0.5


def test_duplex_mirrors_columns_long_edge_and_rows_short_edge() -> None:
    grid = make_grid("a4", 63, 88)
    assert grid is not None
    assert grid.back_slot(0, "long-edge") == (0, 2)
    assert grid.back_slot(5, "long-edge") == (1, 0)
    assert grid.back_slot(0, "short-edge") == (2, 0)
    assert grid.back_slot(7, "short-edge") == (0, 1)


def test_shrink_to_fit_limits() -> None:
    short = fit("Draw a card.", "CardsmithSans", 9.0, 100, 30)
    assert short.fits and short.size == 9.0
    longer = fit("word " * 60, "CardsmithSans", 9.0, 150, 90)
    assert longer.fits and 6.0 <= longer.size < 9.0
    impossible = fit("word " * 400, "CardsmithSans", 9.0, 150, 40)
    assert not impossible.fits and impossible.size == 6.0


# ---------------------------------------------------------------- cards.pdf


def test_kingdom_combat_cards_pdf_sizes_fonts_and_names() -> None:
    game, result = rendered("kingdom_combat")
    assert result.ok
    pdf = reader(result.files["cards.pdf"])
    for page in pdf.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(A4, abs=0.1)
    n_cards = sum(c.copies for c in game.cards)
    fronts = -(-n_cards // 9)
    assert len(pdf.pages) == 2 * fronts + 2   # fronts, backs, calibration pair
    text = "\n".join(p.extract_text() for p in pdf.pages[0:2 * fronts:2])
    flat = re.sub(r"\s+", " ", text)
    for card in game.cards:
        assert card.name in flat, card.name
    fonts_seen = set()
    for page in pdf.pages[:2]:
        for font in page["/Resources"]["/Font"].values():
            obj = font.get_object()
            assert obj["/Subtype"] in ("/TrueType", "/Type0"), obj
            holder = obj["/DescendantFonts"][0].get_object() if obj["/Subtype"] == "/Type0" else obj
            desc = holder["/FontDescriptor"].get_object()
            assert "/FontFile2" in desc
            fonts_seen.add(str(font.get_object()["/BaseFont"]))
    assert any("DejaVuSansCondensed" in f for f in fonts_seen)
    assert not any("Helvetica" in f for f in fonts_seen)


def test_card_and_mark_positions_recorded_and_drawn() -> None:
    _, result = rendered("kingdom_combat")
    assert result.cards is not None
    page0 = result.cards.pages[0]
    assert page0.side == "front" and len(page0.cards) == 9
    for name, _x, _y, w, h in page0.cards:
        assert w == pytest.approx(63 * MM) and h == pytest.approx(88 * MM), name
    for m in page0.marks:
        for _, x, y, w, h in page0.cards:
            assert not overlaps((m.x1, m.y1, m.x2, m.y2), (x, y, w, h))
    content = reader(result.files["cards.pdf"]).pages[0].get_contents()
    assert content is not None
    ops = content.get_data().decode("latin-1")
    for m in page0.marks[:6]:
        assert f"{m.x1:.6g}"[:5] in ops
    assert re.search(r"(^|\s)0?\.6 w", ops)


def test_duplex_backs_follow_their_fronts() -> None:
    for duplex in ("long-edge", "short-edge"):
        _, result = rendered("kingdom_combat", Options(duplex=duplex))
        assert result.cards is not None
        front, back = result.cards.pages[0], result.cards.pages[1]
        assert back.side == "back"
        for (name, fx, fy, w, h), (bname, bx, by, _, _) in zip(front.cards, back.cards, strict=True):
            assert name == bname
            if duplex == "long-edge":
                assert bx == pytest.approx(A4[0] - fx - w, abs=0.01) and by == pytest.approx(fy, abs=0.01)
            else:
                assert by == pytest.approx(A4[1] - fy - h, abs=0.01) and bx == pytest.approx(fx, abs=0.01)


def test_back_offset_moves_backs_in_tenth_mm_steps() -> None:
    _, plain = rendered("kingdom_combat")
    _, shifted = rendered("kingdom_combat", Options(back_offset=(0.3, -0.2)))
    assert plain.cards is not None and shifted.cards is not None
    (_, x0, y0, _, _), (_, x1, y1, _, _) = plain.cards.pages[1].cards[0], shifted.cards.pages[1].cards[0]
    assert x1 - x0 == pytest.approx(0.3 * MM) and y1 - y0 == pytest.approx(-0.2 * MM)
    # fronts never move
    assert plain.cards.pages[0].cards == shifted.cards.pages[0].cards


def test_no_duplex_has_no_back_pages_and_letter_paper() -> None:
    _, result = rendered("kingdom_cards", Options(duplex="none", paper="letter"))
    assert result.cards is not None
    assert all(p.side == "front" for p in result.cards.pages)
    page = reader(result.files["cards.pdf"]).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(LETTER, abs=0.1)


def test_build_is_deterministic(tmp_path: Path) -> None:
    game = load_game_ir("kingdom_cards")
    first = build(game, tmp_path / "a", Options())
    second = build(game, tmp_path / "b", Options())
    assert [o.path.name for o in first.outputs] == [o.path.name for o in second.outputs]
    for o in first.outputs:
        assert o.path.read_bytes() == (tmp_path / "b" / o.path.name).read_bytes(), o.path.name


@pytest.mark.parametrize("game", GAMES)
def test_every_library_game_builds(game: str) -> None:
    g, result = rendered(game)
    assert result.ok, [d.message for d in result.diagnostics if d.severity.value == "error"]
    assert "cards.pdf" in result.files and "action-sheets.pdf" in result.files
    pdf = reader(result.files["cards.pdf"])
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pdf.pages))
    for card in g.cards:
        assert card.name in text, card.name


def test_missing_art_is_a_warning_with_the_cards_line(tmp_path: Path) -> None:
    cards = MINI_CARDS.replace('card "Knight" {', 'card "Knight" {\n  art: "art/no-such-knight.png"')
    folder = write_game(tmp_path / "art", {"rules.cards": MINI_RULES, "cards.cards": cards})
    game = load_game_ir(str(folder))
    result = render(game, Options())
    art = [d for d in result.diagnostics if d.code == "CS2003"]
    assert art and all(d.severity.value == "warning" for d in art)
    knight = next(c for c in game.cards if c.art)
    assert any(d.span.line == knight.span.line and knight.name in d.message for d in art)
    assert result.cards is not None  # a missing picture never stops the build: a placeholder is drawn


def test_hundred_pages_without_art_stay_under_a_mebibyte(tmp_path: Path) -> None:
    cards = MINI_CARDS.replace('card "Knight" {', 'card "Knight" {\n  copies: 450')
    folder = write_game(tmp_path / "big", {"rules.cards": MINI_RULES, "cards.cards": cards})
    result = render(load_game_ir(str(folder)), Options())
    assert result.cards is not None
    pages = len(result.cards.pages)
    assert pages >= 100
    assert len(result.files["cards.pdf"]) * 100 / pages < 1024 * 1024


# ---------------------------------------------------------------- layouts and diagnostics

LAYOUT = '''
layout unit_layout {
  size: poker
  background: "#FFFFFF"
  border: card.border.colour
  wobble: 3
  region name { x: 4mm; y: 4mm; w: 55mm; h: 7mm; text: card.name; font: bold 10pt; sparkle: 3 }
  region text { x: 4mm; y: 20mm; w: 55mm; h: 12mm; text: card.rules_text; font: 9pt }
}
'''


def mini_with(tmp_path: Path, text: str, layout: bool = True) -> Path:
    rules = MINI_RULES.replace("  enters: battlefield\n", "  enters: battlefield\n  layout: unit_layout\n") \
        if layout else MINI_RULES
    cards = MINI_CARDS.replace('  keywords: Charge\n', f'  keywords: Charge\n  text: "{text}"\n')
    files = {"rules.cards": rules, "cards.cards": cards}
    if layout:
        files["layouts.cards"] = LAYOUT
    return write_game(tmp_path / "mini", files)


def test_default_layout_prints_a_game_without_layouts(mini_game: Path) -> None:
    result = render(load_game_ir(str(mini_game)), Options())
    assert result.ok
    text = reader(result.files["cards.pdf"]).pages[0].extract_text()
    assert "Knight" in text and "Archer" in text
    assert "Strikes first." in text   # keyword reminder text on the card


def test_small_text_warns_naming_the_card(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "Draw a card. " * 9)
    result = render(load_game_ir(str(folder)), Options())
    assert result.ok
    small = [d for d in result.diagnostics if d.code == "CS2001"]
    assert small and "Knight" in small[0].message and small[0].severity.value == "warning"


def test_overflow_at_six_points_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "Draw a card. " * 80)
    out = tmp_path / "out"
    result = build(load_game_ir(str(folder)), out, Options())
    assert not result.ok
    errors = [d for d in result.diagnostics if d.code == "CS2002"]
    assert errors and "Knight" in errors[0].message and "'text'" in errors[0].message
    assert errors[0].span.file.endswith("cards.cards")
    assert not out.exists() or not any(out.iterdir())


def test_unknown_layout_properties_warn_once(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "Draw a card.")
    result = render(load_game_ir(str(folder)), Options())
    assert result.ok
    unknown = [d.message for d in result.diagnostics if d.code == "CS2005"]
    assert len(unknown) == 2 and any("wobble" in m for m in unknown) and any("sparkle" in m for m in unknown)


# ---------------------------------------------------------------- sheets


def test_two_kingdoms_unit_sheets_rows_never_split() -> None:
    from cardsmith.printables.evaluate import CardEvaluator
    from cardsmith.printables.sheets import MARGIN, unit_sheets

    game = load_game_ir("two_kingdoms")
    sheets = unit_sheets(game, CardEvaluator(game), Options(), [])
    assert sheets is not None
    pieces = sum(int(c.stats["pieces"].num) for c in game.cards if isinstance(c.stats.get("pieces"), ir.Num))
    assert len(sheets.rows) >= pieces
    for row in sheets.rows:
        assert row.top <= sheets.page_height - MARGIN + 0.01 and row.bottom >= MARGIN - 0.01
    pdf = reader(sheets.data)
    text = " ".join(p.extract_text() for p in pdf.pages)
    for word in ("Shame of Defeat", "Breached", "Morale Boost", "Unstoppable", "Mounted", "Horse"):
        assert word in text


def test_action_sheets_have_costs_cheat_cards_and_keyword_reminders() -> None:
    _, result = rendered("construct_and_combat")
    text = " ".join(p.extract_text() for p in reader(result.files["action-sheets.pdf"]).pages)
    text = re.sub(r"\s+", " ", text)
    assert "Combat action sheet" in text and "Ambush" in text and "Cost:" in text
    assert text.count("Cheat card: turn order") >= 4
    g, kc = rendered("kingdom_combat")
    kc_text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader(kc.files["action-sheets.pdf"]).pages))
    for kw in g.keywords:
        if not kw.span.file.startswith("<core>"):
            assert kw.name.replace("_", " ") in kc_text, kw.name


# ---------------------------------------------------------------- modes


def test_ink_saver_is_grayscale() -> None:
    _, result = rendered("kingdom_combat", Options(mode="ink-saver"))
    assert result.ok
    pdf = reader(result.files["cards.pdf"])
    data = b""
    for page in pdf.pages[:2]:
        content = page.get_contents()
        assert content is not None
        data += content.get_data()
    for obj in pdf.trailer["/Root"]["/Pages"]["/Kids"][:1]:
        for xobj in obj.get_object()["/Resources"].get("/XObject", {}).values():
            data += xobj.get_object().get_data()
    for r, g, b in re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b", data):
        assert float(r) == pytest.approx(float(g), abs=0.01) and float(g) == pytest.approx(float(b), abs=0.01)


def test_print_shop_pages_have_bleed_trim_and_bleed_boxes() -> None:
    game, result = rendered("kingdom_cards", Options(mode="print-shop"))
    pdf = reader(result.files["cards.pdf"])
    assert len(pdf.pages) == 2 * sum(c.copies for c in game.cards)
    page = pdf.pages[0]
    bleed = 3 * MM
    assert float(page.mediabox.width) == pytest.approx(63 * MM + 2 * bleed, abs=0.05)
    trim = [float(v) for v in page["/TrimBox"]]
    assert trim == pytest.approx([bleed, bleed, bleed + 63 * MM, bleed + 88 * MM], abs=0.05)
    assert "/BleedBox" in page


# ---------------------------------------------------------------- command line


def _app() -> object:
    import typer

    from cardsmith.printables.cli import build_command

    app = typer.Typer(add_completion=False)
    app.command("build")(build_command)
    app.command("version")(lambda: None)
    return app


def test_cli_writes_and_reports_page_counts(tmp_path: Path) -> None:
    result = CliRunner().invoke(_app(), ["build", "kingdom_cards", "--out", str(tmp_path)])  # type: ignore[arg-type]
    assert result.exit_code == 0, result.output
    assert re.search(r"wrote .*cards\.pdf \(\d+ pages\)", result.output)
    assert (tmp_path / "cards.pdf").exists() and (tmp_path / "action-sheets.pdf").exists()


@pytest.mark.parametrize("args", [["build", "kingdom_cards", "--paper", "a3"],
                                  ["build", "no_such_game_here"],
                                  ["build", "kingdom_cards", "--back-offset", "1"]])
def test_cli_bad_usage_exits_2(args: list[str], tmp_path: Path) -> None:
    result = CliRunner().invoke(_app(), [*args, "--out", str(tmp_path)])  # type: ignore[arg-type]
    assert result.exit_code == 2, result.output


def test_missing_glyph_is_a_warning_with_the_cards_line(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "Draw a card. 漢")
    game = load_game_ir(str(folder))
    result = render(game, Options())
    assert result.ok
    glyphs = [d for d in result.diagnostics if d.code == "CS2004"]
    knight = next(c for c in game.cards if c.name == "Knight")
    assert glyphs and "Knight" in glyphs[0].message and glyphs[0].span.line == knight.span.line


@pytest.mark.parametrize(("size", "expected"), [("tarot", (70.0, 120.0)), ("mini", (44.0, 63.0)),
                                                ("50mm x 70mm", (50.0, 70.0))])
def test_card_type_size_overrides_the_game(tmp_path: Path, size: str, expected: tuple[float, float]) -> None:
    rules = MINI_RULES.replace("  enters: battlefield\n", f"  enters: battlefield\n  size: {size}\n")
    folder = write_game(tmp_path / "sized", {"rules.cards": rules, "cards.cards": MINI_CARDS})
    result = render(load_game_ir(str(folder)), Options(duplex="none"))
    assert result.ok and result.cards is not None
    _, _, _, w, h = result.cards.pages[0].cards[0]
    assert (w / MM, h / MM) == pytest.approx(expected, abs=0.01)


def test_cards_too_big_for_the_paper_are_an_error(tmp_path: Path) -> None:
    rules = MINI_RULES.replace("  enters: battlefield\n", "  enters: battlefield\n  size: 250mm x 300mm\n")
    folder = write_game(tmp_path / "huge", {"rules.cards": rules, "cards.cards": MINI_CARDS})
    result = render(load_game_ir(str(folder)), Options())
    assert not result.ok
    assert any(d.code == "CS2006" and "do not fit" in d.message for d in result.diagnostics)


def test_unit_sheet_boxes_are_big_enough_to_write_in() -> None:
    from cardsmith.printables.sheets import BOX, GAP

    assert BOX >= 4 * MM - 1e-9 and GAP >= 2 * MM - 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_game_in_every_mode_and_paper(game: str) -> None:
    for paper in ("a4", "letter"):
        for mode in ("home", "ink-saver", "print-shop"):
            for duplex in ("long-edge", "short-edge", "none"):
                _, result = rendered(game, Options(paper=paper, mode=mode, duplex=duplex))
                assert result.ok, (paper, mode, duplex)


def test_cli_errors_exit_1_and_write_nothing(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "Draw a card. " * 80)
    out = tmp_path / "out"
    result = CliRunner().invoke(_app(), ["build", str(folder), "--out", str(out)])  # type: ignore[arg-type]
    assert result.exit_code == 1, result.output
    assert "CS2002" in result.output and "nothing written" in result.output
    assert not out.exists() or not any(out.iterdir())


def test_cli_shows_progress_on_long_builds(tmp_path: Path) -> None:
    cards = MINI_CARDS.replace('card "Knight" {', 'card "Knight" {\n  copies: 300')
    folder = write_game(tmp_path / "long", {"rules.cards": MINI_RULES, "cards.cards": cards})
    result = CliRunner().invoke(_app(), ["build", str(folder), "--out", str(tmp_path / "o")])  # type: ignore[arg-type]
    assert result.exit_code == 0, result.output
    assert re.search(r"cards\.pdf: \d+/\d+ pages", result.output)


def test_art_is_drawn_when_present_and_unreadable_art_warns(tmp_path: Path) -> None:
    from PIL import Image

    cards = MINI_CARDS.replace('  keywords: Charge\n', '  keywords: Charge\n  art: "art/knight.png"\n')
    cards = cards.replace('  keywords: Ranged 2\n', '  keywords: Ranged 2\n  art: "art/broken.png"\n')
    folder = write_game(tmp_path / "arty", {"rules.cards": MINI_RULES, "cards.cards": cards})
    (folder / "art").mkdir()
    Image.new("RGB", (40, 30), (200, 40, 40)).save(folder / "art" / "knight.png")
    (folder / "art" / "broken.png").write_bytes(b"not an image")
    result = render(load_game_ir(str(folder)), Options())
    assert result.ok
    art = [d for d in result.diagnostics if d.code == "CS2003"]
    assert len(art) == 1 and "Archer" in art[0].message and "readable" in art[0].message
    assert b"/Subtype /Image" in result.files["cards.pdf"]
    # a PNG whose header is fine but whose image data is cut short failed only when drawn
    whole = folder / "art" / "whole.png"
    Image.effect_noise((64, 64), 80).convert("RGB").save(whole)
    (folder / "art" / "broken.png").write_bytes(whole.read_bytes()[:-60])
    result = render(load_game_ir(str(folder)), Options())
    assert result.ok
    art = [d for d in result.diagnostics if d.code == "CS2003"]
    assert len(art) == 1 and "Archer" in art[0].message and "readable" in art[0].message


def test_frames_backs_and_icons_are_shared_forms() -> None:
    game, result = rendered("kingdom_combat")
    pdf = reader(result.files["cards.pdf"])
    names: set[int] = set()
    uses = 0
    for page in pdf.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for ref in xobjects.values():
            names.add(ref.idnum)
        content = page.get_contents()
        assert content is not None
        uses += content.get_data().count(b" Do")
    assert uses > 3 * len(game.cards)          # frames, icons, placeholders, backs
    assert len(names) < len(game.cards) // 2  # ... drawn from a handful of shared forms
