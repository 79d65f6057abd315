"""Many matches between agents, and what they say about the game's balance and rules.

Each match is seeded (base seed + index), so a simulation is reproducible and any odd
match can be replayed alone. Matches run in parallel worker processes with --jobs.
Every match is tallied for the dead-rule report (engine/coverage.py): which actions,
abilities, keywords, triggers, events and stages never happened. The tally does not
touch the log, so a simulated match is the same match `cardsmith play --seed` plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.engine.agents import make_agent, play_out
from cardsmith.engine.coverage import Counts, CoverageReport, Tally, index_for
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import load
from cardsmith.engine.replay import log_lines
from cardsmith.engine.setup import default_players
from cardsmith.util.atomic import write_text_atomic

# the most actions a simulated match takes; one still going then is reported unfinished
MAX_ACTIONS = 20_000


@dataclass
class MatchSummary:
    seed: int
    winners: list[int]
    drawn: bool
    turns: int
    actions: int
    error: str | None
    played: list[tuple[int, str]] = field(default_factory=list)
    trace: str | None = None  # the saved log of a failing match
    out_of_turns: bool = False  # stopped at the game's turn_limit (error says so too)
    over: bool = True  # False: stopped at the action cap, still going
    coverage: Counts = field(default_factory=Counter)  # (rule, measure) -> count (engine/coverage.py)


def play_one(target: str, seed: int, players: int | None, mode: str | None, max_actions: int,
             agents: tuple[str, ...] = ("random",), decks: list[list[str]] | None = None,
             traces: str | None = None) -> MatchSummary:
    game = load(target)
    count = players if players is not None else default_players(game, mode)
    tally = Tally(index_for(game))
    match = PlayedMatch(game, seed=seed, players=count, mode=mode, decks=decks, tally=tally)
    kinds = [agents[i] if i < len(agents) else agents[-1] for i in range(count)]
    applied = play_out(match, [make_agent(kind, seed * 1000 + i) for i, kind in enumerate(kinds)],
                       max_actions=max_actions)
    winners = [p.index for p in match.winners]
    trace = None
    if traces is not None and (match.error is not None or not match.over):
        trace = save_trace(match, applied, Path(traces))
    return MatchSummary(seed, winners, match.drawn, match.turn_number, applied, match.error, match.cards_played,
                        trace, match.out_of_turns, match.over, tally.counts)


def save_trace(match: PlayedMatch, actions: int, folder: Path) -> str:
    """A failing match's log, saved as `cardsmith play --log` writes one, so
    `cardsmith replay` re-runs it to the failure (seed, decks and action ids are in it)."""
    path = folder / f"{match.game.ir.game.id}-seed{match.seed}.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, "\n".join(log_lines(match, actions)) + "\n")
    return str(path)


def _play_star(args: tuple[str, int, int | None, str | None, int, tuple[str, ...],
                              list[list[str]] | None, str | None]) -> MatchSummary:
    return play_one(*args)


def simulate(target: str, games: int, seed: int = 1, players: int | None = None, mode: str | None = None,
             jobs: int = 1, max_actions: int = MAX_ACTIONS, agents: list[str] | None = None,
             decks: list[list[str]] | None = None,
             progress: Callable[[int], None] | None = None, traces: Path | None = None) -> list[MatchSummary]:
    load(target)  # report a broken game before starting workers
    kinds = tuple(agents or ["random"])
    folder = str(traces) if traces is not None else None
    tasks = [(target, seed + i, players, mode, max_actions, kinds, decks, folder) for i in range(games)]
    results: list[MatchSummary] = []
    if jobs <= 1:
        for task in tasks:
            results.append(_play_star(task))
            if progress:
                progress(1)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(_play_star, tasks, chunksize=max(1, games // (jobs * 8))):
            results.append(summary)
            if progress:
                progress(1)
    return results


def coverage(target: str, results: list[MatchSummary]) -> CoverageReport:
    """The dead-rule report of these matches (their tallies summed)."""
    counts: Counts = Counter()
    for r in results:
        counts.update(r.coverage)
    return CoverageReport(load(target).ir, counts, len(results))


def statistics(results: list[MatchSummary], players: int, turn_limit: int | None = None) -> dict[str, Any]:
    """Wins, draws, errors, lengths and card stats of the matches. A match stopped at
    the game's turn limit (`turn_limit`, when given) is counted apart from rules errors:
    the rules did not break, the game did not end."""
    wins = Counter(w for r in results for w in r.winners if len(r.winners) == 1)
    finished = [r for r in results if r.error is None]
    decided = [r for r in finished if len(r.winners) == 1]
    played: Counter[str] = Counter()          # how many times the card was played
    matches_played: Counter[str] = Counter()  # in how many (match, seat) pairs it was played
    won_when_played: Counter[str] = Counter()  # ... of which that seat won the match
    for r in results:
        seen = set()
        for seat, name in r.played:
            played[name] += 1
            if (seat, name) in seen:
                continue
            seen.add((seat, name))
            matches_played[name] += 1
            if r.winners == [seat]:
                won_when_played[name] += 1
    lengths = sorted(r.turns for r in results)
    broken = [r for r in results if r.error is not None and not r.out_of_turns]
    return {
        "matches": len(results),
        "errors": [{"seed": r.seed, "error": r.error} for r in broken][:20],
        "error_count": len(broken),
        "turn_limit": {"turns": turn_limit, "matches": sum(1 for r in results if r.out_of_turns),
                       "seeds": [r.seed for r in results if r.out_of_turns][:20]},
        "unfinished": sum(1 for r in results if not r.over),  # stopped at the action cap (--max-actions)
        "wins_per_seat": {f"player{i + 1}": wins.get(i, 0) for i in range(players)},
        "shared_wins": sum(1 for r in results if len(r.winners) > 1),
        "draws": sum(1 for r in results if r.drawn),
        "first_player_win_rate": round(wins.get(0, 0) / len(decided), 3) if decided else None,
        "turns": {"min": lengths[0] if lengths else 0, "median": lengths[len(lengths) // 2] if lengths else 0,
                  "max": lengths[-1] if lengths else 0},
        "actions_mean": round(sum(r.actions for r in results) / len(results), 1) if results else 0,
        "cards": {name: {"played": count, "matches": matches_played[name],
                         "win_rate_when_played": round(won_when_played[name] / max(1, matches_played[name]), 3)}
                  for name, count in played.most_common()},
    }
