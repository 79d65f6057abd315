"""Decks and seats in `simulate`: a game folder deals its own decks, every seed is played
in every seat order, decks and seats are reported apart, and plays are real plays."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import LIBRARY
from test_simulate_impact import duel

from cardsmith.app import deck_lineups, load
from cardsmith.engine.agents import make_agent, play_out
from cardsmith.engine.cardfacts import PlayWatcher, seat_facts
from cardsmith.engine.flow import PlayedMatch


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args, "--rules", "none"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})


def test_a_copied_game_deals_its_own_decks_not_the_librarys(tmp_path: Path) -> None:
    copy = tmp_path / "kc"
    shutil.copytree(LIBRARY / "kingdom_combat", copy)
    for deck in (copy / "decks").glob("*.deck"):
        if deck.stem != "grimhold_warband":
            deck.unlink()
    own = (copy / "decks" / "grimhold_warband.deck")
    own.rename(copy / "decks" / "my_warband.deck")
    lineups = deck_lineups(load(str(copy)), 2, None)
    assert lineups is not None and [names for _, names in lineups] == [["my_warband", "my_warband"]]
    library = deck_lineups(load("kingdom_combat"), 2, None)
    assert library is not None and library[0][1] == ["dual_crown_and_horde", "grimhold_restless_dead"]
    assert lineups[0][0][0] != library[0][0][0]  # other cards, not only another name
    out = tmp_path / "matches.jsonl"
    done = run(str(copy), "-n", "1", "--max-actions", "5", "--matches-out", str(out), "--traces",
               str(tmp_path / "t"))
    assert done.returncode == 1, done.stderr  # stopped at the action cap: counted and failing
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["decks"] for r in rows] == [["my_warband", "my_warband"]]  # a mirror: one seat order
    assert rows[0]["outcome"] == "capped"


def test_every_seed_is_played_in_every_seat_order_and_seat_and_deck_are_apart(tmp_path: Path) -> None:
    """The Duel's two decks are the same but for a card's name: with rotation, each
    deck wins exactly half its matches while the first seat's advantage shows alone."""
    folder = duel(tmp_path / "duel")
    done = run(str(folder), "-n", "40", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["matches"] == 80 and data["seat_orders"] == 2
    assert data["decks"]["giants"]["rate"] == data["decks"]["pebbles"]["rate"] == 0.5
    seat = data["seats"]["player1"]
    assert seat["low"] > 0.5 and seat["of"] == 80  # the first player's edge, with its interval
    assert data["matchups"]["giants"]["pebbles"]["of"] == 80
    flat = json.loads(run(str(folder), "-n", "40", "--format", "json", "--no-rotate").stdout)
    assert flat["matches"] == 40 and flat["seat_orders"] == 1 and flat["matchups"]["giants"]["pebbles"]["of"] == 40
    text = run(str(folder), "-n", "10").stdout
    assert "80 matches" not in text and "20 matches of" in text and "each in 2 seat orders" in text
    assert "Decks (win rate" in text and "giants vs pebbles" in text


def test_more_decks_than_seats_play_every_pairing(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    third = tmp_path / "stones.deck"
    third.write_text("Deck:\n6 Stone\n6 Rock\n", encoding="utf-8")
    decks = [str(folder / "decks" / "giants.deck"), str(folder / "decks" / "pebbles.deck"), str(third)]
    done = run(str(folder), "-n", "5", "--format", "json", *[a for d in decks for a in ("--deck", d)])
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["seat_orders"] == 6 and data["matches"] == 30
    assert set(data["matchups"]) == {"giants", "pebbles", "stones"}
    assert all(len(row) == 2 for row in data["matchups"].values())


def test_plays_are_real_plays_not_setup_picks() -> None:
    """Combat Cards' setup has each seat pick its deck from its collection (cards the
    engine's own cards_played tally counts); those go to a hidden draw pile and are not
    plays. A play is a card taken from a seat's own hand onto the table."""
    game = load("combat_cards")
    match = PlayedMatch(game, seed=4, players=2)
    watcher = PlayWatcher()
    play_out(match, [make_agent("random", 1), make_agent("random", 2)], on_move=watcher)
    facts = seat_facts(match, watcher)
    for seat in range(2):
        to_table = sum(1 for e in match.log if e.get("event") == "move" and e.get("to") == f"table of player{seat + 1}")
        assert sum(facts[seat].played.values()) == to_table > 0
        assert sum(1 for s, _ in match.cards_played if s == seat) > to_table  # the setup picks, not counted
        assert set(facts[seat].opening) <= set(facts[seat].seen) <= set(facts[seat].held)


def test_a_hire_into_the_starting_garrison_is_a_play() -> None:
    """Kingdom Combat's setup hires units from the hidden deck into the fortress zone (a
    public zone): those count as plays; the fortress put there by the rules does not."""
    game = load("kingdom_combat")
    lineups = deck_lineups(game, 2, None)
    assert lineups is not None
    match = PlayedMatch(game, seed=1, players=2, decks=lineups[0][0])
    watcher = PlayWatcher()
    play_out(match, [make_agent("random", 1), make_agent("random", 2)], max_actions=40, on_move=watcher)
    start = next(i for i, e in enumerate(match.log) if e.get("event") == "emit" and e.get("name") == "round_started")
    hired = [str(e["card"]).rpartition("#")[0] for e in match.log[:start]
             if e.get("event") == "move" and str(e.get("to")).startswith("fortress_zone of player1")]
    facts = seat_facts(match, watcher)
    picked = [name for name in hired if name in facts[0].played]
    assert picked and len(picked) < len(hired)  # hires counted, the fortress itself not


def test_a_unit_marching_into_the_enemys_zone_stays_its_own_seats_card() -> None:
    """Kingdom Combat's units cross into the opponent's fortress zone to attack. The card
    is still its own seat's: counted as held by the defender too, every attacker would
    share both decks' records (a planted unit looked strong in the deck it was not in)."""
    game = load("kingdom_combat")
    lineups = deck_lineups(game, 2, None)
    assert lineups is not None
    decks = lineups[0][0]
    only = [set(decks[0]) - set(decks[1]), set(decks[1]) - set(decks[0])]
    crossed = 0
    for seed in (1, 2, 3):
        match = PlayedMatch(game, seed=seed, players=2, decks=decks)
        watcher = PlayWatcher()
        play_out(match, [make_agent("variety", 1), make_agent("variety", 2)], max_actions=3000, on_move=watcher)
        facts = seat_facts(match, watcher)
        for seat in range(2):
            other = 1 - seat
            assert not only[seat] & set(facts[other].held)  # never the enemy's
            crossed += sum(1 for e in match.log if e.get("event") == "move"
                           and str(e.get("to", "")).endswith(f"of player{other + 1}")
                           and str(e.get("card")).rpartition("#")[0] in only[seat])
    assert crossed > 0  # the matches did march units over
