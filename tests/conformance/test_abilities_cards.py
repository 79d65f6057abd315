"""Conformance: card abilities — `effect { }`, `on EVENT(names) [where cond] { zones: ... }`,
`activate "label" { speed; condition; cost { }; body }` and keyword uses with arguments
(docs/language.md section 5, section 2 "keyword").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, descriptions, events, offered, seat_of, take

GAME = '''
game "Abilities" {
  id: abilities
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter gold per player { start: 3 }
counter charge per card { start: 0 }
status spent
zone field shared
zone hand per player { visibility: owner }
zone vault per player { visibility: hidden }
zone grave per player { visibility: public }
zone market shared { visibility: public }
cardtype Unit {
  stats { power: number = 1 }
  enters: field
}
cardtype Spell {
  stats { cost: number = 0 }
}
event pinged(amount: number, who: player)
heuristic { value: out + gold + count(all spent units) + sum(all units, power)
  + count(all units where it.charge > 0) + count(vault) + count(grave) }
DECLS
action ping "Ping" {
  by: any
  choose n from [1, 2, 3]
  emit pinged(n, you)
}
action summon "Summon" {
  choose c from a unit in your hand
  move c to field
}
action cast "Cast" {
  by: any
  speed: stack
  choose c from a spell in market
  cost { pay c.cost gold }
  resolve the effect of c
}
turn { stage main { actions: ping, summon, cast, activate; responses: yes } }
'''


def game_with(tmp_path: Path, decls: str, name: str = "abilities") -> Any:
    return build(tmp_path, name, GAME.replace("DECLS", decls))


def by_name(match: Any, name: str) -> Any:
    return next(c for c in match.all_cards() if c.name == name)


# ---------------------------------------------------------------- effect

EFFECTS = '''
keyword Echo(n: number) {
  reminder: "Then add {n}."
  effect { set out to out * 10 + n }
}
card "Spark" {
  type: Spell
  cost: 1
  effect {
    set out to out * 10 + you.seat
    increase you.gold by 5
  }
}
card "Twin" {
  type: Spell
  keywords: Echo 7
  effect { set out to out * 10 + 1 }
}
setup {
  create every copy of "Spark" in market
  create every copy of "Twin" in market
}
'''


@covers("Effect.body")
def test_an_effect_runs_when_the_card_resolves_for_the_player_who_played_it(tmp_path: Path) -> None:
    match = game_with(tmp_path, EFFECTS).new_match(seed=1)
    take(match, "pass", 0)
    take(match, "Cast: Spark#1", 1)  # player2 plays the shared Spark on player1's turn
    assert match.shared["out"] == 0 and len(match.stack_programs) == 1, "waiting on the stack"
    take(match, "pass", 0)
    take(match, "pass", 1)
    assert match.shared["out"] == 2, "`you` is player2, who played it"
    assert [p.counters["gold"] for p in match.players] == [3, 7]


@covers("Effect.body", "KeywordUse.name", "KeywordUse.args")
def test_a_keywords_effect_runs_after_the_cards_own_with_the_cards_argument(tmp_path: Path) -> None:
    match = game_with(tmp_path, EFFECTS).new_match(seed=1)
    take(match, "Cast: Twin#2", 0)
    take(match, "pass", 1)
    take(match, "pass", 0)
    assert match.shared["out"] == 17


# ---------------------------------------------------------------- triggers

TRIGGERS = '''
card "Bell" {
  type: Unit
  on pinged(k, p) where k > 1 { set out to out * 10 + k }
}
card "Gong" {
  type: Unit
  on pinged where amount == 3 and who == player2 { increase gold by 100 }
}
card "Watcher" {
  type: Unit
  on entered(c, z) where c != self and z == field {
    zones: hand
    increase self.charge by 1
  }
}
setup {
  let bell = create("Bell", field, player1)
  let gong = create("Gong", field, player1)
  let watcher = create("Watcher", hand of player1, player1)
  let other = create("Bell", hand of player1, player1)
  let buried = create("Bell", vault of player2, player2)
}
'''


@covers("Trigger.event", "Trigger.bindings", "Trigger.condition", "Trigger.body")
def test_a_trigger_binds_the_events_arguments_and_runs_where_its_condition_holds(tmp_path: Path) -> None:
    match = game_with(tmp_path, TRIGGERS).new_match(seed=1)
    for amount in (2, 1, 3):
        take(match, f"Ping: {amount}", 0)
    # the Bell on the field heard 2 and 3 (not 1); those in a hand or a hidden zone did not
    assert match.shared["out"] == 23


@covers("Trigger.event", "Trigger.condition")
def test_a_trigger_without_names_sees_the_events_parameters_by_name(tmp_path: Path) -> None:
    match = game_with(tmp_path, TRIGGERS).new_match(seed=1)
    take(match, "Ping: 3", 0)
    assert match.players[0].counters["gold"] == 3, "who is player1: the Gong's condition fails"
    take(match, "pass", 0)
    take(match, "Ping: 3", 1)
    # the Gong's controller (player1) gains: `gold` in a card's ability is its controller's
    assert match.players[0].counters["gold"] == 103


@covers("Trigger.zones")
def test_zones_name_where_a_trigger_works(tmp_path: Path) -> None:
    match = game_with(tmp_path, TRIGGERS).new_match(seed=1)
    watcher = by_name(match, "Watcher")
    take(match, "Summon: Bell#4", 0)
    # the Watcher waits in the hand (its zones: hand) and saw the Bell enter the field
    assert watcher.counters["charge"] == 1
    take(match, "Summon: Watcher#3", 0)
    take(match, "pass", 0)
    take(match, "pass", 1)
    take(match, "pass", 1)  # player2's turn ends
    # on the field its trigger no longer works (only in the hand): its own entry does not
    # count (c != self), and nothing else entered
    assert watcher.zone is not None and watcher.zone.name == "field"
    assert watcher.counters["charge"] == 1


@covers("Trigger.zones", "Trigger.event")
def test_by_default_a_trigger_works_where_the_card_type_enters_and_in_public_zones(tmp_path: Path) -> None:
    decls = '''
card "Bell" {
  type: Unit
  on pinged(k) { set out to out * 10 + k }
}
setup {
  let a = create("Bell", field, player1)
  let b = create("Bell", grave of player1, player1)
  let c = create("Bell", hand of player1, player1)
  let d = create("Bell", vault of player1, player1)
}'''
    match = game_with(tmp_path, decls).new_match(seed=1)
    take(match, "Ping: 2", 0)
    assert match.shared["out"] == 22, "the Bells on the field and in the public grave"


# ---------------------------------------------------------------- activated abilities

ACTIVATED = '''
card "Forge" {
  type: Unit
  activate "Smelt" {
    condition: not self.spent
    cost {
      pay 2 gold
      set self.spent to yes
    }
    increase self.power by 1
  }
}
card "Totem" {
  type: Unit
  activate "Chant" {
    speed: stack
    set out to out * 10 + 1
  }
  activate "Ward" {
    speed: instant
    choose n from [5, 6]
    set out to out * 10 + n
  }
}
setup {
  let forge = create("Forge", field, player1)
  let totem = create("Totem", field, player2)
}
'''


@covers("Activated.label", "Activated.condition", "Activated.cost", "Activated.body", "Activated.speed=immediate")
def test_an_immediate_ability_pays_its_cost_and_happens_at_once(tmp_path: Path) -> None:
    match = game_with(tmp_path, ACTIVATED).new_match(seed=1)
    forge = by_name(match, "Forge")
    assert "Forge: Smelt" in descriptions(match)
    take(match, "Forge: Smelt", 0)
    assert forge.base["power"] == 2 and match.players[0].counters["gold"] == 1 and forge.statuses == {"spent"}
    assert not match.stack_programs
    # its condition (not spent) now fails, and its cost could not be paid anyway
    assert "Forge: Smelt" not in descriptions(match)


@covers("Activated.cost")
def test_an_ability_whose_cost_cannot_be_paid_is_not_offered(tmp_path: Path) -> None:
    decls = ACTIVATED.replace("pay 2 gold", "pay 4 gold")
    match = game_with(tmp_path, decls).new_match(seed=1)
    assert not any(d.startswith("Forge") for d in descriptions(match))


@covers("Activated.speed=stack")
def test_a_stack_ability_waits_for_answers_and_is_offered_on_its_own_turn_only(tmp_path: Path) -> None:
    match = game_with(tmp_path, ACTIVATED).new_match(seed=1)
    assert not any(d.startswith("Totem: Chant") for _, d in offered(match))
    take(match, "pass", 0)
    # off-turn player2 holds priority: Chant (stack) is not offered, Ward (instant) is
    assert [d for d in descriptions(match) if d.startswith("Totem")] == ["Totem: Ward: 5", "Totem: Ward: 6"]
    take(match, "pass", 1)
    assert match.turn_number == 2 and seat_of(match) == 1
    take(match, "Totem: Chant", 1)
    assert match.shared["out"] == 0 and len(match.stack_programs) == 1
    assert [e["effect"] for e in events(match, "waiting")] == ["Totem: Chant"]
    assert seat_of(match) == 0, "player1 may answer"
    take(match, "pass", 0)
    take(match, "pass", 1)
    assert match.shared["out"] == 1


@covers("Activated.speed=instant", "Activated.body")
def test_an_instant_ability_answers_on_any_turn_and_resolves_first(tmp_path: Path) -> None:
    match = game_with(tmp_path, ACTIVATED).new_match(seed=1)
    take(match, "pass", 0)
    take(match, "pass", 1)
    take(match, "Totem: Chant", 1)
    take(match, "pass", 0)
    # player2 answers their own Chant with the instant Ward
    take(match, "Totem: Ward: 6", 1)
    assert len(match.stack_programs) == 2
    take(match, "pass", 0)
    take(match, "pass", 1)
    assert match.shared["out"] == 61, "last in, first out"


# ---------------------------------------------------------------- keyword uses

KEYWORDS = '''
keyword Volley(shots: number, bonus: number) {
  reminder: "Fire {shots} shots of {bonus}."
  activate "Volley" {
    repeat shots times { set out to out * 10 + bonus }
  }
}
card "Archer" {
  type: Unit
  keywords: Volley 2 3
}
card "Ballista" {
  type: Unit
  keywords: Volley 1 (4 + 1)
}
setup {
  let archer = create("Archer", field, player1)
  let ballista = create("Ballista", field, player1)
}
'''


@covers("KeywordUse.name", "KeywordUse.args")
@pytest.mark.parametrize(("ability", "expected"), [("Archer: Volley", 33), ("Ballista: Volley", 5)])
def test_a_keyword_use_binds_its_arguments_in_the_keywords_abilities(tmp_path: Path, ability: str,
                                                                     expected: int) -> None:
    match = game_with(tmp_path, KEYWORDS).new_match(seed=1)
    take(match, ability, 0)
    assert match.shared["out"] == expected


@covers("KeywordUse.name", "KeywordUse.args")
def test_keyword_value_and_has_keyword_read_a_cards_keyword_uses(tmp_path: Path) -> None:
    decls = KEYWORDS + '''
action look "Look" {
  let archer = first(all units where it.name == "Archer")
  set out to keyword_value(archer, Volley) * 10 + keyword_value(archer, Volley, 2)
  if has_keyword(archer, Volley) { increase out by 100 }
}'''
    rules = GAME.replace("DECLS", decls).replace("actions: ping,", "actions: look, ping,")
    match = build(tmp_path, "kw", rules).new_match(seed=1)
    take(match, "Look", 0)
    assert match.shared["out"] == 123
