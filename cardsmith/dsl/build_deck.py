"""Deck-building rules: the `deck` declaration with its sections, requirements and summaries.

They constrain the decks players bring, not the play of a match, and are checked by the
deck tools (cardsmith/decks), so they are built apart from the rules of play.
"""

from __future__ import annotations

from typing import Any

from cardsmith.dsl import ir
from cardsmith.dsl.build_common import BuilderBase
from cardsmith.dsl.exprparse import ExprSyntaxError
from cardsmith.dsl.structure import Entry


class DeckDecls(BuilderBase):
    """`deck { ... }` → ir.DeckRules."""

    def top_deck(self, entry: Entry) -> None:
        if not self._needs_block(entry):
            return
        fields: dict[str, Any] = {"sections": [], "bindings": [], "requirements": [], "summaries": []}
        for sub in entry.block or []:
            key = sub.name
            if key == "section" and not sub.is_prop:
                fields["sections"].append(self._deck_section(sub))
            elif key == "let" and not sub.is_prop:
                binding = self._deck_binding(sub)
                if binding is not None:
                    fields["bindings"].append(binding)
            elif key == "summary" and not sub.is_prop:
                label = self._string_item(sub)
                if label is None or sub.block is None:
                    self.error(sub.span(), "CS0204", 'write summary "Label" { field: expression }')
                    continue
                values: dict[str, ir.Expr] = {}
                for f in sub.block:
                    if not f.is_prop:
                        self.error(f.head_span(), "CS0205", "a summary holds 'name: expression' lines")
                        continue
                    value = self.expr(f, f"summary field '{f.name}'")
                    if value is not None:
                        values[f.name] = value
                fields["summaries"].append(ir.DeckSummary(span=sub.span(), label=label, fields=values))
            elif sub.is_prop and key in ("size", "copies", "allow", "excluded"):
                fields[key] = self.expr(sub, f"'{key}'")
            elif key in ("require", "forbid") and not sub.is_prop:
                message = self._string_item(sub)
                if message is None or len(sub.items) < 3 or str(sub.items[1]) != ":":
                    self.error(sub.span(), "CS0204", f'write {key} "message": condition')
                    continue
                try:
                    cond = self.tokens_expr(sub, sub.items[2:])
                except ExprSyntaxError as exc:
                    self._expr_error(exc, sub, f"the {key} rule")
                    continue
                fields["requirements"].append(ir.DeckRequirement(
                    span=sub.span(), message=message, condition=cond, forbid=key == "forbid"))
            else:
                self.unknown(sub, "deck", ("section", "let", "size", "copies", "allow", "excluded",
                                           "require", "forbid", "summary"))
        self.parts.deck.append(ir.DeckRules(span=entry.span(), **fields))

    def _deck_binding(self, entry: Entry) -> ir.DeckBinding | None:
        """`let name = expression`: written as a statement's `let` is, so it reads alike."""
        items = entry.items
        if (len(items) < 3 or items[0].type != "WORD" or str(items[1]) != "=" or entry.block is not None):
            self.error(entry.span(), "CS0204", "write let name = expression")
            return None
        try:
            value = self.tokens_expr(entry, items[2:])
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, f"'let {items[0]}'")
            return None
        return ir.DeckBinding(span=entry.span(), name=str(items[0]), value=value)

    def _deck_section(self, entry: Entry) -> ir.DeckSection:
        name = self._first_word(entry) or "Deck"
        fields: dict[str, Any] = {"name": name}
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "types":
                fields["types"] = self.words(sub)
            elif sub.is_prop and sub.name in ("count", "size"):
                fields["count"] = self.expr(sub, "'count'")
            elif sub.name in ("counts_toward_size", "optional"):
                fields[sub.name] = self.flag(sub)
            elif sub.is_prop and sub.name == "within":
                fields["within"] = self.word(sub)
            else:
                self.unknown(sub, f"section '{name}'", ("types", "count", "counts_toward_size",
                                                         "optional", "within"))
        return ir.DeckSection(span=entry.span(), **fields)

