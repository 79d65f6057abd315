"""What a value is and what the operators do with it: one definition for every evaluator.

An expression is evaluated in two places: before play, by the checker's static
evaluator (compiler/static_eval.py: params, modes, card fields, deck rules, layouts; and
the checker's constant folding), and during play, by the code the compiler generates
(compiler/codegen.py writes `rt.add(a, b)`, `rt.same(a, b)`, ... and engine/runtime.py
re-exports the functions below under those names). Both call this module, so `none + 1`,
`yes + 1` or `"a" < 1` mean the same thing at check time and at play time
(tests/test_value_semantics.py feeds random expressions to both and compares).

The kinds of value (what a designer calls them in messages):

* a number: `int`, or an exact `Fraction` (`1.5`); a whole result is always an `int`
* text (`str`), yes/no (`bool`: `yes` is not a number), `none` (`None`)
* a list (`list`; a cell is a pair `tuple`), a range (`Range`), dice (`Dice`)
* a card, a player, a zone (model/state.py), an enum value (`EnumValue`)

The rules (docs/language.md, section 4, "Values"):

* `+ - * / // %` take two numbers; anything else (none, yes/no, text) is an error.
  `/` is exact (7 / 2 is 3.5, 6 / 3 is 2), `//` rounds down, `%` has the divisor's sign;
  dividing by zero is an error.
* `< <= > >=` compare two numbers; with `none` on either side they are false (a missing
  value is not smaller or larger than anything); any other kind is an error.
* `==` / `!=` never fail: values of different kinds are different (`1 == yes` is
  no), except an enum value and the text of its name; cards, players and zones are
  equal only to themselves; lists are equal item by item.
* truth: `no`, `none`, `0`, empty text and the empty list are false; anything else
  is true. `and` / `or` give yes/no and skip the right side when the left decides.
* `x in c`: a list (any equal item), a range (a number within its bounds), a zone (the
  card is there), `none` (nothing is in it); any other kind is an error.

Every failure is an `OperationError`, a `RulesError` whose message a designer reads
("cannot add text and a number"); at play time the engine stops the match with it and
the .cards line, before play the static evaluator's callers report it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any, TypeGuard

from cardsmith.model.errors import OperationError as OperationError
from cardsmith.model.errors import RulesError as RulesError
from cardsmith.model.state import Card, EnumValue, Number, Player, Zone, normalize

# ---------------------------------------------------------------- limits
# One line of rules must not hang or exhaust memory (docs/language.md, section 6,
# "Limits"): every quantity that costs work in proportion to its size is bounded here,
# and the checker reports the static ones (dice literals, copies) at their place.

MAX_DICE = 1_000
"""Most dice one roll throws (`1000d6`): rolling costs one draw per die."""

MAX_SIDES = 1_000_000
"""Most sides a die may have (`d1000000`)."""

MAX_LISTED = 10_000
"""Most numbers a range lists (`for each x in 1..10000`, `choose x from`, `count(..)`)."""

MAX_NUMBER = 10**15
"""Largest magnitude a number may reach at play time, and largest denominator of an
exact fraction: multiplying big numbers costs time that grows with their digits, so
squaring a number again and again would hang. (A literal has at most 15 digits, so any
literal is within it.)"""

MAX_COPIES = 1_000
"""Most copies a card may declare (`copies: 1000`): `create every copy` makes them all."""

MAX_DECK = 10_000
"""Most cards a decklist given to a match may deal to one player."""


# ---------------------------------------------------------------- kinds


class Dice:
    """A die or dice (`d6`, `2d6`): a value until it is rolled."""

    __slots__ = ("count", "sides")

    def __init__(self, count: int, sides: int) -> None:
        if count > MAX_DICE or sides > MAX_SIDES:
            raise OperationError(f"cannot roll {count}d{sides}: at most {MAX_DICE:,} dice "
                                 f"of at most {MAX_SIDES:,} sides", "limit")
        self.count = count
        self.sides = sides

    def __repr__(self) -> str:
        return f"{self.count if self.count > 1 else ''}d{self.sides}"

    def __eq__(self, other: object) -> bool:
        return type(other) is Dice and self.count == other.count and self.sides == other.sides

    def __hash__(self) -> int:
        return hash((Dice, self.count, self.sides))


class Range:
    """`2..4`, `30..` (open above), `..5`: numbers between two bounds, both included."""

    __slots__ = ("high", "low")

    def __init__(self, low: Number | None, high: Number | None) -> None:
        for bound in (low, high):
            if bound is not None and not is_number(bound):
                raise OperationError(f"a range needs numbers, not {kind_of(bound)}")
        self.low = low
        self.high = high

    def __contains__(self, value: object) -> bool:
        if not is_number(value):
            return False  # only a number is in a range (never yes/no)
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def __iter__(self) -> Iterator[int]:
        if self.low is None or self.high is None:
            raise RulesError("cannot list an open range")
        listed = range(math.ceil(self.low), math.floor(self.high) + 1)
        if len(listed) > MAX_LISTED:
            raise OperationError(f"the range {self!r} has {len(listed):,} numbers; "
                                 f"at most {MAX_LISTED:,} can be listed", "limit")
        return iter(listed)

    def __repr__(self) -> str:
        return f"{'' if self.low is None else self.low}..{'' if self.high is None else self.high}"

    def __eq__(self, other: object) -> bool:
        return type(other) is Range and equal(self.low, other.low) and equal(self.high, other.high)

    def __hash__(self) -> int:
        return hash((Range, self.low, self.high))


def is_number(value: object) -> TypeGuard[Number]:
    """A number as the rules mean it: an int or a Fraction, never true/false."""
    t = type(value)
    return t is int or t is Fraction


_KIND_WORDS = {
    bool: "yes/no", int: "a number", Fraction: "a number", str: "text", list: "a list", tuple: "a cell",
    Range: "a range", Dice: "dice", Card: "a card", Player: "a player", Zone: "a zone", float: "a length",
}


def kind_of(value: Any) -> str:
    """The value's kind in a designer's words, as the checker names types ("yes/no")."""
    if value is None:
        return "none"
    if type(value) is EnumValue:
        return f"a {value.enum} value"
    word = _KIND_WORDS.get(type(value))
    if word is not None:
        return word
    name = type(value).__name__
    return "a card" if name == "CardDecl" else f"a {name.lower()}"  # a card before play (the IR's)


# ---------------------------------------------------------------- arithmetic

_VERBS = {"+": "add {a} and {b}", "-": "subtract {b} from {a}", "*": "multiply {a} by {b}",
          "/": "divide {a} by {b}", "//": "divide {a} by {b}", "%": "take the remainder of {a} divided by {b}"}


def arith(op: str, a: Any, b: Any) -> Number:
    """`a op b` for an operator named by its symbol; compiled code calls add, sub, ... itself."""
    return _ARITH[op](a, b)


def too_large(value: Number) -> OperationError:
    """The error for a result beyond MAX_NUMBER (never shown: it may have millions of digits)."""
    if type(value) is int or not -MAX_NUMBER <= value <= MAX_NUMBER:
        return OperationError(f"number too large: results are kept between -{MAX_NUMBER:,} "
                              f"and {MAX_NUMBER:,}", "large")
    return OperationError(f"fraction too fine: a fraction's denominator is at most {MAX_NUMBER:,}", "large")


def bounded(value: Number) -> Number:
    """The value, unless it is beyond the limits of a number at play time (MAX_NUMBER)."""
    if type(value) is int:
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
        raise too_large(value)
    assert isinstance(value, Fraction)
    if -MAX_NUMBER <= value <= MAX_NUMBER and value.denominator <= MAX_NUMBER:
        return value
    raise too_large(value)


def _arith(op: str, a: Any, b: Any) -> Number:
    return bounded(_exact(op, a, b))


def _exact(op: str, a: Any, b: Any) -> Number:
    ta, tb = type(a), type(b)
    if not (ta is int or ta is Fraction) or not (tb is int or tb is Fraction):
        raise OperationError("cannot " + _VERBS[op].format(a=kind_of(a), b=kind_of(b)))
    if op == "+":
        return normalize(a + b)
    if op == "-":
        return normalize(a - b)
    if op == "*":
        return normalize(a * b)
    if b == 0:
        raise OperationError("division by zero", "zero")
    if ta is int and tb is int:  # floor division and modulo of whole numbers stay whole
        if op == "//":
            return a // b  # type: ignore[no-any-return]
        if op == "%":
            return a % b  # type: ignore[no-any-return]
        if a % b == 0:
            return a // b  # type: ignore[no-any-return]
    if op == "/":
        return normalize(Fraction(a) / Fraction(b))
    if op == "//":
        return normalize(Fraction(a) // Fraction(b))
    return normalize(Fraction(a) % Fraction(b))


# One function per operator, so compiled code skips the dispatch on the operator's name;
# two whole numbers (the usual case) take the first lines, bounded by MAX_NUMBER written
# as a literal (a constant costs less than a global's lookup; test_limits checks they agree).
def add(a: Any, b: Any) -> Number:
    if type(a) is int and type(b) is int:
        result = a + b
        if -1_000_000_000_000_000 <= result <= 1_000_000_000_000_000:  # MAX_NUMBER, as a constant
            return result
    return _arith("+", a, b)


def sub(a: Any, b: Any) -> Number:
    if type(a) is int and type(b) is int:
        result = a - b
        if -1_000_000_000_000_000 <= result <= 1_000_000_000_000_000:  # MAX_NUMBER, as a constant
            return result
    return _arith("-", a, b)


def mul(a: Any, b: Any) -> Number:
    if type(a) is int and type(b) is int:
        result = a * b
        if -1_000_000_000_000_000 <= result <= 1_000_000_000_000_000:  # MAX_NUMBER, as a constant
            return result
    return _arith("*", a, b)


def div(a: Any, b: Any) -> Number:
    return _arith("/", a, b)


def floordiv(a: Any, b: Any) -> Number:
    if type(a) is int and type(b) is int and b:
        return a // b
    return _arith("//", a, b)


def mod(a: Any, b: Any) -> Number:
    if type(a) is int and type(b) is int and b:
        return a % b
    return _arith("%", a, b)


def neg(a: Any) -> Number:
    """`-x`: a number's opposite."""
    if type(a) is int:
        return -a
    if type(a) is Fraction:
        return normalize(-a)
    raise OperationError(f"cannot negate {kind_of(a)}")


