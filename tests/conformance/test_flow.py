"""Conformance of the played flow: priority and the stack, who may take what, activated
abilities, simultaneous stages and blocks, turn order, stage and step properties, card
effects, rounds, determinism and counter resets — played through new_match →
legal_actions → apply.

Each test writes a tiny game (a few lines of .cards) into tmp_path and drives a match by
hand: which player is offered what, on whose turn, with what waiting on the stack, and
what the log and the table say afterwards. No scenarios: the played match is the
semantics (DESIGN.md, "Engine shape").
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import ActionWindow
from conformance.support import (
    build,
    counter,
    covers,
    emitted,
    events,
    offered,
    seat_of,
    stage_of,
    take,
    turn_order,
)

# ---------------------------------------------------------------- 1. priority

PRIORITY = '''
game "Priority" {
  id: priority
  players: 2..3
  first_player: seat1
}
counter order shared { start: 0 }
counter pokes per player { start: 0 }
action trick "Trick" {
  by: any
  speed: stack
  set order to order * 10 + you.seat
}
action poke "Poke" {
  by: current
  speed: immediate
  gain 1 pokes
}
turn {
  stage main { actions: trick, poke; responses: yes }
}
'''


@covers("StageDecl.responses", "ActionDecl.by=any", "ActionDecl.by=current", "ActionDecl.speed=stack",
        "ActionDecl.speed=immediate", "StageDecl.actions")
def test_responses_yes_gives_the_other_player_priority_on_the_current_players_turn(tmp_path: Path) -> None:
    game = build(tmp_path, "priority", PRIORITY)
    match = game.new_match(seed=1)
    assert match.current is match.players[0]
    # the current player holds priority first: both actions and pass
    assert offered(match) == [(0, "Trick"), (0, "Poke"), (0, "pass")]
    take(match, "pass", 0)
    # player2 now holds priority on player1's turn: the `by: any` action, not the `by: current` one
    assert match.current is match.players[0] and match.turn_number == 1
    assert offered(match) == [(1, "Trick"), (1, "pass")]
    take(match, "Trick", 1)
    assert [e["player"] for e in events(match, "waiting")] == ["player2"]
    # after the off-turn trick priority passes on; both pass in a row and it resolves
    take(match, "pass", 0)
    assert seat_of(match) == 1
    take(match, "pass", 1)
    assert match.shared["order"] == 2 and not match.stack_programs
    # priority came back to the current player, still on turn 1
    assert match.turn_number == 1 and offered(match) == [(0, "Trick"), (0, "Poke"), (0, "pass")]


@covers("ActionDecl.speed=stack", "StageDecl.responses")
def test_a_stack_action_can_be_answered_and_the_stack_resolves_last_in_first_out(tmp_path: Path) -> None:
    game = build(tmp_path, "priority", PRIORITY)
    match = game.new_match(seed=1)
    take(match, "Trick", 0)
    # paid and waiting: priority passed to player2, who may respond
    assert len(match.stack_programs) == 1 and match.shared["order"] == 0
    assert offered(match) == [(1, "Trick"), (1, "pass")]
    take(match, "Trick", 1)
    assert len(match.stack_programs) == 2 and match.shared["order"] == 0
    assert [w["player"] for w in match.observation(0)["waiting"]] == ["player1", "player2"]
    # player2's trick passed priority back to player1; nobody acts: both pass in a row
    assert offered(match) == [(0, "Trick"), (0, "pass")], "a `by: current` action waits for an empty stack"
    take(match, "pass", 0)
    before = len(match.log)
    take(match, "pass", 1)
    resolved = match.log[before:]
    assert [e["event"] for e in resolved if e["event"] in ("resolve", "counter")] == [
        "resolve", "counter", "resolve", "counter"]
    assert [e["value"] for e in resolved if e["event"] == "counter"] == [2, 21], "player2's answer resolves first"
    assert match.shared["order"] == 21 and not match.stack_programs
    # priority returns to the current player with the stack empty
    assert match.turn_number == 1 and seat_of(match) == 0
    take(match, "Poke", 0)
    assert counter(match, 0, "pokes") == 1


@covers("StageDecl.responses", "ActionDecl.by=any")
def test_without_responses_the_others_get_priority_only_while_the_stack_is_busy(tmp_path: Path) -> None:
    game = build(tmp_path, "quiet", PRIORITY.replace("; responses: yes", ""))
    match = game.new_match(seed=1)
    take(match, "pass", 0)
    # the window closed: player2 was never asked on player1's turn
    assert match.turn_number == 2 and match.current is match.players[1]
    assert offered(match) == [(1, "Trick"), (1, "Poke"), (1, "pass")]
    assert all(e["player"] == "player1" for e in events(match, "action"))
    # player2's trick waits: now player1 gets priority on player2's turn, to respond
    take(match, "Trick", 1)
    assert offered(match) == [(0, "Trick"), (0, "pass")]
    take(match, "pass", 0)
    assert offered(match) == [(1, "Trick"), (1, "pass")] and match.shared["order"] == 0
    take(match, "pass", 1)
    # everyone passed in a row: it resolved and priority is back with player2, the stack empty
    assert match.shared["order"] == 2 and match.turn_number == 2
    assert offered(match) == [(1, "Trick"), (1, "Poke"), (1, "pass")]


@covers("ActionDecl.speed=immediate", "ActionDecl.by=any")
def test_an_immediate_off_turn_action_keeps_priority_and_breaks_the_row_of_passes(tmp_path: Path) -> None:
    wave = 'action wave "Wave" {\n  by: any\n  speed: immediate\n  gain 1 pokes\n}\n'
    rules = PRIORITY.replace("turn {", wave + "turn {").replace("trick, poke;", "trick, poke, wave;")
    game = build(tmp_path, "wave", rules)
    match = game.new_match(seed=1)
    take(match, "pass", 0)
    assert offered(match) == [(1, "Trick"), (1, "Wave"), (1, "pass")]
    take(match, "Wave", 1)
    # done at once, on player1's turn, and player2 still holds priority
    assert counter(match, 1, "pokes") == 1 and not match.stack_programs
    assert offered(match) == [(1, "Trick"), (1, "Wave"), (1, "pass")]
    take(match, "pass", 1)
    # player1's earlier pass no longer counts: they are asked again before the window closes
    assert match.turn_number == 1 and seat_of(match) == 0
    take(match, "pass", 0)
    assert match.turn_number == 2 and seat_of(match) == 1


@covers("ActionDecl.speed=stack", "GameDecl.players_max")
def test_with_three_players_the_stack_waits_until_all_three_pass_in_a_row(tmp_path: Path) -> None:
    game = build(tmp_path, "priority", PRIORITY)
    match = game.new_match(seed=1, players=3)
    take(match, "Trick", 0)
    assert seat_of(match) == 1
    take(match, "pass", 1)
    assert seat_of(match) == 2 and match.stack_programs
    take(match, "Trick", 2)  # an answer breaks the row of passes
    take(match, "pass", 0)
    take(match, "pass", 1)
    assert seat_of(match) == 2 and len(match.stack_programs) == 2, "two passes in a row are not enough"
    take(match, "pass", 2)
    assert match.shared["order"] == 31 and not match.stack_programs and seat_of(match) == 0
    # with the stack empty, each player in turn order gets priority before the window closes
    take(match, "pass", 0)
    take(match, "pass", 1)
    assert seat_of(match) == 2 and match.turn_number == 1
    take(match, "pass", 2)
    assert match.turn_number == 2 and seat_of(match) == 1


END_WAITS = '''
game "Ending" {
  id: ending
  players: 2
  first_player: seat1
}
counter tricks per player { start: 0 }
counter laters per player { start: 0 }
action trick "Trick" {
  by: any
  speed: stack
  gain 1 tricks
}
action quit "Quit" {
  by: current
  speed: immediate
  end the turn
}
action quit_now "Quit at once" {
  by: current
  speed: instant
  end the turn
}
turn {
  stage main { actions: trick, quit, quit_now; responses: yes }
  stage later { gain 1 laters }
}
'''


@covers("prelude:end_turn", "ActionDecl.speed=instant")
def test_end_the_turn_takes_effect_once_nothing_waits_on_the_stack(tmp_path: Path) -> None:
    game = build(tmp_path, "ending", END_WAITS)
    match = game.new_match(seed=1)
    take(match, "pass", 0)
    take(match, "Trick", 1)
    # player1 answers player2's trick by ending the turn (an instant, so it waits too)
    assert offered(match) == [(0, "Trick"), (0, "Quit at once"), (0, "pass")]
    take(match, "Quit at once", 0)
    take(match, "pass", 1)
    take(match, "pass", 0)
    # the end resolved first, but player2's trick still resolved before the turn ended
    assert [e["action"] for e in events(match, "resolve")] == ["quit_now", "trick"]
    assert counter(match, 1, "tricks") == 1 and not match.stack_programs
    assert match.turn_number == 2 and counter(match, 0, "laters") == 0
    # an immediate end with the stack empty ends it at once; `later` is passed over again
    take(match, "Quit", 1)
    assert match.turn_number == 3 and counter(match, 1, "laters") == 0


# ---------------------------------------------------------------- 2. who may take what

WHO = '''
game "Who" {
  id: who
  players: 2
  first_player: seat1
}
counter uses per player { start: 0 }
action trick "Trick" {
  by: any
  speed: stack
  gain 1 uses
}
action answer "Answer" {
  by: responder
  speed: stack
  gain 1 uses
}
action poke "Poke" {
  by: current
  speed: immediate
  gain 1 uses
}
action quick "Quick" {
  by: current
  speed: instant
  gain 1 uses
}
action flash "Flash" {
  by: any
  speed: instant
  gain 1 uses
}
turn {
  stage main { actions: trick, answer, poke, quick; responses: yes }
  stage later { actions: poke }
}
'''


@covers("ActionDecl.by=responder", "ActionDecl.by=current", "ActionDecl.speed=instant")
def test_by_responder_current_and_instant_offers(tmp_path: Path) -> None:
    game = build(tmp_path, "who", WHO)
    match = game.new_match(seed=1)
    # empty stack, own turn: no `by: responder` action; `flash` is offered though main does not list it
    assert offered(match) == [(0, "Trick"), (0, "Poke"), (0, "Quick"), (0, "Flash"), (0, "pass")]
    take(match, "pass", 0)
    # off-turn, empty stack: only the `by: any` actions (Flash is instant and `by: any`)
    assert offered(match) == [(1, "Trick"), (1, "Flash"), (1, "pass")]
    take(match, "Trick", 1)
    # something waits: `by: responder` is offered; `by: current` only when instant
    assert offered(match) == [(0, "Trick"), (0, "Answer"), (0, "Quick"), (0, "Flash"), (0, "pass")]
    take(match, "Answer", 0)
    assert offered(match) == [(1, "Trick"), (1, "Answer"), (1, "Flash"), (1, "pass")]
    take(match, "Flash", 1)
    assert len(match.stack_programs) == 3, "an instant action waits on the stack too"
    take(match, "pass", 0)
    take(match, "pass", 1)
    assert not match.stack_programs and counter(match, 0, "uses") == 1 and counter(match, 1, "uses") == 2
    # back to player1 with the stack empty: the responder action is gone again
    assert offered(match) == [(0, "Trick"), (0, "Poke"), (0, "Quick"), (0, "Flash"), (0, "pass")]
    take(match, "pass", 0)
    take(match, "pass", 1)
    # stage `later` lists only poke: the instant Quick and Flash are offered there all the same
    assert stage_of(match) == "later" and match.turn_number == 1
    assert offered(match) == [(0, "Poke"), (0, "Quick"), (0, "Flash"), (0, "pass")]
    take(match, "Flash", 0)
    # player2 answers in a stage without `responses: yes` (something waits): Flash, not the
    # `by: current` Quick
    assert stage_of(match) == "later" and offered(match) == [(1, "Flash"), (1, "pass")]


# ---------------------------------------------------------------- 3. activated abilities

ABILITIES = '''
game "Abilities" {
  id: abilities
  players: 2
  first_player: seat1
}
counter gold per player { start: 1 }
counter forged per player { start: 0 }
counter hurt per card { start: 0 }
status exhausted
zone hand per player { visibility: owner }
zone field shared { visibility: public }
cardtype Unit {
  stats { power: number = 1 }
  enters: field
}
keyword Zap(n: number) {
  reminder: "Any time: deal {n} to another unit."
  activate "Zap" {
    speed: instant
    choose t from target unit in field where it != self
    increase t.hurt by n
  }
}
card "Smith" {
  type: Unit
  activate "Forge" {
    cost { pay 1 gold }
    gain 1 forged
  }
}
card "Sniper" {
  type: Unit
  activate "Shoot" {
    speed: instant
    condition: not self.exhausted
    cost { set self.exhausted to yes }
    choose t from target unit in field where it != self
    increase t.hurt by 1
  }
}
card "Zapper" {
  type: Unit
  keywords: Zap 3
}
setup {
  let smith1 = create("Smith", field, player1)
  let sniper = create("Sniper", field, player1)
  let spare = create("Smith", hand of player1, player1)
  let smith2 = create("Smith", field, player2)
  let zapper = create("Zapper", field, player2)
}
turn {
  stage main { actions: activate; responses: yes }
  stage later { actions: pass }
}
'''


@covers("Activated.speed=instant", "Activated.speed=immediate", "Activated.condition", "Activated.cost",
        "Activated.label", "Activated.body", "KeywordDecl.abilities", "KeywordUse.args")
def test_activated_abilities_follow_who_may_take_what(tmp_path: Path) -> None:
    game = build(tmp_path, "abilities", ABILITIES)
    match = game.new_match(seed=1)
    cards = {c.id: c for c in match.all_cards()}
    smith1, sniper, spare, smith2, zapper = (cards[i] for i in range(1, 6))
    assert spare.zone is not None and spare.zone.name == "hand"
    # player1's turn, a stage listing `activate`: the non-instant Forge of the Smith in play
    # (not of the one in hand), and one Shoot per legal target (its leading choose)
    assert offered(match) == [(0, "Smith: Forge"), (0, "Sniper: Shoot: Smith#1"), (0, "Sniper: Shoot: Smith#4"),
                              (0, "Sniper: Shoot: Zapper#5"), (0, "pass")]
    forge = match.legal_actions()[0]
    (kind, card, _key), choices = forge.payload
    assert kind == "activate" and card is smith1 and choices == []
    shoot = take(match, "Sniper: Shoot: Zapper#5", 0)
    assert shoot.payload[1] == [zapper] and sniper.statuses == {"exhausted"}
    # instant: paid (exhausted), then waiting; player2 answers with the keyword's ability,
    # off-turn — but not with their Smith's Forge (not instant, not their turn)
    assert [e["effect"] for e in events(match, "waiting")] == ["Sniper: Shoot"]
    zaps = [(1, "Zapper: Zap: Smith#1"), (1, "Zapper: Zap: Sniper#2"), (1, "Zapper: Zap: Smith#4"), (1, "pass")]
    assert offered(match) == zaps
    take(match, "Zapper: Zap: Sniper#2", 1)
    assert len(match.stack_programs) == 2
    # player1 holds priority with the stack busy: the Forge (not instant) is not offered even
    # though it is affordable, and the exhausted Sniper's condition fails — so only pass,
    # which passes by itself; player2 is asked again
    assert offered(match) == zaps and counter(match, 0, "gold") == 1
    take(match, "pass", 1)
    # both passed in a row: the effects resolve, last in first out
    assert [e["action"] for e in events(match, "resolve")] == ["Zapper: Zap", "Sniper: Shoot"]
    assert sniper.counters["hurt"] == 3, "Zap 3 deals the keyword's argument"
    assert zapper.counters["hurt"] == 1 and smith2.counters["hurt"] == 0
    # back with player1, the stack empty: the Forge is offered again; immediate, so it is
    # done at once; its cost (1 gold) is spent, so it is not offered again
    assert offered(match) == [(0, "Smith: Forge"), (0, "pass")]
    take(match, "Smith: Forge", 0)
    assert counter(match, 0, "forged") == 1 and counter(match, 0, "gold") == 0 and not match.stack_programs
    # player1 has nothing left (that pass went by itself): player2 holds priority on player1's turn
    assert match.current is match.players[0] and offered(match) == zaps
    take(match, "pass", 1)
    # player1's `later` window (no `responses`) has only pass: it passed by itself, asking
    # nobody; on player2's turn their non-instant Forge is offered in main (lists activate)
    assert match.turn_number == 2 and match.current is match.players[1] and stage_of(match) == "main"
    assert offered(match)[0] == (1, "Smith: Forge")
    take(match, "pass", 1)
    # stage `later` does not list activate: no Forge, but the instant Zap is offered
    assert stage_of(match) == "later"
    assert offered(match) == [(1, "Zapper: Zap: Smith#1"), (1, "Zapper: Zap: Sniper#2"),
                              (1, "Zapper: Zap: Smith#4"), (1, "pass")]


IN_PLAY = '''
game "In play" {
  id: in_play
  players: 2
  first_player: seat1
}
counter blessed per player { start: 0 }
zone hand per player { visibility: owner }
zone field shared { visibility: public }
zone grave per player { visibility: public }
zone vault per player { visibility: hidden }
cardtype Unit {
  stats { power: number = 1 }
  enters: field
}
card "Priest" {
  type: Unit
  activate "Bless" {
    speed: stack
    gain 1 blessed
  }
}
card "Ghost" {
  type: Unit
  activate "Haunt" {
    speed: instant
    gain 1 blessed
  }
}
setup {
  let priest = create("Priest", field, player1)
  let public = create("Ghost", grave of player2, player2)
  let hidden = create("Ghost", vault of player2, player2)
  let held = create("Ghost", hand of player2, player2)
}
turn {
  stage main { actions: activate }
}
'''


@covers("Activated.speed=stack", "CardTypeDecl.enters")
def test_abilities_work_where_the_card_is_in_play_and_a_stack_ability_can_be_answered(tmp_path: Path) -> None:
    game = build(tmp_path, "in_play", IN_PLAY)
    match = game.new_match(seed=1)
    assert offered(match) == [(0, "Priest: Bless"), (0, "pass")]
    take(match, "Priest: Bless", 0)
    # a `speed: stack` ability waits; the other player may answer — with the Ghost in a
    # public zone (in play), not with those in a hidden zone or in hand
    assert [e["effect"] for e in events(match, "waiting")] == ["Priest: Bless"]
    assert counter(match, 0, "blessed") == 0
    assert offered(match) == [(1, "Ghost: Haunt"), (1, "pass")]
    take(match, "Ghost: Haunt", 1)
    # player1 may not Bless again while something waits (not instant): that pass went by
    # itself, and player2 is asked again
    assert seat_of(match) == 1 and len(match.stack_programs) == 2
    take(match, "pass", 1)
    assert counter(match, 0, "blessed") == 1 and counter(match, 1, "blessed") == 1
    assert [e["action"] for e in events(match, "resolve")] == ["Ghost: Haunt", "Priest: Bless"]


# ---------------------------------------------------------------- 4. simultaneous: yes

SIMULTANEOUS = '''
game "Simultaneous" {
  id: simultaneous
  players: 2
  first_player: seat1
}
counter coins shared { start: 1 }
counter stamped shared { start: 0 }
counter claims per player { start: 0 }
zone pool shared { visibility: public }
zone hand per player { visibility: owner }
cardtype Gem {
  stats { value: number = 1 }
}
card "Ruby" { type: Gem }
card "Opal" { type: Gem }
setup {
  create every copy of "Ruby" in pool
  create every copy of "Opal" in pool
}
action claim "Claim the coin" {
  by: any
  cost { pay 1 coins }
  gain 1 claims
}
action grab "Grab a gem" {
  by: any
  choose g from a gem in pool
  move g to your hand
}
action stamp "Stamp" {
  by: any
  set stamped to you.seat
}
turn {
  stage pick { actions: claim, grab, stamp; simultaneous: yes }
}
'''


@covers("StageDecl.simultaneous")
def test_a_simultaneous_stage_takes_picks_against_one_position(tmp_path: Path) -> None:
    game = build(tmp_path, "simultaneous", SIMULTANEOUS)
    match = game.new_match(seed=1)
    menu = ["Claim the coin", "Grab a gem: Ruby#1", "Grab a gem: Opal#2", "Stamp", "pass"]
    assert offered(match) == [(0, d) for d in menu]
    take(match, "Claim the coin", 0)
    # nothing is carried out yet, and player2 gets the very same position to pick from
    assert match.shared["coins"] == 1 and counter(match, 0, "claims") == 0
    for other in ("pass", "Grab a gem: Ruby#1"):
        instead = game.new_match(seed=1)
        take(instead, other, 0)
        assert offered(instead) == offered(match) == [(1, d) for d in menu]
    # a search copy seen from player2's seat guesses player1's sealed pick again
    guesses = {match.replica(viewer=1, rng=random.Random(seed)).moves[-1][2] for seed in range(8)}
    assert len(guesses) >= 2 and guesses <= set(menu), guesses
    assert match.replica().moves[-1][2] == "Claim the coin"
    take(match, "Claim the coin", 1)
    # now carried out in turn order: player1 pays the only coin; player2's pick can no
    # longer be paid and is dropped
    assert counter(match, 0, "claims") == 1 and counter(match, 1, "claims") == 0 and match.shared["coins"] == 0
    assert [(e["player"], e["move"]) for e in events(match, "pick_dropped")] == [("player2", "claim")]
    assert events(match, "revealed")


@covers("StageDecl.simultaneous")
def test_simultaneous_picks_are_carried_out_in_turn_order_from_the_current_player(tmp_path: Path) -> None:
    game = build(tmp_path, "simultaneous", SIMULTANEOUS)
    match = game.new_match(seed=1)
    take(match, "Stamp", 0)
    take(match, "Stamp", 1)
    assert match.shared["stamped"] == 2, "player1's stamp first, then player2's"
    # player2's turn: player2 picks first and is carried out first
    assert match.current is match.players[1] and seat_of(match) == 1
    take(match, "Stamp", 1)
    assert seat_of(match) == 0 and match.shared["stamped"] == 2
    take(match, "Stamp", 0)
    assert match.shared["stamped"] == 1
    assert [e["player"] for e in events(match, "action")] == ["player1", "player2", "player2", "player1"]


@covers("StageDecl.simultaneous")
def test_a_simultaneous_pick_of_a_card_already_taken_is_dropped(tmp_path: Path) -> None:
    game = build(tmp_path, "simultaneous", SIMULTANEOUS)
    match = game.new_match(seed=1)
    take(match, "Grab a gem: Ruby#1", 0)
    take(match, "Grab a gem: Ruby#1", 1)
    ruby = next(c for c in match.all_cards() if c.name == "Ruby")
    # player1's grab is carried out first; player2's chose a gem no longer in the pool
    assert ruby.zone is match.zone("hand", match.players[0])
    assert [(e["player"], e["move"]) for e in events(match, "pick_dropped")] == [("player2", "grab")]


# ---------------------------------------------------------------- 5. simultaneously { }

SEALED = '''
game "Sealed" {
  id: sealed
  players: 2
  first_player: seat1
}
zone hand per player { visibility: owner }
zone table per player { visibility: public }
cardtype Chip {
  stats { value: number = 0 }
}
card "Red" { type: Chip }
card "Blue" { type: Chip }
card "Green" { type: Chip }
setup {
  for each p in players {
    let r = create("Red", hand of p, p)
    let b = create("Blue", hand of p, p)
    let g = create("Green", hand of p, p)
  }
}
turn {
  stage play {
    simultaneously {
      for each p in players {
        choose c from a chip in hand of p by p
        move c to table of p
      }
    }
  }
}
'''


def table_view(match: PlayedMatch, viewer: int, owner: str) -> list[dict[str, Any]]:
    view = match.observation(viewer)
    return next(z["cards"] for z in view["zones"] if z["zone"] == "table" and z["owner"] == owner)


def on_table(match: PlayedMatch, seat: int) -> list[str]:
    return [c.name for c in match.zone("table", match.players[seat]).cards]


@covers("Simultaneously.body", "Choose.by")
def test_choices_in_a_simultaneously_block_are_sealed_until_it_ends(tmp_path: Path) -> None:
    game = build(tmp_path, "sealed", SEALED)
    match = game.new_match(seed=1)
    assert offered(match) == [(0, "choose Red#1 (c)"), (0, "choose Blue#2 (c)"), (0, "choose Green#3 (c)")]
    take(match, "choose Blue#2 (c)", 0)
    # player2 is asked: player1's card went to a public zone, but player2 may not see which
    assert seat_of(match) == 1 and on_table(match, 0) == ["Blue"]
    assert table_view(match, 1, "player1") == [{"hidden": True}]
    assert table_view(match, 0, "player1")[0]["name"] == "Blue", "the picker sees their own pick"
    # search copies: seen from player2's seat, player1's pick is guessed again
    guesses = set()
    for seed in range(8):
        copy = match.replica(viewer=1, rng=random.Random(seed))
        assert seat_of(copy) == 1 and len(on_table(copy, 0)) == 1
        guesses.add(on_table(copy, 0)[0])
    assert len(guesses) >= 2, guesses
    exact = match.replica()
    assert on_table(exact, 0) == ["Blue"] and exact.state_summary() == match.state_summary()
    mine = match.replica(viewer=0, rng=random.Random(3))
    assert on_table(mine, 0) == ["Blue"], "a seat's own pick is never re-guessed"
    take(match, "choose Red#4 (c)", 1)
    # the block ended: both picks are revealed to everyone
    assert events(match, "revealed")
    assert table_view(match, 1, "player1")[0]["name"] == "Blue"
    assert table_view(match, 0, "player2")[0]["name"] == "Red"


# ---------------------------------------------------------------- 6. turn order

ORDER = '''
game "Order" {
  id: order
  players: 2..4
  first_player: seat1
}
counter after per player { start: 0 }
counter facing per player { start: 0 }
action hop "Hop" {
  choose q from a player where it != you
  q goes next
}
action hand_over "Hand over" {
  choose q from a player where it != you
  q takes the next turn
}
action again "Again" {
  you takes an extra turn
}
action flip "Flip" {
  reverse the turn order
}
action jump "Skip the next player" {
  skip the next player
}
action bench "Bench" {
  choose q from a player where it != you
  q skips their next turn
}
turn {
  stage look {
    set you.after to next_player(you).seat
    set you.facing to opponent.seat
  }
  stage main { actions: hop, hand_over, again, flip, jump, bench }
}
'''


def play_turns(match: PlayedMatch, plan: dict[int, str], turns: int) -> list[int]:
    """Pass every window, except the move planned for a turn (by turn number), taken once;
    the seats (1-based) whose turns started, for the first `turns` turns."""
    done: set[int] = set()
    while match.turn_number <= turns:
        move = plan.get(match.turn_number)
        if move is not None and match.turn_number not in done:
            done.add(match.turn_number)
            take(match, move, match.current.index if match.current else None)
        else:
            take(match, "pass")
    return [int(name.removeprefix("player")) for name in turn_order(match)][:turns]


@covers("GameDecl.first_player")
@pytest.mark.parametrize("rule", ["seat1", "random", "choose"])
def test_the_first_player_rule(tmp_path: Path, rule: str) -> None:
    game = build(tmp_path, f"first-{rule}", ORDER.replace("first_player: seat1", f"first_player: {rule}"))
    firsts = []
    for seed in range(1, 9):
        match = game.new_match(seed=seed, players=3)
        if rule == "choose":
            # player1 is asked who starts, and the answer is respected
            assert offered(match) == [(0, f"choose player{n} (who takes the first turn)") for n in (1, 2, 3)]
            take(match, f"choose player{seed % 3 + 1} (who takes the first turn)", 0)
            assert match.current is match.players[seed % 3]
        logged = events(match, "first_player")
        assert len(logged) == 1 and logged[0]["rule"] == rule
        assert logged[0]["player"] == match.current.name == turn_order(match)[0]
        assert seat_of(match) == match.current.index
        firsts.append(logged[0]["player"])
    if rule == "seat1":
        assert set(firsts) == {"player1"}
    else:
        assert len(set(firsts)) >= 2, firsts


@covers("prelude:set_next_player", "prelude:extra_turn")
def test_goes_next_and_extra_turns(tmp_path: Path) -> None:
    game = build(tmp_path, "order", ORDER)
    # player1 sends player3 next: play continues from player3
    assert play_turns(game.new_match(seed=1, players=3), {1: "Hop: player3"}, 6) == [1, 3, 1, 2, 3, 1]
    assert play_turns(game.new_match(seed=1, players=3), {2: "Hand over: player1"}, 6) == [1, 2, 1, 2, 3, 1]
    # an extra turn: the same player twice in a row, then the order resumes
    match = game.new_match(seed=1, players=3)
    assert play_turns(match, {1: "Again"}, 7) == [1, 1, 2, 3, 1, 2, 3]
    assert [e["player"] for e in events(match, "extra_turn")] == ["player1"]
    # the extra turn does not count as player1's turn of the round: round 1 has four turns
    assert emitted(match, "round_started")[:2] == [[1], [2]]
    rounds = [e for e in match.log if e["event"] == "emit" and e["name"] in ("round_started", "turn_started")]
    assert [e["args"][0] for e in rounds][:7] == [1, "player1", "player1", "player2", "player3", 2, "player1"]


@covers("prelude:reverse_order", "prelude:next_player")
def test_reversing_the_turn_order(tmp_path: Path) -> None:
    game = build(tmp_path, "order", ORDER)
    match = game.new_match(seed=1, players=3)
    assert play_turns(match, {3: "Flip"}, 8) == [1, 2, 3, 2, 1, 3, 2, 1]
    # next_player(you) follows the direction: player2 read 3 before the flip, 1 after it
    for name in ("after", "facing"):  # next_player(you) and opponent
        seen = [(e["player"], e["value"]) for e in events(match, "counter") if e["counter"] == name]
        assert seen[:5] == [("player1", 2), ("player2", 3), ("player3", 1), ("player2", 1), ("player1", 3)], name


@covers("prelude:skip_next", "prelude:skip_turn")
def test_skipping_turns(tmp_path: Path) -> None:
    game = build(tmp_path, "order", ORDER)
    match = game.new_match(seed=1, players=3)
    assert play_turns(match, {1: "Skip the next player"}, 5) == [1, 3, 1, 2, 3]
    assert [e["player"] for e in events(match, "turn_skipped")] == ["player2"]
    match = game.new_match(seed=1, players=3)
    assert play_turns(match, {1: "Bench: player3"}, 5) == [1, 2, 1, 2, 3]
    assert [e["player"] for e in events(match, "turn_skipped")] == ["player3"]
    # reversed, "the next player" of player3 is player2
    match = game.new_match(seed=1, players=3)
    assert play_turns(match, {1: "Flip", 2: "Skip the next player"}, 5) == [1, 3, 1, 3, 2]
    assert [e["player"] for e in events(match, "turn_skipped")] == ["player2"]


def rounds_of_turns(match: PlayedMatch) -> list[list[int]]:
    """The seats (1-based) whose turns started, grouped by round."""
    rounds: list[list[int]] = []
    for e in match.log:
        if e["event"] == "emit" and e["name"] == "round_started":
            rounds.append([])
        elif e["event"] == "emit" and e["name"] == "turn_started":
            rounds[-1].append(int(e["args"][0].removeprefix("player")))
    return rounds


@covers("prelude:skip_turn")
def test_a_turn_skipped_at_the_end_of_a_round_counts_in_the_round_it_belongs_to(tmp_path: Path) -> None:
    game = build(tmp_path, "order", ORDER)
    match = game.new_match(seed=1, players=2)
    # player2, the last of round 1, benches player1: player1 loses their turn of round 2
    assert play_turns(match, {2: "Bench: player1"}, 5) == [1, 2, 2, 1, 2]
    assert rounds_of_turns(match)[:3] == [[1, 2], [2], [1, 2]]


# ---------------------------------------------------------------- 7. stages

STAGES = '''
game "Stages" {
  id: stages
  players: 2
  first_player: seat1
}
counter bonus per player { start: 0 }
counter middles per player { start: 0 }
counter cleanups per player { start: 0 }
counter pokes per player { start: 0 }
action stop "Stop" {
  end the turn
}
action poke "Poke" {
  limit: 2
  gain 1 pokes
}
action never "Never" {
  condition: you.pokes > 100
  gain 1 pokes
}
turn {
  stage bonus {
    skip: you.bonus >= 2
    actions: never
    gain 1 bonus
  }
  stage main { actions: stop, poke }
  stage middle { gain 1 middles }
  stage forced { actions: poke; pass: no }
  stage quiet { actions: never }
  stage cleanup {
    always: yes
    gain 1 cleanups
  }
}
'''


@covers("StageDecl.skip", "StageDecl.always", "StageDecl.passing", "ActionDecl.limit", "ActionDecl.condition")
def test_stage_properties_skip_always_and_pass_no(tmp_path: Path) -> None:
    game = build(tmp_path, "stages", STAGES)
    match = game.new_match(seed=1)
    asked: list[tuple[int, str | None]] = []

    def step(description: str) -> None:
        asked.append((match.turn_number, stage_of(match)))
        take(match, description)

    # turn 1, player1: the bonus stage ran (its window, with only pass, asked nobody)
    assert stage_of(match) == "main" and counter(match, 0, "bonus") == 1
    step("pass")
    # `pass: no`: the action must be taken while it is legal; after the limit the window ends by itself
    assert stage_of(match) == "forced" and offered(match) == [(0, "Poke")]
    step("Poke")
    assert offered(match) == [(0, "Poke")]
    step("Poke")
    assert match.turn_number == 2 and stage_of(match) == "main"
    assert [counter(match, 0, n) for n in ("middles", "pokes", "cleanups")] == [1, 2, 1]
    # turn 2, player2 ends the turn in main: middle and forced are passed over, cleanup still runs
    step("Stop")
    assert [counter(match, 1, n) for n in ("bonus", "middles", "pokes", "cleanups")] == [1, 0, 0, 1]
    assert match.turn_number == 3
    for _turn in (3, 4):
        step("Stop")
    # turn 5: player1's bonus is 2, so the stage is skipped: its statement does not run
    assert match.turn_number == 5 and counter(match, 0, "bonus") == 2
    assert [e["stage"] for e in events(match, "stage_skipped")] == ["bonus"]
    assert counter(match, 0, "cleanups") == 2 and counter(match, 0, "middles") == 1
    started = [args[0] for args in emitted(match, "stage_started")]
    assert started[-2:] == ["cleanup", "main"], "a skipped stage does not even start"
    # only real choices were asked: never in the bonus or quiet windows
    assert {stage for _t, stage in asked} == {"main", "forced"}


STEPS = '''
game "Steps" {
  id: steps
  players: 2
  first_player: seat1
}
counter declared per player { start: 0 }
counter followed per player { start: 0 }
counter cleaned per player { start: 0 }
action stop "Stop" { end the turn }
action wait "Wait" { say "waiting" }
turn {
  stage combat {
    step declare {
      skip: you.declared >= 1
      gain 1 declared
    }
    step strike {
      actions: stop, wait
    }
    step follow {
      gain 1 followed
    }
    step cleanup {
      always: yes
      gain 1 cleaned
    }
  }
}
'''


@covers("StageDecl.steps", "StageDecl.skip")
def test_steps_can_be_skipped(tmp_path: Path) -> None:
    game = build(tmp_path, "steps", STEPS)
    match = game.new_match(seed=1)
    for _turn in range(4):
        take(match, "pass")
    # each player's declare step ran once, then was skipped (turns 3, 4 and the 5th, begun);
    # the other steps ran every turn
    assert match.turn_number == 5
    assert [counter(match, s, "declared") for s in (0, 1)] == [1, 1]
    assert [counter(match, s, "followed") for s in (0, 1)] == [2, 2]
    assert [e["stage"] for e in events(match, "stage_skipped")] == ["declare"] * 3


@covers("StageDecl.steps", "StageDecl.always", "prelude:end_turn")
def test_after_end_the_turn_only_always_steps_run(tmp_path: Path) -> None:
    game = build(tmp_path, "steps", STEPS)
    match = game.new_match(seed=1)
    take(match, "Stop", 0)
    assert match.turn_number == 2
    assert counter(match, 0, "cleaned") == 1, "an `always: yes` step runs after the end of the turn"
    assert counter(match, 0, "followed") == 0, "the other steps are passed over"


# ---------------------------------------------------------------- 8. card effects and `you`

EFFECTS = '''
game "Effects" {
  id: effects
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
zone pile per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone market shared { ordered; visibility: public }
zone discard shared { visibility: public }
cardtype Spell {
  stats { cost: number = 0 }
}
procedure draw(n: number = 1) "draw {n}" {
  repeat n times { move top of your pile to your hand }
}
keyword Draw_Two {
  reminder: "Draw two cards."
  effect { draw 2 }
}
card "Gift" {
  type: Spell
  effect { gain 1 gold }
}
card "Surge" {
  type: Spell
  keywords: Draw_Two
  effect { gain 2 gold }
}
card "Filler" { type: Spell }
setup {
  create every copy of "Gift" in market
  create every copy of "Surge" in market
  for each p in players {
    repeat 3 times { let f = create("Filler", pile of p, p) }
  }
}
action cast "Cast" {
  by: any
  speed: stack
  choose c from a spell in market
  cost { move c to discard }
  resolve the effect of c
}
turn {
  stage main { actions: cast; responses: yes }
}
'''


@covers("Effect.body", "prelude:perform_effect", "KeywordDecl.abilities")
def test_you_in_a_card_effect_is_the_player_who_played_it(tmp_path: Path) -> None:
    game = build(tmp_path, "effects", EFFECTS)
    match = game.new_match(seed=1)
    gift, surge = (next(c for c in match.all_cards() if c.name == n) for n in ("Gift", "Surge"))
    assert gift.owner is None and surge.owner is None, "cards of a shared deck belong to nobody"
    take(match, "pass", 0)
    # player2 casts the shared Surge on player1's turn; player1 answers with the Gift
    take(match, "Cast: Surge#2", 1)
    take(match, "Cast: Gift#1", 0)
    assert not match.stack_programs
    assert [e["player"] for e in events(match, "waiting")] == ["player2", "player1"]
    # each effect ran for whoever played it, not for the current player nor an owner
    assert counter(match, 0, "gold") == 1 and counter(match, 1, "gold") == 2
    # and Surge's keyword Draw_Two ran its own effect after the card's: player2 drew two
    assert len(match.zone("hand", match.players[1]).cards) == 2
    assert len(match.zone("hand", match.players[0]).cards) == 0
    moves = [(e["event"], e.get("player"), e.get("to")) for e in match.log if e["event"] in ("counter", "move")]
    assert moves[-3:] == [("counter", "player2", None), ("move", None, "hand of player2"),
                          ("move", None, "hand of player2")]


# ---------------------------------------------------------------- 9. rounds

ROUNDS = '''
game "Rounds" {
  id: rounds
  players: 3
  first_player: seat1
}
counter started shared { start: 0 }
counter ended shared { start: 0 }
counter latest shared { start: 0 }
counter tallies shared { start: 0 }
zone table shared { visibility: public }
cardtype Clock {
  stats { size: number = 1 }
  enters: table
}
card "Clock" {
  type: Clock
  on round_started(n) {
    increase started by 1
    set latest to n
  }
  on round_ended(n) { increase ended by 1 }
}
setup {
  create every copy of "Clock" in table
}
action wait "Wait" { say "waiting" }
turn {
  stage main { actions: wait }
}
round {
  stage tally {
    increase tallies by 1
  }
}
'''


@covers("FlowDecl.scope=round", "prelude:round_started", "prelude:round_ended")
def test_round_started_and_round_ended_are_emitted(tmp_path: Path) -> None:
    game = build(tmp_path, "rounds", ROUNDS)
    match = game.new_match(seed=1)
    while match.turn_number <= 7:  # two whole rounds of three turns, and the third begun
        take(match, "pass")
    assert emitted(match, "round_started") == [[1], [2], [3]]
    assert emitted(match, "round_ended") == [[1], [2]]
    assert (match.shared["started"], match.shared["ended"], match.shared["latest"]) == (3, 2, 3)
    # a round: its start, every player's turn, the round block's stages, its end
    marks: list[tuple[str, Any]] = []
    for e in match.log:
        if e["event"] == "emit" and e["name"] in ("round_started", "turn_started", "round_ended"):
            marks.append((e["name"], e["args"][0]))
        elif e["event"] == "counter" and e["counter"] == "tallies":
            marks.append(("tally", e["value"]))
    assert marks[:6] == [("round_started", 1), ("turn_started", "player1"), ("turn_started", "player2"),
                         ("turn_started", "player3"), ("tally", 1), ("round_ended", 1)]


# ---------------------------------------------------------------- 10. determinism, snapshots, replicas

MIXED = '''
game "Mixed" {
  id: mixed
  players: 2
  first_player: random
}
counter score per player { start: 0 }
counter coins shared { start: 0 }
zone hand per player { visibility: owner }
zone table per player { visibility: public }
cardtype Chip {
  stats { value: number = 0 }
}
card "Red" { type: Chip; value: 1 }
card "Blue" { type: Chip; value: 2 }
card "Green" { type: Chip; value: 3 }
setup {
  for each p in players {
    let r = create("Red", hand of p, p)
    let b = create("Blue", hand of p, p)
    let g = create("Green", hand of p, p)
  }
}
action trick "Trick" {
  by: any
  speed: stack
  limit: 2
  increase you.score by roll d6
}
action claim "Claim the coin" {
  by: any
  cost { pay 1 coins }
  increase you.score by 2
}
action stamp "Stamp" {
  by: any
  increase you.score by 1
}
check "won" {
  for each p in players {
    if p.score >= 40 { p wins the game }
  }
}
turn {
  stage reveal {
    simultaneously {
      for each p in players {
        choose c from a chip in hand of p by p
        move c to table of p
      }
    }
    for each p in players {
      increase p.score by sum(all chips in table of p, value)
    }
  }
  stage main { actions: trick; responses: yes }
  stage bid {
    set coins to 1
    actions: claim, stamp
    simultaneous: yes
  }
  stage tidy {
    for each p in players {
      move all chips in table of p to hand of p
    }
  }
}
'''


def play_randomly(match: PlayedMatch, seed: int, until: Callable[[PlayedMatch], bool] | None = None,
                  max_actions: int = 400) -> list[int]:
    """Seeded random agents (one per seat) until the match ends or `until` holds; the ids taken."""
    rngs = [random.Random(seed * 10 + seat) for seat in range(len(match.players))]
    ids: list[int] = []
    while not match.is_over and len(ids) < max_actions and not (until is not None and until(match)):
        actions = match.legal_actions()
        chosen = actions[rngs[actions[0].player].randrange(len(actions))]
        ids.append(chosen.id)
        match.apply(chosen)
    return ids


def test_the_same_seed_and_action_ids_give_the_same_log_byte_for_byte(tmp_path: Path) -> None:
    game = build(tmp_path, "mixed", MIXED)
    seen: dict[str, int] = {"waiting": 0, "pick_dropped": 0, "revealed": 0, "roll": 0}
    logs = []
    for seed in range(1, 5):
        match = game.new_match(seed=seed)
        ids = play_randomly(match, seed)
        assert match.is_over and match.error is None, match.result
        again = game.new_match(seed=seed)
        for action_id in ids:
            again.apply(action_id)
        assert json.dumps(again.log) == json.dumps(match.log)
        for kind in seen:
            seen[kind] += len(events(match, kind))
        logs.append(json.dumps(match.log))
    assert all(n > 0 for n in seen.values()), seen  # stack, dropped picks, sealed blocks and dice all played
    assert len(set(logs)) == len(logs)


@covers("StageDecl.simultaneous", "Simultaneously.body")
def test_restore_and_replica_reproduce_a_position_with_the_stack_busy_or_picks_sealed(tmp_path: Path) -> None:
    game = build(tmp_path, "mixed", MIXED)

    def stack_busy(m: PlayedMatch) -> bool:
        return bool(m.stack_programs) and isinstance(m.pending, ActionWindow)

    def mid_stage(m: PlayedMatch) -> bool:
        pending = m.pending
        return isinstance(pending, ActionWindow) and pending.sealed and m.open_seal in m.sealed_moves.values()

    def mid_block(m: PlayedMatch) -> bool:
        return not isinstance(m.pending, ActionWindow) and m.open_seal in m.sealed_moves.values()

    for name, where in (("stack", stack_busy), ("simultaneous stage", mid_stage), ("simultaneously", mid_block)):
        match = game.new_match(seed=3)
        play_randomly(match, 3, until=where)
        assert where(match), f"never reached a position with the {name} open"
        copies = [PlayedMatch.restore(game, json.loads(json.dumps(match.snapshot()))), match.replica()]
        for copy in copies:
            assert copy.state_summary() == match.state_summary(), name
            assert offered(copy) == offered(match) and copy.log == match.log, name
            assert len(copy.stack_programs) == len(match.stack_programs), name
        # and they go on exactly as the match does
        for seed in (7, 8):
            rest = play_randomly(match, seed, max_actions=12)
            for copy in copies:
                for action_id in rest:
                    copy.apply(action_id)
            assert all(json.dumps(copy.log) == json.dumps(match.log) for copy in copies), name


# ---------------------------------------------------------------- counters that reset with the flow

RESETS = '''
game "Resets" {
  id: resets
  players: 2
  first_player: seat1
}
counter gold per player { start: 0; reset: start of turn }
counter pot shared { start: 0; reset: end of turn }
counter total per player { start: 0 }
action earn "Earn" {
  limit: 1
  gain 1 gold
  gain 1 total
  increase pot by 1
}
action wait "Wait" { say "waiting" }
turn {
  stage main { actions: earn, wait }
}
'''


@covers("CounterDecl.reset", "CounterDecl.scope=shared", "CounterDecl.scope=player")
def test_counters_return_to_their_start_at_their_reset_time(tmp_path: Path) -> None:
    game = build(tmp_path, "resets", RESETS)
    match = game.new_match(seed=1)
    for _turn in range(2):
        take(match, "Earn")
        take(match, "pass")
    take(match, "Earn")
    # turn 3, player1 has earned on turns 1 and 3: the total keeps both, gold was back at 0
    # when turn 3 began, and the pot emptied at the end of turn 2
    assert match.turn_number == 3 and seat_of(match) == 0
    assert counter(match, 0, "total") == 2
    assert counter(match, 0, "gold") == 1
    assert match.shared["pot"] == 1
