"""The compiled engine: handlers run the rules written in .cards files.

Covers the code generator's safety (user text never becomes code), scenario execution
(create, phrases, hooks, triggers, choices, actions legal and illegal), the guards
against rules that never end, every standard-library scenario as its own case, and
that each library game's generated module compiles and every kind of handler in it runs.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from conftest import GAMES, MINI_CARDS, MINI_RULES, play_scripted, write_game

from cardsmith.compiler import legality
from cardsmith.compiler.api import CORE_PATH, load_game_ir
from cardsmith.compiler.codegen import CodeGenerator, generate
from cardsmith.dsl import ir
from cardsmith.engine import natives
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.scenario_flow import ScenarioMatch
from cardsmith.engine.scenarios import run_scenarios

HOSTILE = [
    'Quote \\" and \\\\ backslash',
    "Triple \\\"\\\"\\\" quotes and ''' too",
    "Line\\nbreak",
    "{{ 7 * 7 }} {% for x in y %} jinja",
    "__import__('os').system('touch SENTINEL')",
    "\\u0000 nul and \\t tab",
]


def hostile_game(folder: Path, sentinel: Path) -> Path:
    cards = []
    for i, name in enumerate(HOSTILE):
        evil = name.replace("SENTINEL", str(sentinel))
        cards.append(f'card "{evil}" {{\n  type: Unit\n  faction: Red\n  attack: {i}\n'
                     f'  text: "{evil}"\n  flavour: "{evil}"\n}}')
    scenario = f'''
scenario "{HOSTILE[4].replace("SENTINEL", str(sentinel))} \\n scenario" {{
  setup {{
    let k = create("{HOSTILE[4].replace("SENTINEL", str(sentinel))}", battlefield, player1)
  }}
  deal 2 damage to k
  expect k.damage == 2 "{HOSTILE[2]}"
}}
'''
    rules = MINI_RULES.replace('game "Mini"', f'game "Mini{HOSTILE[2]}{HOSTILE[4]}"'.replace(
        "SENTINEL", str(sentinel)))
    return write_game(folder, {"rules.cards": rules, "cards.cards": "\n".join(cards) + scenario})


def test_user_text_never_becomes_code(tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    folder = hostile_game(tmp_path / "g", sentinel)
    game_ir = load_game_ir(str(folder))
    source = generate(game_ir, "0.1.0")
    tree = ast.parse(source)
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert "__import__" not in calls and "eval" not in calls and "exec" not in calls
    for node in ast.walk(tree):  # every user string is a constant, never an identifier
        if isinstance(node, ast.Name):
            assert node.id.isidentifier() and "'" not in node.id
    game = CompiledGame(game_ir)
    results = run_scenarios(str(folder))
    assert [r.passed for r in results] == [True], results
    assert not sentinel.exists()
    assert len(game.cards_by_name) == len(HOSTILE)


MINI_SCENARIOS = '''
keyword Etherial {
  reminder: "Prevents 1 damage from each source."
  before deal_damage where target == self { decrease amount by 1 }
}
card "Ghost" { type: Unit; faction: Blue; attack: 1; keywords: Etherial }
card "Giant" { type: Unit; faction: Red; attack: 9; cost: 5 }
scenario "create, phrases and counters" {
  setup {
    let k = create("Knight", battlefield, player1)
  }
  deal 3 damage to k
  expect k.damage == 3
  gain 2 gold
  expect player1.gold == 2 "gain adds to the acting player's counter"
  player2 gains 5 gold
  expect player2.gold == 5
}
scenario "hooks change a procedure's arguments" {
  setup {
    let g = create("Ghost", battlefield, player1)
  }
  deal 3 damage to g
  expect g.damage == 2 "Etherial prevents one"
}
scenario "triggers run on events" {
  setup {
    let ar = create("Archer", battlefield, player1)
  }
  deal 1 damage to ar
  expect player1.gold == 1 "the Archer's trigger gains a gold"
}
scenario "actions: legal with the cost paid, illegal when unaffordable" {
  setup {
    let k = create("Knight", hand of player1, player1)
    let giant = create("Giant", hand of player1, player1)
  }
  expect illegal play_unit by player1 choosing giant
  expect giant.zone == hand of player1 "an illegal attempt changes nothing"
  perform play_unit by player1 choosing k
  expect k.zone == battlefield and k.exhausted
  expect size(hand of player1) == 1
}
scenario "draw moves the top card" {
  setup {
    let first = create("Knight", deck of player1, player1)
    let second = create("Archer", deck of player1, player1)
  }
  draw 1
  # a created card goes on top, as a moved one does
  expect second.zone == hand of player1 and first.zone == deck of player1
}
scenario "a failing expectation reports its line" {
  expect 1 == 2 "this one fails on purpose"
}
'''


def test_mini_game_scenarios(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                         "scenarios.cards": MINI_SCENARIOS})
    results = {r.name: r for r in run_scenarios(str(folder))}
    failing = results.pop("a failing expectation reports its line")
    assert not failing.passed and failing.message == "this one fails on purpose"
    assert failing.line == MINI_SCENARIOS.count("\n", 0, MINI_SCENARIOS.index("expect 1 == 2")) + 1
    bad = {n: r.message for n, r in results.items() if not r.passed}
    assert not bad, bad


def test_endless_loops_and_recursion_stop_with_a_located_error(tmp_path: Path) -> None:
    extra = '''
procedure forever() "loop forever" { while yes { say "again" } }
procedure recurse() "recurse forever" { recurse forever }
scenario "loop" { loop forever }
scenario "recursion" { recurse forever }
'''
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS, "x.cards": extra})
    results = {r.name: r for r in run_scenarios(str(folder))}
    # located at the scenario statement that set the rules off; the message names the rules line
    assert "loops without end" in results["loop"].message and results["loop"].line == 4
    assert "line 2" in results["loop"].message
    assert "calls itself without end" in results["recursion"].message


STACKED = '''
zone stack shared { ordered }
action zap "Zap" {
  speed: instant
  choose c from a unit in your hand
  cost { move c to stack }
  resolve the effect of c
}
scenario "the effect takes the answers left over" {
  players: 2
  setup {
    let knight = create("Knight", battlefield, player1)
    let archer = create("Archer", battlefield, player2)
    let spare = create("Knight", hand of player1, player1)
  }
  perform zap by player1 choosing spare, archer
  everyone passes
  expect archer.damage == 2 and knight.damage == 0
}
scenario "an effect with no target fizzles, as in a played match" {
  players: 2
  setup {
    let spare = create("Knight", hand of player1, player1)
    let top = create("Archer", deck of player1, player1)
  }
  perform zap by player1 choosing spare
  everyone passes
  expect top.zone == deck of player1 "the effect stopped before its draw"
}
scenario "an answer the effect does not offer" {
  players: 2
  setup {
    let knight = create("Knight", battlefield, player1)
    let spare = create("Knight", hand of player1, player1)
  }
  perform zap by player1 choosing spare, spare
  everyone passes
}
scenario "an answer nothing asks for" {
  players: 2
  setup {
    let knight = create("Knight", battlefield, player1)
    let spare = create("Knight", hand of player1, player1)
  }
  perform zap by player1 choosing spare, knight, knight
  everyone passes
}
'''


def test_a_stack_effect_takes_the_scripted_answers_its_action_left(tmp_path: Path) -> None:
    """`choosing` answers the action's choices, then its effect's — also when the effect
    waits on the stack; an answer that is not offered, or that nothing asks for, fails
    the scenario at its `perform` line instead of being passed over."""
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                         "stacked.cards": STACKED})
    results = {r.name: r for r in run_scenarios(str(folder))}
    assert results["the effect takes the answers left over"].passed, results
    assert results["an effect with no target fizzles, as in a played match"].passed, results
    offered = results["an answer the effect does not offer"]
    assert not offered.passed and "is not an option for" in offered.message
    assert offered.line == STACKED.count("\n", 0, STACKED.index("choosing spare, spare")) + 1
    unused = results["an answer nothing asks for"]
    assert not unused.passed and "no choice was left to take Knight#" in unused.message


@functools.cache
def library_ir(game: str) -> ir.Game:
    """A library game checked once per process: collection reads its scenario names, and
    the compiled game below reuses the same IR instead of checking it again."""
    return load_game_ir(game)


@functools.cache
def library_game(game: str) -> CompiledGame:
    """A library game compiled once per process (no disk cache: collection runs before the
    per-test cache folder exists), shared by all its scenario cases."""
    return CompiledGame(library_ir(game))


# one pytest case per library scenario, so a failure names the game and the scenario
LIBRARY_SCENARIOS = [pytest.param(game, index, id=f"{game}::{scenario.name}")
                     for game in GAMES for index, scenario in enumerate(library_ir(game).scenarios)]


@pytest.mark.parametrize(("game", "index"), LIBRARY_SCENARIOS)
def test_library_scenario(game: str, index: int) -> None:
    result = ScenarioMatch(library_game(game), index).run_scenario()
    assert result.passed, f"{game} scenario {result.name!r} (line {result.line}): {result.message}"


def test_every_library_game_has_its_scenarios_collected() -> None:
    """A ratchet against the parametrized list silently shrinking (a game whose scenarios
    stopped being collected would pass by running nothing): every game has scenarios, the
    ids are unique, and the library has at least as many as it had when they were counted."""
    ids = [param.id for param in LIBRARY_SCENARIOS]
    assert len(set(ids)) == len(ids)
    assert {param.values[0] for param in LIBRARY_SCENARIOS} == set(GAMES)
    assert len(LIBRARY_SCENARIOS) >= 121


def test_cli_test_and_compile(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS,
                                         "scenarios.cards": MINI_SCENARIOS})
    run = [sys.executable, "-m", "cardsmith.cli"]
    proc = subprocess.run([*run, "test", str(folder)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "FAIL  a failing expectation" in proc.stdout and "1 failed" in proc.stderr
    proc = subprocess.run([*run, "test", str(folder), "-k", "draw"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("PASS  draw")
    proc = subprocess.run([*run, "compile", str(folder), "--emit", "python"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and "def P_deal_damage(m, ctx, v_amount, v_target)" in proc.stdout
    ast.parse(proc.stdout)


def needed_handler_keys(game: ir.Game) -> set[tuple[str, ...]]:
    """The HANDLERS keys the engine looks up for `game`, worked out from the IR alone (not
    from the code generator), so a rule the generator forgot, or a key it misspelt, shows."""
    keys: set[tuple[str, ...]] = set()
    keys |= {("procedure", p.name) for p in game.procedures if not p.native}
    keys |= {("function", f.name) for f in game.functions if not f.native}
    keys |= {("setup", str(i)) for i in range(len(game.setup))}
    keys |= {("zone", z.name, "capacity") for z in game.zones if z.capacity is not None}

    def stages(scope: str, stage: ir.StageDecl, parents: tuple[str, ...]) -> None:
        path = (*parents, stage.name)
        keys.add(("stage", scope, *path))
        if stage.skip is not None:
            keys.add(("stage", scope, *path, "skip"))
        for step in stage.steps:
            stages(scope, step, path)

    for flow in game.flows:
        for stage in flow.stages:
            stages(flow.scope, stage, ())
    writer = CodeGenerator(game, "0.1.0")
    for action in game.actions:
        keys.add(("action", action.name))
        if action.limit is not None:
            keys.add(("action", action.name, "limit"))
        if legality.fragment_problem(action, writer) is None:  # its compiled legality predicate
            keys.add(("legal", action.name))
    keys |= {("check", str(i)) for i in range(len(game.checks))}
    keys |= {("trigger", str(i)) for i in range(len(game.triggers))}
    keys |= {("hook", str(i)) for i in range(len(game.hooks))}
    owners = [(("card", c.name), c.abilities) for c in game.cards]
    owners += [(("keyword", k.name), k.abilities) for k in game.keywords]
    for owner, abilities in owners:
        for i, ability in enumerate(abilities):
            key = (*owner, str(i))
            if isinstance(ability, ir.Static):  # a static is only its expressions
                keys |= {(*key, "modifier", str(m)) for m in range(len(ability.modifiers))}
                keys |= {(*key, part) for part, given in (("target", ability.target),
                                                          ("condition", ability.condition)) if given is not None}
            else:
                keys.add(key)
                if isinstance(ability, ir.Activated) and legality.fragment_problem(ability, writer) is None:
                    keys.add(("legal", *key))  # its compiled legality predicate
    keys |= {("card", c.name, "play") for c in game.cards if c.play_condition is not None}
    keys |= {("scenario", str(i)) for i in range(len(game.scenarios))}
    if game.heuristic is not None:
        keys.add(("heuristic",))
    if game.scoring is not None:
        keys.add(("score",))
        keys |= {("tiebreak", str(i)) for i in range(len(game.scoring.tiebreak))}
    return keys


@pytest.mark.parametrize("game", GAMES)
def test_every_library_game_compiles_and_every_kind_of_handler_runs(game: str) -> None:
    """The generated module is valid Python that compiles and executes; its HANDLERS table
    has exactly the keys the IR needs, each a function of the module taking (m, ctx, ...);
    and played for real — a fresh match's setup and stages, random moves, the heuristic
    scoring each seat, the final ranking, every scenario — at least one handler of every kind
    the module has actually runs, rather than only parsing."""
    game_ir = library_ir(game)
    source = generate(game_ir, "0.1.0")
    ast.parse(source)
    filename = f"<handlers of {game}>"
    namespace: dict[str, Any] = {"__name__": f"handlers_{game}"}
    exec(compile(source, filename, "exec"), namespace)
    handlers = namespace["HANDLERS"]
    assert set(handlers) == needed_handler_keys(game_ir)
    for key, fn in handlers.items():
        assert fn.__code__.co_filename == filename and fn.__code__.co_varnames[:2] == ("m", "ctx"), key

    compiled = library_game(game)  # the engine's own compile of the same module
    assert {key: fn.__name__ for key, fn in compiled.handlers.items()} == {
        key: fn.__name__ for key, fn in handlers.items()}
    key_of = {fn.__code__: key for key, fn in compiled.handlers.items()}
    ran: set[tuple[str, ...]] = set()

    def seen(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and (key := key_of.get(frame.f_code)) is not None:
            ran.add(key)

    sys.setprofile(seen)
    try:
        match = compiled.new_match(seed=5)
        heuristic = compiled.handlers.get(("heuristic",))
        if heuristic is not None:  # each seat's score of the fresh match, called as a look-ahead scores a move
            # (PlayedMatch.score_action)
            values = [heuristic(match, rt.Ctx(p, None)) for p in match.players]
            assert all(isinstance(v, int | Fraction) for v in values), values
        applied = play_scripted(match, [RandomAgent(1), RandomAgent(2)], max_actions=120)
        assert applied >= 20 or match.is_over, applied
        assert match.error is None, match.error
        if game_ir.scoring is not None:
            ranking = natives.rank_players(match)
            assert len(ranking) == len(match.players)
            assert all(len(rank) == 1 + len(game_ir.scoring.tiebreak) for _, rank in ranking)
        for index in range(len(game_ir.scenarios)):
            ScenarioMatch(compiled, index).run_scenario()
    finally:
        sys.setprofile(None)
    kinds = {key[0] for key in handlers}
    assert kinds - {key[0] for key in ran} == set(), sorted(ran)
    assert len(ran) >= len(handlers) // 2, f"only {len(ran)} of {len(handlers)} handlers ran"


def test_played_matches_are_deterministic_and_end(tmp_path: Path) -> None:
    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, play_out
    from cardsmith.engine.flow import PlayedMatch

    game = load("combat_cards")
    logs = []
    for _ in range(2):
        match = PlayedMatch(game, seed=7, players=2)
        play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=5000)
        assert match.over and match.error is None, match.result
        assert match.winner is not None or match.drawn
        logs.append(match.log)
    assert logs[0] == logs[1]
    other = PlayedMatch(game, seed=8, players=2)
    play_out(other, [RandomAgent(1), RandomAgent(2)], max_actions=5000)
    assert other.log != logs[0]


def test_cli_play_writes_a_log(tmp_path: Path) -> None:
    import json

    log = tmp_path / "match.jsonl"
    proc = subprocess.run([sys.executable, "-m", "cardsmith.cli", "play", "combat_cards", "--seed", "3", "--log",
                           str(log)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["over"] and result["seed"] == 3
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[-1]["event"] == "result"
    assert {"shuffle", "action", "counter"} <= {e["event"] for e in events}


def test_compiled_handlers_are_cached_and_a_corrupt_entry_is_rebuilt(mini_game: Path) -> None:
    from cardsmith.compiler.api import read_files
    from cardsmith.compiler.handlers import compiled_handlers, handlers_key
    from cardsmith.compiler.loader import resolve
    from cardsmith.util.sealed import cache_dir

    game_ir = load_game_ir(str(mini_game))
    key = handlers_key(read_files(resolve(str(mini_game))))
    source, _code = compiled_handlers(game_ir, key)
    entry = cache_dir() / f"handlers-{key}.bin"
    assert entry.exists()
    assert compiled_handlers(game_ir, key)[0] == source
    entry.write_bytes(b"not marshal data")
    assert compiled_handlers(game_ir, key)[0] == source
    assert entry.read_bytes() != b"not marshal data"


def test_replay_verifies_a_log_and_finds_tampering(tmp_path: Path) -> None:
    import json

    log = tmp_path / "m.jsonl"
    run = [sys.executable, "-m", "cardsmith.cli"]
    assert subprocess.run([*run, "play", "combat_cards", "--seed", "2", "--log", str(log)], capture_output=True,
                          timeout=300).returncode == 0
    ok = subprocess.run([*run, "replay", str(log)], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0 and "verified" in ok.stderr
    lines = log.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if json.loads(line)["event"] == "shuffle")
    entry = json.loads(lines[index])
    entry["order"] = entry["order"][::-1]
    lines[index] = json.dumps(entry, sort_keys=True)
    log.write_text("\n".join(lines) + "\n")
    bad = subprocess.run([*run, "replay", str(log)], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1 and f":{index + 1}:1: error[CS3001]: diverges" in bad.stderr
    log.write_text("not json\n")
    assert subprocess.run([*run, "replay", str(log)], capture_output=True, timeout=300).returncode == 1


def test_snapshot_restores_and_observations_hide_what_a_player_cannot_see() -> None:
    import json

    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, ask
    from cardsmith.engine.flow import PlayedMatch

    game = load("combat_cards")
    match = PlayedMatch(game, seed=11, players=2)
    agents = [RandomAgent(5), RandomAgent(6)]
    for _ in range(30):
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player], match, actions))
    snap = json.loads(json.dumps(match.snapshot()))
    again = PlayedMatch.restore(game, snap)
    assert again.state_summary() == match.state_summary()
    assert [a.description for a in again.legal_actions()] == [a.description for a in match.legal_actions()]
    view = match.observation(0)
    hands = {z["owner"]: z for z in view["zones"] if z["zone"] == "hand"}
    assert hands["player1"]["cards"] and all("name" in c for c in hands["player1"]["cards"])
    assert hands["player2"]["cards"] == [] and hands["player2"]["size"] >= 0
    decks = [z for z in view["zones"] if z["zone"] == "draw_pile"]
    assert all(z["cards"] == [] for z in decks)


def test_the_public_api_plays_a_dealt_match_and_restores_it() -> None:
    import json

    import cardsmith
    from cardsmith.engine.agents import RandomAgent, ask

    game = cardsmith.load("kingdom_combat")
    match = game.new_match(seed=4)
    assert match.decks is not None and all(len(d) >= 30 for d in match.decks)  # the library's ready decks
    agents = [RandomAgent(1), RandomAgent(2)]
    for _ in range(60):
        actions = match.legal_actions()
        assert [a.id for a in actions] == list(range(len(actions)))  # stable ids: positions in the list
        assert all(a.description for a in actions)
        match.apply(ask(agents[actions[0].player], match, actions))
    again = game.restore_match(json.loads(json.dumps(match.snapshot())))
    assert again.state_summary() == match.state_summary() and again.log == match.log
    named = game.new_match(seed=4, decks=[list(d) for d in match.decks])
    assert named.decks == match.decks and named.log[:5] == game.new_match(seed=4).log[:5]
    assert not match.is_over and match.result["over"] is False


def test_simulate_reports_balance() -> None:
    from cardsmith.engine.simulate import simulate, statistics

    results = simulate("combat_cards", 6, seed=1, jobs=2)
    stats = statistics(results, 2)
    assert stats["matches"] == 6 and stats["error_count"] == 0
    assert sum(stats["wins_per_seat"].values()) + stats["draws"] + stats["shared_wins"] == 6
    assert stats["cards"] and all(0 <= c["win_rate_when_played"] <= 1 for c in stats["cards"].values())
    assert [r.seed for r in results] == list(range(1, 7))
    assert simulate("combat_cards", 2, seed=3)[1].turns == results[3].turns


LIMITED_GAME = """
game "Limits" {
  id: limits
  players: 2
}
counter gold per player { start: 0 }
action take_gold "Take a gold" {
  limit: 2
  gain 1 gold
}
turn {
  stage main { actions: take_gold }
}
check "rich" {
  for each p in players { if p.gold >= 5 { p wins the game } }
}
scenario "a limit of 2 per turn" {
  perform take_gold by player1
  perform take_gold by player1
  expect illegal take_gold by player1
  expect player1.gold == 2
}
"""


def test_an_action_limit_counts_per_player_per_turn(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "limits", {"rules.cards": LIMITED_GAME})
    assert all(r.passed for r in run_scenarios(str(folder)))
    match = CompiledGame(load_game_ir(str(folder))).new_match(seed=1)
    offered = []
    while not match.is_over:
        actions = match.legal_actions()
        offered.append((match.turn_number, [a.description for a in actions]))
        match.apply(actions[0])
    turn_one = [names for turn, names in offered if turn == 1]
    # after two golds only `pass` is left: that window passes by itself, asking nobody
    assert turn_one == [["Take a gold", "pass"], ["Take a gold", "pass"]]
    assert match.winner is match.players[0] and match.players[0].counters["gold"] == 5


BROKEN_GAME = """
game "Broken" {
  id: broken
  players: 2
}
counter x shared { start: 0 }
action wait "Wait" {
}
turn {
  stage main { actions: wait }
  stage upkeep {
    if turn_number > 2 { set x to 1 / x }
  }
}
"""


def test_failing_simulated_matches_are_saved_as_replayable_traces(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "broken", {"rules.cards": BROKEN_GAME})
    traces = tmp_path / "traces"
    run = [sys.executable, "-m", "cardsmith"]
    done = subprocess.run([*run, "simulate", str(folder), "-n", "2", "--traces", str(traces)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1 and "errors: 2" in done.stdout and "saved the logs of 2" in done.stderr
    saved = sorted(traces.glob("*.jsonl"))
    assert [p.name for p in saved] == ["broken-seed1.jsonl", "broken-seed2.jsonl"]
    assert "division by zero" in saved[0].read_text().splitlines()[-1]
    again = subprocess.run([*run, "replay", str(saved[0]), "--game", str(folder)], capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0 and "verified" in again.stderr
    by_id = subprocess.run([*run, "replay", str(saved[0])], capture_output=True, text=True, timeout=300)
    assert by_id.returncode == 2 and "--game FOLDER" in by_id.stderr


def test_bad_agents_are_usage_errors_before_any_match() -> None:
    """A misspelt agent or search budget is refused up front (exit 2, every problem
    named), never an internal error from a worker halfway through a simulation."""
    from cardsmith.engine.agents import agent_problem, make_agent

    assert agent_problem("search:200") is None and agent_problem("search:50ms") is None
    assert agent_problem("search") is None and agent_problem("greedy") is None
    for bad in ("search:abc", "search:0", "search:0ms", "search:", "search:-5", "search:1.5ms"):
        problem = agent_problem(bad)
        assert problem is not None and "bad search budget" in problem, bad
    assert agent_problem("human") is not None and agent_problem("human", human=True) is None
    for huge in ("search:99999999999999999999", "search:1000001", "search:600001ms"):
        problem = agent_problem(huge)
        assert problem is not None and "over the most a move may take" in problem, huge
    assert agent_problem("search:1000000") is None and agent_problem("search:600000ms") is None
    with pytest.raises(ValueError, match="bad search budget"):
        make_agent("search:x", 1)
    run = [sys.executable, "-m", "cardsmith"]
    done = subprocess.run([*run, "simulate", "combat_cards", "-n", "1", "--agents", "search:abc,fool"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "internal error" not in done.stderr
    assert "bad search budget 'abc'" in done.stderr and "unknown agent 'fool'" in done.stderr


def test_greedy_and_human_agents() -> None:
    import io

    from rich.console import Console

    from cardsmith.app import load
    from cardsmith.engine.agents import GreedyAgent, RandomAgent, play_out
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.table import TablePlayer

    game = load("combat_cards")
    match = PlayedMatch(game, seed=4, players=2)
    play_out(match, [GreedyAgent(1), RandomAgent(2)], max_actions=5000)
    assert match.over and match.error is None
    shown: list[str] = []

    def show(renderable: Any) -> None:
        out = io.StringIO()
        Console(file=out, width=120, no_color=True).print(renderable)
        shown.append(out.getvalue())
    answers = iter(["x", "99", "0"] + ["0"] * 50)
    human = TablePlayer(show, lambda _q: next(answers), game)
    match = PlayedMatch(game, seed=4, players=2)
    play_out(match, [human, RandomAgent(2)], max_actions=4)
    assert any("you are player1" in s for s in shown)
    assert any("please answer a number" in s for s in shown)
    board = next(s for s in shown if "you are player1" in s)
    assert re.search(r"hand — player2 ─+╮", board) and "Cards of your side — player1 (yours)" in board, board


def test_a_rule_that_asks_for_a_choice_with_no_option_ends_the_match_with_an_error(tmp_path: Path) -> None:
    """An effect whose choice has no option fizzles; a stage of the turn has no effect
    around it to fizzle, so the match ends with a located rules error, not an exception."""
    folder = write_game(tmp_path / "empty", {"rules.cards": '''
game "Empty" {
  id: empty
  players: 2
}
zone hand per player { visibility: owner }
cardtype Unit {
  stats { attack: number = 1 }
}
turn {
  stage main {
    choose c from a unit in your hand
    say "never"
  }
}
'''})
    from cardsmith.compiler.api import load_game_ir
    from cardsmith.engine.game import CompiledGame

    match = CompiledGame(load_game_ir(str(folder))).new_match(seed=1)
    assert match.is_over and match.error is not None
    assert "nothing to choose from: 'c' (line 12)" in match.error


@pytest.mark.parametrize("game_id", ["kingdom_cards", "combat_cards"])
def test_greedy_lookahead_leaves_the_match_as_its_history_replays(game_id: str) -> None:
    """Greedy scores a move by playing it under the journal and rolling it back; a move
    that ends the stage (Kingdom Cards' "Done arranging") once left that request behind,
    so the real stage ended after a different move — and the match no longer replayed
    from its own history (the search agent's clones refused it)."""
    from cardsmith.app import load
    from cardsmith.engine.agents import GreedyAgent, RandomAgent, ask
    from cardsmith.engine.flow import PlayedMatch

    game = load(game_id)
    match = game.new_match(seed=2)
    agents = [GreedyAgent(2), RandomAgent(2)]
    for _ in range(40):
        if match.is_over:
            break
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player % 2], match, actions))
        PlayedMatch.restore(game, match.snapshot())  # raises if the state differs


