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

What the operators and builtins do to values is cardsmith/model/values.py's: the compiled
rules call the same functions at play time, so an expression means the same before play
and during it. An operation that fails (`true + 1`, a division by zero) raises
values.OperationError with the message play would give; NotStatic is only for what
cannot be known before play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.visitor import Visitor, members
from cardsmith.model import values
from cardsmith.model.state import EnumValue

# An enum value before play is the engine's own EnumValue, so values.equal treats both alike.
EnumVal = EnumValue


def fold(op: str, a: int | Fraction, b: int | Fraction) -> int | Fraction | None:
    """`a op b` as the rules compute it (values.arith), for the checker's constant
    folding; None for a division by zero or a result beyond values.MAX_NUMBER, which
    the checker reports where it is written (Checker.infer)."""
    try:
        return values.arith(op, a, b)
    except values.OperationError as error:
        if error.kind in ("zero", "large"):
            return None
        raise


class NotStatic(Exception):
    """The expression depends on a running match."""


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


class StaticEnv(Visitor):
    """A game's printed values, and the evaluator of expressions over them: one
    `visit_<Node>` per kind of expression (cardsmith/dsl/visitor.py), dispatched by a
    table because this runs for every line of every decklist. A kind that needs a
    running match raises NotStatic."""

    covers = members(ir.Expr)

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
        """The value of `e` with the names of `env` bound (`card`, `deck`, `it`)."""
        return self.visit(e, env)

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise NotStatic(type(node).__name__)

    def _in_play_only(self, e: ir.Expr, env: dict[str, Any]) -> Any:
        """A card named in the rules, a measure, a roll, a zone's top card: known only in
        a running match (a dimension is for layouts, which printing evaluates itself)."""
        raise NotStatic(type(e).__name__)

    visit_CardRef = visit_Dim = visit_Roll = visit_TopOf = _in_play_only

    def visit_Logic(self, e: ir.Logic, env: dict[str, Any]) -> Any:
        left = values.truth(self.visit(e.left, env))
        if e.op == "and":
            return left and values.truth(self.visit(e.right, env))
        return left or values.truth(self.visit(e.right, env))

    def visit_Num(self, e: ir.Num, env: dict[str, Any]) -> Any:
        return e.num if e.den == 1 else Fraction(e.num, e.den)

    def visit_Text(self, e: ir.Text, env: dict[str, Any]) -> Any:
        return e.value

    def visit_Bool(self, e: ir.Bool, env: dict[str, Any]) -> Any:
        return e.value

    def visit_NoneLit(self, e: ir.NoneLit, env: dict[str, Any]) -> Any:
        return None

    def visit_Dice(self, e: ir.Dice, env: dict[str, Any]) -> Any:
        return values.Dice(e.count, e.sides)

    def visit_Ref(self, e: ir.Ref, env: dict[str, Any]) -> Any:
        if e.name in env:
            return env[e.name]
        if e.name in self.value_enum:
            return EnumVal(self.value_enum[e.name], e.name)
        if e.name in self.params:
            return self.visit(self.params[e.name].value, {})
        raise NotStatic(e.name)

    def visit_Attr(self, e: ir.Attr, env: dict[str, Any]) -> Any:
        if isinstance(e.obj, ir.Ref) and e.obj.name in self.enums:
            return EnumVal(e.obj.name, e.name)
        obj = self.visit(e.obj, env)
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
                    return self.visit(v.properties[e.name], {})
            raise NotStatic(e.name)
        if isinstance(obj, list):
            out = []
            for item in obj:
                if isinstance(item, ir.CardDecl):
                    out.append(self.card_value(item, e.name))
            return out
        raise NotStatic(e.name)

    def visit_BinOp(self, e: ir.BinOp, env: dict[str, Any]) -> Any:
        return values.arith(e.op, self.visit(e.left, env), self.visit(e.right, env))

    def visit_Neg(self, e: ir.Neg, env: dict[str, Any]) -> Any:
        return values.neg(self.visit(e.operand, env))

    def visit_Not(self, e: ir.Not, env: dict[str, Any]) -> Any:
        return not values.truth(self.visit(e.operand, env))

    def visit_Contains(self, e: ir.Contains, env: dict[str, Any]) -> Any:
        coll = self.visit(e.collection, env)  # (first, as the compiled rule does: rt.contains(m, coll, item))
        item = self.visit(e.item, env)
        found = values.contains(coll.cards if isinstance(coll, DeckValue) else coll, item)
        return not found if e.negated else found

    def visit_RangeExpr(self, e: ir.RangeExpr, env: dict[str, Any]) -> Any:
        low = self.visit(e.low, env) if e.low is not None else None
        high = self.visit(e.high, env) if e.high is not None else None
        return values.Range(low, high)

    def visit_ListExpr(self, e: ir.ListExpr, env: dict[str, Any]) -> Any:
        return [self.visit(i, env) for i in e.items]

    def visit_Index(self, e: ir.Index, env: dict[str, Any]) -> Any:
        return values.index(self.visit(e.obj, env), self.visit(e.index, env))

    def visit_IsTest(self, e: ir.IsTest, env: dict[str, Any]) -> Any:
        value = self.visit(e.value, env)
        # only a card has qualities before play (a player is never static); any other
        # value is not a Unit, not exhausted, ... as at play time
        held = isinstance(value, ir.CardDecl) and all(_card_is(self, value, w) for w in e.words)
        return not held if e.negated else held

    def visit_Conditional(self, e: ir.Conditional, env: dict[str, Any]) -> Any:
        chosen = e.then if values.truth(self.visit(e.condition, env)) else e.otherwise
        return self.visit(chosen, env)

    def visit_Compare(self, e: ir.Compare, env: dict[str, Any]) -> bool:
        return values.compare(e.op, self.visit(e.left, env), self.visit(e.right, env))

    def visit_Call(self, e: ir.Call, env: dict[str, Any]) -> Any:
        """The core prelude's pure functions, and a game's own one-expression functions."""
        if e.kwargs:
            raise NotStatic(f"{e.func} with named arguments")
        field = _field_name(e.args[1]) if e.func in ("sum", "values") and len(e.args) == 2 else None
        if field is not None:
            items = _items(self.visit(e.args[0], env))
            picked = [self.card_value(c, field) if isinstance(c, ir.CardDecl) else c if values.is_number(c) else None
                      for c in items]
            return values.total(picked) if e.func == "sum" else picked
        args = [self.visit(a, env) for a in e.args]
        builtin = _BUILTINS.get(e.func)
        if builtin is not None:
            return builtin(args)
        decl = self.functions.get(e.func)
        if decl is not None and decl.expr is not None and not decl.native and len(args) <= len(decl.params):
            scope = {p.name: (args[i] if i < len(args) else
                              (self.visit(p.default, {}) if p.default is not None else None))
                     for i, p in enumerate(decl.params)}
            return self.visit(decl.expr, scope)
        raise NotStatic(f"call to {e.func}")

    def visit_Query(self, e: ir.Query, env: dict[str, Any]) -> list[ir.CardDecl]:
        """`all units in deck.Garrison where it.cost == 0`: the matching cards, in order.

        Without a zone the query looks at the game's whole card catalogue.
        """
        pool = self.game.cards if e.zone is None else _items(self.visit(e.zone, env))
        out: list[ir.CardDecl] = []
        for card in pool:
            if not isinstance(card, ir.CardDecl):
                continue
            if e.noun not in ("card", "cards") and not _card_is(self, card, e.noun):
                continue
            if not all(_card_is(self, card, w) for w in e.adjectives):
                continue
            if e.where is not None and not bool(self.visit(e.where, {**env, "it": card})):
                continue
            out.append(card)
        if e.count is not None:
            limit = self.visit(e.count, env)
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


