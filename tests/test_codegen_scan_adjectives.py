"""Issue 18: a query whose adjectives are only `friendly`, `enemy`, `unattached` or
`attached` is scanned in line (compiler/codegen_scan.py) with those tests written before
its condition, as queries.narrow narrows by each in turn: Two Kingdoms' "enemy unattached
unit ... where reaches(striker, it)", asked for every striker in every window, no longer
goes through q.query, two narrowings and a lambda call per card. A game whose status has
one of those names keeps q.query (narrow reads the status first). The played match is
the truth: Two Kingdoms plays the same with the adjectives in line and without."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, compiled_rules, function_source, random_logs

from cardsmith.compiler import codegen_scan
from cardsmith.compiler.api import load_game_ir
from cardsmith.engine.game import CompiledGame

TWO_KINGDOMS = str(ROOT / "library" / "two_kingdoms")


def _logs(game: CompiledGame, seeds: range) -> list[str]:
    return random_logs(game, seeds, 250)


def _attack(game: CompiledGame) -> str:
    return function_source(game, "LP_attack")


def test_two_kingdoms_plays_the_same_with_adjectives_in_line_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    ir = load_game_ir(TWO_KINGDOMS)
    scanned = CompiledGame(ir)
    attack = _attack(scanned)
    assert "q.query(" not in attack
    assert "v_it.controller is not None and v_it.controller is not ctx.you and v_it.host is None and (" in attack
    monkeypatch.setattr(codegen_scan, "in_line_words", lambda *args: False)
    queried = CompiledGame(ir)  # (no cache key: compiled anew)
    assert "q.query(m, ctx, 'unit', ['enemy', 'unattached']" in _attack(queried)
    assert _logs(scanned, range(1, 4)) == _logs(queried, range(1, 4))


GAME = '''
game "Shadowed" {
  id: shadowed
  players: 2
}
status unattached { label: "Loose" }
zone pile shared
cardtype Chip {
  stats { value: number = 1 }
}
card "Low" { type: Chip; value: 2 }
function small() = count(all friendly chips in pile where it.value < 3) + count(all unattached chips in pile)
turn {
  stage main { actions: pass }
}
action pass "Pass" {
  end the turn
}
'''


def test_a_status_named_as_an_adjective_keeps_q_query(tmp_path: Path) -> None:
    game = compiled_rules(tmp_path / "g", GAME)
    source = game.source[game.source.index("def F_small("):]
    assert "['unattached']" in source and "['friendly']" not in source  # (the status: q.query; friendly: in line)
