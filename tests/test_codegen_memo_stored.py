"""Issue 18: a call of a function remembered per state version looks its answer up in
line and, on a miss, calls the function and files the answer itself (codegen_memo
_stored_in_line) instead of calling rt.memo, which made the key and looked it up again;
computed arguments (`x + dx`, `position(c).x`) are evaluated once into temporaries inside
the key. Two Kingdoms' `path_within` (its path search until issue 18's eleventh session)
missed ~99% of its asks. The played match is the truth: the game compiled with and
without it plays the same seeded matches."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, function_source, random_played

from cardsmith.compiler import codegen_memo
from cardsmith.engine import runtime as rt
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Routes" {
  id: routes
  players: 2
  first_player: seat1
  turn_limit: 16
}
counter score per player { start: 0 }
board grid {
  size: 6 x 6
}
zone table shared { board: grid }
cardtype Chip {
  stats { value: number = 1 }
}
card "Low" { type: Chip; value: 1 }
card "High" { type: Chip; value: 2 }
function open_at(x: number, y: number) = (x >= 0 and x < 6 and y >= 0 and y < 6
  and card_at(table, cell(x, y)) == none)
function route(x: number, y: number, tx: number, ty: number, steps: number) {
  if x == tx and y == ty { return yes }
  if steps <= 0 { return no }
  for each dx in -1..1 {
    for each dy in -1..1 {
      if (dx != 0 or dy != 0) and open_at(x + dx, y + dy) and route(x + dx, y + dy, tx, ty, steps - 1) {
        return yes
      }
    }
  }
  return no
}
function reachable(c: card, tx: number, ty: number) = (card_at(table, cell(tx, ty)) == none
  and route(position(c).x, position(c).y, tx, ty, c.value))
function column(x: number) = all chips in table where position(it).x == x
setup {
  for each i in 0..2 {
    let low = create("Low", table, player1)
    place low in table at cell(i, i)
    let high = create("High", table, player2)
    place high in table at cell(i + 2, i)
  }
}
action hop "Hop" {
  choose c from a friendly chip in table
  choose tx from 0..5 where reachable(c, it, 0) or reachable(c, it, 3) or reachable(c, it, 5)
  choose ty from 0..5 where reachable(c, tx, it)
  for each d in column(position(c).x + 1) { increase score by d.value }
  increase score by count(column(position(c).x + 1))
  move c to cell cell(tx, ty)
}
turn {
  stage main { actions: hop }
}
'''


def _compiled(tmp_path: Path, name: str) -> CompiledGame:
    game: CompiledGame = compiled_rules(tmp_path / name, GAME)
    return game


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 80)


def test_a_recursive_call_with_computed_arguments_files_its_miss_in_line(tmp_path: Path) -> None:
    game = _compiled(tmp_path, "stored")
    route = function_source(game, "F_route")
    # the self-call: looked up in line, computed and filed in line (rt.memo only for a list found)
    assert ".__setitem__(_mk" in route and "rt.MEMO_LIMIT" in route
    assert re.search(r"else \(_mm\d+ := F_route\(m, ctx, _i\d+, _i\d+, v_tx, v_ty, _i\d+\)", route)
    # reachable's call: position(c).x, .y and c.value computed once, into temporaries in the key
    reachable = function_source(game, "F_reachable")
    assert re.search(r"F_route\(m, ctx, _i\d+, _i\d+, v_tx, v_ty, _i\d+\)", reachable)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_stored_and_helper_memo_play_the_same_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    seed: int) -> None:
    stored = _played(_compiled(tmp_path, "stored"), seed)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_memo, "_stored_in_line", lambda *args: None)
        helper = _played(_compiled(tmp_path, "helper"), seed)
        assert "rt.MEMO_LIMIT" not in _compiled(tmp_path, "helper2").source
    assert stored == helper
    assert stored[1] in (None, "no winner after 16 turns")
    assert sum(1 for e in stored[0] if str(e.get("description", "")).startswith("Hop")) > 5


def test_kept_files_as_memo_does() -> None:
    """rt.kept: the answer filed under the key, a list copied out, the memo cleared when full."""
    cache: dict[Any, Any] = {}
    answer = [1, 2]
    out = rt.kept(cache, ("k",), answer)
    assert out == answer and out is not answer and cache[("k",)] is answer
    full = {i: i for i in range(rt.MEMO_LIMIT)}
    assert rt.kept(full, ("k",), 3) == 3 and full == {("k",): 3}
