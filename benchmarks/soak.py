"""The full soak: many seeded random-vs-random matches per game, invariants after every action.

tests/test_soak.py runs a bounded number of these in every CI run (and 1,000 per game with
`pytest --runslow`, in one process); this script runs the full count in parallel worker
processes and prints, per game, how many matches ended by the rules, the problems found
(each names its seed, so `cardsmith play GAME --seed N` replays it), and the pace.

Usage: python benchmarks/soak.py [--matches 1000] [--jobs 2] [--games combat_cards,...]
Exit status 1 when any match broke an invariant, raised an error or did not end.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.movekinds import KINDS, MoveCounter
from cardsmith.engine.moves import MAX_COMBINATIONS
from cardsmith.engine.simulate import save_trace

GAMES = "kingdom_combat,combat_cards,kingdom_cards,construct_and_combat,two_kingdoms"


TRACES = Path("soak-traces")


def one_match(game_id: str, seed: int) -> tuple[int, int, str | None, str, dict[str, int]]:
    """(seed, actions, problem or None, how it ended, the kinds of moves made) — the same
    seeds as tests/test_soak.py. A failing match's log is saved under soak-traces/ for
    `cardsmith replay`."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    match = PlayedMatch(game, seed=seed, players=players, decks=decks_for(game, players, None))
    counter = MoveCounter()
    actions = play_out(match, [RandomAgent(seed * 7 + i) for i in range(players)], max_actions=20_000,
                       check_invariants=True, on_move=counter)
    counter.finish(match)
    problem = None
    if match.offers_cut:
        cut = ", ".join(f"{name} ({times}x)" for name, times in sorted(match.offers_cut.items()))
        problem = f"seed {seed}: more than {MAX_COMBINATIONS} ways to take {cut}: the rest were never offered"
    if match.error is not None and not match.out_of_turns:
        problem = f"seed {seed}: {match.error}"
    elif match.over and not (match.winners or match.drawn or game.ir.scoring is not None):
        problem = f"seed {seed}: ended without a result"
    if problem is not None:
        save_trace(match, actions, TRACES)
    # a match that reaches the action cap or the turn limit without breaking anything is
    # unfinished (random play in a long game), not a problem: the soak is about invariants
    # and rules errors
    ending = "draw" if match.drawn else ("win" if match.winners else "other")
    if not match.over or match.out_of_turns:
        ending = "unfinished"
    return seed, actions, problem, ending, counter.as_dict()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", default=GAMES)
    args = parser.parse_args()
    failed = False
    print(f"{'game':24} {'matches':>8} {'wins':>6} {'draws':>6} {'unended':>8} {'problems':>9} {'actions':>10} "
          f"{'actions/s':>10} {'seconds':>8}", flush=True)
    for game_id in args.games.split(","):
        load(game_id)  # compile once before the workers start
        start = time.perf_counter()
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(one_match, [game_id] * args.matches, range(1, args.matches + 1),
                                    chunksize=4))
        elapsed = time.perf_counter() - start
        problems = [p for _s, _a, p, _e, _k in results if p is not None]
        actions = sum(a for _s, a, _p, _e, _k in results)
        wins = sum(1 for r in results if r[3] == "win")
        draws = sum(1 for r in results if r[3] == "draw")
        unfinished = sum(1 for r in results if r[3] == "unfinished")
        print(f"{game_id:24} {len(results):8} {wins:6} {draws:6} {unfinished:8} {len(problems):9} {actions:10,} "
              f"{actions / elapsed:10,.0f} {elapsed:8.1f}", flush=True)
        kinds = {kind: sum(r[4][kind] for r in results) for kind in KINDS}
        print("  moves: " + ", ".join(f"{kind} {count:,}" for kind, count in kinds.items()), flush=True)
        for problem in problems[:20]:
            print(f"  {problem}", flush=True)
        failed = failed or bool(problems)
    print(f"actions/s: all the actions over the wall time, {args.jobs} worker(s), invariants checked after each")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