def _items(value: Any) -> list[Any]:
    """The items a list function or a query reads (values.items), a deck's cards too."""
    if isinstance(value, DeckValue):
        return value.cards
    return values.items(value)


def _arg(args: list[Any], i: int) -> Any:
    return args[i] if i < len(args) else None


def _extreme_args(args: list[Any]) -> list[Any]:
    first = _arg(args, 0)
    return values.extreme_args(first.cards if isinstance(first, DeckValue) else first, _arg(args, 1))


def _end(args: list[Any], at: int) -> Any:
    found = _items(_arg(args, 0))
    return found[at] if found else None


# The core prelude's pure functions, as the engine's fn_* compute them (values.py).
_BUILTINS: dict[str, Callable[[list[Any]], Any]] = {
    "count": lambda args: len(_items(_arg(args, 0))),
    "size": lambda args: len(_items(_arg(args, 0))),
    "sum": lambda args: values.total(_items(_arg(args, 0))),
    "min": lambda args: values.smallest(_extreme_args(args)),
    "max": lambda args: values.largest(_extreme_args(args)),
    "any": lambda args: values.any_true(_items(_arg(args, 0))),
    "first": lambda args: _end(args, 0),
    "last": lambda args: _end(args, -1),
    "abs": lambda args: values.absolute(_arg(args, 0)),
    "floor": lambda args: values.floor(_arg(args, 0)),
    "ceil": lambda args: values.ceil(_arg(args, 0)),
}


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
    if isinstance(value, values.Range):
        low, high = value.low, value.high
        return (int(low) if low is not None else None, int(high) if high is not None else None)
    if isinstance(value, int):
        return value, value
    raise NotStatic("not a count")


