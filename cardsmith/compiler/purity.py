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

from dataclasses import dataclass

from pydantic import BaseModel

from cardsmith.dsl import ir
from cardsmith.dsl.ir import nodes as nodes  # (kept here: the compiler's modules import it from purity)
from cardsmith.dsl.source import Span
from cardsmith.dsl.visitor import Visitor
from cardsmith.dsl.words import EVERY_DETERMINERS

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
    `worth_it`: computing it costs more than looking it up (see `_scans_itself`)."""

    reads_actor: bool
    worth_it: bool = True


# A remembered result costs a key and a lookup (~1 µs), and a miss for every new argument:
# a function that only reads and combines a few values (`slot(c) = (c.value - 1) % 3 + 1`,
# `in_play(c) = on_table(c.zone)`, `spaces(p, q) = max(abs(col(p) - col(q)), ...)`) costs
# less to compute again than to look up, however many such functions it calls. Only a
# function that scans — a query, a loop, a native that walks the table, or a call of a
# function that scans — is remembered (measured on Two Kingdoms, where most calls were
# lookups of a few additions: see docs/engine.md "Speed"); not a function of a card or a
# player whose scans are all calls of remembered functions (`_asked_per_card`), nor one
# taking a list (`_unkeyable`). `has_keyword` and `keyword_value` read one card's keywords
# (the statics' grants are worked out once per state, events.py `_grants`), so a function
# that asks them of its card, as Kingdom Combat's `reach(u)` does for every unit weighed
# (20,469 calls in 2,000 actions, not one remembered result read again), is computed,
# or written in line (inline.py), instead of paying a key and a lookup that always misses.
_SCANNING_NATIVES = frozenset({"card_at", "cells", "catalog", "copies_of"})


def _scans_itself(decl: ir.FunctionDecl) -> bool:
    """Does its own body scan (a query or a loop, or a native that walks the table)? The
    first card of one zone's cards of a type, with no condition and no adjective
    (`first(all combat_cards in table of p)`), is taken without a scan, for less than a
    remembered answer's key and lookup: Combat Cards' `played_card` found its answer
    remembered in 1.8% of its calls."""
    body = list(nodes([decl.expr, decl.body]))
    first_of = {id(node.args[0]) for node in body
                if isinstance(node, ir.Call) and node.func in ("first", "any") and len(node.args) == 1}
    for node in body:
        if isinstance(node, ir.Query) and id(node) in first_of and _plain_look(node):
            continue
        if isinstance(node, ir.Query | ir.ForEach | ir.While | ir.Repeat):
            return True
        if isinstance(node, ir.Call) and node.func in _SCANNING_NATIVES:
            return True
    return False


def _plain_look(query: ir.Query) -> bool:
    """A query of one zone's cards that tests none of them (no condition, no adjective)."""
    return (query.zone is not None and query.where is None and not query.adjectives and query.count is None
            and query.det in EVERY_DETERMINERS)


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
    scanning = {f.name for f in game.functions if not f.native and _scans_itself(f)}
    changed = True
    while changed:  # a function that calls one that scans scans too
        changed = False
        for name, (_pure, _actor, calls) in facts.items():
            if name not in scanning and calls & scanning:
                scanning.add(name)
                changed = True
    worth = scanning - _asked_per_card(game, facts, scanning, pure_set) - _unkeyable(game)
    return {name: Purity(name in actor_set, name in worth) for name in sorted(pure_set)}


