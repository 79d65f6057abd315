"""Conformance: `emit`, `cancel`, `return` and phrases — statements that call procedures
(docs/language.md section 3 and section 2 "procedure and function").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, emitted, events, take

GAME = '''
game "Calls" {
  id: calls
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter hits shared { start: 0 }
counter gold per player { start: 0 }
zone field shared
cardtype Gem {
  stats { value: number = 1 }
  enters: field
}
card "Ruby" { type: Gem; value: 4 }
heuristic { value: out + hits + gold }
DECLS
action go "Go" {
BODY
}
turn { stage main { actions: go } }
'''


def played(tmp_path: Path, body: str, decls: str = "") -> Any:
    match = build(tmp_path, "calls", GAME.replace("DECLS", decls).replace("BODY", body)).new_match(seed=1)
    take(match, "Go")
    assert match.error is None, match.error
    return match


# ---------------------------------------------------------------- emit

EVENTS = '''
event pinged(amount: number, who: player)
on pinged(n, p) where n > 1 {
  increase hits by n
  increase p.gold by 1
}
'''


@covers("Emit.event", "Emit.args")
def test_emit_raises_the_event_with_its_arguments_for_every_trigger(tmp_path: Path) -> None:
    match = played(tmp_path, "  emit pinged(3, player2)\n  emit pinged(1, player2)\n  emit pinged(5, you)", EVENTS)
    assert emitted(match, "pinged") == [[3, "player2"], [1, "player2"], [5, "player1"]]
    assert match.shared["hits"] == 8  # the trigger's condition left out the 1
    assert [p.counters["gold"] for p in match.players] == [1, 1]


@covers("Emit.event", "Emit.args")
def test_an_event_is_handled_before_the_next_statement(tmp_path: Path) -> None:
    match = played(tmp_path, "  emit pinged(2, you)\n  set out to hits * 10", EVENTS)
    assert match.shared["out"] == 20


# ---------------------------------------------------------------- phrases

BUMP = '''
procedure bump(n: number = 1, who: player = you) "bump by {n}" "bump {who} by {n}" "bump" {
  increase who.gold by n
}
'''
TALLY = '''
procedure tally(first_value: number, second_value: number) "tally {first_value} and {second_value}" {
  set out to first_value * 10 + second_value
}
'''
DEAL = '''
procedure deal(amount: number, target: card) "deal {amount} to {target}" "deal {amount} damage to {target}" {
  increase target.value by amount
  set out to amount
}
'''
MARK = '''
procedure mark(source: card = self) "mark it" {
  if source == none { set out to 77 } else { set out to source.value }
}
'''


@covers("Invoke.procedure", "Invoke.args", "Invoke.phrase")
@pytest.mark.parametrize(("body", "gold"), [
    ("  bump by 3", [3, 0]),
    ("  bump", [1, 0]),                       # every parameter takes its default (`you`: the actor)
    ("  bump player2 by 2", [0, 2]),
    ("  bump by 2 + 3", [5, 0]),              # {n} takes one or more words, read as an expression
    ("  BUMP BY 2", [2, 0]),                  # literal words match case-insensitively
])
def test_a_phrase_calls_the_procedure_whose_pattern_matches(tmp_path: Path, body: str, gold: list[int]) -> None:
    match = played(tmp_path, body, BUMP)
    assert [p.counters["gold"] for p in match.players] == gold


@covers("Invoke.procedure", "Invoke.args")
def test_a_procedure_called_by_name_with_positional_and_named_arguments(tmp_path: Path) -> None:
    match = played(tmp_path, "  bump(6, player2)\n  bump(n = 2)", BUMP)
    assert [p.counters["gold"] for p in match.players] == [2, 6]


@covers("Invoke.phrase", "Invoke.args")
def test_the_pattern_with_the_most_literal_words_wins(tmp_path: Path) -> None:
    # "deal {amount} damage to {target}" and "deal {amount} to {target}" both match
    # `deal 2 damage to r`; the first has more literal words, so `amount` is 2, not "2 damage"
    body = '  let r = create("Ruby", field, you)\n  deal 2 damage to r\n  set hits to r.value'
    match = played(tmp_path, body, DEAL)
    assert (match.shared["out"], match.shared["hits"]) == (2, 6)


@covers("Invoke.phrase", "Invoke.args")
def test_an_argument_holding_a_literal_word_is_parenthesised(tmp_path: Path) -> None:
    body = "  tally (1 + 2) and 4"
    assert played(tmp_path, body, TALLY).shared["out"] == 34


@covers("Invoke.procedure", "Invoke.args")
def test_self_defaults_to_the_card_whose_ability_runs(tmp_path: Path) -> None:
    decls = MARK + '''
card "Lens" {
  type: Gem
  value: 9
  activate "Mark" { mark it }
}
setup { let lens = create("Lens", field, player1) }'''
    rules = GAME.replace("DECLS", decls).replace("BODY", "  mark it").replace("actions: go", "actions: go, activate")
    match = build(tmp_path, "self", rules).new_match(seed=1)
    take(match, "Lens: Mark")
    assert match.shared["out"] == 9
    take(match, "Go")  # an action has no self
    assert match.shared["out"] == 77


@covers("Invoke.procedure")
def test_a_procedure_may_call_another(tmp_path: Path) -> None:
    decls = BUMP + 'procedure bump_twice(n: number) "bump twice by {n}" {\n  bump by n\n  bump by n\n}\n'
    match = played(tmp_path, "  bump twice by 3", decls)
    assert match.players[0].counters["gold"] == 6


# ---------------------------------------------------------------- return

@covers("Return.value")
def test_return_leaves_a_procedure_early(tmp_path: Path) -> None:
    decls = 'procedure capped(n: number) "store {n} unless large" {\n  if n > 10 { return }\n  set out to n\n}\n'
    match = played(tmp_path, "  store 4 unless large\n  store 20 unless large", decls)
    assert match.shared["out"] == 4


@covers("Return.value")
def test_return_gives_a_functions_value(tmp_path: Path) -> None:
    decls = '''function sign(x: number) {
  if x > 0 { return 1 }
  if x < 0 { return 0 - 1 }
  return 0
}'''
    match = played(tmp_path, "  set out to sign(5) * 100 + sign(0) * 10 + sign(-3)", decls)
    assert match.shared["out"] == 99


# ---------------------------------------------------------------- cancel

@covers("Hook.when=before", "Hook.condition")
def test_cancel_in_a_before_hook_stops_the_procedure(tmp_path: Path) -> None:
    decls = BUMP + '''
card "Ward" {
  type: Gem
  before bump where n > 5 { cancel }
}
setup { let ward = create("Ward", field, player1) }'''
    match = played(tmp_path, "  bump by 9\n  bump by 2", decls)
    assert match.players[0].counters["gold"] == 2
    assert [e["procedure"] for e in events(match, "cancelled")] == ["bump"]
