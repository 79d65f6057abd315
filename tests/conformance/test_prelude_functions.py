"""Conformance: the builtin functions of the core prelude (docs/language.md section 4,
"calls", and section 7), each read by the rules of a played match and stored in a counter.

The table: player1 controls Ruby (4) and Jade (3) on the field, player2 controls Opal (2);
the shared ordered pile holds Ace, Two, Three from top to bottom; a 4 x 4 board `grid`
has a region `corner` ([0, 0] .. [1, 1]) and the zone `table` lies on it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, diagnostics, take

GAME = '''
game "Functions" {
  id: functions
  players: 3
  first_player: seat1
}
counter out shared { start: 0 }
counter score per player { start: 0 }
zone field shared
zone pile shared { ordered }
board grid {
  size: 4 x 4
  region corner { cells: [0, 0] .. [1, 1]; hp: 5 }
}
zone table shared { board: grid }
cardtype Gem {
  stats { value: number = 1 }
  enters: field
}
cardtype Number {
  stats { rank: number = 0 }
}
keyword Shiny(glow: number, tint: number) {
  reminder: "Glows {glow}, tinted {tint}."
}
keyword Plain {
  reminder: "Nothing special."
}
card "Ruby" { type: Gem; value: 4; keywords: Shiny 7 2 }
card "Jade" { type: Gem; value: 3; keywords: Plain }
card "Opal" { type: Gem; value: 2; copies: 3 }
card "Ace" { type: Number; rank: 1 }
card "Two" { type: Number; rank: 2 }
card "Three" { type: Number; rank: 3 }
setup {
  let ruby = create("Ruby", field, player1)
  let jade = create("Jade", field, player1)
  let opal = create("Opal", field, player2)
  put (create("Ace", pile, player1)) on the bottom of pile
  put (create("Two", pile, player1)) on the bottom of pile
  put (create("Three", pile, player1)) on the bottom of pile
}
scoring { score: p.score }
heuristic { value: out + score + count(table) + corner.hp }
action go "Go" {
BODY
}
turn { stage main { actions: go } }
'''


def value(tmp_path: Path, expr: str, before: str = "") -> Any:
    match = build(tmp_path, "functions", GAME.replace("BODY", before + f"  set out to {expr}")).new_match(seed=1)
    take(match, "Go")
    assert match.error is None, match.error
    return match.shared["out"]


CASES: list[tuple[str, str, Any]] = [
    ("count", "count(all gems)", 3),
    ("count", "count([1, 2, 2])", 3),
    ("count", "count(pile)", 3),                       # a zone: its cards
    ("count", "count(2..5)", 4),                       # a closed range: its whole numbers
    ("sum", "sum(all gems, value)", 9),
    ("sum", "sum(1..4)", 10),
    ("sum", "sum([1, 2, 3.5])", Fraction(13, 2)),
    ("sum", "sum(all numbers in field, rank)", 0),
    ("min", "min(3, 9)", 3),
    ("min", "min(values(all gems, value))", 2),
    ("max", "max(3, 9)", 9),
    ("max", "max([4, 8, 1])", 8),
    ("size", "size(pile)", 3),
    ("first", "first(pile).rank", 1),
    ("first", "first(2..4) * 10 + last(2..4)", 24),
    ("last", "last(pile).rank", 3),
    ("last", "last(all gems).value", 2),
    ("values", "sum(values(all gems, value))", 9),
    ("values", "count(values(pile, rank))", 3),
    ("abs", "abs(0 - 5)", 5),
    ("abs", "abs(3.5)", Fraction(7, 2)),
    ("floor", "floor(7 / 2)", 3),
    ("floor", "floor(0 - 7 / 2)", -4),
    ("ceil", "ceil(7 / 2)", 4),
    ("ceil", "ceil(0 - 7 / 2)", -3),
    ("opponents", "count(opponents(you))", 2),
    ("opponents", "if player1 in opponents(player2) and player2 not in opponents(player2) then 1 else 0", 1),
    ("next_player", "next_player(you).seat", 2),
    ("next_player", "next_player(player3).seat", 1),
    ("catalog", "count(catalog())", 6),
    ("catalog", 'count(catalog("Gem"))', 3),
    ("copies_of", 'copies_of("Opal") * 10 + copies_of("Ruby")', 31),
    ("has_keyword", "count(all gems where has_keyword(it, Shiny))", 1),
    ("keyword_value", "keyword_value(first(all gems), Shiny) * 10 + keyword_value(first(all gems), Shiny, 2)", 72),
    ("keyword_value", "if keyword_value(last(all gems), Shiny) == none then 1 else 0", 1),
    ("cell", "cell(2, 3).x * 10 + cell(2, 3).y", 23),
    ("cells", "count(cells(corner))", 4),
    ("in_region", "count(all gems where in_region(it, corner))", 0),
]


@pytest.mark.parametrize(("name", "expr", "expected"), CASES, ids=[f"{n}: {e}" for n, e, _ in CASES])
def test_builtin_functions(tmp_path: Path, name: str, expr: str, expected: Any) -> None:
    got = value(tmp_path, expr)
    assert got == expected and type(got) is type(expected)


for _name in sorted({n for n, _e, _v in CASES}):
    covers(f"prelude:{_name}")(test_builtin_functions)


@covers("prelude:first")
@pytest.mark.parametrize(("expr", "expected"), [
    ("first([5, 6])", 5), ("first(opponents(player2)).seat", 1),
    ("last([5, 6]) * 10 + last(opponents(player1)).seat", 63),
    ("first(all gems).value + last(field).value", 6),
])
def test_first_of_a_list_of_numbers_or_players(tmp_path: Path, expr: str, expected: int) -> None:
    assert value(tmp_path, expr) == expected


@covers("prelude:first", "prelude:last")
@pytest.mark.parametrize(("expr", "message"), [
    ("first(all gems).seat", "a card has no 'seat'"),      # still a card, of cards
    ("last(opponents(player1)).value", "a player has no 'value'"),
])
def test_first_and_last_are_typed_by_what_the_list_holds(tmp_path: Path, expr: str, message: str) -> None:
    messages = diagnostics(tmp_path, "typed", GAME.replace("BODY", f"  set out to {expr}"))
    assert any(m.startswith(message) for m in messages), messages


@covers("prelude:any")
@pytest.mark.parametrize(("expr", "expected"), [
    ("any(all gems where it.value > 3)", True),
    ("any(all gems where it.value > 4)", False),
    ("any([no, no, yes])", True),
    ("any([no])", False),
    ("any(all numbers in table)", False),
])
def test_any(tmp_path: Path, expr: str, expected: bool) -> None:
    assert value(tmp_path, f"if {expr} then 1 else 2") == (1 if expected else 2)


BOARD = '''  let ruby = first(all gems)
  let jade = first(all gems where it.value == 3)
  place ruby in table at cell(1, 1)
  place jade in table at cell(3, 0)
'''


@covers("prelude:position", "prelude:distance", "prelude:card_at", "prelude:in_region", "prelude:cell")
@pytest.mark.parametrize(("expr", "expected"), [
    ("position(ruby).x * 10 + position(ruby).y", 11),
    ("distance(ruby, jade)", 2),                         # king moves: max(|dx|, |dy|)
    ("distance(cell(0, 0), cell(3, 2))", 3),
    ("card_at(table, cell(3, 0)).value", 3),
    ("if card_at(table, cell(2, 2)) == none then 1 else 0", 1),
    ("count(all gems where in_region(it, corner))", 1),
    ("if in_region(cell(2, 2), corner) then 1 else 0", 0),
])
def test_board_functions(tmp_path: Path, expr: str, expected: int) -> None:
    assert value(tmp_path, expr, BOARD) == expected


@covers("prelude:create")
def test_create_makes_a_card_in_a_zone_for_an_owner(tmp_path: Path) -> None:
    body = ('  let mine = create("Two", pile)\n  let theirs = create("Two", field, player3)\n'
            '  set out to count(pile) * 100 + mine.owner.seat * 10 + theirs.owner.seat\n')
    match = build(tmp_path, "create", GAME.replace("BODY", body)).new_match(seed=1)
    take(match, "Go")
    assert match.shared["out"] == 400 + 10 + 3, "without an owner: whoever runs the rule (player1)"
    assert [c.name for c in match.zone("pile", None).cards] == ["Two", "Ace", "Two", "Three"], "on top of the pile"


@covers("prelude:rank", "prelude:end_game")
def test_rank_after_the_end(tmp_path: Path) -> None:
    body = ("  set player1.score to 5\n  set player2.score to 9\n  set player3.score to 1\n  end the game\n"
            "  set out to rank(player1) * 100 + rank(player2) * 10 + rank(player3)\n")
    match = build(tmp_path, "rank", GAME.replace("BODY", body)).new_match(seed=1)
    take(match, "Go")
    assert match.is_over and match.result["winner"] == "player2"
    assert match.shared["out"] == 213


@covers("prelude:sum")
def test_sum_of_a_card_counter_counts_as_a_use(tmp_path: Path) -> None:
    rules = GAME.replace("counter out shared", "counter wear per card { start: 3 }\ncounter out shared")
    match = build(tmp_path, "wear", rules.replace("BODY", "  set out to sum(all gems, wear)")).new_match(seed=1)
    take(match, "Go")
    assert match.shared["out"] == 9


@covers("prelude:sum", "prelude:values")
def test_sum_and_values_read_a_player_field_too(tmp_path: Path) -> None:
    # `luck` is read only as a field argument: a use, and a field of players
    rules = GAME.replace("counter out shared", "counter luck per player { start: 2 }\ncounter out shared")
    body = "  set player2.score to 5\n  set out to sum(each player, luck) * 10 + max(values(all players, score))"
    match = build(tmp_path, "luck", rules.replace("BODY", body)).new_match(seed=1)
    take(match, "Go")
    assert match.shared["out"] == 65
