"""Benchmark: the engine's legal moves against a hand-written generator (Kingdom Combat).

The engine finds a window's legal moves by running every action and activated ability up
to its payment, once per parameter combination, and rolling each run back
(cardsmith/engine/moves.py). benchmarks/kc_oracle.py computes the same moves in plain
Python that knows Kingdom Combat's rules. This prints, from one run on this machine:

  * positions: action windows met in seeded random matches (RandomAgent, a cap on actions
    per match) — "decisions" are the windows an agent is asked about (some move besides
    `pass`); "all windows" adds those that pass by themselves (the engine works out their
    moves all the same, then passes without asking anyone);
  * mismatches: windows where the two move lists differ (as sets, or only in order), each
    printed with the moves only one side offers;
  * engine and oracle µs per position (CPU time, time.process_time) and their ratio — the
    target is engine <= 2x the oracle;
  * Python calls per position for both (cProfile's total_calls, from a separate run), and
    the engine's top 15 functions by own time.

What is timed, exactly: the engine's `_window_actions(window)` — the call the flow makes
when a player receives priority, whose list `legal_actions()` then only hands out — at
the very moment the flow makes it, on the live match (a PlayedMatch subclass wraps the
method). So its per-version memo and caches are exactly as warm as in real play; timing
`legal_actions()` afterwards would only time a list lookup. The oracle runs right beside
it on the same, unchanged state (the engine's probes roll everything back); which of the
two runs first alternates between repetitions. Every match is played N times (it is
deterministic: the same positions each time) and each position keeps its best time of N.

Usage: python benchmarks/bench_legality.py [--matches 8] [--max-actions 400] [--repeat 3]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kc_oracle import legal_moves

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch

GAME = "kingdom_combat"
DECKS = Path(__file__).resolve().parents[1] / "library" / GAME / "decks"

Watch = Callable[[PlayedMatch, Any, Callable[[], Any]], Any]
_watching: list[Watch] = []  # the watch of the matches being played (set by play())


class WatchedMatch(PlayedMatch):
    """A played match that hands every action window's computation to the current watch,
    which must call `compute()` (the engine's own method) and return its list unchanged.
    (Set before the match is made: the constructor already runs the flow.)"""

    def _window_actions(self, window: Any) -> Any:
        return _watching[-1](self, window, lambda: super(WatchedMatch, self)._window_actions(window))


def match_specs(matches: int) -> list[tuple[int, int, list[list[str]] | None]]:
    """(seed, players, decks) of each match: the library's ready decks in turn, two seats,
    every third match three (the free-for-all mode)."""
    game = load(GAME)
    files = sorted(DECKS.glob("*.deck"))
    specs = []
    for seed in range(1, matches + 1):
        players = 3 if seed % 3 == 0 else 2
        chosen = [files[(seed + 2 * i) % len(files)] for i in range(players)]
        specs.append((seed, players, decks_for(game, players, chosen)))
    return specs


def play(specs: list[tuple[int, int, Any]], max_actions: int, watch: Watch) -> None:
    game = load(GAME)
    _watching.append(watch)
    try:
        for seed, players, decks in specs:
            match = WatchedMatch(game, seed=seed, players=players, decks=decks)
            play_out(match, [RandomAgent(seed * 10 + i) for i in range(players)], max_actions=max_actions)
    finally:
        _watching.pop()


def describe_mismatch(engine: list[str], oracle: list[str]) -> str:
    only_e = Counter(engine) - Counter(oracle)
    only_o = Counter(oracle) - Counter(engine)
    if not only_e and not only_o:
        return f"same moves, another order:\n    engine {engine}\n    oracle {oracle}"
    return f"engine only {sorted(only_e.elements())}; oracle only {sorted(only_o.elements())}"


class Timings:
    """Per window (numbered in the order the matches meet them): each side's best time,
    whether an agent was asked, and the mismatches."""

    def __init__(self) -> None:
        self.engine: dict[int, float] = {}
        self.oracle: dict[int, float] = {}
        self.decision: dict[int, bool] = {}
        self.sizes: list[int] = []
        self.mismatches: dict[int, str] = {}
        self.order_only = 0

    def watch(self, first_run: bool, oracle_first: bool) -> Watch:
        clock = time.process_time
        seen = 0

        def watch(match: PlayedMatch, window: Any, compute: Callable[[], Any]) -> Any:
            nonlocal seen
            index = seen
            seen += 1
            stage = window.stage.name
            if oracle_first:
                t0 = clock()
                moves = legal_moves(match, window.player, stage)
                t1 = clock()
                actions = compute()
                t2 = clock()
                oracle_time, engine_time = t1 - t0, t2 - t1
            else:
                t0 = clock()
                actions = compute()
                t1 = clock()
                moves = legal_moves(match, window.player, stage)
                t2 = clock()
                engine_time, oracle_time = t1 - t0, t2 - t1
            self.engine[index] = min(self.engine.get(index, engine_time), engine_time)
            self.oracle[index] = min(self.oracle.get(index, oracle_time), oracle_time)
            if first_run:
                self.record(index, match, window, [a.description for a in actions], [m.description for m in moves])
                self.decision[index] = any(a.payload != "pass" for a in actions)
            elif index >= len(self.sizes) or len(actions) != self.sizes[index]:
                raise RuntimeError("the matches did not repeat: the positions differ between runs")
            return actions

        return watch

    def record(self, index: int, match: PlayedMatch, window: Any, engine: list[str], oracle: list[str]) -> None:
        self.sizes.append(len(engine))
        if engine == oracle:
            return
        if Counter(engine) == Counter(oracle):
            self.order_only += 1
        self.mismatches[index] = (f"  seed {match.seed} window {index} turn {match.turn_number} {window.stage.name} "
                                  f"{window.player.name} (stack {len(match.stack_programs)}): "
                                  + describe_mismatch(engine, oracle))


def timed_runs(specs: list[Any], max_actions: int, repeat: int) -> Timings:
    """Play the matches `repeat` times, timing both sides at every window (which side
    goes first alternates); mismatches are recorded on the first run."""
    timings = Timings()
    for run in range(repeat):
        play(specs, max_actions, timings.watch(run == 0, run % 2 == 1))
        if len(timings.engine) != len(timings.sizes):
            raise RuntimeError("the matches did not repeat: another number of windows")
    return timings


def profiled_run(specs: list[Any], max_actions: int, decision: dict[int, bool]) -> dict[str, cProfile.Profile]:
    """One more run with cProfile on each side, only while that side computes; the
    engine's decisions and its windows that pass by themselves are profiled apart."""
    profiles = {name: cProfile.Profile() for name in ("engine decisions", "engine passing", "oracle decisions",
                                                      "oracle passing")}
    seen = 0

    def watch(match: PlayedMatch, window: Any, compute: Callable[[], Any]) -> Any:
        nonlocal seen
        kind = "decisions" if decision[seen] else "passing"
        seen += 1
        engine, oracle = profiles[f"engine {kind}"], profiles[f"oracle {kind}"]
        engine.enable()
        actions = compute()
        engine.disable()
        oracle.enable()
        legal_moves(match, window.player, window.stage.name)
        oracle.disable()
        return actions

    play(specs, max_actions, watch)
    return profiles


def total_calls(profile: cProfile.Profile) -> int:
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=8, help="seeded matches (seeds 1..N)")
    parser.add_argument("--max-actions", type=int, default=400, help="the cap on applied actions per match")
    parser.add_argument("--repeat", type=int, default=3, help="runs; each position keeps its best time")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile run")
    args = parser.parse_args()

    load(GAME)  # (compiled and cached before anything is timed)
    specs = match_specs(args.matches)
    timings = timed_runs(specs, args.max_actions, args.repeat)
    engine, oracle, decision, mismatches = timings.engine, timings.oracle, timings.decision, timings.mismatches

    print(f"Kingdom Combat legality: {args.matches} seeded random matches, at most {args.max_actions} actions each, "
          f"best of {args.repeat} runs per position (CPU time)")
    if mismatches:
        print(f"MISMATCHES ({len(mismatches)}):")
        for line in list(mismatches.values())[:20]:
            print(line)
    rows = {"decisions": [i for i in engine if decision[i]], "passing": [i for i in engine if not decision[i]]}
    rows["all windows"] = list(engine)
    titles = {"decisions": "decisions (windows asked of an agent)",
              "passing": "windows that pass by themselves (only `pass` legal)",
              "all windows": "all windows"}
    for key, positions in rows.items():
        n = len(positions)
        e_us = sum(engine[i] for i in positions) / n * 1e6 if n else 0.0
        o_us = sum(oracle[i] for i in positions) / n * 1e6 if n else 0.0
        ratio = e_us / o_us if o_us else float("inf")
        print(f"{titles[key]}: positions {n}, mismatches {sum(1 for i in positions if i in mismatches)}")
        print(f"  engine {e_us:9.1f} µs/position   oracle {o_us:7.1f} µs/position   "
              f"ratio engine/oracle {ratio:6.1f}" + ("   (target <= 2)" if key == "decisions" else ""))
    print(f"mismatches: {len(mismatches)} of {len(engine)} windows ({timings.order_only} only in order)")

    if args.no_profile:
        return
    profiles = profiled_run(specs, args.max_actions, decision)
    for key in ("decisions", "passing"):
        n = len(rows[key])
        e_calls, o_calls = total_calls(profiles[f"engine {key}"]), total_calls(profiles[f"oracle {key}"])
        print(f"Python calls per position, {key} (cProfile total_calls): engine {e_calls / max(n, 1):,.0f}, "
              f"oracle {o_calls / max(n, 1):,.0f}, ratio {e_calls / max(o_calls, 1):.1f}")
    out = io.StringIO()
    stats = pstats.Stats(profiles["engine decisions"], stream=out)
    stats.add(profiles["engine passing"])
    stats.sort_stats("tottime").print_stats(15)
    print("Engine legality, top 15 by own time (all windows):")
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip() and "Ordered by" not in line))


if __name__ == "__main__":
    main()