_ARITH = {"+": add, "-": sub, "*": mul, "/": div, "//": floordiv, "%": mod}


# ---------------------------------------------------------------- comparison


# the kinds of value that `equal` compares, when both sides are of the one kind, as Python's
# == does (an enum value is interned: == is identity); generated code compares two such in
# line (compiler/codegen_compare.py) and calls equal for any other pair
EQ_BY_PYTHON = frozenset({int, str, EnumValue})


def equal(a: Any, b: Any) -> bool:
    """`a == b` as the rules mean it. Never fails: values of different kinds differ,
    except an enum value and the text of its name, and an int and a Fraction (both
    numbers); cards, players and zones are equal only to themselves."""
    if a is b:
        return True
    ta = type(a)
    if ta is type(b):
        if ta is int or ta is str:  # the usual values, first
            return a == b  # type: ignore[no-any-return]
        if ta is EnumValue:  # (its fields compared here: the dataclass's == builds two tuples)
            return a.name == b.name and a.enum == b.enum  # type: ignore[no-any-return]
        if ta is Card or ta is Player or ta is Zone:
            return False
        if ta is list or ta is tuple:
            return len(a) == len(b) and all(map(equal, a, b))
        return bool(a == b)  # (a Range or Dice compares its bounds or its dice)
    if ta is EnumValue:
        return type(b) is str and a.name == b
    tb = type(b)
    if tb is EnumValue:
        return ta is str and b.name == a
    if (ta is int or ta is Fraction) and (tb is int or tb is Fraction):
        return bool(a == b)
    return False


