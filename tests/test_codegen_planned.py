"""Planned queries written in line (compiler/codegen_planned.py) answer as q.query does.

A query over every zone whose condition has a part remembered per zone (queryplan.py) is
a comprehension over its site's zones instead of a call of q.query. These tests compile a
small game and Kingdom Combat with and without it and compare: every function's answer
(or the rules error it raises) over random positions — a zone test that raises, a
zone-and-controller test that raises, a shared zone held by both players — and seeded
matches, log for log.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.app import decks_for
from cardsmith.compiler import codegen_planned
from cardsmith.compiler.api import load_game_ir
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, make_agent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.match import Match

FUNCTIONS = '''
function on_field(z: zone) = z == battlefield
function in_play(c: card) = on_field(c.zone)
function broken(z: zone, n: number) = z == battlefield or 1 / n > 0
function per_gold(c: card) = size(c.zone) / c.controller.gold > 1
function can_go(c: card, z: zone) {
  if not in_play(c) or c.zone == z { return no }
  return c.attack > 0
}
function ready() = count(all units where in_play(it) and it.attack > 1)
function friendly_ready() = count(all friendly units where in_play(it) and it.attack > 1)
function any_ready() = any(all units where in_play(it) and it.attack > 2)
function first_mine(p: player) = first(all units where in_play(it) and it.controller == p)
function theirs(p: player) = count(all units where in_play(it) and it.controller != p and it.attack > 0)
function everything() = count(all cards where in_play(it))
function goers(z: zone) = count(all friendly units where can_go(it, z))
function rich() = count(all units where in_play(it) and it.attack > 5 and per_gold(it))
function rich_any() = count(all units where in_play(it) and it.attack > 0 and per_gold(it))
function mine_rich() = count(all friendly units where in_play(it) and per_gold(it))
function breaks() = count(all units where broken(it.zone, 0) and it.attack > 0)
function breaks_late() = count(all units where broken(it.zone, 0) and it.attack > 5)
function strong_anywhere() = all units where it.attack > 1
function first_weak() = first(all cards where it.attack < 2)
'''

ASKED = [("ready", 0), ("friendly_ready", 0), ("any_ready", 0), ("first_mine", 1), ("theirs", 1),
         ("everything", 0), ("goers", 2), ("rich", 0), ("rich_any", 0), ("mine_rich", 0), ("breaks", 0),
         ("breaks_late", 0)]


def _compiled(tmp_path: Path, in_line: bool, monkeypatch: pytest.MonkeyPatch) -> CompiledGame:
    folder = write_game(tmp_path / ("planned" if in_line else "plain"),
                        {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS, "functions.cards": FUNCTIONS})
    with monkeypatch.context() as patch:
        if not in_line:
            patch.setattr(codegen_planned, "in_line", lambda *args: False)
        return CompiledGame(load_game_ir(str(folder)))


def _answers(game: CompiledGame, seed: int) -> list[Any]:
    """Each function's answer (a card by its place, a rules error by its text) over a random
    position: units dealt to both players' hands, decks and the shared battlefield."""
    rng = random.Random(seed)
    match = Match(game, seed=seed, players=2)
    p1, p2 = match.players
    zones = [match.zone("battlefield", None), match.zone("hand", p1), match.zone("hand", p2),
             match.zone("deck", p1), match.zone("battlefield", None)]
    for _ in range(rng.randrange(0, 9)):
        owner = rng.choice((p1, p2))
        match.create_card(rng.choice(("Knight", "Archer")), rng.choice(zones), owner)
    for p in (p1, p2):
        match.set_counter(p, "gold", rng.randrange(0, 3))
    answers: list[Any] = []
    for you in (p1, p2):
        ctx = rt.Ctx(you, None)
        for name, params in ASKED:
            args = [you, p2, match.zone("battlefield", None), match.zone("hand", p1)][:params]
            if name == "goers":
                args = [rng.choice(zones)]
            try:
                found = game.handlers[("function", name)](match, ctx, *args)
            except rt.RulesError as error:
                found = f"error: {error}"
            answers.append((name, (found.zone.name, found.zone.cards.index(found))
                            if isinstance(found, rt.Card) else found))
    return answers


def test_planned_queries_in_line_answer_as_q_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    planned = _compiled(tmp_path, True, monkeypatch)
    plain = _compiled(tmp_path, False, monkeypatch)
    assert "q.live_site(" in planned.source and "q.group_mine(" in planned.source \
        and "q.group_of(" in planned.source and "next((v_it for _z in" in planned.source
    assert "q.live_site(" not in plain.source
    seen: set[str] = set()
    for seed in range(60):
        answers = _answers(planned, seed)
        assert answers == _answers(plain, seed), seed
        seen |= {str(found)[:6] for _name, found in answers}
    assert "error:" in seen  # (some positions raise: the same rules error both ways)


@pytest.mark.parametrize("agent", ["random", "variety"])
def test_kingdom_combat_plays_the_same_with_planned_queries_in_line(
        agent: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game_ir = load_game_ir("kingdom_combat")
    planned = CompiledGame(game_ir)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_planned, "in_line", lambda *args: False)
        plain = CompiledGame(game_ir)
    assert "q.live_site(" in planned.source and "q.live_site(" not in plain.source
    decks = decks_for(planned, 2, None)

    def logs(game: CompiledGame) -> list[str]:
        out = []
        for seed in (1, 2):
            match = PlayedMatch(game, seed=seed, players=2, decks=decks)
            agents = [RandomAgent(seed * 10 + i) if agent == "random" else make_agent("variety", seed * 10 + i)
                      for i in range(2)]
            play_out(match, agents, max_actions=400)
            out.append(json.dumps([match.log, match.result], sort_keys=True, default=str))
        return out

    assert logs(planned) == logs(plain)



def test_a_query_over_every_zone_walks_the_zones_in_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`all units where ...` with no zone and no plan: the comprehension walks every zone's
    cards of the type itself (codegen_scan.scan) instead of rt.query_pool's list, in the
    same order, and stops at the first for `first`."""
    game = _compiled(tmp_path, True, monkeypatch)
    assert "rt.query_pool(m, 'units', None)" not in game.source
    assert "for _z in m.zones.values() if _z.types['Unit'] for v_it in _z.cards" in game.source
    assert "for _z in m.zones.values() for v_it in _z.cards" in game.source
    for seed in range(20):
        match = Match(game, seed=seed, players=2)
        p1, p2 = match.players
        rng = random.Random(seed)
        zones = [match.zone("battlefield", None), match.zone("hand", p1), match.zone("deck", p2)]
        for _ in range(rng.randrange(0, 12)):
            match.create_card(rng.choice(("Knight", "Archer")), rng.choice(zones), rng.choice((p1, p2)))
        every = [c for z in match.zones.values() for c in z.cards if c.type == "Unit"]
        ctx = rt.Ctx(p1, None)
        assert game.handlers[("function", "strong_anywhere")](match, ctx) == [
            c for c in every if match.effective(c, "attack") > 1]
        assert game.handlers[("function", "first_weak")](match, ctx) is next(
            (c for c in every if match.effective(c, "attack") < 2), None)
