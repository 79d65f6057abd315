"""The specialising code generator (issue 18): small pure functions written in line at
their call sites (compiler/inline.py), and the operations on plain ints, abs/min/max,
a card's position and an enum value's property answered in line before the helpers
(codegen_exprs.py). The played match is the truth: the same game compiled with and
without the specialisations plays the same seeded match, log for log; and a rules error
inside a function written in line still stops the match naming a .cards line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, random_played

from cardsmith.compiler import codegen_exprs
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Inline" {
  id: inline
  players: 2
  first_player: seat1
  turn_limit: 40
}
enum Hue {
  red { code: 1 }
  blue { code: 2 }
}
counter score per player { start: 0 }
counter target shared { start: 1 }
zone pile shared { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone discard shared
cardtype Chip {
  stats { value: number = 1 }
  properties { hue: Hue = red }
}
card "Low" {
  type: Chip
  value: 2
  hue: red
  copies: 8
}
card "High" {
  type: Chip
  value: 7
  hue: blue
  copies: 8
}
function twice(x: number) = x + x + target
function gap(p: card, q: card) = abs(twice(p.value) - q.value)
function hue_ok(c: card) = c.hue.code == target or c.value > 5
function best(x: number, y: number) = max(x, y) - min(x, y) + target
function blows_up(x: number) = x * 1000000000 * 1000000000 * target
setup {
  for each name in catalog() { create every copy of name in pile for player1 }
  shuffle pile
  for each p in players {
    repeat 3 times { move top of pile to hand of p }
  }
}
action play "Play" {
  choose c from a chip in your hand where hue_ok(it)
  increase score by best(gap(c, c), twice(score))
  set target to 3 - target
  move c to discard
  if size(pile) > 0 { move top of pile to your hand }
}
action pass "Pass" {
  if size(pile) > 0 { move top of pile to your hand }
}
turn {
  stage main { actions: play, pass }
}
'''

BOOM = GAME.replace('  set target to 3 - target\n', '  increase score by blows_up(score + 1)\n')
BOOM_LINE = next(i for i, line in enumerate(BOOM.splitlines(), 1) if "blows_up(score" in line)


def _compiled(tmp_path: Path, text: str, name: str) -> CompiledGame:
    game: CompiledGame = compiled_rules(tmp_path / name, text)
    return game


def _generic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The code generator without its specialisations: every call and operation goes
    through the runtime's helpers, as before issue 18."""
    for method in ("inline", "int_guard", "native_in_line", "attr_in_line"):
        monkeypatch.setattr(codegen_exprs.ExprWriter, method, lambda *args: None)


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 60)


def test_small_functions_are_written_in_line_and_their_calls_are_gone(tmp_path: Path) -> None:
    source = _compiled(tmp_path, GAME, "g").source
    rules = source[source.index("def A_play"):]
    rules = rules[:rules.index("\n\n\n")]
    for name in ("twice", "gap", "hue_ok", "best"):
        assert f"F_{name}(" not in rules, name
        assert f"def F_{name}(" in source  # still defined: the handler table names it
    assert "rt.add(" in rules and "rt.sub(" in rules  # the helpers stay for what is not a plain int
    assert "rt.NO_PROPS" in source and "fn.fn_abs(" in source and " := " in source
    # every name the specialised code uses is a validated identifier or a repr() literal
    for temp in set(re.findall(r"\b_i\d+\b", source)):
        assert temp.isidentifier()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_specialised_and_generic_code_play_the_same_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          seed: int) -> None:
    fast = _played(_compiled(tmp_path, GAME, "fast"), seed)
    with monkeypatch.context() as patch:
        _generic(patch)
        generic_game = _compiled(tmp_path, GAME, "generic")
    assert "F_gap(" in generic_game.source[generic_game.source.index("def A_play"):]
    generic = _played(generic_game, seed)
    assert fast == generic
    assert fast[1] in (None, "no winner after 40 turns")  # (the game has no winning rule)
    assert sum(1 for e in fast[0] if str(e.get("description", "")).startswith("Play:")) > 5


def test_a_rules_error_inside_a_function_written_in_line_names_a_cards_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _compiled(tmp_path, BOOM, "boom")
    assert "F_blows_up(" not in game.source[game.source.index("def A_play"):]
    fast = _played(game, 1)
    with monkeypatch.context() as patch:
        _generic(patch)
        generic = _played(_compiled(tmp_path, BOOM, "generic"), 1)
    assert fast[1] is not None and fast[1].startswith("number too large")
    assert fast[1].endswith(f"(line {BOOM_LINE})")  # the statement calling the function
    assert fast == generic  # the same message, at the same moment, as the call gave


def test_arguments_that_are_not_plain_are_evaluated_once_and_first(tmp_path: Path) -> None:
    source = _compiled(tmp_path, GAME, "g").source
    # `twice(score)`: the counter is read once, into a temporary, then the body uses it
    assert re.search(r"\(_i\d+ := rt\.own_counter\(m, ctx, 'score'\)\)", source)
