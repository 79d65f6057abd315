"""Issue 18: in the body of a function that changes nothing, a card's stat read and a call
made for sure are kept for the statements after them (ExprWriter.body_known): Two
Kingdoms' `reaches` read `u.troop` five times and `position(carrier(u))` four. What a
branch, a loop, a later `elif` test or a name given another value read is not kept: a
temporary read where it was never assigned would raise. The played match is the truth:
the game compiled with and without the kept reads plays the same seeded matches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, random_played

from cardsmith.compiler.codegen import CodeGenerator
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Kept" {
  id: kept
  players: 2
  first_player: seat1
  turn_limit: 24
}
enum Hue {
  red { code: 1 }
  blue { code: 2 }
}
counter score per player { start: 0 }
board grid {
  size: 6 x 6
}
zone table shared { board: grid }
cardtype Chip {
  stats { value: number = 1 }
  properties { hue: Hue = red }
}
card "Low" { type: Chip; value: 2; hue: red }
card "High" { type: Chip; value: 7; hue: blue }
function spot(c: card) = position(c).x + position(c).y
function weigh(c: card, d: card) {
  if c.hue == blue { return spot(c) + spot(d) + d.value }
  elif spot(d) > 4 and d.value > 3 { return spot(d) }
  let s = spot(d) + spot(c) + d.value
  let k = c
  if spot(k) > 2 { set k to d }
  return s + spot(k) + spot(c) + c.value
}
function far(c: card) {
  let best = 0
  for each dx in 0..2 {
    if spot(c) + dx + c.value > best { set best to spot(c) + dx }
  }
  return best + spot(c) + c.value
}
setup {
  for each i in 0..3 {
    let low = create("Low", table, player1)
    place low in table at cell(i, i)
    let high = create("High", table, player2)
    place high in table at cell(i + 1, i)
  }
}
action step "Step" {
  choose c from a chip in table
  choose d from a chip in table
  increase score by weigh(c, d) + far(c)
  if position(c).x < 5 and card_at(table, cell(position(c).x + 1, position(c).y)) == none {
    move c to cell cell(position(c).x + 1, position(c).y)
  }
}
turn {
  stage main { actions: step }
}
'''


def _compiled(tmp_path: Path, name: str) -> CompiledGame:
    game: CompiledGame = compiled_rules(tmp_path / name, GAME)
    return game


def _body(game: CompiledGame, function: str) -> str:
    return game.source.split(f"def F_{function}(")[1].split("\ndef ")[0]


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 60)


def _nothing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every function body written as if it could change the state."""
    add, add_expr = CodeGenerator.add, CodeGenerator.add_expr
    monkeypatch.setattr(CodeGenerator, "add", lambda self, *a, **k: add(self, *a, **{**k, "pure": False}))
    monkeypatch.setattr(CodeGenerator, "add_expr", lambda self, *a, **k: add_expr(self, *a, **{**k, "pure": False}))


def test_reads_and_calls_made_for_sure_are_kept(tmp_path: Path) -> None:
    game = _compiled(tmp_path, "kept")
    weigh = _body(game, "weigh")
    lines = [line.strip() for line in weigh.splitlines()]
    # `d.value` is read in the first branch and the `elif` test: asked again in `let s`
    assert sum(line.count("v_d.base['value']") for line in lines) == 3
    # `c.value`: read once where the last statement needs it (nothing before read it for sure)
    assert sum(line.count("v_c.base['value']") for line in lines) == 1
    # far's loop: spot(c) is computed in its test and kept for the `set` (giving `best` a
    # value forgets only what names `best`); computed again after the loop (run maybe never)
    far = _body(game, "far")
    assert far.count("v_c.position") == 2 * 2  # (position(c) read once a spot: x and y of one read)
    # weigh: `set k to d` in a branch forgets spot(k) after the `if`: computed again in the return
    assert [line for line in lines if line][-1].count("v_k.position") == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_and_unkept_code_play_the_same_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  seed: int) -> None:
    kept = _played(_compiled(tmp_path, "kept"), seed)
    with monkeypatch.context() as patch:
        _nothing_kept(patch)
        unkept = _played(_compiled(tmp_path, "unkept"), seed)
    assert kept == unkept
    assert kept[1] in (None, "no winner after 24 turns")
    assert sum(1 for e in kept[0] if str(e.get("description", "")).startswith("Step:")) > 5
