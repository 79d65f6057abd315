"""The language's keywords have one source: grammar/expr.lark, read by cardsmith/dsl/words.py.

words.py reads the grammar text with regular expressions (cheap at import); these tests
check that reading against the compiled Lark parser itself, and docs/language.md's list
of reserved words against RESERVED_NAMES, so no copy can drift from the grammar again.
"""

from __future__ import annotations

import re
from pathlib import Path

from lark.lexer import PatternRE, PatternStr

from cardsmith.dsl import words
from cardsmith.dsl.exprparse import expr_parser

DOCS = Path(__file__).resolve().parents[1] / "docs" / "language.md"
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _lark_words(terminal_names: set[str] | None = None) -> set[str]:
    """The words the compiled parser's terminals match (all, or the named ones)."""
    out: set[str] = set()
    for term in expr_parser().terminals:
        if terminal_names is not None and term.name not in terminal_names:
            continue
        pattern = term.pattern
        if isinstance(pattern, PatternStr) and NAME.fullmatch(pattern.value):
            out.add(pattern.value)
        elif isinstance(pattern, PatternRE):
            alternation = re.fullmatch(r"\(([a-z|]+)\)\\b", pattern.value)
            if alternation is not None:
                out.update(alternation.group(1).split("|"))
    return out


def test_the_words_are_the_grammars_words() -> None:
    assert _lark_words() == words.EXPR_WORDS
    assert words.QDET == _lark_words({"QDET"}) == {"a", "an", "each", "every", "another"}
    assert _lark_words({"SOFTDET"}) == words.SOFTDET


def test_the_soft_keywords_are_what_the_name_rule_accepts() -> None:
    name_terminals = {sym.name for rule in expr_parser().rules if rule.origin.name == "name"
                      for sym in rule.expansion}
    assert "NAME" in name_terminals
    assert _lark_words(name_terminals - {"NAME"}) == words.SOFT_KEYWORDS
    assert {"target", "all", "any", "random", "top", "bottom"} == words.SOFT_KEYWORDS


def test_the_derived_lists_are_views_of_the_grammar() -> None:
    assert words.CONTEXTUAL_WORDS <= words.EXPR_WORDS
    assert words.LITERAL_WORDS <= words.RESERVED_NAMES
    assert words.RESERVED_NAMES == words.EXPR_WORDS - words.SOFT_KEYWORDS - words.CONTEXTUAL_WORDS
    assert {"each", "and", "if", "where", "yes", "no", "true", "false"} <= words.RESERVED_NAMES
    assert not {"target", "top", "x", "end"} & words.RESERVED_NAMES


def test_the_documented_reserved_words_are_the_reserved_names() -> None:
    text = DOCS.read_text(encoding="utf-8")
    reserved = re.search(r"Reserved words \(not usable as names\):(.*?)The soft keywords(.*?)may still", text,
                         re.DOTALL)
    assert reserved is not None
    assert set(re.findall(r"`([a-z]+)`", reserved.group(1))) == words.RESERVED_NAMES
    assert set(re.findall(r"`([a-z]+)`", reserved.group(2))) == words.SOFT_KEYWORDS


def test_the_determiners_split_into_every_and_single() -> None:
    assert words.EVERY_DETERMINERS | words.SINGLE_DETERMINERS == words.QDET | words.SOFTDET
    assert not words.EVERY_DETERMINERS & words.SINGLE_DETERMINERS
    assert {"target", "a", "an", "any", "random", "another"} == words.SINGLE_DETERMINERS
