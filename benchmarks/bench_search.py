"""Benchmark: the search agent's speed and its strength at a fixed time budget.

The search agent (engine/search.py) spends its budget playing sampled worlds forward, so
every gain of the engine is more iterations per decision — a stronger agent at the same
budget. Prints, from one run on this machine:

* speed: simulated actions per CPU second inside the search's decisions (every action
  applied in a sampled world counts), and iterations per decision at a fixed count;
* strength: the search agent with a fixed wall-clock budget per decision against the
  random agent, seats alternating: its win rate and mean iterations per decision.

Run it on two checkouts to compare before and after (PYTHONPATH=/path/to/other/checkout).

Usage: python benchmarks/bench_search.py [--games combat_cards,construct_and_combat]
       [--matches 8] [--ms 40] [--decisions 30]
"""

from __future__ import annotations

import argparse
import time

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, ask, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.search import SearchAgent
from cardsmith.util.gcpause import paused_gc

_applied = {"sampled": 0}
_real_apply = PlayedMatch.apply


def _counting_apply(self: PlayedMatch, action: object) -> None:
    if getattr(self, "sampled", False):
        _applied["sampled"] += 1
    _real_apply(self, action)  # type: ignore[arg-type]


PlayedMatch.apply = _counting_apply  # type: ignore[method-assign]


def speed(game_id: str, decisions: int, iterations: int) -> tuple[float, float]:
    """(simulated actions per CPU second, CPU ms per decision) over the first `decisions`
    decisions of a seeded random match, each decided by a search of `iterations`."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    match = PlayedMatch(game, seed=7, players=players, decks=decks_for(game, players, None))
    walker = RandomAgent(7)
    search = SearchAgent(seed=3, iterations=iterations)
    _applied["sampled"] = 0
    cpu = 0.0
    made = 0
    while made < decisions and not match.is_over:
        actions = match.legal_actions()
        if not actions:
            break
        if len(actions) > 1:
            start = time.process_time()
            ask(search, match, actions)
            cpu += time.process_time() - start
            made += 1
        match.apply(ask(walker, match, actions))
    return _applied["sampled"] / max(cpu, 1e-9), 1000 * cpu / max(made, 1)


def strength(game_id: str, matches: int, milliseconds: float) -> tuple[float, float]:
    """(search's share of wins against random, iterations per decision) with a budget of
    `milliseconds` per decision; a draw counts half."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)
    score = 0.0
    iterations = decisions = 0
    original = SearchAgent._iterate

    def counted(self: SearchAgent, *args: object) -> None:
        nonlocal iterations
        iterations += 1
        original(self, *args)  # type: ignore[arg-type]

    SearchAgent._iterate = counted  # type: ignore[method-assign]
    original_choose = SearchAgent.choose

    def choose(self: SearchAgent, view: object) -> int:
        nonlocal decisions
        decisions += 1
        return original_choose(self, view)  # type: ignore[arg-type]

    SearchAgent.choose = choose  # type: ignore[method-assign]
    try:
        for seed in range(1, matches + 1):
            seat = seed % players
            agents: list[object] = [RandomAgent(seed * 10 + i) for i in range(players)]
            agents[seat] = SearchAgent(seed=seed, iterations=10**6, milliseconds=milliseconds)
            match = PlayedMatch(game, seed=seed, players=players, decks=decks)
            play_out(match, agents, max_actions=2_000)
            winners = {p.index for p in match.winners}
            if seat in winners:
                score += 1.0 / len(winners)
            elif not winners:
                score += 0.5
    finally:
        SearchAgent._iterate = original  # type: ignore[method-assign]
        SearchAgent.choose = original_choose  # type: ignore[method-assign]
    return score / matches, iterations / max(decisions, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="combat_cards,construct_and_combat")
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--ms", type=float, default=150.0, help="search budget per decision (wall-clock ms)")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':24} {'sim actions/s':>14} {'ms/decision':>12} {'win rate vs random':>19} "
          f"{'iterations/decision':>20}")
    for game_id in args.games.split(","):
        load(game_id)  # compile outside the timing
        with paused_gc():
            rate, per_decision = speed(game_id, args.decisions, args.iterations)
        wins, iterations = strength(game_id, args.matches, args.ms)
        print(f"{game_id:24} {rate:14,.0f} {per_decision:12.1f} {wins:19.2f} {iterations:20.1f}")
    print(f"(speed: searches of {args.iterations} iterations; strength: {args.ms:g} ms per decision, "
          f"{args.matches} matches, seats alternating)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
