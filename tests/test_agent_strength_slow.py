"""The search agent's strength claims (issue 19), checked in full: at its default budget
(≤ 1 s a decision) it wins ≥ 90% against random and ≥ 65% against greedy in every
library game, seats alternating. Hours of play: run with --runslow. The measured table,
and which claims are unmet, is in docs/agents.md (benchmarks/bench_strength.py prints it).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import GAMES

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import make_agent, play_out
from cardsmith.engine.flow import PlayedMatch

TARGETS = {"random": 0.90, "greedy": 0.65}
MATCHES = 20
# measured below target (docs/agents.md): these are expected to fail until the agent improves
# (Kingdom Cards against greedy: 14 of 20 on these seeds, 2026-11-25, 15 of 20 with halving from
# round 4 — met, so no longer listed; Combat Cards against random: 19 of 20, met)
UNMET = {("combat_cards", "greedy"), ("kingdom_combat", "random"), ("kingdom_combat", "greedy"),
         ("two_kingdoms", "random"), ("two_kingdoms", "greedy"), ("construct_and_combat", "greedy")}


def _cases() -> list[Any]:
    cases = []
    for game_id in GAMES:
        for opponent in TARGETS:
            marks = [pytest.mark.xfail(reason="measured below target: see docs/agents.md", strict=False)] \
                if (game_id, opponent) in UNMET else []
            cases.append(pytest.param(game_id, opponent, marks=marks, id=f"{game_id}-{opponent}"))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "opponent"), _cases())
def test_search_is_strong_at_its_default_budget(game_id: str, opponent: str) -> None:
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    won = 0
    for seed in range(1, MATCHES + 1):
        seat = seed % players
        agents: list[Any] = [make_agent(opponent, seed * 100 + i) for i in range(players)]
        agents[seat] = make_agent("search", seed)
        match = PlayedMatch(game, seed=seed, players=players, decks=decks_for(game, players, None))
        play_out(match, agents, max_actions=20_000)
        assert match.error is None, match.error
        won += seat in {p.index for p in match.winners}
    assert won / MATCHES >= TARGETS[opponent], f"{game_id} against {opponent}: {won} of {MATCHES}"
