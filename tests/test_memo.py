"""Remembered function results (rt.memo) and the state version they are keyed by.

The engine remembers a pure function's result while the match state keeps its version;
these tests prove which functions count as pure, that a change of any kind gives a new
version (so no stale result is ever read), and that a probe rolled back restores the
version with the state.
"""

from __future__ import annotations

from pathlib import Path

from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.codegen import generate
from cardsmith.compiler.purity import pure_functions
from cardsmith.engine import runtime as rt
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.match import Match
from cardsmith.engine.scenarios import run_scenarios

FUNCTIONS = '''
function units_in_play() = count(all units in battlefield)
function strongest(p: player) = max(values(all units in battlefield where it.controller == p, attack))
function my_gold() = gold
function mine() = count(all friendly units in battlefield)
function lucky() = roll d6
function on_turn() = turn_number
function picks() = random unit in battlefield
function via_impure() = lucky() + 1
function via_pure() = units_in_play() + 1
function body_total(p: player) {
  let total = 0
  for each u in all units in battlefield where it.controller == p { increase total by u.attack }
  return total
}
function recursive(n: number) = recursive(n + 1)
function on_field(z: zone) = z == battlefield
function home_of(z: zone) = z.owner != none and (z == hand of z.owner or on_field(z))
function crowded(z: zone) = z == battlefield and size(battlefield) > 3
function units_plus(n: number) = units_in_play() + n
'''


def _game(tmp_path: Path, extra: str = "") -> Path:
    return write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                       "functions.cards": FUNCTIONS + extra})


def test_purity_keeps_dice_randomness_and_untracked_reads_out(tmp_path: Path) -> None:
    pure = pure_functions(load_game_ir(str(_game(tmp_path))))
    assert {"units_in_play", "strongest", "my_gold", "mine", "via_pure", "body_total", "recursive"} <= set(pure)
    assert not {"lucky", "on_turn", "picks", "via_impure"} & set(pure)
    # only functions that read who acts are keyed by the actor
    assert pure["my_gold"].reads_actor and pure["mine"].reads_actor
    assert not pure["units_in_play"].reads_actor and not pure["strongest"].reads_actor
    # a scan is worth remembering; a single read is cheaper to do again than to look up
    assert pure["units_in_play"].worth_it and pure["body_total"].worth_it and not pure["my_gold"].worth_it


def test_functions_of_their_arguments_alone_are_remembered_all_match(tmp_path: Path) -> None:
    """A function that reads only its arguments, fixed zones and a zone's owner gives the
    same result all match long (rt.memo_match, keyed without the state version); one that
    also reads the table, or calls a function that does, does not."""
    from cardsmith.compiler.purity import match_constant_functions

    game = load_game_ir(str(_game(tmp_path)))
    fixed = match_constant_functions(game, {"battlefield"}, {"hand", "deck", "discard"})
    assert {"on_field", "home_of"} <= fixed
    assert not {"crowded", "units_plus", "units_in_play", "my_gold"} & fixed
    source = generate(game, "test")
    assert "rt.memo_match(m, ctx, F_on_field, " in source


def test_a_scan_is_remembered_and_a_few_reads_are_not(tmp_path: Path) -> None:
    """Only a function that scans (a query, a loop, a call of one that scans) is worth a
    key and a lookup; `via_pure` calls a scan, so it is remembered too."""
    pure = pure_functions(load_game_ir(str(_game(tmp_path))))
    assert pure["via_pure"].worth_it and pure["units_plus"].worth_it
    assert not pure["my_gold"].worth_it and not pure["recursive"].worth_it


def test_generated_code_remembers_only_pure_calls(tmp_path: Path) -> None:
    source = generate(load_game_ir(str(_game(tmp_path))), "test")
    assert "rt.memo(m, ctx, F_units_in_play, False)" in source
    assert "rt.memo(m, ctx, F_lucky" not in source and "F_lucky(m, ctx)" in source


def test_every_change_gives_a_new_version_and_rollback_restores_it(tmp_path: Path) -> None:
    game = CompiledGame(load_game_ir(str(_game(tmp_path))))
    match = Match(game, seed=3, players=2)
    knight = match.create_card("Knight", match.zone("hand", match.players[0]), match.players[0])
    seen = {match.version}
    ctx = rt.Ctx(match.players[0], None)
    for change in (lambda: match.set_counter(match.players[0], "gold", 5),
                   lambda: match.set_status(knight, "exhausted", True),
                   lambda: match._place(knight, match.zone("battlefield", None), top=False),
                   lambda: match.set_card_counter(knight, "damage", 2),
                   lambda: rt.change_field(match, knight, "attack", "increase", 1, "turn", None),
                   lambda: match._expire("turn")):
        change()
        assert match.version not in seen
        seen.add(match.version)
    before = match.version
    snapshot = match.snapshot_state()
    match.set_counter(match.players[0], "gold", 9)
    rt.roll(match, rt.Dice(1, 6))
    after_roll = match.rng.getstate()
    match.restore_state(snapshot)
    assert match.version == before and match.players[0].counters["gold"] == 5
    assert match.rng.getstate() != after_roll  # the probe's roll was rolled back too
    assert rt.roll(match, rt.Dice(1, 6)) in range(1, 7)
    assert ctx.you is match.players[0]


