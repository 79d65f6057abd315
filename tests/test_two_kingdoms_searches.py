"""Two Kingdoms' searches written to share their work (issue 18, session 11) play as the
rules they replaced.

- A move's path search counts back from the target (`gets_to`: a space is reached in at
  most n steps when it is the piece's own, or a neighbour reached in n - 1 steps can step
  into it), remembered per state under the piece and the space, so every space a move
  asks about shares what the others found. It replaced a depth-first search from the
  piece per target (`path_within`), whose answers were kept per target and shared nothing.
- An attack's striker is looked for only where `may_find_foe` holds (a melee unit looks
  at its four neighbours) before every enemy is measured against it, and a rider only
  while its side has a `free_horse`. Each fails only where the full test finds nothing,
  so the moves offered are the same combinations in the same order.

The game is compiled twice, as written and with the old rules put back, and seeded
matches are played by both; at windows along the way the old answers are compared with
the new ones on the same table.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cardsmith.app import decks_for, load
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import make_agent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame

LIBRARY = Path(__file__).resolve().parents[1] / "library" / "two_kingdoms"

# The depth-first search the move used before (rules.cards until issue 18, session 11).
PATH_WITHIN = '''
function path_within(u: card, x: number, y: number, tx: number, ty: number, steps: number) {
  if x == tx and y == ty { return yes }
  if steps <= 0 { return no }
  if max(abs(tx - x), abs(ty - y)) > steps { return no }
  for each dx in -1..1 {
    for each dy in -1..1 {
      if (dx != 0 or dy != 0) and can_step(u, x, y, x + dx, y + dy) {
        if path_within(u, x + dx, y + dy, tx, ty, steps - 1) { return yes }
      }
    }
  }
  return no
}
'''

# (new text, old text) in rules.cards
AS_BEFORE = [
    ("  return gets_to(u, tx, ty, allowance(u))\n",
     "  return path_within(u, col(u), row(u), tx, ty, allowance(u))\n"),
    ("where may_attack(it) and may_find_foe(it)\n", "where may_attack(it)\n"),
    ("where can_ride(it) and free_horse(you)\n", "where can_ride(it)\n"),
]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[CompiledGame, CompiledGame]:
    """(the game as written, the game with the old searches)"""
    folder = tmp_path_factory.mktemp("tk") / "two_kingdoms"
    shutil.copytree(LIBRARY, folder)
    rules = (folder / "rules.cards").read_text(encoding="utf-8")
    for new, old in AS_BEFORE:
        assert rules.count(new) == 1, new
        rules = rules.replace(new, old)
    (folder / "rules.cards").write_text(rules + PATH_WITHIN, encoding="utf-8")
    new, old = load("two_kingdoms"), load(str(folder))
    assert "def F_path_within(" in old.source and "def F_path_within(" not in new.source
    return new, old


def _match(game: CompiledGame, seed: int) -> PlayedMatch:
    return PlayedMatch(game, seed=seed, players=2, decks=decks_for(game, 2, None))


def _agents(seed: int) -> list[Any]:
    return [make_agent("variety", seed * 10), make_agent("variety", seed * 10 + 1)]


@pytest.mark.parametrize("seed", [1, 2])
def test_same_matches(games: tuple[CompiledGame, CompiledGame], seed: int) -> None:
    """Seeded matches of both play action for action the same: the same log."""
    logs = []
    for game in games:
        match = _match(game, seed)
        play_out(match, _agents(seed), max_actions=2500)
        assert match.error is None
        logs.append(match.log)
    assert logs[0] == logs[1]


def test_same_answers(games: tuple[CompiledGame, CompiledGame]) -> None:
    """Along a match of the new game, the old rules' answers on the same table: every space
    a piece can reach, and every striker with a foe and rider with a horse beside it pass
    the first look."""
    new, old = games
    can_reach = new.handlers[("function", "can_reach")]
    old_reach = old.handlers[("function", "can_reach")]
    reaches = new.handlers[("function", "reaches")]
    may_find_foe = new.handlers[("function", "may_find_foe")]
    free_horse = new.handlers[("function", "free_horse")]
    spaces = new.handlers[("function", "spaces")]
    match = _match(new, 3)
    agents = _agents(3)
    checked = {"spaces": 0, "strikers": 0, "riders": 0}
    for _ in range(40):
        play_out(match, agents, max_actions=60)
        if match.over:
            break
        board = match.zones[("castle", -1)] if match.shared["battle"] == 2 else match.zones[("field", -1)]
        units = [c for c in board.cards if c.host is None]
        for u in units:
            ctx = rt.Ctx(u.controller, None)
            x0, y0 = (u.host or u).position
            span = u.base["move"] + 1
            for x in range(x0 - span, x0 + span + 1):
                for y in range(y0 - span, y0 + span + 1):
                    assert can_reach(match, ctx, u, x, y) == old_reach(match, ctx, u, x, y), (u, x, y)
                    checked["spaces"] += 1
            foes = [f for f in units if f.controller is not u.controller and reaches(match, ctx, u, f)]
            if foes:
                assert may_find_foe(match, ctx, u), (u, foes)
                checked["strikers"] += 1
            steeds = [h for h in units if h.controller is u.controller and h.base["troop"].name == "Horse"
                      and "mounted" not in h.statuses and "retreating" not in h.statuses
                      and spaces(match, ctx, u, h) == 1]
            if steeds:
                assert free_horse(match, ctx, u.controller), (u, steeds)
                checked["riders"] += 1
    assert all(checked.values()), checked
