"""Comparisons → Python source: `==`, `!=`, `<`, ... of the expression writer (codegen_exprs.py).

Apart from the writer because a comparison is written in more ways than any other
expression: an identity test for cards, players and zones (and `none`), a field of an
entity read in line, two plain ints (or two texts) compared in line before the helper
(rt.same, rt.lt, ...) is called, an enum value compared by its fields. Nothing here
writes user text: every operand comes from the writer, already made safe there.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from cardsmith.compiler.inline import VARIABLE
from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope

# card built-ins that hold a card, player or zone (or none)
_ENTITY_BUILTINS = frozenset({"zone", "controller", "owner", "host"})
_ORDER = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
_INT_LITERAL = re.compile(r"-?[0-9]+\Z")  # (as the writer's: an operand int_guard does not test)


def identity(w: ExprWriter, e: ir.Expr, scope: Scope) -> bool:
    """Is `e` certainly a card, player or zone (or none)? Then `==` is `is`."""
    if isinstance(e, ir.Attr):
        return (isinstance(e.obj, ir.Ref) and e.obj.name in scope.cards
                and w.gen.field_kinds.get(e.name) == "builtin" and e.name in _ENTITY_BUILTINS)
    if isinstance(e, ir.Ref) and e.name not in scope.locals:
        return e.name in ("you", "self", "current", "active_player") or (
            w.gen.name_kinds.get(e.name, ("", ""))[0] == "zone")
    return isinstance(e, ir.Ref) and e.name in scope.cards


def compare(w: ExprWriter, e: ir.Compare, scope: Scope) -> str:
    """`x == none` is an identity test; the other comparisons call one function per
    operator (rt.same, rt.lt, ...), so no operator is dispatched at play time."""
    zero = {">": 0, "!=": 0, ">=": 1, "==": 0}.get(e.op)
    if zero is not None and isinstance(e.right, ir.Num) and e.right.den == 1 and e.right.num == zero:
        found, card = w.first_found(e.left, ("count",), scope)
        if card:  # (the first card itself, or None)
            return f"({found} is {'' if e.op == '==' else 'not '}None)"
        if found is not None:  # `count(all ...) > 0`: is there one?
            return f"(not {found})" if e.op == "==" else f"bool({found})"
    left, right = w.expr(e.left, scope), w.expr(e.right, scope)
    # `is` with a number or text literal is a SyntaxWarning in Python (and never true):
    # such a comparison goes to rt.same, or with none is decided here
    literal = _literal(left) or _literal(right)
    if e.op in ("==", "!=") and (isinstance(e.left, ir.NoneLit) or isinstance(e.right, ir.NoneLit)):
        other = right if isinstance(e.left, ir.NoneLit) else left
        if _literal(other):  # a number or text is never none
            return repr(e.op == "!=")
        other = _remember(w, e.right if isinstance(e.left, ir.NoneLit) else e.left, other, scope)
        return f"({other} is {'not ' if e.op == '!=' else ''}None)"
    if e.op in ("==", "!=") and not literal and (identity(w, e.left, scope) or identity(w, e.right, scope)):
        return f"({left} is {'not ' if e.op == '!=' else ''}{right})"  # as rt.same does for these
    if e.op in ("==", "!=") and not literal:
        for side, other in ((e.left, right), (e.right, left)):
            fast = entity_field(w, side, scope)
            if fast is not None:  # (rt.same is `is` for an entity: Kingdom Combat's u.zone == z)
                test, read = fast
                pair = (read, other) if side is e.left else (other, read)
                slow = w.sometimes(lambda: compare_values(w, e, left, right, scope))
                return f"({pair[0]} is {'not ' if e.op == '!=' else ''}{pair[1]} if {test} else {slow})"
    return compare_values(w, e, left, right, scope)

def entity_field(w: ExprWriter, e: ir.Expr, scope: Scope) -> tuple[str, str] | None:
    """(test, read) for `x.zone` (controller, owner, host) of a variable: a card's is an entity or none."""
    if not (isinstance(e, ir.Attr) and isinstance(e.obj, ir.Ref) and e.name in _ENTITY_BUILTINS
            and w.gen.field_kinds.get(e.name) == "builtin"):
        return None
    obj = w.expr(e.obj, scope)
    return (f"type({obj}) is rt.Card", f"{obj}.{e.name}") if VARIABLE.match(obj) is not None else None

