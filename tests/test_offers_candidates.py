"""A window's activated abilities (engine/offers.py `activations`) are those of every card
of the player's in play, whatever shortcut finds them.

`activations` picks a zone's candidates by the names that have an ability (their own or a
printed keyword's) when no static grants a keyword with one now, and only the names with
an instant ability when only instant ones may be offered (`instant_only`). These tests
compare it, at every window of random matches, with the plain definition — every card of
the player's in play, every ability it has now (card_activations) — and play the same
seeded matches with the plain definition in its place, log for log; and a small game
whose static grants a keyword with an instant ability while a counter is up (Kingdom
Combat's Bone Crossbow grants Ranged, but seldom comes out), so both of `activations`'
ways are taken, each asked both ways. In that game too, `has_keyword` (which reads the
statics' grants by keyword, from events.py `_grants`' cache checked in line) answers as
keywords_of's list does, for every card and keyword at every window.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import compiled_rules

from cardsmith.app import decks_for, load
from cardsmith.engine import offers
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, ask, make_agent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.functions import fn_has_keyword
from cardsmith.engine.match import Match
from cardsmith.model.state import Player

GAMES = ["kingdom_combat", "construct_and_combat"]


def _plain(m: Match, player: Player, instant_only: bool = False) -> Iterator[offers.Activation]:
    """Every ability of every card of `player`'s in play, in zone order (instant_only is
    the caller's filter, ability_offered, and changes nothing here)."""
    for zone in m.zones.values():
        for card in list(zone.cards):
            if card.controller is player and m._in_play(card, []):
                yield from offers.card_activations(m, card)


def _listed(found: Iterator[offers.Activation], instant_only: bool) -> list[tuple[int, tuple[str, ...]]]:
    return [(a.card.id, a.key) for a in found if not instant_only or a.ability.speed == "instant"]


def _log(game_id: str, seed: int) -> str:
    game = load(game_id)
    m = PlayedMatch(game, seed=seed, players=2, decks=decks_for(game, 2, None))
    play_out(m, [make_agent("variety", seed * 10), make_agent("variety", seed * 10 + 1)], max_actions=1500)
    return json.dumps(m.log, default=str)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_window_lists_what_the_plain_definition_lists(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = offers.activations
    seen: Counter[str] = Counter()

    def checked(m: Match, player: Player, instant_only: bool = False) -> Iterator[offers.Activation]:
        found = list(fast(m, player, instant_only))
        assert _listed(iter(found), instant_only) == _listed(_plain(m, player), instant_only)
        seen["instant only" if instant_only else "all"] += 1
        seen["granted" if offers._granted_ids(m) else "none granted"] += 1
        return iter(found)

    monkeypatch.setattr(offers, "activations", checked)
    for seed in (1, 2, 3):
        _log(game_id, seed)
    assert seen["instant only"] and seen["all"]


@pytest.mark.parametrize("game_id", GAMES)
def test_matches_play_alike_with_the_plain_definition(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_log(game_id, seed) for seed in (1, 2)]
    monkeypatch.setattr(offers, "activations", _plain)
    assert [_log(game_id, seed) for seed in (1, 2)] == fast


GRANTING = '''
game "Offers" {
  id: offers
  players: 2
}
counter aura shared { start: 0 }
counter gold per player { start: 0 }
status tired
zone field shared
zone pile per player { ordered }
zone hand per player { visibility: owner }
cardtype Unit {
  stats { power: number = 1 }
  enters: field
}
keyword Swift {
  reminder: "Dashes."
  activate "Dash" {
    speed: instant
    condition: not self.tired
    cost { set self.tired to yes }
    increase gold by 1
  }
}
keyword Slow {
  reminder: "Trudges."
  activate "Trudge" {
    condition: not self.tired
    cost { set self.tired to yes }
    increase gold by 2
  }
}
card "Horn" {
  type: Unit
  static {
    while: aura > 0
    target: all units where it.name == "Runner"
    grants: Swift
  }
  activate "Blow" { increase aura by 1 }
}
card "Runner" {
  type: Unit
  keywords: Slow
}
card "Scout" {
  type: Unit
  activate "Peek" {
    speed: instant
    increase gold by 1
  }
}
card "Archer" {
  type: Unit
  keywords: Swift
}
card "Rock" { type: Unit }
action bring "Bring" {
  choose c from a unit in your hand
  move c to field
}
action bin "Bin" {
  choose c from a friendly unit in field
  move c to pile of c.owner
}
action lower "Lower" { set aura to 0 }
action rest "Rest" {
  for each u in all units { set u.tired to no }
}
turn { stage main { actions: bring, bin, lower, rest, activate } }
setup {
  for each p in players {
    repeat 2 times {
      let a = create("Horn", hand of p, p)
      let b = create("Runner", hand of p, p)
      let c = create("Scout", hand of p, p)
      let d = create("Rock", hand of p, p)
      let e = create("Archer", hand of p, p)
    }
  }
}
'''


def test_a_granted_keyword_and_instant_abilities_are_listed_both_ways(tmp_path: Path) -> None:
    game = compiled_rules(tmp_path / "offers", GRANTING)
    seen: Counter[str] = Counter()
    for seed in range(1, 9):
        m = PlayedMatch(game, seed=seed, players=2)
        agents = [RandomAgent(seed * 10), RandomAgent(seed * 10 + 1)]
        for _ in range(150):
            if m.is_over:
                break
            for player in m.players:
                for instant_only in (False, True):
                    assert _listed(offers.activations(m, player, instant_only), instant_only) == \
                        _listed(_plain(m, player), instant_only)
            seen["granted" if offers._granted_ids(m) else "none granted"] += 1
            actions = m.legal_actions()
            m.apply(ask(agents[actions[0].player], m, actions))
    assert seen["granted"] and seen["none granted"]


def test_has_keyword_answers_as_keywords_of(tmp_path: Path) -> None:
    game = compiled_rules(tmp_path / "offers", GRANTING)
    seen: Counter[bool] = Counter()
    for seed in range(1, 5):
        m = PlayedMatch(game, seed=seed, players=2)
        agents = [RandomAgent(seed * 10), RandomAgent(seed * 10 + 1)]
        ctx = rt.Ctx(m.players[0], None)
        for _ in range(100):
            if m.is_over:
                break
            for card in m.all_cards():
                for keyword in ("Swift", "Slow", "Other"):
                    answer = fn_has_keyword(m, ctx, card, keyword)
                    assert answer == any(k == keyword for k, _ in m.keywords_of(card))
                    seen[answer] += 1
            actions = m.legal_actions()
            m.apply(ask(agents[actions[0].player], m, actions))
    assert seen[True] and seen[False]
