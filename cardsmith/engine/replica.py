"""A copy of a played match for the search agent, made without finding legal moves.

The flow is a Python generator, which cannot be copied, so a match is copied by playing
it again from its seed (PlayedMatch.restore). Replaying by action id asks for the legal
moves at every step — the engine's most expensive part in games like Kingdom Combat — only
to look the id up. A replica replays each *move itself*: the original keeps every applied
move in a portable form (cards by id, players by seat, zones by name and owner), and the
replica rebuilds it among its own objects and applies it straight. The engine is
deterministic, so the replica reaches the same table; that is checked at the end, as
restore() checks it.
"""

from __future__ import annotations

from typing import Any

from cardsmith.model.state import Card, Player, Zone


def portable(value: Any) -> Any:
    """A move's payload with every card, player and zone replaced by what names it.

    Every applied move is kept in this form (flow._apply_move), so the parts of a list or
    tuple that need no change (text, numbers, nothing) and its cards are written in the
    loop, not by a call each: a window's move, (action, [card]), costs one call, not six."""
    kind = type(value)
    if kind is tuple or kind is list:
        parts: list[Any] = []
        for part in value:
            of = type(part)
            if of is str or of is int or part is None:
                parts.append(part)
            elif of is Card:
                parts.append(("card", part.id))
            elif of is list and all(type(card) is Card for card in part):
                parts.append([("card", card.id) for card in part])  # (a move's cards: no call of its own)
            else:
                parts.append(portable(part))
        return ("tuple", parts) if kind is tuple else parts
    if isinstance(value, Card):
        return ("card", value.id)
    if isinstance(value, Player):
        return ("player", value.index)
    if isinstance(value, Zone):
        return ("zone", value.name, value.owner.index if value.owner is not None else -1)
    if isinstance(value, list):
        return [portable(v) for v in value]
    if isinstance(value, tuple):
        return ("tuple", [portable(v) for v in value])
    return value


class Rebuilder:
    """Turns portable payloads back into one match's own objects."""

    def __init__(self, match: Any) -> None:
        self.match = match
        self.cards: dict[int, Card] = {}

    def value(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if not isinstance(value, tuple):
            return value
        kind = value[0]
        if kind == "card":
            return self.card(value[1])
        if kind == "player":
            return self.match.players[value[1]]
        if kind == "zone":
            return self.match.zones[(value[1], value[2])]
        return tuple(self.value(v) for v in value[1])

    def card(self, card_id: int) -> Card:
        found = self.cards.get(card_id)
        if found is None:  # cards made since the last lookup (tokens): index them all again
            self.cards = {c.id: c for c in self.match.all_cards()}
            found = self.cards[card_id]
        return found
