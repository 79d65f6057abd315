"""Fast path for keyword lists (`Charge, Ranged 2, Dual_Wield`).

Nearly every card has one, and a full LALR parse of each costs far more than the
structure parse that found it. `keyword_list` recognises the plain shape and builds the
same IR the grammar builds (spans included); anything else returns None and goes to the
grammar. Expressions in general take the same route through fastexpr.py.
tests/test_fastpath.py checks the paths agree.
"""

from __future__ import annotations

from lark import Token

from cardsmith.dsl import ir
from cardsmith.dsl.exprparse import merge, number_too_large, parse_number, unescape
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.util.fastmodel import construct, span_of_token

# Words the expression grammar treats as keywords (or soft keywords with their own rules).
_RESERVED = {
    "true", "false", "none", "target", "all", "any", "random", "top", "bottom", "a", "an", "each",
    "every", "another", "one", "and", "or", "not", "in", "is", "of", "roll", "your", "where",
    "from", "to", "by", "up", "until", "end", "next", "permanently", "while", "times", "hidden",
    "optional", "simultaneously", "number", "x", "per", "shared",
}


def _span(source: SourceFile, tok: Token) -> Span:
    return span_of_token(source.path, tok, Span)


def _is_dice(text: str) -> bool:
    count, d, sides = text.partition("d")
    return bool(d) and sides.isdigit() and (count == "" or count.isdigit())


def atom(source: SourceFile, tokens: list[Token], i: int) -> tuple[ir.Expr, int] | None:
    """A literal, a name or a dotted name starting at tokens[i]; returns (node, next index)."""
    if i >= len(tokens):
        return None
    tok = tokens[i]
    kind = tok.type
    node: ir.Expr
    if kind in ("NUMBER", "OP") and any(number_too_large(str(t)) for t in tokens[i:i + 2]):
        return None  # the grammar reports it where it is
    if kind == "NUMBER":
        if i + 1 < len(tokens) and tokens[i + 1].type == "WORD" and \
                tokens[i + 1].start_pos == tok.end_pos:
            return None  # 2d6 and friends
        num, den = parse_number(str(tok))
        return construct(ir.Num, span=_span(source, tok), num=num, den=den), i + 1
    if kind in ("STRING", "LONG_STRING"):
        return construct(ir.Text, span=_span(source, tok), value=unescape(str(tok))), i + 1
    if kind == "OP" and str(tok) == "-" and i + 1 < len(tokens) and tokens[i + 1].type == "NUMBER":
        nxt = tokens[i + 1]
        if i + 2 < len(tokens) and tokens[i + 2].type == "WORD" and tokens[i + 2].start_pos == nxt.end_pos:
            return None
        num, den = parse_number(str(nxt))
        return construct(ir.Num, span=_span(source, nxt), num=-num, den=den), i + 2
    if kind != "WORD":
        return None
    text = str(tok)
    if text in _RESERVED or _is_dice(text):
        return None
    node = construct(ir.Ref, span=_span(source, tok), name=text)
    j = i + 1
    while j + 1 < len(tokens) and tokens[j].type == "OP" and str(tokens[j]) == "." \
            and tokens[j + 1].type == "WORD":
        name_tok = tokens[j + 1]
        node = construct(ir.Attr, span=merge(node.span, _span(source, name_tok)), obj=node,
                         name=str(name_tok))
        j += 2
    if j < len(tokens) and tokens[j].type in ("LPAR", "LSQB"):
        return None  # calls and indexing go to the grammar
    if j < len(tokens) and tokens[j].type == "WORD" and str(tokens[j]) == "of":
        return None
    return node, j


def keyword_list(source: SourceFile, tokens: list[Token]) -> list[tuple[Token, list[ir.Expr]]] | None:
    """`Charge, Ranged 2, Dual_Wield` with literal or name arguments."""
    out: list[tuple[Token, list[ir.Expr]]] = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.type != "WORD" or str(tok) in _RESERVED or _is_dice(str(tok)):
            return None
        i += 1
        args: list[ir.Expr] = []
        while i < n and tokens[i].type != "COMMA":
            if tokens[i].type == "OP":
                return None  # keyword arguments are atoms: no signs, no operators
            got = atom(source, tokens, i)
            if got is None or isinstance(got[0], ir.Attr):
                return None
            args.append(got[0])
            i = got[1]
        out.append((tok, args))
        if i < n:  # a comma
            i += 1
            if i == n:
                break
    return out or None
