"""A remembered function's answer read in line → Python source, for the expression writer
(codegen_exprs.py).

Apart from the writer because it is one job — where the generated rules may look a
remembered answer up in the match's memo themselves, under the key the helper (rt.memo,
rt.memo_match: engine/memo.py) files it under, and call the helper only on a miss — and
the writer is at its length. Nothing here writes user text: the arguments come from the
writer, already made safe there, and the function's name through the writer's `ident`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardsmith.compiler.codegen_compare import call_key
from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope

# parameter types whose values are always dictionary keys (rt.memo_match's key holds them);
# a parameter of an enum type too (an enum value, or none)
_HASHABLE_TYPES = frozenset({"card", "zone", "player", "number", "text", "bool", "cardname"})


def keyed(w: ExprWriter, e: ir.Call, name: str, args: list[str], per_version: bool) -> str | None:
    """The helper's key for this call, as code; None where the memo may not be read in line.
    Written only where reading the arguments twice is harmless and they are sure to be
    keys: each argument a plain name or a field of one (no roll, no call), and every
    parameter of the function of a type whose values hash (a card, zone, player, number,
    text, truth or enum value — not a list). `name`: the function's Python name.
    (Arguments computed into temporaries first were measured: Kingdom Cards' `flag_colour(p,
    slot(c))` almost always misses, and nothing was gained.)"""
    if not _keys(w, e) or len(args) != len(e.args) or not all(_plain_reference(a) for a in e.args):
        return None
    return f"({'m.version, m._in_statics, ' if per_version else ''}{name}, {', '.join(args)})"


def remembered_in_line(w: ExprWriter, e: ir.Call, name: str, head: str, args: list[str],
                       per_version: bool) -> str:
    """A whole-match memo (per_version: the memo per state version, rt.memo's key) read in line:
    the remembered value is looked up under the helper's key, and the helper (`head`: its
    call up to the arguments) is called only on a miss (or for a list, which it copies out)."""
    key = keyed(w, e, name, args, per_version)
    if key is None:
        return f"{head}{', ' if args else ''}{', '.join(args)})"
    w.gen.inline_memos += 1
    held = f"_mm{w.gen.inline_memos}"
    if per_version:  # (a miss: the function called here, kept under the key built once)
        kept = f"_mk{w.gen.inline_memos}"
        return (f"({held} if ({held} := m.memo.get(({kept} := {key}), rt.MISSING)) is not rt.MISSING "
                f"and type({held}) is not list else rt.memo_keep(m, {kept}, {name}(m, ctx, {', '.join(args)})) "
                f"if {held} is rt.MISSING else list({held}))")
    return (f"({held} if ({held} := m.match_memo.get({key}, rt.MISSING)) is not rt.MISSING "
            f"and type({held}) is not list else {head}, {', '.join(args)}))")


def counted_in_line(w: ExprWriter, e: ir.Call, scope: Scope, ident: Callable[[str, str], str]) -> str | None:
    """`count(f(x))` of a function remembered per state version that gives a list (Kingdom
    Cards' `count(group_cards(p, it.group))`, ~13 an action): the remembered list's length
    read in line — rt.memo would copy the list out for fn_count to measure — and the helpers
    called only on a miss or for anything but a list. None: not such a call. `ident`: the
    writer's Python name for a user name (codegen_exprs.ident, passed: that module imports this)."""
    if not (e.func == "count" and e.func in w.gen.native_functions and len(e.args) == 1 and not e.kwargs
            and isinstance(e.args[0], ir.Call)):
        return None
    inner = e.args[0]
    purity = w.gen.pure.get(inner.func)
    if purity is None or not purity.worth_it or purity.reads_actor or inner.func in w.gen.body_functions \
            or inner.func in w.gen.match_constant or call_key(inner, scope) in w.known:
        return None
    if not _keys(w, inner) or not all(_plain_reference(a) for a in inner.args):
        return None  # (asked before the arguments are written: none is written for nothing)
    name = ident(inner.func, "F_")
    args = w.call_args(inner, scope)
    key = keyed(w, inner, name, args, True)
    if key is None:
        return None
    w.gen.inline_memos += 1
    held = f"_mm{w.gen.inline_memos}"
    kept = f"_mk{w.gen.inline_memos}"  # (a miss: the function called here, kept under the key built once)
    call = f"rt.memo_keep(m, {kept}, {name}(m, ctx, {', '.join(args)}))"
    return (f"(len({held}) if type(({held} := m.memo.get(({kept} := {key}), rt.MISSING))) is list "
            f"else fn.fn_count(m, ctx, {call} if {held} is rt.MISSING else {held}))")


def _keys(w: ExprWriter, e: ir.Call) -> bool:
    """Are the call's arguments sure to be keys? One per parameter, each of a type whose values hash."""
    decl = w.gen.function_decls.get(e.func)
    return decl is not None and bool(e.args) and len(e.args) == len(decl.params) and all(
        p.type in _HASHABLE_TYPES or w.gen.name_kinds.get(p.type, ("", ""))[0] == "enum" for p in decl.params)


def _plain_reference(e: ir.Expr) -> bool:
    """A name, or a field of one (`c.zone`): reading it twice reads the same and changes nothing."""
    while isinstance(e, ir.Attr):
        e = e.obj
    return isinstance(e, ir.Ref)
