"""Benchmark: the engine's speed against a hand-written Python card-game engine.

The head-to-head is UNO on both sides: cardsmith plays `benchmarks/games/uno` (RLCard's
reading of the UNO rules, written in the cardsmith language) and RLCard 1.2.0 plays its
own pure-Python UNO, random agents at every seat on both sides. It prints actions per
second, matches per second and mean actions per match for each, and the ratio cardsmith
UNO / RLCard UNO (the issue's target: >= 0.5, stretch >= 1). Mean match lengths are
printed so a reader sees that both sides play the same game: RLCard counts a step per
agent decision (a card played, or a draw), the same unit as one applied cardsmith action.

Then, for the library games: actions per second and matches per second (random agents,
the library's ready decks, as `cardsmith play` deals them), where a cardsmith action's
time goes (finding legal moves / applying / the agent's pick), and what one action does,
counted rather than timed (Python calls, log entries, legality probes).

Timing is CPU time (time.process_time), with the cyclic GC paused on both sides; the
fast rows are the best of --repeats runs of the same seeded matches (RLCard is seeded
too: its game RNG by config, its random agents through numpy's global RNG), so a run
is reproducible up to the machine's noise.

Usage: python benchmarks/bench_engine.py [--quick] [--uno-matches 1000] [--repeats 3]
       [--games combat_cards,...] [--matches N] [--max-actions 20000]
(needs `pip install rlcard` for the baseline; without it only cardsmith's figures print)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, ask, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.util.gcpause import paused_gc

UNO = str(Path(__file__).resolve().parent / "games" / "uno")
GAMES = ("combat_cards", "kingdom_cards", "construct_and_combat", "kingdom_combat", "two_kingdoms")
# matches per library game by default: random kingdom_combat and two_kingdoms matches
# mostly run to the 20,000-action cap (tens of seconds each), the others end quickly
DEFAULT_MATCHES = {"combat_cards": 200, "kingdom_cards": 20, "construct_and_combat": 50,
                   "kingdom_combat": 1, "two_kingdoms": 2}
CAP = 20_000


class Played:
    """One timed run: actions applied, matches played, CPU seconds (the best run's)."""

    def __init__(self, actions: int, matches: int, seconds: float) -> None:
        self.actions, self.matches, self.seconds = actions, matches, max(seconds, 1e-9)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def matches_per_s(self) -> float:
        return self.matches / self.seconds

    @property
    def mean_length(self) -> float:
        return self.actions / max(self.matches, 1)


def _setup(target: str) -> tuple[Any, int, Any]:
    game = load(target)  # compiled (and cached) outside the timing
    players = max(2, game.ir.game.players_min)
    return game, players, decks_for(game, players, None)


def bench_cardsmith(target: str, matches: int, repeats: int = 1, max_actions: int = CAP) -> Played:
    """`matches` seeded matches of random agents, best CPU time of `repeats` runs (the
    same matches each time). The whole action is timed: finding the legal moves (each
    probed by running the compiled rule up to its payment, rolled back), the agent's
    pick through its seat's view, and the rules the move sets off."""
    game, players, decks = _setup(target)
    best: Played | None = None
    for _ in range(repeats):
        actions = 0
        with paused_gc():
            start = time.process_time()
            for seed in range(1, matches + 1):
                match = PlayedMatch(game, seed=seed, players=players, decks=decks)
                actions += play_out(match, [RandomAgent(seed * 10 + i) for i in range(players)],
                                    max_actions=max_actions)
            run = Played(actions, matches, time.process_time() - start)
        if best is None or run.seconds < best.seconds:
            best = run
    assert best is not None
    return best


def bench_rlcard(env_name: str, matches: int, repeats: int = 1, seed: int = 1) -> Played | None:
    """`matches` RLCard matches with its random agents at every seat, best CPU time of
    `repeats` runs; each run reseeds the game (config seed) and the agents (numpy's global
    RNG, which rlcard's RandomAgent draws from), so every run plays the same matches."""
    best: Played | None = None
    for _ in range(repeats):
        played = _run_rlcard(env_name, matches, seed=seed)
        if played is None:
            return None
        if best is None or played.seconds < best.seconds:
            best = played
    return best


def _run_rlcard(env_name: str, matches: int, profile: Any = None, seed: int = 1) -> Played | None:
    """Seeded RLCard matches, profiled only while they run when a profile is given
    (None without rlcard)."""
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent as RLRandom
    except ImportError:
        return None
    env = rlcard.make(env_name, config={"seed": seed})
    env.set_agents([RLRandom(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(seed)
    steps = 0
    with paused_gc():  # timed as cardsmith is: the cyclic GC paused on both sides
        start = time.process_time()
        for _ in range(matches):
            if profile is not None:
                profile.enable()
            trajectories, _payoffs = env.run(is_training=False)
            if profile is not None:
                profile.disable()
            # a player's trajectory is state, action, state, ..., final state
            steps += sum(len(t) // 2 for t in trajectories)
        seconds = time.process_time() - start
    return Played(steps, matches, seconds)


def time_split(target: str, matches: int, max_actions: int = CAP) -> tuple[float, float]:
    """Where a cardsmith action's time goes, from a separately timed run of the same
    matches: (share finding the legal moves, share applying the chosen one). The agent's
    pick (through its seat's view) is the rest. For whoever works on speed next: which
    half to look at.

    `apply` runs the flow on to the next decision, and that is where the next position's
    legal moves are found (the window's `_window_actions`; `legal_actions()` then mostly
    hands them over). So that time is counted as finding legal moves, wherever it is
    spent: the method is wrapped with a clock for this run only (the class is restored
    after), and "applying" is the rest of `apply`."""
    game, players, decks = _setup(target)
    clock = time.process_time
    inherited = "_window_actions" not in PlayedMatch.__dict__
    original = PlayedMatch._window_actions
    finding = [0.0]

    def timed(self: PlayedMatch, window: Any) -> Any:
        t = clock()
        try:
            return original(self, window)
        finally:
            finding[0] += clock() - t

    legal = applying = 0.0
    PlayedMatch._window_actions = timed  # type: ignore[method-assign]
    try:
        with paused_gc():
            start = clock()
            for seed in range(1, matches + 1):
                match = PlayedMatch(game, seed=seed, players=players, decks=decks)
                agents = [RandomAgent(seed * 10 + i) for i in range(players)]
                for _ in range(max_actions):
                    if match.is_over:
                        break
                    t0 = clock()
                    actions = match.legal_actions()
                    t1 = clock()
                    if not actions:
                        break
                    chosen = ask(agents[actions[0].player % players], match, actions)
                    inside = finding[0]
                    t2 = clock()
                    match.apply(chosen)
                    t3 = clock()
                    legal += (t1 - t0) + (finding[0] - inside)
                    applying += (t3 - t2) - (finding[0] - inside)
            total = max(clock() - start, 1e-9)
    finally:
        if inherited:
            del PlayedMatch._window_actions
        else:
            PlayedMatch._window_actions = original  # type: ignore[method-assign]
    return legal / total, applying / total


def cardsmith_work(target: str, matches: int, max_actions: int = CAP) -> dict[str, float]:
    """What one cardsmith action does, counted rather than timed (so it does not move
    with the machine's load): Python function calls (as cProfile counts them, the same
    count as rlcard_calls_per_step), the match log's entries and events, and the
    legality questions (an action asked which of its parameter combinations are legal) and
    the probes among their answers (a run of an action up to its payment, rolled back; a
    question the action's compiled legality predicate answers runs none)."""
    import cProfile
    import pstats

    game, players, decks = _setup(target)
    actions = entries = events = 0
    profile = cProfile.Profile()
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        profile.enable()
        actions += play_out(match, agents, max_actions=max_actions)
        profile.disable()
        entries += len(match.log)
        events += sum(1 for entry in match.log if entry.get("event") == "emit")
    stats = pstats.Stats(profile)
    def calls_of(function: str) -> int:
        return sum(counts[0] for where, counts in stats.stats.items()  # type: ignore[attr-defined]
                   if where[2] == function and where[0].endswith("moves.py"))

    probes = calls_of("_try")      # a rule run up to its payment and rolled back
    questions = calls_of("_probe")  # "which combinations of this action are legal?"
    per = max(actions, 1)
    return {"calls": stats.total_calls / per, "log": entries / per, "events": events / per,  # type: ignore[attr-defined]
            "probes": probes / per, "questions": questions / per}


def rlcard_calls_per_step(env_name: str, matches: int) -> float | None:
    """Python function calls per RLCard step, counted as cardsmith_work counts them."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    played = _run_rlcard(env_name, matches, profile)
    if played is None:
        return None
    return float(pstats.Stats(profile).total_calls) / max(played.actions, 1)  # type: ignore[attr-defined]


def _row(name: str, run: Played) -> str:
    return (f"{name:34} {run.actions_per_s:12,.0f} {run.matches_per_s:10.2f} {run.actions:9,} "
            f"{run.mean_length:9.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run (< 60 s): fewer UNO matches, one run, library matches cut short")
    parser.add_argument("--uno-matches", type=int, default=None, help="UNO matches a side (default 1000; quick 200)")
    parser.add_argument("--repeats", type=int, default=None, help="UNO runs a side, best kept (default 3; quick 1)")
    parser.add_argument("--games", default=",".join(GAMES), help="library games ('' for none)")
    parser.add_argument("--matches", type=int, default=None,
                        help="matches per library game (default: per game, few for the long ones; quick 1)")
    parser.add_argument("--max-actions", type=int, default=None,
                        help=f"actions per library match before it is cut (default {CAP:,}; quick 1,000)")
    args = parser.parse_args()
    quick = args.quick
    uno_matches = args.uno_matches or (200 if quick else 1000)
    repeats = args.repeats or (1 if quick else 3)
    cap = args.max_actions or (1_000 if quick else CAP)
    games = [g for g in args.games.split(",") if g]

    def matches_for(game_id: str) -> int:
        return args.matches or (1 if quick else DEFAULT_MATCHES.get(game_id, 20))

    print(f"UNO, random agents both sides, {uno_matches} matches a side, best of {repeats} (CPU time, GC paused)")
    print(f"{'engine':34} {'actions/s':>12} {'matches/s':>10} {'actions':>9} {'mean len':>9}")
    uno = bench_cardsmith(UNO, uno_matches, repeats)
    print(_row("cardsmith uno", uno))
    rl_uno = bench_rlcard("uno", uno_matches, repeats)
    if rl_uno is not None:
        print(_row("RLCard uno", rl_uno))
        print(f"cardsmith uno / RLCard uno: actions/s {uno.actions_per_s / rl_uno.actions_per_s:.3f}   "
              f"matches/s {uno.matches_per_s / rl_uno.matches_per_s:.3f}   (target >= 0.5, stretch >= 1)")
        print(f"mean actions per match: cardsmith {uno.mean_length:.1f}, RLCard {rl_uno.mean_length:.1f}")
    else:
        print("RLCard is not installed: no baseline (pip install rlcard)")

    if games:
        print(f"\nlibrary games, random agents (matches cut at {cap:,} actions):")
        print(f"{'engine':34} {'actions/s':>12} {'matches/s':>10} {'actions':>9} {'mean len':>9}")
        for game_id in games:
            print(_row(f"cardsmith {game_id} x{matches_for(game_id)}",
                       bench_cardsmith(game_id, matches_for(game_id), 1, cap)))

    split_cap = min(cap, 300 if quick else 2_000)
    print(f"\nwhere a cardsmith action's time goes (a second run; matches cut at {split_cap:,} actions):")
    for target, name in [(UNO, "uno"), *((g, g) for g in games)]:
        count = (10 if quick else 50) if target == UNO else min(matches_for(name), 5)
        legal, applying = time_split(target, count, split_cap)
        print(f"  {name:32} legal moves {legal:6.1%}   applying {applying:6.1%}   "
              f"agent's pick {1 - legal - applying:6.1%}")

    work_cap = min(cap, 200 if quick else 1_000)
    print(f"\nwhat one action does, counted (not timed) over a few matches (cut at {work_cap:,} actions):")
    for target, name in [(UNO, "uno"), *((g, g) for g in games)]:
        work = cardsmith_work(target, 20 if target == UNO else min(matches_for(name), 1 if quick else 3), work_cap)
        print(f"  cardsmith {name:22} {work['calls']:7,.0f} Python calls   {work['log']:5.1f} log entries   "
              f"{work['events']:5.1f} events   {work['questions']:5.1f} legality questions   "
              f"{work['probes']:5.1f} probes")
    calls = rlcard_calls_per_step("uno", 20)
    if calls is not None:
        print(f"  RLCard {'uno':25} {calls:7,.0f} Python calls")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
