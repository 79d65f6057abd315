"""The builder's fast paths must build exactly what the grammar builds.

fastpath.py skips the Lark sub-parse for the commonest word shapes. For every input it
accepts, the IR (spans included) must equal the grammar's; inputs it declines are fine.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardsmith.dsl import fastexpr, fastpath
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.exprparse import ExprSyntaxError, parse_words
from cardsmith.dsl.source import SourceFile
from cardsmith.dsl.structure import parse_entries

WORDS = ["x", "c", "gold", "self", "it", "attack", "cost", "target", "a", "all", "true", "none", "d6",
         "2d6", "of", "your", "hand", "Charge", "Ranged", "top"]
PIECES = [*WORDS, "3", "0", "1.5", "-", ".", "==", "<=", ">", "+", ",", '"t x"', "(", ")", "[", "]", "2"]


def tokens_of(text: str) -> tuple[SourceFile, list]:  # type: ignore[type-arg]
    source = SourceFile("f.cards", f"k: {text}\n")
    entries = parse_entries(source, DiagnosticSink())
    assert entries and entries[0].is_prop
    return source, entries[0].items


def grammar(source: SourceFile, tokens: list, rule: str):  # type: ignore[no-untyped-def,type-arg]
    try:
        return parse_words(source, tokens[0].start_pos, tokens[-1].end_pos, rule)
    except ExprSyntaxError:
        return None


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6))
def test_fast_expressions_equal_the_grammar(pieces: list[str]) -> None:
    text = " ".join(pieces).replace(" . ", ".")
    try:
        source, tokens = tokens_of(text)
    except AssertionError:
        return
    fast = fastexpr.read(source.path, tokens, "cond_tail")
    if fast is not None:
        assert fast == grammar(source, tokens, "cond_tail"), text


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=7))
def test_fast_keyword_lists_equal_the_grammar(pieces: list[str]) -> None:
    text = " ".join(pieces)
    try:
        source, tokens = tokens_of(text)
    except AssertionError:
        return
    fast = fastpath.keyword_list(source, tokens)
    if fast is not None:
        slow = grammar(source, tokens, "keyword_list")
        assert slow is not None, text
        assert [(str(t), args) for t, args in fast] == [(str(t), args) for t, args in slow], text


def test_common_shapes_take_the_fast_path() -> None:
    for text in ["3", "-2", '"x"', "gold", "c.damage", "it.cost <= 3", "card.border.copies", "x == none"]:
        source, tokens = tokens_of(text)
        assert fastexpr.read(source.path, tokens, "cond_tail") is not None, text
    source, tokens = tokens_of("Charge, Ranged 2, Dual_Wield")
    assert fastpath.keyword_list(source, tokens) is not None
