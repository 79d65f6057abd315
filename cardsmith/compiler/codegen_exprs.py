"""Expressions → Python source: the half of a rule body's lowering that yields values.

Split from the statement writer (codegen_stmts.py) because expressions are the larger,
self-contained half: each IR expression becomes one Python expression, except a query
that asks a player (`target`, `a`, `any`) or picks at random, which is hoisted into a
choice line before the statement being written. User text never becomes code here:
names pass `ident()` (a strict identifier pattern plus a prefix, so no user name is a
keyword or builtin) and every string and number is written with `repr()`.
"""

from __future__ import annotations

import ast
import keyword
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardsmith.compiler import inline, queryplan
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor, members
from cardsmith.dsl.words import EVERY_DETERMINERS
from cardsmith.model.values import MAX_NUMBER

if TYPE_CHECKING:
    from cardsmith.compiler.codegen import CodeGenerator

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# generated code for a plain variable (a local, or `self` / `you`): safe to read twice
_VARIABLE = re.compile(r"(v_[A-Za-z0-9_]+|_i[0-9]+|ctx\.self|ctx\.you)\Z")


class CodegenError(Exception):
    pass


def ident(name: str, prefix: str = "v_") -> str:
    """A Python identifier for a user name — validated, never trusted."""
    result = prefix + name
    if not _IDENT.match(name) or not result.isidentifier() or keyword.iskeyword(result):
        raise CodegenError(f"not a valid name: {name!r}")
    return result


@dataclass
class Scope:
    """Names visible in a body: locals (Python variables) and what they are."""

    locals: set[str] = field(default_factory=set)
    # locals certainly holding a card (a query's `it`, a loop over a card query): their
    # built-in fields and statuses are read straight off the engine's Card object
    cards: set[str] = field(default_factory=set)
    # in a function body written in line (inline.py): its parameters, as the code of the
    # caller's arguments they stand for
    bound: dict[str, str] = field(default_factory=dict)

    def child(self) -> Scope:
        return Scope(set(self.locals), set(self.cards), dict(self.bound))

    def bind(self, name: str, card: bool = False) -> None:
        self.locals.add(name)
        self.bound.pop(name, None)
        if card:
            self.cards.add(name)
        else:
            self.cards.discard(name)


