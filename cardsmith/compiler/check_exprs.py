"""Type inference of expressions, and the names they refer to.

`infer` gives an expression's type while resolving every name in it (locals, params,
counters, zones, enum values, card fields, functions, query nouns and qualities),
reporting what does not resolve. It is the base the statement, declaration and card
checks stand on; it calls nothing of theirs.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from cardsmith.compiler.check_base import CheckerBase
from cardsmith.compiler.check_types import NUMERIC, Scope, article, expectation, is_one
from cardsmith.compiler.namekinds import NAME_PARAM_TYPES
from cardsmith.compiler.static_eval import fold
from cardsmith.compiler.symbols import GLOBAL_BUILTINS, QUERY_ADJECTIVES, TYPE_NAMES, ZONE_BUILTINS, native_result
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.source import Span
from cardsmith.dsl.visitor import Visitor, members
from cardsmith.dsl.words import SINGLE_DETERMINERS
from cardsmith.model import values

# how deeply an expression may nest (operators, `not`, calls): far beyond any card game's
# rules, well within Python's stack for the passes that walk the tree
MAX_EXPR_DEPTH = 200


class ExpressionChecker(CheckerBase, Visitor):
    """Infers expression types; also the constant folding, type-name lookups and name
    arguments (`sum(all gems, wear)`, `create("Guard", ...)`) that inference needs.

    A Visitor over the expressions: `infer` dispatches to `visit_<Expr>` (the statement
    mixin widens `covers` to statements too, so the composed Checker has one table)."""

    covers = members(ir.Expr)

    def constant(self, e: ir.Expr | None, scope: Scope | None = None) -> Fraction | None:
        """The value of a constant number expression (literals, arithmetic, params), or None."""
        if isinstance(e, ir.Num):
            return Fraction(e.num, e.den)
        if isinstance(e, ir.Neg):
            v = self.constant(e.operand, scope)
            return None if v is None else -v
        if isinstance(e, ir.Ref):
            if (scope and e.name in scope) or e.name not in self.sym.params or e.name in self.cyclic:
                return None
            if e.name not in self._constants:
                self._constants[e.name] = None  # guards against cycles check_params has not seen
                self._constants[e.name] = self.constant(self.sym.params[e.name].value)
            return self._constants[e.name]
        if isinstance(e, ir.BinOp):
            a, b = self.constant(e.left, scope), self.constant(e.right, scope)
            if a is None or b is None:
                return None
            folded = fold(e.op, a, b)
            return None if folded is None else Fraction(folded)
        return None

    def check_type_name(self, p: ir.Param | ir.FieldDef | ir.ParamDecl) -> None:
        name = p.type
        if name in TYPE_NAMES or name in self.sym.enums or name in self.sym.cardtypes:
            if name in self.sym.enums:
                self.use("enum", name)
            return
        pool = list(TYPE_NAMES) + list(self.sym.enums) + list(self.sym.cardtypes)
        self.error(p.span, "CS0202", f"unknown type '{name}'", did_you_mean(name, pool))

    def param_value_type(self, declared: str) -> str:
        if declared in self.sym.enums:
            return f"enum:{declared}"
        if declared in self.sym.cardtypes:
            return "card"
        return declared if declared in TYPE_NAMES else "any"

    def check_name_argument(self, declared: str, arg: ir.Expr, scope: Scope) -> None:
        if isinstance(arg, ir.Ref) and arg.name in scope:
            return
        if not isinstance(arg, ir.Ref):
            self.error(arg.span, "CS0301", f"expected the name of a {declared}")
            return
        name = arg.name
        pools: dict[str, Iterable[str]] = {
            "counter": self.sym.counters, "status": self.sym.statuses, "keyword": self.sym.keywords,
            # a field of a card or of a player: `sum(each player, score)` reads p.score
            "field": self.sym.card_field_names() + self.sym.player_field_names(), "stage": self.sym.stages,
            "region": self.sym.regions,
        }
        pool = list(pools[declared])
        if name not in pool:
            if name not in self.broken:
                self.error(arg.span, "CS0202", f"unknown {declared} '{name}'", did_you_mean(name, pool))
        else:
            self.use(declared, name)
            if declared == "keyword":
                self.use("keyword-read", name)
            if declared == "field":  # `sum(all gems, wear)` reads the counter or status as `it.wear` would
                self.use("counter", name)
                self.use("status", name)
                self.use("zone", name)

    def check_card_name(self, arg: ir.Text) -> None:
        if arg.value.lower() not in self.sym.cards:
            self.error(arg.span, "CS0202", f"unknown card \"{arg.value}\"",
                       did_you_mean(arg.value, [c.name for c in self.game.cards]))
        else:
            self.use("card", arg.value.lower())

    def expect_type(self, e: ir.Expr, scope: Scope, allowed: set[str], what: str, expected: str = "") -> str:
        """Infer `e`'s type and report it unless allowed; the message names `expected`, or
        else the allowed type the designer most likely means (_expected)."""
        t = self.infer(e, scope)
        if t not in allowed and t != "any" and not (t.startswith("enum:") and "any" in allowed):
            self.error(e.span, "CS0301", f"{what} must be {expected or expectation(allowed)}, found {article(t)}")
        return t

    def infer(self, e: ir.Expr, scope: Scope) -> str:
        """The type of an expression — bounded in depth: an expression nested deeper than
        MAX_EXPR_DEPTH (`not not not ... true`, a sum of thousands of terms) is reported
        where it starts instead of exhausting Python's stack with no location."""
        self._depth += 1
        if self._depth == 1:
            self._outermost = e
        try:
            if self._depth > MAX_EXPR_DEPTH:
                if not self._too_deep_reported:
                    self._too_deep_reported = True
                    outermost = self._outermost if self._outermost is not None else e
                    self.error(outermost.span, "CS0301",
                               f"this expression is nested more than {MAX_EXPR_DEPTH} levels deep",
                               "split it into functions or intermediate `let`s")
                return "any"
            t: str = self.visit(e, scope)
            return t
        finally:
            self._depth -= 1

    # One method per expression kind, found by the Visitor's table (one dict lookup per
    # node instead of a chain of isinstance tests: infer runs once per node of the game).

    def visit_Num(self, e: ir.Num, scope: Scope) -> str:
        return "number"

    def visit_Text(self, e: ir.Text, scope: Scope) -> str:
        return "text"

    def visit_Bool(self, e: ir.Bool, scope: Scope) -> str:
        return "bool"

    def visit_NoneLit(self, e: ir.NoneLit, scope: Scope) -> str:
        return "none"

    def visit_Dice(self, e: ir.Dice, scope: Scope) -> str:
        if e.sides < 2 or e.count < 1:
            self.error(e.span, "CS0301", "dice need at least one die of two or more sides")
        elif e.count > values.MAX_DICE or e.sides > values.MAX_SIDES:
            self.error(e.span, "CS0301", f"cannot roll {e.count}d{e.sides}: too many dice or sides",
                       f"a roll throws at most {values.MAX_DICE:,} dice of at most {values.MAX_SIDES:,} sides")
        return "dice"

    def visit_Dim(self, e: ir.Dim, scope: Scope) -> str:
        return "dim"

    def visit_CardRef(self, e: ir.CardRef, scope: Scope) -> str:
        self.check_card_name(ir.Text(span=e.span, value=e.name))
        return "cardname"

    def visit_Index(self, e: ir.Index, scope: Scope) -> str:
        self.infer(e.obj, scope)
        self.infer(e.index, scope)
        return "any"

    def visit_BinOp(self, e: ir.BinOp, scope: Scope) -> str:
        for side in (e.left, e.right):
            t = self.infer(side, scope)
            if t not in NUMERIC:
                self.error(side.span, "CS0301", f"arithmetic needs numbers, found {article(t)}")
        if e.op in ("/", "//", "%") and self.constant(e.right, scope) == 0:
            self.error(e.right.span, "CS0301", "this divides by zero",
                       "the value after '" + e.op + "' is always 0")
        elif isinstance(e.left, ir.Num) and isinstance(e.right, ir.Num):  # (two literals: no deep walk)
            dividend, divisor = self.constant(e.left, scope), self.constant(e.right, scope)
            if dividend is not None and divisor is not None and fold(e.op, dividend, divisor) is None:
                self.error(e.span, "CS0301", "this number is too large",
                           f"results are kept within {values.MAX_NUMBER:,} (docs/language.md, Limits)")
        return "number"

    def visit_Neg(self, e: ir.Neg, scope: Scope) -> str:
        self.expect_type(e.operand, scope, NUMERIC, "a negated value")
        return "number"

    def visit_Compare(self, e: ir.Compare, scope: Scope) -> str:
        left, right = self.infer(e.left, scope), self.infer(e.right, scope)
        if e.op in ("<", "<=", ">", ">="):
            for side, t in ((e.left, left), (e.right, right)):
                if t not in NUMERIC:
                    self.error(side.span, "CS0301", f"'{e.op}' compares numbers, found {article(t)}")
        return "bool"

    def visit_Logic(self, e: ir.Logic, scope: Scope) -> str:
        self.expect_type(e.left, scope, {"bool", "any"}, f"each side of '{e.op}'")
        self.expect_type(e.right, scope, {"bool", "any"}, f"each side of '{e.op}'")
        return "bool"

    def visit_Not(self, e: ir.Not, scope: Scope) -> str:
        self.expect_type(e.operand, scope, {"bool", "any"}, "the operand of 'not'")
        return "bool"

    def visit_Contains(self, e: ir.Contains, scope: Scope) -> str:
        self.infer(e.item, scope)
        t = self.infer(e.collection, scope)
        if t not in ("list", "cards", "players", "range", "zone", "any", "deck"):
            self.error(e.collection.span, "CS0301", f"'in' needs a list, zone or range, found {article(t)}")
        return "bool"

    def visit_IsTest(self, e: ir.IsTest, scope: Scope) -> str:
        self.infer(e.value, scope)
        for word in e.words:
            self.check_adjective(word, e.span, allow_nouns=True)
        return "bool"

    def visit_Conditional(self, e: ir.Conditional, scope: Scope) -> str:
        self.expect_type(e.condition, scope, {"bool", "any"}, "a condition")
        then, otherwise = self.infer(e.then, scope), self.infer(e.otherwise, scope)
        return then if then == otherwise else "any"

    def visit_RangeExpr(self, e: ir.RangeExpr, scope: Scope) -> str:
        for bound in (e.low, e.high):
            if bound is not None:
                self.expect_type(bound, scope, NUMERIC, "a range bound")
        if isinstance(e.low, ir.Num) and isinstance(e.high, ir.Num) and \
                e.low.num * e.high.den > e.high.num * e.low.den:
            self.error(e.span, "CS0301", "this range is empty (its low end is above its high end)")
        return "range"

    def visit_ListExpr(self, e: ir.ListExpr, scope: Scope) -> str:
        for item in e.items:
            self.infer(item, scope)
        return "list"

    def visit_Roll(self, e: ir.Roll, scope: Scope) -> str:
        self.expect_type(e.dice, scope, {"dice", "number", "any"}, "what is rolled")
        return "number"

    def visit_TopOf(self, e: ir.TopOf, scope: Scope) -> str:
        if e.count is not None:
            self.expect_type(e.count, scope, NUMERIC, "a count")
        self.expect_type(e.zone, scope, {"zone", "any"}, "'top of'/'bottom of'")
        return "card" if e.count is None else "cards"

    def visit_Ref(self, e: ir.Ref, scope: Scope) -> str:
        name = e.name
        if name in scope:
            return scope[name]
        if name in GLOBAL_BUILTINS and name != "it":
            return GLOBAL_BUILTINS[name]
        sym = self.sym
        if name in sym.params:
            self.use("param", name)
            return "number" if sym.params[name].type == "number" else "any"
        if name in sym.counters:
            self.use("counter", name)
            return "number"
        if name in sym.zones:
            self.use("zone", name)
            return "zone"
        if name in sym.enum_values:
            self.use("enumvalue", name)
            enums = sym.enum_values[name]
            if len(enums) > 1:
                self.error(e.span, "CS0603", f"'{name}' is a value of several enums: " + ", ".join(enums),
                           f"write {enums[0]}.{name}")
            self.use("enum", enums[0])
            return f"enum:{enums[0]}"
        if name in sym.enums:
            self.use("enum", name)
            return f"enumtype:{name}"
        if name in sym.statuses:
            self.use("status", name)
            return "status"
        if name in sym.cardtypes:
            self.use("cardtype", name)
            return "cardtype"
        if name in sym.keywords:
            self.use("keyword", name)
            self.use("keyword-read", name)
            return "keyword"
        if name in sym.regions:
            return "region"
        if name in sym.stages:
            return "stage"
        if name == "it":
            self.error(e.span, "CS0202", "'it' is only defined inside a query's where clause",
                       "name the card with choose or for each")
            return "any"
        pool = (list(scope) + list(GLOBAL_BUILTINS) + list(sym.params) + list(sym.counters)
                + list(sym.zones) + list(sym.enum_values) + list(sym.enums) + list(sym.statuses)
                + list(sym.cardtypes) + list(sym.keywords))
        if name not in self.broken:
            self.error(e.span, "CS0202", f"unknown name '{name}'", did_you_mean(name, pool))
        return "any"

    def visit_Attr(self, e: ir.Attr, scope: Scope) -> str:
        obj = self.infer(e.obj, scope)
        name = e.name
        if obj == "player":
            t = self.sym.player_field_type(name)
            if t is None:
                if name not in self.broken:
                    self.error(e.span, "CS0202", f"a player has no '{name}'",
                               did_you_mean(name, self.sym.player_field_names()))
                return "any"
            self.use("counter", name)
            self.use("zone", name)
            return t
        if obj in ("card", "cards", "list"):
            t = self.sym.card_field_type(name)
            if t is None and obj == "card":
                if name not in self.broken:
                    self.error(e.span, "CS0202", f"a card has no '{name}'",
                               did_you_mean(name, self.sym.card_field_names()))
                return "any"
            if t is None:
                return "any"
            self.use("counter", name)
            self.use("status", name)
            return t if obj == "card" else "list"
        if obj == "players":
            t = self.sym.player_field_type(name)
            return "list" if t is not None else "any"
        if obj.startswith("enum:"):
            enum = self.sym.enums.get(obj[5:])
            if enum is not None and enum.values:
                props = enum.values[0].properties
                if name not in props:
                    self.error(e.span, "CS0202", f"{enum.name} values have no '{name}'",
                               did_you_mean(name, props) or
                               ("its properties are " + ", ".join(props) if props else
                                f"{enum.name} values have no properties"))
                    return "any"
                prop = props[name]
                return {"num": "number", "text": "text", "bool": "bool"}.get(getattr(prop, "kind", ""), "any")
            return "any"
        if obj.startswith("enumtype:"):
            enum = self.sym.enums.get(obj[9:])
            if enum is not None:
                names = [v.name for v in enum.values]
                if name not in names:
                    self.error(e.span, "CS0202", f"{enum.name} has no value '{name}'", did_you_mean(name, names))
                    return "any"
                self.use("enumvalue", name)
                return f"enum:{enum.name}"
            return "any"
        if obj == "cell":
            if name not in ("x", "y"):
                self.error(e.span, "CS0202", f"a cell has no '{name}'", "a cell has x and y")
                return "any"
            return "number"
        if obj == "region":
            known = {k for r in self.sym.region_decls for k in r.properties} | {"name", "cells", "board"}
            if name not in known:
                self.error(e.span, "CS0202", f"no region has a property '{name}'", did_you_mean(name, known))
                return "any"
            return "list" if name == "cells" else "any"
        if obj == "zone":
            if name not in ZONE_BUILTINS:
                self.error(e.span, "CS0202", f"a zone has no '{name}'", did_you_mean(name, ZONE_BUILTINS))
                return "any"
            return ZONE_BUILTINS[name]
        if obj == "deck":
            sections = [s.name for s in self.game.deck.sections] if self.game.deck else []
            if name not in sections and name not in ("cards", "size"):
                self.error(e.span, "CS0202", f"the deck has no section '{name}'", did_you_mean(name, sections))
            return "number" if name == "size" else "cards"
        if obj == "any":
            return "any"
        self.error(e.span, "CS0301", f"{article(obj)} has no fields")
        return "any"

    def visit_Call(self, e: ir.Call, scope: Scope) -> str:
        f = self.sym.functions.get(e.func)
        if f is None:
            if e.func not in self.broken:
                self.error(e.span, "CS0202", f"unknown function '{e.func}'",
                           did_you_mean(e.func, self.sym.functions))
            for a in [*e.args, *e.kwargs.values()]:
                self.infer(a, scope)
            return "any"
        self.use("function", f.name)
        required = sum(1 for p in f.params if p.default is None)
        given = len(e.args) + len(e.kwargs)
        if not required <= given <= len(f.params):
            want = str(required) if required == len(f.params) else f"{required} to {len(f.params)}"
            self.error(e.span, "CS0502", f"'{f.name}' takes {want} argument(s), {given} given")
        types = ["any"] * len(f.params)  # each parameter's argument type, for native_result
        last = len(e.args) - 1  # the last parameter given a value
        for i, (p, a) in enumerate(zip(f.params, e.args, strict=False)):
            types[i] = self.infer_argument(p, a, scope)
        position = {p.name: i for i, p in enumerate(f.params)}
        for name, a in e.kwargs.items():
            i = position.get(name, -1)
            if i < 0:
                self.error(a.span, "CS0202", f"'{f.name}' has no parameter '{name}'",
                           did_you_mean(name, list(position)))
                self.infer(a, scope)
            elif i < len(e.args):
                self.error(a.span, "CS0502", f"'{f.name}' is given '{name}' twice",
                           "once by its place and once by its name: give it one way")
                self.infer(a, scope)
            else:
                types[i] = self.infer_argument(f.params[i], a, scope)
                last = max(last, i)
        if required <= given <= len(f.params):
            missing = [p.name for p in f.params[len(e.args):] if p.default is None and p.name not in e.kwargs]
            if missing:
                self.error(e.span, "CS0502", f"'{f.name}' is given no value for "
                           + ", ".join(repr(n) for n in missing), f"give {'it' if len(missing) == 1 else 'them'} "
                           "by place or by name")
        if f.native:
            return native_result(f.name, types[:last + 1])
        return "any"

    def infer_argument(self, p: ir.Param, a: ir.Expr, scope: Scope) -> str:
        """Check one argument against its parameter: a name parameter (a field, a counter,
        ...) takes a declared name, a card name a card of the game; the rest are typed."""
        if p.type in NAME_PARAM_TYPES:
            self.check_name_argument(p.type, a, scope)
            return "any"
        if p.type == "cardname" and isinstance(a, ir.Text):
            self.check_card_name(a)
            return "cardname"
        return self.infer(a, scope)

    def visit_Query(self, e: ir.Query, scope: Scope) -> str:
        noun = e.noun.lower()
        if noun in ir.PLAYER_NOUNS:
            for word in e.adjectives:
                if word not in ("other", "eliminated", "active"):
                    self.error(e.span, "CS0202", f"unknown quality '{word}' for players",
                               "players can be other, eliminated or active")
            if e.zone is not None:
                self.error(e.zone.span, "CS0301", "players are not in a zone")
            if e.count is not None:
                self.expect_type(e.count, scope, NUMERIC, "a count")
            if e.where is not None:
                self.expect_type(e.where, {**scope, "it": "player"}, {"bool", "any"}, "a where clause")
            single = e.det in SINGLE_DETERMINERS and (e.count is None or (not e.up_to and is_one(e.count)))
            return "player" if single else "players"
        if noun not in self.sym.nouns:
            hint = did_you_mean(noun, self.sym.nouns)
            self.error(e.span, "CS0202", f"unknown kind of card '{e.noun}'", hint)
        else:
            type_name = self.sym.nouns[noun]
            if type_name:
                self.use("cardtype", type_name)
        for word in e.adjectives:
            self.check_adjective(word, e.span, allow_nouns=False)
        if e.count is not None:
            self.expect_type(e.count, scope, NUMERIC, "a count")
        if e.zone is not None:
            self.expect_type(e.zone, scope, {"zone", "any", "cards", "list"}, "where to look")
        if e.where is not None:
            inner = {**scope, "it": "card"}
            self.expect_type(e.where, inner, {"bool", "any"}, "a where clause")
        if e.det in SINGLE_DETERMINERS and (e.count is None or (e.up_to is False and is_one(e.count))):
            return "card"
        return "cards"

    def check_adjective(self, word: str, span: Span, allow_nouns: bool) -> None:
        sym = self.sym
        if word in QUERY_ADJECTIVES or word in ("not",):
            return
        if word in sym.statuses:
            self.use("status", word)
            return
        if word in sym.enum_values:
            self.use("enumvalue", word)
            self.use("enum", sym.enum_values[word][0])
            return
        if allow_nouns and (word.lower() in sym.nouns or word in sym.cardtypes):
            self.use("cardtype", sym.nouns.get(word.lower()) or word)
            return
        if word in sym.keywords:
            self.use("keyword", word)
            self.use("keyword-read", word)
            return
        pool = list(QUERY_ADJECTIVES) + list(sym.statuses) + list(sym.enum_values) + list(sym.keywords)
        if allow_nouns:
            pool += list(sym.nouns)
        if word in self.broken:
            return
        self.error(span, "CS0202", f"unknown quality '{word}'", did_you_mean(word, pool) or
                   "qualities are statuses, enum values, keywords, friendly, enemy and other")