def check_static_values(game: ir.Game, sink: DiagnosticSink) -> None:
    """Report the values fixed before play (params and mode settings, enum properties,
    counter bounds, card fields and keyword arguments, defaults, region properties) whose
    operation fails — `bonus + 1` with a param `bonus: any = none`. The engine computes
    them with this evaluator when a match starts; without this check the mistake would
    surface there, not at `cardsmith check` where the designer can see the line."""
    env = StaticEnv(game)

    def attempt(value: ir.Expr | None, what: str, scope: dict[str, Any] | None = None) -> None:
        if value is None:
            return
        try:
            env.eval(value, scope or {})
        except values.OperationError as error:
            sink.error(value.span, "CS0301", f"{what} cannot be computed: {error}",
                       "this value is fixed before play; give it one the rules can compute")
        except (NotStatic, RecursionError):
            pass  # known only in play (or a function without end, which play reports)

    for p in game.params:
        attempt(p.value, f"param '{p.name}'")
    for mode in game.modes:
        for name, value in mode.overrides.items():
            attempt(value, f"mode '{mode.name}' setting '{name}'")
    for enum in game.enums:
        for v in enum.values:
            for name, value in v.properties.items():
                attempt(value, f"{enum.name}.{v.name}'s '{name}'")
    for counter in game.counters:
        for bound in (counter.start, counter.min, counter.max):
            attempt(bound, f"counter '{counter.name}'")
    for ctype in game.cardtypes:
        for f in (*ctype.stats, *ctype.properties):
            attempt(f.default, f"the default of {ctype.name}'s '{f.name}'")
    for card in game.cards:
        for name, value in (*card.stats.items(), *card.properties.items()):
            attempt(value, f"\"{card.name}\"'s '{name}'")
        for use in _granted(card.keywords, card.abilities):
            for value in use.args:
                attempt(value, f"\"{card.name}\"'s {use.name}")
        its_type = env.cardtypes.get(card.type)
        if its_type is not None and its_type.token is not None:
            attempt(its_type.token, f"{its_type.name}'s token rule for \"{card.name}\"", {"card": card})
    for keyword in game.keywords:
        for param in keyword.params:
            attempt(param.default, f"the default of {keyword.name}'s '{param.name}'")
        for use in _granted([], keyword.abilities):
            for value in use.args:
                attempt(value, f"{keyword.name}'s {use.name}")
    defaults = [(p.name, p.params) for p in game.procedures] + [(f.name, f.params) for f in game.functions]
    for owner, params in defaults:
        for param in params:
            if not (isinstance(param.default, ir.Ref) and param.default.name in ("self", "you", "none")):
                attempt(param.default, f"the default of {owner}'s '{param.name}'")
    for board in game.boards:
        for region in board.regions:
            for name, value in region.properties.items():
                attempt(value, f"region '{region.name}''s '{name}'")


def _granted(printed: list[ir.KeywordUse], abilities: list[ir.Ability]) -> list[ir.KeywordUse]:
    """Keyword uses whose arguments are fixed before play: printed ones, and those a
    static ability grants."""
    return [*printed, *(use for a in abilities if isinstance(a, ir.Static) for use in a.grants)]


def to_runtime(value: Any) -> Any:
    """A static value (from static_eval) as the runtime represents it."""
    if isinstance(value, EnumVal):
        return EnumValue(value.enum, value.name)
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    if isinstance(value, list):
        return [to_runtime(v) for v in value]
    return value
