"""Card impact in a game whose hands are dealt from one shared pile (Kingdom Cards).

Every seat could have been dealt any card of a shared draw pile, so a card is compared
over every seat of the match: those with it in the opening hand against all the others.
Compared only with the seats that held it at some time — in Kingdom Cards cards change
hands in every battle, so those are the seats that came by it later, the ones winning
battles — every card's opening-hand win rate looked worse (all 30 cards -3 to -17 points,
ten "significant") and a planted card hid among them.

Measured (docs/simulate.md): Crown Jewels' kingdom bonus 0.5 -> 10 in a copied folder is
first and the only card flagged at 200 matches (+37.6 points, q = 5.5e-10), first and
flagged with one false positive at 100, +36.3 points at 500 (q = 1.6e-22).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import LIBRARY
from test_simulate_impact import simulate_json

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.cardfacts import PlayWatcher, SeatFacts, seat_facts
from cardsmith.engine.flow import PlayedMatch


def _facts(game_id: str, seed: int) -> list[SeatFacts]:
    game = load(game_id)
    match = PlayedMatch(game, seed=seed, players=2, decks=decks_for(game, 2, None))
    watcher = PlayWatcher()
    play_out(match, [RandomAgent(seed * 10), RandomAgent(seed * 10 + 1)], max_actions=400, on_move=watcher)
    return seat_facts(match, watcher)


def test_a_shared_pile_is_every_seats_pool_and_a_seats_own_deck_is_not() -> None:
    shared = _facts("kingdom_cards", 3)
    pool = set(shared[0].pool)
    assert len(pool) == 30 and shared[1].pool == shared[0].pool  # the whole deck, the same for both
    assert all(set(f.held) <= pool and set(f.opening) <= pool for f in shared)
    assert not set(shared[1].held) >= pool  # a seat does not hold every card: the pool adds the rest
    own = _facts("combat_cards", 3)  # each seat's cards are made in its own deck
    assert all(f.pool == () for f in own)


def test_a_planted_card_of_a_shared_pile_is_ranked_first_and_flagged(tmp_path: Path) -> None:
    copy = tmp_path / "kingdom_cards"
    shutil.copytree(LIBRARY / "kingdom_cards", copy)
    treasures = copy / "cards" / "treasures.cards"
    text = treasures.read_text(encoding="utf-8")
    planted = text.replace('card "Crown Jewels" {\n  type: Treasure\n',
                           'card "Crown Jewels" {\n  type: Treasure\n  bonus: 10\n', 1)
    assert planted != text
    treasures.write_text(planted, encoding="utf-8")
    code, data, err = simulate_json(str(copy), "-n", "200", "-j", "2")
    assert code == 0, err
    top = data["card_impact"][0]
    assert top["card"] == "Crown Jewels" and top["flagged"] and top["basis"] == "opening hand"
    assert data["flagged"] == ["Crown Jewels"]
    assert top["matches"] == 2 * data["matches"]  # every seat of every match is compared
    assert top["impact_low"] > 0.2