@pytest.mark.parametrize("game_id", GAMES)
def test_a_replica_is_the_match_again_without_finding_legal_moves(game_id: str) -> None:
    """The search agent's copies (engine/replica.py) replay each move itself: same table,
    same log, byte for byte, as the match and as restore() from its snapshot."""
    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, play_out
    from cardsmith.engine.flow import PlayedMatch

    game = load(game_id)
    match = game.new_match(seed=5)
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=150)
    copy = match.replica()
    assert copy.state_summary() == match.state_summary() and copy.log == match.log
    assert copy.log == PlayedMatch.restore(game, match.snapshot()).log
    assert [a.description for a in copy.legal_actions()] == [a.description for a in match.legal_actions()]


def test_replica_payloads_round_trip_and_an_unknown_card_falls_back_to_replay() -> None:
    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, play_out
    from cardsmith.engine.replica import Rebuilder, portable

    game = load("kingdom_combat")
    match = game.new_match(seed=3)
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=60)
    card = match.all_cards()[5]
    value = ("move", [card, match.players[1], match.zone("hand", match.players[0]), (2, 3), "pass", None])
    assert Rebuilder(match).value(portable(value)) == value
    action_id, seat, description, _payload = match.moves[-1]
    match.moves[-1] = (action_id, seat, description, ("card", 10**9))  # no such card
    copy = match.replica()  # replayed by action id instead
    assert copy.state_summary() == match.state_summary()


