"""Write syntaxes/cardsmith.tmLanguage.json from the language's own word lists and lexer.

Why generated: the highlighter must colour the words the compiler reads, and the compiler
already keeps them in one place each — the expression grammar's words (cardsmith.dsl.words,
read from grammar/expr.lark), the declaration heads (cardsmith.dsl.build.TOP_LEVEL), the
statement heads (build_statements.STATEMENT_HEADS), the ability heads (build_abilities) and
the terminals of grammar/structure.lark (numbers, dimensions, strings, comments, operators).
A hand-written copy would drift the day a keyword is added; this script reads them, and
tests/test_vscode_extension.py fails when the committed grammar differs from its output.

Terminals a TextMate rule cannot take over verbatim (strings become begin/end regions so
that `{placeholders}` inside them can be coloured) are checked against the grammar's text:
if structure.lark changes them, this script stops and says which rule to revisit.

Run from the repository root:  .venv/bin/python editors/vscode/scripts/build_grammar.py
"""

from __future__ import annotations

import json
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from cardsmith.dsl.build import TOP_LEVEL
from cardsmith.dsl.build_abilities import AbilityBuilder
from cardsmith.dsl.build_statements import STATEMENT_HEADS
from cardsmith.dsl.words import (
    CONTEXTUAL_WORDS,
    EXPR_WORDS,
    LITERAL_WORDS,
    QDET,
    REFUSED_LITERAL_WORDS,
    SOFT_KEYWORDS,
    SOFTDET,
)

OUTPUT = Path(__file__).resolve().parent.parent / "syntaxes" / "cardsmith.tmLanguage.json"
SCOPE = "source.cardsmith"
# Where an entry (a property or a node) may begin: a line's start, or just after the `{`,
# `}` or `;` before it on the same line (`x: 3mm; y: 3mm`, `} else {`).
ENTRY_START = r"(?:^|(?<=[{};]))\s*"
# Declarations whose name is something a rule calls, not a kind of thing.
CALLABLE_HEADS = frozenset({"procedure", "native", "function", "action"})
# Expression words by what they do (the rest of the grammar's words are plain keywords).
LOGICAL_WORDS = frozenset({"and", "or", "not", "in", "is"})
CONDITIONAL_WORDS = frozenset({"if", "then", "else"})
# Lines that start with these continue the entry above (cardsmith/dsl/lexer.py), so they
# are never an entry's head word.
CONTINUATION_WORDS = frozenset({"and", "or"})


def _terminals(grammar: str) -> dict[str, str]:
    """`NAME[.priority]: /regex/` terminals of a Lark file, by name."""
    text = resources.files("cardsmith.grammar").joinpath(grammar).read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"^([A-Z_]+)(?:\.\d+)?:\s*/(.*)/\s*$", text, re.MULTILINE)}


def _expect(terminals: dict[str, str], name: str, known: str, rule: str) -> None:
    if terminals.get(name) != known:
        sys.exit(f"structure.lark's {name} is now /{terminals.get(name)}/ (was /{known}/): "
                 f"revisit the grammar's {rule} rule in {Path(__file__).name}")


def _words(words: frozenset[str] | set[str] | tuple[str, ...]) -> str:
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


def _head(words: frozenset[str] | set[str], scope: str, name_scope: str | None = None) -> dict[str, Any]:
    """An entry's head word from `words`, and (for declarations) the name it declares."""
    name = r"(?:\s+([A-Za-z_][A-Za-z0-9_]*))?" if name_scope else ""
    rule: dict[str, Any] = {"match": rf"{ENTRY_START}\b({_words(words)})\b(?!\s*:){name}",
                            "captures": {"1": {"name": scope}}}
    if name_scope:
        rule["captures"]["2"] = {"name": name_scope}
    return rule


def _keyword(words: frozenset[str] | set[str], scope: str, after: str = "") -> dict[str, Any]:
    return {"match": rf"\b({_words(words)})\b{after}", "name": scope}


