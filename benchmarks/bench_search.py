"""Benchmark: how fast the search agent gets its worlds, game by game.

The search agent (engine/search.py) spends its budget on worlds (SeatView.world_value):
a copy of the match its seat cannot tell from the real one, an option played in it, a
short rollout. Every gain of the engine is more worlds per decision — a stronger agent at
the same budget. For each game this walks a seeded random match and, at the first
`--decisions` decisions with two or more options past move `--skip`, lets a search of
`--worlds` worlds decide; it prints the mean milliseconds per world and per decision,
and the match's length then (a world is a forked process past a simultaneous decision's
close, a replica replayed from the seed otherwise: see SeatView.world_value).

For the agents' strength (win rates with intervals) see benchmarks/bench_strength.py.

Usage: python benchmarks/bench_search.py [--games combat_cards,kingdom_combat]
       [--skip 200] [--decisions 10] [--worlds 20]
"""

from __future__ import annotations

import argparse
import time

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.search import SearchAgent

GAMES = "combat_cards,kingdom_cards,construct_and_combat,kingdom_combat,two_kingdoms"


def speed(game_id: str, skip: int, decisions: int, worlds: int) -> tuple[float, float, int]:
    """(ms per world, ms per decision, moves played when measuring ended)."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    match = PlayedMatch(game, seed=7, players=players, decks=decks_for(game, players, None))
    walker = RandomAgent(7)
    search = SearchAgent(seed=3, iterations=worlds, milliseconds=None)
    seconds = 0.0
    made = 0
    while made < decisions and not match.is_over:
        actions = match.legal_actions()
        if not actions:
            break
        if len(actions) > 1 and len(match.moves) >= skip:
            start = time.perf_counter()
            ask(search, match, actions)
            seconds += time.perf_counter() - start
            made += 1
        match.apply(ask(walker, match, actions))
    return 1000 * seconds / max(search.iterations_run, 1), 1000 * seconds / max(made, 1), len(match.moves)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--skip", type=int, default=200, help="moves of random play before measuring")
    parser.add_argument("--decisions", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':24} {'ms/world':>9} {'ms/decision':>12} {'at move':>8}")
    for game_id in args.games.split(","):
        load(game_id)  # compile outside the timing
        per_world, per_decision, moves = speed(game_id, args.skip, args.decisions, args.worlds)
        print(f"{game_id:24} {per_world:9.1f} {per_decision:12.1f} {moves:8}", flush=True)
    print(f"(searches of {args.worlds} worlds, wall-clock, after {args.skip} moves of random play)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
