"""The fast expression reader builds exactly what the Lark grammar builds.

fastexpr.py reads the common subset of the expression grammar directly from the
structural tokens. Wherever it accepts input, its IR (spans included) must equal the
grammar's — checked on every statement and property of the standard library and on
random token soups; wherever the grammar rejects input, the reader must decline. The
same holds for its keyword-list reader (`keyword_list`, the `keyword_list` rule).
"""

from __future__ import annotations

from typing import Any

from conftest import LIBRARY, MINI_CARDS, MINI_RULES
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token

from cardsmith.dsl import fastexpr
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.exprparse import ExprSyntaxError, parse_words
from cardsmith.dsl.source import SourceFile
from cardsmith.dsl.structure import Entry, parse_entries

RULE_BY_HEAD = {"if": "cond_tail", "elif": "cond_tail", "while": "cond_tail", "for": "for_tail",
                "let": "let_tail", "set": "set_tail", "increase": "change_tail", "decrease": "change_tail",
                "repeat": "repeat_tail", "choose": "choose_tail"}


def plain(value: Any) -> Any:
    if isinstance(value, Token):
        return str(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def grammar(source: SourceFile, tokens: list[Token], rule: str) -> Any:
    try:
        return parse_words(source, tokens[0].start_pos or 0, tokens[-1].end_pos or 0, rule)
    except ExprSyntaxError:
        return "syntax error"


def check(source: SourceFile, tokens: list[Token], rule: str) -> bool:
    fast = fastexpr.read(source.path, tokens, rule)
    if fast is None:
        return False
    assert plain(fast) == plain(grammar(source, tokens, rule)), (rule, " ".join(map(str, tokens)))
    return True


def walk(entries: list[Entry]) -> list[tuple[Entry, str]]:
    out = []
    stack = list(entries)
    while stack:
        entry = stack.pop()
        if entry.items:
            rule = "cond_tail" if entry.is_prop else RULE_BY_HEAD.get(entry.name)
            if rule:
                out.append((entry, rule))
        stack.extend(entry.block or [])
    return out


def test_every_library_statement_reads_the_same() -> None:
    sources = [SourceFile("mini/rules.cards", MINI_RULES), SourceFile("mini/cards.cards", MINI_CARDS)]
    if LIBRARY.is_dir():
        sources += [SourceFile(str(p), p.read_text(encoding="utf-8")) for p in sorted(LIBRARY.rglob("*.cards"))]
    accepted = total = 0
    for source in sources:
        for entry, rule in walk(parse_entries(source, DiagnosticSink())):
            total += 1
            accepted += check(source, entry.items, rule)
    assert total > 100
    assert accepted / total > 0.6, f"the fast reader took only {accepted} of {total}"


PIECES = ["x", "c", "gold", "self", "it", "attack", "cost", "target", "all", "any", "a", "each", "unit", "units",
          "in", "from", "where", "and", "or", "not", "of", "your", "hand", "deck", "top", "yes", "no", "true", "none",
          "3", "0", "1.5", "-", "+", "*", "//", ".", "==", "<=", ">", "(", ")", "[", "]", ",", '"t"', "count", "sum",
          "exhausted", "enemy", "to", "by", "hidden", "times", "=", "if", "then", "else", "up", "d6", "2", "is",
          "..", "roll", "end"]


@settings(max_examples=6000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8),
       st.sampled_from(["cond_tail", "for_tail", "let_tail", "set_tail", "change_tail", "repeat_tail",
                        "choose_tail"]))
def test_random_token_soups_read_the_same(pieces: list[str], rule: str) -> None:
    text = " ".join(pieces)
    source = SourceFile("f.cards", f"k: {text}\n")
    entries = parse_entries(source, DiagnosticSink())
    if not entries or not entries[0].is_prop or not entries[0].items:
        return
    check(source, entries[0].items, rule)


NAMES = st.sampled_from(["x", "c", "gold", "it", "self", "target", "all", "top", "hand", "n", "end"])
ATOMS = st.one_of(NAMES, st.sampled_from(["3", "0", "12", "1.5", '"t"', "yes", "no", "none"]),
                  st.builds(lambda n: f"your {n}", st.sampled_from(["hand", "deck", "gold"])))


def _query(parts: tuple[str, str, str, str]) -> str:
    det, words, zone, where = parts
    return " ".join(p for p in (det, words, zone, where) if p)


QUERIES = st.builds(_query, st.tuples(
    st.sampled_from(["each", "a", "target", "all", "any", "every", "target 2", "each 3"]),
    st.sampled_from(["unit", "units", "exhausted enemy units", "card", "cards"]),
    st.sampled_from(["", "in battlefield", "in your hand", "from deck of opponent", "in hand of c"]),
    st.sampled_from(["", "where it.cost <= 3", "where it.x > 1 and not it.y", "where c in it.attached"])))


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", children,
                  st.sampled_from(["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "and", "or", "in", "not in"]),
                  children),
        st.builds(lambda a: f"({a})", children),
        st.builds(lambda a: f"not {a}", children),
        st.builds(lambda a: f"-{a}", children),
        st.builds(lambda a, f: f"{a}.{f}", children, st.sampled_from(["hp", "owner", "top", "gold"])),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["count", "sum", "size", "max"]), children),
        st.builds(lambda a, b: f"max({a}, {b})", children, children),
        st.builds(lambda a, b: f"[{a}, {b}]", children, children),
        st.builds(lambda n, a: f"{n} of {a}", st.sampled_from(["hand", "deck"]), children),
    )


