"""The generated module itself (issue 13): its source depends only on the game's content,
its comments are readable yet can never end early, and a rules error finds its .cards
line from the module's line table rather than from a line stored by every statement."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest
from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.codegen import comment_text, generate
from cardsmith.compiler.linetable import TABLE

# a scenario whose name holds non-ASCII letters and dashes, a bidi override and a line
# separator (as themselves), and a line break (a .cards escape)
NAME = "Zo\u00eb\u2019s caf\u00e9 \u2014 \u202e reversed \u2028 \\n import os end"
SCENARIO = f'''
scenario "{NAME}" {{
  setup {{
    let k = create("Knight", battlefield, player1)
  }}
  deal 1 damage to k
  expect k.damage == 1
}}
'''


def _game(folder: Path) -> Path:
    return write_game(folder, {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                               "scenarios/s.cards": SCENARIO})


def test_the_same_game_from_two_folders_and_working_directories_is_the_same_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _game(tmp_path / "one" / "deep" / "game")
    second = _game(tmp_path / "two" / "g")
    monkeypatch.chdir(tmp_path / "one")
    source_one = generate(load_game_ir("deep/game"), "test")
    monkeypatch.chdir(tmp_path / "two" / "g")
    source_two = generate(load_game_ir(str(second)), "test")
    assert source_one == source_two
    assert "# scenario " in source_one and "— scenarios/s.cards:" in source_one  # relative to the game folder
    assert str(tmp_path) not in source_one and str(first) not in source_one


def test_comments_keep_letters_and_escape_what_could_end_them(tmp_path: Path) -> None:
    source = generate(load_game_ir(str(_game(tmp_path / "g"))), "test")
    comment = next(line for line in source.splitlines() if "# scenario " in line)
    assert "Zo\u00eb\u2019s caf\u00e9 \u2014" in comment  # written as is, not as \\u escapes
    assert "\u202e" not in comment and "\u2028" not in comment and "\n" not in comment
    assert "\\u202e" in comment and "\\u2028" in comment and "\\n import os" in comment
    # the whole name stays inside the one comment token: nothing of it is code
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type == tokenize.COMMENT]
    assert any("reversed" in c and c.endswith(":" + comment.rsplit(":", 1)[1]) for c in comments)
    names = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
    assert "os" not in names


def test_comment_text_escapes_only_what_it_must() -> None:
    assert comment_text("Élan — 3 ♥") == "Élan — 3 ♥"
    assert comment_text("a\nb\rc\u2028d\x00e\u202e") == "a\\nb\\rc\\u2028d\\x00e\\u202e"


def test_no_statement_stores_its_line_the_table_maps_statement_lines(tmp_path: Path) -> None:
    """Only the loop guard (its step counted in line: codegen_stmts.count_step) names a
    line as the code runs; every other statement's .cards line is in the table, keyed by
    the Python line written for it."""
    source = generate(load_game_ir(str(_game(tmp_path / "g"))), "test")
    assert all(line.lstrip().startswith("m.steps += 1; m.last_line = ")
               for line in source.split("\n") if "m.last_line" in line)
    namespace: dict[str, object] = {}
    exec(compile(source, "<test handlers>", "exec"), namespace)
    table = namespace[TABLE]
    assert isinstance(table, dict) and table
    lines = source.split("\n")
    scenario_lines = SCENARIO.split("\n")  # (not splitlines: the name holds a U+2028)
    deal = next(n for n, text in enumerate(scenario_lines, 1) if "deal 1 damage" in text)
    written = [lines[py - 1] for py, cards in table.items() if cards == deal]
    assert any("deal" in text for text in written), written  # the statement's own Python line
    assert all(not lines[py - 1].lstrip().startswith(("def ", "#")) for py in table)


def test_the_same_game_from_two_folders_finds_one_cache_entry(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The handlers' cache key names files relative to the game folder, as the source
    does: a copied game, or one compiled from elsewhere, reuses the compiled module."""
    from cardsmith.compiler.handlers import files_key
    from cardsmith.compiler.loader import resolve

    first = _game(tmp_path / "one" / "deep" / "game")
    second = _game(tmp_path / "two" / "g")
    monkeypatch.chdir(tmp_path / "one")
    key_one = files_key(resolve("deep/game"))
    monkeypatch.chdir(tmp_path)
    assert files_key(resolve(str(second))) == key_one
    (second / "cards.cards").write_text(MINI_CARDS + "\n# changed\n", encoding="utf-8")
    assert files_key(resolve(str(second))) != key_one  # content still counts
    assert files_key(resolve(str(first))) == key_one
