"""A search agent that does not peek: determinized Monte Carlo over every decision.

Every decision is searched — a stage's window of moves, a choice inside an effect, a
simultaneous pick, a setup selection. The search runs in rounds. Each round draws one
world the seat cannot tell from the real one (SeatView.world_value: every card out of
its view resampled afresh, the others' open sealed picks guessed, a generator and seed of
its own), so each round plays against another plausible guess of the hidden cards and
future rolls, never the real ones. In that world every option still in the running is
played, then the world goes on by a cheap policy (engine/rollout.py) for up to
`rollout_depth` decisions — stopping when the seat is asked again — and is judged: a
finished match as a win or a loss, one still going by the game's declared heuristic, as
the seat's lead over its best rival squashed into (0, 1). All options of a round share
the world and its later rolls (common random numbers), so they are compared on the same
guess; after rounds 4, 8, 16... the worse half of the options is dropped (successive
halving, not sooner: one world says little), so the budget goes to the close options. It takes
the best mean.

Why no tree below the first move: every round plays in a different guessed world, and a
tree shared by them would let later moves "know" the guess (strategy fusion); at a
budget of a second the tree never grows deep enough to pay back anyway. Why a depth cut
and the heuristic rather than rollouts to the end: a random Kingdom Combat match runs
thousands of actions, so rollouts to the end are few, slow and mostly noise.

The budget is a number of worlds (iterations), or milliseconds, whichever ends first;
with a time budget it stops before a world that would likely overrun it (so a decision
keeps to its budget), but always plays at least one.
"""

from __future__ import annotations

import math
import random
import time

from cardsmith.engine import runtime as rt
from cardsmith.engine.decisions import DecisionCounts
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.rollout import margin, quick_index
from cardsmith.engine.seatview import SeatView

DEFAULT_DEPTH = 8
# worlds a decision when no budget is given: a fixed count, so a simulation with `search`
# plays the same moves on every machine (a time budget cannot); ~0.5-0.8 s a decision here
DEFAULT_WORLDS = 40
# successive halving starts once every option has been played in this many worlds: one world
# says little where the others' hidden picks decide the outcome (Combat Cards against greedy,
# 30 matches: halving after round 1 won 6 and lost 13; halving never, at 20 worlds, won
# 11-13 and lost 8 — docs/agents.md)
FIRST_HALVING = 4


