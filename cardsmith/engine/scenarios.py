"""Running a game's scenario tests (`cardsmith test`, and pytest through tests/)."""

from __future__ import annotations

from cardsmith.engine.game import load
from cardsmith.engine.scenario_flow import ScenarioMatch
from cardsmith.engine.scenario_steps import ScenarioResult


def run_scenarios(target: str, name_filter: str | None = None) -> list[ScenarioResult]:
    game = load(target)
    results = []
    for index, scenario in enumerate(game.ir.scenarios):
        if name_filter and name_filter.lower() not in scenario.name.lower():
            continue
        results.append(ScenarioMatch(game, index).run_scenario())
    return results