def _asked_per_card(game: ir.Game, facts: dict[str, tuple[bool, bool, set[str]]], scanning: set[str],
                    remembered: set[str]) -> set[str]:
    """Functions of a card (or a player) that scan only through calls of remembered
    functions: not worth remembering themselves. A query asks such a function once per
    card (`where can_move_to(it, z)`) or player (`all players where kingdom_complete(it)`,
    a check asked after every action), so its key (state version, card, ...) almost never
    comes back before the state changes — each call paid a key and a lookup for nothing —
    while what it calls that scans (`enemies_in(z, p)`, `group_cards(p, g)`) keeps its memo.
    One that makes a single such call (`complete(p, g) = count(group_cards(p, g)) == 3`)
    saves at most that call's lookup when remembered, and pays its own on every call.
    Measured (issue 18): cards — Kingdom Combat legality 2.4x -> 2.2x the oracle; random
    matches of Kingdom Combat, Two Kingdoms, Kingdom Cards and Construct & Combat all
    faster. Players — Kingdom Cards 517 -> 483 Python calls an action (`kingdom_complete`,
    `complete`, `group_bonus`: 0%, 32% and 0% of calls found remembered), ~+5% actions/s."""
    return {f.name for f in game.functions
            if f.name in facts and not _scans_itself(f) and any(p.type in _ASKED_PER for p in f.params)
            and facts[f.name][2] & scanning <= remembered}


# the kinds of argument a query or loop runs through, one at a time
_ASKED_PER = frozenset({"card", "player"})


def _unkeyable(game: ir.Game) -> set[str]:
    """Functions taking a list: a list cannot be part of a remembered result's key, so rt.memo
    computed them anyway after building the key and catching the TypeError its lookup
    raised (Kingdom Cards' `owns_kingdom(p, [lo, mid, hi])`): called directly instead."""
    return {f.name for f in game.functions if any(p.type == "list" for p in f.params)}


# What a function may read and still give the same result for the same arguments all match
# long: a zone's owner and name (fixed when the table is set), a player's own zones.
_FIXED_ZONE_FIELDS = frozenset({"owner", "name"})
_FIXED_NODES = (ir.Num, ir.Text, ir.Bool, ir.NoneLit, ir.Compare, ir.Logic, ir.Not, ir.BinOp, ir.Neg, ir.Let,
                ir.If, ir.Branch, ir.Return, Span)
# arithmetic natives: what they give depends on their arguments alone
_FIXED_NATIVES = frozenset({"abs", "floor", "ceil", "min", "max"})


def match_constant_functions(game: ir.Game, shared_zones: set[str], player_zones: set[str]) -> set[str]:
    """Pure functions whose result depends on their arguments alone, never on the state:
    they read only their parameters, literals and the game's shared zones, a `zone`
    parameter's owner or name, and a player's own zones (`fortress_zone of z.owner`),
    compare and combine them, and call only such functions. rt.memo_match remembers
    them for the whole match (Kingdom Combat's `on_table(z)`, asked ~60 times per
    decision, is one): the state version, which every action changes, is not in the key."""
    candidates: dict[str, set[str]] = {}
    natives = {f.name for f in game.functions if f.native}
    for f in game.functions:
        if f.native:
            continue
        zone_params = {p.name for p in f.params if p.type == "zone"}
        player_params = {p.name for p in f.params if p.type == "player"}
        names = {p.name for p in f.params} | {n.name for n in nodes(f.body) if isinstance(n, ir.Let)}
        calls: set[str] = set()
        fixed = True
        for node in nodes([f.expr, f.body]):
            if isinstance(node, _FIXED_NODES):
                continue
            if isinstance(node, ir.Ref) and (node.name in names or node.name in shared_zones):
                continue
            if isinstance(node, ir.Attr) and node.name in _FIXED_ZONE_FIELDS and isinstance(node.obj, ir.Ref) \
                    and node.obj.name in zone_params:
                continue
            if isinstance(node, ir.Attr) and node.name in player_zones and (
                    (isinstance(node.obj, ir.Ref) and node.obj.name in player_params)
                    or (isinstance(node.obj, ir.Attr) and node.obj.name == "owner" and isinstance(node.obj.obj, ir.Ref)
                        and node.obj.obj.name in zone_params)):
                continue
            if isinstance(node, ir.Call):
                if not (node.func in _FIXED_NATIVES and node.func in natives):
                    calls.add(node.func)
                continue
            fixed = False
            break
        if fixed:
            candidates[f.name] = calls
    changed = True
    while changed:  # only calls of functions that are match-constant themselves
        changed = False
        for name, calls in list(candidates.items()):
            if not calls <= candidates.keys():
                del candidates[name]
                changed = True
    return set(candidates)

