"""Evaluate card-level expressions at compile time.

Deck rules (`copies: card.border.copies`, `allow: card.faction in factions`) and
card-type rules (`token: card.border == green`) only read a card's printed values, so
they can be evaluated without running a match. That lets the checker prove a deck rule
unsatisfiable, and the deck checker validate decklists, from the same IR. Anything
that needs a running match raises `NotStatic`.

Deck-wide rules (`require`/`forbid`/`summary`) read `deck`, bound to a `DeckValue`: a
section's cards in decklist order (`deck.Garrison`), `deck.size` and `deck.cards`. The
pure functions of the core prelude (count, sum, min, max, any, first, last, values,
size, abs, floor, ceil) and queries such as `all units in deck.Garrison where ...` are
evaluated here too, so the deck checker needs no Python written for one game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardsmith.dsl import ir


def fold(op: str, a: int | Fraction, b: int | Fraction) -> int | Fraction | None:
    """`a op b` as the rules compute it, for values known before play (None: a division
    by zero). One definition for the static evaluator and the checker's constant folding."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        return None
    if op == "/":
        q = Fraction(a) / Fraction(b)
        return q.numerator if q.denominator == 1 else q
    if op == "//":
        return a // b
    return a % b

class NotStatic(Exception):
    """The expression depends on a running match."""


@dataclass(frozen=True)
class EnumVal:
    enum: str
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DeckValue:
    """A decklist as rules see it: `deck.<Section>` is that section's cards in order."""

    sections: dict[str, list[ir.CardDecl]]
    size: int
    cards: list[ir.CardDecl]

    def attr(self, name: str) -> Any:
        if name == "size":
            return self.size
        if name == "cards":
            return self.cards
        for section, cards in self.sections.items():
            if section == name or section.lower() == name.lower():
                return cards
        return []


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
        self.functions = {f.name: f for f in game.functions}
        # Card values are read for every line of every decklist: memoised per card.
        self._values: dict[tuple[int, str], tuple[ir.CardDecl, Any]] = {}

    def card_value(self, card: ir.CardDecl, name: str) -> Any:
        key = (id(card), name)
        hit = self._values.get(key)
        if hit is not None and hit[0] is card:
            return hit[1]
        value = self._card_value(card, name)
        self._values[key] = (card, value)
        return value

    def _card_value(self, card: ir.CardDecl, name: str) -> Any:
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
        # the most frequent nodes of deck rules first: this runs for every decklist
        if isinstance(e, ir.Call):
            return self.call(e, env)
        if isinstance(e, ir.Compare):
            return self.compare(e, env)
        if isinstance(e, ir.Logic):
            left = bool(self.eval(e.left, env))
            if e.op == "and":
                return left and bool(self.eval(e.right, env))
            return left or bool(self.eval(e.right, env))
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
            if isinstance(obj, DeckValue):
                return obj.attr(e.name)
            if obj is None:
                raise NotStatic(f"'{e.name}' of no card")
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
            folded = fold(e.op, a, b)
            if folded is None:
                raise NotStatic("division by zero")
            return folded
        if isinstance(e, ir.Neg):
            v = self.eval(e.operand, env)
            if not isinstance(v, int | Fraction):
                raise NotStatic("negating a non-number")
            return -v
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
        if isinstance(e, ir.IsTest):
            value = self.eval(e.value, env)
            if isinstance(value, ir.CardDecl):
                held = all(_card_is(self, value, w) for w in e.words)
                return not held if e.negated else held
        if isinstance(e, ir.Conditional):
            chosen = e.then if bool(self.eval(e.condition, env)) else e.otherwise
            return self.eval(chosen, env)
        if isinstance(e, ir.Query):
            return self.query(e, env)
        raise NotStatic(type(e).__name__)

    def compare(self, e: ir.Compare, env: dict[str, Any]) -> bool:
        a, b = self.eval(e.left, env), self.eval(e.right, env)
        if e.op == "==":
            return _eq(a, b)
        if e.op == "!=":
            return not _eq(a, b)
        if not isinstance(a, int | Fraction) or not isinstance(b, int | Fraction):
            return False
        if e.op == "<":
            return a < b
        if e.op == "<=":
            return a <= b
        return a > b if e.op == ">" else a >= b

    def call(self, e: ir.Call, env: dict[str, Any]) -> Any:
        """The core prelude's pure functions, and a game's own one-expression functions."""
        if e.kwargs:
            raise NotStatic(f"{e.func} with named arguments")
        field = _field_name(e.args[1]) if e.func in ("sum", "values") and len(e.args) == 2 else None
        if field is not None:
            items = _items(self.eval(e.args[0], env), e.func)
            picked = [self.card_value(c, field) if isinstance(c, ir.CardDecl) else None for c in items]
            return _sum(picked) if e.func == "sum" else picked
        args = [self.eval(a, env) for a in e.args]
        builtin = _BUILTINS.get(e.func)
        if builtin is not None:
            return builtin(args)
        decl = self.functions.get(e.func)
        if decl is not None and decl.expr is not None and not decl.native and len(args) <= len(decl.params):
            scope = {p.name: (args[i] if i < len(args) else
                              (self.eval(p.default, {}) if p.default is not None else None))
                     for i, p in enumerate(decl.params)}
            return self.eval(decl.expr, scope)
        raise NotStatic(f"call to {e.func}")

    def query(self, e: ir.Query, env: dict[str, Any]) -> list[ir.CardDecl]:
        """`all units in deck.Garrison where it.cost == 0`: the matching cards, in order.

        Without a zone the query looks at the game's whole card catalogue.
        """
        pool = self.game.cards if e.zone is None else _items(self.eval(e.zone, env), "a query")
        out: list[ir.CardDecl] = []
        for card in pool:
            if not isinstance(card, ir.CardDecl):
                continue
            if e.noun not in ("card", "cards") and not _card_is(self, card, e.noun):
                continue
            if not all(_card_is(self, card, w) for w in e.adjectives):
                continue
            if e.where is not None and not bool(self.eval(e.where, {**env, "it": card})):
                continue
            out.append(card)
        if e.count is not None:
            limit = self.eval(e.count, env)
            if isinstance(limit, int):
                out = out[:limit]
        return out


