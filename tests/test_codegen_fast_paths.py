"""Issue 18, Two Kingdoms: the fast paths the code generator writes for board rules —
an enum value compared in line (`u.troop == Ram`), a function of `if ... return`s written
in line as a conditional (`carrier(u)`), `in_region(cell(x, y), r)` looked up in the
region's cells, `card_at` read from an index of the zone by cell, `for each dx in -1..1`
over Python's range — and the query adjectives tested without a call per card
(queries.narrow). The played match is the truth: the same game compiled with and without
them (and narrowed by quality_test) plays the same seeded matches, log for log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, random_played

from cardsmith.compiler import codegen_exprs, codegen_stmts
from cardsmith.engine import queries
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Fast" {
  id: fast
  players: 2
  first_player: seat1
  turn_limit: 30
}
enum Hue {
  red { code: 1 }
  blue { code: 2 }
}
param half: number = 5
counter score per player { start: 0 }
board grid {
  size: 6 x 6
  region home { cells: [0, 0] .. [2, 5] }
}
zone table shared { board: grid }
cardtype Chip {
  stats { value: number = 1 }
  properties { hue: Hue = red }
}
card "Low" { type: Chip; value: 2; hue: red }
card "High" { type: Chip; value: 7; hue: blue }
function anchor(c: card) {
  if c.hue == blue { return c.value } elif c.value > 3 { return 0 - c.value }
  return 1
}
function free(x: number, y: number) = (x >= 0 and x < 6 and y >= 0 and y < 6
  and card_at(table, cell(x, y)) == none)
function homely(x: number, y: number) = in_region(cell(x, y), home)
setup {
  for each i in 0..3 {
    let low = create("Low", table, player1)
    place low in table at cell(i, i)
    let high = create("High", table, player2)
    place high in table at cell(i + 1, i)
  }
}
action step "Step" {
  choose c from a chip in table where anchor(it) != 0
  let moved = no
  for each dx in -1..1 {
    for each dy in -1..(half / 4) {
      if not moved and free(position(c).x + dx, position(c).y + dy) {
        move c to cell cell(position(c).x + dx, position(c).y + dy)
        set moved to yes
      }
    }
  }
  if homely(position(c).x, position(c).y) { increase score by anchor(c) }
  if c.hue == red { increase score by 1 }
  if c.hue != blue and c.hue == "red" { increase score by 1 }
  increase score by count(all red chips in table) + count(all friendly chips in table where it.value > 2)
}
action pass "Pass" {
  increase score by count(all enemy unattached blue chips in table)
}
turn {
  stage main { actions: step, pass }
}
'''


def _compiled(tmp_path: Path, name: str) -> CompiledGame:
    game: CompiledGame = compiled_rules(tmp_path / name, GAME)
    return game


def _generic(monkeypatch: pytest.MonkeyPatch) -> None:
    """No fast path: every call, comparison, loop and adjective through the helpers."""
    for method in ("inline", "int_guard", "native_in_line", "attr_in_line", "enum_literal", "region_in_line"):
        monkeypatch.setattr(codegen_exprs.ExprWriter, method, lambda *args: None)
    monkeypatch.setattr(codegen_stmts.BodyWriter, "int_range", lambda *args: None)
    monkeypatch.setattr(queries, "narrow", lambda m, ctx, word, cards: [
        c for c in cards if queries.quality_test(m, ctx, word)(c)])


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 80)


def test_the_fast_paths_are_written(tmp_path: Path) -> None:
    source = _compiled(tmp_path, "g").source
    step = source[source.index("def A_step"):]
    step = step[:step.index("\n\n\n")]
    assert "F_anchor(" not in step and "F_homely(" not in step
    free = source[source.index("def F_free"):]
    free = free[:free.index("\n\n\n")]
    assert "rt.card_at(m, " in free  # (`free` scans: remembered, not in line)
    # card_at's index of this version and cell(x, y) of two ints read in line, the helpers after
    assert "m.memo.get((m.version, rt.CARD_AT, " in free
    assert "((v_x, v_y) if type(v_x) is type(v_y) is int else fn.fn_cell(m, ctx, v_x, v_y))" in free
    assert "in m.game.regions['home'].cells" in step
    assert "for v_dx in range(-1, 2):" in step  # two int literals
    assert "(range(" in step and "rt.iterate(m, rt.Range(" in step  # a computed bound: guarded
    assert ".name == 'blue' and " in step and "rt.same(" in step  # `== "red"` (a text) keeps rt.same


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_and_generic_code_play_the_same_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   seed: int) -> None:
    fast = _played(_compiled(tmp_path, "fast"), seed)
    with monkeypatch.context() as patch:
        _generic(patch)
        generic_game = _compiled(tmp_path, "generic")
        assert "F_anchor(" in generic_game.source[generic_game.source.index("def A_step"):]
        generic = _played(generic_game, seed)
    assert fast == generic
    assert fast[1] in (None, "no winner after 30 turns")
    assert sum(1 for e in fast[0] if str(e.get("description", "")).startswith("Step:")) > 5
