"""Issue 18: a card's counter (`counter damage per card`) is read in line, as rt.attr reads
it first for a card that holds it — Kingdom Combat's clean-up asks `it.damage` of every
unit after every turn — and through rt.attr for anything else (a card without it, none:
rt.attr's answer or error). The played match is the truth: the same game compiled with
and without the read in line plays the same seeded matches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, random_played

from cardsmith.compiler import codegen_exprs
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Worn" {
  id: worn
  players: 2
  first_player: seat1
  turn_limit: 20
}
counter wear per card { start: 0 }
counter score per player { start: 0 }
zone pile shared
cardtype Chip {
  stats { value: number = 1 }
}
card "Low" { type: Chip; value: 2 }
card "High" { type: Chip; value: 5 }
function worn(c: card) = c.wear >= c.value
setup {
  for each i in 0..3 {
    let low = create("Low", pile, player1)
    let high = create("High", pile, player2)
  }
}
action rub "Rub" {
  choose c from a chip in pile where not worn(it)
  increase c.wear by 1
  increase score by count(all chips in pile where it.wear > 0)
}
turn {
  stage main { actions: rub }
}
'''


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 40)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_card_counter_read_in_line_plays_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    seed: int) -> None:
    game: CompiledGame = compiled_rules(tmp_path / "in_line", GAME)
    read = "v_it.counters['wear'] if type(v_it) is rt.Card and 'wear' in v_it.counters"
    assert read in game.source
    in_line = _played(game, seed)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_exprs.ExprWriter, "attr_in_line", lambda *args: None)
        called: CompiledGame = compiled_rules(tmp_path / "called", GAME)
        assert "rt.attr(m, v_it, 'wear')" in called.source and read not in called.source
        assert in_line == _played(called, seed)
    assert in_line[1] in (None, "no winner after 20 turns")
    assert sum(1 for e in in_line[0] if str(e.get("description", "")).startswith("Rub")) > 5
