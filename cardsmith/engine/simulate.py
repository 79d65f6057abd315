"""Many matches between agents, and what they say about the game's balance and rules.

Each match is seeded (base seed + index), so a simulation is reproducible and any odd
match can be replayed alone. Matches run in parallel worker processes with --jobs.
With decks dealt, every seed is played once per seat order of the decks (rotation), so
a deck's strength and a seat's advantage can be told apart (engine/balance.py).
Every match is tallied for the dead-rule report (engine/coverage.py): which actions,
abilities, keywords, triggers, events and stages never happened, and its cards are read
for card impact (engine/cardfacts.py). Neither touches the log, so a simulated match is
the same match `cardsmith play --seed` plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import DEFAULT_AGENT, make_agent, play_out
from cardsmith.engine.cardfacts import PlayWatcher, SeatFacts, seat_facts
from cardsmith.engine.coverage import Counts, CoverageReport, Tally, index_for
from cardsmith.engine.decisions import decision_counts
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import load
from cardsmith.engine.natives import rank_players
from cardsmith.engine.replay import log_lines
from cardsmith.engine.setup import default_players
from cardsmith.util.atomic import write_text_atomic

# the most actions a simulated match takes by default; one still going then is reported unfinished
MAX_ACTIONS = 20_000
# the most --max-actions may be (a match's log is kept in memory while it runs)
MAX_ACTIONS_LIMIT = 1_000_000


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
    rotation: int = 0  # which seat order of the decks (0: as given)
    decks: list[str] | None = None  # the deck each seat played (its name), when decks were dealt
    seats: list[SeatFacts] = field(default_factory=list)  # each seat's cards (engine/cardfacts.py)
    # each seat's agent: its kind and how often it really chose (engine/decisions.py)
    agents: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    # the seats first when it ended: its winners, else the best by the game's `scoring` (placed_first)
    placed: list[int] | None = None

    @property
    def outcome(self) -> str:
        """One word for how the match ended: won, shared, drawn, no winner (over, nobody
        won), capped (still going at the action cap), turn limit, or error."""
        if self.out_of_turns:
            return "turn limit"
        if self.error is not None:
            return "error"
        if not self.over:
            return "capped"
        if len(self.winners) == 1:
            return "won"
        if len(self.winners) > 1:
            return "shared"
        return "drawn" if self.drawn else "no winner"


@dataclass(frozen=True)
class Task:
    """One match to play: everything a worker process needs (picklable)."""

    target: str
    seed: int
    players: int | None
    mode: str | None
    max_actions: int
    agents: tuple[str, ...]
    decks: list[list[str]] | None
    traces: str | None
    rotation: int = 0
    deck_names: list[str] | None = None


def play_one(target: str, seed: int, players: int | None, mode: str | None, max_actions: int,
             agents: tuple[str, ...] = (DEFAULT_AGENT,), decks: list[list[str]] | None = None,
             traces: str | None = None, rotation: int = 0, deck_names: list[str] | None = None) -> MatchSummary:
    game = load(target)
    count = players if players is not None else default_players(game, mode)
    tally = Tally(index_for(game))
    match = PlayedMatch(game, seed=seed, players=count, mode=mode, decks=decks, tally=tally)
    kinds = [agents[i] if i < len(agents) else agents[-1] for i in range(count)]
    watcher = PlayWatcher()
    seated = [make_agent(kind, seed * 1000 + i) for i, kind in enumerate(kinds)]
    applied = play_out(match, seated, max_actions=max_actions, on_move=watcher)
    winners = [p.index for p in match.winners]
    trace = None
    if traces is not None and (match.error is not None or not match.over):
        trace = save_trace(match, applied, Path(traces), rotation)
    return MatchSummary(seed, winners, match.drawn, match.turn_number, applied, match.error, match.cards_played,
                        trace, match.out_of_turns, match.over, tally.counts, rotation,
                        list(deck_names) if deck_names is not None else None, seat_facts(match, watcher),
                        [(kind, decision_counts(agent)) for kind, agent in zip(kinds, seated, strict=True)],
                        placed_first(match))


def placed_first(match: PlayedMatch) -> list[int] | None:
    """The seats that came first in a match that ended: its winners; with no winner and
    no draw, those the game's `scoring` ranks first (score, then tiebreaks; a seat still
    in the game before one that lost) — what balance counts when a game is rarely won.
    None when the match did not end or the game declares no scoring; [] for a draw."""
    if not match.over or match.error is not None:
        return None
    if match.winners:
        return [p.index for p in match.winners]
    if match.drawn:
        return []
    if match.game.ir.scoring is None:
        return None
    try:
        ranking = getattr(match, "ranking", None) or rank_players(match)
    except rt.RulesError:  # (a score the final position cannot work out: nobody placed)
        return []
    best_player, best_key = ranking[0]
    return [p.index for p, key in ranking if key == best_key and p.eliminated == best_player.eliminated]


def save_trace(match: PlayedMatch, actions: int, folder: Path, rotation: int = 0) -> str:
    """A failing match's log, saved as `cardsmith play --log` writes one, so
    `cardsmith replay` re-runs it to the failure (seed, decks and action ids are in it)."""
    order = f"-order{rotation + 1}" if rotation else ""
    path = folder / f"{match.game.ir.game.id}-seed{match.seed}{order}.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, "\n".join(log_lines(match, actions)) + "\n")
    return str(path)


def _play_task(task: Task) -> MatchSummary:
    return play_one(task.target, task.seed, task.players, task.mode, task.max_actions, task.agents, task.decks,
                    task.traces, task.rotation, task.deck_names)


Lineup = tuple[list[list[str]], list[str]]  # a deck per seat (card names), and each deck's name


def seat_orders(lineups: list[Lineup] | None, rotate: bool) -> list[tuple[list[list[str]] | None, list[str] | None]]:
    """The deck assignments each seed is played with: each lineup as given, then (with
    `rotate`) each cyclic rotation of it, so every deck sits in every seat. Rotations
    that deal every seat the same deck as one already listed are left out."""
    if not lineups:
        return [(None, None)]
    orders: list[tuple[list[list[str]] | None, list[str] | None]] = []
    taken: set[tuple[str, ...]] = set()
    for decks, names in lineups:
        for r in range(len(decks) if rotate else 1):
            key = tuple(names[r:] + names[:r])
            if key in taken:
                continue
            taken.add(key)
            orders.append((decks[r:] + decks[:r], list(key)))
    return orders


def simulate(target: str, games: int, seed: int = 1, players: int | None = None, mode: str | None = None,
             jobs: int = 1, max_actions: int = MAX_ACTIONS, agents: list[str] | None = None,
             decks: list[list[str]] | None = None,
             progress: Callable[[int], None] | None = None, traces: Path | None = None,
             lineups: list[Lineup] | None = None, rotate: bool = False) -> list[MatchSummary]:
    """`games` seeds from `seed` on, each played once per lineup and seat order (see
    seat_orders): the results in seed order, then lineup and seat order. `decks` (one
    per seat, unnamed) is the older way to give one lineup, played as given."""
    load(target)  # report a broken game before starting workers
    kinds = tuple(agents or [DEFAULT_AGENT])
    folder = str(traces) if traces is not None else None
    if decks is not None and not lineups:
        orders: list[tuple[list[list[str]] | None, list[str] | None]] = [(decks, None)]
    else:
        orders = seat_orders(lineups, rotate)
    tasks = [Task(target, seed + i, players, mode, max_actions, kinds, dealt, folder, r, names)
             for i in range(games) for r, (dealt, names) in enumerate(orders)]
    return play_tasks(tasks, jobs, progress)


def play_tasks(tasks: list[Task], jobs: int, progress: Callable[[int], None] | None = None) -> list[MatchSummary]:
    """Play these matches (in worker processes with `jobs` > 1): results in task order."""
    results: list[MatchSummary] = []
    if jobs <= 1:
        for task in tasks:
            results.append(_play_task(task))
            if progress:
                progress(1)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(_play_task, tasks, chunksize=max(1, len(tasks) // (jobs * 8))):
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


def agent_decisions(results: list[MatchSummary]) -> dict[str, dict[str, int]]:
    """Per kind of agent (random, greedy, search:40, ...), its decisions summed over every
    seat it played: how many, how many its policy really decided, how many fell back to
    chance (decisions.DecisionCounts) — so a report can say when an agent did not play."""
    found: dict[str, Counter[str]] = {}
    for r in results:
        for kind, counts in r.agents:
            found.setdefault(kind, Counter()).update(counts)
    return {kind: dict(counts) for kind, counts in found.items()}


def statistics(results: list[MatchSummary], players: int, turn_limit: int | None = None,
               left_out: Sequence[dict[str, Any]] = (), measure: str | None = None) -> dict[str, Any]:
    """Wins, draws, errors, lengths and card stats of the matches. A match stopped at
    the game's turn limit (`turn_limit`, when given) is counted apart from rules errors:
    the rules did not break, the game did not end. Seat, deck and card-impact figures
    with their intervals come from engine/balance.py, counting `measure` (None: what
    balance.outcome_measure chooses: winning, or placing first in a game rarely won)."""
    from cardsmith.engine.balance import balance

    wins = Counter(w for r in results for w in r.winners if len(r.winners) == 1)
    finished = [r for r in results if r.error is None]
    decided = [r for r in finished if len(r.winners) == 1]
    played: Counter[str] = Counter()          # how many times the card was played
    matches_played: Counter[str] = Counter()  # in how many (match, seat) pairs it was played
    won_when_played: Counter[str] = Counter()  # ... of which that seat won the match
    for r in results:
        for facts_seat, facts in enumerate(r.seats):
            for name, count in facts.played.items():
                played[name] += count
                matches_played[name] += 1
                if r.winners == [facts_seat]:
                    won_when_played[name] += 1
    lengths = sorted(r.turns for r in results)
    broken = [r for r in results if r.error is not None and not r.out_of_turns]
    outcomes = Counter(r.outcome for r in results)
    return {
        "matches": len(results),
        "outcomes": {k: outcomes.get(k, 0) for k in
                     ("won", "shared", "drawn", "no winner", "capped", "turn limit", "error")},
        "errors": [{"seed": r.seed, "error": r.error} for r in broken][:20],
        "error_count": len(broken),
        "turn_limit": {"turns": turn_limit, "matches": sum(1 for r in results if r.out_of_turns),
                       "seeds": [r.seed for r in results if r.out_of_turns][:20]},
        "unfinished": sum(1 for r in results if not r.over),  # stopped at the action cap (--max-actions)
        "unfinished_seeds": [r.seed for r in results if not r.over][:20],
        "no_winner": outcomes.get("no winner", 0),
        "wins_per_seat": {f"player{i + 1}": wins.get(i, 0) for i in range(players)},
        "shared_wins": sum(1 for r in results if len(r.winners) > 1),
        "draws": sum(1 for r in results if r.drawn),
        "first_player_win_rate": round(wins.get(0, 0) / len(decided), 3) if decided else None,
        "agents": agent_decisions(results),
        "turns": {"min": lengths[0] if lengths else 0, "median": lengths[len(lengths) // 2] if lengths else 0,
                  "max": lengths[-1] if lengths else 0},
        "actions_mean": round(sum(r.actions for r in results) / len(results), 1) if results else 0,
        "cards": {name: {"played": count, "matches": matches_played[name],
                         "win_rate_when_played": round(won_when_played[name] / max(1, matches_played[name]), 3)}
                  for name, count in played.most_common()},
        **balance(results, players, left_out=left_out, measure=measure),
    }
