"""The engine's functions written in line by the expression writer (codegen_exprs.py):
abs, min, max and cell of plain ints, a placed card's position, a zone's card at a cell, and
`in_region(cell(x, y), r)` — each answered in line for the values it is usually given, as
the engine's function answers them first (engine/functions.py), and handed to that
function for anything else. Apart from the writer because it is a table of special
cases, not a kind of expression. Nothing here writes user text: the arguments come from
the writer, a region's name only when it is one the game declares (repr())."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope


def native_in_line(w: ExprWriter, func: str, args: list[str]) -> str | None:
    """abs, min, max of plain ints and a placed card's position, written in line as
    the engine's functions (engine/functions.py) answer them first; any other
    argument goes to the function."""
    if func == "abs" and len(args) == 1:
        first, x = w.held(args[0])
        return f"((-{x} if {x} < 0 else {x}) if type({first}) is int else fn.fn_abs(m, ctx, {x}))"
    if func in ("min", "max") and len(args) == 2:
        guarded = w.int_guard(*args)
        if guarded is None:
            return None
        guard, (a, b) = guarded
        keep = ">=" if func == "max" else "<="
        return f"(({a} if {a} {keep} {b} else {b}) if {guard} else fn.fn_{func}(m, ctx, {a}, {b}))"
    if func == "cell" and len(args) == 2:  # fn_cell's (int(x), int(y)) of two plain ints
        guarded = w.int_guard(*args)
        if guarded is None:
            return None
        guard, (x, y) = guarded
        return f"(({x}, {y}) if {guard} else fn.fn_cell(m, ctx, {x}, {y}))"
    if func == "card_at" and len(args) == 2:  # a zone's cards by cell, once per state version
        # (rt.card_at's index of this version read in line: a cell of two plain ints is its key)
        (zone_first, zone), (cell_first, cell) = w.held(args[0]), w.held(args[1])
        w.gen.inline_temps += 1
        index = f"_i{w.gen.inline_temps}"
        looked_up = (f"({index}.get({cell}) if ({index} := m.memo.get((m.version, rt.CARD_AT, {zone}))) is not None "
                     f"and type({cell}[0]) is type({cell}[1]) is int else rt.card_at(m, {zone}, {cell}))")
        # (`&`: the cell is evaluated whatever the zone, for fn_card_at's call to read)
        return (f"({looked_up} if (type({zone_first}) is rt.Zone) & (type({cell_first}) is tuple) "
                f"and len({cell}) == 2 else fn.fn_card_at(m, ctx, {zone}, {cell}))")
    if func == "position" and len(args) == 1:
        first, card = w.held(args[0])
        return (f"({card}.position if type({first}) is rt.Card and {card}.position is not None "
                f"else fn.fn_position(m, ctx, {card}))")
    return None

def region_in_line(w: ExprWriter, e: ir.Call, scope: Scope) -> str | None:
    """`in_region(cell(x, y), r)` for a region the game declares, two plain ints looked up
    in line in the region's cells as fn_in_region does (Two Kingdoms' terrain tests:
    ~130 an action); fn_in_region for anything else. None: not such a call."""
    if len(e.args) != 2 or e.kwargs or "cell" not in w.gen.native_functions:
        return None
    cell, name = e.args
    region = w.call_arg(e.func, 1, name, scope)
    try:
        named = ast.literal_eval(region)
    except (ValueError, SyntaxError):
        return None
    if not (isinstance(cell, ir.Call) and cell.func == "cell" and len(cell.args) == 2 and not cell.kwargs
            and isinstance(named, str) and named in w.gen.region_names):
        return None
    guarded = w.int_guard(*(w.expr(a, scope) for a in cell.args))
    if guarded is None:
        return None
    guard, (x, y) = guarded
    return (f"(({x}, {y}) in m.game.regions[{named!r}].cells if {guard} "
            f"else fn.fn_in_region(m, ctx, fn.fn_cell(m, ctx, {x}, {y}), {named!r}))")