class ExprWriter(Visitor):
    """Writes the Python lines of one function body: the lines themselves, each with the
    .cards line of the rule statement it belongs to (for the module's line table,
    linetable.py), and the expressions they are made of. BodyWriter (codegen_stmts.py)
    adds the statements. A visitor over expressions: `expr` dispatches to the node's
    `visit_<Kind>` by one table lookup, and a kind without a method fails the suite."""

    covers = members(ir.Expr)

    def __init__(self, gen: CodeGenerator, indent: int = 1) -> None:
        self.gen = gen
        self.lines: list[str] = []
        # per line: the .cards line of the statement it was written for (0: none)
        self.cards_lines: list[int] = []
        self.at = 0  # the .cards line of the statement being written (0: outside any)
        self.indent = indent
        self.temp = 0
        self.yields = False
        self.inline_depth = 0  # functions being written in line inside each other (inline.py)

    def line(self, text: str) -> None:
        if "yield" in text:  # (a string literal with the word in it only costs a generator)
            self.yields = True
        self.lines.append("    " * self.indent + text)
        self.cards_lines.append(self.at)

    def fresh(self) -> str:
        self.temp += 1
        return f"_t{self.temp}"

    def default(self, p: ir.Param) -> str:
        """A parameter's default, as Match._default gives it."""
        default = p.default
        if isinstance(default, ir.Ref) and default.name in ("self", "you", "none"):
            return {"self": "ctx.self", "you": "(ctx.you or m.current)", "none": "None"}[default.name]
        return self.expr(default, Scope())


    # ---- expressions
    def expr(self, e: ir.Expr | None, scope: Scope, decide: bool = True) -> str:
        """Python source for an expression. Queries that ask a player (target / a / any)
        or pick at random are hoisted into a choice before the current statement."""
        if e is None:
            return "None"
        code: str = self.visit(e, scope, decide)
        return code

    def generic_visit(self, node: object, *args: object) -> str:
        raise CodegenError(f"cannot compile {type(node).__name__}")

    # one method per expression kind: (node, scope, decide) -> Python source
    def visit_Num(self, e: ir.Num, scope: Scope, decide: bool) -> str:
        return repr(e.num) if e.den == 1 else f"rt.F({e.num!r}, {e.den!r})"

    def visit_Text(self, e: ir.Text, scope: Scope, decide: bool) -> str:
        return repr(e.value)

    def visit_Bool(self, e: ir.Bool, scope: Scope, decide: bool) -> str:
        return repr(e.value)

    def visit_NoneLit(self, e: ir.NoneLit, scope: Scope, decide: bool) -> str:
        return "None"

    def visit_Dice(self, e: ir.Dice, scope: Scope, decide: bool) -> str:
        return f"rt.Dice({e.count!r}, {e.sides!r})"

    def visit_Dim(self, e: ir.Dim, scope: Scope, decide: bool) -> str:
        return repr(e.mm)

    def visit_CardRef(self, e: ir.CardRef, scope: Scope, decide: bool) -> str:
        return repr(e.name)

    def visit_Ref(self, e: ir.Ref, scope: Scope, decide: bool) -> str:
        return self.ref(e.name, scope)

    def visit_Attr(self, e: ir.Attr, scope: Scope, decide: bool) -> str:
        return self.attr(e, scope)

    def visit_Call(self, e: ir.Call, scope: Scope, decide: bool) -> str:
        if e.func == "in_region" and e.func in self.gen.native_functions:
            region = self.region_in_line(e, scope)
            if region is not None:
                return region
        found = self.first_found(e, ("any", "first"), scope)
        if found is not None:
            self.gen.inline_temps += 1
            temp = f"_i{self.gen.inline_temps}"
            return f"bool({found})" if e.func == "any" else f"({temp}[0] if ({temp} := {found}) else None)"
        arg_list = self.call_args(e, scope)
        args = ", ".join(arg_list)
        if e.func in self.gen.native_functions:
            fast = self.native_in_line(e.func, arg_list)
            if fast is not None:
                return fast
            return f"fn.fn_{ident(e.func, '')}(m, ctx{', ' if args else ''}{args})"
        body = e.func in self.gen.body_functions
        if e.func in self.gen.match_constant:  # the same for the same arguments all match long
            helper = "rt.memo_match_body" if body else "rt.memo_match"
            call = f"{helper}(m, ctx, {ident(e.func, 'F_')}{', ' if args else ''}{args})"
            return self.remembered_in_line(e, call, args)
        purity = self.gen.pure.get(e.func)
        if purity is not None and purity.worth_it:  # remembered while the state is unchanged (purity.py)
            call = f"{'rt.memo_body' if body else 'rt.memo'}(m, ctx, {ident(e.func, 'F_')}, {purity.reads_actor!r}" \
                f"{', ' if args else ''}{args})"  # (read in line as below: KC's enemies_in, reach)
            return call if body or purity.reads_actor else self.remembered_in_line(e, call, args, per_version=True)
        written = self.inline(e.func, arg_list, scope)
        if written is not None:
            return written
        call = f"{ident(e.func, 'F_')}(m, ctx{', ' if args else ''}{args})"
        return f"rt.run_pure(m, {call})" if body else call

    def first_found(self, e: ir.Expr, funcs: tuple[str, ...], scope: Scope) -> str | None:
        """`any(all ...)`, `first(all ...)`, `count(all ...) > 0`: the query stopping at its first find (or None)."""
        if not (isinstance(e, ir.Call) and e.func in funcs and e.func in self.gen.native_functions
                and len(e.args) == 1 and not e.kwargs and isinstance(e.args[0], ir.Query)
                and e.args[0].det in EVERY_DETERMINERS):
            return None
        return self.query(e.args[0], scope, decide=False)[:-1] + ", one=True)"

    def inline(self, func: str, args: list[str], scope: Scope) -> str | None:
        """The body of a small pure function written in place of its call (inline.py),
        None where it is called. Its parameters stand for the arguments' code; an argument
        that is not a plain variable or literal is evaluated once, first, into a temporary."""
        decl = self.gen.inlinable.get(func)
        if decl is None or self.inline_depth >= inline.MAX_DEPTH or len(args) != len(decl.params):
            return None
        certain = {scope.bound.get(name, ident(name)) for name in scope.cards}
        inner = Scope()
        first: list[str] = []
        for p, code in zip(decl.params, args, strict=True):
            if not inline.plain(code):
                self.gen.inline_temps += 1
                temp = f"_i{self.gen.inline_temps}"
                first.append(f"({temp} := {code})")
                code = temp
            inner.locals.add(p.name)
            inner.bound[p.name] = code
            if code in certain:
                inner.cards.add(p.name)
        self.inline_depth += 1
        try:
            body = self.expr(decl.expr, inner, decide=False)
        finally:
            self.inline_depth -= 1
        return f"({', '.join(first)}, {body})[-1]" if first else f"({body})"

    def native_in_line(self, func: str, args: list[str]) -> str | None:
        """abs, min, max of plain ints and a placed card's position, written in line as
        the engine's functions (engine/functions.py) answer them first; any other
        argument goes to the function."""
        if func == "abs" and len(args) == 1:
            first, x = self.held(args[0])
            return f"((-{x} if {x} < 0 else {x}) if type({first}) is int else fn.fn_abs(m, ctx, {x}))"
        if func in ("min", "max") and len(args) == 2:
            guarded = self.int_guard(*args)
            if guarded is None:
                return None
            guard, (a, b) = guarded
            keep = ">=" if func == "max" else "<="
            return f"(({a} if {a} {keep} {b} else {b}) if {guard} else fn.fn_{func}(m, ctx, {a}, {b}))"
        if func == "card_at" and len(args) == 2:  # a zone's cards by cell, once per state version
            (zone_first, zone), (cell_first, cell) = self.held(args[0]), self.held(args[1])
            return (f"(rt.card_at(m, {zone}, {cell}) if type({zone_first}) is rt.Zone and type({cell_first}) is tuple "
                    f"and len({cell}) == 2 else fn.fn_card_at(m, ctx, {zone}, {cell}))")
        if func == "position" and len(args) == 1:
            first, card = self.held(args[0])
            return (f"({card}.position if type({first}) is rt.Card and {card}.position is not None "
                    f"else fn.fn_position(m, ctx, {card}))")
        return None

    def region_in_line(self, e: ir.Call, scope: Scope) -> str | None:
        """`in_region(cell(x, y), r)` for a region the game declares, two plain ints looked up
        in line in the region's cells as fn_in_region does (Two Kingdoms' terrain tests:
        ~130 an action); fn_in_region for anything else. None: not such a call."""
        if len(e.args) != 2 or e.kwargs or "cell" not in self.gen.native_functions:
            return None
        cell, name = e.args
        region = self.call_arg(e.func, 1, name, scope)
        try:
            named = ast.literal_eval(region)
        except (ValueError, SyntaxError):
            return None
        if not (isinstance(cell, ir.Call) and cell.func == "cell" and len(cell.args) == 2 and not cell.kwargs
                and isinstance(named, str) and named in self.gen.region_names):
            return None
        guarded = self.int_guard(*(self.expr(a, scope) for a in cell.args))
        if guarded is None:
            return None
        guard, (x, y) = guarded
        return (f"(({x}, {y}) in m.game.regions[{named!r}].cells if {guard} "
                f"else fn.fn_in_region(m, ctx, fn.fn_cell(m, ctx, {x}, {y}), {named!r}))")

    def remembered_in_line(self, e: ir.Call, call: str, args: str, per_version: bool = False) -> str:
        """A whole-match memo (per_version: the memo per state version, rt.memo's key) read in line:
        the remembered value is looked up under the helper's key, and it is called only on a miss (or
        for a list, which it copies out). Written only where reading the arguments twice is
        harmless and they are sure to be keys: each argument a plain name or a field of one
        (no roll, no call), and every parameter of the function of a type whose values
        hash (a card, zone, player, number, text, truth or enum value — not a list)."""
        decl = self.gen.function_decls.get(e.func)
        if decl is None or not e.args or len(e.args) != len(decl.params) \
                or any(p.type not in _HASHABLE_TYPES for p in decl.params) \
                or not all(_plain_reference(a) for a in e.args):
            return call
        self.gen.inline_memos += 1
        held = f"_mm{self.gen.inline_memos}"
        key = f"({'m.version, m._in_statics, ' if per_version else ''}{ident(e.func, 'F_')}, {args})"
        memo = "memo" if per_version else "match_memo"
        return (f"({held} if ({held} := m.{memo}.get({key}, rt.MISSING)) is not rt.MISSING "
                f"and type({held}) is not list else {call})")

    def visit_Index(self, e: ir.Index, scope: Scope, decide: bool) -> str:
        return f"rt.index({self.expr(e.obj, scope)}, {self.expr(e.index, scope)})"

    def visit_BinOp(self, e: ir.BinOp, scope: Scope, decide: bool) -> str:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op in _INT_ARITH:
            return self.int_arith(e.op, left, right)
        return f"rt.{_ARITH[e.op]}({left}, {right})"

    def held(self, code: str) -> tuple[str, str]:
        """Generated code read more than once: (its first read, its later reads). A plain
        variable or literal is read as it is; anything else is evaluated once, at its first
        read, into a temporary (an assignment expression)."""
        if inline.plain(code):
            return code, code
        self.gen.inline_temps += 1
        temp = f"_i{self.gen.inline_temps}"
        return f"({temp} := {code})", temp

    def int_guard(self, *codes: str) -> tuple[str, list[str]] | None:
        """A test that every operand is a plain int, evaluating each once and in order, and
        the operands' names for after it; None if an operand is a literal other than an int."""
        firsts, names = [], []
        for code in codes:
            first, name = self.held(code)
            firsts.append(first)
            names.append(name)
        tested = [f for f, code in zip(firsts, codes, strict=True) if not _INT_LITERAL.match(code)]
        if any(inline.plain(code) and not _INT_LITERAL.match(code) and not _VARIABLE.match(code)
               and not code.startswith("_i") for code in codes):
            return None  # a text or fraction literal, None, true or false: never a plain int
        if not tested:
            return None  # two literals: the helper answers (an error, a bound) as it would
        return " is ".join(f"type({f})" for f in tested) + " is int", names

    def int_arith(self, op: str, left: str, right: str) -> str:
        """`a + b` (or -, *): two plain ints are added in line, a result within the
        number limit (values.MAX_NUMBER) kept; anything else, or a result beyond the limit,
        goes to the helper, which answers or raises as it always has."""
        guarded = self.int_guard(left, right)
        if guarded is None:
            return f"rt.{_ARITH[op]}({left}, {right})"
        guard, (a, b) = guarded
        self.gen.inline_temps += 1
        result = f"_i{self.gen.inline_temps}"
        return (f"({result} if {guard} and {-MAX_NUMBER!r} <= ({result} := {a} {op} {b}) <= {MAX_NUMBER!r} "
                f"else rt.{_ARITH[op]}({a}, {b}))")

    def visit_Neg(self, e: ir.Neg, scope: Scope, decide: bool) -> str:
        return f"rt.neg({self.expr(e.operand, scope)})"

    def visit_Compare(self, e: ir.Compare, scope: Scope, decide: bool) -> str:
        return self.compare(e, scope)

    def visit_Logic(self, e: ir.Logic, scope: Scope, decide: bool) -> str:
        op = "and" if e.op == "and" else "or"
        return f"({self.boolean(e.left, scope)} {op} {self.boolean(e.right, scope)})"

    def visit_Not(self, e: ir.Not, scope: Scope, decide: bool) -> str:
        return f"(not {self.expr(e.operand, scope)})"

    def visit_Contains(self, e: ir.Contains, scope: Scope, decide: bool) -> str:
        test = f"rt.contains(m, {self.expr(e.collection, scope)}, {self.expr(e.item, scope)})"
        return f"(not {test})" if e.negated else test

    def visit_IsTest(self, e: ir.IsTest, scope: Scope, decide: bool) -> str:
        value = self.expr(e.value, scope)
        test = f"q.is_(m, ctx, {value}, {e.words!r})"
        noun = self.gen.type_nouns.get(e.words[0]) if len(e.words) == 1 and _VARIABLE.match(value) else None
        if noun is not None:  # `t is Unit` of a card read in line, as q.is_ does (KC's can_attack: ~25 an action)
            test = f"({value}.type == {noun!r} if type({value}) is rt.Card else {test})"
        return f"(not {test})" if e.negated else test

    def visit_Conditional(self, e: ir.Conditional, scope: Scope, decide: bool) -> str:
        c = e.condition
        if isinstance(c, ir.Compare) and c.op == "!=" and isinstance(c.right, ir.NoneLit) \
                and isinstance(c.left, ir.Attr) and isinstance(c.left.obj, ir.Ref):
            # `if u.host != none then u.host else u` (carrier(u) written in line): the field
            # read once, into a temporary, when the value given is the field tested
            read = self.expr(c.left, scope)
            if self.expr(e.then, scope) == read:
                self.gen.inline_temps += 1
                temp = f"_i{self.gen.inline_temps}"
                return f"({temp} if ({temp} := {read}) is not None else {self.expr(e.otherwise, scope)})"
        return (f"({self.expr(e.then, scope)} if {self.expr(e.condition, scope)} "
                f"else {self.expr(e.otherwise, scope)})")

    def visit_RangeExpr(self, e: ir.RangeExpr, scope: Scope, decide: bool) -> str:
        return f"rt.Range({self.expr(e.low, scope)}, {self.expr(e.high, scope)})"

    def visit_ListExpr(self, e: ir.ListExpr, scope: Scope, decide: bool) -> str:
        return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]"

    def visit_Roll(self, e: ir.Roll, scope: Scope, decide: bool) -> str:
        return f"rt.roll(m, {self.expr(e.dice, scope)})"

    def visit_TopOf(self, e: ir.TopOf, scope: Scope, decide: bool) -> str:
        count = self.expr(e.count, scope) if e.count is not None else "None"
        return f"q.top(m, {self.expr(e.zone, scope)}, {count}, {e.bottom!r})"

    def visit_Query(self, e: ir.Query, scope: Scope, decide: bool) -> str:
        return self.query(e, scope, decide)

    def attr(self, e: ir.Attr, scope: Scope) -> str:
        """`x.field`. Where the game gives the name one meaning for every card (a built-in
        like zone or controller, a status) or player (a zone of theirs), the read skips
        rt.attr's search: straight off a certain card, else through a helper that checks
        the type first and falls back to rt.attr."""
        obj = self.expr(e.obj, scope)
        kind = self.gen.field_kinds.get(e.name)
        certain = isinstance(e.obj, ir.Ref) and e.obj.name in scope.cards
        # a variable that is probably a card (a parameter, a choice) is tested in line, the
        # helper called only when it is not: a call costs more than the read itself
        simple = isinstance(e.obj, ir.Ref) and _VARIABLE.match(obj) is not None
        if kind == "builtin":
            if certain:
                return f"{obj}.{e.name}"
            if simple:
                return f"({obj}.{e.name} if type({obj}) is rt.Card else rt.card_builtin(m, {obj}, {e.name!r}))"
            return f"rt.card_builtin(m, {obj}, {e.name!r})"
        if kind == "status":
            if certain:
                return f"({e.name!r} in {obj}.statuses)"
            if simple:
                return f"(({e.name!r} in {obj}.statuses) if type({obj}) is rt.Card " \
                       f"else rt.card_status(m, {obj}, {e.name!r}))"
            return f"rt.card_status(m, {obj}, {e.name!r})"
        if kind == "player_zone":
            return f"rt.player_zone(m, {obj}, {e.name!r})"
        if kind == "stat":
            if simple:
                return f"({obj}.base[{e.name!r}] if type({obj}) is rt.Card and not {obj}.modifiers " \
                       f"and {e.name!r} in {obj}.base else rt.card_stat(m, {obj}, {e.name!r}))"
            return f"rt.card_stat(m, {obj}, {e.name!r})"
        return self.attr_in_line(e, obj) or f"rt.attr(m, {obj}, {e.name!r})"

    def attr_in_line(self, e: ir.Attr, obj: str) -> str | None:
        """A field read rt.attr would answer by the value's type, answered in line for the
        type it most likely has, with rt.attr for any other: a cell's `x` / `y`, and an
        enum value's property (`c.colour.code`: a field of a field). None: no guess."""
        if e.name in ("x", "y"):  # a cell's coordinate (`position(u).x`), read as rt.attr reads it
            first, held = self.held(obj)
            return (f"({held}[{'xy'.index(e.name)}] if type({first}) is tuple and len({held}) == 2 "
                    f"else rt.attr(m, {held}, {e.name!r}))")
        if isinstance(e.obj, ir.Attr):
            first, held = self.held(obj)
            return (f"(m.game.enum_props.get(({held}.enum, {held}.name), rt.NO_PROPS).get({e.name!r}) "
                    f"if type({first}) is rt.EnumValue else rt.attr(m, {held}, {e.name!r}))")
        return None

    def identity(self, e: ir.Expr, scope: Scope) -> bool:
        """Is `e` certainly a card, player or zone (or none)? Then `==` is `is`."""
        if isinstance(e, ir.Attr):
            return (isinstance(e.obj, ir.Ref) and e.obj.name in scope.cards
                    and self.gen.field_kinds.get(e.name) == "builtin" and e.name in _ENTITY_BUILTINS)
        if isinstance(e, ir.Ref) and e.name not in scope.locals:
            return e.name in ("you", "self", "current", "active_player") or (
                self.gen.name_kinds.get(e.name, ("", ""))[0] == "zone")
        return isinstance(e, ir.Ref) and e.name in scope.cards

    def boolean(self, e: ir.Expr, scope: Scope) -> str:
        """An operand of `and` / `or`: those give true or false, never an operand's value."""
        code = self.expr(e, scope)
        return code if isinstance(e, _BOOLEAN) else f"bool({code})"

    def compare(self, e: ir.Compare, scope: Scope) -> str:
        """`x == none` is an identity test; the other comparisons call one function per
        operator (rt.same, rt.lt, ...), so no operator is dispatched at play time."""
        zero = {">": 0, "!=": 0, ">=": 1, "==": 0}.get(e.op)
        if zero is not None and isinstance(e.right, ir.Num) and e.right.den == 1 and e.right.num == zero:
            found = self.first_found(e.left, ("count",), scope)
            if found is not None:  # `count(all ...) > 0`: is there one?
                return f"(not {found})" if e.op == "==" else f"bool({found})"
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        # `is` with a number or text literal is a SyntaxWarning in Python (and never true):
        # such a comparison goes to rt.same, or with none is decided here
        literal = _literal(left) or _literal(right)
        if e.op in ("==", "!=") and (isinstance(e.left, ir.NoneLit) or isinstance(e.right, ir.NoneLit)):
            other = right if isinstance(e.left, ir.NoneLit) else left
            if _literal(other):  # a number or text is never none
                return repr(e.op == "!=")
            return f"({other} is {'not ' if e.op == '!=' else ''}None)"
        if e.op in ("==", "!=") and not literal and (self.identity(e.left, scope) or self.identity(e.right, scope)):
            return f"({left} is {'not ' if e.op == '!=' else ''}{right})"  # as rt.same does for these
        if e.op in ("==", "!=") and not literal:
            for side, other in ((e.left, right), (e.right, left)):
                fast = self.entity_field(side, scope)
                if fast is not None:  # (rt.same is `is` for an entity: Kingdom Combat's u.zone == z)
                    test, read = fast
                    pair = (read, other) if side is e.left else (other, read)
                    return (f"({pair[0]} is {'not ' if e.op == '!=' else ''}{pair[1]} if {test} "
                            f"else {self.compare_values(e, left, right, scope)})")
        return self.compare_values(e, left, right, scope)

    def entity_field(self, e: ir.Expr, scope: Scope) -> tuple[str, str] | None:
        """(test, read) for `x.zone` (controller, owner, host) of a variable: a card's is an entity or none."""
        if not (isinstance(e, ir.Attr) and isinstance(e.obj, ir.Ref) and e.name in _ENTITY_BUILTINS
                and self.gen.field_kinds.get(e.name) == "builtin"):
            return None
        obj = self.expr(e.obj, scope)
        return (f"type({obj}) is rt.Card", f"{obj}.{e.name}") if _VARIABLE.match(obj) is not None else None

    def compare_values(self, e: ir.Compare, left: str, right: str, scope: Scope) -> str:
        value = self.enum_literal(e.right, scope) or self.enum_literal(e.left, scope)
        if e.op in ("==", "!=") and value is not None:
            return self.enum_compare(e.op, left if self.enum_literal(e.right, scope) else right, value)
        guarded = self.int_guard(left, right)
        if guarded is not None:  # two plain ints compared in line, as the helpers do first
            guard, (a, b) = guarded
            slow = {"==": f"rt.same({a}, {b})", "!=": f"not rt.same({a}, {b})"}.get(e.op) \
                or f"rt.{_ORDER[e.op]}({a}, {b})"
            return f"({a} {e.op} {b} if {guard} else {slow})"
        if e.op == "==":
            return f"rt.same({left}, {right})"
        if e.op == "!=":
            return f"(not rt.same({left}, {right}))"
        return f"rt.{_ORDER[e.op]}({left}, {right})"

    def enum_literal(self, e: ir.Expr, scope: Scope) -> tuple[str, str, str] | None:
        """(enum, value, constant) when `e` names an enum value (`Ram` in `u.troop == Ram`)."""
        if not isinstance(e, ir.Ref) or e.name in scope.locals or e.name in scope.bound or e.name in _BUILTINS:
            return None
        kind, detail = self.gen.name_kinds.get(e.name, ("", ""))
        return (detail, e.name, self.gen.global_name(e.name)) if kind == "enumvalue" else None

    def enum_compare(self, op: str, other: str, value: tuple[str, str, str]) -> str:
        """`x == Ram`: an enum value compared by its two fields in line, as rt.same does
        (`u.troop == Ram` is asked hundreds of times an action); rt.same for anything else
        (the text of the value's name, none, a number: as before)."""
        enum, name, constant = value
        first, held = self.held(other)
        same = (f"(({held}.name == {name!r} and {held}.enum == {enum!r}) if type({first}) is rt.EnumValue "
                f"else rt.same({held}, {constant}))")
        return same if op == "==" else f"(not {same})"

    def call_args(self, e: ir.Call, scope: Scope) -> list[str]:
        """A call's arguments, positional, in the function's parameter order: a named
        argument goes to its parameter's place, and a parameter left out takes its declared
        default. A game function's Python signature has no defaults (a default such as
        `you` depends on the caller), so every one of its parameters is passed; an engine
        function's trailing parameters left out keep the engine's own defaults."""
        decl = self.gen.function_decls.get(e.func)
        if decl is None:  # the checker reports an unknown function first
            return [self.call_arg(e.func, i, a, scope) for i, a in enumerate(e.args)]
        position = {p.name: i for i, p in enumerate(decl.params)}
        given: dict[int, str] = {}
        for i, a in enumerate(e.args):  # written in source order: a hoisted choice is asked in that order
            given[i] = self.call_arg(e.func, i, a, scope)
        for name, a in e.kwargs.items():
            if name not in position or position[name] in given:
                raise CodegenError(f"{e.func}: bad argument {name!r}")  # the checker reports it first
            given[position[name]] = self.call_arg(e.func, position[name], a, scope)
        last = len(decl.params) - 1 if not decl.native else max(given, default=-1)
        out: list[str] = []
        for i, p in enumerate(decl.params[:last + 1]):
            if i in given:
                out.append(given[i])
            elif p.default is not None:
                out.append(self.default(p))
            else:
                raise CodegenError(f"{e.func}: no value for {p.name!r}")  # the checker reports it first
        return out

    def call_arg(self, func: str, index: int, arg: ir.Expr, scope: Scope) -> str:
        """Arguments that name things (a field, a keyword, a region) pass as their name."""
        kinds = self.gen.name_params.get(func, {})
        if index in kinds and isinstance(arg, ir.Ref) and arg.name not in scope.locals:
            return repr(arg.name)
        return self.expr(arg, scope)

    def ref(self, name: str, scope: Scope) -> str:
        bound = scope.bound.get(name)
        if bound is not None:  # a parameter of a function written in line: its argument
            return bound
        if name in scope.locals:
            return ident(name)
        builtin = _BUILTINS.get(name)
        if builtin is not None:
            return builtin
        if name.startswith("player") and name[6:].isdigit():
            return f"rt.player(m, {int(name[6:])!r})"
        return self.gen.global_name(name)

    def query(self, e: ir.Query, scope: Scope, decide: bool) -> str:
        inner = scope.child()
        inner.bind("it", card=e.noun.lower() not in ir.PLAYER_NOUNS)
        where = f"(lambda v_it: {self.expr(e.where, inner, decide=False)})" if e.where is not None else "None"
        zone = self.expr(e.zone, scope, decide=False) if e.zone is not None else "None"
        count = self.expr(e.count, scope) if e.count is not None else "None"
        adjectives = list(e.adjectives)
        if e.det == "another" and e.noun.lower() not in ir.PLAYER_NOUNS and "other" not in adjectives:
            # `another gem` is `other gem`: wherever it is read (a choice asked here, the
            # source of a `choose`, a loop), the card whose rule runs is left out
            adjectives.append("other")
        found = (f"q.query(m, ctx, {e.noun.lower()!r}, {adjectives!r}, {zone}, {where}"
                 f"{self.zone_plan(e, inner)})")
        if e.det in EVERY_DETERMINERS or not decide:
            return found
        temp = self.fresh()
        if e.det == "random":
            self.line(f"{temp} = rt.random_pick(m, {found}, {count})")
            return temp
        mode = "one" if e.count is None else ("up_to" if e.up_to else "exact")
        exclude_self = e.det == "another"
        site = self.gen.choice_site()
        self.line(f"{temp} = yield rt.Choose(m, ctx.you, rt.probed_options(m, {site!r}, lambda: rt.options(m, "
                  f"{found}, None, exclude_self={exclude_self!r}, ctx=ctx)), {mode!r}, {count}, "
                  f"targeting={(e.det == 'target')!r}, label={e.noun!r}, line={e.span.line!r})")
        return temp

    def zone_plan(self, e: ir.Query, inner: Scope) -> str:
        """Extra arguments of q.query when part of the condition reads a card only by its
        zone (queryplan.py): that part, asked once per zone, and the rest, asked per card."""
        if e.where is None or e.noun.lower() in ir.PLAYER_NOUNS or not self.gen.planner.pure_expr(e.where):
            return ""
        by_zone, rest = self.gen.planner.split(e.where, inner.locals)
        if not by_zone:
            return ""
        rest_expr = queryplan.join(rest)
        card_test = f"(lambda v_it: {self.expr(rest_expr, inner, decide=False)})" if rest_expr is not None else "None"
        constant, varying = queryplan.split_constant(by_zone, self.gen.match_constant, self.gen.function_decls)
        joined = queryplan.join(constant or varying)
        assert joined is not None
        zone_test = f"(lambda v_it: {self.expr(joined, inner, decide=False)})"
        if not constant:
            return f", {zone_test}, {card_test}"
        # one answer per zone for the whole match: q.query remembers it under this site,
        # and asks the part that is not (`it.zone is not z`) at every query
        self.gen.zone_sites += 1
        also = queryplan.join(varying)
        also_test = f", (lambda v_it: {self.expr(also, inner, decide=False)})" if also is not None else ""
        return f", {zone_test}, {card_test}, {self.gen.zone_sites!r}{also_test}"


