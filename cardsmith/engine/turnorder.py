"""Turn order as a rule: who starts, who goes next, extra and skipped turns, direction.

The game's `first_player` picks who takes the first turn; rules change the order with
the core prelude's natives (`X goes next`, `X takes an extra turn`, `reverse the turn
order`, `skip the next player`, `X skips their next turn`; in natives.py). Every change
is made through the match's journaled `set_attr`, so a probed move that changes the
order is rolled back with everything else, and the played flow (flow.py) and scenarios
(advance_turn) ask the same question — `next_turn_player` — when a turn ends.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt
from cardsmith.model.state import Player

if TYPE_CHECKING:
    import random

    from cardsmith.engine.game import CompiledGame


class TurnOrder:
    """Mixed into Match: the state of the turn order and who goes next (changed by natives.py)."""

    players: list[Player]
    current: Player | None
    game: CompiledGame
    rng: random.Random

    if TYPE_CHECKING:  # provided by Match, which this is mixed into
        def record(self, kind: str, **data: Any) -> None: ...

    def init_turn_order(self) -> None:
        self.direction = 1                      # 1: seat order; -1: reversed
        self.next_override: Player | None = None  # `X goes next`
        self.extra_turns: list[Player] = []     # `X takes an extra turn`, in the order asked
        self.skipped: list[Player] = []         # players whose next turn is skipped
        self.extra_turn_now = False             # the turn being taken is an extra one

    # ---------------------------------------------------------------- questions
    def _first_player(self) -> Generator[Any, Any, Player]:
        """The game's `first_player`: `seat1`, `random` (a logged draw of the match's RNG)
        or `choose` (the first seat picks who starts)."""
        rule = self.game.ir.game.first_player
        living = [p for p in self.players if not p.eliminated]  # (rt.players)
        first = living[0]
        if rule == "random" and len(living) > 1:
            first = living[self.rng.randrange(len(living))]
        elif rule == "choose" and len(living) > 1:
            first = yield rt.Choose(self, living[0], list(living), "one", None,  # type: ignore[arg-type]  # (a Match)
                                    label="who takes the first turn", line=self.game.ir.game.span.line)
        self.record("first_player", player=first.name, rule=rule)
        return first

    def following(self, player: Player | None) -> Player | None:
        """The living player after `player` in the current direction (turn order)."""
        living = rt.players(self)  # type: ignore[arg-type]  # (a Match)
        if not living:
            return None
        if player is None:
            return living[0]
        if player in living:
            return living[(living.index(player) + self.direction) % len(living)]
        # an eliminated player: the next living seat after theirs, in the direction of play
        seats = len(self.players)
        for step in range(1, seats + 1):
            candidate = self.players[(player.index + step * self.direction) % seats]
            if not candidate.eliminated:
                return candidate
        return None

    def next_turn_player(self, player: Player | None) -> Player | None:
        """Who takes the turn after `player`'s: an extra turn first, then `X goes next`,
        then the next player in order. (Whether that player's turn is skipped is asked
        when it comes: `take_skip`.)"""
        self.extra_turn_now = False
        if self.extra_turns:
            chosen = self.extra_turns[0]
            self.extra_turns = self.extra_turns[1:]
            if not chosen.eliminated:
                self.extra_turn_now = True
                return chosen
        if self.next_override is not None:
            chosen, self.next_override = self.next_override, None
            if not chosen.eliminated:
                return chosen
        return self.following(player)

    def take_skip(self, player: Player) -> bool:
        """Is `player`'s turn, now due, skipped? (The skip is used up, and logged.) An
        extra turn is never skipped."""
        if self.extra_turn_now or player not in self.skipped:
            return False
        kept = list(self.skipped)
        kept.remove(player)
        self.skipped = kept
        self.record("turn_skipped", player=player.name)
        return True
