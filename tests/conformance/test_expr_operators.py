"""Conformance: operators (docs/language.md section 4): arithmetic `+ - * / // %`, unary
minus, comparisons, `and` / `or` / `not`, `x in xs` / `x not in xs`, `x is ...` /
`x is not ...`.

Each case takes one action of a tiny played match and reads what it computed.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, take

GAME = '''
game "Operators" {
  id: operators
  players: 2
  first_player: seat1
}
param seven: number = 7
param two: number = 2
counter out shared { start: 0 }
counter seen shared { start: 0 }
heuristic { value: out + seen + seven + two }
DECLS
action go "Go" {
BODY
  increase seen by 1
}
turn { stage main { actions: go } }
'''


def play(tmp_path: Path, body: str, decls: str = "") -> Any:
    game = build(tmp_path, "operators", GAME.replace("DECLS", decls).replace("BODY", body))
    match = game.new_match(seed=1)
    take(match, "Go")
    assert match.error is None and match.shared["seen"] == 1, match.error
    return match


def value(tmp_path: Path, expr: str, decls: str = "") -> Any:
    return play(tmp_path, f"  set out to {expr}", decls).shared["out"]


def holds(tmp_path: Path, condition: str, decls: str = "") -> bool:
    out = play(tmp_path, f"  if {condition} {{ set out to 1 }} else {{ set out to 2 }}", decls).shared["out"]
    return {1: True, 2: False}[out]


# ---------------------------------------------------------------- arithmetic

ARITHMETIC = [
    ("+", "seven + two", 9),
    ("-", "seven - two", 5),
    ("-", "two - seven", -5),
    ("*", "seven * two", 14),
    ("/", "seven / two", Fraction(7, 2)),   # exact division
    ("/", "seven / two * two", 7),          # stays exact: back to a whole number
    ("//", "seven // two", 3),              # floor division
    ("//", "(0 - seven) // two", -4),       # floor, not truncation
    ("//", "7.5 // 2", 3),
    ("%", "seven % two", 1),
    ("%", "(0 - seven) % 3", 2),            # the remainder of floor division
    ("%", "7.5 % 2", Fraction(3, 2)),
]


@pytest.mark.parametrize(("op", "expr", "expected"), ARITHMETIC, ids=[f"{op} {e}" for op, e, _ in ARITHMETIC])
def test_arithmetic(tmp_path: Path, op: str, expr: str, expected: Any) -> None:
    got = value(tmp_path, expr)
    assert got == expected and type(got) is type(expected)


# register each operator with the cases above (one registration per operator value)
for _op in ("+", "-", "*", "/", "//", "%"):
    covers(f"BinOp.op={_op}", "BinOp.left", "BinOp.right")(test_arithmetic)


@covers("BinOp.op=*", "BinOp.op=+")
def test_precedence_products_before_sums_and_parentheses_first(tmp_path: Path) -> None:
    assert value(tmp_path, "1 + two * 3") == 7
    assert value(tmp_path, "(1 + two) * 3") == 9


@covers("BinOp.op=/")
def test_division_by_zero_is_a_rules_error_naming_the_line(tmp_path: Path) -> None:
    # (a constant zero divisor is rejected by the checker; this one is zero only at play time)
    game = build(tmp_path, "divzero", GAME.replace("DECLS", "").replace("BODY", "  set out to seven / out"))
    match = game.new_match(seed=1)
    take(match, "Go")
    assert match.is_over and match.error is not None
    assert "division by zero" in match.error and "line 14" in match.error


@covers("Neg.operand")
@pytest.mark.parametrize(("expr", "expected"), [("-seven", -7), ("-(-seven)", 7), ("-(two - seven)", 5),
                                                ("-1.5", Fraction(-3, 2))])
def test_unary_minus(tmp_path: Path, expr: str, expected: Any) -> None:
    assert value(tmp_path, expr) == expected


# ---------------------------------------------------------------- comparisons

COMPARISONS = [
    ("==", "seven == 7", True), ("==", "seven == two", False), ("==", '"a" == "a"', True),
    ("!=", "seven != two", True), ("!=", "seven != 7", False),
    ("<", "two < seven", True), ("<", "seven < seven", False),
    ("<=", "seven <= 7", True), ("<=", "seven <= two", False),
    (">", "seven > two", True), (">", "two > two", False),
    (">=", "two >= 2", True), (">=", "two >= seven", False),
    ("<", "1.5 < 2", True), (">=", "7 / 2 >= 3.5", True),
]


@pytest.mark.parametrize(("op", "condition", "expected"), COMPARISONS,
                         ids=[f"{c} -> {e}" for _, c, e in COMPARISONS])
def test_comparisons(tmp_path: Path, op: str, condition: str, expected: bool) -> None:
    assert holds(tmp_path, condition) is expected


for _op in ("==", "!=", "<", "<=", ">", ">="):
    covers(f"Compare.op={_op}", "Compare.left", "Compare.right")(test_comparisons)


@covers("Compare.op===", "Compare.op=!=")
def test_cards_and_players_compare_by_identity(tmp_path: Path) -> None:
    decls = ('zone pile shared\ncardtype Gem {\n  stats { value: number = 1 }\n}\ncard "Ruby" { type: Gem }')
    body = ('  let one = create("Ruby", pile, player1)\n  let other = create("Ruby", pile, player1)\n'
            '  if one != other and one == one and you == player1 and you != player2 { set out to 1 }')
    assert play(tmp_path, body, decls).shared["out"] == 1


@covers("Compare.op===")
def test_an_enum_value_equals_its_name(tmp_path: Path) -> None:
    decls = ('enum Colour { Red; Blue }\nzone pile shared\ncardtype Gem {\n  properties { colour: Colour = Red }\n}\n'
             'card "Ruby" { type: Gem }')
    body = '  let r = create("Ruby", pile, player1)\n  if r.colour == Red and r.colour != Blue { set out to 1 }'
    assert play(tmp_path, body, decls).shared["out"] == 1


# ---------------------------------------------------------------- and, or, not

LOGIC = [
    ("and", "yes and yes", True), ("and", "yes and no", False), ("and", "no and yes", False),
    ("or", "no or yes", True), ("or", "yes or no", True), ("or", "no or no", False),
    ("and", "seven > 1 and two > 1", True), ("or", "seven < 1 or two < 1", False),
]


@pytest.mark.parametrize(("op", "condition", "expected"), LOGIC, ids=[c for _, c, _ in LOGIC])
def test_and_or(tmp_path: Path, op: str, condition: str, expected: bool) -> None:
    assert holds(tmp_path, condition) is expected


for _op in ("and", "or"):
    covers(f"Logic.op={_op}", "Logic.left", "Logic.right")(test_and_or)


@covers("Logic.op=and", "Logic.op=or")
def test_and_binds_tighter_than_or(tmp_path: Path) -> None:
    assert holds(tmp_path, "yes or no and no")
    assert not holds(tmp_path, "(yes or no) and no")


@covers("Not.operand")
@pytest.mark.parametrize(("condition", "expected"), [("not no", True), ("not yes", False),
                                                     ("not seven > 10", True), ("not not yes", True)])
def test_not(tmp_path: Path, condition: str, expected: bool) -> None:
    assert holds(tmp_path, condition) is expected


# ---------------------------------------------------------------- in / not in

CONTAINS_DECLS = '''
zone pile shared
zone bin shared
cardtype Gem {
  stats { value: number = 1 }
}
card "Ruby" { type: Gem }
'''


@covers("Contains.item", "Contains.collection", "Contains.negated")
@pytest.mark.parametrize(("condition", "expected"), [
    ("seven in [1, 7, 9]", True),
    ("two in [1, 7, 9]", False),
    ("seven not in [1, 7, 9]", False),
    ("two not in [1, 7, 9]", True),
    ("seven in 5..9", True),
    ("seven not in 1..6", True),
    ('"b" in ["a", "b"]', True),
])
def test_in_and_not_in_lists_and_ranges(tmp_path: Path, condition: str, expected: bool) -> None:
    assert holds(tmp_path, condition) is expected


@covers("Contains.item", "Contains.collection", "Contains.negated")
def test_in_a_zone_and_in_a_query(tmp_path: Path) -> None:
    body = ('  let r = create("Ruby", pile, player1)\n'
            '  if r in pile and r not in bin and r in all gems in pile and r not in all gems in bin {\n'
            '    set out to 1\n  }')
    assert play(tmp_path, body, CONTAINS_DECLS).shared["out"] == 1


# ---------------------------------------------------------------- is / is not

IS_DECLS = '''
enum Colour { Red; Blue }
status tired
zone field shared
cardtype Gem {
  stats { value: number = 1 }
  properties { colour: Colour = Red }
  enters: field
}
cardtype Coin {
  stats { worth: number = 1 }
}
keyword Shiny {
  reminder: "It shines."
}
card "Ruby" { type: Gem; keywords: Shiny }
card "Opal" { type: Gem; colour: Blue }
card "Penny" { type: Coin }
'''

IS_CASES = [
    ("ruby is gem", True),            # a card type (singular)
    ("penny is gem", False),
    ("penny is not gem", True),
    ("ruby is not gem", False),
    ("ruby is tired", True),          # a status
    ("opal is tired", False),
    ("opal is not tired", True),
    ("ruby is Red", True),            # an enum value of a property
    ("opal is Red", False),
    ("ruby is Shiny", True),          # a keyword
    ("opal is Shiny", False),
    ("ruby is friendly", True),       # controlled by you
    ("opal is enemy", True),
    ("ruby is enemy", False),
    ("ruby is friendly gem", True),   # every word must hold
    ("ruby is tired Blue gem", False),
    ("opal is not friendly gem", True),
]


@covers("IsTest.value", "IsTest.words", "IsTest.negated")
@pytest.mark.parametrize(("condition", "expected"), IS_CASES, ids=[c for c, _ in IS_CASES])
def test_is_and_is_not(tmp_path: Path, condition: str, expected: bool) -> None:
    body = ('  let ruby = create("Ruby", field, player1)\n  let opal = create("Opal", field, player2)\n'
            '  let penny = create("Penny", field, player1)\n  set ruby.tired to yes\n'
            f'  if {condition} {{ set out to 1 }} else {{ set out to 2 }}')
    assert play(tmp_path, body, IS_DECLS).shared["out"] == (1 if expected else 2)
