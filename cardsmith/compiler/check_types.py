"""The checker's vocabulary of expression types, and how to talk about them.

An inferred type is a word ("number", "cards", "enum:Color", ...). Which types an
expectation accepts, how a type reads in a message ("a number", "yes/no") and what
a loop over a value yields are shared by every part of the checker, so they live here
rather than in any one of them.
"""

from __future__ import annotations

from fractions import Fraction

from cardsmith.dsl import ir

# the names a scope binds, each to its inferred type
Scope = dict[str, str]

NUMERIC = {"number", "dice", "any"}


def is_one(e: ir.Expr) -> bool:
    return isinstance(e, ir.Num) and e.num == 1 and e.den == 1


def element_of(t: str) -> str:
    return {"cards": "card", "card": "card", "players": "player", "player": "player",
            "range": "number", "zone": "card"}.get(t, "any")


def plural_of(t: str) -> str:
    return {"card": "cards", "player": "players"}.get(t, "list")


def compatible(want: str, actual: str) -> bool:
    if want == "any" or actual == "any" or want == actual:
        return True
    pairs = {
        ("cards", "card"), ("cards", "list"), ("players", "player"), ("players", "list"),
        ("number", "dice"), ("player", "none"), ("card", "none"), ("text", "number"),
        ("list", "cards"), ("list", "players"), ("list", "range"), ("zone", "none"),
    }
    if (want, actual) in pairs:
        return True
    return want == "number" and actual.startswith("enum:") is False and actual == "number"


# which allowed type an expectation names: the one a designer means ("any" only lets an
# unknown value through, and a number may stand for dice or a range, not the other way)
_EXPECTED_ORDER = ("bool", "number", "text", "player", "card", "zone", "cards", "players", "list", "dice",
                   "range", "cell")


def expectation(allowed: set[str]) -> str:
    """What an expectation asks for, in words: `yes/no`, `a number`, ..."""
    named = [t for t in _EXPECTED_ORDER if t in allowed] or sorted(allowed - {"any", "none"}) or ["any"]
    return "yes/no" if named[0] == "bool" else article(named[0])


def article(t: str) -> str:
    if t.startswith("enum:"):
        return f"a {t[5:]} value"
    if t.startswith("enumtype:"):
        return f"the enum {t[9:]}"
    words = {"number": "a number", "text": "text", "bool": "yes/no", "player": "a player",
             "players": "players", "card": "a card", "cards": "cards", "zone": "a zone",
             "any": "anything", "none": "none", "list": "a list", "range": "a range",
             "dice": "dice", "cell": "a cell", "status": "a status", "cardtype": "a card type",
             "keyword": "a keyword", "deck": "the deck", "cardname": "a card name",
             "dim": "a length", "region": "a region", "stage": "a stage"}
    return words.get(t, t)


def show_number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)
