"""Which of a game's functions may be remembered while the match state stays the same.

A function (`function f(...) = expr` or `function f(...) { ... }`) computes a value from
the match state. Rules call the same ones again and again — a legality test runs once
per card for every probe of an action, a check scans every card after every action —
so the engine remembers a result until the state changes (rt.memo keys it by the
match's state version). That is only sound for a function whose result is fixed by
the state and its arguments, so this pass proves it from the IR: no dice, no random
picks, no changes to the state, no reads of values the state version does not cover
(the turn number, the winner), and only calls to functions that are remembered too.

It also finds which functions read who is acting (`you`, `self`, the current player,
a player's own counter or zone by bare name): only their remembered results are keyed
by that too, so every other caller shares one entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor

# native functions that only read the state (see prelude/core.cards and engine/functions.py)
PURE_NATIVES = frozenset({
    "count", "sum", "min", "max", "any", "size", "first", "last", "values", "abs", "floor", "ceil",
    "distance", "cell", "position", "card_at", "has_keyword", "keyword_value", "opponents", "next_player",
    "in_region", "cells", "catalog", "copies_of",
})

# built-in names whose value the state version does not track
_UNTRACKED = frozenset({"turn_number", "round_number", "winner", "game_over", "drawn"})
_ACTOR_NAMES = frozenset({"you", "self", "opponent", "current", "active_player"})
_ACTOR_WORDS = frozenset({"friendly", "enemy", "other"})
# statements that decide, roll, announce or change something
_CHANGES = (ir.Roll, ir.Choose, ir.ChooseOne, ir.Simultaneously, ir.Emit, ir.Invoke, ir.Perform, ir.Expect,
            ir.Cancel)


@dataclass(frozen=True)
class Purity:
    """A function that may be remembered; `reads_actor`: its result depends on who acts;
    `worth_it`: computing it costs more than looking it up (see `_worth_remembering`)."""

    reads_actor: bool
    worth_it: bool = True


# A remembered result costs a key and a lookup, and a miss for every new argument: a
# function of a few reads and sums (`slot(c) = (c.value - 1) % 3 + 1`, `in_play(c) =
# on_table(c.zone)`) is cheaper to compute again, and its callee may be remembered itself.
_SMALL = 12


def _worth_remembering(decl: ir.FunctionDecl) -> bool:
    """Does it scan (a query, a loop), or is it more than a few operations?"""
    size = 0
    for node in nodes([decl.expr, decl.body]):
        if isinstance(node, ir.Query | ir.ForEach | ir.While | ir.Repeat):
            return True
        size += 3 if isinstance(node, ir.Call) else 1
    return size >= _SMALL


def nodes(node: object) -> Iterator[BaseModel]:
    """Every IR node under `node` (itself included), in no particular order."""
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, BaseModel):
            yield item
            stack.extend(getattr(item, name) for name in type(item).model_fields)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


class _Facts(Visitor):
    """What one function's own nodes say: visited once per node of its body, it notes an
    impure construct, a read of the actor and each function called; other kinds say nothing."""

    covers = (*_CHANGES, ir.Assign, ir.Query, ir.IsTest, ir.Ref, ir.Call)

    def __init__(self, actor_names: frozenset[str]) -> None:
        self.actor_names = actor_names
        self.pure, self.actor, self.calls = True, False, set[str]()

    def generic_visit(self, node: object, *args: object) -> None:
        return None

    def _changes(self, node: BaseModel) -> None:
        self.pure = False

    visit_Roll = visit_Choose = visit_ChooseOne = visit_Simultaneously = visit_Emit = _changes
    visit_Invoke = visit_Perform = visit_Expect = visit_Cancel = _changes

    def visit_Assign(self, node: ir.Assign) -> None:
        if not isinstance(node.target, ir.Ref):
            self.pure = False

    def visit_Query(self, node: ir.Query) -> None:
        if node.det == "random":
            self.pure = False
        if node.noun.startswith("opponent") or _ACTOR_WORDS.intersection(node.adjectives):
            self.actor = True

    def visit_IsTest(self, node: ir.IsTest) -> None:
        if _ACTOR_WORDS.intersection(node.words):
            self.actor = True

    def visit_Ref(self, node: ir.Ref) -> None:
        if node.name in _UNTRACKED:
            self.pure = False
        if node.name in self.actor_names:
            self.actor = True

    def visit_Call(self, node: ir.Call) -> None:
        self.calls.add(node.func)


def _direct(decl: ir.FunctionDecl, actor_names: frozenset[str]) -> tuple[bool, bool, set[str]]:
    """(no impure construct of its own, reads the actor itself, the functions it calls)."""
    facts = _Facts(actor_names)
    for node in nodes([decl.expr, decl.body]):
        facts.visit(node)
    pure = facts.pure
    if any(isinstance(n, ir.Assign) and isinstance(n.target, ir.Ref) and n.target.name in actor_names
           for n in nodes(decl.body)):
        pure = False  # `set gold to ...` changes a counter
    return pure, facts.actor, facts.calls


def pure_functions(game: ir.Game) -> dict[str, Purity]:
    """The game's functions that rt.memo may remember, with whether they read the actor."""
    player_scoped = {c.name for c in game.counters if c.scope == "player"}
    player_scoped |= {z.name for z in game.zones if z.scope == "player"}
    shared_counters = {c.name for c in game.counters if c.scope == "shared"}
    actor_names = frozenset(_ACTOR_NAMES | player_scoped)
    natives = {f.name for f in game.functions if f.native}
    facts: dict[str, tuple[bool, bool, set[str]]] = {}
    for f in game.functions:
        if f.native:
            continue
        pure, actor, calls = _direct(f, actor_names)
        if any(isinstance(n, ir.Assign) and isinstance(n.target, ir.Ref) and n.target.name in shared_counters
               for n in nodes(f.body)):
            pure = False
        facts[f.name] = (pure, actor, calls)
    pure_set = {name for name, (pure, _a, _c) in facts.items() if pure}
    actor_set = {name for name, (_p, actor, _c) in facts.items() if actor}
    changed = True
    while changed:  # a fixpoint over the call graph (functions may call each other)
        changed = False
        for name, (_pure, _actor, calls) in facts.items():
            for callee in calls:
                callee_pure = callee in pure_set or (callee in natives and callee in PURE_NATIVES)
                if name in pure_set and not callee_pure:
                    pure_set.discard(name)
                    changed = True
                if name not in actor_set and callee in actor_set:
                    actor_set.add(name)
                    changed = True
    decls = {f.name: f for f in game.functions}
    return {name: Purity(name in actor_set, _worth_remembering(decls[name])) for name in sorted(pure_set)}
