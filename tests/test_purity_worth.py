"""Which pure functions are worth remembering (compiler/purity.py `worth_it`), and that
those computed instead give the same answers in a played scenario.

A remembered result costs a key and a lookup; a function asked once per player (`all
players where ...`), one that only asks a card's keywords, and one that takes a list
(whose key cannot be hashed) are computed, or written in line, instead; so is one whose
only query is the first card of a zone, untested (`first(all units in battlefield)`).
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.codegen import generate
from cardsmith.compiler.purity import pure_functions
from cardsmith.engine.scenarios import run_scenarios

FUNCTIONS = '''
function units_of(p: player) = all units in battlefield where it.controller == p
function fielded(p: player) = count(units_of(p)) > 0
function strength(p: player) = count(all units in battlefield where it.controller == p)
function reach(u: card) {
  if has_keyword(u, Charge) { return 2 }
  return 1
}
function range_of(u: card) = keyword_value(u, Ranged)
function with_extra(p: player, xs: list) = count(xs) + count(units_of(p))
function crowd(n: number) = count(all units in battlefield) + n
function front(p: player) = first(all units in battlefield)
function front_of(p: player) = first(all units in battlefield where it.controller == p)
'''

SCENARIO = '''
scenario "functions computed or remembered answer alike" {
  players: 2
  setup {
    let kn = create("Knight", battlefield, player1)
    let ar = create("Archer", battlefield, player1)
  }
  expect fielded(player1) and not fielded(player2) "player1 has units"
  expect strength(player1) == 2 and strength(player2) == 0 "two units"
  expect count(all players where fielded(it)) == 1 "asked per player"
  expect reach(kn) == 2 and reach(ar) == 1 "Charge reaches further"
  expect range_of(ar) == 2 and range_of(kn) == none "Ranged 2"
  expect with_extra(player1, [1, 2, 3]) == 5 "a list argument"
  expect crowd(1) == 3 "a number argument"
  expect front(player2) == kn and front_of(player1) == kn and front_of(player2) == none "first cards"
}
'''


def _game(tmp_path: Path) -> Path:
    return write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                       "functions.cards": FUNCTIONS, "scenarios.cards": SCENARIO})


def test_worth_remembering_only_what_a_hit_can_spare(tmp_path: Path) -> None:
    pure = pure_functions(load_game_ir(str(_game(tmp_path))))
    # scans of their own: remembered (a player's function too)
    assert pure["units_of"].worth_it and pure["strength"].worth_it and pure["crowd"].worth_it
    # a player's function scanning only through a remembered call; a card's keywords; a list
    assert not pure["fielded"].worth_it
    assert not pure["reach"].worth_it and not pure["range_of"].worth_it
    assert not pure["with_extra"].worth_it
    # the first card of a zone, untested: no scan; one tested by a condition: a scan
    assert not pure["front"].worth_it and pure["front_of"].worth_it


def _remembered(source: str, name: str) -> bool:
    """Does the generated code remember `name`'s answers: through rt.memo, or read in line and
    a miss computed there and filed under the key already made (codegen_memo.py)?"""
    return f"rt.memo(m, ctx, F_{name}, " in source or f"rt.memo_body(m, ctx, F_{name}," in source \
        or re.search(rf"(rt\.kept\(m\.memo, _mk\d+, |_mm\d+ := )F_{name}\(m, ctx", source) is not None


def test_functions_not_remembered_are_called_or_written_in_line(tmp_path: Path) -> None:
    source = generate(load_game_ir(str(_game(tmp_path))), "test")
    assert _remembered(source, "units_of") and _remembered(source, "strength")
    for name in ("fielded", "reach", "range_of", "with_extra"):
        assert not _remembered(source, name), name


def test_a_played_scenario_gets_the_same_answers(tmp_path: Path) -> None:
    results = run_scenarios(str(_game(tmp_path)))
    assert results and all(r.passed for r in results), [(r.name, r.message) for r in results if not r.passed]
