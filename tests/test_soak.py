"""Soak tests: seeded random matches end by the rules, with invariants after every action.

The normal suite runs a bounded number of matches per game; `--runslow` runs 1,000.
Every failing match names its seed, so it replays alone (`cardsmith play GAME --seed N`).
"""

from __future__ import annotations

import pytest

from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.decks import decks_for
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import load

# game -> matches in the normal suite (a random Kingdom Combat match is ~3,400 actions)
SOAK_GAMES = {"combat_cards": 50, "kingdom_cards": 25, "kingdom_combat": 10}


def soak(game_id: str, matches: int) -> list[str]:
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)
    problems = []
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        play_out(match, [RandomAgent(seed * 7 + i) for i in range(players)], max_actions=20_000,
                 check_invariants=True)
        if match.error is not None or not match.over:
            problems.append(f"seed {seed}: {match.error or 'did not end'}")
        elif not (match.winners or match.drawn or match.game.ir.scoring is not None):
            problems.append(f"seed {seed}: ended without a result")
    return problems


@pytest.mark.parametrize("game_id", sorted(SOAK_GAMES))
def test_bounded_soak(game_id: str) -> None:
    assert soak(game_id, SOAK_GAMES[game_id]) == []


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SOAK_GAMES))
def test_full_soak(game_id: str) -> None:
    assert soak(game_id, 1000) == []


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
    assert kingdom["probes"] > 1  # its actions are offered by running them up to payment
