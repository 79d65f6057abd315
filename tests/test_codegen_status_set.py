"""Issue 18: `set c.<status> to <value>` of a card whose status already is bool(value) is
no change (rt.change_field logs nothing and calls no setter), so the generated code tests
that in line and calls rt.change_field only for a change: Two Kingdoms' `ready` clears
four statuses of every unit every turn, nearly all of them already clear. The played
match is the truth: the game plays the same with the test in line and without."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, function_source, random_played

from cardsmith.compiler import codegen_stmts
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Flags" {
  id: flags
  players: 2
  first_player: seat1
  turn_limit: 20
}
counter score per player { start: 0 }
counter worn per card { start: 0 }
status tired
status lit
zone pile shared
cardtype Chip {
  stats { value: number = 1 }
}
card "Low" { type: Chip; value: 2 }
card "High" { type: Chip; value: 5 }
setup {
  for each p in players {
    for each i in 1..3 {
      let low = create("Low", pile, p)
      let high = create("High", pile, p)
    }
  }
}
procedure refresh(p: player) "refresh {p}" {
  for each c in all chips in pile where it.owner == p {
    set c.tired to no
    set c.lit to c.value > 3 and not c.lit
    set c.worn to 0
  }
}
action tire "Tire" {
  choose c from a friendly chip in pile where not it.tired
  set c.tired to yes
  set c.worn to c.value
  increase score by count(all tired chips in pile) + count(all lit chips in pile)
}
turn {
  stage start { refresh current }
  stage main { actions: tire }
}
'''


def _compiled(tmp_path: Path, name: str) -> CompiledGame:
    game: CompiledGame = compiled_rules(tmp_path / name, GAME)
    return game


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 80)


def test_a_status_set_to_what_it_is_is_tested_in_line(tmp_path: Path) -> None:
    refresh = function_source(_compiled(tmp_path, "g"), "P_refresh")
    assert "elif type(v_c) is rt.Card and ('tired' in v_c.statuses) is False:" in refresh
    assert "('lit' in v_c.statuses) is bool(_t" in refresh  # (a computed value: taken first, as before)
    assert "'worn' in v_c.statuses" not in refresh  # (a counter: no status test)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_status_sets_in_line_and_through_change_field_play_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   seed: int) -> None:
    fast = _played(_compiled(tmp_path, "fast"), seed)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_stmts.BodyWriter, "counter_change", lambda self, obj, field, op, value: self.line(
            f"rt.change_field(m, {obj}, {field!r}, {op!r}, {value}, None, None)"))
        generic_game = _compiled(tmp_path, "generic")
        assert ".statuses) is " not in generic_game.source
        generic = _played(generic_game, seed)
    assert fast == generic
    assert fast[1] in (None, "no winner after 20 turns"), fast[1]
    statuses = [e for e in fast[0] if e.get("event") == "status"]
    assert {e["status"] for e in statuses} == {"tired", "lit"} and len(statuses) > 10
