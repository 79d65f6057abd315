"""Card types, cards, keywords and the abilities they carry.

A card is checked against its card type (every required stat given, each value of
the field's type), its keywords against their declarations, and each ability
(effect, trigger, hook, activated, static) in the card's scope. Triggers and hooks
also stand alone in the rules; they are checked here the same way.
"""

from __future__ import annotations

from cardsmith.compiler.check_stmts import StatementChecker
from cardsmith.compiler.check_types import NUMERIC, Scope
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean


class CardChecker(StatementChecker):
    """Checks card types, cards, keywords, abilities, triggers and hooks."""

    def check_cardtype(self, t: ir.CardTypeDecl) -> None:
        for f in (*t.stats, *t.properties):
            self.check_type_name(f)
            if f.default is not None:
                self.check_field_value(f, f.default)
        names = [f.name for f in (*t.stats, *t.properties)]
        for name in set(names):
            if names.count(name) > 1:
                self.error(t.span, "CS0201", f"card type '{t.name}' declares '{name}' twice")
        if t.enters is not None:
            self.use("zone", t.enters)
            if t.enters not in self.sym.zones:
                self.error(t.span, "CS0202", f"card type '{t.name}' enters unknown zone '{t.enters}'",
                           did_you_mean(t.enters, self.sym.zones))
        for status in t.enters_with:
            self.use("status", status)
            if status not in self.sym.statuses:
                self.error(t.span, "CS0202", f"unknown status '{status}'",
                           did_you_mean(status, self.sym.statuses))
        if t.layout is not None:
            self.use("layout", t.layout)
            if t.layout not in self.sym.layouts:
                self.error(t.span, "CS0202", f"unknown layout '{t.layout}'",
                           did_you_mean(t.layout, self.sym.layouts))
        if t.token is not None:
            self.expect_type(t.token, {"card": "card"}, {"bool", "any"}, "a token rule")

    def check_field_value(self, f: ir.FieldDef, value: ir.Expr) -> None:
        if f.type in self.sym.enums:
            self.use("enum", f.type)
            enum = self.sym.enums[f.type]
            names = [v.name for v in enum.values]
            if isinstance(value, ir.Attr) and isinstance(value.obj, ir.Ref) and value.obj.name == f.type:
                value = ir.Ref(span=value.span, name=value.name)
            if not isinstance(value, ir.Ref) or value.name not in names:
                shown = value.name if isinstance(value, ir.Ref) else "this"
                self.error(value.span, "CS0202", f"'{shown}' is not a {f.type}",
                           did_you_mean(shown, names) or "expected one of: " + ", ".join(names))
            else:
                self.use("enumvalue", value.name)
            return
        if f.type == "number":
            self.expect_type(value, {}, {"number", "any"}, f"'{f.name}'")
        elif f.type == "text":
            self.expect_type(value, {}, {"text", "any"}, f"'{f.name}'")
        elif f.type == "bool":
            self.expect_type(value, {}, {"bool", "any"}, f"'{f.name}'")
        elif f.type == "dice":
            self.expect_type(value, {}, {"dice", "number", "none", "any"}, f"'{f.name}'", "dice (like 2d6) or a number")

    def check_card(self, c: ir.CardDecl) -> None:
        t = self.sym.cardtypes.get(c.type)
        if t is not None:
            self.use("cardtype", t.name)
            declared = {f.name: f for f in (*t.stats, *t.properties)}
            for f in (*t.stats, *t.properties):
                given = c.stats.get(f.name) if f in t.stats else c.properties.get(f.name)
                if given is None:
                    if f.default is None:
                        self.error(c.span, "CS0402", f"card '{c.name}' misses {f.name}",
                                   f"add {f.name}: ... (required by card type {t.name})")
                    continue
                self.check_field_value(declared[f.name], given)
        if c.copies < 0:
            self.error(c.span, "CS0301", "copies cannot be negative")
        scope: Scope = {"self": "card", "card": "card"}
        for use in c.keywords:
            self.check_keyword_use(use, scope)
        if c.play_condition is not None:
            self.expect_type(c.play_condition, scope, {"bool", "any"}, "a play condition")
        for ability in c.abilities:
            self.check_ability(ability, scope)

    def check_keyword_use(self, use: ir.KeywordUse, scope: Scope) -> None:
        kw = self.sym.keywords.get(use.name)
        if kw is None:
            if use.name not in self.broken:
                self.error(use.span, "CS0501", f"unknown keyword '{use.name}'",
                           did_you_mean(use.name, self.sym.keywords))
            return
        self.use("keyword", kw.name)
        required = sum(1 for p in kw.params if p.default is None)
        if not required <= len(use.args) <= len(kw.params):
            want = str(required) if required == len(kw.params) else f"{required} to {len(kw.params)}"
            example = kw.name + "".join(f" {p.name.upper()}" for p in kw.params)
            self.error(use.span, "CS0502",
                       f"keyword '{kw.name}' takes {want} argument(s), {len(use.args)} given",
                       f"write {example}")
        for arg in use.args:
            self.infer(arg, scope)

    def check_keyword(self, k: ir.KeywordDecl) -> None:
        scope = {"self": "card", **self.param_scope(k.params)}
        for ability in k.abilities:
            self.check_ability(ability, scope)

    def check_ability(self, ability: ir.Ability, scope: Scope) -> None:
        if isinstance(ability, ir.Effect):
            self.block(ability.body, dict(scope))
        elif isinstance(ability, ir.Trigger):
            self.check_trigger(ability, scope)
        elif isinstance(ability, ir.Hook):
            self.check_hook(ability, scope)
        elif isinstance(ability, ir.Activated):
            inner = dict(scope)
            if ability.condition is not None:
                self.expect_type(ability.condition, inner, {"bool", "any"}, "a condition")
            self.block(ability.cost, inner)
            self.block(ability.body, inner)
        elif isinstance(ability, ir.Static):
            inner = dict(scope)
            if ability.target is not None:
                self.infer(ability.target, inner)
            if ability.condition is not None:
                self.expect_type(ability.condition, inner, {"bool", "any"}, "a condition")
            for m in ability.modifiers:
                if self.sym.card_field_type(m.stat) is None:
                    self.error(m.span, "CS0202", f"unknown stat '{m.stat}'",
                               did_you_mean(m.stat, self.sym.card_field_names()))
                self.expect_type(m.value, inner, NUMERIC | {"bool", "text"}, "a modifier")
            for g in ability.grants:
                self.check_keyword_use(g, inner)

    def check_trigger(self, t: ir.Trigger, scope: Scope) -> None:
        event = self.sym.events.get(t.event)
        inner = dict(scope)
        # the values the trigger names: typed by the event below; of unknown type when the
        # event is unknown, so the condition and body are checked without an error per use
        inner.update({name: "any" for name in t.bindings})
        if event is None:
            if t.event not in self.broken:
                self.error(t.span, "CS0202", f"unknown event '{t.event}'",
                           did_you_mean(t.event, self.sym.events))
        else:
            self.use("event", event.name)
            if len(t.bindings) > len(event.params):
                self.error(t.span, "CS0502", f"event '{event.name}' has {len(event.params)} "
                           f"value(s), {len(t.bindings)} named")
            for p in event.params:
                inner[p.name] = self.param_value_type(p.type)
            for name, p in zip(t.bindings, event.params, strict=False):
                inner[name] = self.param_value_type(p.type)
        for zone in t.zones:
            self.use("zone", zone)
            if zone not in self.sym.zones:
                self.error(t.span, "CS0202", f"unknown zone '{zone}'", did_you_mean(zone, self.sym.zones))
        if t.condition is not None:
            self.expect_type(t.condition, inner, {"bool", "any"}, "a trigger condition")
        self.block(t.body, inner)

    def check_hook(self, h: ir.Hook, scope: Scope) -> None:
        proc = self.sym.procedures.get(h.procedure)
        inner = dict(scope)
        if proc is None:
            if h.procedure not in self.broken:
                self.error(h.span, "CS0202", f"unknown procedure '{h.procedure}'",
                           did_you_mean(h.procedure, self.sym.procedures))
        else:
            self.use("procedure", proc.name)
            for p in proc.params:
                inner[p.name] = self.param_value_type(p.type)
        if h.condition is not None:
            self.expect_type(h.condition, inner, {"bool", "any"}, "a hook condition")
        self.block(h.body, inner)
