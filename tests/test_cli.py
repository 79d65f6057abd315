"""The command line: exit codes, streams, JSON output, export and its schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
from conftest import MINI_CARDS, MINI_RULES, write_game
from typer.testing import CliRunner

from cardsmith.cli import app

runner = CliRunner()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real entry point in a subprocess (separate stdout/stderr, real exit code)."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "cardsmith.cli", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_clean_game_exits_0_and_prints_nothing_to_stdout(mini_game: Path) -> None:
    proc = cli("check", str(mini_game))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert "ok" in proc.stderr


def test_errors_exit_1_with_rustc_style_diagnostics(tmp_path: Path) -> None:
    card = 'card "X" { type: Unit; faction: Red; attack: 1; keywords: Chrage }'
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": card})
    proc = cli("check", str(folder))
    assert proc.returncode == 1
    err = proc.stderr
    assert "cards.cards:1:" in err and "error[CS0501]: unknown keyword 'Chrage'" in err
    assert "^^^^^^" in err and "= hint: did you mean 'Charge'?" in err
    assert "\x1b[" not in err  # NO_COLOR


def test_json_format_lists_every_diagnostic_on_stdout(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards":
                                         'card "X" { type: Unit; faction: Rde }\ncard "Y" { type: Uint }'})
    proc = cli("check", str(folder), "--format", "json")
    assert proc.returncode == 1
    items = json.loads(proc.stdout)
    errors = [i for i in items if i["severity"] == "error"]
    assert len(errors) >= 3
    keys = {"path", "line", "column", "end_line", "end_column", "severity", "code", "message", "hint"}
    assert all(set(i) == keys for i in items)
    assert any(i["hint"] == "did you mean 'Red'?" for i in errors)


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    proc = cli("check", "kingdom_combta")
    assert proc.returncode == 2
    assert "neither a file, a folder, nor a game" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert cli("check", "--format", "yaml", "x").returncode == 2
    assert cli("frobnicate").returncode == 2


def test_empty_folder_is_bad_usage(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    proc = cli("check", str(tmp_path / "empty"))
    assert proc.returncode == 2 and "no .cards files" in proc.stderr


def test_export_has_cards_with_properties_as_top_level_keys(mini_game: Path) -> None:
    proc = cli("export", str(mini_game))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["game"]["name"] == "Mini"
    knight = next(c for c in doc["cards"] if c["name"] == "Knight")
    assert knight["type"] == "Unit" and knight["copies"] == 1
    assert knight["stats"] == {"cost": 0, "attack": 3, "hp": 1}
    assert knight["faction"] == "Red" and knight["border"] == "black"
    assert knight["keywords"] == ["Charge"]
    assert "deal 2 damage to target unit in battlefield" in knight["text"].lower()
    archer = next(c for c in doc["cards"] if c["name"] == "Archer")
    assert archer["keywords"] == ["Ranged 2"] and "Deals 2 damage at range" in archer["text"]


def test_export_validates_against_the_printed_schema(mini_game: Path) -> None:
    schema = json.loads(cli("schema").stdout)
    doc = json.loads(cli("export", str(mini_game)).stdout)
    jsonschema.validate(doc, schema)
    assert schema["properties"]["cards"]["type"] == "array"


def test_export_of_a_broken_game_exits_1(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {"rules.cards": "game {"})
    proc = cli("export", str(folder))
    assert proc.returncode == 1 and proc.stdout == ""


def test_version_and_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and "cardsmith" in result.stdout
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "check" in result.stdout


def test_check_accepts_several_targets_and_a_single_file(mini_game: Path, tmp_path: Path) -> None:
    other = write_game(tmp_path / "other", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS})
    proc = cli("check", str(mini_game), str(other / "cards.cards"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count(": ok") == 2


def test_a_human_whose_input_ends_stops_the_match_cleanly() -> None:
    """`play --human` reads answers from the terminal (or a pipe); input that ends before
    the match does is a clean stop (exit 1, what happened), not click's bare 'Aborted.'."""
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "cardsmith.cli", "play", "combat_cards", "--human", "1"],
                          input="0\n0\n", capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "you are player1" in proc.stderr and "stopped: the input ended before the match did" in proc.stderr
