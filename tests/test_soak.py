"""Soak tests: seeded random matches end by the rules, with invariants after every action.

The normal suite runs a bounded number of matches per game; `--runslow` runs 1,000.
Every failing match names its seed, so it replays alone (`cardsmith play GAME --seed N`).
"""

from __future__ import annotations

from collections import Counter

import pytest

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.movekinds import MoveCounter

# game -> (matches in the normal suite, the most actions a match may take). Random play is
# degenerate in two of the games — in Kingdom Combat both fortresses make a token every turn
# once the decks run dry and random armies never break through; Two Kingdoms is a long
# wargame — so a match that reaches its action cap without breaking anything is counted as
# unfinished, not as a problem: the soak is about invariants and rules errors.
SOAK_GAMES = {"combat_cards": (50, 20_000), "kingdom_cards": (20, 20_000), "kingdom_combat": (4, 3_000),
              "construct_and_combat": (20, 20_000), "two_kingdoms": (2, 3_000)}


def soak(game_id: str, matches: int, max_actions: int) -> tuple[list[str], Counter[str]]:
    """(the problems found, the kinds of moves made — engine/movekinds.py — and how the
    matches ended)."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)
    problems = []
    counter = MoveCounter()
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        applied = play_out(match, [RandomAgent(seed * 7 + i) for i in range(players)], max_actions=max_actions,
                           check_invariants=True, on_move=counter)
        counter.finish(match)
        if match.offers_cut:
            problems.append(f"seed {seed}: moves not offered (past the cap): {dict(match.offers_cut)}")
        if match.error is not None and not match.out_of_turns:
            problems.append(f"seed {seed}: {match.error}")
        elif not match.over or match.out_of_turns:
            counter.counts["unfinished"] += 1
            if applied < max_actions:
                problems.append(f"seed {seed}: stopped after {applied} actions with no end and no move")
        elif not (match.winners or match.drawn or match.game.ir.scoring is not None):
            problems.append(f"seed {seed}: ended without a result")
        else:
            counter.counts["ended"] += 1
    return problems, counter.counts


@pytest.mark.parametrize("game_id", sorted(SOAK_GAMES))
def test_bounded_soak(game_id: str) -> None:
    matches, cap = SOAK_GAMES[game_id]
    problems, counts = soak(game_id, matches, cap)
    assert problems == []
    assert counts["ended"] + counts["unfinished"] == matches and counts["decisions"] > 0


def test_the_new_windows_are_used_in_played_matches() -> None:
    """Each kind of move the played flow added happens in random play of the games that
    declare it: activated abilities (Kingdom Combat, Construct & Combat), effects waiting on
    the stack and answers to them (Kingdom Combat, Construct & Combat), off-turn moves
    (Kingdom Cards' prepare window), sealed simultaneous picks (Combat Cards, Construct &
    Combat's blocks)."""
    _p, combat = soak("kingdom_combat", 2, 1_500)
    assert combat["activated abilities"] > 0 and combat["effects put on the stack"] > 0
    _p, construct = soak("construct_and_combat", 6, 20_000)
    assert construct["activated abilities"] > 0 and construct["sealed picks"] > 0
    assert construct["effects put on the stack"] > 0 and construct["responses"] + construct["off-turn moves"] > 0
    _p, cards = soak("combat_cards", 3, 20_000)
    assert cards["sealed picks"] > 0
    _p, kingdom = soak("kingdom_cards", 6, 20_000)
    assert kingdom["off-turn moves"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SOAK_GAMES))
def test_full_soak(game_id: str) -> None:
    assert soak(game_id, 1000 if SOAK_GAMES[game_id][0] >= 20 else 100, 20_000)[0] == []


def test_the_benchmark_counts_what_an_action_does() -> None:
    """The engine benchmark's counted figures (Python calls, log entries, events, legality
    probes per action) are what the speed notes argue from: they must count something real."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_engine.py"
    spec = importlib.util.spec_from_file_location("bench_engine", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    combat = bench.cardsmith_work("combat_cards", 1)
    assert combat["calls"] > 100 and combat["log"] > 1 and combat["events"] > 1 and combat["probes"] == 0
    kingdom = bench.cardsmith_work("kingdom_cards", 1)
    # every Kingdom Cards action has a compiled legality predicate (compiler/legality.py):
    # its moves are computed, and no action is run up to its payment to find them
    assert kingdom["calls"] > 100 and kingdom["probes"] == 0
