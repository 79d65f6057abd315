"""Query planning: which parts of a `where` condition depend on a card only by its zone
(and who controls it).

Rules ask for cards in play again and again — `a friendly unit where in_play(it) and ...`
looks at every unit of the match, deck and hand included, and asks each one whether its
zone is on the table. A condition that reads the card only as `it.zone` (directly, or
through a pure function whose parameter it reads only as `.zone`) has one answer for every
card of a zone, so q.query asks it once per zone, of the zone's first candidate, and skips
the zones that fail — usually the decks, hands and discard piles, most of the cards.

Sound because such a conjunct is pure (purity.py: no dice, no random picks, no changes)
and the query keeps only the truth of the whole condition: a conjunction's truth does not
depend on the order its pure parts are asked in. A zone whose test raises is asked card by
card with the whole condition, exactly as before (q.query does that), so a test that the
original order would have skipped cannot raise where it did not.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from cardsmith.compiler.purity import PURE_NATIVES, Purity, nodes
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor

# the words engine/queries.quality_test reads before it tries a card type's noun (so
# `x is <word>` is a card type test, written in line by codegen.type_nouns, only for others)
SPECIAL_WORDS = frozenset({"friendly", "enemy", "other", "token", "tokens", "face_down", "face_up", "attached",
                           "unattached"})

ZONE_FIELD = "zone"
# what a zone test may read of the card: where it is and who controls it (q.query asks
# such a test once per zone and controller: engine/queries.py `_by_controller`)
PLACE_FIELDS = frozenset({ZONE_FIELD, "controller"})
# parameter types whose argument is passed as a name, not a value (codegen.call_arg)
NAME_TYPES = frozenset({"field", "keyword", "region", "status", "counter", "stage"})


def conjuncts(expr: ir.Expr) -> Iterator[ir.Expr]:
    """The parts of `a and b and c`, left to right."""
    return _operands(expr, "and")


def _operands(expr: ir.Expr, op: str) -> Iterator[ir.Expr]:
    if isinstance(expr, ir.Logic) and expr.op == op:
        yield from _operands(expr.left, op)
        yield from _operands(expr.right, op)
    else:
        yield expr


def join(parts: list[ir.Expr]) -> ir.Expr | None:
    """`a and b and c` again (None for no parts)."""
    if not parts:
        return None
    joined = parts[0]
    for part in parts[1:]:
        joined = ir.Logic(op="and", left=joined, right=part, span=part.span)
    return joined


def disjuncts(expr: ir.Expr) -> Iterator[ir.Expr]:
    """The parts of `a or b or c`, left to right."""
    return _operands(expr, "or")


def necessary(f: ir.FunctionDecl) -> list[ir.Expr]:
    """Conditions true whenever `f` returns something true: the parts of an `a and b`
    expression, or the negated parts of each leading `if a or b { return no }` — read
    through the `let`s among them, each name standing for its value (`let gap =
    zone_gap(u.zone, t.zone)`, then `if gap > reach(u) { return no }`: can_attack is false
    unless `not zone_gap(u.zone, t.zone) > reach(u)`). Sound because the functions planned
    are pure and a `let` before any other statement cannot have changed since."""
    return _conditions(f)[0]


def equivalent(f: ir.FunctionDecl) -> list[ir.Expr] | None:
    """Conditions whose conjunction is as true as `f` itself, when there are such: a body
    of only `let`s and `if ... { return no }`s ending `return yes` (or `return x`, which
    joins them), as can_move_to and can_attack are — necessary() found every condition."""
    found, exact = _conditions(f)
    return found if exact else None


def _conditions(f: ir.FunctionDecl) -> tuple[list[ir.Expr], bool]:
    """(necessary()'s conditions, whether together they are the function's whole answer)."""
    if f.expr is not None:
        return list(conjuncts(f.expr)), True
    found: list[ir.Expr] = []
    lets: dict[str, ir.Expr] = {}
    exact = True
    for index, stmt in enumerate(f.body):
        if isinstance(stmt, ir.Let):
            value = substitute(stmt.value, lets)
            if value is None:
                return found, False  # (a query: its `where` could capture a name)
            lets[stmt.name] = value
            continue
        if isinstance(stmt, ir.Return) and stmt.value is not None and index == len(f.body) - 1:
            if isinstance(stmt.value, ir.Bool) and stmt.value.value is True:
                return found, exact
            last = substitute(stmt.value, lets) if lets else stmt.value
            return ([*found, last], exact) if last is not None else (found, False)
        if not (isinstance(stmt, ir.If) and len(stmt.branches) == 1 and not stmt.orelse):
            return found, False
        body = stmt.branches[0].body
        if not (len(body) == 1 and isinstance(body[0], ir.Return) and isinstance(body[0].value, ir.Bool)
                and body[0].value.value is False):
            return found, False
        for part in disjuncts(stmt.branches[0].condition):
            condition = substitute(part, lets) if lets else part
            if condition is None:
                exact = False
            else:
                found.append(condition.operand if isinstance(condition, ir.Not)
                             else ir.Not(operand=condition, span=condition.span))
    return found, False


def substitute(expr: ir.Expr, mapping: dict[str, ir.Expr]) -> ir.Expr | None:
    """`expr` with each parameter replaced by the argument; None when it holds a query
    (whose `where` could capture an argument that names `it`)."""
    if any(isinstance(n, ir.Query) for n in nodes(expr)):
        return None
    replaced = _replace(expr, mapping)
    assert isinstance(replaced, BaseModel)
    return replaced  # type: ignore[return-value]


def _replace(node: object, mapping: dict[str, ir.Expr]) -> object:
    if isinstance(node, ir.Ref) and node.name in mapping:
        return mapping[node.name]
    if isinstance(node, BaseModel):
        return node.model_copy(update={name: _replace(getattr(node, name), mapping)
                                       for name in type(node).model_fields})
    if isinstance(node, list):
        return [_replace(item, mapping) for item in node]
    if isinstance(node, dict):
        return {key: _replace(item, mapping) for key, item in node.items()}
    return node


def zone_constant(test: ir.Expr, match_constant: set[str] | frozenset[str],
                  functions: dict[str, ir.FunctionDecl], var: str = "it", depth: int = 0) -> bool:
    """Is a zone test (split off by ZonePlanner.split) the same for a zone all match long?
    So when it reads only `var.zone`, literals, and calls of functions that read nothing
    the match changes (purity.match_constant_functions) — or of a one-line function of the
    card alone whose own line is such a test (`in_play(c) = on_table(c.zone)`) — joined by
    and/or/not: q.query may then remember each zone's answer for the match instead of
    asking again at every query."""
    for node in nodes(test):
        if not isinstance(node, ir.Node):
            continue  # (a span)
        if isinstance(node, ir.Ref) and node.name != var:
            return False
        if isinstance(node, ir.Call):
            if node.kwargs:
                return False
            if node.func in match_constant:
                continue
            decl = functions.get(node.func)
            alone = len(node.args) == 1 and isinstance(node.args[0], ir.Ref) and node.args[0].name == var
            if decl is None or decl.expr is None or decl.body or len(decl.params) != 1 or depth >= 4 or not alone:
                return False
            if not zone_constant(decl.expr, match_constant, functions, decl.params[0].name, depth + 1):
                return False
            continue
        if not isinstance(node, ir.Ref | ir.Call | ir.Attr | ir.Logic | ir.Not | ir.Bool | ir.Num | ir.Text):
            return False
        if isinstance(node, ir.Attr) and not (isinstance(node.obj, ir.Ref) and node.name == ZONE_FIELD):
            return False
    return True


def split_constant(by_zone: list[ir.Expr], match_constant: set[str] | frozenset[str],
                   functions: dict[str, ir.FunctionDecl]) -> tuple[list[ir.Expr], list[ir.Expr]]:
    """(the zone test's conjuncts that are the same for a zone all match long, the rest).
    `in_play(it) and it.zone is not z` — the guard can_move_to implies — is not constant as
    a whole, but its `in_play(it)` is: q.query remembers that part per zone and asks only
    `it.zone is not z` at every query. Sound for the same reason as the split itself: the
    parts are pure, and only the truth of their conjunction is kept."""
    constant: list[ir.Expr] = []
    varying: list[ir.Expr] = []
    for whole_part in by_zone:
        for part in conjuncts(whole_part):
            (constant if zone_constant(part, match_constant, functions) else varying).append(part)
    return constant, varying


def _reads_zone(expr: ir.Expr, var: str) -> bool:
    """Does `expr` read `var.zone`, or hand `var` to a function (which may read it)?"""
    for node in nodes(expr):
        if isinstance(node, ir.Attr) and isinstance(node.obj, ir.Ref) and node.obj.name == var \
                and node.name == ZONE_FIELD:
            return True
        if isinstance(node, ir.Call) and any(isinstance(a, ir.Ref) and a.name == var for a in node.args):
            return True
    return False


def card_type_words(game: ir.Game) -> frozenset[str]:
    """The words `x is <word>` reads as a card type alone (as codegen.type_nouns and
    queries._noun_of decide: not a status, an enum value, a keyword or a word that
    quality_test reads first)."""
    taken = ({s.name for s in game.statuses} | {v.name for e in game.enums for v in e.values}
             | {k.name for k in game.keywords} | SPECIAL_WORDS)
    return frozenset(w for t in game.cardtypes for n in (t.name, t.singular, t.plural)
                     for w in (n, n.lower()) if w not in taken)


class ZonePlanner(Visitor):
    """Knows, for a game, which function parameters are read only as `.zone` or
    `.controller` (`zone_params`). A visitor for that one question (`reads_only_zone`):
    the node kinds that read or rebind a name."""

    covers = (ir.Attr, ir.Ref, ir.Call, ir.Query, ir.ForEach, ir.Assign)

    def __init__(self, game: ir.Game, pure: dict[str, Purity]) -> None:
        self.pure = pure
        self.type_words = card_type_words(game)
        self.natives = {f.name for f in game.functions if f.native}
        self.zone_params: dict[str, set[int]] = {}
        decls = [f for f in game.functions if not f.native and f.name in pure]
        self.decls = {f.name: f for f in decls}
        changed = True
        while changed:  # a fixpoint: a function may pass its parameter on to another one
            changed = False
            for f in decls:
                known = self.zone_params.setdefault(f.name, set())
                for i, p in enumerate(f.params):
                    if i not in known and self._param_zone_only(f, p.name):
                        known.add(i)
                        changed = True

    def split(self, where: ir.Expr, local_names: set[str], var: str = "it") -> tuple[list[ir.Expr], list[ir.Expr]]:
        """(the conjuncts that read `var` only by its zone and controller, the rest), each in
        source order.

        A call to a function that is false unless some condition holds (`can_move_to(it, z)`
        starts `if not in_play(u) { return no }`) also implies that condition: when it
        reads `it` only by its zone it joins the zone test, and the call stays in the rest.
        A call whose function is just such conditions (queryplan.equivalent) is replaced
        by them: those of the zone test join it, the others are asked of each card
        instead of the call (`not it.exhausted and not zone_gap(it.zone, z) > reach(it)`
        for Kingdom Combat's moves, rather than all of can_move_to again)."""
        by_zone: list[ir.Expr] = []
        rest: list[ir.Expr] = []
        derived = False  # (a part found in a function called)
        for part in conjuncts(where):
            if self.pure_expr(part) and self.reads_only_zone(part, var):
                by_zone.append(part)
                continue
            parts = self.expanded(part, local_names) if self.pure_expr(part) else None
            if parts is not None:
                derived = True
                for condition in parts:
                    placed = self.pure_expr(condition) and self.reads_only_zone(condition, var)
                    (by_zone if placed else rest).append(condition)
                continue
            rest.append(part)
            for implied in self.implied(part, local_names):
                if self.pure_expr(implied) and self.reads_only_zone(implied, var):
                    by_zone.append(implied)
                    derived = True
        if not derived and not any(_reads_zone(part, var) for part in by_zone):
            # only a test of the controller, written in the condition (`it.controller != p`):
            # as cheap asked of each card, and the query may then be a scan in line
            # (codegen_scan.py) instead of q.query's
            return [], list(conjuncts(where))
        # a test of the card's type alone costs nothing and cannot raise: asked first, it
        # spares the rest of the test for the cards of other types (Kingdom Combat's
        # "cards at 0 HP" check reads no hp of an Equipment card)
        typed = [part for part in rest if self.type_test(part, var)]
        return by_zone, typed + [part for part in rest if not self.type_test(part, var)]

    def type_test(self, expr: ir.Expr, var: str) -> bool:
        """Is `expr` only `var is <card type>` tests joined by and/or/not?"""
        if isinstance(expr, ir.Logic):
            return self.type_test(expr.left, var) and self.type_test(expr.right, var)
        if isinstance(expr, ir.Not):
            return self.type_test(expr.operand, var)
        return isinstance(expr, ir.IsTest) and isinstance(expr.value, ir.Ref) and expr.value.name == var \
            and all(word in self.type_words for word in expr.words)

    def implied(self, part: ir.Expr, local_names: set[str]) -> list[ir.Expr]:
        """Conditions that hold whenever the call `part` is true, in the caller's terms."""
        return self._in_callers_terms(part, local_names, False) or []

    def expanded(self, part: ir.Expr, local_names: set[str]) -> list[ir.Expr] | None:
        """Conditions whose conjunction is as true as the call `part` (queryplan.equivalent),
        in the caller's terms; None when there are none such."""
        return self._in_callers_terms(part, local_names, True)

    def _in_callers_terms(self, part: ir.Expr, local_names: set[str], exact: bool) -> list[ir.Expr] | None:
        if not isinstance(part, ir.Call) or part.kwargs:
            return None
        decl = self.decls.get(part.func)
        if decl is None or len(part.args) > len(decl.params) \
                or any(p.type in NAME_TYPES for p in decl.params):
            return None
        mapping: dict[str, ir.Expr] = {}
        for i, param in enumerate(decl.params):
            value = part.args[i] if i < len(part.args) else param.default
            if value is None:
                return None
            mapping[param.name] = value
        conditions = equivalent(decl) if exact else necessary(decl)
        if conditions is None:
            return None
        found = []
        for condition in conditions:
            names = {n.name for n in nodes(condition) if isinstance(n, ir.Ref)}
            substituted = substitute(condition, mapping) if not names & (local_names - set(mapping)) else None
            if substituted is not None:
                found.append(substituted)
            elif exact:
                return None  # (a global name the caller's own variable would hide, or a query)
        return found

    def pure_expr(self, expr: ir.Expr) -> bool:
        """No dice rolled, no random pick, only calls to pure functions."""
        for node in nodes(expr):
            if isinstance(node, ir.Roll):
                return False
            if isinstance(node, ir.Query) and node.det == "random":
                return False
            if isinstance(node, ir.Call):
                if node.func in self.natives:
                    if node.func not in PURE_NATIVES:
                        return False
                elif node.func not in self.pure:
                    return False
        return True

    def reads_only_zone(self, node: object, var: str) -> bool:
        """Is every use of `var` under `node` either `var.zone`, `var.controller` or an
        argument a pure function reads only so? (A nested query's `where` binds its own `it`.)
        The node kinds that use or bind a name have a `visit_<Kind>`; every other node,
        list or dict is asked part by part (generic_visit)."""
        answer: bool = self.visit(node, var)
        return answer

    def generic_visit(self, node: object, *args: object) -> bool:
        var = args[0]
        assert isinstance(var, str)
        if isinstance(node, BaseModel):
            return all(self.reads_only_zone(getattr(node, name), var) for name in type(node).model_fields)
        if isinstance(node, list | tuple):
            return all(self.reads_only_zone(item, var) for item in node)
        if isinstance(node, dict):
            return all(self.reads_only_zone(item, var) for item in node.values())
        return True

    def visit_Attr(self, node: ir.Attr, var: str) -> bool:
        if isinstance(node.obj, ir.Ref) and node.obj.name == var:
            return node.name in PLACE_FIELDS
        return self.generic_visit(node, var)

    def visit_Ref(self, node: ir.Ref, var: str) -> bool:
        return node.name != var

    def visit_Call(self, node: ir.Call, var: str) -> bool:
        allowed = self.zone_params.get(node.func, set())
        for i, arg in enumerate(node.args):
            if isinstance(arg, ir.Ref) and arg.name == var and i in allowed:
                continue
            if not self.reads_only_zone(arg, var):
                return False
        return all(self.reads_only_zone(v, var) for v in node.kwargs.values())

    def visit_Query(self, node: ir.Query, var: str) -> bool:
        if var == "it":
            return all(self.reads_only_zone(getattr(node, name), var)
                       for name in type(node).model_fields if name != "where")
        return self.generic_visit(node, var)

    def visit_ForEach(self, node: ir.ForEach, var: str) -> bool:
        if node.var == var:
            return False  # rebinds the name: give up rather than track scopes
        return self.generic_visit(node, var)

    def visit_Assign(self, node: ir.Assign, var: str) -> bool:
        if isinstance(node.target, ir.Ref) and node.target.name == var:
            return False
        return self.generic_visit(node, var)

    def _param_zone_only(self, f: ir.FunctionDecl, name: str) -> bool:
        body: object = f.expr if f.expr is not None else f.body
        return any(isinstance(n, ir.Ref) and n.name == name for n in nodes(body)) \
            and self.reads_only_zone(body, name)
