"""Issue 18: `for each name in catalog(...) { create every copy of name in Z [for P] }` is
written as one call (compiler/codegen_catalogue.py → engine/catalogue.create_catalog),
which makes the same cards — ids, order in the zone, owners, zone counts, log entries and
loop steps — as the loop made one name at a time. The played match is the truth: the game
plays the same with the call and with the loop, in an ordered shared zone, a per-player
unordered one, by card type, and where the call must hand each name to create_copies (a
zone with a capacity, a probe's journal)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, function_source, random_played

from cardsmith.compiler import codegen_catalogue
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame

GAME = '''
game "Decks" {
  id: decks
  players: 2
  first_player: seat1
  turn_limit: 12
}
counter score per player { start: 0 }
counter worn per card { start: 0 }
zone pile shared { ordered; visibility: hidden }
zone reserve per player { visibility: public }
zone tray shared { visibility: public; capacity: 3 }
zone made shared { visibility: public }
cardtype Chip {
  stats { value: number = 1 }
}
cardtype Gem {
  stats { shine: number = 1 }
}
card "Low" { type: Chip; value: 2; copies: 2 }
card "High" { type: Chip; value: 5; copies: 3 }
card "None" { type: Chip; value: 9; copies: 0 }
card "Ruby" { type: Gem; shine: 4 }
setup {
  for each name in catalog() { create every copy of name in pile for player1 }
  for each p in players {
    for each name in catalog("Chip") { create every copy of name in reserve of p for p }
  }
  for each name in catalog("Gem") { create every copy of name in tray }
  for each name in catalog() { create every copy of name in tray }
}
action take "Take" {
  choose c from a card in pile where it.value > 1 or it.shine > 1
  for each name in catalog("Gem") { create every copy of name in made }
  move c to reserve of you
  increase score by count(all cards in reserve of you) + count(all cards in made)
}
turn {
  stage main { actions: take }
}
'''


def _compiled(tmp_path: Path, name: str) -> CompiledGame:
    game: CompiledGame = compiled_rules(tmp_path / name, GAME)
    return game


def _table(game: CompiledGame) -> list[Any]:
    match = PlayedMatch(game, seed=1, players=2)
    return [(key, [(c.id, c.name, c.owner.name if c.owner else None) for c in zone.cards],
             dict(zone.types), {(p.name if p else None): n for p, n in zone.controlled.items()})
            for key, zone in match.zones.items()] + [match.next_id, match.steps]


def test_a_catalogue_loop_is_one_call(tmp_path: Path) -> None:
    setup = function_source(_compiled(tmp_path, "g"), "S_setup_0")
    assert setup.count("rt.create_catalog(") == 4
    assert "create_copies" not in setup


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_catalogue_made_in_one_call_plays_as_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        seed: int) -> None:
    fast_game = _compiled(tmp_path, "fast")
    fast = random_played(fast_game, seed, 40)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_catalogue, "catalogue_loop", lambda writer, s, scope: None)
        loop_game = _compiled(tmp_path, "loop")
        assert "create_catalog" not in loop_game.source
        loop = random_played(loop_game, seed, 40)
        assert _table(fast_game) == _table(loop_game)
    assert fast == loop
    assert fast[1] in (None, "no winner after 12 turns"), fast[1]
    created = [e for e in fast[0] if e.get("event") == "create"]
    assert len(created) > 20 and any(e.get("event") == "zone_full" for e in fast[0])
