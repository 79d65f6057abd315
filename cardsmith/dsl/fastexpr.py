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
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from cardsmith.dsl import ir
from cardsmith.dsl.exprparse import NumberTooLarge, merge, parse_number, unescape
from cardsmith.dsl.source import Span
from cardsmith.util.fastmodel import construct, span_of_token

_DICE = re.compile(r"\d*d\d+")
_QDET = frozenset({"each", "every", "another", "an", "a"})
_SOFTDET = frozenset({"target", "all", "any", "random"})
# Words that are keywords of the expression grammar in some position: a fast read
# treats none of them as a plain name, so the grammar's reading is never second-guessed.
# (`x` is a keyword only inside `22 x 20` sizes, which this reader never reads, so it
# stays an ordinary name here, as the contextual lexer makes it.)
_KEYWORDS = frozenset({
    "and", "or", "not", "in", "is", "of", "roll", "your", "where", "from", "to", "by", "up",
    "until", "end", "next", "permanently", "while", "times", "hidden", "optional",
    "simultaneously", "number", "per", "shared", "one", "if", "then", "else", "true",
    "false", "none", "top", "bottom",
}) | _QDET
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
        if text in ("true", "false"):
            return construct(ir.Bool, span=self.span(tok), value=text == "true")
        if text == "none":
            return construct(ir.NoneLit, span=self.span(tok))
        if text == "your":
            name_tok = self.take()
            if name_tok.type != "WORD" or name_tok.value in _KEYWORDS or name_tok.value in _SOFTDET:
                raise _Decline
            span = self.span(name_tok)
            return construct(ir.Attr, span=span, obj=construct(ir.Ref, span=span, name="you"),
                             name=name_tok.value)
        if text in _QDET:
            return self.query(tok)
        if text in _SOFTDET:
            nxt = self.peek()
            if nxt is not None and (nxt.type == "NUMBER" or (nxt.type == "WORD" and nxt.value not in _KEYWORDS
                                                             and nxt.value not in _SOFTDET)):
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
            if w is None or w in _KEYWORDS or w in _SOFTDET or _DICE.fullmatch(w):
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
        if r.word() in _QDET:
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
    if var.type != "WORD" or var.value in _KEYWORDS or var.value in _SOFTDET or r.word() not in ("from", "in"):
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
