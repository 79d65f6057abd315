"""A function that is only a scan stopping at its first find, written as a loop.

`function can_match(p: player) = any(all cards in hand of p where ...)` is written by the
expression writer as `(hoisted reads..., next((v_it for v_it in POOL if COND), None))[-1]
is not None` (codegen_scan.py). As a whole function body that costs, at every call, a
generator: its closure over the hoisted reads, its frame, the `next` call that resumes
it. Written as statements — the reads, then `for v_it in POOL: if COND: return ...` —
the same reads are made in the same order, the same cards asked in the same order, and
it stops at the same card (UNO asks three such functions ~3.6 times an action). A walrus
inside COND binds in the function either way (a comprehension's assignment expressions
bind in the enclosing function), and POOL is evaluated before the first card in both.
Anything else the expression writer wrote is left as it is.
"""

from __future__ import annotations

import ast


def scan_as_loop(value: str) -> list[str] | None:
    """The lines (without indentation, one level for the loop's body) of a function body
    `return <value>` where `value` is such a scan — `any` (`... is not None`) or `first`
    (the card or None); None for any other value."""
    try:
        tree = ast.parse(value, mode="eval").body
    except SyntaxError:  # (never, for generated code; nothing is rewritten then)
        return None
    found_any = False
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.IsNot) \
            and isinstance(tree.comparators[0], ast.Constant) and tree.comparators[0].value is None:
        found_any, tree = True, tree.left
    prefix: list[ast.expr] = []
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Tuple) \
            and isinstance(tree.slice, ast.UnaryOp) and isinstance(tree.slice.op, ast.USub) \
            and isinstance(tree.slice.operand, ast.Constant) and tree.slice.operand.value == 1:
        *prefix, tree = tree.value.elts
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "next"
            and len(tree.args) == 2 and not tree.keywords and isinstance(tree.args[1], ast.Constant)
            and tree.args[1].value is None and isinstance(tree.args[0], ast.GeneratorExp)):
        return None
    scan = tree.args[0]
    if len(scan.generators) != 1:
        return None
    loop = scan.generators[0]
    if loop.is_async or len(loop.ifs) > 1 or not isinstance(loop.target, ast.Name) \
            or not isinstance(scan.elt, ast.Name) or scan.elt.id != loop.target.id:
        return None
    lines: list[str] = []
    for part in prefix:  # (each read in turn, as the tuple evaluated them)
        if isinstance(part, ast.NamedExpr):
            lines.append(f"{ast.unparse(part.target)} = {ast.unparse(part.value)}")
        else:
            lines.append(ast.unparse(part))
    name = loop.target.id
    lines.append(f"for {name} in {ast.unparse(loop.iter)}:")
    found = "True" if found_any else name
    if loop.ifs:
        lines += [f"    if {ast.unparse(loop.ifs[0])}:", f"        return {found}"]
    else:
        lines.append(f"    return {found}")
    lines.append(f"return {'False' if found_any else 'None'}")
    return lines
