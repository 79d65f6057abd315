"""A trigger's opening test asked before its context and generator are made (engine/game.py
`trigger_guard`, events._react): `<event parameter> == self` or `== <keyword parameter>`.
The played match is the truth: the same games with and without the guard play the same
seeded matches, log for log, names bound as the compiled trigger binds them (a binding
that hides a keyword parameter, the test written either way round, the first operand of
an `and`, a name on both sides that is not guarded)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, random_logs

from cardsmith.app import load
from cardsmith.engine import game as game_module
from cardsmith.engine.game import CompiledGame, trigger_guard

GAME = '''
game "Guard" {
  id: guard
  players: 2
  first_player: seat1
  turn_limit: 30
}
enum Part { upper; lower }
event struck(part: Part, amount: number)
event touched(c: card)
counter hits per card { start: 0 }
counter score per player { start: 0 }
zone pile shared { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone table shared
cardtype Chip {
  stats { value: number = 1 }
}
keyword Hit(part: Part, n: number) {
  on struck(p, amount) where part == p { increase self.hits by n }
  on struck(n) where n == part { increase self.hits by 10 }
  on struck(p, amount) where amount == n and p == part { increase self.hits by 100 }
  on struck(part) where part == part { increase self.hits by 1000 }
}
card "Top" {
  type: Chip
  keywords: Hit upper 2
  copies: 3
}
card "Bottom" {
  type: Chip
  keywords: Hit lower 3
  copies: 3
}
card "Watcher" {
  type: Chip
  copies: 2
  on touched(c) where self == c { increase self.hits by 7 }
}
setup {
  for each name in catalog() { create every copy of name in pile for player1 }
  shuffle pile
  for each p in players {
    repeat 3 times { move top of pile to hand of p }
  }
}
action play "Play" {
  choose c from a chip in your hand
  move c to table
  emit touched(c)
  if size(pile) > 0 { move top of pile to your hand }
}
action strike_top "Strike high" {
  emit struck(upper, 2)
  increase score by 1
}
action strike_low "Strike low" {
  emit struck(lower, 3)
  for each c in all chips in table { emit touched(c) }
}
turn {
  stage main { actions: play, strike_top, strike_low }
}
'''


def _unguarded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "trigger_guard", lambda *args: None)


def test_guards_follow_the_compiled_bindings(tmp_path: Path) -> None:
    game: CompiledGame = compiled_rules(tmp_path / "g", GAME)
    hit = game.keywords["Hit"]
    struck = game.events["struck"]
    guards = [trigger_guard(t, struck, hit) for t in hit.abilities]  # type: ignore[arg-type]
    # part == p (reversed); n (a binding hiding the keyword's n) == part; the first operand
    # of an `and`; `part == part` with part bound to the event: no guard
    assert guards == [(0, 0), (0, 0), (1, 1), None]
    watcher = game.cards_by_name["watcher"]
    trigger = watcher.abilities[0][1]
    assert trigger_guard(trigger, game.events["touched"], None) == (0, -1)  # type: ignore[arg-type]


def _logs(tmp_path: Path, name: str) -> list[str]:
    game: CompiledGame = compiled_rules(tmp_path / name, GAME)
    return random_logs(game, range(1, 7), 120)


def test_a_game_plays_the_same_with_and_without_guards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    guarded = _logs(tmp_path, "guarded")
    with monkeypatch.context() as patch:
        _unguarded(patch)
        plain = _logs(tmp_path, "plain")
    assert guarded == plain
    joined = "".join(guarded)
    for amount in ('"value": 2', '"value": 10', '"value": 7'):  # the triggers fired
        assert amount in joined


def test_combat_cards_plays_the_same_with_and_without_guards(monkeypatch: pytest.MonkeyPatch) -> None:
    def logs() -> list[str]:
        fresh: Any = load("combat_cards", fresh=True)
        return random_logs(fresh, range(1, 9), 400)
    guarded = logs()
    with monkeypatch.context() as patch:
        _unguarded(patch)
        plain = logs()
    assert guarded == plain
