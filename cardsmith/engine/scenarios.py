"""Running a game's scenario tests (`cardsmith test`, and pytest through tests/)."""

from __future__ import annotations

from cardsmith.engine.game import load
from cardsmith.engine.match import Match, ScenarioResult


def run_scenarios(target: str, name_filter: str | None = None) -> list[ScenarioResult]:
    game = load(target)
    results = []
    for index, scenario in enumerate(game.ir.scenarios):
        if name_filter and name_filter.lower() not in scenario.name.lower():
            continue
        match = Match(game, seed=scenario.seed, players=scenario.players, mode=scenario.mode)
        results.append(match.run_scenario(index))
    return results
