"""Card data in sheets (`cards "units.csv" { type: Unit }`): every error is located at the
cell with the codes, carets and hints of `.cards` files; CSV (any delimiter, BOM) and
.xlsx (named sheet, merged cells, formulas) are read as data only; `export --format csv`
writes a sheet that reads back to the same IR for every card type of the five games.
"""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import write_game
from openpyxl import Workbook
from typer.testing import CliRunner

from cardsmith.cli import app
from cardsmith.compiler.api import CheckResult, check_game
from cardsmith.compiler.loader import resolve
from cardsmith.compiler.sheet_export import card_types_with_cards, export_csv
from cardsmith.dsl.diagnostics import render
from cardsmith.dsl.lexer import tokenize
from cardsmith.dsl.source import SourceFile

RULES = '''
game "Sheets" { id: sheets; players: 2 }
zone hand per player { visibility: owner }
enum Troop { Axe; Spear }
cardtype Unit {
  stats { attack: number; defense: number = 1 }
  properties { troop: Troop = Axe; motto: text = "none" }
}
keyword Charge { reminder: "Fast." }
keyword Ranged(n: number) { reminder: "Shoots {n}." }
procedure rally() "rally the troops" { }
TABLE
setup { for each name in catalog() { create every copy of name in hand of player1 for player1 } }
turn { stage main { } }
'''

HEADER = "name,attack,defense,troop,motto,keywords"


def check(tmp_path: Path, files: dict[str, str | bytes], table: str = 'cards "units.csv" { type: Unit }',
          extra_rules: str = "") -> CheckResult:
    folder = tmp_path / "game"
    write_game(folder, {"rules.cards": RULES.replace("TABLE", table) + extra_rules})
    for name, data in files.items():
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return check_game(str(folder))


def shown(result: CheckResult) -> str:
    return "\n".join(render(d, result.sources) for d in result.errors)


def errors(result: CheckResult) -> list[str]:
    return [d.message for d in result.errors]


# ---------------------------------------------------------------- cell-located errors


def test_number_enum_and_keyword_errors_name_the_cell_with_row_caret_and_hint(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": f"{HEADER}\nArcher,1,1,Spear,,Ranged 2\n"
                                           "Knight,three,2,Axe,,Chagre\nFootman,2,2,Spaer,,\n"})
    text = shown(result)
    assert "units.csv:3:B (attack): error[CS0301]: 'three' is not a number" in text
    assert "3 | Knight | three | 2 | Axe |  | Chagre\n  |          ^^^^^" in text
    assert "units.csv:3:F (keywords): error[CS0501]: unknown keyword 'Chagre'" in text
    assert "did you mean 'Charge'?" in text
    assert "units.csv:4:D (troop): error[CS0202]: 'Spaer' is not a Troop" in text
    assert "did you mean 'Spear'?" in text
    assert len(result.errors) == 3, errors(result)  # 'three' is not reported again as a missing stat


def test_a_good_sheet_builds_the_cards_a_card_block_would(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": f"{HEADER},copies,text\nArcher,1,,Spear,Hold,\"Ranged 2, Charge\",3,"
                                           "\"Shoots, then runs.\"\n"})
    assert result.ok, shown(result)
    assert result.game is not None
    (card,) = result.game.cards
    assert (card.name, card.copies, card.text) == ("Archer", 3, "Shoots, then runs.")
    assert [(k.name, len(k.args)) for k in card.keywords] == [("Ranged", 1), ("Charge", 0)]
    assert set(card.stats) == {"attack"}, "an empty cell gives nothing: the type's default holds"
    assert card.span.file.endswith("units.csv") and card.span.line == 2


