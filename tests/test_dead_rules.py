"""The dead-rule report (engine/coverage.py, `cardsmith simulate`) and the library's own.

Part 1 plays each of the five library games — bounded: a few dozen matches, a few
hundred to a few thousand actions each, in two worker processes — and fails on every
declared action, activated ability, keyword, trigger, event and stage that never happened
in them, except the rules the game's own files excuse in a `coverage { }` block, with a
reason. It also fails on an exclusion that is out of date (the rule did happen): the
block must say what is true.

Random agents reach most rules. Where they do not, the test uses agents that reach
further rather than excusing the rule (issue 12: a rule that should fire but does not is
a bug, one the agents rarely reach is the test's problem):

* `variety` (engine/agents.py VarietyAgent, a real agent seeing only its seat's view)
  picks a *kind* of move first (an action or ability, uniformly), then one of its ways:
  a rare move among hundreds of unit moves (Kingdom Combat) is not drowned out;
* `Builder` (Construct & Combat) buys a construct whenever it can, so kingdoms grow
  enough for secret missions to be completed;
* `Closer` (Two Kingdoms) marches every unit toward the nearest enemy and attacks when it
  can, so the first battle ends within a few hundred actions; in the siege only the
  Battering Ram (at the gate) and the Trebuchet (at a Wall Ballista) act, so the gate falls.

Kingdom Combat is also dealt a deck with Smuggler's Den, a card no ready deck has.

Part 2 checks the report itself on tiny games: an action no stage lists is reported
never offered, an excused one does not count, a trigger whose `where` never holds never
fired, a skipped stage, keyword reads, the checker's diagnostics for `coverage { }`, a
tallied match's log byte-identical to an untallied one, and `simulate`'s text and JSON.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import LIBRARY, play_scripted, write_game

from cardsmith.app import decks_for, load
from cardsmith.compiler.api import check_game, display_path
from cardsmith.decks.library import load_decklist
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, VarietyAgent, ask, play_out
from cardsmith.engine.coverage import Counts, CoverageReport, Tally, index_for
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.moves import Action, ActionWindow

# ---------------------------------------------------------------- test scripts
# They read the live match to steer it (a `script` method, played by conftest's
# play_scripted); a real agent only ever gets its seat's view.


def rule_of(action: Action) -> Any:
    """What kind of move a window move is: the action's name, or the card and ability key."""
    move = action.payload[0] if isinstance(action.payload, tuple) else action.payload
    return move if isinstance(move, str) else (move[1].name, move[2][:3])


class Builder:
    """Construct & Combat: buys a construct whenever one is offered, and uses a built
    construct's ability one time in two when one is offered; otherwise random (a
    RandomAgent, asked through its seat's view, drawing from the same generator)."""

    def __init__(self, seed: int) -> None:
        self.fallback = RandomAgent(seed)
        self.rng = self.fallback.rng

    def script(self, match: PlayedMatch, actions: list[Action]) -> Action:
        window = isinstance(match.pending, ActionWindow)
        buys = [a for a in actions if window and rule_of(a) == "buy_construct"]
        if buys:
            return self.rng.choice(buys)
        uses = [a for a in actions if window and isinstance(rule_of(a), tuple)]
        if uses and self.rng.random() < 0.5:
            return self.rng.choice(uses)
        return ask(self.fallback, match, actions)


