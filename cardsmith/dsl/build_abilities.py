"""Abilities: what cards and keywords do (effects, triggers, hooks, activations, statics).

Cards and keywords hold the same abilities, and the game-level `on`/`before`/`after`/
`instead` declarations and actions reuse the trigger, hook and speed readers, so they
sit in one module that both `build_cards` and `build_rules` build on.
"""

from __future__ import annotations

from typing import Any

from cardsmith.dsl import fastexpr, ir
from cardsmith.dsl.build_statements import StatementBuilder
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import ExprSyntaxError, merge
from cardsmith.dsl.structure import Entry
from cardsmith.util.fastmodel import construct


class AbilityBuilder(StatementBuilder):
    """Ability entries → ir.Ability, and keyword lists (`keywords:`, `grants:`)."""

    def keyword_uses(self, entry: Entry) -> list[ir.KeywordUse]:
        assert entry.source is not None
        try:
            uses = fastexpr.keyword_list(entry.source, entry.items) or \
                self.parse_tail(entry, "keyword_list")
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, "the keyword list")
            return []
        out = []
        for tok, args in uses:
            span = self._tok_span(entry, tok)
            if args:
                span = merge(span, args[-1].span)
            out.append(construct(ir.KeywordUse, span=span, name=str(tok), args=args))
        return out

    ABILITY_HEADS = ("effect", "on", "activate", "static", "before", "after", "instead")

    def ability(self, entry: Entry, owner: str) -> ir.Ability | None:
        head = entry.name
        try:
            if head == "effect":
                if entry.items:
                    self.error(entry.items_span(), "CS0301", "write effect { ... }")
                return construct(ir.Effect, span=entry.span(), body=self.body(entry))
            if head == "on":
                return self.trigger(entry)
            if head in ("before", "after", "instead"):
                return self.hook(entry)
            if head == "activate":
                return self.activated(entry)
            if head == "static":
                return self.static(entry)
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, f"'{head}'")
            return None
        self.unknown(entry, f"'{owner}'", self.ABILITY_HEADS)
        return None

    def trigger(self, entry: Entry) -> ir.Trigger:
        event, binds, cond = self.parse_tail(entry, "trigger_tail")
        zones: list[str] = []
        body: list[ir.Stmt] = []
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "zones":
                zones = self.words(sub)
            else:
                rest.append(sub)
        if entry.block is None:
            self.error(entry.span(), "CS0204", "a trigger needs a { } block")
        body = self.statements(rest, entry)
        return ir.Trigger(span=entry.span(), event=str(event), bindings=[str(b) for b in binds],
                          condition=cond, zones=zones, body=body)

    def hook(self, entry: Entry) -> ir.Hook:
        when = entry.name
        if when == "instead" and not (entry.items and str(entry.items[0]) == "of"):
            self.error(entry.span(), "CS0101", "write 'instead of procedure { ... }'")
        proc, cond = self.parse_tail(entry, "hook_tail")
        return ir.Hook(span=entry.span(), when=when, procedure=str(proc), condition=cond,
                       body=self.body(entry))

    def _speed(self, e: Entry, fields: dict[str, Any]) -> None:
        value = self.word(e)
        if value in ("immediate", "stack", "instant"):
            fields["speed"] = value
        elif value is not None:
            self.error(e.items_span(), "CS0301", f"unknown speed '{value}'",
                       did_you_mean(value, ("immediate", "stack", "instant")) or
                       "use immediate, stack or instant")

    def activated(self, entry: Entry) -> ir.Activated:
        label = self._string_item(entry) or "Activate"
        fields: dict[str, Any] = {"label": label, "cost": [], "body": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "speed":
                self._speed(sub, fields)
            elif sub.is_prop and sub.name == "condition":
                fields["condition"] = self.expr(sub, "'condition'")
            elif sub.name == "cost" and not sub.is_prop:
                fields["cost"] = self.body(sub)
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        return ir.Activated(span=entry.span(), **fields)

    def static(self, entry: Entry) -> ir.Static:
        fields: dict[str, Any] = {"modifiers": [], "grants": []}
        for sub in entry.block or []:
            if sub.is_prop and sub.name in ("target", "affects"):
                fields["target"] = self.expr(sub, "'target'")
            elif sub.is_prop and sub.name in ("while", "condition"):
                fields["condition"] = self.expr(sub, "'while'")
            elif sub.is_prop and sub.name == "grants":
                fields["grants"] = self.keyword_uses(sub)
            elif sub.is_prop:
                value = self._modifier(sub)
                if value is not None:
                    fields["modifiers"].append(value)
            else:
                self.error(sub.head_span(), "CS0205",
                           "a static block holds 'target:', 'while:', 'grants:' and 'stat: +N' lines")
        return ir.Static(span=entry.span(), **fields)

    def _modifier(self, e: Entry) -> ir.Modifier | None:
        if not e.items:
            self.error(e.head_span(), "CS0204", f"write {e.name}: +1")
            return None
        first = str(e.items[0])
        op = first if first in ("+", "-", "=") else "="
        tokens = e.items[1:] if first in ("+", "-", "=") else e.items
        if not tokens:
            self.error(e.items_span(), "CS0204", f"write {e.name}: +1")
            return None
        try:
            value = self.tokens_expr(e, tokens)
        except ExprSyntaxError as exc:
            self._expr_error(exc, e, f"the modifier of '{e.name}'")
            return None
        return ir.Modifier(span=e.span(), stat=e.name, op=op, value=value)