def test_remembered_results_follow_the_state(tmp_path: Path) -> None:
    game = CompiledGame(load_game_ir(str(_game(tmp_path))))
    match = Match(game, seed=3, players=2)
    p1, p2 = match.players
    battlefield = match.zone("battlefield", None)
    count = game.handlers[("function", "units_in_play")]
    strongest = game.handlers[("function", "strongest")]
    my_gold = game.handlers[("function", "my_gold")]

    def remembered(fn: object, ctx: rt.Ctx, *args: object) -> object:
        return rt.memo(match, ctx, fn, True, *args)  # type: ignore[arg-type]

    ctx1, ctx2 = rt.Ctx(p1, None), rt.Ctx(p2, None)
    assert remembered(count, ctx1) == 0
    knight = match.create_card("Knight", battlefield, p1)
    assert remembered(count, ctx1) == 1           # a move is a change: not the old 0
    assert remembered(strongest, ctx1, p1) == 3
    match.set_base(knight, "attack", 7)
    assert remembered(strongest, ctx1, p1) == 7   # a printed value changed
    match.set_counter(p1, "gold", 4)
    match.set_counter(p2, "gold", 1)
    assert remembered(my_gold, ctx1) == 4 and remembered(my_gold, ctx2) == 1  # keyed by who acts
    snapshot = match.snapshot_state()
    match.set_counter(p1, "gold", 8)
    assert remembered(my_gold, ctx1) == 8
    match.restore_state(snapshot)
    assert remembered(my_gold, ctx1) == 4         # the probe's result is not served after rollback


def test_a_function_that_calls_itself_forever_stops_with_a_located_error(tmp_path: Path) -> None:
    folder = _game(tmp_path, '''
scenario "endless function" { expect recursive(1) == 0 }
''')
    results = {r.name: r for r in run_scenarios(str(folder))}
    result = results["endless function"]
    assert not result.passed and "calls itself without end" in result.message


def test_a_trigger_that_sets_itself_off_stops_with_a_located_error(tmp_path: Path) -> None:
    folder = _game(tmp_path, '''
event ping()
on ping() { emit ping() }
scenario "endless event" { emit ping() }
''')
    results = {r.name: r for r in run_scenarios(str(folder))}
    result = results["endless event"]
    assert not result.passed and "without end" in result.message


def test_checks_rerun_when_only_the_turn_changes(tmp_path: Path) -> None:
    """Nothing in this game changes the state; the check must still see the turn number move."""
    folder = write_game(tmp_path / "turns", {"rules.cards": '''
game "Turns" {
  id: turns
  players: 2
}
action wait "Wait" {
}
turn {
  stage main { actions: wait }
}
check "a long game is a draw" {
  if turn_number > 3 { the game is a draw }
}
'''})
    game = CompiledGame(load_game_ir(str(folder)))
    match = game.new_match(seed=1)
    while not match.is_over:
        match.apply(match.legal_actions()[0])
    assert match.drawn and match.error is None and match.turn_number <= 5


def test_reset_makes_the_printed_card_again_and_rolls_back(tmp_path: Path) -> None:
    game = CompiledGame(load_game_ir(str(_game(tmp_path))))
    match = Match(game, seed=3, players=2)
    p1, p2 = match.players
    knight = match.create_card("Knight", match.zone("battlefield", None), p1)
    printed = dict(knight.base)
    match.set_base(knight, "attack", 9)
    match.set_card_counter(knight, "damage", 2)
    match.set_status(knight, "exhausted", True)
    match.set_attr(knight, "controller", p2)
    changed = (dict(knight.base), dict(knight.counters), set(knight.statuses), knight.controller)
    snapshot = match.snapshot_state()
    match.natives["reset_cards"](rt.Ctx(p1, None), knight)
    assert knight.base == printed and knight.counters["damage"] == 0
    assert not knight.statuses and knight.controller is p1
    match.restore_state(snapshot)
    assert (dict(knight.base), dict(knight.counters), set(knight.statuses), knight.controller) == changed
