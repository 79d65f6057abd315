"""The words of the expression language, read once from grammar/expr.lark.

Which words are keywords is a fact of the grammar, and several readers need it: the
fast expression reader (fastexpr.py) must decline wherever a keyword could change the
grammar's reading, the statement builder names reserved words in its errors, and
docs/language.md lists them. Each used to keep its own hand-written list, and the lists
drifted apart. Here they are derived from the grammar text at import (a regular
expression over a 4 KB file, no Lark parser built), and every list elsewhere is a view of
these sets with its difference written down. tests/test_words.py checks the derivation
against the terminals of the compiled Lark parser, and the docs' list against
RESERVED_NAMES.
"""

from __future__ import annotations

import re
from importlib import resources


def _grammar_text() -> str:
    return resources.files("cardsmith.grammar").joinpath("expr.lark").read_text(encoding="utf-8")


def _without_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", text)


def _terminal_words(text: str, terminal: str) -> frozenset[str]:
    """The words a named terminal matches: `TOP: "top"` or `QDET.2: /(each|every|a)\\b/`."""
    found = re.search(rf"^{terminal}(?:\.\d+)?:\s*(.+)$", text, re.MULTILINE)
    if found is None:
        raise LookupError(f"expr.lark defines no terminal {terminal}")
    body = found.group(1).strip()
    alternation = re.fullmatch(r"/\(([a-z|]+)\)\\b/", body)
    if alternation is not None:
        return frozenset(alternation.group(1).split("|"))
    literal = re.fullmatch(r'"([a-z]+)"', body)
    if literal is None:
        raise LookupError(f"expr.lark's {terminal} is not a word or a list of words: {body}")
    return frozenset({literal.group(1)})


def _rule_terminals(text: str, rule: str) -> list[str]:
    found = re.search(rf"^{rule}:\s*(.+)$", text, re.MULTILINE)
    if found is None:
        raise LookupError(f"expr.lark defines no rule {rule}")
    return [t.strip() for t in found.group(1).split("|")]


_TEXT = _without_comments(_grammar_text())

# Determiners that always start a query (`each unit`, `a card`): never a name.
QDET = _terminal_words(_TEXT, "QDET")
# Determiners that start a query only when a noun follows (`target unit`; `target.hp` is a name).
SOFTDET = _terminal_words(_TEXT, "SOFTDET")
# What a query's determiner selects: every match (`each unit`, `all cards`), or one match
# (`a unit`, `target card`) unless a count says how many.
EVERY_DETERMINERS = frozenset({"each", "every", "all"})
SINGLE_DETERMINERS = (QDET | SOFTDET) - EVERY_DETERMINERS
# Every word the grammar spells: quoted literals ("of", "until", ...) and the words of
# its word terminals (QDET, SOFTDET).
EXPR_WORDS = frozenset(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', _TEXT)) | QDET | SOFTDET
# Keywords the `name` rule also accepts (`name: NAME | SOFTDET | TOP | BOTTOM`): they may
# still be names (`target.hp`, `top`), decided by one token of lookahead.
SOFT_KEYWORDS = frozenset().union(*(_terminal_words(_TEXT, t) for t in _rule_terminals(_TEXT, "name")
                                    if t != "NAME"))
# Words that are keywords only right after another keyword of their construct, so a user
# may still bind them: `x` in sizes (`63mm x 88mm`), `number` in `any number of`, `end`
# and `next` in `until end of` / `until your next`, `per` and `shared` in a scope.
CONTEXTUAL_WORDS = frozenset({"x", "number", "end", "next", "per", "shared"})
# Names a user may not bind (docs/language.md, "Reserved words"): every other keyword.
RESERVED_NAMES = EXPR_WORDS - SOFT_KEYWORDS - CONTEXTUAL_WORDS
# Literal values: they read as a value wherever a name could stand.
LITERAL_WORDS = frozenset({"yes", "no", "none"})
# Words the grammar reads only to refuse them with the word meant (`true`: write yes).
REFUSED_LITERAL_WORDS = frozenset({"true", "false"})
