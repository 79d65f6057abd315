"""Scenarios on the played flow (engine/scenario_flow.py): `perform` respects timing,
`expect illegal` tests options, every choice can be scripted, `run stage`, `end the
turn`, `everyone passes`, `setup: game`; and the language changes issue 12 made
(removed constructs, durations that lapse or are rejected, `rolled`, where created cards go).
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_game

from cardsmith.compiler.api import check_game
from cardsmith.engine.scenario_steps import ScenarioResult
from cardsmith.engine.scenarios import run_scenarios

RULES = '''
game "Flow" { id: flowtest; players: 2; first_player: seat1 }
counter gold per player { start: 0 }
counter marks per player { start: 0 }
counter stamp per player { start: 0 }
zone hand per player { visibility: owner }
zone pile per player { ordered }
zone table shared
cardtype Unit { stats { power: number = 1 } }
card "Pawn" { type: Unit; power: 1 }
card "Rook" { type: Unit; power: 3 }
setup {
  for each p in players { p gains 2 gold }
}
turn {
  stage early { actions: grab; responses: yes }
  stage late { actions: grab, mark }
  stage tidy {
    always: yes
    increase you.stamp by 1
  }
}
action grab "Grab" {
  choose c from a unit in your hand
  move c to table
}
action mark "Mark" {
  choose c from a unit in table where it.power >= 2
  choose one {
    option "Once" { increase you.marks by 1 }
    option "Twice" { increase you.marks by 2 }
  }
}
action zap "Zap" {
  by: any
  speed: instant
  choose c from a unit in table
  move c to pile of c.owner
}
'''


def run(tmp_path: Path, scenarios: str, rules: str = RULES) -> dict[str, ScenarioResult]:
    folder = write_game(tmp_path / "g", {"rules.cards": rules, "scenarios.cards": scenarios})
    result = check_game(str(folder))
    assert result.game is not None and not [d for d in result.diagnostics if d.severity == "error"], \
        [d.message for d in result.diagnostics]
    return {r.name: r for r in run_scenarios(str(folder))}


def diagnostics(tmp_path: Path, rules: str) -> list[str]:
    folder = write_game(tmp_path / "d", {"rules.cards": rules})
    return [f"{d.code} {d.message} ({d.hint})" for d in check_game(str(folder)).diagnostics]


def test_perform_respects_who_may_act_and_in_which_stage(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "on its own turn and stage" {
  setup { let r = create("Rook", hand of player1, player1) }
  perform grab by player1 choosing r
  expect r.zone == table
}
scenario "not on the other player's turn" {
  setup { let r = create("Rook", hand of player2, player2) }
  perform grab by player2 choosing r
}
scenario "expect illegal: not their turn" {
  setup { let r = create("Rook", hand of player2, player2) }
  expect illegal grab by player2 choosing r
}
scenario "mark is offered in late, not in early" {
  setup { let r = create("Rook", table, player1) }
  expect illegal mark by player1 choosing r
  run stage "late"
  perform mark by player1 choosing r, "Twice"
  expect player1.marks == 2
}
''')
    assert results["on its own turn and stage"].passed, results["on its own turn and stage"].message
    refused = results["not on the other player's turn"]
    assert not refused.passed and "player1 holds priority in stage 'early'" in refused.message
    assert results["expect illegal: not their turn"].passed
    assert results["mark is offered in late, not in early"].passed, results["mark is offered in late, not in early"]


def test_expect_illegal_asserts_a_target_or_option_is_not_offered(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "a weak unit is no target" {
  setup {
    let p = create("Pawn", table, player1)
    let r = create("Rook", table, player1)
  }
  run stage "late"
  expect illegal mark by player1 choosing p
  expect illegal mark by player1 choosing r, "Thrice"
}
scenario "an offered target is not illegal" {
  setup { let r = create("Rook", table, player1) }
  run stage "late"
  expect illegal mark by player1 choosing r
}
''')
    assert results["a weak unit is no target"].passed, results["a weak unit is no target"].message
    offered = results["an offered target is not illegal"]
    assert not offered.passed and "expected to be illegal" in offered.message and "Mark: Rook" in offered.message


def test_another_players_response_and_everyone_passes(tmp_path: Path) -> None:
    """player2 answers in player1's window (responses: yes) with an instant action; it
    waits on the stack until everyone passes."""
    results = run(tmp_path, '''
scenario "a response waits until everyone passes" {
  setup {
    let r = create("Rook", hand of player1, player1)
    let p = create("Pawn", table, player1)
  }
  perform grab by player1 choosing r
  player1 passes
  perform zap by player2 choosing r
  expect r.zone == table "the zap waits on the stack"
  everyone passes
  expect r.zone == pile of player1 and top of pile of player1 == r
  expect p.zone == table
}
scenario "the wrong player cannot pass" {
  player2 passes
}
''')
    assert results["a response waits until everyone passes"].passed, results["a response waits until everyone passes"]
    wrong = results["the wrong player cannot pass"]
    assert not wrong.passed and "player2 cannot pass: player1 holds priority" in wrong.message


def test_end_the_turn_runs_the_rest_of_the_turn_as_a_played_match(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "end the turn" {
  setup { let r = create("Rook", table, player1) }
  end the turn
  expect current == player2 "the scenario stands at the start of player 2's turn"
  expect player1.stamp == 1 "the always stage ran"
  expect player1.marks == 0
  expect illegal grab by player1
  end the turn
  expect current == player1 and player2.stamp == 1
}
''')
    assert results["end the turn"].passed, results["end the turn"].message


def test_run_stage_choosing_scripts_a_stages_own_choices(tmp_path: Path) -> None:
    rules = RULES.replace('''  stage tidy {''', '''  stage pick {
    choose c from a unit in table by current
    move c to pile of current
  }
  stage tidy {''')
    results = run(tmp_path, '''
scenario "scripted" {
  setup {
    let p = create("Pawn", table, player1)
    let r = create("Rook", table, player1)
  }
  run stage "pick" choosing [r]
  expect r.zone == pile of player1 and p.zone == table
}
scenario "not an option" {
  setup { let p = create("Pawn", table, player1) }
  run stage "pick" choosing [p, p]
}
scenario "unscripted takes the first option" {
  setup {
    let p = create("Pawn", table, player1)
    let r = create("Rook", table, player1)
  }
  run stage "pick"
  expect p.zone == pile of player1
}
''', rules)
    assert results["scripted"].passed, results["scripted"].message
    assert not results["not an option"].passed and "no choice was left to take" in results["not an option"].message
    assert results["unscripted takes the first option"].passed, results["unscripted takes the first option"].message


def test_setup_game_opts_in_to_the_games_own_setup(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "own setup" {
  setup: game
  expect player1.gold == 2 and player2.gold == 2
}
scenario "replaced setup" {
  expect player1.gold == 0
}
scenario "own setup, then more" {
  setup: game
  setup { player1 gains 1 gold }
  expect player1.gold == 3
}
''')
    assert all(r.passed for r in results.values()), {n: r.message for n, r in results.items()}


def test_create_and_move_put_a_card_on_top_of_an_ordered_zone(tmp_path: Path) -> None:
    results = run(tmp_path, '''
scenario "same end" {
  setup {
    let a = create("Pawn", pile of player1, player1)
    let b = create("Rook", pile of player1, player1)
    let c = create("Pawn", table, player1)
  }
  expect top of pile of player1 == b "the card created last is on top"
  move c to pile of player1
  expect top of pile of player1 == c "a moved card goes on top too"
  put c on the bottom of pile of player1
  expect top of pile of player1 == b
}
''')
    assert results["same end"].passed, results["same end"].message


def test_scenario_statements_are_rejected_outside_scenarios_and_stage_names_are_checked(tmp_path: Path) -> None:
    rules = RULES.replace('''action grab "Grab" {''', '''action wait "Wait" {
  everyone passes
}
action grab "Grab" {''')
    found = diagnostics(tmp_path, rules)
    assert any("'everyone passes' only works in a scenario" in d for d in found), found
    found = diagnostics(tmp_path, RULES + '''
scenario "typo" { run stage "lat" }
''')
    assert any("no stage or step is named 'lat'" in d and "late" in d for d in found), found


def test_removed_constructs_say_what_replaces_them(tmp_path: Path) -> None:
    found = diagnostics(tmp_path, RULES.replace('''  stage tidy {
    always: yes''', '''  stage tidy {
    automated
    always: yes''').replace('''action grab "Grab" {''', '''action grab "Grab" {
  during: early'''))
    assert any(d.startswith("CS0206 'automated' is not part of the language") for d in found), found
    assert any(d.startswith("CS0206 'during:' is not part of the language") for d in found), found


def test_durations_that_could_not_work_are_errors(tmp_path: Path) -> None:
    def with_effect(line: str) -> list[str]:
        return diagnostics(tmp_path, RULES.replace('''  move c to table
}''', f'''  move c to table
  {line}
}}''', 1))
    assert any("'until end of game' only repeats 'permanently'" in d for d in with_effect(
        "increase c.power by 1 until end of game"))
    assert any("CS0303" in d and "counter" in d for d in with_effect("increase gold by 1 until end of turn"))
    assert any("CS0303" in d and ("a player's 'marks'" in d or "counter 'marks'" in d)
               for d in with_effect("increase you.marks by 1 until end of turn"))
    assert any("unknown period 'combat'" in d for d in with_effect("increase c.power by 1 until end of combat"))
    assert not with_effect("increase c.power by 1 until end of late")
    assert not with_effect("increase c.power by 1 until your next turn")


def test_perform_and_expect_are_scenario_statements(tmp_path: Path) -> None:
    """In the rules, a `perform` would take an action outside any window and an `expect`
    would stop the match: both are errors at check, not surprises in play."""
    found = diagnostics(tmp_path, RULES.replace('''action grab "Grab" {''', '''action wait "Wait" {
  perform grab by player1
  expect player1.gold == 0
}
action grab "Grab" {'''))
    assert any(d.startswith("CS0205 'perform' only works in a scenario") for d in found), found
    assert any(d.startswith("CS0205 'expect' only works in a scenario") for d in found), found