class SearchAgent(DecisionCounts):
    name = "search"

    def __init__(self, seed: int, iterations: int | None = None, milliseconds: float | None = None,
                 rollout_depth: int = DEFAULT_DEPTH, own_stop: int = 1) -> None:
        """A budget of `iterations` worlds and/or `milliseconds` a decision, whichever ends
        first; neither given: DEFAULT_WORLDS. A count below the number of options still plays
        each option once (else `search:1` would judge only the first option and always play
        it). `own_stop`: a rollout ends at the agent's own `own_stop`-th next decision (1: as
        soon as it is asked again)."""
        super().__init__()
        self.own_stop = own_stop
        self.rng = random.Random(seed)
        if iterations is None and milliseconds is None:
            iterations = DEFAULT_WORLDS
        self.iterations = iterations if iterations is not None else 10**9
        self.milliseconds = milliseconds
        self.rollout_depth = rollout_depth
        self.scale = 0.0  # the typical size of a heuristic lead, learnt from the rollouts (_value)
        self.leads = 0
        self.iterations_run = 0  # over all decisions, for benchmarks

    def choose(self, view: SeatView) -> int:
        size = view.size
        if size == 1:
            self.counted(1, False)
            return 0
        visits = [0] * size
        totals = [0.0] * size
        candidates = list(range(size))
        start = time.perf_counter()
        deadline = start + self.milliseconds / 1000 if self.milliseconds else None
        done = rounds = 0
        while done < self.iterations or not rounds:
            seed = self.rng.getrandbits(64)  # one guessed world for every option of this round
            for index in candidates:
                # a count of worlds never ends the first round: every option is played at least once
                if (rounds and done >= self.iterations) or (deadline is not None and done
                                                            and self._late(start, done, deadline)):
                    break
                found = view.world_value(seed, index, lambda world, rng: self._rollout(world, view.seat, rng))
                done += 1
                self.iterations_run += 1
                if found is not None:
                    visits[index] += 1
                    totals[index] += self._value(found)
            else:
                rounds += 1
                if rounds >= FIRST_HALVING and rounds & (rounds - 1) == 0 and len(candidates) > 2:
                    candidates = self._better_half(candidates, visits, totals)  # after rounds 4, 8, 16...
                continue
            break
        means = [totals[i] / visits[i] if visits[i] else -1.0 for i in range(size)]
        # the pick is among the options still in the running: a dropped option's mean rests
        # on its few early worlds, and the survivors' fall back toward their worth as their
        # samples grow, so a lucky early mean would otherwise win over better-known ones
        best = max(means[i] for i in candidates)
        self.counted(size, best >= 0 and any(m != best for m in means))
        if best < 0:
            return self.rng.randrange(size)
        return self.rng.choice([i for i in candidates if means[i] == best])

    @staticmethod
    def _late(start: float, done: int, deadline: float) -> bool:
        """Would one more world, at the mean cost so far, end after the deadline?"""
        now = time.perf_counter()
        return now + (now - start) / done > deadline

    @staticmethod
    def _better_half(candidates: list[int], visits: list[int], totals: list[float]) -> list[int]:
        """Successive halving: the options worth more samples, the better half by mean."""
        ranked = sorted(candidates, key=lambda i: -(totals[i] / visits[i]) if visits[i] else 1.0)
        return sorted(ranked[:max(2, (len(ranked) + 1) // 2)])

    def _rollout(self, world: PlayedMatch, seat: int, rng: random.Random) -> float | None:
        """Play on from the option for `rollout_depth` decisions (stopping early at the
        seat's `own_stop`-th own decision), then say where it got to for `seat`: +inf a
        won match, -inf a lost one, else its lead by the heuristic (a draw: 0). A number
        only: this may run in a forked process (SeatView.world_value), so it must change
        nothing of the agent's own."""
        own = 0
        for _ in range(self.rollout_depth):
            if world.is_over:
                break
            actions = world.legal_actions()
            if not actions:
                break
            if actions[0].player == seat:
                own += 1
                if own >= self.own_stop:
                    break
            world.apply(actions[quick_index(actions, rng)])
        if world.error is not None:
            return None
        heuristic = world.game.handlers.get(("heuristic",))
        lead = None if world.is_over or heuristic is None else margin(world, seat, heuristic)
        if lead is not None:
            return lead
        reward = self._rewards(world).get(seat, 0.5)
        return math.inf if reward > 0.5 else -math.inf if reward < 0.5 else 0.0

    def _value(self, found: float) -> float:
        """A rollout's result in [0, 1]: a win 1, a loss 0, a lead squashed by tanh against
        the typical lead seen so far (the heuristic's scale is the game's own: a point of
        health, or a thousand for a crown), never as sure as a finished match."""
        if math.isinf(found):
            return 1.0 if found > 0 else 0.0
        self.leads += 1
        self.scale += (abs(found) - self.scale) / self.leads
        return 0.5 + 0.45 * math.tanh(found / max(self.scale, 1e-9))

    def _rewards(self, match: PlayedMatch) -> dict[int, float]:
        players = range(len(match.players))
        if match.winners:
            share = 1.0 / len(match.winners)
            winners = {p.index for p in match.winners}
            return {p: (share if p in winners else 0.0) for p in players}
        if not match.is_over:
            judged = self._judged(match)
            if judged is not None:
                return judged
        return {p: 0.5 for p in players}  # a draw, or a cut-short rollout the game gives no way to judge

    def _judged(self, match: PlayedMatch) -> dict[int, float] | None:
        """A cut-short rollout judged by rank alone (when a lead cannot be measured): each
        player by how many others it leads, between 0.25 (behind everyone) and 0.75 (ahead
        of everyone) — never as sure as a real win or loss, and free of the heuristic's scale."""
        heuristic = match.game.handlers.get(("heuristic",))
        if heuristic is None or len(match.players) < 2:
            return None
        try:
            values = [heuristic(match, rt.Ctx(p, None)) for p in match.players]
        except (rt.RulesError, TypeError, ValueError, ArithmeticError):
            return None
        others = len(values) - 1
        return {i: 0.25 + 0.5 * sum(1.0 if mine > v else 0.5 if mine == v else 0.0
                                    for j, v in enumerate(values) if j != i) / others
                for i, mine in enumerate(values)}