def _order(op: str, a: Any, b: Any) -> None:
    """Raise unless `a op b` compares two numbers (none was answered before)."""
    if not is_number(a) or not is_number(b):
        raise OperationError(f"cannot compare {kind_of(a)} with {kind_of(b)} ({op} compares numbers)")


def lt(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a < b
    if a is None or b is None:
        return False
    _order("<", a, b)
    return bool(a < b)


def le(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a <= b
    if a is None or b is None:
        return False
    _order("<=", a, b)
    return bool(a <= b)


def gt(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a > b
    if a is None or b is None:
        return False
    _order(">", a, b)
    return bool(a > b)


def ge(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a >= b
    if a is None or b is None:
        return False
    _order(">=", a, b)
    return bool(a >= b)


_ORDER = {"<": lt, "<=": le, ">": gt, ">=": ge}


def compare(op: str, a: Any, b: Any) -> bool:
    """`a op b` for a comparison named by its symbol."""
    if op == "==":
        return equal(a, b)
    if op == "!=":
        return not equal(a, b)
    return _ORDER[op](a, b)


# ---------------------------------------------------------------- truth and membership


def truth(value: Any) -> bool:
    """Is the value true where a condition is asked (`if`, `where`, `and`, `not`)? false,
    none, 0, empty text and the empty list are false; everything else is true. Compiled
    code writes `if x:`, `not x` and `bool(x)` straight, which is this same rule."""
    return bool(value)


def contains(collection: Any, item: Any) -> bool:
    """`item in collection`."""
    t = type(collection)
    if t is Zone:
        return item in collection.cards  # (cards by identity: a Card has no __eq__)
    if t is Range:
        return item in collection
    if t is list or t is tuple or t is set or t is frozenset:
        return any(equal(item, x) for x in collection)
    if collection is None:
        return False
    raise OperationError(f"'in' needs a list, a zone or a range, not {kind_of(collection)}")


def index(obj: Any, key: Any) -> Any:
    """`xs[i]`: the item at a whole-number position from 0 (negative counts from the
    end); none past either end."""
    t = type(obj)
    if t is list or t is tuple:
        if type(key) is not int:
            shown = f"{float(key):g}" if type(key) is Fraction else kind_of(key)
            raise OperationError(f"a position in a list must be a whole number, not {shown}")
        return obj[key] if -len(obj) <= key < len(obj) else None
    if t is dict:
        return obj.get(key)
    raise OperationError(f"cannot take an item of {kind_of(obj)}")


# ---------------------------------------------------------------- builtin functions
# The core prelude's pure functions over plain values: the engine's fn_* and the static
# evaluator's builtins both end here (how each finds a list — a zone, a deck section,
# a field of each card — is theirs).


def numbers(values: list[Any], what: str) -> list[Number]:
    """The numbers of a list for sum, min and max: `none` items are skipped (a card
    without the field), any other non-number is an error."""
    out: list[Number] = []
    for v in values:
        if v is None:
            continue
        if not is_number(v):
            raise OperationError(f"{what} needs numbers, found {kind_of(v)}")
        out.append(v)
    return out


def total(values: list[Any]) -> Number:
    """sum(xs): the numbers added up (0 for none)."""
    result: Number = 0
    for v in numbers(values, "sum"):
        result = add(result, v)
    return result


def smallest(values: list[Any]) -> Number | None:
    """min(xs) / min(a, b): the smallest number, none when there is none."""
    found = numbers(values, "min")
    return min(found) if found else None


def largest(values: list[Any]) -> Number | None:
    """max(xs) / max(a, b): the largest number, none when there is none."""
    found = numbers(values, "max")
    return max(found) if found else None


def one_number(value: Any, what: str) -> Number:
    if not is_number(value):
        raise OperationError(f"{what} needs a number, found {kind_of(value)}")
    return value


def absolute(value: Any) -> Number:
    number = one_number(value, "abs")
    return -number if number < 0 else number


def floor(value: Any) -> int:
    return math.floor(one_number(value, "floor"))


def ceil(value: Any) -> int:
    return math.ceil(one_number(value, "ceil"))


def any_true(values: list[Any]) -> bool:
    """any(xs): is some item true (a card or a player always is)?"""
    return any(truth(x) for x in values)


def items(value: Any) -> list[Any]:
    """The items a list function (count, sum, first, ...) reads: a list's, a zone's or a
    closed range's, none for none, and a single value as a list of itself."""
    t = type(value)
    if t is list or t is tuple:
        return list(value)
    if t is Zone:
        return list(value.cards)
    if t is Range:  # `count(1..3)` is 3, as `for each` over it runs 3 times
        return list(value)
    if value is None:
        return []
    return [value]


def extreme_args(a: Any, b: Any) -> list[Any]:
    """What min / max compare: min(xs) the items of xs, min(a, b) the two values (a
    `none` second argument reads as the one-argument form)."""
    return items(a) if b is None else [a, b]
