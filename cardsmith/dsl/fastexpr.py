"""A recursive-descent reader for the common subset of the expression grammar.

The LALR parse of expr.lark walks every operand through ten precedence levels, which
made reading effect statements the bulk of checking a large game. This module reads
the same language — for the subset that real card text overwhelmingly uses — straight
from the structural tokens, in one pass, building the very IR nodes (spans included)
that exprparse's transformer builds.

It never decides anything the grammar would decide differently: whenever it meets a
construct outside its subset (ranges, `is` tests, dice, dimensions, keyword arguments,
durations, ...), or the words do not form a complete expression, it returns None and the
caller falls back to the Lark grammar, which stays the language's definition and the
source of every syntax error. tests/test_fastexpr.py checks the two agree on the
standard library and on random token soups.

Keyword lists (`Charge, Ranged 2, Dual_Wield`), on nearly every card, have their own
reader here (`keyword_list`): the same idea for the `keyword_list` rule. Which words are
keywords comes from grammar/expr.lark through words.py, never from a list kept here.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from cardsmith.dsl import ir
from cardsmith.dsl.exprparse import NumberTooLarge, merge, number_too_large, parse_number, unescape
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.dsl.words import EXPR_WORDS, QDET, SOFTDET
from cardsmith.util.fastmodel import construct, span_of_token

_DICE = re.compile(r"\d*d\d+")
# Words that are keywords of the expression grammar in some position: a fast read
# treats none of them as a plain name, so the grammar's reading is never second-guessed.
# That is every word of expr.lark but two kinds: the soft determiners, which the reader
# tells apart from names by the word after them (see `atom`), and `x`, a keyword only
# inside `22 x 20` sizes, which this reader never reads, so it stays an ordinary name
# here, as the contextual lexer makes it.
_KEYWORDS = EXPR_WORDS - SOFTDET - {"x"}
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">="})
_PRODUCT = {"*": "*", "/": "/", "//": "//", "%": "%"}
_SUM = {"+": "+", "-": "-"}


class _Decline(Exception):
    """Outside the fast subset: let the grammar decide."""


class _Reader:
    __slots__ = ("i", "n", "path", "tokens")

    def __init__(self, path: str, tokens: list[Token]) -> None:
        self.path = path
        self.tokens = tokens
        self.i = 0
        self.n = len(tokens)

    # ---- token helpers
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < self.n else None

    def word(self, k: int = 0) -> str | None:
        tok = self.peek(k)
        return tok.value if tok is not None and tok.type == "WORD" else None

    def op(self, k: int = 0) -> str | None:
        tok = self.peek(k)
        return tok.value if tok is not None and tok.type == "OP" else None

    def kind(self, k: int = 0) -> str | None:
        tok = self.peek(k)
        return tok.type if tok is not None else None

    def take(self) -> Token:
        if self.i >= self.n:
            raise _Decline
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def span(self, tok: Token) -> Span:
        return span_of_token(self.path, tok, Span)

    # ---- grammar levels (mirroring expr.lark)
    def expr(self) -> Any:
        if self.word() == "if":
            raise _Decline  # conditionals: rare, leave to the grammar
        return self.or_()

    def or_(self) -> Any:
        left = self.and_()
        while self.word() == "or":
            self.i += 1
            right = self.and_()
            left = construct(ir.Logic, span=merge(left.span, right.span), op="or", left=left, right=right)
        return left

    def and_(self) -> Any:
        left = self.not_()
        while self.word() == "and":
            self.i += 1
            right = self.not_()
            left = construct(ir.Logic, span=merge(left.span, right.span), op="and", left=left, right=right)
        return left

    def not_(self) -> Any:
        if self.word() == "not":
            keyword = self.span(self.tokens[self.i])
            self.i += 1
            operand = self.not_()
            return construct(ir.Not, span=merge(keyword, operand.span), operand=operand)
        return self.cmp()

    def cmp(self) -> Any:
        left = self.sum()
        op = self.op()
        if op is not None and op in _COMPARE:
            self.i += 1
            right = self.sum()
            nxt = self.op()
            if nxt is not None and (nxt in _COMPARE or nxt == ".."):
                raise _Decline
            return construct(ir.Compare, span=merge(left.span, right.span), op=op, left=left, right=right)
        if op == "..":
            raise _Decline
        w = self.word()
        if w == "in" or (w == "not" and self.word(1) == "in"):
            negated = w == "not"
            self.i += 2 if negated else 1
            coll = self.sum()
            if self.op() == ".." or self.word() in ("in", "is"):
                raise _Decline
            return construct(ir.Contains, span=merge(left.span, coll.span), item=left, collection=coll,
                             negated=negated)
        if w == "is":
            raise _Decline
        return left

    def sum(self) -> Any:
        left = self.product()
        while True:
            op = self.op()
            if op not in _SUM:
                return left
            self.i += 1
            right = self.product()
            left = construct(ir.BinOp, span=merge(left.span, right.span), op=op, left=left, right=right)

    def product(self) -> Any:
        left = self.unary()
        while True:
            op = self.op()
            if op not in _PRODUCT:
                return left
            self.i += 1
            right = self.unary()
            left = construct(ir.BinOp, span=merge(left.span, right.span), op=op, left=left, right=right)

    def unary(self) -> Any:
        op = self.op()
        if op == "-":
            self.i += 1
            operand = self.unary()
            if isinstance(operand, ir.Num):
                return construct(ir.Num, span=operand.span, num=-operand.num, den=operand.den)
            return construct(ir.Neg, span=operand.span, operand=operand)
        if op == "+":
            self.i += 1
            return self.unary()
        return self.postfix()

    def postfix(self) -> Any:
        node = self.atom()
        while True:
            if self.op() == "." and self.kind(1) == "WORD":
                name_tok = self.tokens[self.i + 1]
                name = name_tok.value
                if name in _KEYWORDS and name not in ("top", "bottom"):
                    raise _Decline
                self.i += 2
                node = construct(ir.Attr, span=merge(node.span, self.span(name_tok)), obj=node, name=name)
            elif self.kind() == "LPAR":
                if not isinstance(node, ir.Ref):
                    raise _Decline
                self.i += 1
                args: list[Any] = []
                if self.kind() != "RPAR":
                    while True:
                        if self.kind() == "WORD" and self.op(1) == "=":
                            raise _Decline  # keyword arguments
                        args.append(self.expr())
                        if self.kind() == "COMMA":
                            self.i += 1
                            continue
                        break
                if self.kind() != "RPAR":
                    raise _Decline
                self.i += 1
                span = merge(node.span, args[-1].span) if args else node.span
                node = construct(ir.Call, span=span, func=node.name, args=args, kwargs={})
            elif self.kind() == "LSQB":
                raise _Decline  # indexing
            else:
                return node

    def atom(self) -> Any:
        tok = self.take()
        kind = tok.type
        if kind == "NUMBER":
            nxt = self.peek()
            if nxt is not None and nxt.type == "WORD" and nxt.start_pos == tok.end_pos:
                raise _Decline  # 2d6
            num, den = parse_number(tok.value)
            return construct(ir.Num, span=self.span(tok), num=num, den=den)
        if kind in ("STRING", "LONG_STRING"):
            return construct(ir.Text, span=self.span(tok), value=unescape(tok.value))
        if kind == "LPAR":
            inner = self.expr()
            if self.kind() != "RPAR":
                raise _Decline
            self.i += 1
            return inner
        if kind == "LSQB":
            items: list[Any] = []
            while self.kind() != "RSQB":
                items.append(self.expr())
                if self.kind() == "COMMA":
                    self.i += 1
                elif self.kind() != "RSQB":
                    raise _Decline
            self.i += 1
            if not items:
                raise _Decline
            return construct(ir.ListExpr, span=merge(items[0].span, items[-1].span), items=items)
        if kind != "WORD":
            raise _Decline
        text = tok.value
        if text in ("yes", "no"):
            return construct(ir.Bool, span=self.span(tok), value=text == "yes")
        if text in ("true", "false"):
            raise _Decline  # refused: the grammar reports it where it is
        if text == "none":
            return construct(ir.NoneLit, span=self.span(tok))
        if text == "your":
            name_tok = self.take()
            if name_tok.type != "WORD" or name_tok.value in _KEYWORDS or name_tok.value in SOFTDET:
                raise _Decline
            span = self.span(name_tok)
            return construct(ir.Attr, span=span, obj=construct(ir.Ref, span=span, name="you"),
                             name=name_tok.value)
        if text in QDET:
            return self.query(tok)
        if text in SOFTDET:
            nxt = self.peek()
            if nxt is not None and (nxt.type == "NUMBER" or (nxt.type == "WORD" and nxt.value not in _KEYWORDS
                                                             and nxt.value not in SOFTDET)):
                return self.query(tok)
            if nxt is not None and nxt.type == "WORD" and nxt.value == "up":
                raise _Decline
            return self.ref_or_of(tok)
        if text in _KEYWORDS or _DICE.fullmatch(text):
            raise _Decline
        return self.ref_or_of(tok)

    def ref_or_of(self, tok: Token) -> Any:
        if self.word() == "of":
            self.i += 1
            obj = self.postfix_only()
            return construct(ir.Attr, span=merge(self.span(tok), obj.span), obj=obj, name=tok.value)
        return construct(ir.Ref, span=self.span(tok), name=tok.value)

    def postfix_only(self) -> Any:
        """The `postfix` level, for `name of postfix` and zone clauses."""
        return self.postfix()

    def query(self, det: Token) -> Any:
        count = None
        if self.kind() == "NUMBER":
            num_tok = self.take()
            nxt = self.peek()
            if nxt is not None and nxt.type == "WORD" and nxt.start_pos == num_tok.end_pos:
                raise _Decline
            num, den = parse_number(num_tok.value)
            count = construct(ir.Num, span=self.span(num_tok), num=num, den=den)
        elif self.word() == "up":
            raise _Decline
        words: list[Token] = []
        while True:
            w = self.word()
            if w == "x":
                raise _Decline  # after some determiners the lexer reads `x` as the size keyword
            if w is None or w in _KEYWORDS or w in SOFTDET or _DICE.fullmatch(w):
                break
            words.append(self.take())
        if not words:
            raise _Decline
        last_span = self.span(words[-1])
        zone = where = None
        if self.word() in ("in", "from"):
            self.i += 1
            zone = self.postfix_only()
            last_span = zone.span
        if self.word() == "where":
            self.i += 1
            where = self.or_()
            last_span = where.span
        names = [w.value for w in words]
        return construct(ir.Query, span=merge(self.span(det), last_span), det=det.value.lower(), count=count,
                         up_to=False, adjectives=names[:-1], noun=names[-1], zone=zone, where=where)

    def done(self) -> bool:
        return self.i == self.n


def _read(path: str, tokens: list[Token], rule: str) -> Any:
    r = _Reader(path, tokens)
    if rule == "cond_tail":
        result: Any = r.expr()
    elif rule == "for_tail":
        if r.word() in QDET:
            r.i += 1
        var = r.take()
        if var.type != "WORD" or var.value in _KEYWORDS or r.word() != "in":
            raise _Decline
        r.i += 1
        result = (var, r.expr())
    elif rule == "let_tail":
        var = r.take()
        if var.type != "WORD" or var.value in _KEYWORDS or r.op() != "=":
            raise _Decline
        r.i += 1
        result = (var, r.expr())
    elif rule in ("set_tail", "change_tail"):
        target = r.expr()
        if r.word() != ("to" if rule == "set_tail" else "by"):
            raise _Decline
        r.i += 1
        result = (target, r.expr(), None)
    elif rule == "repeat_tail":
        count = r.expr()
        if r.word() != "times":
            raise _Decline
        r.i += 1
        result = count
    elif rule == "choose_tail":
        result = _choose(r)
    else:
        raise _Decline
    if not r.done():
        raise _Decline
    return result


def _choose(r: _Reader) -> dict[str, Any]:
    out: dict[str, Any] = {"count": ("one", None)}
    if r.kind() == "NUMBER":
        tok = r.take()
        num, den = parse_number(tok.value)
        out["count"] = ("exact", construct(ir.Num, span=r.span(tok), num=num, den=den))
    elif r.word() in ("up", "any"):
        raise _Decline
    var = r.take()
    if var.type != "WORD" or var.value in _KEYWORDS or var.value in SOFTDET or r.word() not in ("from", "in"):
        raise _Decline
    r.i += 1
    out["var"] = var
    out["source"] = r.expr()
    while not r.done():
        w = r.word()
        if w == "by":
            r.i += 1
            out["by"] = r.expr()
        elif w in ("hidden", "optional", "simultaneously"):
            r.i += 1
            out[w] = True
        elif w == "where":
            r.i += 1
            out["where"] = r.or_()
        else:
            raise _Decline
    return out


def read(path: str, tokens: list[Token], rule: str) -> Any | None:
    """The IR for `tokens` under `rule`, or None when the grammar must decide."""
    if not tokens:
        return None
    try:
        return _read(path, tokens, rule)
    except (_Decline, NumberTooLarge):
        return None  # the grammar reports a too large number where it is
    except RecursionError:
        return None


# ---- keyword lists

def _keyword_arg(source: SourceFile, tokens: list[Token], i: int) -> tuple[ir.Expr, int] | None:
    """A keyword's argument at tokens[i] — a number, a string or a plain name — as
    (node, next index); None when the grammar must decide. (Signs are operators, which
    `keyword_list` leaves to the grammar before asking here.) Every word of the grammar
    declines, `x` and the soft determiners too: declining costs only the grammar's parse,
    never a different result."""
    tok = tokens[i]
    kind = tok.type
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if kind == "NUMBER":
        if number_too_large(str(tok)) or (nxt is not None and number_too_large(str(nxt))):
            return None  # the grammar reports it where it is
        if nxt is not None and nxt.type == "WORD" and nxt.start_pos == tok.end_pos:
            return None  # 2d6 and friends
        num, den = parse_number(str(tok))
        return construct(ir.Num, span=span_of_token(source.path, tok, Span), num=num, den=den), i + 1
    if kind in ("STRING", "LONG_STRING"):
        return construct(ir.Text, span=span_of_token(source.path, tok, Span), value=unescape(str(tok))), i + 1
    if kind != "WORD" or str(tok) in EXPR_WORDS or _DICE.fullmatch(str(tok)):
        return None
    if nxt is not None and (nxt.type in ("LPAR", "LSQB", "OP") or (nxt.type == "WORD" and str(nxt) == "of")):
        return None  # calls, indexing, attributes and `x of y` go to the grammar
    return construct(ir.Ref, span=span_of_token(source.path, tok, Span), name=str(tok)), i + 1


def keyword_list(source: SourceFile, tokens: list[Token]) -> list[tuple[Token, list[ir.Expr]]] | None:
    """`Charge, Ranged 2, Dual_Wield` with literal or name arguments, as the grammar's
    `keyword_list` rule builds it (spans included); None when the grammar must decide."""
    out: list[tuple[Token, list[ir.Expr]]] = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.type != "WORD" or str(tok) in EXPR_WORDS or _DICE.fullmatch(str(tok)):
            return None
        i += 1
        args: list[ir.Expr] = []
        while i < n and tokens[i].type != "COMMA":
            if tokens[i].type == "OP":
                return None  # keyword arguments are atoms: no signs, no operators
            got = _keyword_arg(source, tokens, i)
            if got is None:
                return None
            args.append(got[0])
            i = got[1]
        out.append((tok, args))
        if i < n:  # a comma
            i += 1
            if i == n:
                break
    return out or None
