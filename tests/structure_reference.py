"""The structural lexer's oracle: Lark's own lexer plus a plain post-lexer.

cardsmith/dsl/lexer.py applies the layout rules inside its one-regex loop for speed;
this is the same rules written the slow, obvious way, as a post-lexer over Lark's
generic lexer. It is not part of the package: tests/test_lexer.py checks the fast
lexer yields exactly what this yields, and benchmarks/bench_check.py times a bare Lark
parse with it as the baseline of "reading the text at all".
"""

from __future__ import annotations

from collections.abc import Iterator

from lark import Lark, Token

from cardsmith.dsl.lexer import MAX_DEPTH
from cardsmith.dsl.structure import _grammar


class TooDeep(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__("too deep")
        self.token = token


class NewlinesInBrackets:
    """Post-lexer: newlines inside ( ) and [ ] do not end an entry; limits nesting."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        brackets = 0
        braces = 0
        since_start = 0  # tokens since the start of the current entry
        pending: Token | None = None  # a newline held back to see what follows it
        for token in stream:
            kind = token.type
            if kind == "COLON" and (since_start != 1 or brackets > 0):
                token = Token.new_borrow_pos("PCOLON", str(token), token)
                kind = "PCOLON"
            if kind == "_NL":
                if brackets == 0 and pending is None:
                    pending = token
                continue
            if pending is not None:
                # An entry always starts with a name, so a line that starts with a string,
                # a '{', an operator, 'and' or 'or' continues the line before it.
                if not continues(token):
                    yield pending
                    since_start = 0
                pending = None
            since_start = 0 if kind in ("SEMICOLON", "LBRACE", "RBRACE") else since_start + 1
            if kind in ("LPAR", "LSQB"):
                brackets += 1
                if brackets > MAX_DEPTH:
                    raise TooDeep(token)
            elif kind in ("RPAR", "RSQB"):
                brackets = max(0, brackets - 1)
            elif kind == "LBRACE":
                brackets = 0  # braces never occur inside brackets: an open '(' was unclosed
                braces += 1
                if braces > MAX_DEPTH:
                    raise TooDeep(token)
            elif kind == "RBRACE":
                brackets = 0
                braces = max(0, braces - 1)
            yield token
        if pending is not None:
            yield pending


CONTINUATION_WORDS = {"and", "or"}


def continues(token: Token) -> bool:
    kind = token.type
    if kind in ("STRING", "LONG_STRING", "LBRACE", "OP"):
        return True
    return kind == "WORD" and token.value in CONTINUATION_WORDS


def bare_structure_parser() -> Lark:
    """The structural grammar building a plain Lark tree with Lark's lexer and the
    post-lexer above: the benchmark's baseline."""
    return Lark(_grammar("structure.lark"), parser="lalr", lexer="basic", postlex=NewlinesInBrackets())
