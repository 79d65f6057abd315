"""A legal move as one seat may know it: the cards it uses, and how another seat reads it.

A page that shows one seat's board (the studio's Play page) highlights the cards a move
would use and writes the match's story for that seat. Both must come from what the seat
may see: a move's payload holds live cards, and its referee description names every card
by engine id (`Kick#12`), which would name a hidden card or track one across zones. So
this module answers in the seat's own card numbers (engine/seatview.SeatNames) and says
nothing about a card out of the seat's view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cardsmith.engine.movewords import words_of
from cardsmith.model.state import Card

if TYPE_CHECKING:
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.moves import Action

# how deep a payload's nesting is searched for cards (a move, its choices, a pick of several)
_DEPTH = 4


def _cards_in(value: Any, depth: int = 0) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, list | tuple) and depth < _DEPTH:
        for item in value:
            yield from _cards_in(item, depth + 1)


def cards_used(match: PlayedMatch, seat: int, action: Action) -> list[int]:
    """The seat's own numbers of the cards `action` uses (the card whose ability it is, the
    cards it picks or pays with) that `seat` sees now; a card out of its view is left out
    (a blind pick's card among them). Ask after the seat has looked (its observation)."""
    names = match.seat_names(seat)
    found: list[int] = []
    for card in _cards_in(action.payload):
        if names.sees(card):
            number = names.number(card)
            if number not in found:
                found.append(number)
    return found


def seen_by(match: PlayedMatch, viewer: int, action: Action) -> str | None:
    """`action` (about to be applied) as `viewer` may read it, in the game's words and its
    own names (engine/movewords.py); None when
    the viewer may not know which move it was: another seat's pick while a simultaneous
    decision is open, or an ability of a card the viewer cannot see (its name heads the
    description)."""
    names = match.seat_names(viewer)
    names.look()
    if action.player != viewer:
        if match.deciding_together:
            return None
        move = action.payload[0] if isinstance(action.payload, tuple) and action.payload else None
        if isinstance(move, tuple) and len(move) > 1 and isinstance(move[1], Card) and not names.sees(move[1]):
            return None
    return words_of(match, viewer, [action])[0]
