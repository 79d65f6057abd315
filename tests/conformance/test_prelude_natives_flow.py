"""Conformance: the core prelude's phrases for the turn order and the end of the game
(docs/language.md, "Game flow" table of phrases, and section 7): `end the turn`, `end the
stage`, `X takes an extra turn`, `X goes next`, `reverse the turn order`, `skip the next
player`, `X skips their next turn`, `X wins the game`, `X share the win`, `X loses the
game`, `eliminate X`, `the game is a draw`, `end the game`.

Three players, seated in order; each turn has a `main` window and a `later` stage that
counts how often it ran for each player.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, descriptions, take, turn_order

GAME = '''
game "Flow" {
  id: flow
  players: 3
  first_player: seat1
}
counter laters per player { start: 0 }
counter score per player { start: 0 }
action stop "Stop" { end the turn }
action close "Close" { end the stage }
action again "Again" { current takes an extra turn }
action hand_over "Hand over" {
  choose p from players where it != you
  p goes next
}
action reverse "Reverse" { reverse the turn order }
action skip "Skip" { skip the next player }
action bench "Bench" {
  choose p from players where it != you
  p skips their next turn
}
action win "Win" { current wins the game }
action share "Share" { all players where it.seat <= 2 share the win }
action concede "Concede" { current loses the game }
action oust "Oust" {
  choose p from players where it != you
  eliminate p
}
action tie "Tie" { the game is a draw }
action finish "Finish" { end the game }
action bank "Bank" {
  choose n from [1, 2, 3]
  increase you.score by n
}
scoring {
  score: p.score
}
turn {
  stage main {
    actions: stop, close, again, hand_over, reverse, skip, bench, win, share, concede, oust, tie, finish, bank
  }
  stage later { increase laters by 1 }
}
'''


def new(tmp_path: Path) -> Any:
    return build(tmp_path, "flow", GAME).new_match(seed=1)


def seats(match: Any) -> list[int]:
    return [int(name.removeprefix("player")) for name in turn_order(match)]


def play(match: Any, moves: list[str]) -> None:
    """Each current player in turn takes the given move (then passes unless it ended the turn)."""
    for move in moves:
        turn = match.turn_number
        take(match, move)
        if not match.is_over and match.turn_number == turn and "pass" in descriptions(match):
            take(match, "pass")


# ---------------------------------------------------------------- turns and stages

@covers("prelude:end_turn")
def test_end_the_turn_passes_over_the_rest_of_the_turn(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Stop")
    assert match.turn_number == 2 and seats(match) == [1, 2]
    assert match.players[0].counters["laters"] == 0, "the later stage was passed over"


@covers("prelude:end_stage")
def test_end_the_stage_closes_the_window_and_the_turn_goes_on(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Close")
    assert match.turn_number == 2 and match.players[0].counters["laters"] == 1


@covers("prelude:extra_turn")
def test_an_extra_turn_follows_this_one_then_play_resumes(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Again", "pass", "pass", "pass", "pass"])
    assert seats(match) == [1, 1, 2, 3, 1, 2]
    assert match.round_number == 2, "the extra turn did not count as player1's turn of the round"


@covers("prelude:set_next_player")
def test_goes_next_and_play_continues_from_there(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Hand over: player3", "pass", "pass"])
    assert seats(match) == [1, 3, 1, 2]


@covers("prelude:reverse_order")
def test_reverse_the_turn_order(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Reverse", "pass", "pass", "pass"])
    assert seats(match)[:4] == [1, 3, 2, 1]


@covers("prelude:skip_next")
def test_skip_the_next_player(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Skip", "pass", "pass"])
    assert seats(match)[:3] == [1, 3, 1]


@covers("prelude:skip_turn")
def test_a_player_skips_their_next_turn(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Bench: player3", "pass", "pass", "pass"])
    assert seats(match)[:4] == [1, 2, 1, 2]


# ---------------------------------------------------------------- the end of the game

@covers("prelude:win")
def test_a_player_wins_the_game(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["pass", "Win"])
    assert match.is_over and match.result["winner"] == "player2" and match.result["winners"] == ["player2"]


@covers("prelude:share_win")
def test_players_share_the_win(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Share")
    assert match.is_over and match.result["winners"] == ["player1", "player2"] and match.result["winner"] is None


@covers("prelude:lose_game")
def test_a_player_who_loses_is_out_and_the_last_one_standing_wins(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Concede")
    assert not match.is_over and match.players[0].eliminated
    while match.current is match.players[0]:
        take(match, "pass")
    take(match, "pass", 1)
    assert seats(match) == [1, 2, 3], "a player out of the game takes no turn"
    take(match, "Concede", 2)
    assert match.is_over and match.result["winner"] == "player2"


@covers("prelude:lose_game")
def test_a_player_who_lost_is_offered_nothing_more(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Concede")
    assert match.legal_actions() and all(a.player != 0 for a in match.legal_actions()), "their turn ended"
    assert seats(match) == [1, 2] and match.players[0].counters["laters"] == 0, "the later stage was passed over"


@covers("prelude:lose_game", "prelude:win")
def test_a_player_who_lost_cannot_win(tmp_path: Path) -> None:
    rules = GAME.replace('action concede "Concede" { current loses the game }',
                         'action concede "Concede" {\n  current loses the game\n  current wins the game\n}')
    match = build(tmp_path, "flow", rules).new_match(seed=1)
    take(match, "Concede")
    assert not match.is_over and match.players[0].eliminated and match.winners == []
    assert [e["player"] for e in match.log if e["event"] == "win_refused"] == ["player1"]


@covers("prelude:eliminate")
def test_eliminate_a_player(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Oust: player2")
    take(match, "pass")
    assert match.players[1].eliminated and seats(match) == [1, 3]
    take(match, "Oust: player1")
    assert match.is_over and match.result["winner"] == "player3"


@covers("prelude:draw_game")
def test_the_game_is_a_draw(tmp_path: Path) -> None:
    match = new(tmp_path)
    take(match, "Tie")
    assert match.is_over and match.result["drawn"] and match.result["winner"] is None


@covers("prelude:end_game", "prelude:rank")
def test_end_the_game_ranks_the_players_by_the_games_scoring(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Bank: 2", "Bank: 3", "Bank: 1"])
    take(match, "Finish")
    assert match.is_over and match.result["winner"] == "player2"
    assert [match.rank_of(p) for p in match.players] == [2, 1, 3]


@covers("prelude:end_game", "prelude:rank", "prelude:eliminate")
def test_a_scored_end_ranks_a_player_who_lost_last(tmp_path: Path) -> None:
    match = new(tmp_path)
    play(match, ["Bank: 3", "Bank: 1"])
    take(match, "Oust: player1")
    take(match, "Finish")
    assert match.is_over and match.result["winners"] == ["player2"], "the best score left in the game wins"
    assert [match.rank_of(p) for p in match.players] == [3, 1, 2]


@covers("prelude:end_game")
@pytest.mark.parametrize(("banks", "winners"), [(["Bank: 2", "Bank: 2", "Bank: 1"], ["player1", "player2"])])
def test_players_tied_at_the_top_share_the_win(tmp_path: Path, banks: list[str], winners: list[str]) -> None:
    match = new(tmp_path)
    play(match, banks)
    take(match, "Finish")
    assert match.result["winners"] == winners and match.result["winner"] is None


SECOND_PERSON = '''
game "You" {
  id: you_flow
  players: 2
  first_player: seat1
}
action crown "Crown" { you win the game }
action yield_game "Yield" { you lose the game }
action again "Again" { you take an extra turn }
action nap "Nap" { you skip your next turn }
turn {
  stage main { actions: crown, yield_game, again, nap }
}
'''


@covers("prelude:win", "prelude:lose_game", "prelude:extra_turn", "prelude:skip_turn")
def test_the_phrases_read_in_the_second_person_too(tmp_path: Path) -> None:
    """`you win the game`, `you lose the game`, `you take an extra turn` and `you skip
    your next turn` are the same natives as `X wins the game`, ... (a rule about the
    acting player reads naturally as `you ...`)."""
    game = build(tmp_path, "you_flow", SECOND_PERSON)
    won = game.new_match(seed=1)
    take(won, "Crown")
    assert won.is_over and won.result["winner"] == "player1"
    lost = game.new_match(seed=1)
    take(lost, "Yield")
    assert lost.is_over and lost.result["winner"] == "player2"
    again = game.new_match(seed=1)
    play(again, ["Again", "pass"])
    assert seats(again)[:3] == [1, 1, 2]
    napping = game.new_match(seed=1)
    play(napping, ["Nap", "pass", "pass"])
    assert seats(napping)[:4] == [1, 2, 2, 1], "player1 skipped their next turn"
