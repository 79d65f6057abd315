"""Expressions → Python source: the half of a rule body's lowering that yields values.

Split from the statement writer (codegen_stmts.py) because expressions are the larger,
self-contained half: each IR expression becomes one Python expression, except a query
that asks a player (`target`, `a`, `any`) or picks at random, which is hoisted into a
choice line before the statement being written. User text never becomes code here:
names pass `ident()` (a strict identifier pattern plus a prefix, so no user name is a
keyword or builtin) and every string and number is written with `repr()`.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from cardsmith.compiler import codegen_compare, codegen_memo, codegen_natives, codegen_planned, codegen_scan, inline
from cardsmith.compiler.codegen_bystat import by_stat
from cardsmith.compiler.codegen_index import indexed
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import Visitor, members
from cardsmith.dsl.words import EVERY_DETERMINERS
from cardsmith.model.values import MAX_NUMBER

if TYPE_CHECKING:
    from cardsmith.compiler.codegen import CodeGenerator

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_VARIABLE = inline.VARIABLE  # (code for a plain variable, a local or `self` / `you`: safe to read twice)


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
        # while a scanned query's condition is written (codegen_scan.py): the table reads it
        # makes (a param, a shared counter or zone, the enum properties), each read once
        # into a temporary before the scan rather than once a card
        self.hoisted: dict[str, str] | None = None
        # a card's stat read into a temporary by a test that is always evaluated, while
        # the expression being written evaluates it (read -> temporary): a later read of
        # the same stat of the same variable reads the temporary (`it.face` three times in
        # UNO's can_match, written in line). Emptied at each expression written (kept in a
        # pure body: body_known), inside a query's condition; a part evaluated only sometimes
        # adds nothing to it.
        self.known: dict[str, str] = {}
        self.depth = 0
        self.sharing = False
        # the body of a function that changes nothing (purity.py): what one statement reads
        # for sure stays known in the statements after it (BodyWriter scopes it by block),
        # and so does each call it makes for sure (`position(carrier(u))`, four times in Two
        # Kingdoms' `reaches` through `spaces` and `orthogonal` written in line)
        self.body_known = False
        self.maybe = 0  # (parts being written that are evaluated only sometimes: sometimes())

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
        if self.depth == 0 and not self.body_known:
            self.known = {}
        self.depth += 1
        try:
            code: str = self.visit(e, scope, decide)
        finally:
            self.depth -= 1
        return code

    def apart(self, e: ir.Expr, scope: Scope) -> str:
        """Code for a condition asked of each card (`it` is another card each time, in a
        function of its own): no read made outside it, nor inside it, is known across it."""
        known, self.known = self.known, {}
        maybe, self.maybe = self.maybe, 1  # (a call it makes is not kept: asked once a card)
        try:
            return self.expr(e, scope, decide=False)
        finally:
            self.known, self.maybe = known, maybe

    def sometimes(self, write: Callable[[], str]) -> str:
        """Code for a part evaluated only sometimes (a branch): what it reads is not known after it."""
        known = dict(self.known)
        self.maybe += 1
        try:
            return write()
        finally:
            self.known = known
            self.maybe -= 1

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
        key = codegen_compare.call_key(e, scope)
        if (known := self.known.get(key)) is not None:
            return known  # a call made already (codegen_compare._remember; a pure body's, below)
        code = self.call(e, scope)
        if not self.body_known or self.maybe or self.depth == 1 or inline.plain(code) or key in self.known:
            return code
        # in a body that changes nothing, a call made for sure is kept for the later ones:
        # the same arguments (no name they read is given another value: BodyWriter.stmt)
        # give the same value, and a call that raised has ended the body
        self.gen.inline_temps += 1
        temp = self.known[key] = f"_i{self.gen.inline_temps}"
        return f"({temp} := {code})"

    def call(self, e: ir.Call, scope: Scope) -> str:
        if e.func == "in_region" and e.func in self.gen.native_functions:
            region = self.region_in_line(e, scope)
            if region is not None:
                return region
        found, card = self.first_found(e, ("any", "first"), scope)
        if card and found is not None:  # (the first card itself, or None)
            return f"({found} is not None)" if e.func == "any" else found
        if found is not None:
            self.gen.inline_temps += 1
            temp = f"_i{self.gen.inline_temps}"
            return f"bool({found})" if e.func == "any" else f"({temp}[0] if ({temp} := {found}) else None)"
        counted = codegen_memo.counted_in_line(self, e, scope, ident) or codegen_scan.counted(self, e, scope)
        if counted is not None:
            return counted
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
            return self.remembered_in_line(e, f"{helper}(m, ctx, {ident(e.func, 'F_')}", arg_list)
        purity = self.gen.pure.get(e.func)
        if purity is not None and purity.worth_it:  # remembered while the state is unchanged (purity.py)
            head = f"{'rt.memo_body' if body else 'rt.memo'}(m, ctx, {ident(e.func, 'F_')}, {purity.reads_actor!r}"
            if body or purity.reads_actor:  # (read in line otherwise, as below: KC's enemies_in, reach)
                return f"{head}{', ' if args else ''}{args})"
            return self.remembered_in_line(e, head, arg_list, per_version=True)
        written = by_stat(self, e, arg_list, scope, ident) or self.inline(e.func, arg_list, scope)
        if written is not None:
            return written
        call = f"{ident(e.func, 'F_')}(m, ctx{', ' if args else ''}{args})"
        return f"rt.run_pure(m, {call})" if body else call

    def first_found(self, e: ir.Expr, funcs: tuple[str, ...], scope: Scope) -> tuple[str | None, bool]:
        """`any(all ...)`, `first(all ...)`, `count(all ...) > 0`: the query stopping at its first
        find, and whether that code gives the card itself (or None: scanned in line,
        codegen_scan.py) rather than q.query's list of at most one. (None, False): not such a call."""
        if not self.stops_at_first(e, funcs):
            return None, False
        assert isinstance(e, ir.Call) and isinstance(e.args[0], ir.Query)
        found, scanned = self.query_parts(e.args[0], scope)
        return (scanned.first(), True) if scanned is not None else (found[:-1] + ", one=True)", False)

    def stops_at_first(self, e: ir.Expr, funcs: tuple[str, ...]) -> bool:
        """Is `e` a call of one of `funcs` that first_found writes (a query stopping at its first find)?"""
        return (isinstance(e, ir.Call) and e.func in funcs and e.func in self.gen.native_functions
                and len(e.args) == 1 and not e.kwargs and isinstance(e.args[0], ir.Query)
                and e.args[0].det in EVERY_DETERMINERS)

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
        return codegen_natives.native_in_line(self, func, args)

    def region_in_line(self, e: ir.Call, scope: Scope) -> str | None:
        return codegen_natives.region_in_line(self, e, scope)

    def remembered_in_line(self, e: ir.Call, head: str, args: list[str], per_version: bool = False) -> str:
        return codegen_memo.remembered_in_line(self, e, ident(e.func, "F_"), head, args, per_version)

    def visit_Index(self, e: ir.Index, scope: Scope, decide: bool) -> str:
        return f"rt.index({self.expr(e.obj, scope)}, {self.expr(e.index, scope)})"

    def visit_BinOp(self, e: ir.BinOp, scope: Scope, decide: bool) -> str:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op in _INT_ARITH:
            return self.int_arith(e.op, left, right)
        return f"rt.{_ARITH[e.op]}({left}, {right})"

    def held(self, code: str, share: bool = False) -> tuple[str, str]:
        """Generated code read more than once: (its first read, its later reads). A plain
        variable or literal is read as it is; anything else is evaluated once, at its first
        read, into a temporary (an assignment expression). A card's stat known read (`known`)
        is its temporary; `share`: this first read is always evaluated, so is known after."""
        if inline.plain(code):
            return code, code
        share = share and self.depth > 0  # (known only inside the expression being written)
        known = self.known.get(code) if self.depth > 0 else None
        if known is not None:
            return known, known
        self.gen.inline_temps += 1
        temp = f"_i{self.gen.inline_temps}"
        if share and _STAT_READ.match(code):
            self.known[code] = temp
        return f"({temp} := {code})", temp

    def int_guard(self, *codes: str) -> tuple[str, list[str]] | None:
        """A test that every operand is a plain int, evaluating each once and in order, and
        the operands' names for after it; None if an operand is a literal other than an int.
        `sharing` (set by the caller): the test is always evaluated, and so is each operand
        in it (two at most), so a stat read here is known after it (held's `share`)."""
        firsts, names = [], []
        for code in codes:
            first, name = self.held(code, self.sharing and len(codes) <= 2)
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
        """`a + b` (or -, *, and % and // by an int not 0): two plain ints are added in line, a result within the
        number limit (values.MAX_NUMBER) kept; anything else, or a result beyond the limit,
        goes to the helper, which answers or raises as it always has."""
        guarded = self.int_guard(left, right)
        if guarded is None or (op in ("%", "//") and right == "0"):
            return f"rt.{_ARITH[op]}({left}, {right})"
        guard, (a, b) = guarded
        if op in ("%", "//"):  # (of two ints, b not 0, never beyond the limit: KC's slot(c), ~20 an action)
            return f"({a} {op} {b} if {guard} and {b} else rt.{_ARITH[op]}({a}, {b}))"
        self.gen.inline_temps += 1
        result = f"_i{self.gen.inline_temps}"
        return (f"({result} if {guard} and {-MAX_NUMBER!r} <= ({result} := {a} {op} {b}) <= {MAX_NUMBER!r} "
                f"else rt.{_ARITH[op]}({a}, {b}))")

    def visit_Neg(self, e: ir.Neg, scope: Scope, decide: bool) -> str:
        return f"rt.neg({self.expr(e.operand, scope)})"

    def visit_Compare(self, e: ir.Compare, scope: Scope, decide: bool) -> str:
        return codegen_compare.compare(self, e, scope)

    def visit_Logic(self, e: ir.Logic, scope: Scope, decide: bool) -> str:
        op = "and" if e.op == "and" else "or"
        left = self.boolean(e.left, scope)
        return f"({left} {op} {self.sometimes(lambda: self.boolean(e.right, scope))})"

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
            if self.sometimes(lambda: self.expr(e.then, scope)) == read:
                self.gen.inline_temps += 1
                temp = f"_i{self.gen.inline_temps}"
                otherwise = self.sometimes(lambda: self.expr(e.otherwise, scope))
                return f"({temp} if ({temp} := {read}) is not None else {otherwise})"
        condition = self.expr(e.condition, scope)  # (evaluated first: written first)
        then = self.sometimes(lambda: self.expr(e.then, scope))
        return f"({then} if {condition} else {self.sometimes(lambda: self.expr(e.otherwise, scope))})"

    def visit_RangeExpr(self, e: ir.RangeExpr, scope: Scope, decide: bool) -> str:
        return f"rt.Range({self.expr(e.low, scope)}, {self.expr(e.high, scope)})"

    def visit_ListExpr(self, e: ir.ListExpr, scope: Scope, decide: bool) -> str:
        return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]"

    def visit_Roll(self, e: ir.Roll, scope: Scope, decide: bool) -> str:
        return f"rt.roll(m, {self.expr(e.dice, scope)})"

    def visit_TopOf(self, e: ir.TopOf, scope: Scope, decide: bool) -> str:
        count = self.sometimes(lambda: self.expr(e.count, scope)) if e.count is not None else "None"  # (read 2nd)
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
        if kind == "player_zone":  # (looked up in line as rt.player_zone does first: a call less)
            first, held = self.held(obj)
            self.gen.inline_temps += 1
            zone = f"_i{self.gen.inline_temps}"
            return (f"({zone} if type({first}) is rt.Player and ({zone} := m.zones.get(({e.name!r}, {held}.index))) "
                    f"is not None else rt.player_zone(m, {held}, {e.name!r}))")
        if kind == "stat":
            if certain:  # (a query's `it`, a card for sure: no test of its type)
                return f"({obj}.base[{e.name!r}] if not {obj}.modifiers " \
                       f"and {e.name!r} in {obj}.base else rt.card_stat(m, {obj}, {e.name!r}))"
            if simple:
                return f"({obj}.base[{e.name!r}] if type({obj}) is rt.Card and not {obj}.modifiers " \
                       f"and {e.name!r} in {obj}.base else rt.card_stat(m, {obj}, {e.name!r}))"
            return f"rt.card_stat(m, {obj}, {e.name!r})"
        return self.attr_in_line(e, obj) or f"rt.attr(m, {obj}, {e.name!r})"

    def attr_in_line(self, e: ir.Attr, obj: str) -> str | None:
        """A field read rt.attr would answer by the value's type, answered in line for the
        type it most likely has, with rt.attr for any other: a cell's `x` / `y`, an enum
        value's property (`c.colour.code`: a field of a field), a player's counter. None: no guess."""
        if e.name in ("x", "y"):  # a cell's coordinate (`position(u).x`), read as rt.attr reads it
            first, held = self.held(obj)
            return (f"({held}[{'xy'.index(e.name)}] if type({first}) is tuple and len({held}) == 2 "
                    f"else rt.attr(m, {held}, {e.name!r}))")
        if isinstance(e.obj, ir.Attr):
            first, held = self.held(obj)
            return (f"({self.hoist('m.game.enum_props')}.get({held}, rt.NO_PROPS).get({e.name!r}) "
                    f"if type({first}) is rt.EnumValue else rt.attr(m, {held}, {e.name!r}))")
        owner = {"player": "rt.Player", "card": "rt.Card"}.get(self.gen.counter_scopes.get(e.name, ""))
        if owner is not None:  # a player's or a card's counter (Combat Cards' p.exposure, Kingdom Combat's u.damage)
            first, held = self.held(obj)
            return (f"({held}.counters[{e.name!r}] if type({first}) is {owner} and {e.name!r} in {held}.counters "
                    f"else rt.attr(m, {held}, {e.name!r}))")
        return None

    def boolean(self, e: ir.Expr, scope: Scope) -> str:
        """An operand of `and` / `or`: those give true or false, never an operand's value."""
        code = self.expr(e, scope)
        return code if self.gives_bool(e) else f"bool({code})"

    def gives_bool(self, e: ir.Expr) -> bool:
        """Is the Python value of `e` certainly True or False, so needs no bool()? A test,
        `any(all ...)` (written as bool(...)), and a call of a game function whose body is
        a test: called, remembered or written in line, the call gives the body's value."""
        seen: set[str] = set()  # (the functions whose body was looked at: a function may call itself)
        while not (isinstance(e, _BOOLEAN) or self.stops_at_first(e, ("any",))):
            decl = self.gen.function_decls.get(e.func) if isinstance(e, ir.Call) else None
            if decl is None or decl.native or decl.body or decl.name in self.gen.body_functions \
                    or decl.expr is None or decl.name in seen:
                return False
            seen.add(decl.name)
            e = decl.expr
        return True

    def enum_literal(self, e: ir.Expr, scope: Scope) -> tuple[str, str, str] | None:
        """(enum, value, constant) when `e` names an enum value (`Ram` in `u.troop == Ram`)."""
        if not isinstance(e, ir.Ref) or e.name in scope.locals or e.name in scope.bound or e.name in _BUILTINS:
            return None
        kind, detail = self.gen.name_kinds.get(e.name, ("", ""))
        return (detail, e.name, self.gen.global_name(e.name)) if kind == "enumvalue" else None

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
        given: dict[int, str] = {}  # (named ones are passed in the parameters' order: sometimes())
        for i, a in enumerate(e.args):  # written in source order: a hoisted choice is asked in that order
            given[i] = self.call_arg(e.func, i, a, scope)
        for name, a in e.kwargs.items():
            if name not in position or position[name] in given:
                raise CodegenError(f"{e.func}: bad argument {name!r}")  # the checker reports it first
            given[position[name]] = self.sometimes(partial(self.call_arg, e.func, position[name], a, scope))
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
        code = self.gen.global_name(name)
        return self.hoist(code) if code.startswith(("m.params[", "m.shared[", "m.zones[(")) else code

    def hoist(self, code: str) -> str:
        """A read of the table that a scan's condition makes (`code`: written here, from
        names already made safe), as the temporary it is read into before the scan; as it
        is outside a scan. Nothing the condition does changes it (a condition is pure)."""
        if self.hoisted is None:
            return code
        temp = self.hoisted.get(code)
        if temp is None:
            self.gen.inline_temps += 1
            temp = self.hoisted[code] = f"_i{self.gen.inline_temps}"
        return temp

    def query(self, e: ir.Query, scope: Scope, decide: bool) -> str:
        if decide and e.det not in EVERY_DETERMINERS:
            self.known = {}  # (asked on a line of its own, before the statement: nothing read yet)
        found, scanned = self.query_parts(e, scope)
        if scanned is not None:
            found = scanned.every()
        if e.det in EVERY_DETERMINERS or not decide:
            return found
        count = self.expr(e.count, scope) if e.count is not None else "None"
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

    def query_parts(self, e: ir.Query, scope: Scope) -> tuple[str, codegen_scan.Scan | None]:
        """The query as q.query's call, and as a scan in line where one will do (codegen_scan.py)."""
        inner = scope.child()
        inner.bind("it", card=e.noun.lower() not in ir.PLAYER_NOUNS)
        adjectives = list(e.adjectives)
        if e.det == "another" and e.noun.lower() not in ir.PLAYER_NOUNS and "other" not in adjectives:
            # `another gem` is `other gem`: wherever it is read (a choice asked here, the
            # source of a `choose`, a loop), the card whose rule runs is left out
            adjectives.append("other")
        plan = codegen_planned.plan_of(self, e, inner)
        planned = codegen_planned.in_line(self, e, adjectives, plan)
        scanning = planned or codegen_scan.scans(self.gen.game, e, adjectives, plan is not None)
        outer, self.hoisted = self.hoisted, ({} if scanning else self.hoisted)
        try:
            condition = self.apart(e.where, inner) if e.where is not None else None
            if planned:  # (over the zones in line, its parts written while reads are hoisted)
                assert plan is not None and condition is not None
                return "", codegen_planned.planned_scan(self, e, adjectives, plan, inner, condition)
        finally:
            hoisted, self.hoisted = self.hoisted, outer
        where = f"(lambda v_it: {condition})" if condition is not None else "None"
        zone = self.expr(e.zone, scope, decide=False) if e.zone is not None else "None"
        found = (f"q.query(m, ctx, {e.noun.lower()!r}, {adjectives!r}, {zone}, {where}"
                 f"{codegen_planned.plan_args(self, plan, inner)})")
        if not scanning:
            return found, None
        before = [f"({temp} := {code})" for code, temp in (hoisted or {}).items()]
        if not inline.plain(zone):  # (no assignment expression may stand in a comprehension's iterable)
            self.gen.inline_temps += 1
            before.insert(0, f"(_i{self.gen.inline_temps} := {zone})")
            zone = f"_i{self.gen.inline_temps}"
        scan = codegen_scan.scan(self.gen.game, e.noun, zone,
                                 codegen_scan.with_adjectives(self.gen, adjectives, condition, before), before)
        return found, scan if adjectives else indexed(self, e, scope, zone, scan)  # (by a stat's value: a table)


# operators whose helper first tries two plain ints (values.add, sub, mul, floordiv, mod)
_INT_ARITH = frozenset({"+", "-", "*", "%", "//"})
_INT_LITERAL = re.compile(r"-?[0-9]+\Z")
# a card's stat as attr() reads it off a variable (a pure read: ExprWriter.known)
_STAT_READ = re.compile(r"\((v_[A-Za-z0-9_]+|_i[0-9]+|ctx\.self|ctx\.you)\.base\[")
_ARITH = {"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv", "%": "mod"}
# expressions whose Python value is already True or False
_BOOLEAN = (ir.Compare, ir.Logic, ir.Not, ir.Contains, ir.IsTest, ir.Bool)

_BUILTINS = {
    "you": "ctx.you", "self": "ctx.self", "opponent": "rt.opponent(m, ctx)", "current": "m.current",
    "active_player": "m.current", "players": "rt.players(m)", "turn_number": "m.turn_number",
    "round_number": "m.round_number", "winner": "m.winner", "game_over": "m.over", "drawn": "m.drawn",
    "player_count": "len(m.players)", "none": "None", "mode": "m.mode",
}
