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

from cardsmith.compiler import inline
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
    call up to the arguments) is called only on a miss (or for a list, which it copies out).

    Per state version, a miss is computed in line too: the function is called directly
    and its answer filed under the key already made (rt.kept), instead of the helper
    making the key and looking it up again. Most per-version asks miss (Two Kingdoms'
    `path_within` finds a remembered answer in ~1% of them), so the second look-up and
    the helper's frame were paid on nearly every call. There, arguments that are computed
    (`x + dx`, `col(u)`: no roll, nothing that changes the state) are evaluated once, in
    order, into temporaries inside the key, and the call reads those."""
    if per_version:
        stored = _stored_in_line(w, e, name, head, args)
        if stored is not None:
            return stored
    key = keyed(w, e, name, args, per_version)
    if key is None or per_version:  # (per version: where _stored_in_line cannot, neither can this)
        return f"{head}{', ' if args else ''}{', '.join(args)})"
    w.gen.inline_memos += 1
    held = f"_mm{w.gen.inline_memos}"
    return (f"({held} if ({held} := m.match_memo.get({key}, rt.MISSING)) is not rt.MISSING "
            f"and type({held}) is not list else {head}, {', '.join(args)}))")


def _stored_in_line(w: ExprWriter, e: ir.Call, name: str, head: str, args: list[str]) -> str | None:
    """The per-version memo read in line with its miss computed in line (remembered_in_line);
    None where the arguments are not sure keys or may change the state. A remembered list
    is still read through the helper (`head`), which copies it out; a list computed here
    is copied out by rt.kept."""
    if not _keys(w, e) or len(args) != len(e.args) or not all(_state_free(w, a) for a in e.args):
        return None
    parts: list[str] = []
    passed: list[str] = []
    for code in args:
        if inline.plain(code):
            parts.append(code)
            passed.append(code)
        else:
            w.gen.inline_temps += 1
            temp = f"_i{w.gen.inline_temps}"
            parts.append(f"({temp} := {code})")
            passed.append(temp)
    w.gen.inline_memos += 1
    n = w.gen.inline_memos
    held, cache, key = f"_mm{n}", f"_mc{n}", f"_mk{n}"
    listed = ", ".join(passed)
    return (f"({held} if ({held} := ({cache} := m.memo).get(({key} := (m.version, m._in_statics, {name}, "
            f"{', '.join(parts)})), rt.MISSING)) is not rt.MISSING and type({held}) is not list "
            f"else {head}, {listed}) if {held} is not rt.MISSING "
            f"else ({held} := {name}(m, ctx, {listed}), {cache}.__setitem__({key}, {held}) "
            f"if len({cache}) < rt.MEMO_LIMIT else rt.kept({cache}, {key}, {held}), "
            f"list({held}) if type({held}) is list else {held})[-1])")


def _state_free(w: ExprWriter, e: ir.Expr) -> bool:
    """An argument whose evaluation changes nothing, so the state version read before it
    in the key is the one the helper would read after it: names, fields, literals,
    arithmetic and comparisons, and calls of the game's pure functions or of the natives
    that only compute (abs, min, max, position)."""
    if isinstance(e, ir.Ref | ir.Num | ir.Text | ir.Bool | ir.NoneLit):
        return True
    if isinstance(e, ir.Attr):
        return _state_free(w, e.obj)
    if isinstance(e, ir.BinOp | ir.Compare | ir.Logic):
        return _state_free(w, e.left) and _state_free(w, e.right)
    if isinstance(e, ir.Neg | ir.Not):
        return _state_free(w, e.operand)
    if isinstance(e, ir.Call):
        calm = e.func in _COMPUTING_NATIVES and e.func in w.gen.native_functions
        return (calm or e.func in w.gen.pure) and not e.kwargs and all(_state_free(w, a) for a in e.args)
    return False


# natives that compute from their arguments and read or change nothing else
_COMPUTING_NATIVES = frozenset({"abs", "min", "max", "position"})


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
    call = f"rt.kept(m.memo, {kept}, {name}(m, ctx, {', '.join(args)}))"
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
