"""Conformance: literal values and collections (docs/language.md section 4, "literals").

Each case writes a game whose one action sets a shared counter from the expression under
test (or branches on it), takes the action in a played match and reads the counter: the
value the rules computed at play time is the value the language promises.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cardsmith.dsl import ir
from conformance.support import build, covers, descriptions, events, take

GAME = '''
game "Values" {
  id: values
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter seen shared { start: 0 }
heuristic { value: out + seen }
DECLS
action go "Go" {
BODY
}
turn { stage main { actions: go } }
'''


def play(tmp_path: Path, body: str, decls: str = "", seed: int = 1) -> Any:
    """Build the game with this action body, take the action once, return the match."""
    rules = GAME.replace("DECLS", decls).replace("BODY", body + "\n  increase seen by 1")
    game = build(tmp_path, "values", rules)
    match = game.new_match(seed=seed)
    assert descriptions(match) == ["Go", "pass"]
    take(match, "Go")
    assert match.error is None, match.error
    assert match.shared["seen"] == 1, "the action ran to its end"
    return match


def value(tmp_path: Path, expr: str, decls: str = "") -> Any:
    """The value `expr` gives at play time (stored in a counter)."""
    return play(tmp_path, f"  set out to {expr}", decls).shared["out"]


def holds(tmp_path: Path, condition: str, decls: str = "") -> bool:
    """Whether `condition` held at play time (read through an if/else)."""
    body = f"  if {condition} {{ set out to 1 }} else {{ set out to 2 }}"
    return {1: True, 2: False}[play(tmp_path, body, decls).shared["out"]]


@covers("Num.num", "Num.den")
@pytest.mark.parametrize(("expr", "expected"), [
    ("42", 42),
    ("1.5 + 1.5", 3),
    ("0.1 + 0.2", Fraction(3, 10)),  # exact decimals: no binary rounding
    ("2.25 * 4", 9),
])
def test_numbers_are_exact_integers_and_decimals(tmp_path: Path, expr: str, expected: Any) -> None:
    got = value(tmp_path, expr)
    assert got == expected and type(got) is type(expected)


@covers("Num.num", "Num.den")
def test_an_exact_decimal_equals_its_sum(tmp_path: Path) -> None:
    assert holds(tmp_path, "0.1 + 0.2 == 0.3")


@covers("Text.value")
def test_text_is_compared_by_value_and_said_as_written(tmp_path: Path) -> None:
    body = '  if "ruby" == "ruby" and "ruby" != "opal" { set out to 1 }\n  say "line one\\nsaid \\"twice\\""'
    match = play(tmp_path, body)
    assert match.shared["out"] == 1
    assert [e["message"] for e in events(match, "say")] == ['line one\nsaid "twice"']


@covers("Text.value")
def test_triple_quoted_text_spans_lines(tmp_path: Path) -> None:
    match = play(tmp_path, '  say """two\n  lines"""')
    assert [e["message"] for e in events(match, "say")] == ["two\n  lines"]


@covers("Bool.value")
@pytest.mark.parametrize(("condition", "expected"), [("yes", True), ("no", False)])
def test_booleans(tmp_path: Path, condition: str, expected: bool) -> None:
    assert holds(tmp_path, condition) is expected


@covers("Compare.op===")
def test_none_is_no_value(tmp_path: Path) -> None:
    # `none` equals only none; an index past the end of a list gives none
    assert holds(tmp_path, "none == none and [1, 2][5] == none and [1, 2][0] != none")


@covers("Compare.op===")
def test_comparing_a_literal_with_none_compiles_cleanly(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        assert holds(tmp_path, "not (none == 0)")


@covers("Compare.op===", "Compare.op=!=")
@pytest.mark.parametrize(("condition", "expected"), [
    ("0 != none", True), ('"a" == none', False), ("none != 1.5", True),
    ("you == 0", False), ("3 == current", False), ("current != 3", True),  # a player is never a number
])
def test_a_literal_compared_with_none_or_a_player_compiles_cleanly(tmp_path: Path, condition: str,
                                                                    expected: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        assert holds(tmp_path, condition) is expected


@covers("Dice.count", "Dice.sides", "Roll.dice")
def test_a_roll_draws_each_die_from_the_seeded_rng_and_logs_it(tmp_path: Path) -> None:
    totals = []
    for seed in (1, 2, 3):
        rules = GAME.replace("DECLS", "").replace("BODY", "  set out to roll 3d4")
        match = build(tmp_path / str(seed), "dice", rules).new_match(seed=seed)
        take(match, "Go")
        (rolled,) = events(match, "roll")
        assert rolled["dice"] == "3d4" and len(rolled["results"]) == 3
        assert all(1 <= r <= 4 for r in rolled["results"])
        assert match.shared["out"] == sum(rolled["results"])
        totals.append(match.shared["out"])
        again = build(tmp_path / f"{seed}b", "dice", rules).new_match(seed=seed)
        take(again, "Go")
        assert again.shared["out"] == match.shared["out"], "same seed, same roll"
    assert len(set(totals)) > 1, "different seeds roll differently"


@covers("Roll.dice")
def test_roll_of_a_number_is_one_die_of_that_many_sides(tmp_path: Path) -> None:
    match = play(tmp_path, "  let n = 6\n  set out to roll n")
    (rolled,) = events(match, "roll")
    assert rolled["dice"] == "d6" and [match.shared["out"]] == rolled["results"]


@covers("Dice.count", "Dice.sides")
def test_a_die_used_as_a_number_is_rolled(tmp_path: Path) -> None:
    # `repeat d1 ...` is not legal (a die has two or more sides); a d2 stat read as a count
    decls = "zone pile shared\ncardtype Die {\n  stats { face: dice = d2 }\n}\ncard \"Coin\" { type: Die }"
    body = '  let c = create("Coin", pile)\n  repeat c.face times { increase out by 1 }'
    match = play(tmp_path, body, decls)
    (rolled,) = events(match, "roll")
    assert rolled["dice"] == "d2" and match.shared["out"] == rolled["results"][0]


@covers("Dim.mm", "Dim.written")
def test_dimensions_are_lengths_normalised_to_millimetres(tmp_path: Path) -> None:
    assert holds(tmp_path, "1cm == 10mm and 1in == 25.4mm and 72pt == 1in and 2cm != 2mm")
    rules = GAME.replace("DECLS", "").replace("BODY", "  if 0.5in == 12.7mm { set out to 1 }")
    folder_game = build(tmp_path / "ir", "dims", rules)
    dims = [n for n in _walk(folder_game.ir.actions[0].body) if isinstance(n, ir.Dim)]
    assert [(d.written, d.mm) for d in dims] == [("0.5in", 12.7), ("12.7mm", 12.7)]


def _walk(node: Any) -> list[Any]:
    """Every IR node under `node` (lists and fields, depth first)."""
    found: list[Any] = []
    if isinstance(node, list):
        for item in node:
            found += _walk(item)
    elif isinstance(node, ir.Node):
        found.append(node)
        for field in type(node).model_fields:
            found += _walk(getattr(node, field))
    return found


@covers("CardRef.name")
def test_a_quoted_card_name_names_the_card(tmp_path: Path) -> None:
    decls = 'zone pile shared\ncardtype Gem {\n  stats { value: number = 1 }\n}\ncard "Ruby" { type: Gem; copies: 3 }'
    match = play(tmp_path, '  create every copy of "Ruby" in pile\n  set out to copies_of("Ruby")', decls)
    assert match.shared["out"] == 3
    assert [c.name for c in match.zone("pile", None).cards] == ["Ruby"] * 3


@covers("ListExpr.items", "Index.obj", "Index.index")
def test_lists_are_built_indexed_from_zero_and_changed_in_place(tmp_path: Path) -> None:
    body = "  let xs = [10, 20, 30]\n  set xs[1] to xs[1] + 5\n  set out to xs[0] + xs[1] * 100 + count(xs) * 10000"
    assert play(tmp_path, body).shared["out"] == 10 + 2500 + 30000


@covers("RangeExpr.low", "RangeExpr.high", "Contains.item", "Contains.collection")
@pytest.mark.parametrize(("condition", "expected"), [
    ("3 in 2..4", True),
    ("4 in 2..4", True),   # inclusive
    ("5 in 2..4", False),
    ("5 in 3..", True),    # open above
    ("5 in ..4", False),   # open below
    ("-9 in ..4", True),
])
def test_ranges_are_inclusive_and_may_be_open(tmp_path: Path, condition: str, expected: bool) -> None:
    assert holds(tmp_path, condition) is expected


@covers("RangeExpr.low", "RangeExpr.high")
def test_a_closed_range_can_be_looped_over(tmp_path: Path) -> None:
    body = "  let span = 2..5\n  for each i in span { increase out by i }"
    assert play(tmp_path, body).shared["out"] == 14


@covers("Conditional.condition", "Conditional.then", "Conditional.otherwise")
@pytest.mark.parametrize(("param", "expected"), [(5, 8), (2, 9)])
def test_if_then_else_picks_one_value(tmp_path: Path, param: int, expected: int) -> None:
    decls = f"param base: number = {param}"
    assert value(tmp_path, "if base > 3 then 8 else 9", decls) == expected
