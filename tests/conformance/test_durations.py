"""Conformance: durations of a change (docs/language.md section 3, "Durations"):
`until end of turn`, `until end of round`, `until end of STAGE` (a stage or step name),
`until your next turn` / `until your next STAGE`, `permanently`, `while cond`.

Player1 owns a Ruby (value 4, Red) on the field. Each turn runs the stages `main` (an
action window, `responses: yes`), `combat` (with the steps `strike` — a window — and
`after`) and `wrapup`; a `peek` step records the Ruby's value at chosen moments in a
shared counter per moment, so the test reads when each change was seen and when it lapsed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, take

GAME = '''
game "Durations" {
  id: durations
  players: 2
  first_player: seat1
}
enum Colour { Red; Blue }
counter pot shared { start: 0 }
counter in_strike shared { start: 0 }
counter in_after shared { start: 0 }
counter in_wrapup shared { start: 0 }
zone field shared
cardtype Gem {
  stats { value: number = 1 }
  properties { colour: Colour = Red }
  enters: field
}
card "Ruby" { type: Gem; value: 4 }
setup { let ruby = create("Ruby", field, player1) }
function ruby_value() = first(all gems).value
action go "Go" {
  by: any
  let r = first(all gems)
CHANGE
}
action fill "Fill" { increase pot by 1 }
action empty "Empty" { set pot to 0 }
action wait "Wait" { say "waiting" }
turn {
  stage main { actions: go, fill, empty; responses: yes }
  stage combat {
    step strike {
      set in_strike to ruby_value()
      actions: wait
    }
    step after { set in_after to ruby_value() }
  }
  stage wrapup { set in_wrapup to ruby_value() }
}
round {
  stage tally { say "round over" }
}
'''


def start(tmp_path: Path, change: str, name: str = "durations") -> Any:
    return build(tmp_path, name, GAME.replace("CHANGE", change)).new_match(seed=1)


def ruby(match: Any) -> Any:
    return match.effective(next(c for c in match.all_cards() if c.name == "Ruby"), "value")


def seen(match: Any) -> tuple[int, int, int]:
    return match.shared["in_strike"], match.shared["in_after"], match.shared["in_wrapup"]


def to_turn(match: Any, turn: int) -> None:
    """Pass (whoever is asked) until turn `turn` has begun and asks in its main stage."""
    while match.turn_number < turn:
        take(match, "pass")
    assert match.error is None, match.error


# ---------------------------------------------------------------- until end of ...

@covers("Duration.kind=until_end", "Duration.period", "Assign.duration")
def test_until_end_of_turn_lapses_when_the_turn_ends(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until end of turn")
    take(match, "Go", 0)
    assert ruby(match) == 6
    to_turn(match, 2)
    assert seen(match) == (6, 6, 6), "it held through every stage of the turn"
    assert ruby(match) == 4, "and lapsed when the turn ended"


@covers("Duration.kind=until_end", "Duration.period")
def test_until_end_of_round_lapses_when_the_round_ends(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until end of round")
    take(match, "Go", 0)
    to_turn(match, 2)
    assert ruby(match) == 6, "still there on the next player's turn of the round"
    to_turn(match, 3)
    assert ruby(match) == 4 and match.round_number == 2


@covers("Duration.kind=until_end", "Duration.period")
def test_until_end_of_a_stage_lapses_when_that_stage_ends(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until end of main")
    take(match, "Go", 0)
    assert ruby(match) == 6
    to_turn(match, 2)
    assert seen(match) == (4, 4, 4), "main ended before combat began"


@covers("Duration.kind=until_end", "Duration.period")
def test_until_end_of_a_stage_that_has_steps_lapses_after_its_last_step(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until end of combat")
    take(match, "Go", 0)
    to_turn(match, 2)
    assert seen(match) == (6, 6, 4)


@covers("Duration.kind=until_end", "Duration.period")
def test_until_end_of_a_step_lapses_when_that_step_ends(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until end of strike")
    take(match, "Go", 0)
    to_turn(match, 2)
    assert seen(match) == (6, 4, 4)


@covers("Duration.kind=until_end", "Assign.duration")
def test_a_property_changed_until_end_of_turn_comes_back(tmp_path: Path) -> None:
    match = start(tmp_path, "  set r.colour to Blue until end of turn")
    take(match, "Go", 0)
    card = next(c for c in match.all_cards() if c.name == "Ruby")
    assert str(match.effective(card, "colour")) == "Blue"
    to_turn(match, 2)
    assert str(match.effective(card, "colour")) == "Red"


# ---------------------------------------------------------------- until your next ...

@covers("Duration.kind=until_next", "Duration.period")
def test_until_your_next_turn_lapses_when_the_player_who_made_it_next_begins_a_turn(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until your next turn")
    take(match, "Go", 0)
    to_turn(match, 2)
    assert ruby(match) == 6, "player2's turn: not yet"
    to_turn(match, 3)
    assert ruby(match) == 4, "player1's next turn began"


@covers("Duration.kind=until_next", "Duration.period")
def test_until_your_next_turn_made_off_turn_follows_the_player_who_made_it(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until your next turn")
    take(match, "pass", 0)
    take(match, "Go", 1)  # player2 acts on player1's turn
    assert ruby(match) == 6
    to_turn(match, 2)
    assert ruby(match) == 4, "player2's next turn began"


@covers("Duration.kind=until_next", "Duration.period")
def test_until_your_next_stage_lapses_when_the_player_next_begins_it(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until your next combat")
    take(match, "Go", 0)
    assert ruby(match) == 6
    take(match, "pass", 0)
    take(match, "pass", 1)
    # made in main: the next combat player1 begins is this turn's
    assert match.shared["in_strike"] == 4 and ruby(match) == 4


@covers("Duration.kind=until_next", "Duration.period")
def test_until_your_next_stage_made_by_another_player_waits_for_their_stage(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 2 until your next combat")
    take(match, "pass", 0)
    take(match, "Go", 1)  # player2, on player1's turn
    take(match, "pass", 1)
    take(match, "pass", 0)
    assert seen(match)[0] == 6, "player1's combat is not player2's"
    to_turn(match, 2)
    assert seen(match) == (6, 6, 6) and ruby(match) == 6
    take(match, "pass", 1)
    take(match, "pass", 0)
    assert match.shared["in_strike"] == 4, "player2 began their combat"


# ---------------------------------------------------------------- permanently and while

@covers("Duration.kind=permanently", "Assign.duration")
@pytest.mark.parametrize("change", ["  increase r.value by 2 permanently", "  set r.value to 6 permanently",
                                    "  set r.value to 6"])
def test_permanently_is_the_default_and_never_lapses(tmp_path: Path, change: str) -> None:
    match = start(tmp_path, change)
    take(match, "Go", 0)
    to_turn(match, 5)
    assert ruby(match) == 6 and match.round_number == 3


@covers("Duration.kind=while", "Duration.condition")
def test_while_applies_only_while_the_condition_holds(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 100 while pot > 0")
    take(match, "Go", 0)
    assert ruby(match) == 4, "pot is 0: no change yet"
    take(match, "Fill", 0)
    assert ruby(match) == 104
    to_turn(match, 3)
    assert ruby(match) == 104, "no period: it outlasts turns and rounds"
    take(match, "Empty", 0)
    assert ruby(match) == 4


@covers("Duration.kind=while", "Duration.condition")
def test_a_while_change_once_lapsed_does_not_come_back(tmp_path: Path) -> None:
    match = start(tmp_path, "  increase r.value by 100 while pot > 0")
    take(match, "Fill", 0)
    take(match, "Go", 0)
    assert ruby(match) == 104
    take(match, "Empty", 0)
    assert ruby(match) == 4
    assert [(e["card"], e["field"]) for e in match.log if e["event"] == "lapsed"] == [("Ruby#1", "value")]
    take(match, "Fill", 0)
    assert ruby(match) == 4
