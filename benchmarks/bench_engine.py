"""Benchmark: the engine's speed against hand-written Python card-game engines.

Prints, from one run on this machine, applied actions per second and matches per second
for cardsmith games played by random agents, side by side with RLCard's UNO and Gin
Rummy (hand-written pure-Python engines, random agents), and the ratio of cardsmith's
actions per second to UNO's (the issue's target: >= 1). RLCard counts a "step" per
agent decision, the same unit as one applied cardsmith action. A cardsmith action is
timed whole: finding the legal moves (each probed by running the compiled rule up to
its payment, then rolled back), the agent's pick, and the rules it sets off. Games with
decks play the library's ready decks, as `cardsmith play` deals them.

Usage: python benchmarks/bench_engine.py [--matches 50] [--games combat_cards,...]
(needs `pip install rlcard` for the baseline; without it only cardsmith's figures print)
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.util.gcpause import paused_gc


def bench_cardsmith(game_id: str, matches: int) -> tuple[float, float, int]:
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)  # the library's ready decks, as `cardsmith play` deals them
    actions = 0
    start = time.perf_counter()
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        actions += play_out(match, [RandomAgent(seed * 10 + i) for i in range(players)], max_actions=20_000)
    elapsed = time.perf_counter() - start
    return actions / elapsed, matches / elapsed, actions


def time_split(game_id: str, matches: int) -> tuple[float, float]:
    """Where a cardsmith action's time goes, from a second, separately timed run of the
    same matches: (share finding the legal moves, share applying the chosen one). The
    agent's pick is the rest. For whoever works on speed next: which half to look at."""
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)
    legal = applying = 0.0
    start = time.perf_counter()
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        for _ in range(20_000):
            if match.is_over:
                break
            t0 = time.perf_counter()
            actions = match.legal_actions()
            t1 = time.perf_counter()
            if not actions:
                break
            chosen = agents[actions[0].player % players].choose(match, actions)
            t2 = time.perf_counter()
            match.apply(chosen)
            applying += time.perf_counter() - t2
            legal += t1 - t0
    total = time.perf_counter() - start
    return legal / total, applying / total


def cardsmith_work(game_id: str, matches: int) -> dict[str, float]:
    """What one cardsmith action does, counted rather than timed (so it does not move
    with the machine's load): Python function calls (as cProfile counts them, the same
    count as rlcard_calls_per_step), the match log's entries and events, and the
    legality probes (a run of an action up to its payment, rolled back)."""
    import cProfile
    import pstats

    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    decks = decks_for(game, players, None)
    actions = entries = events = 0
    profile = cProfile.Profile()
    for seed in range(1, matches + 1):
        match = PlayedMatch(game, seed=seed, players=players, decks=decks)
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        profile.enable()
        actions += play_out(match, agents, max_actions=20_000)
        profile.disable()
        entries += len(match.log)
        events += sum(1 for entry in match.log if entry.get("event") == "emit")
    stats = pstats.Stats(profile)
    probes = sum(counts[0] for where, counts in stats.stats.items()  # type: ignore[attr-defined]
                 if where[2] == "_try" and where[0].endswith("moves.py"))
    per = max(actions, 1)
    return {"calls": stats.total_calls / per, "log": entries / per, "events": events / per,  # type: ignore[attr-defined]
            "probes": probes / per}


def rlcard_calls_per_step(env_name: str, matches: int) -> float | None:
    """Python function calls per RLCard step, counted as cardsmith_work counts them."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    played = _run_rlcard(env_name, matches, profile)
    if played is None:
        return None
    return float(pstats.Stats(profile).total_calls) / max(played[0], 1)  # type: ignore[attr-defined]


def bench_rlcard(env_name: str, matches: int) -> tuple[float, float, int] | None:
    played = _run_rlcard(env_name, matches)
    if played is None:
        return None
    steps, elapsed = played
    return steps / elapsed, matches / elapsed, steps


def _run_rlcard(env_name: str, matches: int, profile: Any = None) -> tuple[int, float] | None:
    """(steps, seconds) of `matches` RLCard matches with random agents at every seat,
    profiled only while the matches run when a profile is given (None without rlcard)."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent as RLRandom
    except ImportError:
        return None
    env = rlcard.make(env_name, config={"seed": 1})
    env.set_agents([RLRandom(num_actions=env.num_actions) for _ in range(env.num_players)])
    steps = 0
    start = time.perf_counter()
    for _ in range(matches):
        if profile is not None:
            profile.enable()
        trajectories, _payoffs = env.run(is_training=False)
        if profile is not None:
            profile.disable()
        steps += sum(len(t) // 2 for t in trajectories)
    return steps, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--games", default="combat_cards,kingdom_combat,kingdom_cards")
    args = parser.parse_args()
    rows = []
    for game_id in args.games.split(","):
        load(game_id)  # compile outside the timing
        with paused_gc():
            rows.append((f"cardsmith {game_id}", *bench_cardsmith(game_id, args.matches)))
    baselines = {}
    for env_name in ("uno", "gin-rummy"):
        with paused_gc():  # timed as cardsmith is: the cyclic GC paused on both sides
            got = bench_rlcard(env_name, args.matches)
        if got is not None:
            baselines[env_name] = got[0]
            rows.append((f"RLCard {env_name}", *got))
    print(f"{'engine':34} {'actions/s':>12} {'matches/s':>10} {'actions':>9}")
    for name, aps, mps, total in rows:
        print(f"{name:34} {aps:12,.0f} {mps:10.2f} {total:9,}")
    print("\nwhere a cardsmith action's time goes (a second run of the same matches):")
    for game_id in args.games.split(","):
        with paused_gc():
            legal, applying = time_split(game_id, min(args.matches, 10))
        print(f"  {game_id:32} legal moves {legal:6.1%}   applying {applying:6.1%}")
    print("\nwhat one action does, counted (not timed) over a few matches:")
    for game_id in args.games.split(","):
        work = cardsmith_work(game_id, min(args.matches, 5))
        print(f"  cardsmith {game_id:22} {work['calls']:7,.0f} Python calls   {work['log']:5.1f} log entries   "
              f"{work['events']:5.1f} events   {work['probes']:5.1f} legality probes")
    for env_name in ("uno", "gin-rummy"):
        calls = rlcard_calls_per_step(env_name, min(args.matches, 20))
        if calls is not None:
            print(f"  RLCard {env_name:25} {calls:7,.0f} Python calls")
    if "uno" in baselines:
        for name, aps, _mps, _total in rows:
            if name.startswith("cardsmith"):
                print(f"{name} / RLCard uno actions per second: {aps / baselines['uno']:.3f}   (target >= 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
