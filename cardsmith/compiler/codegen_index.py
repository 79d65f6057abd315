"""A query by one stat's value, answered from the zone's table → Python source.

`all figures in kingdom of p where it.group == g` is written as a scan (codegen_scan.py):
the condition asked of every figure there. Kingdom Cards asks such queries of a kingdom
~10 times a decision window (`value_taken`, `group_cards`, `group_fits`), one value after
another, in the same state. When the query's whole condition is `it.<stat> == <variable>`
— a stat no static ability changes (codegen.field_kinds "stat"), a variable that is not
`it` — the generated code asks the match's table of the zone's cards of the type by that
stat (engine/statindex.py, one per state version) and scans only where the table cannot
answer (a value or a stat of a kind `values.equal` does not compare as Python's `==`, a
stat that raised, a zone that is not one). The answer is the scan's: the same cards in
the same order. Nothing here writes user text: the noun, type and stat are written with
repr(), the zone and the value come from the expression writer, already made safe there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardsmith.compiler.codegen_scan import Scan
from cardsmith.compiler.inline import VARIABLE
from cardsmith.compiler.purity import Purity, nodes
from cardsmith.dsl import ir
from cardsmith.dsl.words import EVERY_DETERMINERS

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope


@dataclass(frozen=True)
class IndexedScan(Scan):
    """A Scan (its pool and condition kept, for when the table cannot answer) whose cards
    are first looked up: `lookup` is the call of m.stat_cards, `held` the temporary for its
    answer. `rest`: the condition says more than the stat's value (`it.value == v and
    fits(it)`), so the whole condition is asked again of the cards looked up — the value
    test holds for each, and a card it rejects would never have been asked the rest."""

    lookup: str = ""
    held: str = ""
    rest: bool = False

    def every(self) -> str:
        held = self.held
        found = f"[v_it for v_it in {held} if ({self.condition})]" if self.rest else f"list({held})"
        return self._after(f"({found} if ({held} := {self.lookup}) is not None "
                           f"else [v_it for v_it in {self.pool} if ({self.condition})])")

    def first(self) -> str:
        held = self.held
        found = f"next((v_it for v_it in {held} if ({self.condition})), None)" if self.rest \
            else f"({held}[0] if {held} else None)"
        return self._after(f"({found} if ({held} := {self.lookup}) is not None "
                           f"else next((v_it for v_it in {self.pool} if ({self.condition})), None))")


def indexed(w: ExprWriter, e: ir.Query, scope: Scope, zone: str, scan: Scan) -> Scan:
    """The query's scan, as an IndexedScan where its condition is `it.<stat> == <value>`
    (either way round), alone or first of an `and`, over the cards of one type in a zone
    held in a variable; `scan` itself otherwise. `scope`: the query's own (where `it` is
    not yet bound). In the game's functions, asked again and again in one state, and for a
    choice's options (every card is asked: Kingdom Cards' `form_group` looks for the cards
    one and two above its first one); not for a procedure's `first resource in the pile
    where ...`, asked once, which stops at its first find: a table would cost more.

    The value is a variable, read as it is, or a pure expression that does not read `it`
    (`low.value + 1`), asked through a lambda only when the zone holds a card of the type
    and every such card's stat could be read — when the scan would first have asked it."""
    where = e.where
    rest = isinstance(where, ir.Logic) and where.op == "and"
    first = _leftmost(where) if rest else where
    type_name = _card_type(w.gen.game, e.noun)
    if not (w.gen.in_function or e.det not in EVERY_DETERMINERS) or not isinstance(first, ir.Compare) \
            or first.op != "==" or scan.condition is None or type_name is None or not VARIABLE.match(zone):
        return scan
    left, right = first.left, first.right
    if not _stat_of_it(left):
        left, right = right, left
    if not _stat_of_it(left) or any(isinstance(n, ir.Ref) and n.name == "it" for n in nodes(right)):
        return scan
    assert isinstance(left, ir.Attr)
    if w.gen.field_kinds.get(left.name) != "stat":
        return scan
    if isinstance(right, ir.Ref) and right.name in scope.locals:
        value = w.expr(right, scope, decide=False)
        if not VARIABLE.match(value):
            return scan
        lookup = f"m.stat_cards({zone}, {type_name!r}, {left.name!r}, {value})"
    elif w.gen.planner.pure_expr(right) and not any(isinstance(n, ir.Query) for n in nodes(right)):
        lookup = f"m.stat_cards_of({zone}, {type_name!r}, {left.name!r}, (lambda: {w.apart(right, scope)}))"
    else:
        return scan
    w.gen.inline_temps += 1
    return IndexedScan(scan.pool, scan.condition, scan.before, lookup=lookup, held=f"_i{w.gen.inline_temps}",
                       rest=rest)


def _leftmost(e: ir.Expr | None) -> ir.Expr | None:
    """The first condition an `and` asks (`a and b and c` is `(a and b) and c`)."""
    while isinstance(e, ir.Logic) and e.op == "and":
        e = e.left
    return e


def _stat_of_it(e: ir.Expr) -> bool:
    """`it.<field>`?"""
    return isinstance(e, ir.Attr) and isinstance(e.obj, ir.Ref) and e.obj.name == "it"


def _card_type(game: ir.Game, noun: str) -> str | None:
    """The card type a noun names (None: `card`, `cards`, or not a card type's noun)."""
    noun = noun.lower()
    found = None
    for t in game.cardtypes:  # (the last type naming it, as codegen_scan's table of nouns)
        if noun in (t.name.lower(), t.singular.lower(), t.plural.lower()):
            found = t.name
    return found


def looked_up(game: ir.Game, pure: dict[str, Purity], kinds: dict[str, str]) -> dict[str, Purity]:
    """`pure` (purity.pure_functions), where a function that is only `any(...)` or
    `first(...)` of a query the stat table answers (`value_taken(p, v) = any(all figures in
    kingdom of p where it.value == v)`) is computed rather than remembered: its answer is
    a look-up in a table made once per state version, as cheap as a remembered answer's
    own key and look-up, while a new value misses every time (Kingdom Cards asks
    `value_taken` with each card of a hand in turn: 26% of asks found an answer)."""
    for f in game.functions:
        if f.name in pure and pure[f.name].worth_it and f.expr is not None and _first_looked_up(game, f, kinds):
            pure[f.name] = Purity(pure[f.name].reads_actor, worth_it=False)
    return pure


def _first_looked_up(game: ir.Game, f: ir.FunctionDecl, kinds: dict[str, str]) -> bool:
    """Is `f` only `any(q)` / `first(q)`, `q` a query of a card type's cards in a zone
    whose whole condition compares a stat with one of `f`'s parameters (what `indexed` writes)?"""
    e = f.expr
    if not (isinstance(e, ir.Call) and e.func in ("any", "first") and len(e.args) == 1 and not e.kwargs):
        return False
    q = e.args[0]
    if not isinstance(q, ir.Query) or q.det not in EVERY_DETERMINERS or q.adjectives or q.zone is None \
            or _card_type(game, q.noun) is None or not isinstance(q.where, ir.Compare) or q.where.op != "==":
        return False
    left, right = q.where.left, q.where.right
    if not _stat_of_it(left):
        left, right = right, left
    params = {p.name for p in f.params}
    return (isinstance(left, ir.Attr) and _stat_of_it(left) and kinds.get(left.name) == "stat"
            and isinstance(right, ir.Ref) and right.name in params and right.name != "it")
