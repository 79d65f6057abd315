"""The code generator's writers are visitors with one dispatch table per class.

BodyWriter extends ExprWriter, and a subclass's `covers` replaces its parent's: this
checks BodyWriter names both expression and statement kinds, and that building its
table did not leak statement methods into ExprWriter's (which would let an expression
writer silently accept a statement).
"""

from __future__ import annotations

from cardsmith.compiler.codegen_exprs import ExprWriter
from cardsmith.compiler.codegen_stmts import BodyWriter
from cardsmith.compiler.purity import _Facts
from cardsmith.compiler.queryplan import ZonePlanner
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import members


def test_body_writer_dispatches_statements_and_expressions_expr_writer_only_expressions() -> None:
    assert set(BodyWriter._dispatch) == set(members(ir.Expr)) | set(members(ir.Stmt))
    assert set(ExprWriter._dispatch) == set(members(ir.Expr))
    assert BodyWriter._dispatch[ir.Let] is BodyWriter.visit_Let
    assert BodyWriter._dispatch[ir.Num] is ExprWriter.visit_Num


def test_analysis_visitors_dispatch_only_the_kinds_they_single_out() -> None:
    assert _Facts._dispatch[ir.Roll] is _Facts._dispatch[ir.Cancel]  # one "changes the state" method
    assert ir.Num not in _Facts._dispatch and ir.Num not in ZonePlanner._dispatch
