"""A cost that ends by moving the played card to a shared zone (`pay c.cost gold; move c to
stack`) is computed by a legality predicate when nothing can see the move; when a trigger
could run a rule on it (or the zone could be full), the action keeps probing. Both ways
are checked against probing with crosscheck on (a difference raises LegalityMismatch)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_game

from cardsmith.compiler.api import load_game_ir
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.moves import MoveFinder

RULES = '''
game "Spells" {
  id: spells
  players: 2
}
counter gold per player { start: 0; min: 0 }
status exhausted
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone discard per player { ordered }
zone battlefield shared
zone stack shared { ordered }
zone limbo shared CAPACITY
cardtype Unit {
  stats { cost: number = 0 }
  enters: battlefield
}
cardtype Spell {
  stats { cost: number = 0 }
}
procedure draw(n: number = 1) "draw {n}" "draw a card" {
  repeat n times { move top of your deck to your hand }
}
setup {
  for each p in players {
    shuffle deck of p
    repeat 4 times { move top of deck of p to hand of p }
  }
}
turn {
  stage upkeep {
    gain 2 gold
    draw 1
  }
  stage main { actions: play_unit, cast, activate }
}
action play_unit "Play a unit" {
  choose c from a unit in your hand where it.cost <= gold
  cost { pay c.cost gold }
  move c to battlefield
}
action cast "Cast a spell" {
  choose c from a spell in your hand where it.cost <= gold
  cost {
    pay c.cost gold
    move c to DESTINATION
  }
  move c to discard of owner of c
  move all cards in limbo to discard of owner of c
  gain 1 gold
}
'''

CARDS = '''
card "Spark" { type: Spell; cost: 1 }
card "Blast" { type: Spell; cost: 3 }
card "Grunt" { type: Unit; cost: 2 }
card "Shaman" {
  type: Unit
  cost: 1
  activate "Channel" {
    condition: not self.exhausted
    cost {
      set self.exhausted to yes
      pay PRICE gold
    }
    choose t from a unit in battlefield where it != self
    gain 2 gold
  }
}
card "Watcher" {
  type: Unit
  cost: 1
  on entered(card, zone) where WATCHER { draw 1 }
}
'''

DECK = "\n".join(f"{n} {name}" for n, name in [(4, "Spark"), (3, "Blast"), (3, "Grunt"), (3, "Watcher"),
                                                 (3, "Shaman")])


def _game(tmp_path: Path, watcher: str = "card == self and zone == battlefield", destination: str = "stack",
          capacity: str = "", spell_trigger: bool = False, price: str = "1") -> Path:
    cards = CARDS.replace("WATCHER", watcher).replace("PRICE", price)
    if spell_trigger:
        cards += 'card "Echo" {\n  type: Spell\n  cost: 1\n  on entered(card, zone) where card == self { draw 1 }\n}\n'
    rules = RULES.replace("DESTINATION", destination).replace("CAPACITY", capacity)
    return write_game(tmp_path / "spells", {"rules.cards": rules, "cards.cards": cards})


def _play(folder: Path, monkeypatch: pytest.MonkeyPatch) -> CompiledGame:
    game = CompiledGame(load_game_ir(str(folder)))
    names = [line.split(" ", 1)[1] for line in DECK.splitlines() for _ in range(int(line.split(" ", 1)[0]))]
    monkeypatch.setattr(MoveFinder, "crosscheck", True)
    for seed in (1, 2, 3):
        match = PlayedMatch(game, seed=seed, players=2, decks=[names, names])
        agents = [RandomAgent(seed * 10 + i) for i in range(2)]
        for _ in range(120):
            actions = match.legal_actions()
            if match.is_over or not actions:
                break
            match.apply(ask(agents[actions[0].player % 2], match, actions))
    return game


def test_a_move_nothing_sees_is_computed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _play(_game(tmp_path), monkeypatch)
    assert "cast" in game.legality  # Watcher hears only itself enter; a spell is never a Watcher


def test_a_shared_zone_of_the_game_is_computed_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "cast" in _play(_game(tmp_path, destination="limbo"), monkeypatch).legality


@pytest.mark.parametrize("case", [dict(watcher="zone == stack"), dict(watcher="zone == stack and card == self"),
                                  dict(spell_trigger=True), dict(destination="limbo", capacity="{ capacity: 1 }"),
                                  dict(destination="discard of owner of c")])
def test_a_move_that_may_run_a_rule_or_fail_is_probed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      case: dict[str, object]) -> None:
    game = _play(_game(tmp_path, **case), monkeypatch)  # type: ignore[arg-type]
    assert "cast" not in game.legality and "play_unit" in game.legality


def _abilities(game: CompiledGame) -> set[str]:
    return {key[2] for key in game.handlers if key[:2] == ("legal", "card")}


def test_an_ability_that_marks_its_card_then_pays_is_computed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _abilities(_play(_game(tmp_path), monkeypatch)) == {"Shaman"}


def test_a_payment_that_may_read_the_mark_is_probed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _play(_game(tmp_path, price="(if self.exhausted then 2 else 1)"), monkeypatch)
    assert _abilities(game) == set()
