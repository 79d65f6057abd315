"""Card types, cards and keyword declarations.

A card's properties are read against its card type's schema (gathered in pass 1), so a
stat of the wrong type or a misspelt property is reported where it is written. Keyword
declarations live here too: they are the abilities cards name in `keywords:`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardsmith.dsl import ir
from cardsmith.dsl.build_abilities import AbilityBuilder
from cardsmith.dsl.build_common import PLACEHOLDER, CardTypeInfo
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import ExprSyntaxError
from cardsmith.dsl.structure import Entry
from cardsmith.model.values import MAX_COPIES
from cardsmith.util.fastmodel import construct

# Properties every card may have, whatever its type.
CARD_PROPERTIES = ("type", "text", "flavour", "art", "copies", "keywords", "play")


class CardDecls(AbilityBuilder):
    """`cardtype`, `card` and `keyword` declarations."""

    def top_cardtype(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "write cardtype Name { stats { ... } }")
            return
        fields: dict[str, Any] = {"name": name, "singular": name.lower(), "plural": name.lower() + "s",
                                  "stats": [], "properties": [], "enters_with": []}

        def fielddefs(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                for f in e.block or []:
                    if not f.is_prop:
                        self.error(f.head_span(), "CS0205", f"write {f.name}: number = 0")
                        continue
                    try:
                        type_name, default = self.parse_tail(f, "type_tail")
                    except ExprSyntaxError as exc:
                        self._expr_error(exc, f, f"{key} '{f.name}'")
                        continue
                    fields[key].append(ir.FieldDef(span=f.span(), name=f.name, type=type_name,
                                                   default=default))
            return go

        def word_field(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                value = self.word(e)
                if value is not None:
                    fields[key] = value
            return go

        def enters_with(e: Entry) -> None:
            fields["enters_with"] = self.words(e)

        def token(e: Entry) -> None:
            fields["token"] = self.expr(e, "'token'")

        def size(e: Entry) -> None:
            sized: dict[str, Any] = {}
            self._card_size(e, sized)
            if "card_size" in sized:
                fields["size"] = sized["card_size"] if sized["card_size"] != "custom" else \
                    f"{sized['card_width_mm']}x{sized['card_height_mm']}"

        self._walk(entry, f"cardtype '{name}'", {
            "stats": fielddefs("stats"), "properties": fielddefs("properties"),
            "enters": word_field("enters"), "enters_with": enters_with, "layout": word_field("layout"),
            "size": size, "token": token, "plural": word_field("plural"),
            "singular": word_field("singular"),
        })
        self.parts.add("cardtypes", ir.CardTypeDecl(span=entry.span(), **fields))

    def top_card(self, entry: Entry) -> None:
        name = self._string_item(entry)
        if name is None:
            self.error(entry.span(), "CS0204", "a card needs a quoted name", 'write card "Name" { ... }')
            return
        if not self._needs_block(entry):
            return
        fields: dict[str, Any] = {"name": name, "type": "", "stats": {}, "properties": {},
                                  "keywords": [], "abilities": [], "expansion": self.expansion}
        block = entry.block or []
        type_entry = next((e for e in block if e.name == "type" and e.is_prop), None)
        info: CardTypeInfo | None = None
        if type_entry is None:
            self.error(entry.span(), "CS0204", f"card '{name}' has no type",
                       "add type: Unit (a declared cardtype)")
        else:
            type_name = self.word(type_entry)
            if type_name:
                fields["type"] = type_name
                info = self.cardtypes.get(type_name)
                if info is None:
                    self.error(type_entry.items_span(), "CS0202", f"unknown card type '{type_name}'",
                               did_you_mean(type_name, self.cardtypes))
        given: dict[str, Entry] = {}
        for sub in block:
            # `keywords:` may be given once per printed section; any other property once
            if sub.is_prop and sub.name != "keywords":
                first = given.setdefault("flavour" if sub.name == "flavor" else sub.name, sub)
                if first is not sub:
                    where = first.head_span()
                    self.error(sub.head_span(), "CS0201", f"card '{name}' gives '{sub.name}' twice",
                               f"first given at line {where.line}; remove one")
                    continue
            self._card_entry(sub, fields, info, name)
        self.parts.add("cards", construct(ir.CardDecl, span=entry.span(), **fields))

    def _card_entry(self, sub: Entry, fields: dict[str, Any], info: CardTypeInfo | None,
                    card: str) -> None:
        key = sub.name
        if sub.is_prop:
            if key == "type":
                return
            if key in ("text", "flavour", "flavor", "art"):
                fields["flavour" if key == "flavor" else key] = self.text(sub)
            elif key == "copies":
                copies = self.integer(sub)
                if copies is not None and copies > MAX_COPIES:  # `create every copy` makes them all
                    self.error(sub.items_span(), "CS0301", f"{copies:,} copies is too many",
                               f"a card has at most {MAX_COPIES:,} copies (docs/language.md, Limits)")
                elif copies is not None:
                    fields["copies"] = copies
            elif key == "keywords":
                fields["keywords"].extend(self.keyword_uses(sub))
            elif key == "attach":
                # removed: nothing ever read it (a card was played unattached); the rules
                # that play a card attach it, with the host chosen like any target
                self.error(sub.head_span(), "CS0206", "'attach:' on a card is not part of the language any more",
                           "write the attachment in the action that plays the card: "
                           "choose t from a matching card, then attach c to t")
            elif key == "play":
                fields["play_condition"] = self.expr(sub, "'play'")
            elif info is not None and key in info.stats:
                value = self.expr(sub, f"stat '{key}'")
                if value is not None:
                    fields["stats"][key] = value
            elif info is not None and key in info.properties:
                value = self.expr(sub, f"property '{key}'")
                if value is not None:
                    fields["properties"][key] = value
            elif info is not None:
                allowed = [*info.stats, *info.properties, *CARD_PROPERTIES]
                self.unknown(sub, f"card '{card}' (a {fields['type']})", allowed)
            return
        ability = self.ability(sub, card)
        if ability is not None:
            fields["abilities"].append(ability)

    def top_keyword(self, entry: Entry) -> None:
        name, params = self.parse_tail(entry, "decl_tail")
        fields: dict[str, Any] = {"name": str(name), "params": params, "abilities": []}
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "reminder":
                fields["reminder"] = self.text(sub) or ""
                self._check_reminder(sub, fields["reminder"], str(name), [p.name for p in params])
            elif sub.is_prop:
                self.unknown(sub, f"keyword '{name}'", ("reminder",))
            else:
                ability = self.ability(sub, str(name))
                if ability is not None:
                    fields["abilities"].append(ability)
        self.parts.add("keywords", ir.KeywordDecl(span=entry.span(), **fields))

    def _check_reminder(self, entry: Entry, text: str, keyword: str, params: list[str]) -> None:
        """A reminder's `{name}`s must name the keyword's parameters (as a phrase pattern's
        do); any other brace is an error, since it would be printed as it stands."""
        span = entry.items_span()
        for match in PLACEHOLDER.finditer(text):
            if match.group(1) not in params:
                listed = ", ".join("{" + p + "}" for p in params)
                self.error(span, "CS0202", f"reminder of '{keyword}' names '{match.group(0)}', "
                           "which is not a parameter",
                           did_you_mean(match.group(1), params) or
                           (f"its parameters are {listed}" if params else f"'{keyword}' has no parameters"))
        rest = PLACEHOLDER.sub("", text)
        if "{" in rest or "}" in rest:
            self.error(span, "CS0301", f"reminder of '{keyword}' has a stray '{{' or '}}'",
                       "a placeholder is written {name}, naming a parameter of the keyword")