class Closer:
    """Two Kingdoms, a battle plan. On The Field: fight on (sound the retreat one time in
    three when allowed), attack whenever possible, else move a unit (nine times in ten)
    toward the nearest enemy — its column, then its row — else end the turn. In the
    siege: only the Battering Ram and the Trebuchet act, walking to the gate and to a Wall
    Ballista (at random two times in five, to get round the towers) and striking them;
    every other unit of either side holds."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.mover: Any = None

    def script(self, match: PlayedMatch, actions: list[Action]) -> Action:
        request = match.pending
        if isinstance(request, rt.Choose) and self.mover is not None and request.label in ("x", "y"):
            return self._step(match, request.label, actions)
        if not isinstance(request, ActionWindow):
            return actions[self.rng.randrange(len(actions))]
        moves: dict[Any, list[Action]] = defaultdict(list)
        for action in actions:
            moves[rule_of(action)].append(action)
        if moves["call_retreat"] and self.rng.random() < 1 / 3:
            return moves["call_retreat"][0]
        if moves["fight_on"]:
            return moves["fight_on"][0]
        if match.shared["battle"] == 2:
            strikes = [a for a in moves["attack"] if a.payload[1][0].name == "Battering Ram" or (
                a.payload[1][0].name == "Trebuchet" and a.payload[1][1].name == "Castle Wall Ballista")]
            if strikes:
                return strikes[0]
            engines = [a for a in moves["move_unit"] if a.payload[1][0].name in ("Battering Ram", "Trebuchet")]
            if engines:
                chosen = self.rng.choice(engines)
                self.mover = chosen.payload[1][0]
                return chosen
            return (moves["end_orders"] or moves["pass"] or actions)[0]
        if moves["attack"]:
            return self.rng.choice(moves["attack"])
        if moves["move_unit"] and self.rng.random() < 0.9:
            chosen = self.rng.choice(moves["move_unit"])
            self.mover = chosen.payload[1][0]
            return chosen
        others = moves["mount"] + moves["dismount"]
        if others and self.rng.random() < 0.3:
            return self.rng.choice(others)
        return (moves["end_orders"] or moves["pass"] or actions)[0]

    def _step(self, match: PlayedMatch, axis: str, actions: list[Action]) -> Action:
        mover = self.mover
        if axis == "y":
            self.mover = None
        foes = [c for c in mover.zone.cards if c.position is not None and c.controller is not mover.controller]
        if mover.name in ("Battering Ram", "Trebuchet"):
            aim = "Castle Gate" if mover.name == "Battering Ram" else "Castle Wall Ballista"
            foes = [c for c in foes if c.name == aim] or foes
            if self.rng.random() < 0.4:
                return self.rng.choice(actions)
        if not foes:
            return self.rng.choice(actions)
        x, y = mover.position
        target = min(foes, key=lambda f: max(abs(f.position[0] - x), abs(f.position[1] - y)))
        goal = target.position[0 if axis == "x" else 1]
        return min(actions, key=lambda a: (abs(a.payload - goal) if isinstance(a.payload, int) else 99,
                                           self.rng.random()))


AGENTS: dict[str, Callable[[int], Any]] = {"random": RandomAgent, "variety": VarietyAgent, "builder": Builder,
                                           "closer": Closer}

# ---------------------------------------------------------------- the library, bounded


@dataclass(frozen=True)
class Plan:
    """Matches of one game: seeds 1..matches (or the seeds listed), each at most
    max_actions long."""

    matches: int
    max_actions: int
    agent: str = "random"
    players: int = 2
    mode: str | None = None
    seeds: tuple[int, ...] = ()

    def all_seeds(self) -> tuple[int, ...]:
        return self.seeds or tuple(range(1, self.matches + 1))


PLANS: dict[str, list[Plan]] = {
    "combat_cards": [Plan(30, 5_000)],
    "kingdom_cards": [Plan(8, 5_000)],
    "construct_and_combat": [Plan(16, 3_000, "builder", mode="versus")],
    "kingdom_combat": [Plan(14, 400, "variety")],
    # seed 19 ends the first battle and breaches the gate within 800 actions (of seeds
    # 1-24, the only one since Dismount offers only the spaces a rider may step down on:
    # most seeds end the war in the first battle, or never bring the Ram to the gate)
    "two_kingdoms": [Plan(2, 800, "closer", seeds=(19, 3))],
}

SMUGGLERS = ("valoria_silver_rose", "3 Farmstead", "3 Smuggler's Den")  # a deck with a card no ready deck has


def deck_rotation(game: CompiledGame, extra: list[list[str]]) -> list[list[str]]:
    """The game's ready decks in name order, then the extra ones (one list per deck)."""
    from cardsmith.decks.library import ready_decks

    ready = ready_decks(game.ir)
    return [ready[name].card_names() for name in sorted(ready)] + extra


