"""Conformance: questions a cost asks (a `choose` inside `cost { }`, or in a procedure the
cost calls) — docs/language.md, "action", "In a played match".

A move is an action with its parameters (its leading `choose`s). The questions its cost
asks are asked after the move is taken, of the player each names, one at a time, each
offering only the answers from which the cost can still be paid; nothing on the table
changes until the last is answered; then the cost is paid with those answers and the
effect runs. The move is offered only when some answers pay its cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardsmith.engine import runtime as rt
from conformance.support import build, covers, descriptions, events, seat_of, take

GAME = '''
game "Paying" {
  id: paying
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
zone hand per player { visibility: owner }
zone bin shared
cardtype Coin {
  stats { value: number = 1 }
}
card "Deuce" { type: Coin; value: 2; copies: 2 }
card "Trey" { type: Coin; value: 3 }
setup {
  for each name in ["Deuce", "Deuce", "Trey"] {
    let coin = create(name, hand of player1, player1)
  }
}
# exact change: a coin worth more than is still owed may not be given
procedure pay_exactly(amount: number, payer: player = you) "pay exactly {amount}" "{payer} pays exactly {amount}" {
  let owed = amount
  while owed > 0 {
    choose c from a coin in hand of payer where it.value <= owed by payer
    set owed to owed - c.value
    move c to bin
  }
}
action buy "Buy" {
  choose n from [3, 4, 6, 8]
  cost { pay exactly n }
  increase out by n
}
turn { stage main { actions: buy } }
'''


def names(match: Any, zone: str, seat: int | None = None) -> list[str]:
    owner = None if seat is None else match.players[seat]
    return [c.name for c in match.zone(zone, owner).cards]


@covers("ActionDecl.cost")
def test_a_move_is_its_parameters_and_is_offered_when_some_answers_pay(tmp_path: Path) -> None:
    """One move per parameter, not per way of paying; 8 (more than the hand) and 6 (no
    exact change: 2 + 2 is 4, 2 + 3 is 5, 2 + 2 + 3 is 7) are not offered."""
    match = build(tmp_path, "paying", GAME).new_match(seed=1)
    assert descriptions(match) == ["Buy: 3", "Buy: 4", "pass"]


@covers("ActionDecl.cost")
def test_the_cost_questions_come_after_the_move_offering_only_answers_that_can_pay(tmp_path: Path) -> None:
    match = build(tmp_path, "paying", GAME).new_match(seed=1)
    take(match, "Buy: 4", 0)
    # a Trey first would leave 1 owed that no coin pays: only the Deuces are offered
    assert seat_of(match) == 0
    assert [d.split("#")[0] for d in descriptions(match)] == ["choose Deuce", "choose Deuce"]
    pending = match.pending
    assert isinstance(pending, rt.Choose) and pending.paying == "buy"
    # nothing has changed yet: the coins are in the hand and nothing is logged but the move
    assert names(match, "hand", 0) == ["Deuce", "Deuce", "Trey"] and names(match, "bin") == []
    assert [e["event"] for e in match.log[-1:]] == ["action"] and match.shared["out"] == 0
    match.apply(match.legal_actions()[0])
    # the second Deuce is the only answer left: asked of nobody, the cost is paid
    assert names(match, "bin") == ["Deuce", "Deuce"] and names(match, "hand", 0) == ["Trey"]
    assert match.shared["out"] == 4
    assert [e["description"].split("#")[0] for e in events(match, "action")] == ["Buy: 4", "choose Deuce"]


@covers("ActionDecl.cost")
def test_a_single_way_to_pay_is_taken_without_a_question(tmp_path: Path) -> None:
    match = build(tmp_path, "paying", GAME).new_match(seed=1)
    take(match, "Buy: 3", 0)
    assert names(match, "bin") == ["Trey"] and match.shared["out"] == 3
    assert [e["description"] for e in events(match, "action")] == ["Buy: 3"]


@covers("ActionDecl.cost")
def test_replaying_the_answers_gives_the_same_match(tmp_path: Path) -> None:
    """The questions are decisions like any other: the history replays them."""
    game = build(tmp_path, "paying", GAME)
    match = game.new_match(seed=1)
    take(match, "Buy: 4", 0)
    match.apply(match.legal_actions()[1])
    copy = type(match).restore(game, match.snapshot())
    assert copy.log == match.log


@covers("ActionDecl.cost", "StageDecl.simultaneous")
def test_a_simultaneous_pick_says_how_it_pays_when_it_is_made(tmp_path: Path) -> None:
    """In a simultaneous stage the cost's questions are asked with the pick, sealed with
    it: nobody answers them after seeing the others' picks."""
    rules = GAME.replace("turn { stage main { actions: buy } }",
                         "turn { stage main { simultaneous: yes; actions: buy } }")
    match = build(tmp_path, "sealed", rules).new_match(seed=1)
    take(match, "Buy: 4", 0)
    assert seat_of(match) == 0 and match.deciding_together  # still sealed: paying, then player2 picks
    match.apply(match.legal_actions()[1])
    assert names(match, "bin") == ["Deuce", "Deuce"] and match.shared["out"] == 4
