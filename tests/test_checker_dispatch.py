"""The checker's type inference and statement checks dispatch through one Visitor table.

`infer` (check_exprs) and `statement` (check_stmts) live in separate mixins; the Visitor
builds its table when a class is created, so only the composed `Checker` (and a
subclass of it, as tools that wrap the checker make) has every kind in one table. If
a mixin order or a `covers` change left a kind out, `statement` would raise TypeError
on the first such node instead of checking it.
"""

from __future__ import annotations

from pathlib import Path

from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.compiler.api import check_game
from cardsmith.compiler.check import Checker
from cardsmith.compiler.check_exprs import ExpressionChecker
from cardsmith.compiler.check_stmts import StatementChecker
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Severity
from cardsmith.dsl.visitor import members


def test_the_composed_checker_dispatches_every_expression_and_statement_to_its_mixin() -> None:
    assert set(Checker.covers) == set(members(ir.Expr)) | set(members(ir.Stmt))
    assert Checker.missing() == []
    assert Checker._dispatch[ir.BinOp] is ExpressionChecker.visit_BinOp
    assert Checker._dispatch[ir.Query] is ExpressionChecker.visit_Query
    assert Checker._dispatch[ir.Let] is StatementChecker.visit_Let
    assert Checker._dispatch[ir.Assign] is StatementChecker.visit_Assign
    # the expression mixin alone promises only expressions (tests/test_visitors.py holds it to that)
    assert set(ExpressionChecker.covers) == set(members(ir.Expr))


def test_a_subclass_of_the_checker_gets_the_same_table() -> None:
    class Wrapped(Checker):
        pass

    assert Wrapped._dispatch == Checker._dispatch


def test_a_let_binds_through_the_dispatch_for_the_statements_after_it(tmp_path: Path) -> None:
    # `let` (visit_Let) writes the scope that `set` (visit_Assign) then reads: the local
    # is a number, so setting it to text is the one error
    rules = MINI_RULES + '\nprocedure probe() { let x = 1; set x to "a" }\n'
    folder = write_game(tmp_path / "g", {"rules.cards": rules, "cards.cards": MINI_CARDS})
    errors = [(d.code, d.message) for d in check_game(str(folder)).diagnostics if d.severity is Severity.ERROR]
    assert errors == [("CS0301", "expected a number, found text")]
