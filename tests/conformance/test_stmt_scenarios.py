"""Conformance: the scenario statements `perform ACTION by PLAYER choosing a, b`,
`expect COND ["message"]` and `expect illegal ACTION by PLAYER [choosing ...]`
(docs/language.md section 2, "scenario"), run with cardsmith.engine.scenarios.run_scenarios:
each scenario's verdict (passed, its message and line) is what the case asserts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardsmith.engine.scenarios import run_scenarios
from conformance.support import build_folder, covers

RULES = '''
game "Scripted" {
  id: scripted
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
zone field shared
zone hand per player { visibility: owner }
cardtype Gem {
  stats { value: number = 1 }
}
card "Ruby" { type: Gem; value: 4 }
card "Opal" { type: Gem; value: 2 }
action take_gem "Take a gem" {
  by: any
  choose g from a gem in field where it.value >= 2
  choose n from [1, 2, 3]
  move g to your hand
  increase you.gold by g.value * n
}
action rich "Rich" {
  condition: you.gold >= 10
  set you.gold to 0
}
heuristic { value: gold + count(hand) }
turn { stage main { actions: take_gem, rich; responses: yes } }
'''

SETUP = '''  players: 2
  setup {
    let ruby = create("Ruby", field, player1)
    let opal = create("Opal", field, player1)
  }
'''


def verdicts(tmp_path: Path, scenarios: str) -> dict[str, tuple[bool, str, int]]:
    folder = build_folder(tmp_path, "scripted", RULES, {"scenarios.cards": scenarios})
    return {r.name: (r.passed, r.message, r.line) for r in run_scenarios(str(folder))}


@covers("Perform.action", "Perform.by", "Perform.choosing", "Expect.condition")
def test_perform_takes_the_action_with_the_scripted_choices(tmp_path: Path) -> None:
    scenario = '''scenario "take the ruby thrice" {
SETUP  let ruby = first(all gems where it.value == 4)
  perform take_gem by player1 choosing ruby, 3
  expect player1.gold == 12
  expect ruby in hand of player1
  expect player2.gold == 0
}
'''.replace("SETUP", SETUP)
    assert verdicts(tmp_path, scenario) == {"take the ruby thrice": (True, "ok", 1)}


@covers("Expect.condition", "Expect.message")
def test_a_failing_expect_fails_the_scenario_with_its_message_and_line(tmp_path: Path) -> None:
    scenario = '''scenario "wrong sum" {
SETUP  let opal = first(all gems where it.value == 2)
  perform take_gem by player1 choosing opal, 2
  expect player1.gold == 4 "two times two"
  expect player1.gold == 5 "two times two is not five"
  expect player1.gold == 4 "never reached"
}
scenario "unnamed failure" {
SETUP  expect player1.gold == 1
}
'''.replace("SETUP", SETUP)
    results = verdicts(tmp_path, scenario)
    lines = scenario.splitlines()
    passed, message, line = results["wrong sum"]
    assert not passed and "two times two is not five" in message
    assert lines[line - 1].strip() == 'expect player1.gold == 5 "two times two is not five"'
    passed, message, line = results["unnamed failure"]
    assert not passed and message and lines[line - 1].strip() == "expect player1.gold == 1"


@covers("Perform.expect_illegal", "Perform.action", "Perform.by", "Perform.choosing")
@pytest.mark.parametrize(("statement", "holds"), [
    ("expect illegal rich by player1", True),                        # its condition fails
    ("expect illegal take_gem by player1 choosing ruby, 9", True),   # 9 is not an option
    ("expect illegal take_gem by player1 choosing ruby, 1", False),  # legal: the expectation fails
])
def test_expect_illegal_asserts_an_action_is_not_legal(tmp_path: Path, statement: str, holds: bool) -> None:
    scenario = f'''scenario "illegal" {{
SETUP  let ruby = first(all gems where it.value == 4)
  {statement}
  expect player1.gold == 0 "an illegal attempt changes nothing"
}}
'''.replace("SETUP", SETUP)
    passed, message, _line = verdicts(tmp_path, scenario)["illegal"]
    assert passed is holds, message


@covers("Perform.expect_illegal")
def test_expect_illegal_for_a_choice_the_where_filters_out(tmp_path: Path) -> None:
    scenario = '''scenario "too cheap" {
  players: 2
  setup {
    let pebble = create("Opal", field, player1)
    set pebble.value to 1
  }
  let pebble = first(all gems)
  expect illegal take_gem by player1 choosing pebble, 1
}
'''
    assert verdicts(tmp_path, scenario)["too cheap"][0] is True
