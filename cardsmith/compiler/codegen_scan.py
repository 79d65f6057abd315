"""A query's condition written in line, as a comprehension over the cards it looks at.

`all cards in hand of p where it.face == f` is `q.query(m, ctx, 'cards', [], zone,
(lambda v_it: ...))`: the engine finds the cards to look at, then calls the condition
once per card. Most queries name no adjective and need no plan by zone (queryplan.py),
and for them the engine's part is only the pool of cards (rt.query_pool: a zone's cards,
of the noun's type); the condition is then asked in a comprehension, without a call per
card — the legality predicates of a game like UNO ask such queries of every card in a
hand several times a decision. The answers, and their order, are q.query's.

Nothing here writes user text: the noun is written with repr(), the zone and the
condition come from the expression writer, already made safe there.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from cardsmith.compiler.inline import VARIABLE
from cardsmith.dsl import ir


@dataclass(frozen=True)
class Scan:
    """A query as a pool of cards and the condition asked of each (`v_it`). `before`: what
    is evaluated first, each into the temporary the pool or the condition reads — the zone
    when it is more than a variable (Python allows no assignment expression in a
    comprehension's iterable), and the table reads the condition makes (ExprWriter.hoist)."""

    pool: str
    condition: str
    before: list[str]

    def every(self) -> str:
        """The cards where the condition holds, in order: a new list (as q.query's)."""
        return self._after(f"[v_it for v_it in {self.pool} if ({self.condition})]")

    def first(self) -> str:
        """The first card where the condition holds, or None: the cards after it are not asked."""
        return self._after(f"next((v_it for v_it in {self.pool} if ({self.condition})), None)")

    def _after(self, code: str) -> str:
        return f"({', '.join(self.before)}, {code})[-1]" if self.before else code


def scans(e: ir.Query, adjectives: list[str], plan: str) -> bool:
    """Is the query written as a Scan? When q.query would only filter its pool by the
    condition: cards (not players), no adjective, no plan by zone, a condition."""
    return e.where is not None and not adjectives and not plan and e.noun.lower() not in ir.PLAYER_NOUNS


def pool(game: ir.Game, noun: str, zone: str) -> str:
    """The cards a scan looks at (`zone`: a variable): rt.query_pool's, read straight off a
    zone where the noun names no card type (`card`, `cards`: every card it holds, as the
    engine's table of nouns says, engine/game.py)."""
    noun = noun.lower()
    typed = {n for t in game.cardtypes for n in (t.name.lower(), t.singular.lower(), t.plural.lower())}
    if VARIABLE.match(zone) and noun in ("card", "cards") and noun not in typed:
        return f"({zone}.cards if type({zone}) is rt.Zone else rt.query_pool(m, {noun!r}, {zone}))"
    return f"rt.query_pool(m, {noun!r}, {zone})"


def lists_all(tree: ast.expr) -> bool:
    """Is this parsed code Scan.every()'s: a comprehension, after its zone maybe (a new list)?"""
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Tuple) and tree.value.elts:
        tree = tree.value.elts[-1]
    return isinstance(tree, ast.ListComp)
