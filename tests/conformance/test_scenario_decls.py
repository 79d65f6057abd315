"""Conformance: `scenario` declarations and their statements `perform`, `expect` and
`expect illegal` (docs/language.md §2 "scenario"), run through
cardsmith.engine.scenarios.run_scenarios — the runner behind `cardsmith test`."""

from __future__ import annotations

from pathlib import Path

from cardsmith.engine.scenario_steps import ScenarioResult
from cardsmith.engine.scenarios import run_scenarios
from conformance.support import build_folder, covers

RULES = '''
game "Scenes" {
  id: scenes
  players: 2..3
  first_player: seat1
}
param start: number = 5
mode standard "Standard" { }
mode poor "Poor" { start: 1 }
counter gold per player { start: 0 }
zone hand per player { visibility: owner }
zone table shared
cardtype Chip { stats { price: number = 2 } }
card "Chip" { type: Chip }
card "Gem" { type: Chip; price: 4 }
setup {
  for each p in players { increase p.gold by start }
  let c = create("Chip", hand of player1, player1)
}
action buy "Buy" {
  choose c from a chip in your hand
  cost { pay c.price gold }
  move c to table
}
turn {
  stage main { actions: buy }
}
'''


def run(tmp_path: Path, scenarios: str) -> dict[str, ScenarioResult]:
    folder = build_folder(tmp_path, "scenes", RULES + scenarios)
    return {r.name: r for r in run_scenarios(str(folder))}


@covers("ScenarioDecl.name", "ScenarioDecl.setup", "ScenarioDecl.body", "Expect.condition", "Expect.message")
def test_a_scenario_replaces_the_setup_runs_its_body_and_checks_expectations(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "own position" {
  setup {
    let g = create("Gem", hand of player2, player2)
  }
  expect player1.gold == 0 "the game's setup did not run"
  expect count(all chips in hand of player2) == 1
  increase player2.gold by 4
  expect player2.gold == 4
}
scenario "a failing expectation" {
  expect 1 + 1 == 3 "arithmetic is broken"
}
scenario "a failing expectation without a message" {
  expect no
}
''')
    assert results["own position"].passed, results["own position"].message
    failed = results["a failing expectation"]
    assert not failed.passed and failed.message == "arithmetic is broken"
    assert failed.line == RULES.count("\n") + 12, "reported at the expect statement"
    bare = results["a failing expectation without a message"]
    assert not bare.passed and bare.message


@covers("ScenarioDecl.game_setup")
def test_setup_game_runs_the_games_own_setup_first(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "with the game's setup" {
  setup: game
  setup {
    let g = create("Gem", hand of player1, player1)
  }
  expect player1.gold == 5 and player2.gold == 5
  expect count(all chips in hand of player1) == 2
}
''')
    assert all(r.passed for r in results.values()), [r.message for r in results.values()]


@covers("ScenarioDecl.players", "ScenarioDecl.mode")
def test_players_and_mode_start_the_scenarios_match(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "three players, poor" {
  players: 3
  mode: poor
  setup: game
  expect count(players) == 3
  expect player3.gold == 1 "the mode's start"
}
scenario "default" {
  setup: game
  expect count(players) == 2 and player1.gold == 5
}
''')
    assert all(r.passed for r in results.values()), [r.message for r in results.values()]


@covers("ScenarioDecl.seed")
def test_the_seed_decides_the_scenarios_random_draws(tmp_path: Path) -> None:
    reveal = "\n".join(f'  if r == {n} {{ expect no "rolled {n}" }}' for n in range(1, 21))
    scenarios = "".join(f'scenario "seed {seed} {copy}" {{\n  seed: {seed}\n  let r = roll d20\n{reveal}\n}}\n'
                        for seed in range(1, 9) for copy in ("a", "b"))
    results = run(tmp_path, scenarios)
    rolled = {name: r.message for name, r in results.items()}
    assert all(message.startswith("rolled ") for message in rolled.values()), rolled
    for seed in range(1, 9):
        assert rolled[f"seed {seed} a"] == rolled[f"seed {seed} b"], "the same seed, the same roll"
    assert len({rolled[f"seed {seed} a"] for seed in range(1, 9)}) >= 3, "other seeds, other rolls"


@covers("Perform.action", "Perform.by", "Perform.choosing", "Perform.expect_illegal")
def test_perform_takes_an_action_and_expect_illegal_asserts_it_is_not_legal(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "buying" {
  setup: game
  let chip = first(all chips in hand of player1)
  perform buy by player1 choosing chip
  expect player1.gold == 3 and count(all chips in table) == 1
  let gem = create("Gem", hand of player1, player1)
  expect illegal buy by player1 choosing gem
}
scenario "an illegal perform fails" {
  setup: game
  let gem = create("Gem", hand of player1, player1)
  set player1.gold to 3
  perform buy by player1 choosing gem
}
scenario "a legal action expected illegal fails" {
  setup: game
  let chip = first(all chips in hand of player1)
  expect illegal buy by player1 choosing chip
}
''')
    assert results["buying"].passed, results["buying"].message
    assert not results["an illegal perform fails"].passed
    assert not results["a legal action expected illegal fails"].passed
    assert "expected to be illegal" in results["a legal action expected illegal fails"].message


STACKED = '''
game "Stacked scenes" {
  id: stacked_scenes
  players: 2
  first_player: seat1
}
counter tricks per player { start: 0 }
counter laters per player { start: 0 }
action trick "Trick" {
  by: any
  speed: stack
  gain 1 tricks
}
turn {
  stage main { actions: trick; responses: yes }
  stage later { gain 1 laters }
}
scenario "one pass at a time" {
  perform trick by player1
  expect player1.tricks == 0 "the trick waits on the stack"
  player2 passes
  expect player1.tricks == 0 "player1 has not passed yet"
  player1 passes
  expect player1.tricks == 1 "both passed in a row: it resolved"
}
scenario "everyone passes" {
  perform trick by player1
  everyone passes
  expect player1.tricks == 1 and turn_number == 1
}
scenario "a named stage" {
  run stage "later"
  expect player1.laters == 1 and player2.laters == 0
}
scenario "passing out of turn" {
  perform trick by player1
  player1 passes
}
'''


@covers("prelude:pass_priority", "prelude:everyone_passes", "prelude:run_stage")
def test_scenarios_pass_priority_and_run_stages_of_the_played_flow(tmp_path: Path) -> None:
    folder = build_folder(tmp_path, "stacked", STACKED)
    results = {r.name: r for r in run_scenarios(str(folder))}
    for name in ("one pass at a time", "everyone passes", "a named stage"):
        assert results[name].passed, (name, results[name].message)
    # player2 holds priority after player1's trick: player1 may not pass for them
    assert not results["passing out of turn"].passed
