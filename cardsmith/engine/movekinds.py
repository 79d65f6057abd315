"""What kind of move a player made — for soaks, simulations and the reports built on them.

A played match now has moves that scenarios never showed: answers on another player's
turn, responses to something waiting on the stack, activated abilities, sealed picks of a
simultaneous decision. Counting them over many matches is how a designer (and the test
suite) sees that a window, an ability or a response actually happens in play.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action, ActionWindow

KINDS = ("decisions", "window moves", "passes", "off-turn moves", "responses", "activated abilities",
         "sealed picks", "effects put on the stack")


def classify(match: PlayedMatch, action: Action) -> list[str]:
    """The kinds of `action`, a legal move of `match` about to be applied."""
    kinds = ["decisions"]
    pending = match.pending
    if not isinstance(pending, ActionWindow):
        if match.open_seal is not None:
            kinds.append("sealed picks")
        return kinds
    if action.payload == "pass":
        kinds.append("passes")
    else:
        kinds.append("window moves")
        move = action.payload[0] if isinstance(action.payload, tuple) else None
        if isinstance(move, tuple):
            kinds.append("activated abilities")
        if match.stack_programs:
            kinds.append("responses")
        if match.players[action.player] is not match.current:
            kinds.append("off-turn moves")
        if pending.sealed:
            kinds.append("sealed picks")
    return kinds


class MoveCounter:
    """Counts the kinds of every move of the matches it watches (see agents.play_out)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.by_label: Counter[str] = Counter()

    def __call__(self, match: PlayedMatch, action: Action) -> None:
        kinds = classify(match, action)
        self.counts.update(kinds)
        if "window moves" in kinds:
            self.by_label[action.description.split(":")[0] if "activated abilities" not in kinds
                          else ": ".join(action.description.split(": ")[:2])] += 1

    def finish(self, match: PlayedMatch) -> None:
        """Count what the log alone knows (effects that waited on the stack)."""
        self.counts["effects put on the stack"] += sum(1 for entry in match.log if entry["event"] == "waiting")

    def as_dict(self) -> dict[str, Any]:
        return {kind: self.counts[kind] for kind in KINDS}