EXPRESSIONS = st.recursive(st.one_of(ATOMS, QUERIES), _combine, max_leaves=8)


@settings(max_examples=3000, deadline=None)
@given(EXPRESSIONS, st.sampled_from(["cond_tail", "for_tail", "set_tail", "choose_tail", "let_tail"]))
def test_well_formed_expressions_read_the_same(expression: str, rule: str) -> None:
    text = {"cond_tail": expression, "for_tail": f"each u in {expression}", "let_tail": f"v = {expression}",
            "set_tail": f"u.hp to {expression}", "choose_tail": f"pick from {expression} by opponent hidden"}[rule]
    source = SourceFile("f.cards", f"k: {text}\n")
    entries = parse_entries(source, DiagnosticSink())
    if not entries or not entries[0].is_prop or not entries[0].items:
        return
    check(source, entries[0].items, rule)


SOUP_WORDS = ["x", "c", "gold", "self", "it", "attack", "cost", "target", "a", "all", "yes", "no", "true", "none", "d6",
              "2d6", "of", "your", "hand", "Charge", "Ranged", "top"]
SOUP = [*SOUP_WORDS, "3", "0", "1.5", "-", ".", "==", "<=", ">", "+", ",", '"t x"', "(", ")", "[", "]", "2"]


def tokens_of(text: str) -> tuple[SourceFile, list[Token]]:
    source = SourceFile("f.cards", f"k: {text}\n")
    entries = parse_entries(source, DiagnosticSink())
    assert entries and entries[0].is_prop
    return source, entries[0].items


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(SOUP), min_size=1, max_size=6))
def test_dotted_soups_read_the_same(pieces: list[str]) -> None:
    text = " ".join(pieces).replace(" . ", ".")
    try:
        source, tokens = tokens_of(text)
    except AssertionError:
        return
    check(source, tokens, "cond_tail")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(SOUP), min_size=1, max_size=7))
def test_fast_keyword_lists_equal_the_grammar(pieces: list[str]) -> None:
    text = " ".join(pieces)
    try:
        source, tokens = tokens_of(text)
    except AssertionError:
        return
    fast = fastexpr.keyword_list(source, tokens)
    if fast is not None:
        slow = grammar(source, tokens, "keyword_list")
        assert slow != "syntax error", text
        assert plain(fast) == plain(slow), text


def test_every_library_keyword_list_reads_the_same() -> None:
    sources = [SourceFile("mini/cards.cards", MINI_CARDS)]
    if LIBRARY.is_dir():
        sources += [SourceFile(str(p), p.read_text(encoding="utf-8")) for p in sorted(LIBRARY.rglob("*.cards"))]
    accepted = 0
    for source in sources:
        stack = parse_entries(source, DiagnosticSink())
        while stack:
            entry = stack.pop()
            stack.extend(entry.block or [])
            if entry.is_prop and entry.name in ("keywords", "grants") and entry.items:
                fast = fastexpr.keyword_list(source, entry.items)
                if fast is not None:
                    accepted += 1
                    assert plain(fast) == plain(grammar(source, entry.items, "keyword_list")), entry.name
    assert accepted > 10


def test_common_shapes_take_the_fast_path() -> None:
    for text in ["3", "-2", '"x"', "gold", "c.damage", "it.cost <= 3", "card.border.copies", "x == none"]:
        source, tokens = tokens_of(text)
        assert fastexpr.read(source.path, tokens, "cond_tail") is not None, text
    source, tokens = tokens_of("Charge, Ranged 2, Dual_Wield")
    assert fastexpr.keyword_list(source, tokens) is not None


def test_yes_and_no_read_fast_as_the_grammar_reads_them() -> None:
    for text, value in (("yes", True), ("no", False)):
        source, tokens = tokens_of(f"x or {text}")
        fast = fastexpr.read(source.path, tokens, "cond_tail")
        assert fast is not None and fast.right.value is value
        assert check(source, tokens, "cond_tail")


def test_true_and_false_are_left_to_the_grammar_which_refuses_them() -> None:
    """The fast reader never reports an error: it declines on `true`/`false`, and the
    grammar gives the located CS0301 (the builder's fallback, see build_common)."""
    for text, meant in (("true", "yes"), ("false", "no")):
        source, tokens = tokens_of(f"x or {text}")
        assert fastexpr.read(source.path, tokens, "cond_tail") is None
        try:
            parse_words(source, tokens[0].start_pos or 0, tokens[-1].end_pos or 0, "cond_tail")
        except ExprSyntaxError as exc:
            assert (exc.code, exc.message, exc.offset) == ("CS0301", f"write {meant}, not {text}", len("k: x or "))
        else:
            raise AssertionError(f"{text} was read as a value")