def _search_against_random(seeds: range, iterations: int) -> int:
    """Matches of Combat Cards the search agent wins against random, in alternate seats."""
    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, play_out
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.search import SearchAgent

    game = load("combat_cards")
    wins = 0
    for seed in seeds:
        seat = seed % 2
        agents: list[object] = [RandomAgent(seed), RandomAgent(seed + 1)]
        agents[seat] = SearchAgent(seed, iterations=iterations)
        match = PlayedMatch(game, seed=seed, players=2)
        play_out(match, agents, max_actions=400)
        assert match.over and match.error is None
        wins += any(p.index == seat for p in match.winners)
    return wins


def test_the_search_agent_plays_whole_matches_in_either_seat() -> None:
    """Monte Carlo tree search over determinized worlds: those worlds can deal a hand the
    real game never would (a Combat Cards hand of Draw cards only), so its rollouts meet
    rules errors the real match does not — they must end the rollout, not the agent."""
    _search_against_random(range(1, 3), iterations=12)


@pytest.mark.slow
def test_the_search_agent_beats_random() -> None:
    """Over 20 matches in alternate seats (Combat Cards' horror side wins ~70% of random
    matches, so one seat alone would measure the deck), 25 iterations a move."""
    assert _search_against_random(range(1, 21), iterations=25) >= 14


