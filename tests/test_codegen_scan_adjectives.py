"""Issue 18: a query whose adjectives are only `friendly`, `enemy`, `unattached`,
`attached`, statuses or enum values' names is scanned in line (compiler/codegen_scan.py)
with those tests written before its condition, as queries.narrow narrows by each in turn:
Two Kingdoms' "enemy unattached unit ... where reaches(striker, it)", asked for every
striker in every window, and "friendly unattached Horse unit", asked for every unit that
may ride, no longer go through q.query, narrowings and a lambda call per card. A status
named as one of those words is tested as the status (narrow reads the status first); an
enum value's word reads narrow's own answers per card (q.enum_word_answers). The played
match is the truth: the games play the same with the adjectives in line and without."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, compiled_rules, function_source, random_logs, random_played

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
    mount = function_source(scanned, "LP_mount")
    # (the rider's query is planned by place — `free_horse(you)` is asked once per zone —;
    # the steed's, asked for every rider, is scanned in line)
    steed = mount[mount.index("for v_rider in"):]
    assert "q.query(" not in steed and "q.enum_word_answers(m, 'Horse')" in steed
    monkeypatch.setattr(codegen_scan, "_word_kind", lambda *args: None)
    queried = CompiledGame(ir)  # (no cache key: compiled anew)
    assert "q.query(m, ctx, 'unit', ['enemy', 'unattached']" in _attack(queried)
    assert "q.query(m, ctx, 'unit', ['friendly', 'unattached', 'Horse']" in function_source(queried, "LP_mount")
    assert _logs(scanned, range(1, 4)) == _logs(queried, range(1, 4))


GAME = '''
game "Shadowed" {
  id: shadowed
  players: 2
}
status unattached { label: "Loose" }
status worn
enum Hue { Red; Blue }
zone pile shared
cardtype Chip {
  stats { value: number = 1 }
  properties { hue: Hue = Red }
}
card "Low" { type: Chip; value: 2 }
function small() = count(all friendly chips in pile where it.value < 3) + count(all unattached chips in pile)
function worn_blue() = count(all worn Blue chips in pile) + count(all other chips in pile)
turn {
  stage main { actions: pass }
}
action pass "Pass" {
  end the turn
}
'''


def test_a_status_named_as_an_adjective_is_tested_as_the_status(tmp_path: Path) -> None:
    game = compiled_rules(tmp_path / "g", GAME)
    small = function_source(game, "F_small")
    assert "q.query(" not in small and "'unattached' in v_it.statuses" in small and "v_it.host" not in small
    worn = function_source(game, "F_worn_blue")
    # a status and an enum value's word in line; `other` is left to q.query
    assert "'worn' in v_it.statuses and (_i" in worn and "q.enum_word_answers(m, 'Blue')" in worn
    assert "q.query(m, ctx, 'chips', ['other']" in worn


ENUM_GAME = '''
game "Hues" {
  id: hues
  players: 2
  first_player: seat1
  turn_limit: 20
}
counter score per player { start: 0 }
status worn
enum Hue { Red; Blue }
enum Shade { Blue; Grey }
zone pile shared
cardtype Chip {
  stats { value: number = 1 }
  properties { hue: Hue = Red }
}
cardtype Token {
  properties { shade: Shade = Grey }
}
card "Low" { type: Chip; value: 2; hue: Red }
card "High" { type: Chip; value: 5; hue: Blue }
card "Mist" { type: Token; shade: Blue }
card "Ash" { type: Token; shade: Grey }
setup {
  for each p in players {
    for each i in 1..3 {
      let low = create("Low", pile, p)
      let high = create("High", pile, p)
      let mist = create("Mist", pile, p)
      let ash = create("Ash", pile, p)
    }
  }
}
action wear "Wear" {
  choose c from a friendly Blue chip in pile where not it.worn
  set c.worn to yes
  increase score by count(all worn Blue cards in pile) + count(all enemy Grey cards in pile)
}
action rest "Rest" {
  choose c from a friendly worn card in pile
  set c.worn to no
  increase score by count(all Blue cards in pile where it.worn)
}
turn {
  stage main { actions: wear, rest }
}
'''


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_statuses_and_enum_words_in_line_play_as_q_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        seed: int) -> None:
    """`Blue` names a value of two enums (a chip's hue, a token's shade): narrow finds either."""
    scanned = compiled_rules(tmp_path / "scanned", ENUM_GAME)
    assert "q.query(" not in scanned.source
    assert "fn.fn_count(" not in scanned.source and "len(((" in scanned.source  # count(all ...): the scan's len
    with monkeypatch.context() as patch:
        patch.setattr(codegen_scan, "_word_kind", lambda *args: None)
        queried = compiled_rules(tmp_path / "queried", ENUM_GAME)
    assert "q.query(m, ctx, 'cards', ['worn', 'Blue']" in queried.source
    played = random_played(scanned, seed, 80)
    assert played == random_played(queried, seed, 80)
    assert sum(1 for e in played[0] if str(e.get("description", "")).startswith(("Wear", "Rest"))) > 10
