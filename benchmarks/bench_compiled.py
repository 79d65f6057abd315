"""Benchmark: the engine with its runtime compiled by mypyc against the pure-Python engine.

The generated rules call a few runtime modules more than anything else: value semantics
(model/values.py), the table's objects (model/state.py), the helpers every compiled
expression calls (engine/runtime.py) and the queries (engine/queries.py). This builds a
copy of the project in a temporary folder with those four modules compiled by mypyc
(`python -m mypyc`, needs a C compiler and Python's headers), then, from one run on this
machine:

  * checks that the compiled engine plays the same matches: the SHA-256 of the seeded
    logs of tests/test_seeded_logs.py (random agents, 5 games x 2 seeds) from both engines
    must be equal to each other and to the record — any difference stops the benchmark;
  * prints actions per second of both engines and their ratio, per library game (random
    agents, the library's ready decks) and for UNO (benchmarks/games/uno), CPU time of a
    child process (time.process_time), best of --repeats runs, the two engines interleaved.

The pure-Python engine stays the default: `pip install` builds nothing, so the README's
commands need no compiler. Nothing here is a timed assertion; the figures are printed.

Usage: python benchmarks/bench_compiled.py [--repeats 3] [--matches 3] [--max-actions 2000]
       [--keep DIR]   (build into DIR and leave it there, e.g. to run the suite against it)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ("cardsmith/model/values.py", "cardsmith/model/state.py",
            "cardsmith/engine/runtime.py", "cardsmith/engine/queries.py")
GAMES = ("combat_cards", "kingdom_cards", "construct_and_combat", "kingdom_combat", "two_kingdoms")

# Run in a child process with PYTHONPATH set to one engine: prints one JSON line.
_MEASURE = r'''
import json, sys, time
from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.util.gcpause import paused_gc
target, matches, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = load(target)
players = max(2, game.ir.game.players_min)
decks = decks_for(game, players, None)
actions = 0
with paused_gc():
    start = time.process_time()
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        actions += play_out(match, [RandomAgent(seed * 10 + i) for i in range(players)], max_actions=cap)
    seconds = time.process_time() - start
import cardsmith.engine.runtime as runtime
print(json.dumps({"actions": actions, "seconds": seconds, "compiled": not runtime.__file__.endswith(".py")}))
'''

_DIGESTS = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from test_seeded_logs import RUNS, digest, key
games = sys.argv[2].split(",")
print(json.dumps({key(g, kind, seed, most): digest(g, kind, seed, most)
                  for g in games for kind, seed, most in RUNS if kind == "random"}))
'''


def build(folder: Path) -> None:
    """A copy of the project's package and games in `folder`, the COMPILED modules built
    in place by mypyc (the rest stays Python)."""
    for part in ("cardsmith", "library", "benchmarks/games"):
        shutil.copytree(ROOT / part, folder / part, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    done = subprocess.run([sys.executable, "-m", "mypyc", *COMPILED], cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed (a C compiler and Python's headers are needed):\n{done.stdout[-3000:]}"
                         f"{done.stderr[-3000:]}")


def run_child(code: str, path: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=tempfile.gettempdir(), env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"a measurement failed:\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def same_logs(compiled: Path) -> int:
    """The seeded-log digests of both engines, compared with each other and the record;
    the number of logs compared."""
    record = json.loads((ROOT / "tests" / "reference" / "seeded_logs.json").read_text())
    tests = str(ROOT / "tests")
    pure = json.loads(run_child(_DIGESTS, ROOT, tests, ",".join(GAMES)))
    built = json.loads(run_child(_DIGESTS, compiled, tests, ",".join(GAMES)))
    for name, value in pure.items():
        if built[name] != value or record[name] != value:
            raise SystemExit(f"the compiled engine plays {name} differently: stopped")
    return len(pure)


def best_rate(target: str, path: Path, matches: int, cap: int) -> tuple[float, bool]:
    found = json.loads(run_child(_MEASURE, path, target, str(matches), str(cap)))
    return found["actions"] / max(found["seconds"], 1e-9), found["compiled"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--matches", type=int, default=3, help="seeded matches per game")
    parser.add_argument("--max-actions", type=int, default=2000, help="the cap on actions per match")
    parser.add_argument("--uno-matches", type=int, default=300)
    parser.add_argument("--keep", type=Path, default=None, help="build here and keep the build")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="cardsmith-compiled-"))
    try:
        print(f"building {', '.join(COMPILED)} with mypyc in {folder} ...", flush=True)
        build(folder)
        print(f"same seeded logs: {same_logs(folder)} of the record's random-agent logs, byte for byte", flush=True)
        uno = str(ROOT / "benchmarks" / "games" / "uno")
        targets = [(g, g, args.matches) for g in GAMES] + [("uno", uno, args.uno_matches)]
        print(f"{'game':22} {'pure actions/s':>15} {'compiled':>10} {'ratio':>7}")
        for label, target, matches in targets:
            pure = compiled = 0.0
            for _ in range(args.repeats):  # interleaved, best of N each
                pure = max(pure, best_rate(target, ROOT, matches, args.max_actions)[0])
                rate, really = best_rate(target, folder, matches, args.max_actions)
                if not really:
                    raise SystemExit("the build's runtime is not the compiled one: stopped")
                compiled = max(compiled, rate)
            print(f"{label:22} {pure:15,.0f} {compiled:10,.0f} {compiled / pure:6.2f}x", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