def test_a_cut_short_rollout_is_judged_by_the_games_heuristic() -> None:
    """A rollout that reaches the depth limit before the match ends scores by the game's
    declared heuristic — the leader 0.75, the other 0.25, a tie 0.5 each — not a draw
    for everyone (which left the search picking at random in long games)."""
    from cardsmith.app import load
    from cardsmith.engine import runtime as rt
    from cardsmith.engine.agents import RandomAgent, play_out
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.search import SearchAgent

    game = load("combat_cards")
    heuristic = game.handlers[("heuristic",)]
    judged_once = False
    for seed in range(1, 8):
        match = PlayedMatch(game, seed=seed, players=2)
        play_out(match, [RandomAgent(seed), RandomAgent(seed + 1)], max_actions=12)
        if match.is_over:
            continue
        values = [heuristic(match, rt.Ctx(p, None)) for p in match.players]
        rewards = SearchAgent(seed)._rewards(match)
        assert sum(rewards.values()) == 1.0
        if values[0] == values[1]:
            assert rewards == {0: 0.5, 1: 0.5}
        else:
            leader = 0 if values[0] > values[1] else 1
            assert rewards[leader] == 0.75 and rewards[1 - leader] == 0.25
            judged_once = True
    assert judged_once


def test_determinize_guesses_hidden_cards_and_rolls_back() -> None:
    import random

    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, play_out
    from cardsmith.engine.flow import PlayedMatch

    game = load("combat_cards")
    match = PlayedMatch(game, seed=9, players=2)
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=20)
    before = match.state_summary()
    hidden_own = {name for (name, owner), zone in match.zones.items()
                  if owner == 0 and zone.visibility == "hidden"}
    # what player 0 knows of their own: every card of their zones, but not the order of a
    # hidden one (their draw pile), which determinize guesses as well — by dealing the
    # identities (names) among the places, each keeping its engine id: compare names there

    def known(zones: dict[str, list[str]]) -> dict[str, list[str]]:
        return {k: (sorted(c.rpartition("#")[0] for c in v) if k.split("/")[0] in hidden_own else v)
                for k, v in zones.items() if k.endswith("/0")}

    mine = known(before["zones"])
    hidden_sizes = {k: len(v) for k, v in before["zones"].items()}
    snapshot = match.snapshot_state()
    changed = False
    for seed in range(10):
        match.determinize(0, random.Random(seed))
        during = match.state_summary()
        assert {k: len(v) for k, v in during["zones"].items()} == hidden_sizes  # sizes are known
        assert known(during["zones"]) == mine  # own cards kept
        changed = changed or during["zones"] != before["zones"]
    match.restore_state(snapshot)
    assert match.state_summary() == before
    assert changed, "the opponent's hidden cards were never reshuffled"


