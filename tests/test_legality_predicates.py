"""Compiled legality predicates (compiler/legality.py) against probing (engine/moves.py).

The predicate of an action is compiled from the same IR as the action and must find the
same legal moves — same combinations, same order, hence the same ids and descriptions.
Here every library game is played at random with `crosscheck` on (each legal-move
computation runs both paths; a difference raises LegalityMismatch), and the moves of
whole windows are compared with predicates on and off. tests/conformance does the same
for every tiny game of the conformance suite (its conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_game

from cardsmith.app import decks_for, load
from cardsmith.compiler import legality
from cardsmith.dsl import ir
from cardsmith.engine import natives
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import ActionWindow, LegalityMismatch, MoveFinder

# (Combat Cards has no action windows: every decision is a choice inside its rules)
GAMES = ["kingdom_combat", "two_kingdoms", "kingdom_cards", "construct_and_combat"]


def test_checked_natives_are_the_engines() -> None:
    """The compiler writes a check for exactly the natives the engine can check."""
    assert set(natives.CHECKS) == set(legality.CHECKED_NATIVES)


def test_which_actions_are_compiled() -> None:
    """What the fragment covers in Kingdom Combat: every action — an event's cost moves the
    card to the stack after paying, which nothing sees (Smuggler's Den hears only itself
    enter) — and every activated ability (`set self.exhausted to yes`, then a payment of a
    number, which reads no status)."""
    game = load("kingdom_combat")
    assert set(game.legality) == set(game.actions)
    abilities = [("card", c.name, str(i)) for c in game.ir.cards for i, a in enumerate(c.abilities)
                 if isinstance(a, ir.Activated)]
    abilities += [("keyword", k.name, str(i)) for k in game.ir.keywords for i, a in enumerate(k.abilities)
                  if isinstance(a, ir.Activated)]
    assert abilities and all(("legal", *key) in game.handlers for key in abilities)


@pytest.mark.parametrize("game_id", GAMES)
def test_random_positions_agree(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At every action window of seeded random matches, the moves found with the
    predicates equal the moves found by probing alone: ids, descriptions, payloads."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)
    monkeypatch.setattr(MoveFinder, "crosscheck", True)
    windows = compared = 0
    for seed in (1, 2):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        for _ in range(250):
            if match.is_over:
                break
            actions = match.legal_actions()
            if not actions:
                break
            window = match.pending
            if isinstance(window, ActionWindow):
                windows += 1
                match.use_predicates = False
                probed = match._window_actions(window)
                match.use_predicates = True
                assert [(a.id, a.player, a.description) for a in probed] == \
                    [(a.id, a.player, a.description) for a in actions]
                compared += len(actions)
            match.apply(ask(agents[actions[0].player % players], match, actions))
    assert windows > 0 and compared >= windows


def test_a_wrong_predicate_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The crosscheck is not a formality: a predicate that leaves a move out fails."""
    game = load("kingdom_combat")
    decks = decks_for(game, 2, None)
    real = dict(game.legality)
    monkeypatch.setattr(game, "legality", {name: (lambda m, ctx, keep, limit: []) for name in real})
    monkeypatch.setattr(MoveFinder, "crosscheck", True)
    match = PlayedMatch(game, seed=1, players=2, decks=decks)
    with pytest.raises(LegalityMismatch, match="the compiled predicate found"):
        for _ in range(200):
            actions = match.legal_actions()
            match.apply(actions[0])


RULES = """
game "Tolls" { players: 2 }
counter coins per player { start: 3 }
counter tolls per player { start: 0 }
zone hand per player { visibility: owner }
zone road per player
cardtype Cart { stats { cost: number = 1 } enters: road }
card "Small Cart" { type: Cart; cost: 1; copies: 2 }
card "Big Cart" { type: Cart; cost: 5 }
setup {
  for each p in players {
    create every copy of "Small Cart" in hand of p for p
    create every copy of "Big Cart" in hand of p for p
  }
}
function affordable(c: card) = c.cost <= 3
action send "Send a cart" {
  choose c from a cart in your hand
  choose n from 1..3
  let total = c.cost * n
  condition: total <= you.coins and affordable(c)
  cost { pay total coins }
  move c to your road
}
action toll "Collect a toll" {
  choose t from 0..2
  increase you.tolls by t
}
action done "Done" { end the turn }
turn {
  stage main { actions: send, toll, done }
}
"""


def test_condition_let_and_cost_of_a_written_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game written for this test: a `let` between the choices, a condition and a
    payment reading both answers. Its actions are compiled, and both paths agree on the
    exact combinations (a Big Cart never; a Small Cart 1..3 times)."""
    from cardsmith.compiler.api import check_game

    folder = write_game(tmp_path / "tolls", {"rules.cards": RULES})
    result = check_game(str(folder))
    assert not result.errors, [d.message for d in result.errors]
    game = load(str(folder))
    assert set(game.legality) == {"send", "toll", "done"}
    monkeypatch.setattr(MoveFinder, "crosscheck", True)
    match = game.new_match(seed=3)
    described = [a.description for a in match.legal_actions()]
    assert [d for d in described if d.startswith("Send")] == [
        "Send a cart: Small Cart#1, 1", "Send a cart: Small Cart#1, 2", "Send a cart: Small Cart#1, 3",
        "Send a cart: Small Cart#2, 1", "Send a cart: Small Cart#2, 2", "Send a cart: Small Cart#2, 3"]
    assert [d for d in described if d.startswith("Collect")] == [
        "Collect a toll: 0", "Collect a toll: 1", "Collect a toll: 2"]
