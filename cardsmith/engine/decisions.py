"""Did an agent really choose? Counts every built-in agent keeps, and the warning they make.

Apart from agents.py so the search agent (engine/search.py), which agents.py makes on
demand, can keep the same counts without the two modules importing each other.
"""

from __future__ import annotations

from typing import Any


class DecisionCounts:
    """How often an agent was asked, and how often its own policy decided.

    A simulation is only as telling as its agents' play: greedy in a game whose choices
    all sit inside effects once fell back to random in every decision, and the report
    looked like greedy's. Every agent here counts, per match (one agent object plays one
    seat of one match):

    - `decisions`: every time it was asked;
    - `real_choices`: asked with two or more options, and its policy picked one (for
      greedy: its heuristic told the options apart; for search: its samples did);
    - `fallbacks`: two or more options, but the policy had nothing to go on and it picked
      at random (no heuristic, every option scored alike, every sample failed).

    Asked with one option, it is neither. `no_real_choice` says it in one line."""

    def __init__(self) -> None:
        self.decisions = 0
        self.real_choices = 0
        self.fallbacks = 0

    def counted(self, size: int, decided: bool) -> None:
        self.decisions += 1
        if size >= 2:
            if decided:
                self.real_choices += 1
            else:
                self.fallbacks += 1


def decision_counts(agent: Any) -> dict[str, int]:
    """An agent's counts (DecisionCounts) as plain numbers; zeros for an agent that keeps
    none (a person, or an agent written elsewhere). Summed over matches by simulate."""
    return {"decisions": getattr(agent, "decisions", 0), "real_choices": getattr(agent, "real_choices", 0),
            "fallbacks": getattr(agent, "fallbacks", 0)}


def no_real_choice(name: str, counts: dict[str, int]) -> str | None:
    """The warning for an agent that fell back to chance (counts as decision_counts gives,
    possibly summed over many matches): "greedy had no real choice in N of M decisions",
    N being every decision its policy did not decide. None when it never fell back."""
    if counts.get("fallbacks", 0) <= 0:
        return None
    total = counts.get("decisions", 0)
    missed = total - counts.get("real_choices", 0)
    return (f"{name} had no real choice in {missed:,} of {total:,} decisions "
            f"(it fell back to random in {counts['fallbacks']:,})")
