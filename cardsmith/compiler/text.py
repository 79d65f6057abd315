"""English rules text generated from the IR.

Phrase patterns are English already ("deal {amount} damage to {target}"), so a
resolved statement renders by filling its pattern with its rendered arguments. The
same IR that the engine runs produces the text printed on the card, so the card says
what the engine does.

Expressions, statements and abilities each have a visitor (cardsmith/dsl/visitor.py)
with one method per node kind, so a node kind added to the language fails
tests/test_visitors.py until it has words here.
"""

from __future__ import annotations

import re
from fractions import Fraction

from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor, members

_COMPARE_WORDS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
                  ">": "is greater than", ">=": "is at least"}
_SELF_WORDS = {"self": "this card", "you": "you", "opponent": "your opponent", "it": "it",
               "current": "the current player", "players": "each player"}
_DETERMINERS = {"each": "each", "every": "every", "all": "all", "random": "a random",
                "another": "another", "target": "target", "a": "a", "an": "an", "any": "any"}


def _words(name: str) -> str:
    return name.replace("_", " ")


class _ExprText(Visitor):
    """An expression as the words printed on a card: one method per kind of expression."""

    covers = members(ir.Expr)

    def visit_Num(self, e: ir.Num) -> str:
        return str(e.num) if e.den == 1 else str(float(Fraction(e.num, e.den)))

    def visit_Text(self, e: ir.Text) -> str:
        return e.value

    def visit_Bool(self, e: ir.Bool) -> str:
        return "yes" if e.value else "no"

    def visit_NoneLit(self, e: ir.NoneLit) -> str:
        return "nothing"

    def visit_Dice(self, e: ir.Dice) -> str:
        return f"{e.count if e.count > 1 else ''}d{e.sides}"

    def visit_Dim(self, e: ir.Dim) -> str:
        return e.written

    def visit_Ref(self, e: ir.Ref) -> str:
        return _SELF_WORDS.get(e.name, _words(e.name))

    def visit_CardRef(self, e: ir.CardRef) -> str:
        return e.name

    def visit_Attr(self, e: ir.Attr) -> str:
        if isinstance(e.obj, ir.Ref) and e.obj.name == "you":
            return f"your {_words(e.name)}"
        if isinstance(e.obj, ir.Ref) and e.obj.name == "self":
            return f"this card's {_words(e.name)}"
        return f"{self.visit(e.obj)}'s {_words(e.name)}"

    def visit_Call(self, e: ir.Call) -> str:
        args = [self.visit(a) for a in e.args]
        if e.func == "count" and args:
            return f"the number of {args[0]}"
        if e.func == "sum" and len(args) == 2:
            return f"the total {args[1]} of {args[0]}"
        if e.func == "create" and args:
            return f"a new {args[0]} in {args[1] if len(args) > 1 else 'play'}"
        return f"{_words(e.func)}({', '.join(args)})"

    def visit_Index(self, e: ir.Index) -> str:
        return f"{self.visit(e.obj)}[{self.visit(e.index)}]"

    def visit_BinOp(self, e: ir.BinOp) -> str:
        if e.op == "//":
            return f"half of {self.visit(e.left)}, rounded down" if _is(e.right, 2) else \
                f"{self.visit(e.left)} divided by {self.visit(e.right)}, rounded down"
        return f"{self.visit(e.left)} {e.op} {self.visit(e.right)}"

    def visit_Neg(self, e: ir.Neg) -> str:
        return f"-{self.visit(e.operand)}"

    def visit_Compare(self, e: ir.Compare) -> str:
        return f"{self.visit(e.left)} {_COMPARE_WORDS[e.op]} {self.visit(e.right)}"

    def visit_Logic(self, e: ir.Logic) -> str:
        return f"{self.visit(e.left)} {e.op} {self.visit(e.right)}"

    def visit_Not(self, e: ir.Not) -> str:
        return f"not {self.visit(e.operand)}"

    def visit_Contains(self, e: ir.Contains) -> str:
        return f"{self.visit(e.item)} {'is not' if e.negated else 'is'} in {self.visit(e.collection)}"

    def visit_IsTest(self, e: ir.IsTest) -> str:
        return f"{self.visit(e.value)} is {'not ' if e.negated else ''}{' '.join(_words(w) for w in e.words)}"

    def visit_Conditional(self, e: ir.Conditional) -> str:
        # (printed as "?" before: `if c then a else b` had no wording)
        return f"{render_expr(e.then)} if {render_expr(e.condition)}, otherwise {render_expr(e.otherwise)}"

    def visit_RangeExpr(self, e: ir.RangeExpr) -> str:
        if e.high is None:
            return f"{render_expr(e.low)} or more"
        if e.low is None:
            return f"up to {self.visit(e.high)}"
        return f"{self.visit(e.low)} to {self.visit(e.high)}"

    def visit_ListExpr(self, e: ir.ListExpr) -> str:
        return ", ".join(self.visit(i) for i in e.items)

    def visit_Roll(self, e: ir.Roll) -> str:
        return f"a {self.visit(e.dice)} roll"

    def visit_TopOf(self, e: ir.TopOf) -> str:
        where = "bottom" if e.bottom else "top"
        if e.count is None:
            return f"the {where} card of {self.visit(e.zone)}"
        return f"the {where} {self.visit(e.count)} cards of {self.visit(e.zone)}"

    def visit_Query(self, e: ir.Query) -> str:
        parts = [_DETERMINERS.get(e.det, e.det)]
        if e.count is not None:
            parts.append(("up to " if e.up_to else "") + self.visit(e.count))
        parts.extend(_words(a) for a in e.adjectives)
        parts.append(_words(e.noun))
        if e.zone is not None:
            parts.append("in " + self.visit(e.zone))
        if e.where is not None:
            parts.append("where " + self.visit(e.where))
        return " ".join(parts)


