"""Deck-building rules and what is printed: layouts, sheets and reference cards.

These declarations are expressions over a card or a deck, never rules that run in a
match, and a layout mixes style words (`shape: circle`) with expressions; they are
checked apart from the rules for that reason.
"""

from __future__ import annotations

from cardsmith.compiler.check_exprs import ExpressionChecker
from cardsmith.compiler.check_types import NUMERIC, Scope
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.units import CARD_SIZES_MM as CARD_SIZES
from cardsmith.dsl.units import parse_size

# Layout properties whose value is a style word (`shape: circle`), not an expression.
STYLE_KEYS = {"size", "font", "shape", "align", "valign", "style", "orientation", "fit", "fill",
              "icon", "weight", "corner", "kind", "side"}


def _style_word(key: str, value: ir.Expr) -> bool:
    return key in STYLE_KEYS and isinstance(value, ir.Ref | ir.Text)



class PrintableChecker(ExpressionChecker):
    """Checks the deck rules, layouts, sheets and reference cards."""

    def check_deck(self, d: ir.DeckRules) -> None:
        # `let` bindings are typed in order, each over `deck` and the ones before it; the
        # rules below read them all (a per-card rule's `card` is the card being checked).
        bound: Scope = {"deck": "deck"}
        for b in d.bindings:
            if b.name in bound or b.name == "card":
                what = "a name the deck rules already have" if b.name in ("deck", "card") else "bound twice"
                self.error(b.span, "CS0201", f"'let {b.name}' in the deck rules: {what}",
                           "give the value another name")
                continue
            bound[b.name] = self.infer(b.value, dict(bound))
        scope: Scope = {**bound, "card": "card"}
        for s in d.sections:
            for t in s.types:
                self.use("cardtype", t)
                if t not in self.sym.cardtypes:
                    self.error(s.span, "CS0202", f"unknown card type '{t}'", did_you_mean(t, self.sym.cardtypes))
            if s.count is not None:
                self.expect_type(s.count, scope, {"range", "number"}, "a section count")
        names = {s.name for s in d.sections}
        for s in d.sections:
            if s.within is not None and s.within not in names:
                self.error(s.span, "CS0202", f"unknown section '{s.within}'", did_you_mean(s.within, names))
        if d.size is not None:
            self.expect_type(d.size, scope, {"range", "number"}, "a deck size")
        for value, what in ((d.copies, "a copy limit"), (d.allow, "an allow rule"),
                            (d.excluded, "an exclusion rule")):
            if value is not None:
                self.expect_type(value, scope, NUMERIC | {"bool"}, what)
        for r in d.requirements:
            self.expect_type(r.condition, scope, {"bool", "any"}, "a deck rule")
        for summary in d.summaries:
            for value in summary.fields.values():
                self.infer(value, dict(bound))

    def check_layout(self, layout: ir.LayoutDecl) -> None:
        scope: Scope = {"card": "card"}
        size = layout.properties.get("size")
        if isinstance(size, ir.Ref | ir.Text):
            word = size.name if isinstance(size, ir.Ref) else size.value
            if parse_size(word) is None:
                self.error(size.span, "CS0202", f"unknown card size '{word}'",
                           did_you_mean(word, CARD_SIZES) or
                           "use " + ", ".join(CARD_SIZES) + ", or WIDTHxHEIGHT such as \"63mmx88mm\"")
        for key, value in layout.properties.items():
            if not _style_word(key, value):
                self.infer(value, scope)
        for region in layout.regions:
            for key, value in region.properties.items():
                if not _style_word(key, value):
                    self.infer(value, scope)

    def check_sheet(self, sheet: ir.SheetDecl) -> None:
        scope = {**self.base_scope(), "card": "card"}
        for value in sheet.properties.values():
            self.infer(value, scope)

    def check_reference(self, ref: ir.ReferenceDecl) -> None:
        for row in ref.rows:
            for value in row.properties.values():
                self.infer(value, self.base_scope())