def _literal(code: str) -> bool:
    """Is this generated Python a literal constant other than None/True/False (a number
    or a string written by repr())? Python warns at `is` with one of those."""
    try:
        tree = ast.parse(code, mode="eval")
    except SyntaxError:
        return False
    return isinstance(tree.body, ast.Constant) and not any(tree.body.value is v for v in (None, True, False))


# card built-ins that hold a card, player or zone (or none)
_ENTITY_BUILTINS = frozenset({"zone", "controller", "owner", "host"})
# operators whose helper first tries two plain ints (values.add, sub, mul)
_INT_ARITH = frozenset({"+", "-", "*"})
_INT_LITERAL = re.compile(r"-?[0-9]+\Z")
_ARITH = {"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv", "%": "mod"}
_ORDER = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
# expressions whose Python value is already True or False
_BOOLEAN = (ir.Compare, ir.Logic, ir.Not, ir.Contains, ir.IsTest, ir.Bool)

_BUILTINS = {
    "you": "ctx.you", "self": "ctx.self", "opponent": "rt.opponent(m, ctx)", "current": "m.current",
    "active_player": "m.current", "players": "rt.players(m)", "turn_number": "m.turn_number",
    "round_number": "m.round_number", "winner": "m.winner", "game_over": "m.over", "drawn": "m.drawn",
    "player_count": "len(m.players)", "none": "None", "mode": "m.mode",
}


# parameter types whose values are always dictionary keys (rt.memo_match's key holds them)
_HASHABLE_TYPES = frozenset({"card", "zone", "player", "number", "text", "bool", "cardname"})


def _plain_reference(e: ir.Expr) -> bool:
    """A name, or a field of one (`c.zone`): reading it twice reads the same and changes nothing."""
    while isinstance(e, ir.Attr):
        e = e.obj
    return isinstance(e, ir.Ref)
