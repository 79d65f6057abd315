"""Agents that drive a match through its legal actions (they never see hidden state)."""

from __future__ import annotations

import random

from cardsmith.engine.flow import Action, PlayedMatch


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, match: PlayedMatch, actions: list[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]


def play_out(match: PlayedMatch, agents: list[RandomAgent], max_actions: int = 20_000,
             check_invariants: bool = False) -> int:
    """Run a match to its end; returns the number of actions applied.

    With `check_invariants`, the engine's invariants are checked after every action
    (soak tests); a violation ends the match with an error naming it."""
    applied = 0
    while not match.is_over and applied < max_actions:
        actions = match.legal_actions()
        if not actions:
            break
        agent = agents[actions[0].player % len(agents)]
        match.apply(agent.choose(match, actions))
        applied += 1
        if check_invariants:
            try:
                match.check_invariants()
            except Exception as error:
                match.error = f"invariant broken after action {applied}: {error}"
                match.over = True
    return applied