def build() -> dict[str, Any]:
    structure = _terminals("structure.lark")
    expr = _terminals("expr.lark")
    _expect(structure, "STRING", r'"(?:[^"\\\n]|\\.)*"', "string")
    _expect(structure, "LONG_STRING", r'"""[\s\S]*?"""', "long-string")
    _expect(structure, "COMMENT", r"#[^\n]*", "comment")
    dim = re.fullmatch(r"(.*)\((\w+(?:\|\w+)*)\)\\b", structure["DIM"])
    if dim is None:
        sys.exit(f"structure.lark's DIM /{structure['DIM']}/ no longer ends in a list of units")
    word = structure["WORD"]

    abilities = frozenset(AbilityBuilder.ABILITY_HEADS)
    declarations = frozenset(TOP_LEVEL) - abilities
    heads = abilities | STATEMENT_HEADS
    keywords = EXPR_WORDS - CONTEXTUAL_WORDS
    soft = SOFT_KEYWORDS | SOFTDET
    plain = keywords - LOGICAL_WORDS - CONDITIONAL_WORDS - LITERAL_WORDS - REFUSED_LITERAL_WORDS - QDET - soft
    # A word that starts an entry inside a block and is none of the language's own: the head
    # word of a phrase (`deal 3 damage to target`), or a node of a declaration (`region name {`).
    not_a_keyword = rf"(?!(?:{_words(heads | keywords | CONTINUATION_WORDS)})\b)"

    placeholder = {"match": r"\{[A-Za-z_][A-Za-z0-9_]*\}", "name": "variable.other.placeholder.cardsmith"}
    expression = [
        {"include": "#comment"},
        {"include": "#long-string"},
        {"include": "#string"},
        {"include": "#parens"},
        {"include": "#brackets"},
        {"include": "#block"},
        {"include": "#number"},
        {"include": "#keyword"},
        {"include": "#operator"},
        {"include": "#name"},
        {"include": "#invalid"},
    ]
    repository: dict[str, Any] = {
        "comment": {"match": r"(#).*$", "name": "comment.line.number-sign.cardsmith",
                    "captures": {"1": {"name": "punctuation.definition.comment.cardsmith"}}},
        "long-string": {"begin": '"""', "end": '"""', "name": "string.quoted.triple.cardsmith",
                        "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.cardsmith"}},
                        "endCaptures": {"0": {"name": "punctuation.definition.string.end.cardsmith"}},
                        "patterns": [placeholder]},
        # An unclosed string stops at the end of its line, as the lexer's STRING does.
        "string": {"begin": '"', "end": '(")|$', "name": "string.quoted.double.cardsmith",
                   "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.cardsmith"}},
                   "endCaptures": {"1": {"name": "punctuation.definition.string.end.cardsmith"}},
                   "patterns": [{"match": r"\\.", "name": "constant.character.escape.cardsmith"}, placeholder]},
        "block": {"begin": r"\{", "end": r"\}", "name": "meta.block.cardsmith",
                  "beginCaptures": {"0": {"name": "punctuation.section.block.begin.cardsmith"}},
                  "endCaptures": {"0": {"name": "punctuation.section.block.end.cardsmith"}},
                  "patterns": [{"include": "#entries"}]},
        # Inside ( ) and [ ] a new line does not end the entry, so no word there is a head
        # word; a brace closes any bracket left open (cardsmith/dsl/lexer.py).
        "parens": {"begin": r"\(", "end": r"\)|(?=[{}])", "name": "meta.parens.cardsmith",
                   "beginCaptures": {"0": {"name": "punctuation.parenthesis.begin.cardsmith"}},
                   "endCaptures": {"0": {"name": "punctuation.parenthesis.end.cardsmith"}},
                   "patterns": [{"include": "#expression"}]},
        "brackets": {"begin": r"\[", "end": r"\]|(?=[{}])", "name": "meta.brackets.cardsmith",
                     "beginCaptures": {"0": {"name": "punctuation.squarebracket.begin.cardsmith"}},
                     "endCaptures": {"0": {"name": "punctuation.squarebracket.end.cardsmith"}},
                     "patterns": [{"include": "#expression"}]},
        "number": {"patterns": [
            {"match": rf"\b{expr['DICE']}", "name": "constant.numeric.dice.cardsmith"},
            {"match": rf"\b{dim.group(1)}({dim.group(2)})\b", "name": "constant.numeric.dimension.cardsmith",
             "captures": {"2": {"name": "keyword.other.unit.cardsmith"}}},
            {"match": rf"\b{structure['NUMBER']}", "name": "constant.numeric.cardsmith"},
        ]},
        "keyword": {"patterns": [
            _keyword(LOGICAL_WORDS, "keyword.operator.word.cardsmith"),
            _keyword(CONDITIONAL_WORDS, "keyword.control.conditional.cardsmith"),
            _keyword(LITERAL_WORDS, "constant.language.cardsmith"),
            _keyword(REFUSED_LITERAL_WORDS, "invalid.illegal.refused.cardsmith"),
            _keyword(QDET, "keyword.other.determiner.cardsmith"),
            # A soft keyword is a name unless a word follows it (`target unit`, `target.hp`).
            _keyword(soft, "keyword.other.determiner.cardsmith", r"(?=[ \t]+[A-Za-z0-9_(])"),
            _keyword(plain, "keyword.other.cardsmith"),
        ]},
        "operator": {"patterns": [
            {"match": r"\.\.", "name": "keyword.operator.range.cardsmith"},
            {"match": r"\.", "name": "punctuation.accessor.cardsmith"},
            {"match": structure["OP"].replace(r"\.\.|", "").replace(".", ""), "name": "keyword.operator.cardsmith"},
            {"match": ",", "name": "punctuation.separator.comma.cardsmith"},
            {"match": ";", "name": "punctuation.terminator.cardsmith"},
            {"match": ":", "name": "punctuation.separator.colon.cardsmith"},
        ]},
        "name": {"match": rf"\b{word}", "name": "variable.other.cardsmith"},
        # Anything the lexer would refuse (a stray backtick, an unmatched closing bracket).
        "invalid": {"match": r"[^\s]", "name": "invalid.illegal.character.cardsmith"},
        # Declarations stand only at the top of a file: inside a block `turn` is a phrase.
        "declarations": {"patterns": [
            _head(CALLABLE_HEADS & declarations, "storage.type.cardsmith", "entity.name.function.cardsmith"),
            _head(declarations - CALLABLE_HEADS, "storage.type.cardsmith", "entity.name.type.cardsmith"),
        ]},
        "heads": {"patterns": [
            _head(abilities, "keyword.other.ability.cardsmith"),
            _head(STATEMENT_HEADS, "keyword.control.cardsmith"),
            {"match": rf"{ENTRY_START}({word})\s*(:)",
             "captures": {"1": {"name": "variable.other.property.cardsmith"},
                          "2": {"name": "punctuation.separator.key-value.cardsmith"}}},
            # `self.owner gives back n resources` starts with a value, not with the phrase's word.
            {"match": rf"{ENTRY_START}{not_a_keyword}({word})\b(?![.(\[])",
             "captures": {"1": {"name": "entity.name.function.phrase.cardsmith"}}},
        ]},
        "expression": {"patterns": expression},
        "entries": {"patterns": [{"include": "#comment"}, {"include": "#heads"}, *expression]},
    }
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Cardsmith",
        "scopeName": SCOPE,
        "fileTypes": ["cards"],
        "comment": "Generated by scripts/build_grammar.py from cardsmith's grammar and word lists; do not edit.",
        "patterns": [{"include": "#comment"}, {"include": "#declarations"}, {"include": "#entries"}],
        "repository": repository,
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    OUTPUT.write_text(render(), encoding="utf-8")
    print(OUTPUT)


if __name__ == "__main__":
    main()
