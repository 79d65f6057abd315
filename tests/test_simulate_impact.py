"""Card impact finds a planted overpowered card: `simulate` ranks it first and flags it.

Measured (docs/simulate.md): Combat Cards with Savage Strike's high damage 14 -> 60 in a
copied folder is first and flagged at every check from 450 matches (seeds 1..450; from
150 with seeds 5001..) to 2,000. The test plays 500. The Duel game below (a fast game of
this file, decks dealt and rotated) with Giant's power 3 -> 12 is first and flagged from
50 seeds (100 matches); the test plays 100 seeds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import LIBRARY, write_game

DUEL = '''
game "Duel" {
  id: duel
  players: 2
  first_player: seat1
}
counter score per player { start: 0; min: 0 }
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone table per player { visibility: public }
cardtype Unit { stats { power: number = 1 } }
card "Pebble" { type: Unit; power: 1 }
card "Stone" { type: Unit; power: 2 }
card "Rock" { type: Unit; power: 2 }
card "Boulder" { type: Unit; power: 3 }
card "Giant" { type: Unit; power: 3 }
setup {
  for each p in players {
    shuffle deck of p
    repeat 2 times { move top of deck of p to hand of p }
  }
}
action play "Play a card" {
  limit: 1
  choose c from a unit in your hand
  move c to table of you
  gain c.power score
}
turn {
  stage draw { if size(deck of you) > 0 { move top of deck of you to hand of you } }
  stage main { actions: play }
}
check "won" { for each p in players { if p.score >= 12 { p wins the game } } }
deck {
  section Deck { size: 2.. }
}
'''
PEBBLES = "Deck:\n3 Pebble\n3 Stone\n3 Rock\n3 Boulder\n"
GIANTS = "Deck:\n3 Pebble\n3 Stone\n3 Rock\n3 Giant\n"


def duel(folder: Path, rules: str = DUEL) -> Path:
    return write_game(folder, {"rules.cards": rules, "decks/pebbles.deck": PEBBLES, "decks/giants.deck": GIANTS})


def simulate_json(*args: str) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args, "--format", "json", "--rules",
                           "none"], capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    return done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr


def test_a_planted_combat_cards_attack_is_ranked_first_and_flagged(tmp_path: Path) -> None:
    copy = tmp_path / "combat_cards"
    shutil.copytree(LIBRARY / "combat_cards", copy)
    cards = copy / "cards" / "fantasy.cards"
    text = cards.read_text(encoding="utf-8")
    assert "keywords: Damage high Opponent 14\n" in text
    cards.write_text(text.replace("keywords: Damage high Opponent 14\n", "keywords: Damage high Opponent 60\n"),
                     encoding="utf-8")
    code, data, err = simulate_json(str(copy), "-n", "500", "-j", "2")
    assert code == 0, err
    top = data["card_impact"][0]
    assert top["card"] == "Savage Strike" and top["flagged"] and top["q"] < 0.05
    assert data["flagged"][0] == "Savage Strike"
    assert top["impact_low"] > 0 and top["basis"] == "opening hand"


def test_a_planted_card_in_a_dealt_deck_is_ranked_first_and_flagged(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel", DUEL.replace('card "Giant" { type: Unit; power: 3 }',
                                                  'card "Giant" { type: Unit; power: 12 }'))
    code, data, err = simulate_json(str(folder), "-n", "100")
    assert code == 0, err
    assert data["matches"] == 200 and data["seat_orders"] == 2
    top = data["card_impact"][0]
    assert top["card"] == "Giant" and top["flagged"]
    # the deck holding it wins in both seats, and the seats stay fair apart from it
    assert data["decks"]["giants"]["low"] > 0.5
    assert data["matchups"]["giants"]["pebbles"]["rate"] == data["decks"]["giants"]["rate"]


@pytest.mark.slow
def test_the_planted_combat_cards_attack_stays_first_over_2000_matches(tmp_path: Path) -> None:
    copy = tmp_path / "combat_cards"
    shutil.copytree(LIBRARY / "combat_cards", copy)
    cards = copy / "cards" / "fantasy.cards"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Damage high Opponent 14", "Damage high Opponent 60"),
                     encoding="utf-8")
    code, data, err = simulate_json(str(copy), "-n", "2000", "-j", "2", "--seed", "5001")
    assert code == 0, err
    assert data["card_impact"][0]["card"] == "Savage Strike" and data["card_impact"][0]["flagged"]


def test_a_deck_that_wins_everything_points_to_the_what_if(tmp_path: Path) -> None:
    """When one deck wins (nearly) every match, all its cards share one record and card
    impact cannot single one out (a Kingdom Combat copy with Troll Brute at cost 1, 9/9/9:
    its deck won 400 of 400). By default simulate then leaves each of its cards out in
    turn (tests/test_simulate_leaveout.py); with --no-leave-out the report says so and
    points to the paired comparison."""
    folder = write_game(tmp_path / "sweep", {
        "rules.cards": DUEL.replace('card "Giant" { type: Unit; power: 3 }', 'card "Giant" { type: Unit; power: 12 }'),
        "decks/pebbles.deck": PEBBLES, "decks/giants.deck": "Deck:\n12 Giant\n"})
    done = subprocess.run([sys.executable, "-m", "cardsmith", "simulate", str(folder), "-n", "20", "--rules", "none",
                           "--no-leave-out"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    notes = [line.strip() for line in done.stdout.splitlines() if line.strip().startswith("note:")]
    assert notes == ["note: giants won nearly every match: card impact cannot tell its cards from the deck "
                     "(they share one record); compare versions of a card with --set or --compare"]
