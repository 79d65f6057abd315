"""Conformance: `enum`, `counter` and `status` declarations (docs/language.md §2), played."""

from __future__ import annotations

from pathlib import Path

from cardsmith.engine.flow import PlayedMatch
from conformance.support import build, counter, covers, descriptions, diagnostics, panel, screen, take

ENUMS = '''
game "Enums" {
  id: enums
  players: 2
  first_player: seat1
}
enum Metal {
  gold   { worth: 5; label: "Gold" }
  silver { worth: 2; label: "Silver" }
  tin    { worth: 0; label: "Tin" }
}
enum Shape { round; square }
counter wealth per player { start: 0 }
counter golds per player { start: 0 }
zone hand per player { visibility: owner }
cardtype Coin {
  stats { v: number = 0 }
  properties { metal: Metal; shape: Shape = round }
}
card "Sovereign" { type: Coin; metal: gold; shape: square }
card "Shilling" { type: Coin; metal: silver }
card "Button" { type: Coin; metal: tin }
setup {
  for each name in catalog() { let c = create(name, hand of player1, player1) }
}
action cash "Cash in" {
  choose c from a coin in your hand
  move c to hand of opponent
  increase wealth by c.metal.worth
  if c.metal == gold and c.shape == Shape.square { gain Metal.gold.worth golds }
}
turn {
  stage main { actions: cash }
}
'''


@covers("EnumDecl.name", "EnumDecl.values", "EnumValue.name", "EnumValue.properties")
def test_enum_values_carry_their_properties(tmp_path: Path) -> None:
    game = build(tmp_path, "enums", ENUMS)
    match = game.new_match(seed=1)
    assert descriptions(match) == [
        "Cash in: Sovereign#1", "Cash in: Shilling#2", "Cash in: Button#3", "pass"]
    take(match, "Cash in: Shilling#2")
    assert counter(match, 0, "wealth") == 2 and counter(match, 0, "golds") == 0
    take(match, "Cash in: Sovereign#1")
    # card.metal.worth read the value's property; `gold` (bare) and Shape.square compared
    assert counter(match, 0, "wealth") == 7 and counter(match, 0, "golds") == 5
    # every value must give the same properties
    bad = diagnostics(tmp_path, "bad", ENUMS.replace('tin    { worth: 0; label: "Tin" }', 'tin    { worth: 0 }'))
    assert bad == ["'Metal.tin' does not give label"]


COUNTERS = '''
game "Counters" {
  id: counters
  players: 2
  first_player: seat1
}
param base: number = 2
counter coins per player { start: base + 1; min: 0; max: 5 }
counter heat per card { start: 1; min: 1 }
counter pool shared { start: 10; max: 12 }
counter spurts per player { start: 0; reset: end of turn }
counter rounds_seen shared { start: 0; reset: start of round }
counter round_marks per player { start: 0; reset: end of round }
counter tally per player { start: 0; reset: never }
status tapped { reset: end of turn }
status marked
zone table shared { visibility: public }
cardtype Token { stats { v: number = 0 } }
card "Stone" { type: Token }
setup {
  let a = create("Stone", table, player1)
  let b = create("Stone", table, player2)
}
action earn "Earn 4" { gain 4 coins }
action spend "Spend 9" { decrease coins by 9 }
action fill "Fill" { increase pool by 5 }
action heat "Heat" {
  choose c from a token in table
  increase c.heat by 2
}
action cool "Cool" {
  choose c from a token in table
  decrease c.heat by 9
}
action tap "Tap" {
  choose c from a token in table where not it.tapped
  set c.tapped to yes
  set c.marked to yes
}
action spurt "Spurt" {
  gain 1 spurts
  gain 1 tally
  increase rounds_seen by 1
  gain 1 round_marks
}
turn {
  stage main { actions: earn, spend, fill, heat, cool, tap, spurt }
}
'''


def stones(match: PlayedMatch) -> list[object]:
    return [c.counters["heat"] for c in match.zone("table", None).cards]


@covers("CounterDecl.name", "CounterDecl.start", "CounterDecl.min", "CounterDecl.max",
        "CounterDecl.scope=player", "CounterDecl.scope=card", "CounterDecl.scope=shared")
