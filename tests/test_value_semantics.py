"""One meaning for an expression (issue 12): before play and in play, the same value or
the same error.

Two evaluators read expressions: the checker's static evaluator (params, modes, card
fields, deck rules, layouts: compiler/static_eval.py) and the code the compiler writes for
the rules a played match runs (compiler/codegen.py, calling engine/runtime.py). Both call
cardsmith/model/values.py. The property test writes random expressions as source text, parses
them as a game file's are parsed, and evaluates each one both ways: the static evaluator
on the IR, and the Python the code generator writes for that very IR node, run against a
real match. The two must give the same value (of the same kind: `6 / 3` is the whole
number 2 both ways) or the same error, message included.

The examples below pin the rules themselves (docs/language.md, "Values"), so both
evaluators cannot drift together; the last tests show a designer's view: a value fixed
before play that cannot be computed is a located `check` error, and a rule that computes
one in play stops the match with the same words.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import write_game
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsmith.compiler.api import check_game
from cardsmith.compiler.codegen import CodeGenerator
from cardsmith.compiler.codegen_exprs import Scope
from cardsmith.compiler.codegen_stmts import BodyWriter
from cardsmith.compiler.static_eval import StaticEnv
from cardsmith.dsl import ir
from cardsmith.dsl.exprparse import parse_words
from cardsmith.dsl.source import SourceFile
from cardsmith.engine import functions, queries
from cardsmith.engine import runtime as rt
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.model import values

GAME = '''
game "Values" {
  id: values
  players: 2
}
cardtype Unit {
  stats { attack: number = 0 }
}
card "Footman" {
  type: Unit
}
turn {
  stage main { }
}
'''


@cache
def _table(folder: str) -> tuple[CompiledGame, StaticEnv, CodeGenerator, PlayedMatch]:
    result = check_game(folder)
    assert result.game is not None and not [d for d in result.diagnostics if d.severity == "error"]
    game = CompiledGame(result.game)
    match = game.new_match(seed=1)
    assert isinstance(match, PlayedMatch)
    return game, StaticEnv(result.game), CodeGenerator(result.game, "test"), match


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[CompiledGame, StaticEnv, CodeGenerator, PlayedMatch]:
    folder = write_game(tmp_path_factory.mktemp("values") / "values", {"rules.cards": GAME})
    return _table(str(folder))


def parse(text: str) -> ir.Expr:
    source = SourceFile("e.cards", "x: " + text)
    node = parse_words(source, 3, len(source.text), "cond_tail")
    assert isinstance(node, ir.Node)
    return node  # type: ignore[return-value]


def canonical(value: Any) -> Any:
    """A value with its kind spelt out: 2 and Fraction(2) and True must not pass for
    one another."""
    if value is None or type(value) in (bool, int, str):
        return (type(value).__name__, value)
    if type(value) is Fraction:
        return ("fraction", value.numerator, value.denominator)
    if type(value) is list:
        return ("list", tuple(canonical(v) for v in value))
    if type(value) is values.Range:
        return ("range", canonical(value.low), canonical(value.high))
    if type(value) is values.Dice:
        return ("dice", value.count, value.sides)
    raise AssertionError(f"an expression over literals gave {value!r}")


def outcome(thunk: Any) -> tuple[Any, ...]:
    """('value', its canonical form) or ('error', kind, message). Any other exception
    (a Python TypeError, NotStatic for a literal) is a bug and fails the test."""
    try:
        return ("value", canonical(thunk()))
    except values.OperationError as error:
        return ("error", error.kind, str(error))


def static_outcome(env: StaticEnv, node: ir.Expr) -> tuple[Any, ...]:
    return outcome(lambda: env.eval(node, {}))


def compiled_outcome(gen: CodeGenerator, match: PlayedMatch, node: ir.Expr) -> tuple[Any, ...]:
    """Run the Python the code generator writes for this node, as a rule's would run."""
    writer = BodyWriter(gen)
    code = writer.expr(node, Scope(), decide=False)
    assert not writer.lines, writer.lines  # nothing hoisted: an expression over literals
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # (`3 is None`: the codegen's `== none`)
        compiled = compile(code, "<expression>", "eval")
    scope = {"rt": rt, "fn": functions, "q": queries, "m": match, "ctx": rt.Ctx(match.players[0], None)}
    return outcome(lambda: eval(compiled, scope))


