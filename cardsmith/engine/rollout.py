"""Playing a sampled world forward and judging where it got to: the agents' common tool.

Both the greedy agent's look-ahead at a choice inside an effect and the search agent's
iterations need the same three things, kept here so they agree:

- `play_on`: a world (a copy of the match its seat cannot tell from the real one,
  SeatView.determinized) played forward from a move by a cheap policy, until the seat is
  asked again, the match ends, or a number of decisions has passed. A world is a copy,
  not the real match, so nothing has to be rolled back: it is simply dropped.
- `quick_index`: that cheap policy — random, but passing only one time in five when other
  moves exist (as RandomAgent: a pass ends a seat's part in a stage, so a policy passing
  as often as it moves makes every rollout a string of passes).
- `margin` / `judge`: the game's declared heuristic (`heuristic { value: ... }`) as the
  seat's lead over its best rival, and a finished match as a win or a loss.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt

if TYPE_CHECKING:
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.moves import Action

PASS_CHANCE = 0.2
# the errors a guessed world may run into that the real match would not (a hand dealt
# from guesses can break a rule the real cards keep): they end the rollout, not the agent
WORLD_ERRORS = (rt.RulesError, TypeError, ValueError, ArithmeticError, KeyError, IndexError)


def quick_index(actions: list[Action], rng: random.Random) -> int:
    """A random move, passing only one time in five when other moves exist."""
    size = len(actions)
    passes = [i for i, a in enumerate(actions) if a.payload == "pass"]
    if passes and size > 1:
        if rng.random() < PASS_CHANCE:
            return passes[0]
        index = rng.randrange(size - 1)
        return index if index < passes[0] else index + 1
    return rng.randrange(size)


def play_on(world: PlayedMatch, seat: int, steps: int, rng: random.Random) -> bool:
    """Play `world` on by `quick_index` until `seat` must decide again, the match ends, or
    `steps` decisions have been taken. False when the world broke a rule (the guess, not
    the move, is to blame: the caller drops the sample)."""
    try:
        for _ in range(steps):
            if world.is_over:
                break
            actions = world.legal_actions()
            if not actions or actions[0].player == seat:
                break
            world.apply(actions[quick_index(actions, rng)])
    except WORLD_ERRORS:
        return False
    return world.error is None


def margin(world: PlayedMatch, seat: int, heuristic: Any) -> float | None:
    """How far `seat` leads its best rival by the game's heuristic (negative: behind);
    None when the heuristic cannot be worked out in this world."""
    try:
        values = [float(heuristic(world, rt.Ctx(p, None))) for p in world.players]
    except WORLD_ERRORS:
        return None
    mine = values[seat]
    others = [v for i, v in enumerate(values) if i != seat]
    lead = mine - max(others) if others else mine
    return lead if math.isfinite(lead) else None


def judge(world: PlayedMatch, seat: int, heuristic: Any) -> tuple[str, float]:
    """Where a rollout got to, for `seat`: ("won", 1) / ("lost", 0) / ("drawn", 0.5) for a
    finished match, ("lead", the heuristic margin) for one still going, and ("unknown", 0)
    when neither can be said (no heuristic, or it failed in this world)."""
    if world.is_over:
        if world.error is not None:
            return "unknown", 0.0
        winners = {p.index for p in world.winners}
        if seat in winners:
            return "won", 1.0 / len(winners)
        return ("lost", 0.0) if winners else ("drawn", 0.5)
    if heuristic is None:
        return "unknown", 0.0
    lead = margin(world, seat, heuristic)
    return ("unknown", 0.0) if lead is None else ("lead", lead)
