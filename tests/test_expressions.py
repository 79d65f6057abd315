"""The expression grammar: queries, soft keywords, tails, spans."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsmith.dsl import ir
from cardsmith.dsl.exprparse import ExprSyntaxError, parse_words
from cardsmith.dsl.source import SourceFile


def parse(text: str, rule: str = "cond_tail") -> Any:
    source = SourceFile("e.cards", "x: " + text)
    return parse_words(source, 3, len(source.text), rule)


def test_soft_keywords_are_names_when_followed_by_a_dot() -> None:
    node = parse("target.hp > 2")
    assert isinstance(node, ir.Compare) and isinstance(node.left, ir.Attr)
    assert isinstance(node.left.obj, ir.Ref) and node.left.obj.name == "target"


def test_queries() -> None:
    q = parse("all exhausted enemy units in battlefield where it.hp > 1")
    assert isinstance(q, ir.Query)
    assert (q.det, q.adjectives, q.noun) == ("all", ["exhausted", "enemy"], "units")
    assert isinstance(q.zone, ir.Ref) and isinstance(q.where, ir.Compare)
    q = parse("target up to 2 units")
    assert isinstance(q, ir.Query) and q.up_to and isinstance(q.count, ir.Num) and q.count.num == 2


def test_zone_sugar_and_top_of() -> None:
    node = parse("top 3 of your deck")
    assert isinstance(node, ir.TopOf) and isinstance(node.zone, ir.Attr) and node.zone.name == "deck"
    assert isinstance(node.zone.obj, ir.Ref) and node.zone.obj.name == "you"
    node = parse("hand of opponent")
    assert isinstance(node, ir.Attr) and node.name == "hand"


def test_exact_decimals_dice_and_floor_division() -> None:
    node = parse("1.5 + roll 2d6 // 2")
    assert isinstance(node, ir.BinOp) and isinstance(node.left, ir.Num)
    assert (node.left.num, node.left.den) == (3, 2)
    right = node.right
    assert isinstance(right, ir.BinOp) and right.op == "//" and isinstance(right.left, ir.Roll)
    dice = right.left.dice
    assert isinstance(dice, ir.Dice) and (dice.count, dice.sides) == (2, 6)


def test_ranges_and_lists() -> None:
    node = parse("30..")
    assert isinstance(node, ir.RangeExpr) and node.high is None
    node = parse("x in [1, 2, 3]")
    assert isinstance(node, ir.Contains) and isinstance(node.collection, ir.ListExpr)


def test_statement_tails() -> None:
    target, _value, duration = parse("t.attack to t.attack + 2 until end of turn", "set_tail")
    assert isinstance(target, ir.Attr) and isinstance(duration, ir.Duration)
    assert duration.kind == "until_end" and duration.period == "turn"
    parts = parse("up to 2 cs from all cards in your hand by opponent hidden", "choose_tail")
    assert parts["count"][0] == "up_to" and parts["hidden"] is True
    name, params, patterns = parse('f(a: number, b: card = self) "do {a} to {b}"', "proc_tail")
    assert str(name) == "f" and [p.name for p in params] == ["a", "b"] and len(patterns) == 1


def test_spans_are_file_positions() -> None:
    source = SourceFile("e.cards", "line one\n  x: c.b + 10\n")
    start = source.text.index("c.b")
    node = parse_words(source, start, len(source.text) - 1, "cond_tail")
    assert (node.span.line, node.span.column, node.span.end_column) == (2, 6, 14)


@pytest.mark.parametrize("text", ["x +", "(a", "a b c +", "target unit where"])
def test_syntax_errors_carry_a_position(text: str) -> None:
    with pytest.raises(ExprSyntaxError) as info:
        parse(text)
    assert info.value.offset >= 3


EXPR_PIECES = ["x", "c", "target", "all", "top", "bottom", "of", "your", "in", "is", "not", "and", "or", "if",
               "then", "else", "a", "each", "unit", "units", "where", "it", "3", "1.5", "d6", "2d6", "roll",
               ".", "(", ")", "[", "]", ",", "+", "-", "*", "//", "==", "<=", "..", "=", '"s"', "yes", "none",
               "up", "to", "from", "by", "times", "each", "one", "any", "number"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(EXPR_PIECES), min_size=1, max_size=10),
       st.sampled_from(["cond_tail", "for_tail", "choose_tail", "set_tail", "let_tail", "keyword_list"]))
def test_the_expression_parser_only_ever_reports_syntax_errors(pieces: list[str], rule: str) -> None:
    try:
        parse(" ".join(pieces), rule)
    except ExprSyntaxError as exc:
        assert "internal" not in exc.message, (pieces, rule, exc.message)


@pytest.mark.parametrize(("text", "value"), [("yes", True), ("no", False)])
def test_yes_and_no_are_the_boolean_literals(text: str, value: bool) -> None:
    """yes/no is the one spelling of a yes/no value, as of a flag (docs/language.md, "Flags")."""
    node = parse(text)
    assert isinstance(node, ir.Bool) and node.value is value
    assert (node.span.column, node.span.end_column) == (4, 4 + len(text))
    node = parse(f"x and not {text}")
    assert isinstance(node, ir.Logic) and isinstance(node.right, ir.Not)
    assert isinstance(node.right.operand, ir.Bool) and node.right.operand.value is value


@pytest.mark.parametrize(("text", "meant"), [("true", "yes"), ("false", "no")])
def test_true_and_false_are_refused_where_they_are(text: str, meant: str) -> None:
    """`true`/`false` still tokenize, so writing one is a CS0301 naming the word meant,
    located at the word (not 'unknown name'), rather than a second dialect."""
    with pytest.raises(ExprSyntaxError) as raised:
        parse(f"x and {text}")
    exc = raised.value
    assert (exc.code, exc.message) == ("CS0301", f"write {meant}, not {text}")
    assert exc.hint == "yes/no is the one way to write a flag or a value"
    assert (exc.offset, exc.length) == (len("x: x and "), len(text))
