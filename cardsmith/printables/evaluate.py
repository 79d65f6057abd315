"""Card-level expressions in layouts, sheets and references, evaluated for one card.

Layouts say `text: card.name`, `border: card.border.colour` or `"{attack}/{defense}"`.
These only read a card's printed values, so the compiler's static evaluator does the
work; this module adds what only printing needs (rules text, flavour, art, keywords,
templates, readable numbers and dice) and turns any failure into `EvalError`, which the
renderer reports as a diagnostic rather than a crash.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from cardsmith.compiler.expansions import collector_numbers
from cardsmith.compiler.static_eval import EnumVal, NotStatic, StaticEnv
from cardsmith.compiler.text import card_text, keyword_reminder, render_expr
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor

_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")


class EvalError(Exception):
    """A layout expression that cannot be evaluated for a card."""


class _StyleWord(Visitor):
    """A style property (`font: bold 10pt`, `shape: circle`) as its written words: a
    string, a bare word or a dimension as written; anything else as rules text words."""

    covers = (ir.Text, ir.Ref, ir.Dim)

    def visit_Text(self, expr: ir.Text) -> str:
        return expr.value

    def visit_Ref(self, expr: ir.Ref) -> str:
        return expr.name

    def visit_Dim(self, expr: ir.Dim) -> str:
        return expr.written

    def generic_visit(self, node: Any, *args: Any) -> str:
        return render_expr(node)


class _Millimetres(Visitor):
    """A dimension property in mm; bare numbers count as mm, anything else is the default."""

    covers = (ir.Dim, ir.Num)

    def visit_Dim(self, expr: ir.Dim, default: float) -> float:
        return expr.mm

    def visit_Num(self, expr: ir.Num, default: float) -> float:
        return expr.num / expr.den

    def generic_visit(self, node: Any, *args: Any) -> float:
        default: float = args[0]
        return default


_STYLE_WORD = _StyleWord()
_MILLIMETRES = _Millimetres()


def style_word(expr: ir.Expr | None) -> str:
    """A style property (`font: bold 10pt`, `shape: circle`) as its written words."""
    if expr is None:
        return ""
    word: str = _STYLE_WORD.visit(expr)
    return word


def dim_mm(expr: ir.Expr | None, default: float = 0.0) -> float:
    """A dimension property in mm; bare numbers count as mm."""
    mm: float = _MILLIMETRES.visit(expr, default)
    return mm


def fmt(value: Any) -> str:
    """A value as a player reads it: 0.5 is ½, enum values by label, lists comma-joined."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        whole, rest = divmod(value, 1)
        if rest == Fraction(1, 2):
            return f"{whole}½" if whole else "½"
        return f"{float(value):g}"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, ir.Dice):
        return f"{value.count if value.count > 1 else ''}d{value.sides}"
    if isinstance(value, EnumVal):
        return value.name
    if isinstance(value, ir.KeywordUse):
        return " ".join([value.name.replace("_", " "), *(render_expr(a) for a in value.args)])
    if isinstance(value, list | tuple):
        return ", ".join(fmt(v) for v in value)
    return str(value)


