"""English rules text generated from the IR.

Phrase patterns are English already ("deal {amount} damage to {target}"), so a
resolved statement renders by filling its pattern with its rendered arguments. The
same IR that the engine runs produces the text printed on the card, so the card says
what the engine does.
"""

from __future__ import annotations

import re
from fractions import Fraction

from cardsmith.dsl import ir

_COMPARE_WORDS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
                  ">": "is greater than", ">=": "is at least"}
_SELF_WORDS = {"self": "this card", "you": "you", "opponent": "your opponent", "it": "it",
               "current": "the current player", "players": "each player"}


def _words(name: str) -> str:
    return name.replace("_", " ")


def render_expr(e: ir.Expr | None) -> str:
    if e is None:
        return ""
    if isinstance(e, ir.Num):
        return str(e.num) if e.den == 1 else str(float(Fraction(e.num, e.den)))
    if isinstance(e, ir.Text):
        return e.value
    if isinstance(e, ir.Bool):
        return "yes" if e.value else "no"
    if isinstance(e, ir.NoneLit):
        return "nothing"
    if isinstance(e, ir.Dice):
        return f"{e.count if e.count > 1 else ''}d{e.sides}"
    if isinstance(e, ir.Dim):
        return e.written
    if isinstance(e, ir.Ref):
        return _SELF_WORDS.get(e.name, _words(e.name))
    if isinstance(e, ir.CardRef):
        return e.name
    if isinstance(e, ir.Attr):
        if isinstance(e.obj, ir.Ref) and e.obj.name == "you":
            return f"your {_words(e.name)}"
        if isinstance(e.obj, ir.Ref) and e.obj.name == "self":
            return f"this card's {_words(e.name)}"
        return f"{render_expr(e.obj)}'s {_words(e.name)}"
    if isinstance(e, ir.Call):
        args = [render_expr(a) for a in e.args]
        if e.func == "count" and args:
            return f"the number of {args[0]}"
        if e.func == "sum" and len(args) == 2:
            return f"the total {args[1]} of {args[0]}"
        if e.func == "create" and args:
            return f"a new {args[0]} in {args[1] if len(args) > 1 else 'play'}"
        return f"{_words(e.func)}({', '.join(args)})"
    if isinstance(e, ir.Index):
        return f"{render_expr(e.obj)}[{render_expr(e.index)}]"
    if isinstance(e, ir.BinOp):
        if e.op == "//":
            return f"half of {render_expr(e.left)}, rounded down" if _is(e.right, 2) else \
                f"{render_expr(e.left)} divided by {render_expr(e.right)}, rounded down"
        return f"{render_expr(e.left)} {e.op} {render_expr(e.right)}"
    if isinstance(e, ir.Neg):
        return f"-{render_expr(e.operand)}"
    if isinstance(e, ir.Compare):
        return f"{render_expr(e.left)} {_COMPARE_WORDS[e.op]} {render_expr(e.right)}"
    if isinstance(e, ir.Logic):
        return f"{render_expr(e.left)} {e.op} {render_expr(e.right)}"
    if isinstance(e, ir.Not):
        return f"not {render_expr(e.operand)}"
    if isinstance(e, ir.Contains):
        return f"{render_expr(e.item)} {'is not' if e.negated else 'is'} in {render_expr(e.collection)}"
    if isinstance(e, ir.IsTest):
        return f"{render_expr(e.value)} is {'not ' if e.negated else ''}{' '.join(_words(w) for w in e.words)}"
    if isinstance(e, ir.RangeExpr):
        if e.high is None:
            return f"{render_expr(e.low)} or more"
        if e.low is None:
            return f"up to {render_expr(e.high)}"
        return f"{render_expr(e.low)} to {render_expr(e.high)}"
    if isinstance(e, ir.ListExpr):
        return ", ".join(render_expr(i) for i in e.items)
    if isinstance(e, ir.Roll):
        return f"a {render_expr(e.dice)} roll"
    if isinstance(e, ir.TopOf):
        where = "bottom" if e.bottom else "top"
        if e.count is None:
            return f"the {where} card of {render_expr(e.zone)}"
        return f"the {where} {render_expr(e.count)} cards of {render_expr(e.zone)}"
    if isinstance(e, ir.Query):
        parts = [{"each": "each", "every": "every", "all": "all", "random": "a random",
                  "another": "another", "target": "target", "a": "a", "an": "an", "any": "any"}
                 .get(e.det, e.det)]
        if e.count is not None:
            parts.append(("up to " if e.up_to else "") + render_expr(e.count))
        parts.extend(_words(a) for a in e.adjectives)
        parts.append(_words(e.noun))
        if e.zone is not None:
            parts.append("in " + render_expr(e.zone))
        if e.where is not None:
            parts.append("where " + render_expr(e.where))
        return " ".join(parts)
    return "?"  # pragma: no cover


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


