"""Every IR visitor handles every node kind it promises to (cardsmith/dsl/visitor.py).

Each back end that walks the IR states the node kinds it covers (`covers`, e.g. every
member of `ir.Expr`); this test imports all of cardsmith, finds every Visitor subclass
and checks each has a `visit_<Node>` method for every kind it covers. A node kind added
to the language therefore fails here until each back end knows what to do with it.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import cardsmith
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor, members


def all_visitors() -> list[type[Visitor]]:
    for module in pkgutil.walk_packages(cardsmith.__path__, "cardsmith."):
        if module.name != "cardsmith.__main__":
            importlib.import_module(module.name)
    found: list[type[Visitor]] = []
    todo = list(Visitor.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [cls for cls in found if cls.__module__.startswith("cardsmith.")]


def test_every_visitor_covers_what_it_promises() -> None:
    visitors = all_visitors()
    incomplete = {f"{cls.__module__}.{cls.__name__}": cls.missing() for cls in visitors if cls.missing()}
    assert incomplete == {}
    for cls in visitors:
        assert cls.covers, f"{cls.__name__} covers no node kinds: say which (covers = members(ir.Expr))"
    # the back ends that walk the IR: rules text, static evaluation, printables, code
    # generation, purity and query planning, the checker
    names = {cls.__name__ for cls in visitors}
    assert {"StaticEnv", "ExprWriter", "BodyWriter", "ExpressionChecker", "StatementChecker"} <= names, names


def test_the_dispatch_goes_to_the_nodes_method_and_names_a_missing_one() -> None:
    class Kinds(Visitor):
        covers = members(ir.Expr)

        def visit_Num(self, node: ir.Num) -> str:
            return "number"

    span = ir.Num.model_fields["span"].default  # (any span will do)
    assert Kinds().visit(ir.Num.model_construct(num=1, den=1, span=span)) == "number"
    with pytest.raises(TypeError, match="Kinds has no visit_Text"):
        Kinds().visit(ir.Text.model_construct(value="x", span=span))
    assert "Text" in Kinds.missing() and "Num" not in Kinds.missing()
    assert len(members(ir.Expr)) >= 20 and ir.BinOp in members(ir.Expr)


def test_rules_text_words_a_conditional() -> None:
    """`if c then a else b` printed as "?" before the rules-text visitor named every kind."""
    from cardsmith.compiler.text import render_expr

    span = ir.Num.model_fields["span"].default

    def num(n: int) -> ir.Num:
        return ir.Num.model_construct(num=n, den=1, span=span)

    cond = ir.Compare.model_construct(op=">", left=num(2), right=num(1), span=span)
    e = ir.Conditional.model_construct(condition=cond, then=num(3), otherwise=num(4), span=span)
    assert render_expr(e) == f"3 if {render_expr(cond)}, otherwise 4"
