"""The five standard-library games check cleanly and contain what their rulebooks need."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import GAMES, LIBRARY

from cardsmith.compiler.api import check_game
from cardsmith.compiler.export import export_game
from cardsmith.dsl import ir


def load(game_id: str) -> ir.Game:
    folder = LIBRARY / game_id
    if not folder.is_dir():
        pytest.fail(f"library game {game_id} is missing")
    result = check_game(game_id)
    errors = [f"{d.span.file}:{d.span.line}: {d.code} {d.message}" for d in result.errors]
    assert not errors, "\n".join(errors[:20])
    assert result.game is not None
    return result.game


@pytest.mark.parametrize("game_id", GAMES)
def test_game_checks_without_errors(game_id: str) -> None:
    game = load(game_id)
    assert game.game.id == game_id
    assert game.cards and game.scenarios, "every game has cards and scenarios"


@pytest.mark.parametrize("game_id", GAMES)
def test_game_declares_rules_not_just_cards(game_id: str) -> None:
    game = load(game_id)
    assert game.flows, "a turn structure"
    bodies = [stage.body for flow in game.flows for stage in flow.stages] + [p.body for p in game.procedures]
    decides = any(isinstance(node, ir.Choose | ir.ChooseOne) for body in bodies for node in walk_statements(body))
    assert game.actions or decides, "player decisions: actions, or choices the turn's stages ask"
    assert game.setup, "a setup"
    assert game.checks or game.scoring, "a way to end"
    assert game.heuristic is not None, "a heuristic for the greedy agent"
    assert game.layouts, "printable layouts"


def walk_statements(body: list[Any]) -> Iterator[Any]:
    """Every statement in a body, nested blocks included."""
    for node in body:
        yield node
        for name in ("body", "orelse"):
            inner = getattr(node, name, None)
            if isinstance(inner, list):
                yield from walk_statements(inner)
        for branch in getattr(node, "branches", []) or []:
            yield from walk_statements(branch.body)
        for option in getattr(node, "options", []) or []:
            if hasattr(option, "body"):
                yield from walk_statements(option.body)


def cards_by(game: ir.Game, key: str) -> Counter[Any]:
    doc = export_game(game).model_dump()
    return Counter(c.get(key) for c in doc["cards"])


def test_kingdom_combat_content() -> None:
    game = load("kingdom_combat")
    doc = export_game(game).model_dump()
    cards = doc["cards"]
    keywords = {k.split()[0] for c in cards for k in c["keywords"]}
    assert {"Mounted", "Ranged", "Charge", "Deflect", "Etherial", "Dual_Wield", "Alert"} <= keywords \
        or {"Mounted", "Ranged", "Charge", "Deflect", "Etherial", "DualWield", "Alert"} <= keywords
    assert {"gold", "silver", "black", "green"} <= {c.get("border") for c in cards}
    factions = {c.get("faction") for c in cards if c["type"] == "Fortress"}
    assert len(factions) >= 2
    types = Counter(c["type"] for c in cards)
    assert types["Fortress"] >= 2 and types["Unit"] >= 20 and types["Structure"] >= 8
    assert "Mercenary" in {c.get("faction") for c in cards}


def test_combat_cards_content() -> None:
    game = load("combat_cards")
    names = {c.name for c in game.cards}
    fantasy = {"Thrusting Lunge", "Savage Strike", "Searing Scourge", "Poised Parry", "Tiger Crouch",
               "Gallant Guard", "Tiger Pounce", "Dragon Swipe", "Demonic Spear"}
    horror = {"Brain Drain", "Head Case", "Marsh Lights", "Guttural Groan", "Maiden's Moan", "Latte Lash",
              "Redeswire Rip", "Couture's Cosh", "Sick Sumo Slap"}
    assert fantasy <= names and horror <= names
    assert {"Stinging Storm", "Great Dread"} <= names


def test_kingdom_cards_content() -> None:
    game = load("kingdom_cards")
    assert sum(c.copies for c in game.cards) == 30


def test_construct_and_combat_content() -> None:
    game = load("construct_and_combat")
    totals: Counter[str] = Counter()
    for c in game.cards:
        totals[c.type] += c.copies
    counts = sorted(totals.values())
    for wanted in (36, 20, 20, 33):
        assert wanted in counts, totals
        counts.remove(wanted)
    assert {m.name for m in game.modes} >= {"solo"} and len(game.modes) >= 3
    assert game.references


def test_two_kingdoms_content() -> None:
    game = load("two_kingdoms")
    assert {b.name for b in game.boards} and any(b.width == 22 and b.height == 20 for b in game.boards)
    assert game.sheets
    assert len(game.cards) >= 9


def test_combat_cards_deals_each_player_their_own_draw_card() -> None:
    """A Draw card's Draw (Self) is read off its owner. Both used to be created without
    one (so owned by player1, who runs setup): player2's Draw card drew for player1, and
    random matches were won ~80% by the first seat whatever its side (a mirror match of
    two horror decks 189 to 9). Now every card in a hand belongs to that hand's player."""
    from cardsmith.app import load
    from cardsmith.engine.flow import PlayedMatch

    game = load("combat_cards")
    for mode in ("starter", "constructed"):
        match = PlayedMatch(game, seed=3, players=2, mode=mode)
        hands = [match.zones[("hand", p.index)].cards for p in match.players]
        for _ in range(20):  # constructed: each player picks a deck before the hands are dealt
            if all(any(c.name == "Draw" for c in hand) for hand in hands):
                break
            match.apply(match.legal_actions()[0])
        for player in match.players:
            hand = match.zones[("hand", player.index)].cards
            assert any(c.name == "Draw" for c in hand)
            assert all(c.owner is player for c in hand), [(c.name, c.owner) for c in hand]
