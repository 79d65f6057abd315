"""Agents that drive a match through its legal actions (they never see hidden state).

An agent is any object with `name` and `choose(view) -> int`: given the SeatView of the
seat to decide (engine/seatview.py — the observation, the moves as numbered descriptions,
look-ahead in resampled worlds), it answers the number of its move. It is never handed the
match, whose cards, seed and generator a seat may not see; `play_out` keeps the match and
asks each agent through a view that is valid only while that agent decides.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from cardsmith.dsl import ir
from cardsmith.engine.decisions import DecisionCounts, decision_counts, no_real_choice
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action
from cardsmith.engine.seatview import SeatView, answer_of

__all__ = ["Agent", "DecisionCounts", "GreedyAgent", "RandomAgent", "VarietyAgent", "agent_problem",
           "ask", "decision_counts", "make_agent", "no_real_choice", "play_out"]


class Agent(Protocol):
    name: str

    def choose(self, view: SeatView) -> int: ...


class RandomAgent(DecisionCounts):
    """Picks at random among the legal actions, from its own seeded RNG.

    "pass" ends the agent's whole part in a stage, so picking it as often as any single
    move makes games crawl; when other moves exist it is taken one time in five. Chance
    is its policy, so each pick among two or more options counts as a real choice.
    """

    name = "random"
    PASS_CHANCE = 0.2

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        size, passing = view.size, view.pass_index
        self.counted(size, True)
        moves = size - (passing is not None)
        if moves and passing is not None and self.rng.random() >= self.PASS_CHANCE:
            index = self.rng.randrange(moves)
            return index if index < passing else index + 1
        if moves and passing is None:
            return self.rng.randrange(moves)
        return self.rng.randrange(size)


class VarietyAgent(DecisionCounts):
    """Random play over *kinds* of move: in a window it passes one time in five (when it
    may), else picks an action or ability uniformly, then one of its offered ways; every
    other decision is uniform. Where one action offers hundreds of ways (Kingdom Combat's
    unit moves), `random` nearly always takes one of those and its matches run to the
    action cap; this agent's end (there: in 270 to 1,800 actions)."""

    name = "variety"

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        self.counted(view.size, True)
        kinds = view.kinds
        if not any(kinds):  # (every kind None: a kind is a rule's name, never empty; no generator)
            return self.rng.randrange(view.size)
        groups: dict[str, list[int]] = {}
        for index, kind in enumerate(kinds):
            if kind is not None and index != view.pass_index:
                groups.setdefault(kind, []).append(index)
        if view.pass_index is not None and (not groups or self.rng.random() < RandomAgent.PASS_CHANCE):
            return view.pass_index
        if not groups:
            return self.rng.randrange(view.size)
        ways = groups[self.rng.choice(list(groups))]
        return ways[self.rng.randrange(len(ways))]


def ask(agent: Any, match: PlayedMatch, actions: list[Action]) -> Action:
    """The move `agent` picks among `actions`, asked through the deciding seat's view."""
    answer = answer_of(agent.choose, match, actions)
    if type(answer) is not int or not 0 <= answer < len(actions):
        raise ValueError(f"agent {getattr(agent, 'name', agent)!r} answered {answer!r}: "
                         f"an agent answers the number of a move, 0 to {len(actions) - 1}")
    return actions[answer]


def play_out(match: PlayedMatch, agents: list[Any], max_actions: int = 20_000,
             check_invariants: bool = False, on_move: Callable[[PlayedMatch, Action], None] | None = None) -> int:
    """Run a match to its end; returns the number of actions applied.

    With `check_invariants`, the engine's invariants are checked after every action
    (soak tests); a violation ends the match with an error naming it. `on_move` sees each
    chosen move just before it is applied (engine/movekinds.py counts them)."""
    applied = 0
    while not match.is_over and applied < max_actions:
        actions = match.legal_actions()
        if not actions:
            break
        chosen = ask(agents[actions[0].player % len(agents)], match, actions)
        if on_move is not None:
            on_move(match, chosen)
        match.apply(chosen)
        applied += 1
        if check_invariants:
            try:
                match.check_invariants()
            except Exception as error:
                match.error = f"invariant broken after action {applied}: {error}"
                match.over = True
    return applied


class GreedyAgent(DecisionCounts):
    """Takes the option after which the game's own heuristic scores best for it.

    Every decision is scored (SeatView.look_ahead): a move of an action window is played
    out under the journal (nested choices answered by the default policy), the game's
    checks run, the position scored with the `heuristic { value: ... }` the game declares
    (from this player's seat, as `you`) and everything rolled back; any other decision —
    a choice inside an effect, a simultaneous pick, a setup selection — is played in a
    world of its own and on until the agent is asked again. It never peeks: everything it
    cannot see is replaced by a plausible guess (every card out of its view, its own
    deck's order included), and its look-ahead rolls dice with a generator of its own,
    never the match's (which would tell it the real next roll). Ties are broken by its
    seeded RNG; a decision its heuristic cannot tell apart at all is a fallback
    (DecisionCounts).
    """

    name = "greedy"

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        scores = view.look_ahead(self.rng)  # (also with one option: it draws from the rng as it always did)
        if scores is None:
            self.counted(view.size, False)
            return self.rng.randrange(view.size)
        best = max(scores)
        self.counted(view.size, any(score != best for score in scores))
        return self.rng.choice([i for i, score in enumerate(scores) if score == best])


