"""Benchmark: how strong the agents are — the strength table of docs/agents.md.

For each game, an agent (by default the search agent at its default budget) plays N
matches against random and N against greedy, seats alternating (seed s puts it in seat
s % players, so a seat's or a deck's edge does not pass for skill). Prints per game and
opponent: wins, losses, unfinished (draws, the action cap, errors), the win rate with
its Wilson 95% interval (a draw or an unfinished match counts as not won), mean seconds
per decision the agent took, its iterations per decision, and N.

Usage: python benchmarks/bench_strength.py [--games combat_cards,kingdom_cards]
       [--agent search] [--opponents random,greedy] [--matches 20] [--max-actions 3000]
       [--jobs 2] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import make_agent, play_out
from cardsmith.engine.flow import PlayedMatch

GAMES = "combat_cards,kingdom_cards,construct_and_combat,kingdom_combat,two_kingdoms"


@dataclass
class Played:
    won: bool
    lost: bool
    unfinished: bool
    decisions: int
    seconds: float
    iterations: int
    actions: int


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate: honest at small N and near 0% or 100%."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class _Timed:
    """Wraps the measured agent: counts its decisions and the wall-clock time they take."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", "agent")
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, view: object) -> int:
        start = time.perf_counter()
        answer: int = self.agent.choose(view)  # type: ignore[attr-defined]
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return answer


def play(args: tuple[str, str, str, int, int]) -> Played:
    game_id, kind, opponent, seed, max_actions = args
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    seat = seed % players
    agents: list[object] = [make_agent(opponent, seed * 100 + i) for i in range(players)]
    timed = _Timed(make_agent(kind, seed))
    agents[seat] = timed
    match = PlayedMatch(game, seed=seed, players=players, decks=decks_for(game, players, None))
    applied = play_out(match, agents, max_actions=max_actions)
    winners = {p.index for p in match.winners}
    finished = match.over and match.error is None and bool(winners)
    return Played(seat in winners, finished and seat not in winners, not finished, timed.decisions,
                  timed.seconds, getattr(timed.agent, "iterations_run", 0), applied)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--agent", default="search")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    header = (f"{'game':22} {'vs':7} {'N':>4} {'won':>4} {'lost':>4} {'unfin':>5} {'win rate':>8} "
              f"{'Wilson 95%':>13} {'s/decision':>10} {'iter/dec':>8} {'actions':>8}")
    if not args.json:
        print(f"agent {args.agent}, seats alternating, action cap {args.max_actions}")
        print(header, flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game_id in args.games.split(","):
            for opponent in args.opponents.split(","):
                jobs = [(game_id, args.agent, opponent, seed, args.max_actions)
                        for seed in range(args.seed, args.seed + args.matches)]
                results = []
                for job, result in zip(jobs, pool.map(play, jobs), strict=True):
                    results.append(result)  # (progress on stderr: a match against greedy takes minutes)
                    outcome = "won" if result.won else "lost" if result.lost else "no winner"
                    print(f"  {game_id} vs {opponent} seed {job[3]}: {outcome}, {result.decisions} decisions, "
                          f"{result.seconds / max(result.decisions, 1):.2f} s/decision", file=sys.stderr, flush=True)
                n = len(results)
                won = sum(r.won for r in results)
                low, high = wilson(won, n)
                decisions = sum(r.decisions for r in results)
                row = {"game": game_id, "opponent": opponent, "n": n, "won": won,
                       "lost": sum(r.lost for r in results), "unfinished": sum(r.unfinished for r in results),
                       "win_rate": won / n, "wilson_low": low, "wilson_high": high,
                       "seconds_per_decision": sum(r.seconds for r in results) / max(decisions, 1),
                       "iterations_per_decision": sum(r.iterations for r in results) / max(decisions, 1),
                       "mean_actions": sum(r.actions for r in results) / n,
                       "matches": [asdict(r) for r in results]}
                rows.append(row)
                if not args.json:
                    print(f"{game_id:22} {opponent:7} {n:4} {won:4} {row['lost']:4} {row['unfinished']:5} "
                          f"{row['win_rate']:8.0%} {f'{low:.0%}-{high:.0%}':>13} "
                          f"{row['seconds_per_decision']:10.3f} {row['iterations_per_decision']:8.1f} "
                          f"{row['mean_actions']:8.0f}", flush=True)
    if args.json:
        print(json.dumps({"agent": args.agent, "max_actions": args.max_actions, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
