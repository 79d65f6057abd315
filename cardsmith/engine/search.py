"""A Monte Carlo tree search agent that does not peek.

Each iteration asks its seat's view for a world it cannot tell from the real one
(SeatView.determinized: a replica of the match with every card out of the seat's view
resampled, the others' sealed picks guessed, and a generator, seed and log of its own), so
the search plays against a plausible world, not the real hidden cards or future rolls.
It then walks the tree by UCB1, expands one action, plays
randomly to the end (or a depth limit, where the game's declared heuristic judges the
position) and backs up the result for every player. The budget is a number of
iterations or milliseconds, whichever ends first.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from cardsmith.engine import runtime as rt
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.seatview import SeatView


@dataclass
class _Node:
    visits: int = 0
    value: dict[int, float] = field(default_factory=dict)   # player -> summed reward
    children: dict[int, _Node] = field(default_factory=dict)


class SearchAgent:
    name = "search"

    def __init__(self, seed: int, iterations: int = 200, milliseconds: float | None = None,
                 rollout_depth: int = 400, exploration: float = 1.4) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.rollout_depth = rollout_depth
        self.exploration = exploration

    def choose(self, view: SeatView) -> int:
        if view.size == 1:
            return 0
        root = _Node()
        deadline = time.perf_counter() + self.milliseconds / 1000 if self.milliseconds else None
        for _ in range(self.iterations):
            if deadline is not None and time.perf_counter() > deadline:
                break
            self._iterate(view.determinized(self.rng), root)
        if not root.children:
            return self.rng.randrange(view.size)
        best = max(root.children.items(), key=lambda item: (item[1].visits, self.rng.random()))[0]
        return best if best < view.size else 0

    def _iterate(self, match: PlayedMatch, root: _Node) -> None:
        path = [root]
        node = root
        while not match.is_over:
            actions = match.legal_actions()
            if not actions:
                break
            untried = [i for i in range(len(actions)) if i not in node.children]
            if untried:
                index = self.rng.choice(untried)
                node.children[index] = _Node()
                match.apply(actions[index])
                node = node.children[index]
                path.append(node)
                break
            mover = actions[0].player
            index = self._select(node, mover, len(actions))
            match.apply(actions[index])
            node = node.children[index]
            path.append(node)
        depth = 0
        while not match.is_over and depth < self.rollout_depth:
            actions = match.legal_actions()
            if not actions:
                break
            match.apply(actions[self.rng.randrange(len(actions))])
            depth += 1
        rewards = self._rewards(match)
        for visited in path:
            visited.visits += 1
            for player, reward in rewards.items():
                visited.value[player] = visited.value.get(player, 0.0) + reward

    def _select(self, node: _Node, mover: int, count: int) -> int:
        log_total = math.log(max(1, node.visits))
        best, best_score = 0, -math.inf
        for index in range(count):
            child = node.children.get(index)
            if child is None or child.visits == 0:
                return index
            score = child.value.get(mover, 0.0) / child.visits + self.exploration * math.sqrt(log_total / child.visits)
            if score > best_score:
                best, best_score = index, score
        return best

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
        """A rollout cut short at the depth limit, judged by the heuristic the game declares
        (as the greedy agent judges a move): each player by how many others it leads,
        between 0.25 (behind everyone) and 0.75 (ahead of everyone) — never as sure as a
        real win or loss, and free of the heuristic's scale. Without this, a long game
        (a random Kingdom Combat match runs ~3,600 actions) ends almost no rollout, every
        one scores a draw, and the search picks at random."""
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
