"""Query planning (compiler/queryplan.py) and typed field reads (codegen.field_kinds).

Both are optimizations the rules must never notice: a plan asks the zone part of a
condition once per zone, a typed read skips rt.attr's search. These tests prove the
analysis on a small game, that a zone test which raises falls back to the unplanned order,
and that the library's seeded matches log byte for byte what the plain code logs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.app import decks_for
from cardsmith.compiler import codegen, queryplan
from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.purity import pure_functions
from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.match import Match

FUNCTIONS = '''
function on_field(z: zone) = z == battlefield
function in_play(c: card) = on_field(c.zone)
function ready(c: card) {
  if not in_play(c) or c.exhausted { return no }
  return c.attack > 0
}
function guarded(c: card) {
  if c.zone != battlefield { return no }
  return yes
}
function per_gold(c: card) = size(c.zone) / c.zone.owner.gold > 1
function ready_units() = count(all units where ready(it))
function strong_per_gold() = count(all units where it.attack > 5 and per_gold(it))
function lucky(c: card) = roll d6 > 3 and in_play(c)
function total_cost() {
  let total = 0
  for each u in all units in battlefield { increase total by u.cost }
  return total
}
function total_attack() {
  let total = 0
  for each u in all units in battlefield { increase total by u.attack }
  return total
}
function rebound_loop_variable() {
  let z = battlefield
  for each u in all units in battlefield {
    if u.attack > 0 { set u to none }
    set z to u.zone
  }
  return z
}
function can_go(c: card, z: zone) {
  if not in_play(c) or c.zone == z { return no }
  return c.attack > 0
}
function goers() = count(all units where can_go(it, battlefield))
card "Banner" {
  type: Unit
  faction: Red
  attack: 0
  static {
    target: all other friendly units where in_play(it)
    attack: +1
  }
}
'''


def _ir(tmp_path: Path) -> ir.Game:
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                         "functions.cards": FUNCTIONS})
    return load_game_ir(str(folder))


def _where(game: ir.Game, function: str) -> ir.Expr:
    """The `where` of the query in a function's expression."""
    decl = next(f for f in game.functions if f.name == function)
    query = next(n for n in queryplan.nodes(decl.expr) if isinstance(n, ir.Query))
    assert query.where is not None
    return query.where


def test_parameters_read_only_by_zone_are_found(tmp_path: Path) -> None:
    game = _ir(tmp_path)
    planner = queryplan.ZonePlanner(game, pure_functions(game))
    assert planner.zone_params["in_play"] == {0} and planner.zone_params["per_gold"] == {0}
    assert not planner.zone_params["on_field"]      # reads the zone itself, not a card's
    assert not planner.zone_params["ready"]         # reads the card's attack too
    assert "lucky" not in planner.zone_params       # rolls a die: not pure, never planned


# the zone test of a query: only the whole-match memo read of `on_field(it.zone)`, written in line,
# asked by a planned query written in line (codegen_planned.py) only when no answer is kept yet
ZONE_TEST_IN_LINE = re.compile(r"q\.zone_passes\(_i\d+, _z, \(lambda v_it: \(\((_mm\d+) if \(\1 := "
                               r"m\.match_memo\.get\(\(F_on_field, v_it\.zone\), rt\.MISSING\)\) is not rt\.MISSING "
                               r"and type\(\1\) is not list else "
                               r"rt\.memo_match\(m, ctx, F_on_field, v_it\.zone\)\)\)\)\)")


def _body(game: CompiledGame, function: str) -> str:
    return game.source.split(f"def F_{function}(")[1].split("\ndef ")[0]


def test_a_condition_splits_into_zone_and_card_parts(tmp_path: Path) -> None:
    game = _ir(tmp_path)
    planner = queryplan.ZonePlanner(game, pure_functions(game))
    by_zone, rest = planner.split(_where(game, "strong_per_gold"), set())
    assert [type(p).__name__ for p in by_zone] == ["Call"] and len(rest) == 1
    # `ready(it)` is just `in_play(it)` and two tests of the card (queryplan.equivalent):
    # the zone part joins the zone test, the others are asked of each card instead of the call
    by_zone, rest = planner.split(_where(game, "ready_units"), set())
    assert len(by_zone) == 1 and isinstance(by_zone[0], ir.Call) and by_zone[0].func == "in_play"
    assert len(rest) == 2 and not any(isinstance(p, ir.Call) for p in rest)