_EXPR_TEXT = _ExprText()


def render_expr(e: ir.Expr | None) -> str:
    if e is None:
        return ""
    text: str = _EXPR_TEXT.visit(e)
    return text


def _is(e: ir.Expr, value: int) -> bool:
    return isinstance(e, ir.Num) and e.den == 1 and e.num == value


def _duration(d: ir.Duration | None) -> str:
    if d is None or d.kind == "permanently":
        return ""
    if d.kind == "until_end":
        return f" until end of {_words(d.period or 'turn')}"
    if d.kind == "until_next":
        return f" until your next {_words(d.period or 'turn')}"
    return f" while {render_expr(d.condition)}"


class _StmtText(Visitor):
    """A statement as a clause of rules text; `procedures` supplies an invoked
    procedure's own phrase when the call site wrote none."""

    covers = members(ir.Stmt)

    def visit_Invoke(self, s: ir.Invoke, procedures: dict[str, ir.ProcedureDecl]) -> str:
        pattern = s.phrase
        if not pattern:
            proc = procedures.get(s.procedure)
            pattern = proc.patterns[0] if proc and proc.patterns else _words(s.procedure)
        return fill_placeholders(pattern, {name: render_expr(value) for name, value in s.args.items()})

    def visit_Assign(self, s: ir.Assign, procedures: dict[str, ir.ProcedureDecl]) -> str:
        if s.op == "set":
            return f"set {render_expr(s.target)} to {render_expr(s.value)}{_duration(s.duration)}"
        sign = "+" if s.op == "increase" else "-"
        if isinstance(s.target, ir.Attr):
            return (f"{render_expr(s.target.obj)} gets {sign}{render_expr(s.value)} "
                    f"{_words(s.target.name)}{_duration(s.duration)}")
        return f"{s.op} {render_expr(s.target)} by {render_expr(s.value)}{_duration(s.duration)}"

    def visit_If(self, s: ir.If, procedures: dict[str, ir.ProcedureDecl]) -> str:
        parts = []
        for i, b in enumerate(s.branches):
            lead = "if" if i == 0 else "otherwise, if"
            parts.append(f"{lead} {render_expr(b.condition)}, {render_body(b.body, procedures)}")
        if s.orelse:
            parts.append(f"otherwise, {render_body(s.orelse, procedures)}")
        return "; ".join(parts)

    def visit_ForEach(self, s: ir.ForEach, procedures: dict[str, ir.ProcedureDecl]) -> str:
        return f"for each {_words(s.var)} in {render_expr(s.source)}, {render_body(s.body, procedures)}"

    def visit_Repeat(self, s: ir.Repeat, procedures: dict[str, ir.ProcedureDecl]) -> str:
        return f"{render_body(s.body, procedures)} ({render_expr(s.count)} times)"

    def visit_While(self, s: ir.While, procedures: dict[str, ir.ProcedureDecl]) -> str:
        return f"while {render_expr(s.condition)}, {render_body(s.body, procedures)}"

    def visit_Choose(self, s: ir.Choose, procedures: dict[str, ir.ProcedureDecl]) -> str:
        who = "" if s.by is None else f"{render_expr(s.by)} "
        count = {"one": "", "exact": f"{render_expr(s.count.n)} ", "up_to": f"up to {render_expr(s.count.n)} ",
                 "any": "any number of "}[s.count.mode]
        verb = "chooses" if s.by is not None else "choose"
        return f"{who}{verb} {count}{render_expr(s.source)}"

    def visit_ChooseOne(self, s: ir.ChooseOne, procedures: dict[str, ir.ProcedureDecl]) -> str:
        opts = "; or ".join(f"{o.label}: {render_body(o.body, procedures)}" for o in s.options)
        return f"choose one — {opts}"

    def visit_Simultaneously(self, s: ir.Simultaneously, procedures: dict[str, ir.ProcedureDecl]) -> str:
        return f"at the same time, {render_body(s.body, procedures)}"

    def visit_Cancel(self, s: ir.Cancel, procedures: dict[str, ir.ProcedureDecl]) -> str:
        return "prevent it"

    def _unprinted(self, s: ir.Stmt, procedures: dict[str, ir.ProcedureDecl]) -> str:
        """Bindings, events and control flow are how the rules work, not what the card
        says: they print nothing, and render_body drops the empty clause."""
        return ""

    visit_Let = visit_Emit = visit_Return = visit_Perform = visit_Expect = _unprinted


