"""A query's condition written in line (compiler/codegen_scan.py) finds what q.query finds.

The scan asks the engine only for the pool of cards (rt.query_pool) and asks the
condition itself, in a comprehension; the table reads the condition makes are read once
before it. Both must give q.query's answers in q.query's order: the pool is compared with
q.query's on every kind of place a query may look in, and UNO (whose legality predicates
scan hands all the time) is played with and without scans, move for move.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ROOT, random_logs

from cardsmith.compiler import codegen_scan
from cardsmith.compiler.api import load_game_ir
from cardsmith.engine import queries as q
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.model.values import RulesError

UNO = str(ROOT / "benchmarks" / "games" / "uno")


def _logs(game: CompiledGame, seeds: range) -> list[str]:
    return random_logs(game, seeds, 400)


def test_uno_scans_its_hands_in_line() -> None:
    source = CompiledGame(load_game_ir(UNO)).source
    assert "rt.query_pool(m, 'cards'" in source and ".cards if type(" in source
    assert "lambda v_it" not in source  # (every UNO condition is a plain filter of a zone's cards)
    assert "m.params['wild_face']" in source and "(v_it for v_it in" in source


def test_uno_plays_the_same_with_scans_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    ir = load_game_ir(UNO)
    scanned = CompiledGame(ir)
    monkeypatch.setattr(codegen_scan, "scans", lambda *args: False)
    queried = CompiledGame(ir)  # (no cache key: compiled anew, every query through q.query)
    assert "rt.query_pool" not in queried.source and "q.query(" in queried.source
    assert _logs(scanned, range(1, 13)) == _logs(queried, range(1, 13))


def test_the_pool_is_what_q_query_looks_at() -> None:
    game = CompiledGame(load_game_ir(UNO))
    match = PlayedMatch(game, seed=5, players=2)
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=6)
    ctx = rt.Ctx(match.players[0], None)
    hand = match.zones[("hand", 0)]
    places: list[Any] = [*match.zones.values(), None, [*hand.cards[:3], 7, "text", match.players[1]], []]
    for noun in ("card", "cards", "unocard", "uno_cards"):
        for zone in places:
            expected = q.query(match, ctx, noun, [], zone, lambda card: True)
            assert list(rt.query_pool(match, noun, zone)) == expected, (noun, zone)
    with pytest.raises(RulesError, match="cannot look for cards in"):
        rt.query_pool(match, "cards", match.players[0])
    with pytest.raises(RulesError, match="cannot look for cards in"):
        q.query(match, ctx, "cards", [], match.players[0], lambda card: True)
