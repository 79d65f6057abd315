"""What one seat may know — and all an agent is handed (issue 17).

A played match holds every card, the seed, the random generator and the log: the referee's
view. A seat sees less, and this module is the one place that decides how much:

- `visible_to`: may this seat see this card now? (A public zone's face-up cards, or
  face-down ones it controls; its own hand; never a card another seat's sealed pick moved.)
- `SeatNames`: how a seat names cards. A card it sees gets a number of the seat's own
  (`Kick#3`), never the engine's id — ids follow creation order, the same for every seed,
  so an id seen once would name the card when it is face down again. A number lasts while
  the card stays in view and is drawn anew when it comes back into view; a card out of
  view is named only by its place ("a face-down card, 2nd in table of player2").
- `observe`: the position as the seat may see it.
- `determinize`: the match with every card the seat cannot see swapped for another it
  cannot see (the same owner's), in place and journaled — the worlds a seat cannot tell
  apart from the real one.
- `SeatView`: what an agent is given when it must decide: the observation, the legal moves
  as numbered descriptions (no payloads: those hold the live cards), the look-ahead scores
  of the game's heuristic in a resampled world, and resampled copies of the match (with a
  generator, seed and log of their own). The view holds no reference to the match: it
  finds it through a ticket that is only valid while the agent decides (`seat_view`).

In-process agents are Python code like the engine's own: one determined to look could
still walk the interpreter's objects (`gc.get_objects()`). The contract here is that
nothing *handed* to an agent leads to hidden state; running untrusted agents would need
a process boundary (noted in issue 17's closing note).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Player, named

if TYPE_CHECKING:
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.moves import Action


@dataclass(frozen=True, slots=True)
class Shown:
    """A value inside an action's description, named by whoever reads it (`render`)."""

    value: Any


def render(parts: tuple[Any, ...], describe: Any) -> str:
    """A description from its parts: text as is, each `Shown` value as `describe` names it."""
    return "".join(part if type(part) is str else str(describe(part.value)) for part in parts)


def visible_to(card: Card, viewer: Player, sealed: set[int]) -> bool:
    """May `viewer` see this card now? `sealed`: cards another seat's pick in an open
    simultaneous decision has moved or changed (PlayedMatch.sealed_cards)."""
    zone = card.zone
    if zone is None or card.id in sealed:
        return False
    if zone.visibility == "public":
        return not card.face_down or card.controller is viewer
    return zone.visibility == "owner" and zone.owner is viewer


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class SeatNames:
    """How one seat names what it sees: cards in view by name and a number of its own."""

    def __init__(self, match: PlayedMatch, seat: int) -> None:
        self.match = match
        self.viewer = match.players[seat]
        self.numbers: dict[int, int] = {}   # engine id -> this seat's number, while in view
        self.counter = itertools.count(1)
        self.sealed: set[int] = set()

    def look(self) -> None:
        """The seat looks at the table: cards gone out of view lose their number (one that
        comes back gets a new one), cards in view keep theirs."""
        self.sealed = self.match.sealed_cards(self.viewer)
        if self.numbers:
            in_view = {c.id for z in self.match.zones.values() for c in z.cards
                       if visible_to(c, self.viewer, self.sealed)}
            self.numbers = {cid: n for cid, n in self.numbers.items() if cid in in_view}

    def sees(self, card: Card) -> bool:
        return visible_to(card, self.viewer, self.sealed)

    def number(self, card: Card) -> int:
        found = self.numbers.get(card.id)
        if found is None:
            found = self.numbers[card.id] = next(self.counter)
        return found

    def card(self, card: Card) -> str:
        if self.sees(card):
            return f"{card.name}#{self.number(card)}"
        zone = card.zone
        if zone is None:
            return "a card out of the game"
        place = f"{_ordinal(zone.cards.index(card) + 1)} in {self.describe(zone)}"
        return f"a face-down card, {place}" if zone.visibility == "public" else f"a hidden card, {place}"

    def describe(self, value: Any) -> Any:
        """Match.describe, as this seat may name things."""
        return named(value, self.card)


def observe(match: PlayedMatch, seat: int) -> dict[str, Any]:
    """The position as `seat` (0-based) may see it: hidden zones and the others' hands show
    only how many cards they hold; a card out of view shows as hidden, with no name or
    number; while a simultaneous decision is open, what the others' picks changed is hidden.
    `revealed`: the cards shown to this seat (`reveal`) since its last move, by name and
    where they were — knowledge the table no longer shows once they are hidden again."""
    names = match.seat_names(seat)
    names.look()
    viewer = names.viewer

    def card_view(card: Card) -> dict[str, Any]:
        if not names.sees(card):
            return {"hidden": True}
        seen: dict[str, Any] = {
            "id": names.number(card), "name": card.name, "type": card.type,
            "controller": match.describe(card.controller), "statuses": sorted(card.statuses),
            "counters": {k: rt._plain(v) for k, v in card.counters.items()},
            "host": names.number(card.host) if card.host is not None and names.sees(card.host) else None}
        if card.position is not None:  # where it stands on a board
            seen["position"] = list(card.position)
        return seen

    zones = []
    for (name, _owner), zone in match.zones.items():
        visible = zone.visibility == "public" or (zone.visibility == "owner" and zone.owner is viewer)
        zones.append({"zone": name, "owner": match.describe(zone.owner), "size": len(zone.cards),
                      "cards": [card_view(c) for c in zone.cards] if visible else []})
    waiting = []
    for label, program, *_rest in match.stack_programs:
        source = match.stack_sources.get(id(program))
        if source is not None and not names.sees(source):
            label = "an ability of a card out of view"
        waiting.append({"effect": label, "player": match.describe(match.stack_owners.get(id(program)))})
    return {"you": viewer.name, "current": match.describe(match.current), "turn": match.turn_number,
            "mode": match.mode, "stage": match.stage_name,
            "simultaneous": match.deciding_together,
            "players": [{"name": p.name, "counters": {k: rt._plain(v) for k, v in p.counters.items()},
                         "eliminated": p.eliminated} for p in match.players],
            "shared": {k: rt._plain(v) for k, v in match.shared.items()}, "zones": zones,
            "waiting": waiting,
            "revealed": [{"card": name, "from": where} for name, where, to in
                         match.reveals[match.reveal_marks.get(seat, 0):] if to is None or to is viewer],
            "legal_actions": [a.seen_as(names.describe) for a in match.legal_actions() if a.player == seat],
            "result": match.result if match.over else None}


