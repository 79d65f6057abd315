"""A small function of one stat of a card, looked up by that stat's value → Python source.

Kingdom Cards' `function slot(c: card) = (c.value - 1) % 3 + 1` is written in line where
it is called (inline.py): about forty bytecode instructions of arithmetic and int checks,
asked of every card of a kingdom and of a hand several times a decision window (in
`flag_colour`'s scan, `form_group`'s choices, `fits_flag`, `on_flag`). Its answer depends
on nothing but the card's `value`. So where such a function is called, the caller reads
that one stat and looks the answer up in a table of the function's answers by the stat's
value; only a value not seen yet calls the function, on the card, as before. The answer
is the function's: it reads that stat and literals only — no other field, no state, no
param, no actor, no call — so two cards with the same value get the same answer, in any
match of the game. The table is a dictionary made once with the game's module
(rt.ByValue): what it holds is arithmetic of numbers, true of every match.

A value is a key only when it is a whole number (`type(v) is int`: no bool, no fraction
equal to it) and an answer is kept only when it is an int, text, truth, fraction or enum
value (rt.ByValue.keep: immutable, compared as before). An error is never kept: the function
raises it again on the card, in the calling statement's line, as the code written in line
did. Nothing here writes user text: the table's name is repr() of the function's name, the
argument comes from the expression writer, already made safe there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardsmith.compiler import inline
from cardsmith.compiler.purity import nodes
from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope

# the nodes a body may hold besides its one stat read: literals and what computes with them
_COMPUTING = (ir.Num, ir.Text, ir.Bool, ir.NoneLit, ir.BinOp, ir.Neg, ir.Compare, ir.Logic, ir.Not,
              ir.Conditional)


def by_stat_functions(inlinable: dict[str, ir.FunctionDecl], kinds: dict[str, str]) -> dict[str, str]:
    """Function name → the one stat it reads, for each function written in line
    (`inlinable`) whose body is a computation of literals and one stat (codegen.field_kinds
    "stat": no static changes it) of its only parameter — more than the read itself."""
    found: dict[str, str] = {}
    for name, f in inlinable.items():
        if f.expr is None or len(f.params) != 1:
            continue
        param = f.params[0].name
        body = [n for n in nodes(f.expr) if isinstance(n, ir.Node)]  # (nodes also yields spans)
        reads = {n.name for n in body if isinstance(n, ir.Attr)}
        if len(reads) != 1 or isinstance(f.expr, ir.Attr):
            continue
        stat = next(iter(reads))
        refs = [n for n in body if isinstance(n, ir.Ref)]
        attrs = [n for n in body if isinstance(n, ir.Attr)]
        if kinds.get(stat) != "stat" or len(refs) != len(attrs) \
                or not all(isinstance(a.obj, ir.Ref) and a.obj.name == param for a in attrs) \
                or not all(isinstance(n, (*_COMPUTING, ir.Attr, ir.Ref)) for n in body):
            continue
        found[name] = stat
    return found


def by_stat(w: ExprWriter, e: ir.Call, args: list[str], scope: Scope,
            ident: Callable[..., str]) -> str | None:
    """The call `e` of such a function as a look-up in its table by the stat's value, the
    function called on a miss; None for any other call. `scope`: the caller's, to know
    whether the argument is certainly a card (as ExprWriter.inline asks); `ident`: the
    writer's Python name for a user name (codegen_exprs.ident: that module imports this)."""
    stat = w.gen.by_stat.get(e.func)
    if stat is None or len(args) != 1:
        return None
    param = w.gen.inlinable[e.func].params[0].name
    code, first = args[0], ""
    if not inline.plain(code):  # (evaluated once, first, as the call would have)
        w.gen.inline_temps += 1
        first = f"(_i{w.gen.inline_temps} := {code}), "
        code = f"_i{w.gen.inline_temps}"
    inner = type(scope)()  # (a Scope: codegen_exprs imports this module)
    inner.locals.add(param)
    inner.bound[param] = code
    if code in {scope.bound.get(name, ident(name)) for name in scope.cards}:
        inner.cards.add(param)
    read = w.expr(ir.Attr(span=e.span, obj=ir.Ref(span=e.span, name=param), name=stat), inner, decide=False)
    table = w.gen.constant(f"rt.ByValue({e.func!r})")
    w.gen.inline_temps += 2
    value, answer = f"_i{w.gen.inline_temps - 1}", f"_i{w.gen.inline_temps}"
    looked = (f"({answer} if type(({value} := {read})) is int and ({answer} := {table}.get({value})) is not None "
              f"else {table}.keep({value}, {ident(e.func, 'F_')}(m, ctx, {code})))")
    return f"({first}{looked})[-1]" if first else looked
