"""A loop that returns the first time round, over a query, written lazily → Python source.

`for each k in all figures in kingdom of p where slot(it) == s and complete(p, it.group)
{ return k.colour }` (Kingdom Cards' `flag_colour`, ~2 an action): the body returns the
first time round, yet the query's list (codegen_scan.Scan.every) was made whole first, its
condition asked of every card. Looped over as a generator of the same cards instead, the
condition is asked of the cards up to the first found and of none after it — as a query
for one card already is (codegen_exprs.first_found: `any(...)` short-circuits, so a rules
error a later card would raise is not raised). Nothing here writes user text: the code
comes from the expression writer, already made safe there, and is only re-shaped.
"""

from __future__ import annotations

import ast

from cardsmith.dsl import ir


def returns_at_once(body: list[ir.Stmt]) -> bool:
    """Does a loop's body return the first time round, whatever happens?"""
    return bool(body) and isinstance(body[0], ir.Return)


def lazily(source: str) -> str | None:
    """A scanned query's list (codegen_scan.Scan.every: a comprehension, after its
    temporaries maybe) as a generator over the same cards; None for any other code."""
    try:
        whole = ast.parse(source, mode="eval").body
    except SyntaxError:
        return None
    holder = whole.value if isinstance(whole, ast.Subscript) and isinstance(whole.value, ast.Tuple) else None
    found = holder.elts[-1] if holder is not None and holder.elts else whole
    if not isinstance(found, ast.ListComp):
        return None
    generator = ast.GeneratorExp(elt=found.elt, generators=found.generators)
    if holder is None:
        return f"({ast.unparse(generator)})"
    holder.elts[-1] = generator
    return f"({ast.unparse(whole)})"