def compare_values(w: ExprWriter, e: ir.Compare, left: str, right: str, scope: Scope) -> str:
    value = w.enum_literal(e.right, scope) or w.enum_literal(e.left, scope)
    if e.op in ("==", "!=") and value is not None:
        return enum_compare(w, e.op, left if w.enum_literal(e.right, scope) else right, value)
    if e.op in ("==", "!=") and (_a_name(w, e.left) or _a_name(w, e.right)):
        # a card's name (text) and another value: two texts compared in line, as rt.same does first
        (first_a, a), (first_b, b) = w.held(left, share=True), w.held(right, share=True)
        slow = f"rt.same({a}, {b})" if e.op == "==" else f"not rt.same({a}, {b})"
        return f"({a} {e.op} {b} if type({first_a}) is type({first_b}) is str else {slow})"
    w.sharing = True  # (this test is always evaluated: int_guard's operands are known after it)
    try:
        guarded = w.int_guard(left, right)
    finally:
        w.sharing = False
    if guarded is not None:  # two plain ints compared in line, as the helpers do first
        guard, (a, b) = guarded
        slow = {"==": f"rt.same({a}, {b})", "!=": f"not rt.same({a}, {b})"}.get(e.op) \
            or f"rt.{_ORDER[e.op]}({a}, {b})"
        if e.op in ("==", "!=") and not _INT_LITERAL.match(left) and not _INT_LITERAL.match(right):
            # two values of one kind that == compares as rt.same does: two ints, two texts
            # or two enum values (interned: Kingdom Cards' `it.group == g`)
            guard = guard.removesuffix(" is int") + " in rt.EQ_BY_PYTHON"
        return f"({a} {e.op} {b} if {guard} else {slow})"
    if e.op == "==":
        return f"rt.same({left}, {right})"
    if e.op == "!=":
        return f"(not rt.same({left}, {right}))"
    return f"rt.{_ORDER[e.op]}({left}, {right})"


def _literal(code: str) -> bool:
    """Is this generated Python a literal constant other than None/True/False (a number
    or a string written by repr())? Python warns at `is` with one of those."""
    try:
        tree = ast.parse(code, mode="eval")
    except SyntaxError:
        return False
    return isinstance(tree.body, ast.Constant) and not any(tree.body.value is v for v in (None, True, False))


def _a_name(w: ExprWriter, e: ir.Expr) -> bool:
    """`x.name`, the built-in name of a card (a text)?"""
    return isinstance(e, ir.Attr) and e.name == "name" and w.gen.field_kinds.get("name") == "builtin"


def enum_compare(w: ExprWriter, op: str, other: str, value: tuple[str, str, str]) -> str:
    """`x == Ram`: an enum value compared by its two fields in line, as rt.same does
    (`u.troop == Ram` is asked hundreds of times an action); rt.same for anything else
    (the text of the value's name, none, a number: as before)."""
    enum, name, constant = value
    first, held = w.held(other, share=True)
    same = (f"(({held}.name == {name!r} and {held}.enum == {enum!r}) if type({first}) is rt.EnumValue "
            f"else rt.same({held}, {constant}))")
    return same if op == "==" else f"(not {same})"


def _remember(w: ExprWriter, e: ir.Expr, code: str, scope: Scope) -> str:
    """`f(x) == none` where f is a remembered pure function: its value kept in a temporary,
    which a later call of f(x) in the same expression reads (ExprWriter.visit_Call) — Kingdom
    Cards' `flag_colour(p, slot(c)) == none or flag_colour(p, slot(c)) == c.colour` computes
    the slot and looks the memo up once. The test is evaluated whenever what follows it in
    the expression is (ExprWriter.known: a branch forgets what it learnt), and a pure
    function gives the same value for the same arguments while the expression is evaluated."""
    if not (isinstance(e, ir.Call) and e.func in w.gen.pure and w.gen.pure[e.func].worth_it
            and e.func not in w.gen.native_functions) or w.depth == 0 or code.startswith("_i"):
        return code
    w.gen.inline_temps += 1
    temp = f"_i{w.gen.inline_temps}"
    w.known[call_key(e, scope)] = temp
    return f"({temp} := {code})"


def call_key(e: ir.Expr, scope: Scope) -> str:
    """A call as ExprWriter.known holds it: its IR without source positions, and what its
    names stand for where it is written (a parameter of a function written in line: its
    argument's code). Never a key of generated code (those start with `(`)."""
    return f"call {_shape(e)} {sorted(scope.bound.items())!r}"


def _shape(node: object) -> str:
    if isinstance(node, ir.Node):
        fields = ", ".join(_shape(getattr(node, name)) for name in type(node).model_fields if name != "span")
        return f"{type(node).__name__}({fields})"
    if isinstance(node, list):
        return f"[{', '.join(_shape(item) for item in node)}]"
    if isinstance(node, dict):
        return f"{{{', '.join(f'{key!r}: {_shape(value)}' for key, value in sorted(node.items()))}}}"
    return repr(node)