def _field_name(e: ir.Expr) -> str | None:
    """`cost` in `sum(deck.Garrison, cost)` names a field; it is not evaluated."""
    if isinstance(e, ir.Ref):
        return e.name
    if isinstance(e, ir.Text):
        return e.value
    return None


def _items(value: Any, what: str) -> list[Any]:
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    if isinstance(value, DeckValue):
        return value.cards
    raise NotStatic(f"{what} over a non-list")


def _numbers(values: list[Any]) -> list[int | Fraction]:
    out: list[int | Fraction] = []
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int | Fraction):
            raise NotStatic("arithmetic on non-numbers")
        out.append(v)
    return out


def _sum(values: list[Any]) -> int | Fraction:
    return sum(_numbers(values), 0)


def _extreme(args: list[Any], pick: Any) -> Any:
    numbers = _numbers(_items(args[0], "min/max") if len(args) == 1 else args)
    return pick(numbers) if numbers else None


def _count(args: list[Any]) -> int:
    return len(_items(args[0], "count")) if args else 0


def _any(args: list[Any]) -> bool:
    return any(v is not None and v is not False for v in _items(args[0], "any")) if args else False


def _end(args: list[Any], index: int) -> Any:
    items = _items(args[0], "first/last") if args else []
    return items[index] if items else None


def _one_number(args: list[Any]) -> int | Fraction:
    numbers = _numbers(args[:1])
    if not numbers:
        raise NotStatic("a number is missing")
    return numbers[0]


def _floor(args: list[Any]) -> int:
    return math.floor(_one_number(args))


def _ceil(args: list[Any]) -> int:
    return math.ceil(_one_number(args))


_BUILTINS: dict[str, Callable[[list[Any]], Any]] = {
    "count": _count,
    "size": _count,
    "sum": lambda args: _sum(_items(args[0], "sum")) if args else 0,
    "min": lambda args: _extreme(args, min),
    "max": lambda args: _extreme(args, max),
    "any": _any,
    "first": lambda args: _end(args, 0),
    "last": lambda args: _end(args, -1),
    "abs": lambda args: abs(_one_number(args)),
    "floor": _floor,
    "ceil": _ceil,
}


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