class CardEvaluator(Visitor):
    """Evaluates layout expressions with `card` bound to the card being drawn.

    Only two kinds of expression print differently from how the static evaluator
    computes them (a card's attribute, a dice expression); every other kind is the
    static evaluator's (`generic_visit`)."""

    covers = (ir.Attr, ir.Dice)

    def __init__(self, game: ir.Game) -> None:
        self.game = game
        self.env = StaticEnv(game)
        self.keywords = {k.name: k for k in game.keywords}
        self._rules: dict[str, str] = {}
        # `ASH 12/40` for the cards of a set that declares a code (default layouts print it)
        self.collectors = {name: c.label() for name, c in collector_numbers(game).items()}

    # -- card fields ------------------------------------------------------------------
    def field_expr(self, card: ir.CardDecl, name: str) -> ir.Expr | None:
        if name in card.stats:
            return card.stats[name]
        if name in card.properties:
            return card.properties[name]
        ctype = self.env.cardtypes.get(card.type)
        if ctype is not None:
            for f in (*ctype.stats, *ctype.properties):
                if f.name == name:
                    return f.default
        return None

    def has_field(self, card: ir.CardDecl, name: str) -> bool:
        if name in card.stats or name in card.properties:
            return True
        ctype = self.env.cardtypes.get(card.type)
        return ctype is not None and any(f.name == name for f in (*ctype.stats, *ctype.properties))

    def rules_text(self, card: ir.CardDecl) -> str:
        """Keywords with their reminder text, then the rules text (hand-written or generated)."""
        cached = self._rules.get(card.name)
        if cached is not None:
            return cached
        if card.text is None:
            text = card_text(self.game, card)
        else:
            parts = []
            lowered = card.text.lower()
            for use in card.keywords:
                if use.name.replace("_", " ").lower() in lowered:
                    continue  # the designer already wrote this keyword (and its reminder) into the text
                kw = self.keywords.get(use.name)
                label = use.name.replace("_", " ") + "".join(f" {render_expr(a)}" for a in use.args)
                reminder = keyword_reminder(kw, use) if kw is not None else ""
                parts.append(f"{label} ({reminder})" if reminder else label)
            parts.append(card.text)
            text = "\n".join(p for p in parts if p)
        self._rules[card.name] = text
        return text

    def card_attr(self, card: ir.CardDecl, name: str) -> Any:
        if name in ("rules_text", "text"):
            return self.rules_text(card)
        if name == "flavour":
            return card.flavour
        if name == "collector":
            return self.collectors.get(card.name, "")
        if name == "art":
            return card.art
        if name == "keywords":
            return list(card.keywords)
        if name in ("name", "type", "copies"):
            return self.env.card_value(card, name)
        expr = self.field_expr(card, name)
        if expr is None:
            if not self.has_field(card, name):
                raise EvalError(f"card has no field '{name}'")
            return None
        return self.value(expr, None)

    # -- expressions --------------------------------------------------------------------
    def value(self, expr: ir.Expr, card: ir.CardDecl | None, extra: dict[str, Any] | None = None) -> Any:
        env: dict[str, Any] = dict(extra or {})
        if card is not None:
            env.setdefault("card", card)
        return self.visit(expr, env)

    def visit_Attr(self, expr: ir.Attr, env: dict[str, Any]) -> Any:
        """`card.rules_text`, `it.art`: what printing reads of a card (card_attr);
        `card.border.colour`: a property of the enum value a card field holds."""
        base = expr.obj
        if isinstance(base, ir.Ref) and base.name in ("card", "it"):
            target = env.get(base.name)
            if isinstance(target, ir.CardDecl):
                return self.card_attr(target, expr.name)
        if isinstance(base, ir.Attr) and isinstance(base.obj, ir.Ref) and base.obj.name in ("card", "it"):
            target = env.get(base.obj.name)
            if isinstance(target, ir.CardDecl):
                obj = self.card_attr(target, base.name)
                if isinstance(obj, EnumVal):
                    return self._enum_prop(obj, expr.name)
                raise EvalError(f"'{render_expr(base)}' has no property '{expr.name}'")
        return self._static(expr, env)

    def visit_Dice(self, expr: ir.Dice, env: dict[str, Any]) -> Any:
        """A dice expression prints as written (`2d6`): it is not rolled."""
        return expr

    def generic_visit(self, node: Any, *args: Any) -> Any:
        return self._static(node, args[0])

    def _static(self, expr: ir.Expr, env: dict[str, Any]) -> Any:
        """The static evaluator's value, its failures as EvalError."""
        try:
            return self.env.eval(expr, env)
        except NotStatic as exc:
            raise EvalError(f"cannot evaluate '{render_expr(expr)}' for a printed card ({exc})") from None
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise EvalError(f"cannot evaluate '{render_expr(expr)}': {exc}") from None

    def _enum_prop(self, value: EnumVal, prop: str) -> Any:
        enum = self.env.enums.get(value.enum)
        if enum is not None:
            for v in enum.values:
                if v.name == value.name:
                    if prop in v.properties:
                        return self.value(v.properties[prop], None)
                    if prop == "label":
                        return v.name.replace("_", " ")
        raise EvalError(f"{value.enum}.{value.name} has no property '{prop}'")

    def text(self, expr: ir.Expr, card: ir.CardDecl | None, extra: dict[str, Any] | None = None) -> str:
        """An expression as printed text; a string literal is a template over the card."""
        if isinstance(expr, ir.Text):
            return self.fill(expr.value, card, extra)
        value = self.value(expr, card, extra)
        if isinstance(value, EnumVal):
            try:
                return fmt(self._enum_prop(value, "label"))
            except EvalError:
                return value.name.replace("_", " ")
        # only a string literal written in the layout is a template: a computed value (a
        # card's name, text or flavour) is data and prints as written, braces and all
        return fmt(value)

    def fill(self, template: str, card: ir.CardDecl | None, extra: dict[str, Any] | None = None) -> str:
        """Fill `{stat}` and `{n}` placeholders; unknown names raise EvalError."""

        def repl(m: re.Match[str]) -> str:
            name = m.group(1)
            if extra and name in extra:
                return fmt(extra[name])
            if card is None:
                raise EvalError(f"'{{{name}}}' needs a card")
            head, _, rest = name.partition(".")
            value = self.card_attr(card, head)
            for part in rest.split(".") if rest else []:
                if not isinstance(value, EnumVal):
                    raise EvalError(f"'{{{name}}}' is not an enum value")
                value = self._enum_prop(value, part)
            if isinstance(value, EnumVal):
                try:
                    return fmt(self._enum_prop(value, "label"))
                except EvalError:
                    return value.name
            return fmt(value)

        return _TEMPLATE.sub(repl, template)

    def colour(self, expr: ir.Expr | None, card: ir.CardDecl | None) -> str | None:
        """A colour property as `#RRGGBB`, or None when absent or not a colour."""
        if expr is None:
            return None
        value = self.text(expr, card)
        value = value.strip()
        if re.fullmatch(r"#[0-9A-Fa-f]{6}", value) or re.fullmatch(r"#[0-9A-Fa-f]{3}", value):
            return value
        raise EvalError(f"'{value}' is not a colour (write \"#RRGGBB\")")

    def matches(self, query: ir.Expr, card: ir.CardDecl) -> bool:
        """Whether a card is selected by a sheet's `for:` query (`all units where ...`)."""
        if not isinstance(query, ir.Query):
            raise EvalError(f"'{render_expr(query)}' is not a card query")
        noun = query.noun.lower()
        if noun not in ("card", "cards"):
            ctype = self.env.cardtypes.get(card.type)
            names = {card.type.lower()}
            if ctype is not None:
                names |= {ctype.singular.lower(), ctype.plural.lower()}
            if noun not in names:
                return False
        for adj in query.adjectives:
            if not any(isinstance(v, ir.Ref) and v.name == adj for v in card.properties.values()):
                return False
        if query.where is not None:
            return bool(self.value(query.where, card, {"it": card}))
        return True

    def number(self, expr: ir.Expr | None, card: ir.CardDecl | None, default: int = 0) -> int:
        if expr is None:
            return default
        value = self.value(expr, card)
        if isinstance(value, bool) or not isinstance(value, int | Fraction | float):
            raise EvalError(f"'{render_expr(expr)}' is not a number")
        return int(value)