def render_stmt(s: ir.Stmt, procedures: dict[str, ir.ProcedureDecl]) -> str:
    if isinstance(s, ir.Invoke):
        pattern = s.phrase
        if not pattern:
            proc = procedures.get(s.procedure)
            pattern = proc.patterns[0] if proc and proc.patterns else _words(s.procedure)
        return fill_placeholders(pattern, {name: render_expr(value) for name, value in s.args.items()})
    if isinstance(s, ir.Assign):
        if s.op == "set":
            return f"set {render_expr(s.target)} to {render_expr(s.value)}{_duration(s.duration)}"
        sign = "+" if s.op == "increase" else "-"
        if isinstance(s.target, ir.Attr):
            return (f"{render_expr(s.target.obj)} gets {sign}{render_expr(s.value)} "
                    f"{_words(s.target.name)}{_duration(s.duration)}")
        return f"{s.op} {render_expr(s.target)} by {render_expr(s.value)}{_duration(s.duration)}"
    if isinstance(s, ir.If):
        parts = []
        for i, b in enumerate(s.branches):
            lead = "if" if i == 0 else "otherwise, if"
            parts.append(f"{lead} {render_expr(b.condition)}, {render_body(b.body, procedures)}")
        if s.orelse:
            parts.append(f"otherwise, {render_body(s.orelse, procedures)}")
        return "; ".join(parts)
    if isinstance(s, ir.ForEach):
        return f"for each {_words(s.var)} in {render_expr(s.source)}, {render_body(s.body, procedures)}"
    if isinstance(s, ir.Repeat):
        return f"{render_body(s.body, procedures)} ({render_expr(s.count)} times)"
    if isinstance(s, ir.While):
        return f"while {render_expr(s.condition)}, {render_body(s.body, procedures)}"
    if isinstance(s, ir.Choose):
        who = "" if s.by is None else f"{render_expr(s.by)} "
        count = {"one": "", "exact": f"{render_expr(s.count.n)} ", "up_to": f"up to {render_expr(s.count.n)} ",
                 "any": "any number of "}[s.count.mode]
        verb = "chooses" if s.by is not None else "choose"
        return f"{who}{verb} {count}{render_expr(s.source)}"
    if isinstance(s, ir.ChooseOne):
        opts = "; or ".join(f"{o.label}: {render_body(o.body, procedures)}" for o in s.options)
        return f"choose one — {opts}"
    if isinstance(s, ir.Simultaneously):
        return f"at the same time, {render_body(s.body, procedures)}"
    if isinstance(s, ir.Emit):
        return ""
    if isinstance(s, ir.Cancel):
        return "prevent it"
    if isinstance(s, ir.Let):
        return ""
    return ""


def render_body(body: list[ir.Stmt], procedures: dict[str, ir.ProcedureDecl]) -> str:
    parts = [render_stmt(s, procedures) for s in body]
    return ", then ".join(p for p in parts if p)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def ability_text(a: ir.Ability, procedures: dict[str, ir.ProcedureDecl]) -> str:
    if isinstance(a, ir.Effect):
        return _sentence(render_body(a.body, procedures))
    if isinstance(a, ir.Trigger):
        cond = f" if {render_expr(a.condition)}" if a.condition is not None else ""
        return _sentence(f"when {_words(a.event)}{cond}, {render_body(a.body, procedures)}")
    if isinstance(a, ir.Activated):
        cost = render_body(a.cost, procedures)
        lead = f"{cost}: " if cost else f"{a.label}: "
        return _sentence(lead + render_body(a.body, procedures))
    if isinstance(a, ir.Static):
        mods = ", ".join(f"{m.op if m.op != '=' else ''}{render_expr(m.value)} {_words(m.stat)}"
                         for m in a.modifiers)
        target = render_expr(a.target) if a.target is not None else "this card"
        cond = f" while {render_expr(a.condition)}" if a.condition is not None else ""
        return _sentence(f"{target} get {mods}{cond}")
    if isinstance(a, ir.Hook):
        cond = f" where {render_expr(a.condition)}" if a.condition is not None else ""
        when = {"before": "before", "after": "after", "instead": "instead of"}[a.when]
        return _sentence(f"{when} {_words(a.procedure)}{cond}: {render_body(a.body, procedures)}")
    return ""  # pragma: no cover


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