def _decks_of(game_id: str, tmp: Path) -> list[list[str]] | None:
    """Decks to deal, by seed (seat i of seed s gets entry (s + i * (1 + s // n)) % n), or
    None for a game whose setup builds its decks."""
    game = load(game_id)
    if decks_for(game, 2, None) is None:
        return None
    extra = []
    if game_id == "kingdom_combat":
        base, old, new = SMUGGLERS
        text = (LIBRARY / game_id / "decks" / f"{base}.deck").read_text(encoding="utf-8").replace(old, new)
        path = tmp / "smugglers.deck"
        path.write_text(text, encoding="utf-8")
        extra.append(load_decklist(path, game.ir).card_names())  # DeckError if the variant were illegal
    return deck_rotation(game, extra)


def _play(task: tuple[str, Plan, int, list[list[str]] | None]) -> tuple[Counts, int, str | None]:
    """One match (in a worker process): its tally, its length, its rules error."""
    game_id, plan, seed, rotation = task
    game = load(game_id)
    decks = None
    if rotation:
        n = len(rotation)
        decks = [rotation[(seed + seat * (1 + seed // n)) % n] for seat in range(plan.players)]
    tally = Tally(index_for(game))
    match = PlayedMatch(game, seed=seed, players=plan.players, mode=plan.mode, decks=decks, tally=tally)
    agents = [AGENTS[plan.agent](seed * 10 + seat) for seat in range(plan.players)]
    applied = play_scripted(match, agents, max_actions=plan.max_actions)
    error = match.error if match.error is not None and not match.out_of_turns else None
    return tally.counts, applied, error


@dataclass
class Played:
    report: CoverageReport
    matches: int
    actions: int
    errors: list[str]
    seconds: float


@pytest.fixture(scope="module")
def library_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    """Every plan of every game, in two worker processes (the games are compiled first,
    here, so the workers inherit them)."""
    tmp = tmp_path_factory.mktemp("decks")
    tasks = []
    for game_id, plans in PLANS.items():
        rotation = _decks_of(game_id, tmp)
        for plan in plans:
            tasks += [(game_id, plan, seed, rotation) for seed in plan.all_seeds()]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_play, tasks))
    seconds = time.perf_counter() - start
    counts: dict[str, Counts] = defaultdict(Counter)
    actions: Counter[str] = Counter()
    errors: dict[str, list[str]] = defaultdict(list)
    for (game_id, _plan, seed, _r), (tally, applied, error) in zip(tasks, results, strict=True):
        counts[game_id].update(tally)
        actions[game_id] += applied
        if error is not None:
            errors[game_id].append(f"seed {seed}: {error}")
    return {game_id: Played(CoverageReport(load(game_id).ir, counts[game_id], sum(p.matches for p in plans)),
                            sum(p.matches for p in plans), actions[game_id], errors[game_id], seconds)
            for game_id, plans in PLANS.items()}


@pytest.mark.parametrize("game_id", sorted(PLANS))
def test_every_rule_of_the_library_happens_or_is_excused(game_id: str, library_runs: dict[str, Played]) -> None:
    played = library_runs[game_id]
    report = played.report
    assert played.errors == [] and played.actions > 0
    dead = [f"{r.file}:{r.line}: {r.name} ({r.verdict})" for r in report.dead]
    assert dead == [], (f"{len(dead)} rule(s) of {game_id} never happened in {played.matches} matches "
                        f"({played.actions} actions); fix the rule, reach it, or excuse it in `coverage {{ }}`:\n  "
                        + "\n  ".join(dead))
    stale = [f"{r.name}: {r.counts}" for r in report.stale]
    assert stale == [], f"excused in `coverage {{ }}` but it happened; drop the exclusion: {stale}"
    # the report covers every kind the game declares, with counts
    assert {r.kind for r in report.rules} >= {"stage"} and all(r.counts for r in report.rules if r.happened)


def test_library_exclusions_give_reasons_and_name_real_rules() -> None:
    """What the games excuse is checked like any rule (the checker resolves every key); a
    reason is a sentence, not a token."""
    for game_id in PLANS:
        game = load(game_id).ir
        names = {rule.name for rule in index_for(load(game_id)).rules}
        for exclusion in game.coverage:
            assert exclusion.rule in names and len(exclusion.reason.split()) >= 4, (game_id, exclusion)


# ---------------------------------------------------------------- the report, on tiny games

TINY = '''
game "Tiny" {
  id: tiny
  players: 2
  first_player: seat1
}
counter score per player { start: 0; min: 0 }
event scored(p: player)
event forgotten(p: player)
keyword Lucky {
  reminder: "Scores count double (the rules ask for it)."
}
keyword Loud {
  reminder: "Shouts when it scores."
  on scored(p) where p == self.controller and p.score > 100 { say "never" }
}
cardtype Token { stats { value: number = 1 } }
zone table per player { visibility: public }
card "Charm" { type: Token; keywords: Lucky, Loud }
card "Bell" {
  type: Token
  activate "Ring" { condition: you.score < 2; gain 1 score }
  activate "Toll" { condition: you.score > 100; gain 9 score }
}
setup {
  for each p in players {
    let charm = create("Charm", table of p, p)
    let bell = create("Bell", table of p, p)
  }
}
action score "Score" {
  limit: 1
  gain 1 score
  if any(all cards in your table where has_keyword(it, Lucky)) { gain 1 score }
  emit scored(you)
}
action hidden "Hidden" {
  gain 5 score
}
action cheat "Cheat" {
  condition: you.score > 1000
  gain 50 score
}
on scored(p) where p.score >= 4 { say "on the board" }
on forgotten(p) { say "nobody sends this" }
turn {
  stage main { actions: score, cheat, activate }
  stage bonus { skip: yes; gain 1 score }
}
check "won" { for each p in players { if p.score >= 12 { p wins the game } } }
'''


def tiny(tmp_path: Path, extra: str = "") -> CompiledGame:
    folder = write_game(tmp_path / "tiny", {"rules.cards": TINY + extra})
    result = check_game(str(folder))
    assert result.game is not None and not [d for d in result.diagnostics if d.severity.name == "ERROR"], [
        d.message for d in result.diagnostics]
    return CompiledGame(result.game)


def tallied(game: CompiledGame, matches: int = 8) -> CoverageReport:
    counts: Counts = Counter()
    for seed in range(1, matches + 1):
        tally = Tally(index_for(game))
        match = PlayedMatch(game, seed=seed, players=2, tally=tally)
        play_out(match, [RandomAgent(seed), RandomAgent(seed + 50)], max_actions=500)
        assert match.over and match.error is None
        counts.update(tally.counts)
    return CoverageReport(game.ir, counts, matches)


def by_name(report: CoverageReport) -> dict[str, Any]:
    return {r.name: r for r in report.rules}


def test_an_unlisted_action_is_reported_never_offered_and_an_excused_one_does_not_count(tmp_path: Path) -> None:
    report = tallied(tiny(tmp_path))
    rules = by_name(report)
    assert list(rules) == ['action score', 'action hidden', 'action cheat', 'ability "Bell" "Ring"',
                           'ability "Bell" "Toll"', "keyword Lucky", "keyword Loud", "trigger on scored",
                           "trigger on forgotten", "trigger Loud on scored", "event scored", "event forgotten",
                           "stage main", "stage bonus"]
    assert rules["action score"].counts["offered"] >= rules["action score"].counts["taken"] > 0
    assert rules["action hidden"].verdict == "never offered" and rules["action hidden"].counts == {}
    assert rules["action cheat"].verdict == "never offered"  # its condition never holds: never legal
    assert rules['ability "Bell" "Ring"'].happened and rules['ability "Bell" "Toll"'].verdict == "never offered"
    assert rules["keyword Lucky"].counts.get("read", 0) > 0  # has_keyword found it: the rules used it
    assert rules["keyword Loud"].verdict == "never used"  # its trigger's `where` never held
    assert rules["trigger on scored"].counts["fired"] < rules["event scored"].counts["fired"]  # `where` p.score >= 4
    assert rules["trigger Loud on scored"].verdict == "never fired"
    assert rules["trigger on forgotten"].verdict == "never fired" and rules["event forgotten"].verdict == "never fired"
    assert rules["stage main"].counts["run"] > 0 and rules["stage main"].happened
    assert rules["stage bonus"].verdict == "never run (always skipped)"
    # every turn but the last of each match (won in `main`) reaches `bonus`
    assert rules["stage bonus"].counts["skipped"] == rules["stage main"].counts["run"] - report.matches
    dead = {r.name for r in report.dead}
    assert dead == {"action hidden", "action cheat", 'ability "Bell" "Toll"', "keyword Loud",
                    "trigger on forgotten", "trigger Loud on scored", "event forgotten", "stage bonus"}

    excused = tallied(tiny(tmp_path / "excused", '''
coverage {
  action hidden: "kept for the advanced variant"
  stage bonus: "switched off while the bonus is playtested"
}
'''))
    assert {r.name for r in excused.dead} == dead - {"action hidden", "stage bonus"}
    assert {r.name: r.excluded for r in excused.excused} == {
        "action hidden": "kept for the advanced variant", "stage bonus": "switched off while the bonus is playtested"}
    assert excused.stale == []
    stale = tallied(tiny(tmp_path / "stale", 'coverage { action score: "players never score" }\n'), matches=1)
    assert [r.name for r in stale.stale] == ["action score"]


ENDER = '''
game "Ender" {
  id: ender
  players: 2
  first_player: seat1
  turn_limit: 4
}
counter tidied shared { start: 0 }
action finish "Finish" { end the turn }
turn {
  stage main { actions: finish; pass: no }
  stage later { say "never" }
  stage tidy { always: yes; increase tidied by 1 }
}
'''


def test_stages_passed_over_after_end_the_turn_are_counted_apart(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "ender", {"rules.cards": ENDER})
    result = check_game(str(folder))
    assert result.game is not None
    game = CompiledGame(result.game)
    tally = Tally(index_for(game))
    match = PlayedMatch(game, seed=1, players=2, tally=tally)
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=100)
    assert match.out_of_turns and match.shared["tidied"] == 4
    rules = by_name(CoverageReport(game.ir, tally.counts, 1))
    assert rules["stage later"].counts == {"passed over": 4}
    assert rules["stage later"].verdict == "never run (always passed over after end the turn)"
    assert rules["stage tidy"].counts == {"run": 4} and rules["action finish"].counts == {"offered": 4, "taken": 4}


def test_a_tallied_match_logs_byte_for_byte_what_an_untallied_one_does(tmp_path: Path) -> None:
    """The tally only counts: same seed, same agents, the same log (library games with
    windows, the stack, triggers and hooks; greedy look-ahead and probes included)."""
    cases = [("kingdom_combat", 150, "greedy"), ("kingdom_combat", 300, "random"), ("combat_cards", 400, "random"),
             ("two_kingdoms", 200, "random"), ("construct_and_combat", 300, "greedy")]
    from cardsmith.engine.agents import make_agent

    for game_id, cap, kind in cases:
        game = load(game_id)
        logs = []
        for tally in (None, Tally(index_for(game))):
            match = game.new_match(seed=3)
            match = PlayedMatch(game, seed=3, players=len(match.players), decks=match.decks, tally=tally)
            play_out(match, [make_agent(kind, 30 + i) for i in range(len(match.players))], max_actions=cap)
            logs.append(json.dumps(match.log, default=str))
        assert logs[0] == logs[1], game_id
        assert tally is not None and sum(tally.counts.values()) > 0


def test_the_tiny_game_tallies_the_same_without_a_tally_changing_anything(tmp_path: Path) -> None:
    """A match without a tally (play, scenarios, search replicas) counts nothing."""
    game = tiny(tmp_path)
    match = PlayedMatch(game, seed=1, players=2)
    assert match.tally is None
    play_out(match, [RandomAgent(1), RandomAgent(2)], max_actions=500)
    assert match.over and match.error is None


# ---------------------------------------------------------------- the checker on `coverage { }`


def messages(tmp_path: Path, extra: str) -> list[tuple[str, str, int, str | None]]:
    folder = write_game(tmp_path / "bad", {"rules.cards": TINY + extra})
    return [(d.code, d.message, d.span.line, d.hint) for d in check_game(str(folder)).diagnostics
            if d.severity.name == "ERROR"]


def test_a_coverage_key_must_name_a_rule_of_the_game(tmp_path: Path) -> None:
    base = TINY.count("\n") + 1
    found = messages(tmp_path, '''coverage {
  action hiden: "a typo"
  trigger "Charm" on scored: "Charm has no trigger of its own"
  stage bonus.extra: "no such step"
  ability "Bell" "Ring": "rings"
  ability "Bell" "Ring": "twice"
}
''')
    assert found == [
        ("CS0202", "coverage names no rule of the game: 'action hiden'", base + 1, "did you mean 'action hidden'?"),
        ("CS0202", "coverage names no rule of the game: 'trigger \"Charm\" on scored'", base + 2,
         "did you mean 'trigger on scored'?"),
        ("CS0202", "coverage names no rule of the game: 'stage bonus.extra'", base + 3, "did you mean 'stage bonus'?"),
        ("CS0201", "'ability \"Bell\" \"Ring\"' is excluded twice", base + 5,
         f"the first is at {display_path(tmp_path / 'bad' / 'rules.cards')}:{base + 4}:3"),
    ]


def test_an_exclusion_needs_a_reason_and_a_kind(tmp_path: Path) -> None:
    base = TINY.count("\n") + 1
    found = messages(tmp_path, '''coverage {
  action hidden
  stage bonus: ""
  stages main: "plural"
  action: "no name"
  event scored: because
}
''')
    assert [(code, line) for code, _m, line, _h in found] == [
        ("CS0204", base + 1), ("CS0204", base + 2), ("CS0202", base + 3), ("CS0205", base + 4), ("CS0204", base + 5)]
    assert found[0][1] == "'action hidden' is excluded without a reason"
    assert found[0][3] == 'say why simulated matches never see it: action hidden: "..."'
    assert found[2][1] == "unknown kind of rule 'stages'" and found[2][3] == "did you mean 'stage'?"
    assert "does not name a rule" in found[3][1]


# ---------------------------------------------------------------- `cardsmith simulate`


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardsmith", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1"})


