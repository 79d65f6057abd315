"""The turn limit is a game setting (`turn_limit:` in `game`, default 3,000), checked like
any other, and `cardsmith simulate` says how many matches it stopped.

A match that reaches it stops without a winner (`out_of_turns`, and the error "no winner
after N turns"): the guard against rules that never end, which the designer can now
raise for a long wargame or lower to find a game that cannot end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_game

from cardsmith.app import load
from cardsmith.compiler.api import check_game
from cardsmith.dsl import ir
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame

ENDLESS = '''
game "Endless" {
  id: endless
  players: 2
  first_player: seat1
  LIMIT
}
counter pushes per player { start: 0 }
action push "Push" { gain 1 pushes }
turn {
  stage main { actions: push }
}
'''

ROUNDS_ONLY = '''
game "Rounds" {
  id: rounds
  players: 2
  turn_limit: 7
}
counter ticks shared { start: 0 }
round {
  stage tick { increase ticks by 1 }
}
'''


def endless(tmp_path: Path, limit: str = "turn_limit: 5") -> Path:
    return write_game(tmp_path / "endless", {"rules.cards": ENDLESS.replace("LIMIT", limit)})


def compiled(folder: Path) -> CompiledGame:
    result = check_game(str(folder))
    assert result.game is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    return CompiledGame(result.game)


def test_a_match_stops_at_the_games_turn_limit(tmp_path: Path) -> None:
    game = compiled(endless(tmp_path))
    assert game.ir.game.turn_limit == 5
    match = PlayedMatch(game, seed=1, players=2)
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=10_000)
    assert match.over and match.out_of_turns and not match.winners
    assert match.error == "no winner after 5 turns"
    started = [e for e in match.log if e["event"] == "emit" and e["name"] == "turn_started"]
    assert len(started) == 5 and match.turn_number == 6  # five turns were played, the sixth never began


def test_a_game_that_rounds_without_turns_stops_after_its_limit_of_rounds(tmp_path: Path) -> None:
    game = compiled(write_game(tmp_path / "rounds", {"rules.cards": ROUNDS_ONLY}))
    match = PlayedMatch(game, seed=1, players=2)
    assert match.is_over and match.out_of_turns and match.error == "no winner after 7 turns"
    assert match.shared["ticks"] == 7


def test_without_a_setting_the_limit_is_3000(tmp_path: Path) -> None:
    game = compiled(endless(tmp_path, ""))
    assert game.ir.game.turn_limit == ir.DEFAULT_TURN_LIMIT == 3000
    assert all(load(g).ir.game.turn_limit == 3000 for g in ("combat_cards", "kingdom_cards"))


@pytest.mark.parametrize("written", ["0", "-3", "1.5", "100001", "many", "5 turns", ""])
def test_a_turn_limit_must_be_a_whole_number_from_1_to_100000(tmp_path: Path, written: str) -> None:
    folder = endless(tmp_path, f"turn_limit: {written}")
    found = [d for d in check_game(str(folder)).diagnostics if d.severity.name == "ERROR"]
    assert len(found) == 1, [d.message for d in found]
    d = found[0]
    assert d.code == "CS0301"
    assert d.message == f"turn_limit must be a whole number from 1 to 100,000, not {written or 'nothing'}"
    assert d.hint is not None and "default 3,000" in d.hint and "turn_limit: 500" in d.hint
    assert d.span.line == 6 and d.span.column == (15 if written else 3)  # the value (or the key when empty)


def test_the_largest_limit_is_accepted(tmp_path: Path) -> None:
    assert compiled(endless(tmp_path, "turn_limit: 100000")).ir.game.turn_limit == 100_000


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "NO_COLOR": "1"})


def test_simulate_says_how_many_matches_stopped_at_the_turn_limit(tmp_path: Path) -> None:
    folder = endless(tmp_path)
    traces = tmp_path / "traces"
    done = simulate(str(folder), "-n", "3", "--traces", str(traces), "--rules", "none")
    note = ("3 of 3 matches stopped at the turn limit of 5 turns: raise `turn_limit` in `game` "
            "or check that the game can end")
    assert done.returncode == 1  # a match that did not end is a failure, as before
    assert f"  {note}" in done.stdout.splitlines() and f"warning: {note}" in done.stderr
    assert "errors: 0" in done.stdout  # not a rules error: the rules ran, the game did not end
    assert len(list(traces.glob("*.jsonl"))) == 3  # each saved for `cardsmith replay`
    data = json.loads(simulate(str(folder), "-n", "3", "--format", "json", "--traces", str(traces)).stdout)
    assert data["turn_limit"] == {"turns": 5, "matches": 3, "seeds": [1, 2, 3]}
    assert data["error_count"] == 0 and data["errors"] == []


def test_simulate_says_nothing_of_the_limit_when_no_match_reaches_it() -> None:
    done = simulate("combat_cards", "-n", "2", "--rules", "none")
    assert done.returncode == 0 and "turn limit" not in done.stdout + done.stderr
    data = json.loads(simulate("combat_cards", "-n", "2", "--format", "json").stdout)
    assert data["turn_limit"] == {"turns": 3000, "matches": 0, "seeds": []}
