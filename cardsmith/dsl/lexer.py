"""The structural lexer: one compiled regex plus the layout rules, fed to Lark's LALR.

Lark's generic lexer tries each terminal in turn and a separate post-lexer then applies
the layout rules; on a large game that was most of the parse. This lexer matches every
terminal of grammar/structure.lark with a single alternation and applies the layout
rules in the same loop:

* newlines inside ( ) and [ ] do not end an entry;
* a line starting with a string, '{', an operator, `and` or `or` continues the line before;
* a ':' that does not follow an entry's head word is an ordinary word (PCOLON);
* '{' and '}' close any bracket left open (braces never occur inside brackets);
* nesting deeper than MAX_DEPTH is refused.

tests/test_lexer.py checks it yields exactly the tokens of Lark's own lexer followed by
the reference post-lexer (tests/structure_reference.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer, LexerState

MAX_DEPTH = 64

# Same terminals, same precedence as structure.lark under Lark's ordering.
_MASTER = re.compile(r"""
  (?P<WS>[ \t\f\r]+)
| (?P<COMMENT>\#[^\n]*)
| (?P<NL>\n)
| (?P<LONG_STRING>\"\"\"[\s\S]*?\"\"\")
| (?P<STRING>"(?:[^"\\\n]|\\.)*")
| (?P<DIM>\d+(?:\.\d+)?(?:mm|cm|in|pt|px)\b)
| (?P<NUMBER>\d+(?:\.\d+)?)
| (?P<WORD>[A-Za-z_][A-Za-z0-9_]*)
| (?P<OP>\.\.|==|!=|<=|>=|//|[-+*/%<>=.!?'@&|^~$])
| (?P<LPAR>\()
| (?P<RPAR>\))
| (?P<LSQB>\[)
| (?P<RSQB>\])
| (?P<COMMA>,)
| (?P<COLON>:)
| (?P<SEMICOLON>;)
| (?P<LBRACE>\{)
| (?P<RBRACE>\})
""", re.VERBOSE)

_CONTINUATION_WORDS = frozenset({"and", "or"})
_CONTINUES = frozenset({"STRING", "LONG_STRING", "LBRACE", "OP"})


def continues(token: Token) -> bool:
    """Does a line starting with this token continue the line before it? (The layout
    rule above; the formatter keeps such lines together by the same test.)"""
    return token.type in _CONTINUES or (token.type == "WORD" and token.value in _CONTINUATION_WORDS)


class TooDeep(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__("too deep")
        self.token = token


class StructureLexer(Lexer):
    """A Lark lexer class (pass as `lexer=`) for the structural grammar."""

    def __init__(self, lexer_conf: Any) -> None:
        self.conf = lexer_conf

    __future_interface__ = 0  # Lark hands this lexer the whole text

    def lex(self, lexer_state: LexerState | str, parser_state: Any = None) -> Iterator[Token]:
        return tokenize(lexer_state if isinstance(lexer_state, str) else str(lexer_state.text))


def tokenize(text: str) -> Iterator[Token]:
    match = _MASTER.match
    new = Token
    pos = 0
    end = len(text)
    line = 1
    line_start = 0
    brackets = 0
    braces = 0
    since_start = 0
    pending: Token | None = None
    while pos < end:
        m = match(text, pos)
        if m is None:
            raise UnexpectedCharacters(  # type: ignore[no-untyped-call]
                text, pos, line, pos - line_start + 1,
                                       state=None, terminals_by_name=None)
        kind = m.lastgroup
        value = m.group()
        start = pos
        pos = m.end()
        if kind == "WS" or kind == "COMMENT":
            continue
        column = start - line_start + 1
        if kind == "NL":
            if brackets == 0 and pending is None:
                pending = new("_NL", value, start, line, column, line + 1, 1, pos)
            line += 1
            line_start = pos
            continue
        if kind == "LONG_STRING" and "\n" in value:
            newlines = value.count("\n")
            end_line = line + newlines
            end_column = pos - (start + value.rfind("\n") + 1) + 1
            token = new(kind, value, start, line, column, end_line, end_column, pos)
            line = end_line
            line_start = start + value.rfind("\n") + 1
        else:
            assert kind is not None
            token = new(kind, value, start, line, column, line, column + len(value), pos)
        if kind == "COLON" and (since_start != 1 or brackets > 0):
            token.type = kind = "PCOLON"
        if pending is not None:
            if not (kind in _CONTINUES or (kind == "WORD" and value in _CONTINUATION_WORDS)):
                yield pending
                since_start = 0
            pending = None
        since_start = 0 if kind in ("SEMICOLON", "LBRACE", "RBRACE") else since_start + 1
        if kind == "LPAR" or kind == "LSQB":
            brackets += 1
            if brackets > MAX_DEPTH:
                raise TooDeep(token)
        elif kind == "RPAR" or kind == "RSQB":
            if brackets > 0:
                brackets -= 1
        elif kind == "LBRACE":
            brackets = 0
            braces += 1
            if braces > MAX_DEPTH:
                raise TooDeep(token)
        elif kind == "RBRACE":
            brackets = 0
            if braces > 0:
                braces -= 1
        yield token
    if pending is not None:
        yield pending
