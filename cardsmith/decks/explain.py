"""Turn a deck rule that failed into a hint a player can act on.

A hint quotes the rule as the game wrote it and the values it read: the card fields
the rule looks at (`border: silver`), the deck's `let` names it reads (`the deck's
factions: Valoria`, from a game's `let factions = ...`), and both sides of each
comparison of a deck-wide rule (`sum(deck.Garrison, cost) is 7, ... is 6`). It works
on any game's rules because it only walks the expression.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from cardsmith.compiler.static_eval import NotStatic
from cardsmith.decks.games import GameContext
from cardsmith.decks.plan import walk
from cardsmith.dsl import ir

T = TypeVar("T")


def _once(fn: Callable[[ir.Expr], T]) -> Callable[[ir.Expr], T]:
    """What a walk of a rule finds, found once per rule (kept by identity: the rules live as
    long as their game, and every decklist that breaks a rule asks again)."""
    found: dict[int, tuple[ir.Expr, T]] = {}

    def cached(expr: ir.Expr) -> T:
        hit = found.get(id(expr))
        if hit is not None and hit[0] is expr:
            return hit[1]
        value = fn(expr)
        found[id(expr)] = (expr, value)
        return value
    cached.__doc__ = fn.__doc__
    return cached


@_once
def card_fields(expr: ir.Expr) -> list[str]:
    """The card fields a per-card rule reads: `border` in `card.border.copies`."""
    out: list[str] = []
    for node in walk(expr):
        if (isinstance(node, ir.Attr) and isinstance(node.obj, ir.Ref) and node.obj.name == "card"
                and node.name not in out):
            out.append(node.name)
    return out


def reads(expr: ir.Expr, name: str) -> bool:
    return name in _names_read(expr)


@_once
def _names_read(expr: ir.Expr) -> frozenset[str]:
    return frozenset(n.name for n in walk(expr) if isinstance(n, ir.Ref))


@_once
def sections_read(expr: ir.Expr) -> list[str]:
    """The sections a deck-wide rule reads (`deck.Garrison`), in the order written."""
    out: list[str] = []
    for node in walk(expr):
        if (isinstance(node, ir.Attr) and isinstance(node.obj, ir.Ref) and node.obj.name == "deck"
                and node.name not in out and node.name not in ("size", "cards")):
            out.append(node.name)
    return out


def show(value: Any) -> str:
    if isinstance(value, Fraction):
        return str(float(value))
    if isinstance(value, ir.CardDecl):
        return value.name
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def card_hint(ctx: GameContext, rule: ir.Expr, card: ir.CardDecl, scope: dict[str, Any], lead: str) -> str:
    """`lead `rule`` then the card fields and the deck's `let` names the rule read."""
    facts = [f"{name}: {show(ctx.value(card, name))}" for name in card_fields(rule)]
    for binding in ctx.rules.bindings:
        if binding.name in scope and reads(rule, binding.name):
            value = scope[binding.name]
            shown = (", ".join(show(v) for v in value) or "none") if isinstance(value, list) else show(value)
            facts.append(f"the deck's {binding.name}: {shown}")
    text = f"{lead} `{ctx.text(rule)}`"
    return text + (f" ({'; '.join(facts)})" if facts else "")


def rule_hint(ctx: GameContext, rule: ir.Expr, scope: dict[str, Any]) -> str:
    """The deck-wide rule and the value of both sides of each comparison in it."""
    facts: list[str] = []
    for side in _compared(rule):
        try:
            value = ctx.plan.compiled(side)(scope)
        except (NotStatic, ArithmeticError, TypeError, ValueError):
            continue
        fact = f"{ctx.text(side)} is {show(value)}"
        if fact not in facts:
            facts.append(fact)
    text = f"the rule is `{ctx.text(rule)}`"
    return text + (f"; here {', '.join(facts)}" if facts else "")


@_once
def _compared(rule: ir.Expr) -> list[ir.Expr]:
    """Both sides of each comparison in a rule, in the order written, literals and names left out."""
    return [side for node in walk(rule) if isinstance(node, ir.Compare) for side in (node.left, node.right)
            if not isinstance(side, ir.Num | ir.Text | ir.Bool | ir.NoneLit | ir.Ref)]
