"""Style words and dimensions of layouts (printables/evaluate.py's small visitors).

A layout property is read as words (`font: bold 10pt`) or millimetres (`width: 63mm`);
only a few kinds of expression have a reading of their own and every other kind falls
back (to rules text words, to the default). These pin both the readings and the
fallbacks, which no library game's layout happens to exercise.
"""

from __future__ import annotations

from cardsmith.compiler.text import render_expr
from cardsmith.dsl import ir
from cardsmith.printables.evaluate import dim_mm, style_word

SPAN = ir.Num.model_fields["span"].default


def num(n: int, d: int = 1) -> ir.Num:
    return ir.Num.model_construct(num=n, den=d, span=SPAN)


def test_style_words_are_the_written_words_and_other_expressions_their_rules_text() -> None:
    assert style_word(None) == ""
    assert style_word(ir.Text.model_construct(value="bold 10pt", span=SPAN)) == "bold 10pt"
    assert style_word(ir.Ref.model_construct(name="circle", span=SPAN)) == "circle"
    assert style_word(ir.Dim.model_construct(mm=3.0, written="3mm", span=SPAN)) == "3mm"
    total = ir.BinOp.model_construct(op="+", left=num(1), right=num(2), span=SPAN)
    assert style_word(total) == render_expr(total) == "1 + 2"


def test_dimensions_are_millimetres_bare_numbers_count_as_mm_and_the_rest_is_the_default() -> None:
    assert dim_mm(ir.Dim.model_construct(mm=25.4, written="1in", span=SPAN)) == 25.4
    assert dim_mm(num(5, 2)) == 2.5
    assert dim_mm(None) == 0.0
    assert dim_mm(None, 7.0) == 7.0
    assert dim_mm(ir.Text.model_construct(value="wide", span=SPAN), 4.0) == 4.0