class Labels:
    """The names a person at the table sees: a mode, counter, status or zone by its
    `label:` when the game gives one (rules keep naming them by identifier)."""

    def __init__(self, game: ir.Game) -> None:
        """`game`: the checked game — its rules are public."""
        self.modes: dict[str, str] = {m.name: m.label for m in game.modes if m.label}
        self.names: dict[str, str] = {c.name: c.label for c in game.counters if c.label}
        self.names.update({s.name: s.label for s in game.statuses if s.label})
        self.zones: dict[str, str] = {z.name: z.label for z in game.zones if z.label}

    def mode(self, name: str) -> str:
        return self.modes.get(name, name)

    def zone(self, name: str) -> str:
        return self.zones.get(name, name)

    def counters(self, values: dict[str, Any]) -> str:
        return ", ".join(f"{self.names.get(name, name)} {value}" for name, value in values.items()) or "-"

    def marks(self, seen: dict[str, Any]) -> list[str]:
        """What is on a card as the viewer sees it (seatview.observe's card): its statuses,
        the counters it carries (those not at 0) by their labels, and the cell it stands on
        as the language writes one. The terminal table and the studio show the same."""
        marks = [self.names.get(s, s) for s in seen.get("statuses", [])]
        marks += [f"{self.names.get(k, k)} {v}" for k, v in seen.get("counters", {}).items() if v]
        if seen.get("position") is not None:
            marks.append("at [" + ", ".join(str(x) for x in seen["position"]) + "]")
        return marks


# the agent `simulate` (and the studio's Balance page) plays when none is named: random play
# over kinds of move. Plain `random` picks one of hundreds of unit moves nearly every time in a
# game such as Kingdom Combat and its matches never end (all capped at 20,000 actions), so a
# designer's first simulation would say nothing; where every option is its own kind (no
# action windows: Combat Cards) the two play the same matches move for move.
DEFAULT_AGENT = "variety"
AGENT_KINDS = "random, variety, greedy, search, search:ITERATIONS or search:MILLISECONDSms, each search with :depth=N"
# the largest search budget a move may have: beyond it a match would never end
MAX_SEARCH_ITERATIONS = 1_000_000
MAX_SEARCH_MS = 600_000
MAX_ROLLOUT_DEPTH = 100_000


def _search_parts(kind: str) -> tuple[str | None, str | None]:
    """`search[:BUDGET][:depth=N]` split into (budget, depth) as written (None: not given)."""
    budget: str | None = None
    depth: str | None = None
    for part in kind.split(":")[1:]:
        if part.startswith("depth="):
            depth = part[len("depth="):] if depth is None else f"{depth}:{part}"  # twice: refused below
        elif budget is None and depth is None:
            budget = part
        else:
            budget = f"{budget}:{part}" if budget is not None else f":{part}"
    return budget, depth


def agent_problem(kind: str, human: bool = False) -> str | None:
    """What is wrong with an agent as written on the command line (None: nothing). Asked
    before any match starts, so a bad spelling is a usage error, never a failure in a
    worker process halfway through a simulation."""
    if kind in ("random", "variety", "greedy") or (human and kind == "human"):
        return None
    if kind == "search" or kind.startswith("search:"):
        budget, depth = _search_parts(kind)
        if depth is not None and (not depth.isdigit() or not 1 <= int(depth) <= MAX_ROLLOUT_DEPTH):
            return (f"bad search rollout depth {depth!r}: write a whole number of decisions from 1 to "
                    f"{MAX_ROLLOUT_DEPTH:,} (search:500ms:depth=20)")
        if budget is None:
            return None
        digits = budget[:-2] if budget.endswith("ms") else budget
        if not digits.isdigit() or int(digits) < 1:
            return (f"bad search budget {budget!r}: write a whole number of iterations or of "
                    f"milliseconds, at least 1 (search:200 or search:500ms)")
        most = MAX_SEARCH_MS if budget.endswith("ms") else MAX_SEARCH_ITERATIONS
        if int(digits) > most:
            unit = "milliseconds (10 minutes)" if budget.endswith("ms") else "iterations"
            return f"search budget {budget!r} is over the most a move may take: {most:,} {unit}"
        return None
    return f"unknown agent {kind!r} (agents: {AGENT_KINDS}{', human' if human else ''})"


def make_agent(kind: str, seed: int) -> Any:
    """`random`, `variety`, `greedy`, or `search` / `search:ITERATIONS` / `search:200ms`,
    each search optionally `:depth=N` (decisions a rollout plays before the heuristic
    judges). A bare `search` thinks for its default time (engine/search.py), so it is not
    reproducible move for move; `search:ITERATIONS` is. (A person at the terminal is an
    engine/table.TablePlayer, made by the CLI.)"""
    problem = agent_problem(kind)
    if problem is not None:
        raise ValueError(problem)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "variety":
        return VarietyAgent(seed)
    if kind == "greedy":
        return GreedyAgent(seed)
    from cardsmith.engine.search import DEFAULT_DEPTH, SearchAgent

    budget, depth = _search_parts(kind)
    rollout_depth = int(depth) if depth is not None else DEFAULT_DEPTH
    if budget is None:
        return SearchAgent(seed, rollout_depth=rollout_depth)
    if budget.endswith("ms"):
        return SearchAgent(seed, milliseconds=float(budget[:-2]), rollout_depth=rollout_depth)
    return SearchAgent(seed, iterations=int(budget), rollout_depth=rollout_depth)
