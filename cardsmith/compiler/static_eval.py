"""Evaluate card-level expressions at compile time.

Deck rules (`copies: card.border.copies`, `allow: card.faction in factions`) and
card-type rules (`token: card.border == green`) only read a card's printed values, so
they can be evaluated without running a match. That lets the checker prove a deck rule
unsatisfiable, and the deck checker validate decklists, from the same IR. Anything
that needs a running match raises `NotStatic`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardsmith.dsl import ir


class NotStatic(Exception):
    """The expression depends on a running match."""


@dataclass(frozen=True)
class EnumVal:
    enum: str
    name: str

    def __str__(self) -> str:
        return self.name


class StaticEnv:
    def __init__(self, game: ir.Game) -> None:
        self.game = game
        self.enums = {e.name: e for e in game.enums}
        self.value_enum: dict[str, str] = {}
        for e in game.enums:
            for v in e.values:
                self.value_enum.setdefault(v.name, e.name)
        self.cardtypes = {t.name: t for t in game.cardtypes}
        self.params = {p.name: p for p in game.params}

    def card_value(self, card: ir.CardDecl, name: str) -> Any:
        if name == "name":
            return card.name
        if name == "type":
            return card.type
        if name == "copies":
            return card.copies
        if name in card.stats:
            return self.eval(card.stats[name], {})
        if name in card.properties:
            return self.eval(card.properties[name], {})
        ctype = self.cardtypes.get(card.type)
        if ctype is not None:
            for f in (*ctype.stats, *ctype.properties):
                if f.name == name:
                    if f.default is None:
                        return None
                    return self.eval(f.default, {})
        return None

    def eval(self, e: ir.Expr, env: dict[str, Any]) -> Any:
        if isinstance(e, ir.Num):
            return e.num if e.den == 1 else Fraction(e.num, e.den)
        if isinstance(e, ir.Text):
            return e.value
        if isinstance(e, ir.Bool):
            return e.value
        if isinstance(e, ir.NoneLit):
            return None
        if isinstance(e, ir.Ref):
            if e.name in env:
                return env[e.name]
            if e.name in self.value_enum:
                return EnumVal(self.value_enum[e.name], e.name)
            if e.name in self.params:
                return self.eval(self.params[e.name].value, {})
            raise NotStatic(e.name)
        if isinstance(e, ir.Attr):
            if isinstance(e.obj, ir.Ref) and e.obj.name in self.enums:
                return EnumVal(e.obj.name, e.name)
            obj = self.eval(e.obj, env)
            if isinstance(obj, ir.CardDecl):
                return self.card_value(obj, e.name)
            if isinstance(obj, EnumVal):
                enum = self.enums.get(obj.enum)
                if enum is None:
                    raise NotStatic(e.name)
                for v in enum.values:
                    if v.name == obj.name and e.name in v.properties:
                        return self.eval(v.properties[e.name], {})
                raise NotStatic(e.name)
            if isinstance(obj, list):
                out = []
                for item in obj:
                    if isinstance(item, ir.CardDecl):
                        out.append(self.card_value(item, e.name))
                return out
            raise NotStatic(e.name)
        if isinstance(e, ir.BinOp):
            a, b = self.eval(e.left, env), self.eval(e.right, env)
            if not isinstance(a, int | Fraction) or not isinstance(b, int | Fraction):
                raise NotStatic("arithmetic on non-numbers")
            if e.op == "+":
                return a + b
            if e.op == "-":
                return a - b
            if e.op == "*":
                return a * b
            if b == 0:
                raise NotStatic("division by zero")
            if e.op == "/":
                q = Fraction(a) / Fraction(b)
                return q.numerator if q.denominator == 1 else q
            if e.op == "//":
                return a // b
            return a % b
        if isinstance(e, ir.Neg):
            v = self.eval(e.operand, env)
            if not isinstance(v, int | Fraction):
                raise NotStatic("negating a non-number")
            return -v
        if isinstance(e, ir.Compare):
            a, b = self.eval(e.left, env), self.eval(e.right, env)
            if e.op == "==":
                return _eq(a, b)
            if e.op == "!=":
                return not _eq(a, b)
            if not isinstance(a, int | Fraction) or not isinstance(b, int | Fraction):
                return False
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
        if isinstance(e, ir.Logic):
            left = bool(self.eval(e.left, env))
            if e.op == "and":
                return left and bool(self.eval(e.right, env))
            return left or bool(self.eval(e.right, env))
        if isinstance(e, ir.Not):
            return not bool(self.eval(e.operand, env))
        if isinstance(e, ir.Contains):
            item = self.eval(e.item, env)
            coll = self.eval(e.collection, env)
            if isinstance(coll, tuple) and len(coll) == 2 and not isinstance(coll, list):
                low, high = coll
                found = isinstance(item, int | Fraction) and (low is None or item >= low) and (
                    high is None or item <= high)
            elif isinstance(coll, list | set | frozenset):
                found = any(_eq(item, x) for x in coll)
            else:
                raise NotStatic("'in' over a non-collection")
            return not found if e.negated else found
        if isinstance(e, ir.RangeExpr):
            low = self.eval(e.low, env) if e.low is not None else None
            high = self.eval(e.high, env) if e.high is not None else None
            return (low, high)
        if isinstance(e, ir.ListExpr):
            return [self.eval(i, env) for i in e.items]
        if isinstance(e, ir.IsTest) and "card" in env:
            value = self.eval(e.value, env)
            if isinstance(value, ir.CardDecl):
                held = all(_card_is(self, value, w) for w in e.words)
                return not held if e.negated else held
        raise NotStatic(type(e).__name__)


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, EnumVal) and isinstance(b, EnumVal):
        return a.name == b.name
    if isinstance(a, EnumVal) and isinstance(b, str):
        return a.name == b
    if isinstance(b, EnumVal) and isinstance(a, str):
        return b.name == a
    return bool(a == b)


def _card_is(env: StaticEnv, card: ir.CardDecl, word: str) -> bool:
    if word == card.type or word.lower() in (card.type.lower(),):
        return True
    ctype = env.cardtypes.get(card.type)
    if ctype is not None and word.lower() in (ctype.singular.lower(), ctype.plural.lower()):
        return True
    for value in card.properties.values():
        if isinstance(value, ir.Ref) and value.name == word:
            return True
    return any(k.name == word for k in card.keywords)


def as_bounds(value: Any) -> tuple[int | None, int | None]:
    """A count rule (`30..`, `1..2`, `9`) as (low, high)."""
    if isinstance(value, tuple):
        low, high = value
        return (int(low) if low is not None else None, int(high) if high is not None else None)
    if isinstance(value, int):
        return value, value
    raise NotStatic("not a count")
