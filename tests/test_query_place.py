"""Zone tests that read a card's controller, and calls replaced by their conditions
(compiler/queryplan.py, engine/queries.py `_by_controller`).

A query's zone test may read where a card is and who controls it: q.query asks it once
per controller present in a zone instead of once per card. A call of a function that is
nothing but `let`s and `if ... { return no }`s (Kingdom Combat's can_move_to and
can_attack) is replaced by its conditions, so the zone part joins the zone test and only
the rest is asked of each card. These tests prove the analysis on a small game and that
the planned queries answer as the unplanned ones, also in a zone both players hold cards
in and where the zone test raises for one of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINI_CARDS, MINI_RULES, write_game
from test_queryplan import _where

from cardsmith.compiler import queryplan
from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.purity import pure_functions
from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.match import Match

FUNCTIONS = '''
function on_field(z: zone) = z == battlefield
function in_play(c: card) = on_field(c.zone)
function foes_in(z: zone, p: player) = count(all units in z where it.controller != p)
function may_strike(u: card, t: card) {
  if t.controller == u.controller or not in_play(t) { return no }
  let gap = t.attack - u.attack
  if gap > 2 { return no }
  return yes
}
function striking(u: card) = count(all units where may_strike(u, it))
function walled(u: card) {
  if not in_play(u) { return no }
  for each c in all units { if c.attack > u.attack + 9 { return no } }
  return yes
}
function walled_units() = count(all units where walled(it))
function alone(c: card) {
  if not in_play(c) or foes_in(c.zone, c.controller) > 0 { return no }
  return c.attack > 0
}
function lonely() = count(all units where alone(it))
function rich(c: card) = 10 / c.controller.gold > 1
function strong_and_rich() = count(all units where it.attack > 5 and rich(it))
function theirs(p: player) = count(all units where it.controller != p and in_play(it))
'''


def _ir(tmp_path: Path) -> ir.Game:
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                         "functions.cards": FUNCTIONS})
    return load_game_ir(str(folder))


def _calls(parts: list[ir.Expr]) -> set[str]:
    return {n.func for p in parts for n in queryplan.nodes(p) if isinstance(n, ir.Call)}


def test_a_function_of_lets_and_refusals_is_replaced_by_its_conditions(tmp_path: Path) -> None:
    game = _ir(tmp_path)
    decls = {f.name: f for f in game.functions}
    conditions = queryplan.equivalent(decls["may_strike"])
    assert conditions is not None and len(conditions) == 3  # (not same controller, in play, not gap > 2)
    assert queryplan.equivalent(decls["walled"]) is None  # a loop: not only refusals
    planner = queryplan.ZonePlanner(game, pure_functions(game))
    by_zone, rest = planner.split(_where(game, "striking"), {"u"})
    # the controller test and in_play join the zone test; the attack test, its `let`
    # written out, is asked of each card instead of the call
    assert len(by_zone) == 2 and _calls(by_zone) == {"in_play"}
    assert len(rest) == 1 and "may_strike" not in _calls(rest)
    # walled(it) stays a call: only what it implies joins the zone test
    by_zone, rest = planner.split(_where(game, "walled_units"), set())
    assert _calls(by_zone) == {"in_play"} and _calls(rest) == {"walled"}


def test_a_zone_test_may_read_the_controller_but_nothing_else_of_the_card(tmp_path: Path) -> None:
    game = _ir(tmp_path)
    planner = queryplan.ZonePlanner(game, pure_functions(game))
    by_zone, rest = planner.split(_where(game, "theirs"), {"p"})
    assert len(by_zone) == 2 and not rest
    by_zone, rest = planner.split(_where(game, "lonely"), set())
    # `foes_in(it.zone, it.controller) > 0`, negated: once per zone and controller
    assert _calls(by_zone) == {"in_play", "foes_in"} and len(rest) == 1 and not _calls(rest)


def _plain(game_ir: ir.Game, monkeypatch: pytest.MonkeyPatch) -> CompiledGame:
    with monkeypatch.context() as patch:
        patch.setattr(queryplan.ZonePlanner, "split",
                      lambda self, where, local_names, var="it": ([], list(queryplan.conjuncts(where))))
        return CompiledGame(game_ir)


@pytest.mark.parametrize("function", ["striking", "lonely", "theirs", "walled_units", "strong_and_rich"])
def test_planned_queries_answer_as_the_plain_ones_in_shared_zones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: str) -> None:
    game_ir = _ir(tmp_path)
    planned, plain = CompiledGame(game_ir), _plain(game_ir, monkeypatch)
    assert planned.source != plain.source
    answers: dict[str, list[object]] = {"planned": [], "plain": []}
    for name, game in (("planned", planned), ("plain", plain)):
        match = Match(game, seed=1, players=2)
        p1, p2 = match.players
        field = match.zone("battlefield", None)
        for zone, owner in ((match.zone("hand", p1), p1), (field, p1), (field, p2), (field, p1),
                            (match.zone("hand", p2), p2)):
            match.create_card("Knight", zone, owner)
        archer = match.create_card("Archer", field, p2)  # (attack 1: 3 - 1 > 2 is no)
        handler = game.handlers[("function", function)]
        args: dict[str, list[object]] = {"striking": [archer], "theirs": [p1]}
        for ctx in (rt.Ctx(p1, None), rt.Ctx(p2, None)):
            # `rich` divides by gold, 0 for both: the zone test raises for every controller,
            # and no Knight has attack > 5, so the plain query never asks it: neither may the plan
            answers[name].append(handler(match, ctx, *args.get(function, [])))
    assert answers["planned"] == answers["plain"]
    assert answers["planned"] != [0, 0] or function in ("lonely", "strong_and_rich")
