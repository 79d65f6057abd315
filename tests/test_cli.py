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


def test_matches_refuse_player_counts_and_modes_the_game_does_not_declare() -> None:
    """--players 0 used to run forever, --players 3 to play a two-player game with three,
    and simulate ignored an unknown --mode: now each is a usage error naming what is allowed."""
    for args, said in ((["play", "combat_cards", "--players", "0"], "played by 2 players, not 0"),
                       (["play", "two_kingdoms", "--players", "3"], "played by 2 players, not 3"),
                       (["simulate", "combat_cards", "-n", "1", "--mode", "STARTER"], "did you mean 'starter'"),
                       (["simulate", "combat_cards", "-n", "1", "-j", "99999999999"], "--jobs from 1 to 64"),
                       (["play", "combat_cards", "--deck", "x.deck"], "deals no decklists")):
        proc = cli(*args)
        assert proc.returncode == 2 and said in proc.stderr and "internal error" not in proc.stderr, (args, proc.stderr)
    solo = cli("play", "construct_and_combat", "--mode", "solo", "--players", "1", "--max-actions", "5")
    assert solo.returncode in (0, 1) and "internal error" not in solo.stderr  # a mode's own player count


def test_replay_checks_the_logs_match_event(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    assert cli("play", "combat_cards", "--seed", "2", "--log", str(log), "--max-actions", "30").returncode in (0, 1)
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    for change, said in (({"seed": float("inf")}, "seed must be a whole number"),
                         ({"seed": "abc"}, "seed must be a whole number"),
                         ({"mode": "nope"}, "no mode 'nope'"),
                         ({"players": 0}, "played by 2 players in mode constructed, not 0"),  # its mode, logged
                         ({"players": 99999999999}, "not 99999999999"),
                         ({"players": None}, "number of players must be a whole number"),
                         ({"decks": ["/nonexistent.deck"]}, "decks must be a list of card names")):
        bad = tmp_path / "bad.jsonl"
        bad.write_text("\n".join([json.dumps({**head, **change}), *lines[1:]]) + "\n")
        proc = cli("replay", str(bad))
        assert proc.returncode == 1 and f"{bad}:1:" in proc.stderr and said in proc.stderr, (change, proc.stderr)
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n")
    proc = cli("replay", str(deep))
    assert proc.returncode == 1 and f"{deep}:1:" in proc.stderr and "nested too deeply" in proc.stderr
    broken = write_game(tmp_path / "broken", {"rules.cards": 'game "B" {\n  id: b\n  players: "two\n}\n'})
    proc = cli("replay", str(log), "--game", str(broken))
    assert proc.returncode == 1 and "internal error" not in proc.stderr and "error" in proc.stderr


def test_output_paths_that_cannot_be_written_are_usage_errors(tmp_path: Path) -> None:
    """A folder, a full device, an unwritable place: `error: cannot use PATH: why`, exit 2,
    never an internal error. A device such as /dev/null is written to, not replaced."""
    folder = tmp_path / "a_folder"
    folder.mkdir()
    proc = cli("play", "combat_cards", "--max-actions", "5", "--log", str(folder))
    assert proc.returncode == 2 and f"cannot use {folder}: it is a folder" in proc.stderr
    assert folder.is_dir()
    if Path("/dev/full").exists():
        proc = cli("play", "combat_cards", "--max-actions", "5", "--log", "/dev/full")
        assert proc.returncode == 2 and "cannot use /dev/full" in proc.stderr
        assert Path("/dev/full").is_char_device()
    proc = cli("play", "combat_cards", "--max-actions", "5", "--log", os.devnull)
    assert proc.returncode == 0 and Path(os.devnull).is_char_device()
    out_file = tmp_path / "taken"
    out_file.write_text("x")
    proc = cli("build", "combat_cards", "--out", str(out_file))
    assert proc.returncode == 2 and "cannot use" in proc.stderr and "internal error" not in proc.stderr
    proc = cli("build", "combat_cards", "--out", str(tmp_path / "o"), "--back-offset", "nan,nan")
    assert proc.returncode == 2 and "offsets are numbers" in proc.stderr


def test_fmt_skips_folders_named_like_cards_files(tmp_path: Path, mini_game: Path) -> None:
    (mini_game / "odd.cards").mkdir()
    proc = cli("fmt", "--check", str(mini_game))
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = cli("fmt", "--check", str(empty))
    assert proc.returncode == 2 and "no .cards files" in proc.stderr


def test_a_scenario_stopped_by_the_rules_is_reported_at_its_own_statement(tmp_path: Path) -> None:
    rules = MINI_RULES + '''
procedure stumble() "stumble" {
  let x = 1 / gold
}
'''
    scenario = 'scenario "falls" {\n  players: 2\n  expect 1 == 1\n  stumble\n}\n'
    folder = write_game(tmp_path / "g", {"rules.cards": rules, "cards.cards": MINI_CARDS,
                                         "scenarios/s.cards": scenario})
    proc = cli("test", str(folder))
    assert proc.returncode == 1
    assert "scenarios/s.cards:4: " in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_filters_and_counts_that_match_nothing_are_usage_errors() -> None:
    for args, said in ((["test", "combat_cards", "-k", "zzz"], "no scenario of Combat Cards has a name containing"),
                       (["play", "combat_cards", "--max-actions", "0"], "--max-actions must be at least 1"),
                       (["play", "combat_cards", "--agents", "random,random,random"], "3 agents for 2 seats"),
                       (["text", "combat_cards", "Nope Card"], "lists every card")):
        proc = cli(*args)
        assert proc.returncode == 2 and said in proc.stderr, (args, proc.stderr)


def test_replay_points_at_the_files_own_line_with_a_caret_and_a_hint(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    assert cli("play", "combat_cards", "--seed", "4", "--log", str(log), "--max-actions", "20").returncode in (0, 1)
    lines = log.read_text().splitlines()
    lines[6] = lines[6].replace('"event"', '"evnt"')
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_text(lines[0] + "\n\n\n" + "\n".join(lines[1:]) + "\n")  # two blank lines after the first
    proc = cli("replay", str(spaced))
    assert proc.returncode == 1
    assert f"{spaced}:9:1: error[CS3001]: diverges" in proc.stderr  # line 7 of the events, 9 of the file
    assert "^^^" in proc.stderr and "= hint: the log was edited" in proc.stderr
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xb6\x00\xff")
    proc = cli("replay", str(binary))
    assert proc.returncode == 1 and "not UTF-8 text" in proc.stderr
