"""A deck built from the catalogue, written as one call: `for each name in catalog(...)
{ create every copy of name in Z [for P] }` → `rt.create_catalog(...)` (engine/catalogue.py).

Why: the loop as written costs, for every card name, a loop step, a keyword call of the
native, its look-up of the definition and the owner, and make_card's tests of the zone
per copy — more than making the cards (UNO's setup: 54 names, 108 cards, about a sixth of
a random match). The engine makes the same cards, in the same order, with the same log
entries and loop steps. Only this loop, exactly: its body the one `create_copies` of the
loop's name, nothing hooking that native, and a zone and an owner that are names (or a
field of one: `reserve of p`) other than the loop's — so they are the same for every name
and can be read once, before the first card (and not at all for an empty catalogue, as
the loop never read them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import Scope
    from cardsmith.compiler.codegen_stmts import BodyWriter

# the nodes a zone or owner read once for the whole loop may be made of (no call, query
# or roll: nothing that could read the cards being made, or differ from one name to the next)
_SETTLED = (ir.Ref, ir.Attr, ir.Text, ir.Num, ir.Bool, ir.NoneLit)


def catalogue_loop(writer: BodyWriter, s: ir.ForEach, scope: Scope) -> str | None:
    """The line that makes the loop's cards in one call, or None when the loop is not
    exactly a catalogue's copies made in one place."""
    source = s.source
    if not (isinstance(source, ir.Call) and source.func == "catalog"
            and "catalog" in writer.gen.native_functions and len(s.body) == 1):
        return None
    invoke = s.body[0]
    if not isinstance(invoke, ir.Invoke) or invoke.procedure != "create_copies" \
            or writer.native_args(invoke, scope) is None:  # (None: hooked, or not the native)
        return None
    card = invoke.args.get("card")
    if not (isinstance(card, ir.Ref) and card.name == s.var):
        return None
    proc = writer.gen.procedures["create_copies"]
    values: dict[str, str] = {}
    for param in proc.params:
        if param.name == "card":
            continue
        arg = invoke.args.get(param.name)
        if arg is None:
            values[param.name] = writer.default(param)
            continue
        if not all(isinstance(node, _SETTLED) and not (isinstance(node, ir.Ref) and node.name == s.var)
                   for node in ir.nodes(arg) if isinstance(node, ir.Node)):
            return None
        values[param.name] = writer.expr(arg, scope)
    if set(values) != {"zone", "owner"}:
        return None
    names = writer.fresh()
    return (f"if ({names} := {writer.expr(source, scope)}): rt.create_catalog(m, ctx, {names}, "
            f"{values['zone']}, {values['owner']}, {s.span.line!r})")