@cache
def _tiny_folder(root: str) -> Path:
    return write_game(Path(root) / "tiny", {"rules.cards": TINY + 'coverage { stage bonus: "switched off for now" }\n'})


def test_simulate_prints_the_report_as_a_table_and_as_json(tmp_path: Path) -> None:
    folder = _tiny_folder(str(tmp_path))
    done = run_cli("simulate", str(folder), "-n", "3", "--traces", str(tmp_path / "t"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Rules in 3 matches: 7 of 14 never happened, 1 excused by the game's coverage block" in out
    row = next(line for line in out.splitlines() if line.startswith("action hidden"))
    assert row.split("│")[-1].strip() == "never offered"
    bonus = out[out.index("\nstage bonus"):]
    assert "never run (always skipped) (excused:" in bonus and "switched off for now" in bonus
    assert f"{display_path(folder / 'rules.cards')}:" in out and "action cheat (never offered)" in out
    data = json.loads(run_cli("simulate", str(folder), "-n", "3", "--format", "json").stdout)
    assert data == json.loads(run_cli("simulate", str(folder), "-n", "3", "--json").stdout)
    coverage = data["coverage"]
    assert coverage["matches"] == 3 and coverage["excluded"] == {"stage bonus": "switched off for now"}
    assert set(coverage["never"]) == {"action hidden", "action cheat", 'ability "Bell" "Toll"', "keyword Loud",
                                      "trigger on forgotten", "trigger Loud on scored", "event forgotten"}
    score = next(r for r in coverage["rules"] if r["name"] == "action score")
    line = TINY.splitlines().index('action score "Score" {') + 1
    assert score["offered"] >= score["taken"] > 0 and score["happened"] and score["at"].endswith(f"rules.cards:{line}")
    assert coverage["kinds"]["action"] == {"declared": 3, "never": 2}
    never_only = run_cli("simulate", str(folder), "-n", "2", "--rules", "never").stdout
    assert "action hidden" in never_only and "action score" not in never_only
    assert "Rules in" not in run_cli("simulate", str(folder), "-n", "1", "--rules", "none").stdout
