"""Which of a game's functions the code generator writes in line at their call sites.

Rules call small functions all the time (Two Kingdoms' `col(u)`, `spaces(p, q)`, UNO's
`matches(c)`), and a Python call costs more than what most of them compute. A function
qualifies when writing its body in the caller changes nothing the rules can see:

- it is `function f(...) = expr` (an expression body: no statements, so no `m.step`
  counted and no .cards line of its own — an error inside it already names the line of
  the statement that called it, linetable.py, and still does once written in line), or
  a body of `if`s that only return, ending in a return (Two Kingdoms' `carrier(u)`:
  `if u.host != none { return u.host }  return u`, asked ~500 times an action), written
  as the conditional `if c then a else b` (statement_expression): no loop, so no step is
  counted in it either; an error inside it names the calling statement's line;
- it is pure (purity.py: no dice, no choices, no changes) and not remembered: a function
  rt.memo or rt.memo_match remembers keeps its calls, which are lookups;
- it holds no query (a query's `where` is a lambda over `it`: a caller's `it` passed as
  an argument would be captured by it) and no roll;
- it is not recursive, and small (at most MAX_NODES nodes), and the writer stops after
  MAX_DEPTH levels of functions written in line inside each other.

The writer (codegen_exprs.ExprWriter.inline) binds each parameter to its argument's
code: a plain variable or literal is substituted as it is; anything else is evaluated
once, first, in argument order (`(_i1 := arg, body)[-1]`), as the call would have.
"""

from __future__ import annotations

import ast
import re

from cardsmith.compiler.purity import Purity, nodes
from cardsmith.dsl import ir

MAX_NODES = 60  # IR nodes in a body written in line (a guard on the generated code's size)
MAX_DEPTH = 3  # functions written in line inside functions written in line

# generated code that reads a local or the context: substituted as it is, read as often as
# the body reads it (a read of a variable neither fails nor changes anything)
_PLAIN = re.compile(r"(v_[A-Za-z0-9_]+|_i[0-9]+|_K[0-9]+|ctx\.self|ctx\.you|m\.current|None|True|False)\Z")
# generated code for a plain variable (a local, or `self` / `you`): safe to read twice
VARIABLE = re.compile(r"(v_[A-Za-z0-9_]+|_i[0-9]+|ctx\.self|ctx\.you)\Z")


def inlinable_functions(game: ir.Game, pure: dict[str, Purity], remembered: set[str]) -> dict[str, ir.FunctionDecl]:
    """The functions written in line where they are called (see the module's docstring).
    `pure`: purity.pure_functions; `remembered`: the functions remembered all match long."""
    decls = {}
    for f in game.functions:
        expr = f.expr if f.expr is not None or f.native else statement_expression(f.body)
        if expr is not None:
            decls[f.name] = f if f.expr is not None else f.model_copy(update={"expr": expr, "body": []})
    calls = {name: {n.func for n in nodes(f.expr) if isinstance(n, ir.Call)} for name, f in decls.items()
             if f.expr is not None}
    found: dict[str, ir.FunctionDecl] = {}
    for name, f in decls.items():
        purity = pure.get(name)
        if f.expr is None or purity is None or purity.worth_it or name in remembered:
            continue
        body = list(nodes(f.expr))
        if len(body) > MAX_NODES or any(isinstance(n, ir.Query | ir.Roll) for n in body):
            continue
        if _reaches(name, calls):
            continue
        found[name] = f
    return found


def statement_expression(body: list[ir.Stmt]) -> ir.Expr | None:
    """A body of `if c { return a } ... return b` as the expression `if c then a else b`
    (each branch asked in the same order, the first that holds giving the value); None for
    any other body (a loop, a `let`, a statement that is not a return, a bare `return`)."""
    if not body:
        return None
    head, rest = body[0], body[1:]
    if isinstance(head, ir.Return):
        return head.value if not rest else None
    if not isinstance(head, ir.If) or (head.orelse is not None and rest):
        return None
    value = statement_expression(head.orelse if head.orelse is not None else rest)
    for branch in reversed(head.branches):
        then = statement_expression(branch.body)
        if value is None or then is None:
            return None
        value = ir.Conditional(span=head.span, condition=branch.condition, then=then, otherwise=value)
    return value


def _reaches(name: str, calls: dict[str, set[str]]) -> bool:
    """Does `name` call itself, directly or through other expression-bodied functions?"""
    seen: set[str] = set()
    todo = list(calls.get(name, ()))
    while todo:
        callee = todo.pop()
        if callee == name:
            return True
        if callee not in seen:
            seen.add(callee)
            todo.extend(calls.get(callee, ()))
    return False


def plain(code: str) -> bool:
    """Generated code that may stand for a parameter wherever the body reads it: a
    variable, or a number or text literal (repr())."""
    if _PLAIN.match(code):
        return True
    if len(code) > 80:  # (no literal this long is worth parsing for)
        return False
    try:
        tree = ast.parse(code, mode="eval")
    except SyntaxError:
        return False
    body = tree.body
    if isinstance(body, ast.UnaryOp) and isinstance(body.op, ast.USub):
        body = body.operand
    return isinstance(body, ast.Constant)