def test_an_implied_test_is_not_moved_where_a_local_would_hide_its_names(tmp_path: Path) -> None:
    game = _ir(tmp_path)
    planner = queryplan.ZonePlanner(game, pure_functions(game))
    call = ir.Call(func="guarded", args=[ir.Ref(name="it", span=game.game.span)], span=game.game.span)
    assert planner.implied(call, {"it"})                   # `it.zone != battlefield`, negated
    assert not planner.implied(call, {"it", "battlefield"})  # the caller's own `battlefield`


def test_planned_queries_answer_as_before_and_a_raising_zone_test_falls_back(tmp_path: Path) -> None:
    game = CompiledGame(_ir(tmp_path))
    # ready_units got a zone test (in_play(it), written in line) remembered under site 1, then
    # its card test: the query over the site's zones in line (compiler/codegen_planned.py)
    body = _body(game, "ready_units")
    assert ZONE_TEST_IN_LINE.search(body) and "q.live_site(m, 1)" in body and "q.query" not in body
    match = Match(game, seed=1, players=2)
    p1 = match.players[0]
    for zone in (match.zone("hand", p1), match.zone("battlefield", None), match.zone("deck", p1)):
        match.create_card("Knight", zone, p1)
    ctx = rt.Ctx(p1, None)
    assert game.handlers[("function", "ready_units")](match, ctx) == 1
    # per_gold divides by the owner's gold (0 in the hand zone: it raises there). No unit
    # has attack > 5, so the query as written never asks per_gold: neither may the plan.
    assert game.handlers[("function", "strong_per_gold")](match, ctx) == 0


def test_field_kinds_leave_counters_and_stats_statics_change_to_the_general_read(tmp_path: Path) -> None:
    kinds = codegen.field_kinds(_ir(tmp_path))
    assert kinds["zone"] == "builtin" and kinds["controller"] == "builtin"
    assert kinds["exhausted"] == "status" and kinds["hand"] == "player_zone"
    assert kinds["cost"] == "stat" and kinds["hp"] == "stat"
    assert not {"attack", "damage", "gold", "battlefield"} & set(kinds)  # Banner's static changes attack


def test_typed_reads_see_set_values_duration_modifiers_and_statics(tmp_path: Path) -> None:
    game = CompiledGame(_ir(tmp_path))
    assert "rt.card_stat(m, v_u, 'cost')" in game.source and "rt.attr(m, v_u, 'attack')" in game.source
    match = Match(game, seed=1, players=2)
    p1 = match.players[0]
    battlefield = match.zone("battlefield", None)
    knight = match.create_card("Knight", battlefield, p1)
    ctx = rt.Ctx(p1, None)
    total_cost = game.handlers[("function", "total_cost")]
    total_attack = game.handlers[("function", "total_attack")]
    assert total_cost(match, ctx) == 0
    match.set_base(knight, "cost", 4)                          # `set k.cost to 4`
    assert total_cost(match, ctx) == 4
    rt.change_field(match, knight, "cost", "increase", 2, "turn", None)  # until end of turn
    assert total_cost(match, ctx) == 6
    assert total_attack(match, ctx) == 3
    match.create_card("Banner", battlefield, p1)               # +1 attack to the others
    assert total_attack(match, ctx) == 3 + 1 + 0


def _logs(game: CompiledGame, game_id: str, seeds: range, cap: int) -> list[str]:
    decks = decks_for(game, 2, None)
    logs = []
    for seed in seeds:
        match = PlayedMatch(game, seed=seed, players=2, decks=decks)
        play_out(match, [RandomAgent(seed * 10 + i) for i in range(2)], max_actions=cap)
        logs.append(json.dumps([match.log, match.result], sort_keys=True, default=str))
    return logs


@pytest.mark.parametrize(("game_id", "cap"), [("kingdom_combat", 400), ("kingdom_cards", 400),
                                              ("combat_cards", 2000), ("construct_and_combat", 300)])
