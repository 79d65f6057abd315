"""Conformance: the events the engine raises (docs/language.md §7, prelude/core.cards).

Each event is shown to fire in a played match through a trigger that counts it — the
trigger is the documented way rules hear the engine — and with the arguments it carries.
(`played` is in test_cards_and_types.py, with playing cards.)
"""

from __future__ import annotations

from pathlib import Path

from conformance.support import build, covers, emitted, take

EVENTS = '''
game "Events" {
  id: events
  players: 2
  first_player: seat1
}
counter starts shared { start: 0 }
counter turn_starts shared { start: 0 }
counter turn_ends shared { start: 0 }
counter round_starts shared { start: 0 }
counter round_ends shared { start: 0 }
counter stage_starts shared { start: 0 }
counter stage_ends shared { start: 0 }
counter rolls shared { start: 0 }
counter roll_total shared { start: 0 }
counter last_round shared { start: 0 }
counter entries shared { start: 0 }
counter exits shared { start: 0 }
counter seats shared { start: 0 }
zone hand per player { visibility: owner }
zone table shared
cardtype Chip { stats { v: number = 0 } }
card "Chip" { type: Chip }
on game_started() { increase starts by 1 }
on turn_started(p) {
  increase turn_starts by 1
  set seats to seats * 10 + p.seat
}
on turn_ended(p) { increase turn_ends by 1 }
on round_started(n) {
  increase round_starts by 1
  set last_round to n
}
on round_ended(n) { increase round_ends by 1 }
on stage_started(s) where s == "main" { increase stage_starts by 1 }
on stage_ended(s) where s == "main" { increase stage_ends by 1 }
on rolled(p, n) where p == player1 {
  increase rolls by 1
  increase roll_total by n
}
on entered(c, z) where z == table { increase entries by 1 }
on left(c, z) where z == table { increase exits by 1 }
setup {
  let c = create("Chip", hand of player1, player1)
}
action throw "Throw" {
  let r = roll 2d6
  say "rolled"
}
action put "Put" {
  choose c from a chip in your hand
  move c to table
}
action take_back "Take back" {
  choose c from a chip in table
  move c to your hand
}
turn {
  stage main { actions: throw, put, take_back }
  stage tail { say "tail" }
}
'''


@covers("prelude:game_started")
def test_game_started_fires_once_before_setup(tmp_path: Path) -> None:
    match = build(tmp_path, "events", EVENTS).new_match(seed=1)
    assert match.shared["starts"] == 1 and emitted(match, "game_started") == [[]]
    first_emit = next(e for e in match.log if e["event"] == "emit")
    assert first_emit["name"] == "game_started"
    created = next(i for i, e in enumerate(match.log) if e["event"] == "create")
    assert match.log.index(first_emit) < created, "game_started comes before the setup"


@covers("prelude:turn_started", "prelude:turn_ended", "prelude:round_started", "prelude:round_ended")
def test_turn_and_round_events_fire_with_their_player_and_number(tmp_path: Path) -> None:
    match = build(tmp_path, "events", EVENTS).new_match(seed=1)
    for _ in range(4):  # four turns: two rounds
        take(match, "pass")
    assert match.turn_number == 5
    assert match.shared["turn_starts"] == 5 and match.shared["turn_ends"] == 4
    assert match.shared["seats"] == 12121
    assert match.shared["round_starts"] == 3 and match.shared["round_ends"] == 2 and match.shared["last_round"] == 3
    assert emitted(match, "turn_ended")[:2] == [["player1"], ["player2"]]


@covers("prelude:stage_started", "prelude:stage_ended")
def test_stage_events_fire_with_the_stage_name(tmp_path: Path) -> None:
    match = build(tmp_path, "events", EVENTS).new_match(seed=1)
    assert match.shared["stage_starts"] == 1 and match.shared["stage_ends"] == 0
    take(match, "pass")
    assert match.shared["stage_starts"] == 2 and match.shared["stage_ends"] == 1
    assert [a[0] for a in emitted(match, "stage_ended")] == ["main", "tail"]


@covers("prelude:rolled")
def test_rolled_fires_with_the_roller_and_the_total(tmp_path: Path) -> None:
    match = build(tmp_path, "events", EVENTS).new_match(seed=4)
    take(match, "Throw")
    (roll,) = [e for e in match.log if e["event"] == "roll"]
    assert roll["dice"] == "2d6"
    assert emitted(match, "rolled") == [["player1", sum(roll["results"])]]
    assert match.shared["rolls"] == 1 and match.shared["roll_total"] == sum(roll["results"])


@covers("prelude:entered", "prelude:left")
def test_entered_and_left_fire_when_a_card_moves(tmp_path: Path) -> None:
    match = build(tmp_path, "events", EVENTS).new_match(seed=1)
    take(match, "Put: Chip#1")
    assert match.shared["entries"] == 1 and match.shared["exits"] == 0
    take(match, "Take back: Chip#1")
    assert match.shared["entries"] == 1 and match.shared["exits"] == 1
    assert emitted(match, "left")[-1] == ["Chip#1", "table"]
    assert emitted(match, "entered")[-1] == ["Chip#1", "hand of player1"]
