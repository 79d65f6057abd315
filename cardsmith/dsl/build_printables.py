"""Printable declarations: card layouts, player sheets and reference cards.

They only describe how things are printed (cardsmith/printables reads them), never how
a match plays, and have their own checks (font sizes), so they are built apart.
"""

from __future__ import annotations

from cardsmith.dsl import ir
from cardsmith.dsl.build_common import BuilderBase
from cardsmith.dsl.exprparse import ExprSyntaxError, number_too_large
from cardsmith.dsl.structure import Entry

# The largest font size a layout may ask for (a whole poker card is about 250pt high).
MAX_FONT_PT = 200.0


class PrintableDecls(BuilderBase):
    """`layout`, `sheet` and `reference` declarations."""

    def _props(self, entry: Entry, where: str) -> dict[str, ir.Expr]:
        props: dict[str, ir.Expr] = {}
        for sub in entry.block or []:
            if sub.is_prop:
                value = self.expr(sub, f"'{sub.name}'")
                if value is not None:
                    props[sub.name] = value
        return props

    def _font_or_expr(self, sub: Entry) -> ir.Expr | None:
        if sub.name == "font":
            # `font: bold 10pt` is a list of words and a size, kept as text for printables
            self._check_font(sub)
            span = sub.items_span()
            return ir.Text(span=span, value=" ".join(str(t) for t in sub.items))
        return self.expr(sub, f"'{sub.name}'")

    def _check_font(self, sub: Entry) -> None:
        """The size in `font: bold 10pt` must be in pt, above 0 and at most MAX_FONT_PT."""
        hint = f"write a size from 1pt to {MAX_FONT_PT:g}pt, e.g. font: bold 10pt"
        for i, tok in enumerate(sub.items):
            span = self._tok_span(sub, tok)
            if tok.type == "OP" and str(tok) == "-" and i + 1 < len(sub.items) and \
                    sub.items[i + 1].type in ("DIM", "NUMBER"):
                self.error(span, "CS0301", "a font size cannot be negative", hint)
                return
            if tok.type == "NUMBER":
                self.error(span, "CS0301", "a font size needs its unit", f"write {tok}pt")
                return
            if tok.type != "DIM":
                continue
            if number_too_large(tok):
                self.error(span, "CS0301", "this number is too large", hint)
                return
            text = str(tok)
            if not text.endswith("pt"):
                self.error(span, "CS0301", f"a font size is given in pt, not {text[-2:]}", hint)
                return
            size = float(text[:-2])
            if size <= 0:
                self.error(span, "CS0301", f"a font size must be more than 0pt, not {text}", hint)
            elif size > MAX_FONT_PT:
                self.error(span, "CS0301", f"a font size of {text} is too large", hint)

    def top_layout(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "write layout name { region ... }")
            return
        props: dict[str, ir.Expr] = {}
        regions: list[ir.LayoutRegion] = []
        for sub in entry.block or []:
            if sub.name == "region" and not sub.is_prop:
                rname = self._first_word(sub) or "region"
                rprops: dict[str, ir.Expr] = {}
                for p in sub.block or []:
                    if not p.is_prop:
                        self.error(p.head_span(), "CS0205", "a region holds 'name: value' properties")
                        continue
                    value = self._font_or_expr(p)
                    if value is not None:
                        rprops[p.name] = value
                regions.append(ir.LayoutRegion(span=sub.span(), name=rname, properties=rprops))
            elif sub.is_prop:
                value = self._font_or_expr(sub)
                if value is not None:
                    props[sub.name] = value
            else:
                self.error(sub.head_span(), "CS0205", "a layout holds properties and regions")
        self.parts.add("layouts", ir.LayoutDecl(span=entry.span(), name=name, properties=props,
                                                regions=regions))

    def top_sheet(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write sheet name "Label" { ... }')
            return
        label = self._string_item(entry, 1) or name
        props: dict[str, ir.Expr] = {}
        for sub in entry.block or []:
            if not sub.is_prop:
                self.error(sub.head_span(), "CS0205", "a sheet holds 'name: value' properties")
                continue
            if sub.name == "checkboxes":
                try:
                    items = self.parse_tail(sub, "expr_list")
                except ExprSyntaxError as exc:
                    self._expr_error(exc, sub, "the checkboxes")
                    continue
                props["checkboxes"] = ir.ListExpr(span=sub.items_span(), items=items)
                continue
            value = self.expr(sub, f"'{sub.name}'")
            if value is not None:
                props[sub.name] = value
        self.parts.add("sheets", ir.SheetDecl(span=entry.span(), name=name, label=label, properties=props))

    def top_reference(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write reference name "Label" { row "..." { ... } }')
            return
        label = self._string_item(entry, 1) or name
        rows: list[ir.ReferenceRow] = []
        props: dict[str, ir.Expr] = {}
        for sub in entry.block or []:
            if sub.name == "row" and not sub.is_prop:
                rlabel = self._string_item(sub)
                if rlabel is None:
                    self.error(sub.span(), "CS0204", 'write row "Label" { ... }')
                    continue
                rows.append(ir.ReferenceRow(span=sub.span(), label=rlabel,
                                            properties=self._props(sub, "row")))
            elif sub.is_prop:
                value = self.expr(sub, f"'{sub.name}'")
                if value is not None:
                    props[sub.name] = value
            else:
                self.error(sub.head_span(), "CS0205", "a reference holds rows and properties")
        self.parts.add("references", ir.ReferenceDecl(span=entry.span(), name=name, label=label,
                                                      rows=rows, properties=props))