def test_counters_start_and_are_clamped_per_player_per_card_and_shared(tmp_path: Path) -> None:
    game = build(tmp_path, "counters", COUNTERS)
    match = game.new_match(seed=1)
    # start is an expression (base + 1); each player and each card has its own
    assert [counter(match, s, "coins") for s in (0, 1)] == [3, 3]
    assert stones(match) == [1, 1] and match.shared["pool"] == 10
    take(match, "Earn 4")
    assert [counter(match, s, "coins") for s in (0, 1)] == [5, 3], "max: 5 clamps; player2's is their own"
    take(match, "Spend 9")
    assert counter(match, 0, "coins") == 0, "min: 0 clamps"
    take(match, "Fill")
    assert match.shared["pool"] == 12, "a shared counter's max clamps"
    take(match, "Heat: Stone#1")
    assert stones(match) == [3, 1], "a card counter is per card"
    take(match, "Cool: Stone#2")
    assert stones(match) == [3, 1], "min: 1 clamps a card counter"
    observed = match.observation(1)
    assert observed["shared"] == {"pool": 12, "rounds_seen": 0}
    assert [p["counters"]["coins"] for p in observed["players"]] == [0, 3]


@covers("CounterDecl.reset", "StatusDecl.name", "StatusDecl.reset")
def test_counters_and_statuses_return_to_their_start_at_their_reset_time(tmp_path: Path) -> None:
    game = build(tmp_path, "counters", COUNTERS)
    match = game.new_match(seed=1)
    take(match, "Spurt")
    take(match, "Tap: Stone#1")
    stone1, stone2 = match.zone("table", None).cards
    assert counter(match, 0, "spurts") == 1 and stone1.statuses == {"tapped", "marked"}
    assert match.shared["rounds_seen"] == 1 and counter(match, 0, "round_marks") == 1
    take(match, "pass")
    # end of player1's turn: their `end of turn` counter and the `end of turn` status are back
    assert match.turn_number == 2
    assert counter(match, 0, "spurts") == 0 and counter(match, 0, "tally") == 1
    assert stone1.statuses == {"marked"}, "a status without reset keeps its value"
    assert match.shared["rounds_seen"] == 1 and counter(match, 0, "round_marks") == 1, "not yet the round's end"
    take(match, "Spurt")
    take(match, "Tap: Stone#2")
    assert counter(match, 1, "spurts") == 1 and counter(match, 0, "spurts") == 0
    take(match, "pass")
    # round 2 begins: `end of round` (every player's) and `start of round` counters reset
    assert match.turn_number == 3 and match.round_number == 2
    assert counter(match, 0, "round_marks") == 0 and counter(match, 1, "round_marks") == 0
    assert match.shared["rounds_seen"] == 0
    assert counter(match, 0, "tally") == 1 and counter(match, 1, "tally") == 1, "reset: never"
    assert stone2.statuses == {"marked"}


@covers("CounterDecl.label", "StatusDecl.label")
def test_counter_and_status_labels_are_the_names_shown_to_players(tmp_path: Path) -> None:
    rules = COUNTERS.replace("counter tally per player { start: 0; reset: never }",
                             'counter tally per player { start: 0; reset: never; label: "Victory Tally" }')
    rules = rules.replace("counter heat per card { start: 1; min: 1 }",
                          'counter heat per card { start: 1; min: 1; label: "Heat" }')
    rules = rules.replace("counter pool shared { start: 10; max: 12 }",
                          'counter pool shared { start: 10; max: 12; label: "Common Pool" }')
    rules = rules.replace("status marked", 'status marked { label: "Marked for Death" }')
    game = build(tmp_path, "labels", rules)
    match = game.new_match(seed=1)
    take(match, "Spurt")
    take(match, "Tap: Stone#1")
    shown = screen(match)
    lines = [" ".join(line.split()) for line in shown.splitlines()]
    # the play screen names them by label; one without a label keeps its identifier
    assert "player1 (you) coins 3, spurts 1, round_marks 1, Victory Tally 1" in lines
    assert "table Common Pool 10, rounds_seen 1" in lines
    assert panel(shown, "table") == ["Stone #1  v 0  (Marked for Death, tapped, Heat 1)", "Stone #2  v 0  (Heat 1)"]
    # rules still name them by identifier; the observation (for programs) keeps identifiers too
    assert counter(match, 0, "tally") == 1 and match.observation(0)["players"][0]["counters"]["tally"] == 1