def test_unknown_and_missing_columns(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": "name,atack,defence\nA,1,1\n"})
    text = shown(result)
    assert "units.csv:1:B: error[CS0203]: unknown column 'atack' for Unit cards" in text
    assert "did you mean 'attack'?" in text and "did you mean 'defense'?" in text
    assert "no column for the stat 'attack' of Unit cards" in text
    no_name = check(tmp_path / "n", {"units.csv": "title,attack\nA,1\n"})
    assert any("has no 'name' column" in m for m in errors(no_name))
    mapped = check(tmp_path / "m", {"units.csv": "Card,ATK\nA,1\n"},
                   table='cards "units.csv" { type: Unit; columns { name: "Card"; attack: "Atk"; speed: "ATK" } }')
    messages = errors(mapped)
    assert "no column 'Atk' in" in " ".join(messages) and "unknown property 'speed'" in " ".join(messages)
    good = check(tmp_path / "g", {"units.csv": "Card,ATK\nA,1\n"},
                 table='cards "units.csv" { type: Unit; columns { name: "Card"; attack: "ATK" } }')
    assert good.ok and good.game is not None and good.game.cards[0].name == "A", shown(good)


def test_a_column_with_values_but_no_header_and_cells_outside_the_table(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": "name,attack,\nA,1,x\nB,2,,stray\n"})
    messages = errors(result)
    assert "this column has values but no header" in messages
    assert "this cell is outside the table" in messages


def test_duplicate_names_across_sheets_and_cards_files(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": "name,attack\nFootman,1\n", "more.csv": "name,attack\nfootman,2\n"},
                   table='cards "units.csv" { type: Unit }\ncards "more.csv" { type: Unit }',
                   extra_rules='card "Footman" { type: Unit; attack: 3 }\n')
    assert errors(result) == ["card 'footman' is declared twice", "card 'Footman' is declared twice"]


def test_blank_rows_hold_no_card_and_a_row_without_a_name_is_an_error(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": "name,attack\n\nA,1\n,,\n  ,  \nB,2\n\n\n"})
    assert result.ok and result.game is not None and [c.name for c in result.game.cards] == ["A", "B"]
    nameless = check(tmp_path / "x", {"units.csv": "name,attack\nA,1\n,4\n"})
    assert "units.csv:3:B (attack): error[CS0204]: row 3 has no card name" in shown(nameless)


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_any_delimiter_with_or_without_a_bom(tmp_path: Path, delimiter: str, bom: bytes) -> None:
    rows = [["name", "attack", "keywords"], ["Archer", "1", "Ranged 2, Charge"], ["Pike", "2", ""]]
    body = "\r\n".join(delimiter.join(f'"{v}"' if "," in v else v for v in row) for row in rows)
    result = check(tmp_path, {"units.csv": bom + body.encode("utf-8")})
    assert result.ok and result.game is not None, shown(result)
    assert [(c.name, len(c.keywords)) for c in result.game.cards] == [("Archer", 2), ("Pike", 0)]


def test_unreadable_and_missing_files(tmp_path: Path) -> None:
    latin = check(tmp_path, {"units.csv": "name,attack,motto\nA,1,caf\xe9\n".encode("latin-1")})
    assert [d.code for d in latin.errors] == ["CS0102"] and "not valid UTF-8" in latin.errors[0].message
    missing = check(tmp_path / "m", {"unit.csv": "name,attack\nA,1\n"})
    (only,) = missing.errors
    assert only.span.file.endswith("rules.cards") and "no table file 'units.csv'" in only.message
    assert only.hint == "did you mean 'unit.csv'?"
    outside = check(tmp_path / "o", {}, table='cards "../units.csv" { type: Unit }')
    assert [d.message for d in outside.errors] == ["'../units.csv' is outside the game's folder"]


def test_hostile_cells_stay_text_and_are_written_back_guarded(tmp_path: Path) -> None:
    hostile = ['=HYPERLINK("http://evil.example","click")', "{{ 7*7 }}", "__import__('os').system('x')",
               "+1+1", "@SUM(A1)"]
    body = "name,attack,motto\n" + "".join(f'H{i},1,"{h.replace(chr(34), chr(34) * 2)}"\n'
                                           for i, h in enumerate(hostile))
    result = check(tmp_path, {"units.csv": body})
    assert result.ok and result.game is not None, shown(result)
    mottos = [c.properties["motto"] for c in result.game.cards]
    assert [getattr(m, "value", None) for m in mottos] == hostile
    written = export_csv(result.game, result.sources, "Unit")
    assert "'=HYPERLINK" in written and "'+1+1" in written and "'@SUM" in written
    assert not re.search(r"(^|,)\"?[=+@-]", written, re.MULTILINE), "no cell starts as a formula"
    back = check(tmp_path / "back", {"units.csv": written})
    assert back.game is not None and [getattr(c.properties["motto"], "value", None)
                                      for c in back.game.cards] == hostile
    code = check(tmp_path / "code", {"units.csv": "name,attack\nX,__import__('os')\n"})
    assert [d.code for d in code.errors] == ["CS0301"], "a stat cell is a value, never run"


def test_a_cell_may_hold_an_ability_or_statements_and_its_errors_are_located(tmp_path: Path) -> None:
    result = check(tmp_path, {"units.csv": 'name,attack,ability\nA,1,rally the troops\n'
                                           'B,1,"on turn_started(p) {\n  rally the troops\n}"\nC,1,rally\n'})
    assert result.ok and result.game is not None, shown(result)
    a, b, c = result.game.cards
    assert [x.kind for x in a.abilities] == ["effect"] and [x.kind for x in b.abilities] == ["trigger"]
    assert _strip(c.abilities[0].model_dump()) == _strip(a.abilities[0].model_dump()) | {
        "body": [{"kind": "invoke", "procedure": "rally", "args": {}, "phrase": ""}]}, "a procedure by name"
    bad = check(tmp_path / "bad", {"units.csv": 'name,attack,ability\nA,1,"effect {\n  rally the trops\n}"\n'})
    (only,) = bad.errors
    assert only.span.line == 3 and "units.csv:2:C (ability)" in render(only, bad.sources)


# ---------------------------------------------------------------- xlsx


def workbook(rows: list[list[object]], sheet: str = "Units", merge: str | None = None) -> bytes:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = sheet
    for row in rows:
        ws.append(row)
    if merge:
        ws.merge_cells(merge)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def with_cached_value(data: bytes, formula: str, value: str) -> bytes:
    """Give a formula the value a spreadsheet app would have saved with it."""
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            body = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = body.replace(f"<f>{formula}</f><v />".encode(), f"<f>{formula}</f><v>{value}</v>".encode())
            dst.writestr(item, body)
    return out.getvalue()


XLSX_TABLE = 'cards "units.xlsx" { type: Unit; sheet: "Units" }'


def test_xlsx_cells_are_named_like_a_spreadsheet(tmp_path: Path) -> None:
    data = workbook([["name", "attack", "keywords"], ["Archer", 1, "Ranged 2"], ["Knight", "three", "Chagre"]])
    result = check(tmp_path, {"units.xlsx": data}, table=XLSX_TABLE)
    text = shown(result)
    assert "units.xlsx[Units]!B3 (attack): error[CS0301]: 'three' is not a number" in text
    assert "units.xlsx[Units]!C3 (keywords): error[CS0501]: unknown keyword 'Chagre'" in text
    good = check(tmp_path / "g", {"units.xlsx": workbook([["name", "attack"], ["Archer", 2.0]])}, table=XLSX_TABLE)
    assert good.ok and good.game is not None and good.game.cards[0].stats["attack"].model_dump()["num"] == 2
    wrong = check(tmp_path / "w", {"units.xlsx": data}, table='cards "units.xlsx" { type: Unit; sheet: "Unit" }')
    assert [(d.message, d.hint) for d in wrong.errors] == [("the workbook has no sheet 'Unit'",
                                                           "did you mean 'Units'?")]
    broken = check(tmp_path / "b", {"units.xlsx": b"not a zip"}, table=XLSX_TABLE)
    assert [d.code for d in broken.errors] == ["CS0102"]


def test_xlsx_merged_cells_and_formulas(tmp_path: Path) -> None:
    merged = check(tmp_path, {"units.xlsx": workbook([["name", "attack"], ["A", 1], ["B", None]], merge="B2:B3")},
                   table=XLSX_TABLE)
    assert any("merged cells B2:B3" in m for m in errors(merged)), errors(merged)
    assert "units.xlsx[Units]!B2 (attack)" in shown(merged)
    uncached = workbook([["name", "attack"], ["A", "=1+2"]])
    result = check(tmp_path / "f", {"units.xlsx": uncached}, table=XLSX_TABLE)
    assert any("formula (=1+2) with no saved value" in m for m in errors(result)), errors(result)
    cached = check(tmp_path / "c", {"units.xlsx": with_cached_value(uncached, "1+2", "3")}, table=XLSX_TABLE)
    assert cached.ok and cached.game is not None, shown(cached)
    assert cached.game.cards[0].stats["attack"].model_dump()["num"] == 3, "the saved value, never evaluated"


# ---------------------------------------------------------------- export and round trip


def _strip(value: object) -> object:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k != "span"}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _card_end(text: str, start: int) -> int:
    depth = 0
    for tok in tokenize(text[start:]):
        if tok.type in ("LBRACE", "RBRACE"):
            depth += 1 if tok.type == "LBRACE" else -1
            if depth == 0:
                return start + (tok.end_pos or 0)
    raise AssertionError("unclosed card")


def _offset(source: SourceFile, line: int, column: int) -> int:
    return source.line_starts[line - 1] + column - 1


@pytest.mark.parametrize("game_id", ["combat_cards", "kingdom_cards", "construct_and_combat", "kingdom_combat",
                                     "two_kingdoms"])
def test_export_reads_back_to_the_same_ir_for_every_card_type(tmp_path: Path, game_id: str) -> None:
    """Each type's cards are cut out of a copy of the game and read from the exported sheet."""
    result = check_game(game_id)
    assert result.game is not None
    root = resolve(game_id).root
    for type_name in card_types_with_cards(result.game):
        sheet = export_csv(result.game, result.sources, type_name)
        folder = tmp_path / type_name
        shutil.copytree(root, folder)
        cut: dict[str, list[tuple[int, int]]] = {}
        for card in result.game.cards:
            if card.type == type_name and not card.span.file.endswith(".csv"):
                text = result.sources[card.span.file].text
                start = _offset(result.sources[card.span.file], card.span.line, card.span.column)
                cut.setdefault(card.span.file, []).append((start, _card_end(text, start)))
            elif card.type == type_name:  # already in a sheet: the sheet is replaced
                (folder / Path(card.span.file).resolve().relative_to(root)).write_text(
                    sheet.split("\n", 1)[0] + "\n")
        for file, ranges in cut.items():
            text = result.sources[file].text
            for start, end in sorted(ranges, reverse=True):
                text = text[:start] + "\n" * text[start:end].count("\n") + text[end:]
            (folder / Path(file).resolve().relative_to(root)).write_text(text)
        (folder / "exported.csv").write_text(sheet)
        (folder / "exported.cards").write_text(f'cards "exported.csv" {{ type: {type_name} }}\n')
        back = check_game(str(folder))
        assert back.ok and back.game is not None, (type_name, shown(back))
        before = [_strip(c.model_dump()) for c in result.game.cards if c.type == type_name]
        after = [_strip(c.model_dump()) for c in back.game.cards if c.type == type_name]
        assert after == before, type_name


def test_two_kingdoms_keeps_its_units_in_csv() -> None:
    result = check_game("two_kingdoms")
    assert result.ok and result.game is not None
    files = {Path(c.span.file).name for c in result.game.cards}
    assert files == {"field.csv", "siege.csv"}


def test_export_command_writes_csv_of_one_type() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["export", "two_kingdoms", "--format", "csv", "--type", "Unit"])
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("name,hp,die,move,range") and "Axe Soldier,30,d6" in out.stdout
    many = runner.invoke(app, ["export", "kingdom_combat", "--format", "csv"])
    assert many.exit_code == 2 and "add --type with one of: Fortress, Unit" in many.stderr
    typo = runner.invoke(app, ["export", "kingdom_combat", "--format", "csv", "--type", "Uint"])
    assert typo.exit_code == 2 and "did you mean 'Unit'?" in typo.stderr
    json_type = runner.invoke(app, ["export", "two_kingdoms", "--type", "Unit"])
    assert json_type.exit_code == 2
