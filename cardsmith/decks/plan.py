"""A game's deck rules compiled once into Python closures, for checking many decklists.

The static evaluator (cardsmith/compiler/static_eval.py) walks a rule's IR for every
evaluation: one dispatch per node, a scope copied per call. The deck checker evaluates
the same few rules (`let` names, `require`/`forbid`, `allow`, `copies`) for every
decklist, so `compile_expr` turns each rule into nested closures once per game. Each
closure does what the evaluator's `visit_<Node>` does for its node, in the same order
and with the same values.py operations, so a value or an error (NotStatic, an
OperationError) is the same either way; a node kind not listed here is handed to the
evaluator itself. tests/test_decks_fastparse.py checks both agree on every library
game's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from cardsmith.compiler.static_eval import (
    _BUILTINS,
    DeckValue,
    EnumVal,
    NotStatic,
    StaticEnv,
    _field_name,
    _items,
)
from cardsmith.dsl import ir
from cardsmith.model import values

Compiled = Callable[[dict[str, Any]], Any]


def compile_expr(e: ir.Expr, env: StaticEnv) -> Compiled:
    """A closure computing `env.eval(e, scope)` for a scope."""
    maker = _MAKERS.get(type(e))
    if maker is None:
        return _fallback(e, env)
    return maker(e, env)


def _fallback(e: ir.Expr, env: StaticEnv) -> Compiled:
    visit = env.visit
    return lambda scope: visit(e, scope)


def _constant(value: Any) -> Compiled:
    return lambda scope: value


def _num(e: ir.Num, env: StaticEnv) -> Compiled:
    return _constant(e.num if e.den == 1 else Fraction(e.num, e.den))


def _text(e: ir.Text, env: StaticEnv) -> Compiled:
    return _constant(e.value)


def _bool(e: ir.Bool, env: StaticEnv) -> Compiled:
    return _constant(e.value)


def _none(e: ir.NoneLit, env: StaticEnv) -> Compiled:
    return _constant(None)


def _ref(e: ir.Ref, env: StaticEnv) -> Compiled:
    name = e.name
    value_enum, params, visit = env.value_enum, env.params, env.visit

    def ref(scope: dict[str, Any]) -> Any:
        if name in scope:
            return scope[name]
        if name in value_enum:
            return EnumVal(value_enum[name], name)
        if name in params:
            return visit(params[name].value, {})
        raise NotStatic(name)
    return ref


def _attr(e: ir.Attr, env: StaticEnv) -> Compiled:
    name = e.name
    if isinstance(e.obj, ir.Ref) and e.obj.name in env.enums:
        enum_name = e.obj.name
        return lambda scope: EnumVal(enum_name, name)
    obj_of = compile_expr(e.obj, env)
    card_value, enums, visit = env.card_value, env.enums, env.visit
    card_cls = ir.CardDecl

    def attr(scope: dict[str, Any]) -> Any:
        obj = obj_of(scope)
        if isinstance(obj, card_cls):
            return card_value(obj, name)
        if isinstance(obj, DeckValue):
            return obj.attr(name)
        if obj is None:
            raise NotStatic(f"'{name}' of no card")
        if isinstance(obj, EnumVal):
            enum = enums.get(obj.enum)
            if enum is None:
                raise NotStatic(name)
            for v in enum.values:
                if v.name == obj.name and name in v.properties:
                    return visit(v.properties[name], {})
            raise NotStatic(name)
        if isinstance(obj, list):
            return [card_value(item, name) for item in obj if isinstance(item, card_cls)]
        raise NotStatic(name)
    return attr


def _logic(e: ir.Logic, env: StaticEnv) -> Compiled:
    left_of, right_of, truth = compile_expr(e.left, env), compile_expr(e.right, env), values.truth
    if e.op == "and":
        return lambda scope: truth(left_of(scope)) and truth(right_of(scope))
    return lambda scope: truth(left_of(scope)) or truth(right_of(scope))


def _binop(e: ir.BinOp, env: StaticEnv) -> Compiled:
    op, left_of, right_of, arith = e.op, compile_expr(e.left, env), compile_expr(e.right, env), values.arith
    return lambda scope: arith(op, left_of(scope), right_of(scope))


def _neg(e: ir.Neg, env: StaticEnv) -> Compiled:
    operand_of, neg = compile_expr(e.operand, env), values.neg
    return lambda scope: neg(operand_of(scope))


def _not(e: ir.Not, env: StaticEnv) -> Compiled:
    operand_of, truth = compile_expr(e.operand, env), values.truth
    return lambda scope: not truth(operand_of(scope))


def _contains(e: ir.Contains, env: StaticEnv) -> Compiled:
    coll_of, item_of, negated, contains = (compile_expr(e.collection, env), compile_expr(e.item, env),
                                           e.negated, values.contains)

    def contains_(scope: dict[str, Any]) -> Any:
        coll = coll_of(scope)  # (first, as the evaluator does)
        item = item_of(scope)
        found = contains(coll.cards if isinstance(coll, DeckValue) else coll, item)
        return not found if negated else found
    return contains_


def _range(e: ir.RangeExpr, env: StaticEnv) -> Compiled:
    low_of = compile_expr(e.low, env) if e.low is not None else None
    high_of = compile_expr(e.high, env) if e.high is not None else None
    make = values.Range

    def range_(scope: dict[str, Any]) -> Any:
        low = low_of(scope) if low_of is not None else None
        high = high_of(scope) if high_of is not None else None
        return make(low, high)
    return range_


def _list(e: ir.ListExpr, env: StaticEnv) -> Compiled:
    items_of = [compile_expr(i, env) for i in e.items]
    return lambda scope: [item(scope) for item in items_of]


def _index(e: ir.Index, env: StaticEnv) -> Compiled:
    obj_of, index_of, index = compile_expr(e.obj, env), compile_expr(e.index, env), values.index
    return lambda scope: index(obj_of(scope), index_of(scope))


def _conditional(e: ir.Conditional, env: StaticEnv) -> Compiled:
    cond_of, then_of, else_of, truth = (compile_expr(e.condition, env), compile_expr(e.then, env),
                                        compile_expr(e.otherwise, env), values.truth)
    return lambda scope: then_of(scope) if truth(cond_of(scope)) else else_of(scope)


def _compare(e: ir.Compare, env: StaticEnv) -> Compiled:
    op, left_of, right_of, compare = e.op, compile_expr(e.left, env), compile_expr(e.right, env), values.compare
    return lambda scope: compare(op, left_of(scope), right_of(scope))


def _call(e: ir.Call, env: StaticEnv) -> Compiled:
    if e.kwargs or (e.func not in _BUILTINS and _field(e) is None):
        return _fallback(e, env)  # (named arguments, a game's own function: as the evaluator does)
    field = _field(e)
    if field is not None:
        items_of, card_value, is_number, card_cls = compile_expr(e.args[0], env), env.card_value, \
            values.is_number, ir.CardDecl
        total = e.func == "sum"

        def fields(scope: dict[str, Any]) -> Any:
            found = items_of(scope)
            picked = [card_value(c, field) if isinstance(c, card_cls) else c if is_number(c) else None
                      for c in (found if type(found) is list else _items(found))]
            return values.total(picked) if total else picked
        return fields
    builtin = _BUILTINS[e.func]
    args_of = [compile_expr(a, env) for a in e.args]
    if len(args_of) == 1:
        only = args_of[0]
        # (the list functions a deck rule calls most, on a section's cards: what
        # values.items makes of a list is a copy of it, so these read the list itself)
        if e.func in ("count", "size"):
            def count(scope: dict[str, Any]) -> Any:
                value = only(scope)
                return len(value) if type(value) is list else builtin([value])
            return count
        if e.func in ("first", "last"):
            at = 0 if e.func == "first" else -1

            def end(scope: dict[str, Any]) -> Any:
                value = only(scope)
                if type(value) is list:
                    return value[at] if value else None
                return builtin([value])
            return end
        return lambda scope: builtin([only(scope)])
    return lambda scope: builtin([arg(scope) for arg in args_of])


def _field(e: ir.Call) -> str | None:
    return _field_name(e.args[1]) if e.func in ("sum", "values") and len(e.args) == 2 else None


_MAKERS: dict[type, Callable[[Any, StaticEnv], Compiled]] = {
    ir.Num: _num, ir.Text: _text, ir.Bool: _bool, ir.NoneLit: _none, ir.Ref: _ref, ir.Attr: _attr,
    ir.Logic: _logic, ir.BinOp: _binop, ir.Neg: _neg, ir.Not: _not, ir.Contains: _contains,
    ir.RangeExpr: _range, ir.ListExpr: _list, ir.Index: _index, ir.Conditional: _conditional,
    ir.Compare: _compare, ir.Call: _call,
}


_UNKNOWN = (NotStatic, ArithmeticError, TypeError, ValueError)


class DeckPlan:
    """What checking a decklist needs from a game's deck rules, worked out once per game:
    every rule compiled (`compile_expr`), and the answers that do not depend on the deck
    (a section's count bounds) or depend only on one line (where a card listed under a
    header goes) remembered as they are first computed."""

    def __init__(self, env: StaticEnv, rules: ir.DeckRules) -> None:
        self.env = env
        self._compiled: dict[int, tuple[ir.Expr, Compiled]] = {}
        self.let = [(b.name, self.compiled(b.value)) for b in rules.bindings]
        self.excluded = self.compiled(rules.excluded) if rules.excluded is not None else None
        self.allow = self.compiled(rules.allow) if rules.allow is not None else None
        self.copies = self.compiled(rules.copies) if rules.copies is not None else None
        sections = rules.sections
        self.section_names = [s.name for s in sections]
        # sections that do not count toward the size; sections chosen within another;
        # card types a section of their own (a leader's) claims
        self.aside = {s.name for s in sections if not s.counts_toward_size}
        self.within = {s.name: s.within for s in sections if s.within is not None}
        self.claimed = {t: s for s in sections if s.types and not s.counts_toward_size
                        and s.within is None for t in s.types}
        self.let_reads = _deck_sections_read([b.value for b in rules.bindings])
        # (header, card key) → (card, section name or None, whether the section is one of the
        # rules', what its copies are: see _Validator.resolve), for lines that raised no diagnostic
        self.placed: dict[tuple[str | None, str], tuple[ir.CardDecl, str | None, bool, int]] = {}
        # id(count rule) → its (low, high), or None when it is not a count
        self.bounds: dict[int, tuple[ir.Expr, tuple[int | None, int | None] | None]] = {}

    def compiled(self, expr: ir.Expr) -> Compiled:
        """`expr` compiled, once (kept by identity: the rules live as long as the game)."""
        hit = self._compiled.get(id(expr))
        if hit is not None and hit[0] is expr:
            return hit[1]
        fn = compile_expr(expr, self.env)
        self._compiled[id(expr)] = (expr, fn)
        return fn

    def bindings_ignore(self, section: str) -> bool:
        """Whether the `let` names never read this section, so a deck that differs from
        another only in it has the same `let` values (the checker tries many such decks
        to find which line breaks a rule)."""
        return self.let_reads is not None and section.lower() not in self.let_reads

    def bindings(self, deck: DeckValue) -> dict[str, Any]:
        """compiler.deckrules.deck_bindings, compiled: the `let` names over one deck, in
        order, each name whose value is unknown or `none` left out."""
        scope: dict[str, Any] = {"deck": deck}
        out: dict[str, Any] = {}
        for name, value_of in self.let:
            try:
                value = value_of(scope)
            except _UNKNOWN:
                continue
            if value is not None:
                scope[name] = out[name] = value
        return out


def _deck_sections_read(exprs: list[ir.Expr]) -> set[str] | None:
    """The deck attributes (`deck.Fortress`, lower-cased as DeckValue.attr matches them)
    these expressions read; None when they use `deck` otherwise (`count(deck)`, a compare
    of decks), so what they read is not known by name."""
    found: set[str] = set()
    attr_objs: set[int] = set()
    refs: list[ir.Ref] = []
    for expr in exprs:
        for node in walk(expr):
            if isinstance(node, ir.Attr) and isinstance(node.obj, ir.Ref) and node.obj.name == "deck":
                attr_objs.add(id(node.obj))
                found.add(node.name.lower())
            elif isinstance(node, ir.Ref) and node.name == "deck":
                refs.append(node)
    if any(id(ref) not in attr_objs for ref in refs):
        return None
    return found


def walk(node: Any) -> Iterator[ir.Node]:
    """Every IR node inside an expression, the expression first."""
    if isinstance(node, ir.Node):
        yield node
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            if name != "span":
                yield from walk(getattr(node, name))
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)
    elif isinstance(node, dict):
        for item in node.values():
            yield from walk(item)
