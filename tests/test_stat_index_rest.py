"""Issue 18: a stat-table look-up (compiler/codegen_index.py, engine/statindex.py) also
answers a query whose condition starts with the stat test — `it.value == v and ...`, the
rest asked of the cards looked up — and one whose value is a pure expression
(`low.value + 1`), asked only where the scan would first have asked it; in a choice's
options too (Kingdom Cards' `form_group`). The played match is the truth: the same game
compiled with and without the tables plays the same seeded matches, the error a value
raises included."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import compiled_rules, random_played

from cardsmith.compiler import codegen_exprs
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Runs" {
  id: runs
  players: 2
  first_player: seat1
  turn_limit: 24
}
counter score per player { start: 0 }
zone pile shared
zone centre shared
zone kept per player
cardtype Chip {
  stats { value: number = 1; weight: number = 1 }
}
card "One" { type: Chip; value: 1 }
card "Two" { type: Chip; value: 2; weight: 0 }
card "Three" { type: Chip; value: 3 }
card "Half" { type: Chip; value: 2.5 }
function follows(p: player, c: card) = any(all chips in kept of p where it.value == c.value + 1 and it.weight > 0)
function lead() = first(all chips in centre)
setup {
  for each i in 0..2 {
    let a = create("One", pile, player1)
    let b = create("Two", pile, player1)
    let c = create("Three", pile, player2)
    let h = create("Half", pile, player2)
  }
}
action take "Take" {
  choose low from a chip in pile
  choose next from a chip in pile where it.value == low.value + 1 and it.weight > 0
  move low to kept of you
  move next to kept of you
}
action lay "Lay" {
  choose c from a chip in kept of you
  move c to centre
}
action claim "Claim" {
  condition: follows(you, lead())
  increase score by 1
}
turn {
  stage main { actions: take, lay, claim }
}
'''


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_tables_and_scans_play_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    looked: CompiledGame = compiled_rules(tmp_path / "looked", GAME)
    assert "m.stat_cards_of(" in looked.source
    played = random_played(looked, seed, 80)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_exprs, "indexed", lambda w, e, scope, zone, scan: scan)
        scanned: CompiledGame = compiled_rules(tmp_path / "scanned", GAME)
        assert "stat_cards" not in scanned.source
        assert played == random_played(scanned, seed, 80)
    log, error = played
    assert sum(1 for e in log if str(e.get("description", "")).startswith("Take")) >= 1, error
