"""Conformance: `let`, `set` / `increase` / `decrease`, `if` / `elif` / `else`, `for each`,
`repeat`, `while` (docs/language.md section 3), played through one action of a tiny game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardsmith.engine import match as match_module
from conformance.support import build, covers, descriptions, events, take

GAME = '''
game "Control" {
  id: control
  players: 2
  first_player: seat1
}
param start_value: number = 3
counter out shared { start: 0 }
counter trail shared { start: 0 }
counter gold per player { start: 5 }
counter wear per card { start: 0 }
status tired
zone field shared
zone pile shared { ordered }
cardtype Gem {
  stats { value: number = 1 }
  enters: field
}
card "Ruby" { type: Gem; value: 4 }
card "Jade" { type: Gem; value: 3 }
card "Opal" { type: Gem; value: 2 }
setup {
  let ruby = create("Ruby", field, player1)
  let jade = create("Jade", field, player1)
  let opal = create("Opal", field, player2)
}
heuristic { value: out + trail + gold + start_value + count(all tired gems in pile)
  + count(all gems where it.wear > 0) }
DECLS
action go "Go" {
BODY
}
turn { stage main { actions: go } }
'''


def played(tmp_path: Path, body: str, decls: str = "") -> Any:
    match = build(tmp_path, "control", GAME.replace("DECLS", decls).replace("BODY", body)).new_match(seed=1)
    take(match, "Go")
    assert match.error is None, match.error
    return match


def card(match: Any, name: str) -> Any:
    return next(c for c in match.all_cards() if c.name == name)


# ---------------------------------------------------------------- let

@covers("Let.name", "Let.value")
def test_let_binds_a_value_once_computed(tmp_path: Path) -> None:
    # the value is computed when bound: a later change to `out` does not change `before`
    body = "  set out to 2\n  let before = out * 10\n  set out to 7\n  set trail to before"
    match = played(tmp_path, body)
    assert (match.shared["out"], match.shared["trail"]) == (7, 20)


@covers("Let.name", "Let.value")
def test_let_in_an_inner_block_is_local_to_it(tmp_path: Path) -> None:
    body = "  let x = 1\n  if yes {\n    let y = x + 1\n    set out to y\n  }\n  set trail to x"
    match = played(tmp_path, body)
    assert (match.shared["out"], match.shared["trail"]) == (2, 1)


# ---------------------------------------------------------------- set / increase / decrease

ASSIGNMENTS = [
    ("set", "  set out to 9", lambda m: m.shared["out"], 9),
    ("increase", "  set out to 9\n  increase out by 4", lambda m: m.shared["out"], 13),
    ("decrease", "  set out to 9\n  decrease out by 4", lambda m: m.shared["out"], 5),
    # a player's counter, bare (the acting player's) and through a player
    ("increase", "  increase gold by 2", lambda m: m.players[0].counters["gold"], 7),
    ("decrease", "  decrease player2.gold by 2", lambda m: m.players[1].counters["gold"], 3),
    ("set", "  set you.gold to 0", lambda m: m.players[0].counters["gold"], 0),
    # a card's counter, stat and status
    ("increase", '  increase (first(all gems)).wear by 3', lambda m: card(m, "Ruby").counters["wear"], 3),
    ("set", "  for each g in all gems { set g.value to g.value * 10 }", lambda m: card(m, "Jade").base["value"], 30),
    ("decrease", "  let r = first(all gems)\n  decrease r.value by 1", lambda m: card(m, "Ruby").base["value"], 3),
    ("set", "  let r = first(all gems)\n  set r.tired to yes", lambda m: card(m, "Ruby").statuses, {"tired"}),
    # a local
    ("increase", "  let n = 1\n  increase n by 5\n  decrease n by 2\n  set out to n", lambda m: m.shared["out"], 4),
    # an element of a list
    ("set", "  let xs = [1, 2, 3]\n  set xs[2] to 30\n  increase xs[0] by 9\n  set out to xs[0] + xs[2]",
     lambda m: m.shared["out"], 40),
]


@pytest.mark.parametrize(("op", "body", "read", "expected"), ASSIGNMENTS,
                         ids=[b.strip().splitlines()[-1] for _, b, _, _ in ASSIGNMENTS])
def test_set_increase_decrease(tmp_path: Path, op: str, body: str, read: Any, expected: Any) -> None:
    assert read(played(tmp_path, body)) == expected


for _op in ("set", "increase", "decrease"):
    covers(f"Assign.op={_op}", "Assign.target", "Assign.value")(test_set_increase_decrease)


@covers("Assign.op=set", "Assign.target")
def test_set_false_clears_a_status_and_logs_it(tmp_path: Path) -> None:
    body = ("  let r = first(all gems)\n  set r.tired to yes\n  set r.tired to yes\n"
            "  set r.tired to no\n  if not r.tired { set out to 1 }")
    match = played(tmp_path, body)
    assert match.shared["out"] == 1 and card(match, "Ruby").statuses == set()
    assert [e["on"] for e in events(match, "status")] == [True, False], "setting it to what it is changes nothing"


@covers("Assign.op=set", "Assign.target", "Assign.value")
def test_set_logs_the_counter_it_changes(tmp_path: Path) -> None:
    match = played(tmp_path, "  set out to 4\n  increase out by 1")
    assert [e["value"] for e in events(match, "counter") if e.get("counter") == "out"] == [4, 5]


# ---------------------------------------------------------------- if / elif / else

@covers("If.branches", "If.orelse", "Branch.condition", "Branch.body")
@pytest.mark.parametrize(("start", "expected"), [(5, 1), (3, 2), (1, 3)])
def test_if_elif_else_runs_the_first_branch_whose_condition_holds(tmp_path: Path, start: int,
                                                                   expected: int) -> None:
    body = (f"  set trail to {start}\n"
            "  if trail > 4 {\n    set out to 1\n  } elif trail > 2 {\n    set out to 2\n"
            "  } elif trail > 0 {\n    set out to 3\n  } else {\n    set out to 4\n  }")
    assert played(tmp_path, body).shared["out"] == expected


@covers("If.branches", "If.orelse")
def test_if_without_else_does_nothing_when_false(tmp_path: Path) -> None:
    body = "  set out to 5\n  if out > 10 { set out to 1 }\n  if out == 5 { increase out by 1 } else { set out to 0 }"
    assert played(tmp_path, body).shared["out"] == 6


# ---------------------------------------------------------------- loops

@covers("ForEach.var", "ForEach.source", "ForEach.body")
def test_for_each_over_a_query_runs_in_zone_order(tmp_path: Path) -> None:
    body = "  for each g in all gems in field { set out to out * 10 + g.value }"
    assert played(tmp_path, body).shared["out"] == 432


@covers("ForEach.var", "ForEach.source", "ForEach.body")
@pytest.mark.parametrize(("source", "expected"), [
    ("[5, 1, 2]", 512),
    ("players", 12),                       # players, by seat
    ("1..3", 123),                          # a range
    ("field", 432),                         # a zone: its cards
])
def test_for_each_over_lists_players_ranges_and_zones(tmp_path: Path, source: str, expected: int) -> None:
    step = {"players": "x.seat", "field": "x.value"}.get(source, "x")
    body = f"  for x in {source} {{ set out to out * 10 + {step} }}"
    assert played(tmp_path, body).shared["out"] == expected


@covers("ForEach.source", "ForEach.body")
def test_for_each_visits_the_cards_matched_when_it_began(tmp_path: Path) -> None:
    # moving the cards away inside the loop does not cut it short
    body = "  for each g in all gems in field {\n    move g to pile\n    increase out by 1\n  }"
    match = played(tmp_path, body)
    assert match.shared["out"] == 3 and not match.zone("field", None).cards
    assert sorted(c.name for c in match.zone("pile", None).cards) == ["Jade", "Opal", "Ruby"]


@covers("Repeat.count", "Repeat.body")
@pytest.mark.parametrize(("count", "expected"), [("3", 3), ("start_value + 1", 4), ("0", 0),
                                                 ("count(all gems)", 3), ("7 / 2", 3)])
def test_repeat_runs_a_computed_whole_number_of_times(tmp_path: Path, count: str, expected: int) -> None:
    assert played(tmp_path, f"  repeat {count} times {{ increase out by 1 }}").shared["out"] == expected


@covers("While.condition", "While.body")
def test_while_loops_while_the_condition_holds(tmp_path: Path) -> None:
    body = "  set out to 1\n  while out < 100 {\n    set out to out * 3\n    increase trail by 1\n  }"
    match = played(tmp_path, body)
    assert (match.shared["out"], match.shared["trail"]) == (243, 5)


@covers("While.condition", "While.body")
def test_while_that_never_ends_is_stopped_by_the_step_limit_with_a_located_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_module, "MAX_STEPS", 2000)  # the guard itself, reached sooner
    rules = GAME.replace("DECLS", "").replace("BODY", "  while out >= 0 {\n    increase trail by 1\n  }")
    match = build(tmp_path, "endless", rules).new_match(seed=1)
    assert descriptions(match) == ["Go", "pass"]
    take(match, "Go")
    assert match.is_over and match.error is not None
    line = rules.splitlines().index("  while out >= 0 {") + 1
    assert f"line {line}" in match.error, match.error