_STMT_TEXT = _StmtText()


def render_stmt(s: ir.Stmt, procedures: dict[str, ir.ProcedureDecl]) -> str:
    text: str = _STMT_TEXT.visit(s, procedures)
    return text


def render_body(body: list[ir.Stmt], procedures: dict[str, ir.ProcedureDecl]) -> str:
    parts = [render_stmt(s, procedures) for s in body]
    return ", then ".join(p for p in parts if p)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


class _AbilityText(Visitor):
    """An ability as one sentence of rules text."""

    covers = members(ir.Ability)

    def visit_Effect(self, a: ir.Effect, procedures: dict[str, ir.ProcedureDecl]) -> str:
        return _sentence(render_body(a.body, procedures))

    def visit_Trigger(self, a: ir.Trigger, procedures: dict[str, ir.ProcedureDecl]) -> str:
        cond = f" if {render_expr(a.condition)}" if a.condition is not None else ""
        return _sentence(f"when {_words(a.event)}{cond}, {render_body(a.body, procedures)}")

    def visit_Activated(self, a: ir.Activated, procedures: dict[str, ir.ProcedureDecl]) -> str:
        cost = render_body(a.cost, procedures)
        lead = f"{cost}: " if cost else f"{a.label}: "
        return _sentence(lead + render_body(a.body, procedures))

    def visit_Static(self, a: ir.Static, procedures: dict[str, ir.ProcedureDecl]) -> str:
        mods = ", ".join(f"{m.op if m.op != '=' else ''}{render_expr(m.value)} {_words(m.stat)}"
                         for m in a.modifiers)
        target = render_expr(a.target) if a.target is not None else "this card"
        cond = f" while {render_expr(a.condition)}" if a.condition is not None else ""
        return _sentence(f"{target} get {mods}{cond}")

    def visit_Hook(self, a: ir.Hook, procedures: dict[str, ir.ProcedureDecl]) -> str:
        cond = f" where {render_expr(a.condition)}" if a.condition is not None else ""
        when = {"before": "before", "after": "after", "instead": "instead of"}[a.when]
        return _sentence(f"{when} {_words(a.procedure)}{cond}: {render_body(a.body, procedures)}")


_ABILITY_TEXT = _AbilityText()


def ability_text(a: ir.Ability, procedures: dict[str, ir.ProcedureDecl]) -> str:
    text: str = _ABILITY_TEXT.visit(a, procedures)
    return text


def keyword_reminder(kw: ir.KeywordDecl, use: ir.KeywordUse) -> str:
    return fill_placeholders(kw.reminder, {p.name: render_expr(arg)
                                           for p, arg in zip(kw.params, use.args, strict=False)})


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill_placeholders(template: str, values: dict[str, str]) -> str:
    """Replace each `{name}` of `template` in one pass. One pass matters: a filled-in
    value (a card's name, a string literal) is data, and a `{...}` inside it must print
    as written rather than be expanded by a later parameter's replacement."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def generated_text(game: ir.Game, card: ir.CardDecl) -> str:
    procedures = {p.name: p for p in game.procedures}
    keywords = {k.name: k for k in game.keywords}
    parts: list[str] = []
    for use in card.keywords:
        kw = keywords.get(use.name)
        label = use.name.replace("_", " ") + "".join(f" {render_expr(a)}" for a in use.args)
        reminder = keyword_reminder(kw, use) if kw is not None else ""
        parts.append(f"{label} ({reminder})" if reminder else label)
    for ability in card.abilities:
        text = ability_text(ability, procedures)
        if text:
            parts.append(text)
    return " ".join(parts)


def card_text(game: ir.Game, card: ir.CardDecl) -> str:
    """The printed rules text: the designer's own, or generated from the card's effects."""
    if card.text is not None:
        return card.text
    return generated_text(game, card)
