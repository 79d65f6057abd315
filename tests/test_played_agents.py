"""People and agents in the played match's windows: a person is asked only when they have
a real choice (unless they ask to stop everywhere), is told when they are responding on
another player's turn, and replays and snapshots cover the new windows."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import write_game
from rich.console import Console

from cardsmith.compiler.api import load_game_ir
from cardsmith.engine.agents import RandomAgent, ask, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.replay import log_lines, parse_log, replay_entries
from cardsmith.engine.table import TablePlayer

# Each player in turn may take a coin; the other may answer with a trick from their hand
# (a stack action) while it is not their turn: priority windows on and off turn.
DUEL = """
game "Duel" { id: duel; players: 2; first_player: seat1 }
counter coins per player { start: 0 }
counter tricks per player { start: 1; min: 0 }
action take "Take a coin" {
  by: current
  condition: you.coins < 3
  increase you.coins by 1
}
action trick "Play a trick" {
  by: any
  speed: stack
  condition: you.tricks > 0
  cost { decrease you.tricks by 1 }
  decrease current.coins by 1
}
turn {
  stage main { actions: take, trick; responses: yes }
}
check "rich" {
  for each p in players { if p.coins >= 3 { p wins the game } }
}
"""


def duel(tmp_path: Path) -> CompiledGame:
    return CompiledGame(load_game_ir(str(write_game(tmp_path / "duel", {"rules.cards": DUEL}))))


def as_text(renderable: Any) -> str:
    """What the terminal shows, without colour."""
    out = io.StringIO()
    Console(file=out, width=120, no_color=True, force_terminal=False).print(renderable)
    return out.getvalue()


def _scripted_human(game: CompiledGame, answers: list[str], asked: list[list[str]]) -> TablePlayer:
    shown: list[str] = []

    def show(renderable: Any) -> None:
        shown.append(as_text(renderable))

    def answer(_question: str) -> str:
        asked.append(shown[-1].splitlines())
        return answers.pop(0) if answers else "0"
    return TablePlayer(show, answer, game)


def test_a_person_is_asked_only_when_they_have_a_real_choice(tmp_path: Path) -> None:
    game = duel(tmp_path)
    asked: list[list[str]] = []
    match = PlayedMatch(game, seed=3, players=2)
    play_out(match, [_scripted_human(game, [], asked), RandomAgent(1)], max_actions=200)
    assert match.over and not match.error
    questions = [lines for lines in asked if any(line.strip().startswith("[") for line in lines)]
    assert questions, "the person was asked something"
    for lines in questions:
        options = [line for line in lines if line.strip().startswith("[")]
        assert len(options) > 1 or "pass" not in options[0].lower(), "a window with only pass was put to the person"


def test_stop_everywhere_asks_also_where_passing_is_all_one_could_do(tmp_path: Path) -> None:
    # no tricks in hand: player2's windows on player1's turn hold nothing but pass
    game = CompiledGame(load_game_ir(str(write_game(tmp_path / "bare", {
        "rules.cards": DUEL.replace("start: 1; min: 0", "start: 0; min: 0")}))))
    only_pass = {}
    for stops in ((), (1,)):
        match = PlayedMatch(game, seed=3, players=2, stops=stops)
        seen = 0
        for _ in range(40):
            actions = match.legal_actions()
            if not actions:
                break
            seen += [a.description for a in actions] == ["pass"] and actions[0].player == 1
            match.apply(actions[-1])  # everyone passes
        only_pass[stops] = seen
    assert only_pass[()] == 0 and only_pass[(1,)] > 0


def test_a_person_responding_off_turn_is_told_so_and_sees_what_waits(tmp_path: Path) -> None:
    game = duel(tmp_path)
    match = PlayedMatch(game, seed=1, players=2)
    # player1 passes; player2 now holds priority on player1's turn and may play the trick
    match.apply(next(a for a in match.legal_actions() if a.description == "pass"))
    actions = match.legal_actions()
    assert actions[0].player == 1 and "Play a trick" in [a.description for a in actions]
    asked: list[list[str]] = []
    human = _scripted_human(game, ["0"], asked)
    trick = ask(human, match, actions)
    assert any("you may respond" in line for line in asked[0])
    match.apply(trick)
    view = match.observation(0)
    assert view["waiting"] == [{"effect": "trick", "player": "player2"}]


def test_logs_of_matches_with_windows_and_stops_replay_and_restore(tmp_path: Path) -> None:
    game = duel(tmp_path)
    for stops in ([], [0, 1]):
        match = PlayedMatch(game, seed=5, players=2, stops=stops)
        applied = play_out(match, [RandomAgent(7), RandomAgent(8)], max_actions=300)
        assert not match.error
        lines = log_lines(match, applied)
        entries, problem = parse_log(lines)
        assert problem is None and replay_entries(entries, game).ok
        again = PlayedMatch(game, seed=5, players=2, stops=stops)
        play_out(again, [RandomAgent(7), RandomAgent(8)], max_actions=300)
        assert json.dumps(again.log) == json.dumps(match.log)
    mid = PlayedMatch(game, seed=2, players=2)
    mid.apply(next(a for a in mid.legal_actions() if a.description == "pass"))
    mid.apply(next(a for a in mid.legal_actions() if a.description == "Play a trick"))
    assert mid.state_summary()["waiting"] == ["trick"]
    restored = PlayedMatch.restore(game, json.loads(json.dumps(mid.snapshot())))
    assert restored.state_summary() == mid.state_summary()
    assert [a.description for a in restored.legal_actions()] == [a.description for a in mid.legal_actions()]


def test_play_stop_everywhere_needs_a_human_seat() -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "cardsmith.cli", "play", "combat_cards", "--stop-everywhere"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "--stop-everywhere goes with --human" in proc.stderr


def test_a_game_outside_the_library_with_a_deck_zone_plays(tmp_path: Path) -> None:
    """A per-player zone named `deck` in a game folder used to pass `check` and then make
    `play` fail with an internal error (it looked for the library's ready decks)."""
    folder = write_game(tmp_path / "decky", {"rules.cards": """
game "Decky" { id: decky; players: 2; first_player: seat1 }
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
cardtype Thing { stats { value: number = 1 } }
card "Rock" { type: Thing; copies: 3 }
setup { for each p in players { create every copy of "Rock" in deck of p } }
action draw_one "Draw" { condition: size(your deck) > 0; move top of your deck to your hand }
turn { stage main { actions: draw_one } }
check "out" { for each p in players { if size(deck of p) == 0 { p wins the game } } }
"""})
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "cardsmith.cli", "play", str(folder)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and "internal error" not in proc.stderr, proc.stderr
    assert json.loads(proc.stdout)["winner"] == "player1"