@pytest.mark.parametrize("game_id", ["kingdom_cards", "kingdom_combat"])
def test_option_blind_probing_finds_the_same_legal_moves(game_id: str) -> None:
    """One run deciding every option of a last choice (compiler/actions.py) must offer
    exactly what trying each option offers, in the same order."""
    from cardsmith.app import load
    from cardsmith.engine.agents import RandomAgent, ask

    game = load(game_id)
    assert game.option_blind  # the shortcut is in use in this game
    match = game.new_match(seed=7)
    agents = [RandomAgent(3), RandomAgent(4)]
    compared = 0
    for _ in range(150):
        if match.is_over:
            break
        actions = match.legal_actions()
        if any(isinstance(a.payload, tuple) and a.payload[0] in game.option_blind for a in actions):
            saved, game.option_blind = game.option_blind, {}
            try:
                match._cached = None
                full = [a.description for a in match.legal_actions()]
            finally:
                game.option_blind = saved
                match._cached = None
            assert [a.description for a in match.legal_actions()] == full
            compared += 1
        match.apply(ask(agents[actions[0].player], match, match.legal_actions()))
    assert compared > 5


def test_the_natives_table_has_exactly_the_core_preludes_native_procedures() -> None:
    """natives.NATIVES is keyed by the prelude's names: a native the prelude declares but
    the table lacks would only fail when a rule first calls it; an entry no declaration
    names is dead code."""
    game = library_game("combat_cards")
    declared = {p.name for p in game.ir.procedures if p.native and p.span.file == CORE_PATH}
    assert declared == set(natives.NATIVES)
