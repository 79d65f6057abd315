"""A counter a hidden pick changed stays hidden until the picks are revealed.

Inside `simultaneously { }` (and a `simultaneous: yes` stage) the others must decide
without knowing a pick. Hiding the cards a pick moved is not enough: a pick that raised a
counter (a pledge, a bid paid at once) would be read off the counter. So each seat sees
such counters as they were when the decision opened (observe), and an agent's look-ahead
world has them back at those values (determinize) — until the block ends and all is shown.
"""

from __future__ import annotations

import random
from pathlib import Path

from conftest import write_game

from cardsmith.compiler.api import load_game_ir
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.seatview import determinize, seat_view

SECRET = """
game "Secret" {
  id: secret
  players: 2
  first_player: seat1
}
counter pledged per player { start: 0 }
counter pot shared { start: 0 }
procedure pledge() "everyone pledges in secret" {
  simultaneously {
    for each p in players {
      choose n from [1, 2, 3] by p
      increase p.pledged by n
      increase pot by n
    }
  }
}
turn {
  stage pledging {
    everyone pledges in secret
    if pot >= 12 { you win the game }
  }
}
"""


def secret(tmp_path: Path) -> CompiledGame:
    return CompiledGame(load_game_ir(str(write_game(tmp_path / "secret", {"rules.cards": SECRET}))))


def counters(match: PlayedMatch, seat: int) -> tuple[list[int], int]:
    view = match.observation(seat)
    return [p["counters"]["pledged"] for p in view["players"]], view["shared"]["pot"]


def test_the_others_see_a_pledge_only_when_the_picks_are_revealed(tmp_path: Path) -> None:
    match = PlayedMatch(secret(tmp_path), seed=1, players=2)
    first = match.legal_actions()
    assert first[0].player == 0
    match.apply(first[2])  # player1 pledges 3, sealed
    assert counters(match, 1) == ([0, 0], 0)  # player2 decides without knowing it
    assert counters(match, 0) == ([3, 0], 3)  # player1 knows their own pick
    second = match.legal_actions()
    assert second[0].player == 1
    match.apply(second[0])  # player2 pledges 1: the block ends, all is revealed
    assert counters(match, 1) == counters(match, 0) == ([3, 1], 4)
    assert any(entry["event"] == "revealed" for entry in match.log)


def test_a_look_ahead_world_has_the_sealed_counters_back(tmp_path: Path) -> None:
    match = PlayedMatch(secret(tmp_path), seed=1, players=2)
    match.apply(match.legal_actions()[2])
    snapshot = match.snapshot_state()
    determinize(match, 1, random.Random(1))
    assert match.players[0].counters["pledged"] == 0 and match.shared["pot"] == 0
    match.restore_state(snapshot)
    assert match.players[0].counters["pledged"] == 3 and match.shared["pot"] == 3


def test_an_agent_deciding_reads_the_counters_as_they_were(tmp_path: Path) -> None:
    """What an agent is handed (its seat view) is the same: the others' pledge unknown."""
    game = secret(tmp_path)
    seen = []
    for pledge in (0, 2):  # player1 pledges 1, then in another match 3
        match = PlayedMatch(game, seed=1, players=2)
        match.apply(match.legal_actions()[pledge])
        with seat_view(match, match.legal_actions()) as view:
            seen.append((view.seat, view.observation["players"], view.observation["shared"]))
    assert seen[0] == seen[1] and seen[0][0] == 1 and seen[0][2] == {"pot": 0}
