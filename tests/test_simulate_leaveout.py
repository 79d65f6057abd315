"""A dominant deck's cards told apart by leaving each out (engine/leaveout.py).

When a deck wins nearly every match, all its cards share one record; the only way to
single out the card that makes it win is to play the same seeds without each card. The
Banner game: each seat's banners are put on its table during setup (so a banner is never
in an opening hand, never drawn, never played — card impact has nothing to compare), and
each of its owner's turns scores the banners' bonus. With the bonus 0 the two decks are
the same; with 3, the deck holding the Banner wins nearly everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import write_game
from test_simulate_impact import DUEL

from cardsmith.engine.leaveout import LeftOut, dominant_decks, untested_cards, without

BANNER = (DUEL.replace('game "Duel"', 'game "Banner"').replace("id: duel", "id: banner")
          .replace('card "Giant" { type: Unit; power: 3 }',
                   'cardtype Banner { stats { bonus: number = 0 } }\ncard "Flag" { type: Banner; bonus: BONUS }')
          .replace("  for each p in players {\n    shuffle deck of p",
                   "  for each p in players {\n    move all banners in deck of p to table of p\n    shuffle deck of p")
          .replace("  stage draw { if size(deck of you) > 0 { move top of deck of you to hand of you } }",
                   "  stage draw {\n    for each b in all banners in table of you { gain b.bonus score }\n"
                   "    if size(deck of you) > 0 { move top of deck of you to hand of you }\n  }"))
FLAGGED = "Deck:\n1 Flag\n3 Pebble\n3 Stone\n3 Rock\n3 Boulder\n"
PLAIN = "Deck:\n4 Pebble\n3 Stone\n3 Rock\n3 Boulder\n"


def banner(folder: Path, bonus: int) -> Path:
    return write_game(folder, {"rules.cards": BANNER.replace("BONUS", str(bonus)),
                               "decks/flagged.deck": FLAGGED, "decks/plain.deck": PLAIN})


def simulate(*args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args, "--rules", "none"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    return done.returncode, done.stdout, done.stderr


def test_the_card_that_makes_a_deck_win_everything_is_left_out_ranked_first_and_flagged(tmp_path: Path) -> None:
    folder = banner(tmp_path / "banner", 3)
    code, out, err = simulate(str(folder), "-n", "30", "--format", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert data["decks"]["flagged"]["low"] >= 0.8  # dominant: every card of it shares one record
    top = data["card_impact"][0]
    assert top["card"] == "Flag" and top["flagged"] and top["basis"] == "left out of flagged"
    assert top["impact_low"] > 0.2 and data["flagged"] == ["Flag"]
    found = {f["card"]: f for f in data["left_out"]}
    assert set(found) == {"Flag", "Pebble", "Stone", "Rock", "Boulder"}
    assert found["Flag"]["pairs"] == 50  # played on to 25 seeds, both seat orders
    assert all(f["pairs"] in (16, 50) and f["failed"] == 0 for f in found.values())  # screened on 8 seeds
    assert data["left_out_matches"] == sum(f["pairs"] for f in found.values())


def test_the_text_report_lists_the_left_out_cards_biggest_loss_first(tmp_path: Path) -> None:
    folder = banner(tmp_path / "banner", 3)
    code, out, err = simulate(str(folder), "-n", "30")
    assert code == 0, err
    lines = [line.strip() for line in out.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("flagged won nearly every match"))
    assert lines[start + 1].startswith("Flag: +") and "50 pairs" in lines[start + 1]
    assert lines[lines.index("FLAGGED: 1 card(s) whose impact is significant (Benjamini-Hochberg, FDR 5%):") + 1] \
        .startswith("Flag: impact +")
    assert not any(line.startswith("note:") for line in lines)  # the leave-out answered what the note asked


def test_no_leave_out_keeps_the_note_and_plays_no_more_matches(tmp_path: Path) -> None:
    folder = banner(tmp_path / "banner", 3)
    code, out, err = simulate(str(folder), "-n", "30", "--format", "json", "--no-leave-out")
    assert code == 0, err
    data = json.loads(out)
    assert data["left_out"] == [] and "left_out_matches" not in data and data["matches"] == 60


def test_balanced_decks_are_not_left_out(tmp_path: Path) -> None:
    folder = banner(tmp_path / "banner", 0)
    code, out, err = simulate(str(folder), "-n", "30", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["left_out"] == [] and not dominant_decks(data["decks"])


def pennants(folder: Path) -> Path:
    """Two even decks, each with one banner of bonus 1 that is on the table from setup on:
    neither deck is dominant, and no comparison inside the matches can judge a banner."""
    rules = BANNER.replace("BONUS", "1").replace('card "Flag" { type: Banner; bonus: 1 }',
                                                 'card "Flag" { type: Banner; bonus: 1 }\n'
                                                 'card "Pennant" { type: Banner; bonus: 1 }')
    return write_game(folder, {"rules.cards": rules, "decks/flagged.deck": FLAGGED,
                               "decks/pennant.deck": FLAGGED.replace("1 Flag", "1 Pennant")})


def test_cards_no_comparison_can_judge_are_left_out_on_request(tmp_path: Path) -> None:
    folder = pennants(tmp_path / "pennants")
    code, out, err = simulate(str(folder), "-n", "30", "--format", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert not dominant_decks(data["decks"]) and data["left_out"] == []
    waiting = data["untested_not_left_out"]
    assert waiting["cards"] == {"flagged": ["Flag"], "pennant": ["Pennant"]} and waiting["at_most"] == 100
    code, text, err = simulate(str(folder), "-n", "30")
    assert "note: card impact could not test 2 cards" in text and "at most 100 more matches" in text
    code, out, err = simulate(str(folder), "-n", "30", "--format", "json", "--leave-out-untested")
    assert code == 0, err
    data = json.loads(out)
    assert data["left_out_decks"] == {"dominant": [], "untested": {"flagged": ["Flag"], "pennant": ["Pennant"]}}
    judged = {r["card"]: r for r in data["card_impact"][:2]}
    assert set(judged) == {"Flag", "Pennant"}
    assert judged["Flag"]["basis"] == "left out of flagged" and judged["Flag"]["flagged"]
    assert judged["Flag"]["impact_low"] > 0.2 and "untested_not_left_out" not in data
    assert data["left_out_matches"] == sum(f["pairs"] + f["failed"] for f in data["left_out"]) <= 100


def test_leaving_a_card_out_takes_every_copy_from_that_deck_only() -> None:
    lineups = [([["A", "A", "B"], ["A", "C"]], ["one", "two"]), ([["A", "B"], ["A", "B"]], ["one", "one"])]
    assert without(lineups, "one", "A") == [([["B"], ["A", "C"]], ["one", "two"])]  # the mirror is left out


def test_a_left_out_card_is_tested_on_paired_differences() -> None:
    lost = LeftOut("d", "c", (1,) * 20 + (0,) * 30, 0).as_json()
    assert lost["impact"] == 0.4 and lost["p"] is not None and lost["p"] < 1e-6 and lost["impact_low"] > 0.25
    same = LeftOut("d", "c", (0,) * 40, 0).as_json()
    assert same["impact"] == 0 and same["p"] == 1.0
    few = LeftOut("d", "c", (1,) * 10, 0).as_json()
    assert few["p"] is None and "not tested" in few["warning"]
    broken = LeftOut("d", "fortress", (), 16).as_json()
    assert broken["impact"] is None and "cannot be played without it" in broken["warning"]


def test_untested_cards_are_those_no_comparison_or_a_lopsided_one_can_test() -> None:
    """A card with no comparison, or one whose comparison's other side almost never
    happens (a Two Kingdoms archer dealt late once in 86 seats), is left to leaving out; a
    card untested only because the run was short is not (more matches would test it)."""
    def row(card: str, warning: str | None, mine: int, other: int) -> dict[str, Any]:
        return {"card": card, "p": None if warning else 0.5, "warning": warning, "basis": "drawn",
                "seen": {"of": mine}, "not_seen": {"of": other}}

    rows = [row("Archer", "few matches (1 < 30) on one side: not tested", 85, 1),
            row("Wall", "seen and in the opening hand in every match it was held: no comparison", 86, 0),
            row("Scout", "few matches (12 < 30) on one side: not tested", 12, 14),
            row("Knight", None, 50, 36)]
    lineups = [([["Archer", "Wall", "Scout", "Knight"], ["Wall"]], ["army", "walls"])]
    assert untested_cards(rows, lineups) == {"army": ["Archer", "Wall"], "walls": ["Wall"]}