def determinize(match: PlayedMatch, seat: int, rng: random.Random) -> None:
    """Swap every card `seat` cannot see for another it cannot see, in place (journaled).

    The cards out of the seat's view are pooled by owner (a shared deck's cards, owned by
    no one, form one pool, wherever they are: the draw pile and the others' hands) and
    their identities — name, type, printed values, compiled card — are dealt among the
    same places at random. Places keep what the seat could observe of them: position,
    counters, face, controller. So the seat's own deck order is guessed too, and a pending
    choice that points at a hidden card points at the guessed card."""
    viewer = match.players[seat]
    sealed = match.sealed_cards(viewer)
    pools: dict[int, list[Card]] = {}
    for zone in match.zones.values():
        for card in zone.cards:
            if not visible_to(card, viewer, sealed):
                pools.setdefault(-1 if card.owner is None else card.owner.index, []).append(card)
    for cards in pools.values():
        if len(cards) < 2:
            continue
        identities = [(c.name, c.type, c.base, c.definition) for c in cards]
        rng.shuffle(identities)
        for card, (name, ctype, base, definition) in zip(cards, identities, strict=True):
            if card.definition is definition and card.base is base:
                continue
            match.set_attr(card, "name", name)
            match.set_attr(card, "type", ctype)
            match.set_attr(card, "base", base)
            match.set_attr(card, "definition", definition)


# ---------------------------------------------------------------- what an agent is handed


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal move as its seat reads it: its number in the list, its description in the
    seat's names, and whether it is the pass."""

    index: int
    description: str
    passes: bool


_OPEN: dict[int, tuple[PlayedMatch, list[Action]]] = {}
_TICKETS = itertools.count(1)


class SeatView:
    """One decision of one seat, as the agent sees it (see the module docstring).

    `size` and `pass_index` are free; `observation` and `choices` are worked out the first
    time they are read (a random agent never reads them, so simulation pays nothing)."""

    __slots__ = ("_choices", "_observation", "_ticket", "pass_index", "seat", "size")

    def __init__(self, ticket: int, seat: int, actions: list[Action]) -> None:
        self._ticket = ticket
        self.seat = seat
        self.size = len(actions)
        passes = [i for i, a in enumerate(actions) if a.payload == "pass"]
        self.pass_index: int | None = passes[0] if passes else None
        self._observation: dict[str, Any] | None = None
        self._choices: list[Choice] | None = None

    def _open(self) -> tuple[PlayedMatch, list[Action]]:
        found = _OPEN.get(self._ticket)
        if found is None:
            raise RuntimeError("this view is out of date: the decision it was made for is over")
        return found

    @property
    def observation(self) -> dict[str, Any]:
        if self._observation is None:
            match, _actions = self._open()
            self._observation = observe(match, self.seat)
        return self._observation

    @property
    def choices(self) -> list[Choice]:
        if self._choices is None:
            match, actions = self._open()
            names = match.seat_names(self.seat)
            names.look()
            self._choices = [Choice(i, a.seen_as(names.describe), a.payload == "pass")
                             for i, a in enumerate(actions)]
        return self._choices

    def look_ahead(self, rng: random.Random) -> list[Any] | None:
        """The game's heuristic (`heuristic { value: ... }`) for this seat after each move,
        in a world resampled with `rng` (determinize) and with dice rolled by a generator
        drawn from `rng` — never the match's, which would tell the real next roll. None when
        the game declares no heuristic or this decision is not a stage's window of moves
        (a choice inside an effect, which only the flow can continue)."""
        match, actions = self._open()
        return match.look_ahead(self.seat, actions, rng)

    def determinized(self, rng: random.Random) -> PlayedMatch:
        """A copy of the match at this decision that this seat cannot tell from the real
        one: the others' open sealed picks guessed, every card out of view resampled, its
        own seed and generator, an empty log and no move history (PlayedMatch.sample_world)."""
        match, _actions = self._open()
        return match.sample_world(self.seat, rng)


@contextmanager
def seat_view(match: PlayedMatch, actions: list[Action]) -> Iterator[SeatView]:
    """The view of the seat to decide, valid inside the `with` only."""
    ticket = next(_TICKETS)
    _OPEN[ticket] = (match, actions)
    try:
        yield SeatView(ticket, actions[0].player, actions)
    finally:
        del _OPEN[ticket]