def test_seeded_matches_log_the_same_with_and_without_the_optimizations(
        game_id: str, cap: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game_ir = load_game_ir(game_id)
    planned = CompiledGame(game_ir)
    monkeypatch.setattr(queryplan.ZonePlanner, "split",
                        lambda self, where, local_names, var="it": ([], list(queryplan.conjuncts(where))))
    monkeypatch.setattr(codegen, "field_kinds", lambda game: {})
    plain = CompiledGame(game_ir)
    assert planned.source != plain.source and "rt.card_builtin" not in plain.source
    assert _logs(planned, game_id, range(1, 3), cap) == _logs(plain, game_id, range(1, 3), cap)


def test_a_loop_variable_the_body_sets_is_not_read_as_a_certain_card(tmp_path: Path) -> None:
    """`for each u in all units` makes u a card — unless the body can give it another
    value (`set u to none`): then `u.zone` must stay a read that copes with none."""
    game = CompiledGame(_ir(tmp_path))
    body = game.source.split("def F_rebound_loop_variable")[1].split("\ndef ")[0]
    # read with a type test in line (a None is not a card), never straight as `v_u.zone`
    assert "(v_u.zone if type(v_u) is rt.Card else rt.card_builtin(m, v_u, 'zone'))" in body
    assert "= v_u.zone\n" not in body
    match = Match(game, seed=1, players=2)
    match.create_card("Knight", match.zone("battlefield", None), match.players[0])
    assert game.handlers[("function", "rebound_loop_variable")](match, rt.Ctx(match.players[0], None)) is None


def test_a_zone_test_of_whole_match_functions_is_remembered_per_zone(tmp_path: Path) -> None:
    """`in_play(it)` reads only a zone, through functions of fixed zones: its answer for a
    zone holds all match long, so q.query keeps it (a site number after the card test) and
    asks no more. A test reading a variable, or a function of the state, is asked each time."""
    game_ir = _ir(tmp_path)
    decls = {f.name: f for f in game_ir.functions}
    span = game_ir.game.span
    constant = {"on_field"}
    it = ir.Ref(name="it", span=span)
    assert queryplan.zone_constant(ir.Call(func="in_play", args=[it], span=span), constant, decls)
    assert not queryplan.zone_constant(ir.Call(func="in_play", args=[ir.Ref(name="u", span=span)], span=span),
                                       constant, decls)  # another card's zone
    assert not queryplan.zone_constant(ir.Call(func="per_gold", args=[it], span=span), constant, decls)  # gold
    assert not queryplan.zone_constant(ir.Call(func="in_play", args=[it], span=span), set(), decls)
    game = CompiledGame(game_ir)
    body = _body(game, "ready_units")
    assert ZONE_TEST_IN_LINE.search(body) and "q.live_site(m, 1)" in body  # (a planned query written in line)
    match = Match(game, seed=1, players=2)
    p1 = match.players[0]
    for zone in (match.zone("hand", p1), match.zone("battlefield", None)):
        match.create_card("Knight", zone, p1)
    ctx = rt.Ctx(p1, None)
    assert game.handlers[("function", "ready_units")](match, ctx) == 1
    kept = {zone.name: value for zone, value in match.match_memo[("zone test", 1)].items()}
    assert kept == {"hand": False, "battlefield": True}
    assert game.handlers[("function", "ready_units")](match, ctx) == 1  # (read back: the same answer)


def test_a_zone_test_splits_into_the_part_remembered_per_zone_and_the_part_asked_each_time(
        tmp_path: Path) -> None:
    """`can_go(it, battlefield)` implies `in_play(it) and not it.zone == battlefield`: not
    the same all match long as a whole, but its `in_play(it)` is. q.query remembers that part
    per zone (the site) and asks the other (`zone_also`) of the zones it lets through."""
    game_ir = _ir(tmp_path)
    decls = {f.name: f for f in game_ir.functions}
    planner = queryplan.ZonePlanner(game_ir, pure_functions(game_ir))
    by_zone, _rest = planner.split(_where(game_ir, "goers"), set())
    constant, varying = queryplan.split_constant(by_zone, {"on_field"}, decls)
    assert [p.func for p in constant if isinstance(p, ir.Call)] == ["in_play"] and len(constant) == 1
    assert len(varying) == 1 and isinstance(varying[0], ir.Not)
    game = CompiledGame(game_ir)
    body = _body(game, "goers")
    assert ZONE_TEST_IN_LINE.search(body)  # the remembered part: in_play(it)
    # (written in line, codegen_planned.py: the site, then the part asked each time, of the
    # battlefield read once before the query)
    found = re.search(r"q\.live_site\(m, (\d+)\)", body)
    assert found is not None
    site = int(found.group(1))
    assert re.search(r"\(lambda v_it: \(not \(v_it\.zone is (_i\d+)\)\)\)\)"
                     r".*\(\1 := m\.zones\[\('battlefield', -1\)\]\)", body)
    assert "q.group_of(" in body
    match = Match(game, seed=1, players=2)
    p1 = match.players[0]
    for zone in (match.zone("hand", p1), match.zone("battlefield", None), match.zone("battlefield", None)):
        match.create_card("Knight", zone, p1)
    ctx = rt.Ctx(p1, None)
    assert game.handlers[("function", "goers")](match, ctx) == 0  # in play, but already on the battlefield
    kept = {zone.name: value for zone, value in match.match_memo[("zone test", site)].items()}
    assert kept == {"hand": False, "battlefield": True}  # the remembered part alone
    assert game.handlers[("function", "goers")](match, ctx) == 0