# ---------------------------------------------------------------- random expressions

ARITHMETIC = ["+", "-", "*", "/", "//", "%"]
COMPARISONS = ["==", "!=", "<", "<=", ">", ">="]
ONE_ARGUMENT = ["count", "size", "sum", "min", "max", "any", "first", "last", "abs", "floor", "ceil"]

integers = st.integers(min_value=-6, max_value=6).map(str)
decimals = st.sampled_from(["0.5", "1.5", "2.25", "-0.5", "0.1"])
others = st.sampled_from(['"a"', '"b"', '""', "yes", "no", "none", "d6", "2d6"])


def operation(sub: st.SearchStrategy[str], ops: list[str], right: st.SearchStrategy[str] | None = None) \
        -> st.SearchStrategy[str]:
    pairs = st.tuples(sub, st.sampled_from(ops), sub if right is None else right)
    return pairs.map(lambda t: f"({t[0]} {t[1]} {t[2]})")


def listed(sub: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(sub, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")


# Mostly numbers, now and then another kind (none, yes/no, text, dice): arithmetic that
# usually computes, so values are compared as often as errors.
numbers = st.recursive(
    st.one_of(integers, integers, decimals, others),
    lambda sub: st.one_of(
        operation(sub, ARITHMETIC), operation(sub, ARITHMETIC),
        sub.map(lambda a: f"(-({a}))"),
        st.tuples(st.sampled_from(["abs", "floor", "ceil"]), sub).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(st.sampled_from(["min", "max"]), sub, sub).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        st.tuples(st.sampled_from(["sum", "min", "max", "count", "first", "last"]), listed(sub)).map(
            lambda t: f"{t[0]}({t[1]})"),
        st.tuples(listed(sub), sub).map(lambda t: f"(({t[0]})[{t[1]}])"),
        st.tuples(operation(sub, COMPARISONS), sub, sub).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
    ),
    max_leaves=8,
)


def anything(sub: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Every operator over every kind."""
    bound = st.one_of(sub, st.just(""))
    return st.one_of(
        operation(sub, ARITHMETIC), operation(sub, COMPARISONS), operation(sub, ["and", "or"]),
        operation(sub, ["in", "not in"]),
        sub.map(lambda a: f"(-({a}))"),
        sub.map(lambda a: f"(not ({a}))"),
        listed(sub),
        st.tuples(sub, bound).map(lambda t: f"({t[0]}..{t[1]})"),
        st.tuples(bound, sub).map(lambda t: f"({t[0]}..{t[1]})"),
        st.tuples(sub, sub, sub).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(sub, st.sampled_from(["is Unit", "is not Unit"])).map(lambda t: f"({t[0]} {t[1]})"),
        st.tuples(sub, sub).map(lambda t: f"(({t[0]})[{t[1]}])"),
        st.tuples(st.sampled_from(ONE_ARGUMENT), sub).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(st.sampled_from(["min", "max"]), sub, sub).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
    )


# Conditions over numbers (comparisons, membership in lists and ranges, and / or / not),
# and anything over anything.
conditions = st.recursive(
    st.one_of(operation(numbers, COMPARISONS),
              operation(numbers, ["in", "not in"], st.one_of(listed(numbers), st.tuples(numbers, numbers).map(
                  lambda t: f"({t[0]}..{t[1]})"))),
              listed(numbers).map(lambda xs: f"any({xs})"),
              st.tuples(numbers, st.sampled_from(["is Unit", "is not Unit"])).map(lambda t: f"({t[0]} {t[1]})")),
    lambda sub: st.one_of(operation(sub, ["and", "or"]), sub.map(lambda a: f"(not ({a}))")),
    max_leaves=4,
)
expressions = st.one_of(numbers, conditions, st.recursive(st.one_of(integers, decimals, others), anything,
                                                          max_leaves=10))
EXAMPLES = 300
seen: dict[str, int] = {"value": 0, "error": 0}


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(text=expressions)
def test_static_and_compiled_agree(table: tuple[CompiledGame, StaticEnv, CodeGenerator, PlayedMatch],
                                   text: str) -> None:
    _game, env, gen, match = table
    node = parse(text)
    before_play = static_outcome(env, node)
    in_play = compiled_outcome(gen, match, node)
    assert before_play == in_play, text
    seen[before_play[0]] += 1


def test_the_random_expressions_reach_values_and_errors() -> None:
    """The property test above is worth something only if it sees both outcomes often
    (it runs first: pytest keeps a module's order)."""
    if sum(seen.values()) < EXAMPLES:
        pytest.skip("runs after test_static_and_compiled_agree")
    assert seen["value"] >= EXAMPLES // 5 and seen["error"] >= EXAMPLES // 5, seen


# ---------------------------------------------------------------- the rules themselves

ERROR, ZERO = ("error", "type"), ("error", "zero")
TABLE: list[tuple[str, Any]] = [
    # arithmetic: numbers only, exact; a whole result is a whole number
    ("7 / 2", Fraction(7, 2)), ("6 / 3", 2), ("1.5 * 2", 3), ("-7 // 2", -4), ("-7 % 3", 2),
    ("7 % -3", -2), ("0.5 + 0.5", 1), ("1 / 0", ZERO), ("1 // 0", ZERO), ("1.5 % 0", ZERO),
    ("none + 1", ERROR), ("yes + 1", ERROR), ('"a" + "b"', ERROR), ("[1] + [2]", ERROR), ("d6 + 1", ERROR),
    ("-(none)", ERROR), ("-(yes)", ERROR), ("-(1.5 + 1)", Fraction(-5, 2)),
    # ordering: numbers; none is neither smaller nor larger; other kinds are an error
    ("1 < 1.5", True), ("none < 1", False), ("none >= none", False), ('"a" < 1', ERROR), ('"a" < "b"', ERROR),
    ("yes < 2", ERROR),
    # equality never fails; kinds differ
    ("1 == yes", False), ("0 == no", False), ('"1" == 1', False), ("none == 0", False), ("2 == 4 / 2", True),
    ("[1, 2] == [1, 2]", True), ("[1] == [yes]", False), ("(1..2) == (1..2)", True), ("d6 == d6", True),
    # truth: false, none, 0, "" and [] are false
    ("not 0", True), ('not ""', True), ("not []", True), ("not none", True), ("not (0.5)", False),
    ('not "0"', False), ("1 and 2", True), ("0 or none", False),
    # membership
    ("1 in [1, 2]", True), ('"a" in [1, 2]', False), ("yes in [1]", False), ("1.5 in 1..2", True),
    ("yes in 0..2", False), ('"a" in 1..2', False), ("1 in none", False), ("1 in 3", ERROR), ('"a" in "abc"', ERROR),
    ("(1..) == (1..)", True), ('("a"..2)', ERROR),
    # builtins
    ("sum([1, none, 0.5])", Fraction(3, 2)), ('sum([1, "a"])', ERROR), ("min([3, none, 1])", 1),
    ("max([])", None), ("count(none)", 0), ("any([0, none, 2])", True), ("any([0, no])", False),
    ("abs(-2.5)", Fraction(5, 2)), ("floor(-0.5)", -1), ("ceil(none)", ERROR), ("([1, 2, 3])[-1]", 3),
    ("([1])[5]", None), ("([1])[0.5]", ERROR),
]


@pytest.mark.parametrize(("text", "expected"), TABLE, ids=[t for t, _ in TABLE])
def test_the_documented_rules(table: tuple[CompiledGame, StaticEnv, CodeGenerator, PlayedMatch], text: str,
                              expected: Any) -> None:
    _game, env, gen, match = table
    node = parse(text)
    before_play = static_outcome(env, node)
    assert compiled_outcome(gen, match, node) == before_play
    if isinstance(expected, tuple) and expected and expected[0] == "error":
        assert before_play[:2] == expected, before_play
    else:
        assert before_play == ("value", canonical(expected))


def test_error_messages_name_the_kinds(table: tuple[CompiledGame, StaticEnv, CodeGenerator, PlayedMatch]) -> None:
    _game, env, _gen, _match = table
    said = {text: static_outcome(env, parse(text))[2] for text in
            ('"a" + 1', "1 - yes", "none * 2", '"a" < 1', "1 / 0", "-(none)", "1 in 3", "abs(yes)")}
    assert said == {
        '"a" + 1': "cannot add text and a number",
        "1 - yes": "cannot subtract yes/no from a number",
        "none * 2": "cannot multiply none by a number",
        '"a" < 1': "cannot compare text with a number (< compares numbers)",
        "1 / 0": "division by zero",
        "-(none)": "cannot negate none",
        "1 in 3": "'in' needs a list, a zone or a range, not a number",
        "abs(yes)": "abs needs a number, found yes/no",
    }


# ---------------------------------------------------------------- what a designer sees

RULES = '''
game "Bonus" {
  id: bonus
  players: 2
}
param bonus: any = none
param label: any = "x"
counter gold per player { start: 0 }
cardtype Unit {
  stats { attack: number = 0 }
}
card "Footman" {
  type: Unit
  attack: ATTACK
}
function double(n: number) = n * 2
turn {
  stage main { actions: collect }
}
action collect "Collect" {
  increase gold by double(bonus)
}
'''


def test_a_value_fixed_before_play_that_fails_is_a_check_error(tmp_path: Path) -> None:
    """`attack: label + 1` passes the type checker (`label` is declared `any`), but the
    engine computes card fields before the match starts: `check` says so, with the line."""
    folder = write_game(tmp_path / "bonus", {"rules.cards": RULES.replace("ATTACK", "label + 1")})
    result = check_game(str(folder))
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [(d.code, d.message, d.span.line) for d in errors] == [
        ("CS0301", "\"Footman\"'s 'attack' cannot be computed: cannot add text and a number", 14)]


def test_a_rule_that_fails_in_play_stops_the_match_with_the_same_words(tmp_path: Path) -> None:
    """`double(bonus)` with `bonus` none: the played match stops at the statement that
    computes it, with the message the static evaluator gives for `bonus * 2`."""
    folder = write_game(tmp_path / "bonus", {"rules.cards": RULES.replace("ATTACK", "2")})
    result = check_game(str(folder))
    assert result.game is not None and not [d for d in result.diagnostics if d.severity == "error"]
    match = CompiledGame(result.game).new_match(seed=1)
    assert isinstance(match, PlayedMatch)
    collect = [a for a in match.legal_actions() if a.description == "Collect"]
    assert len(collect) == 1
    match.apply(collect[0])
    assert match.error == "cannot multiply none by a number (line 21)"  # `increase gold by double(bonus)`
    with pytest.raises(values.OperationError, match="cannot multiply none by a number"):
        StaticEnv(result.game).eval(parse("bonus * 2"), {})


def test_a_param_and_a_function_give_the_same_value(tmp_path: Path) -> None:
    """The same expressions as a param (computed before play) and as a function's body
    (compiled, run in the match)."""
    written = ["7 / 2", "6 / 3", "-7 // 2", "min([3, none, 1])", "[1, 2] == [1, 2]", "1.5 in 1..2",
               "if no then 1 else 2", "sum([0.5, 0.5])"]
    rules = 'game "Same" {\n  id: same\n  players: 2\n}\nturn {\n  stage main { }\n}\n' + "".join(
        f"param p{i}: any = {text}\nfunction f{i}() = {text}\n" for i, text in enumerate(written))
    result = check_game(str(write_game(tmp_path / "same", {"rules.cards": rules})))
    assert result.game is not None and not [d for d in result.diagnostics if d.severity == "error"]
    game = CompiledGame(result.game)
    match = game.new_match(seed=1)
    ctx = rt.Ctx(match.players[0], None)
    before_play = [canonical(game.params[f"p{i}"]) for i in range(len(written))]
    in_play = [canonical(game.handlers[("function", f"f{i}")](match, ctx)) for i in range(len(written))]
    assert before_play == in_play
    assert before_play[:2] == [canonical(Fraction(7, 2)), canonical(2)]
