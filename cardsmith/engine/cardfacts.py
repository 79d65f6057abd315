"""What each seat did with each card in one played match: held, seen, in the opening hand, played.

Card-impact statistics (engine/balance.py) need, per (match, seat), which cards the seat
had and which it actually got to use. The engine knows no game's words, so these facts
are read generically from the match log and the zones the game declares:

- *setup ends* when the flow first emits `round_started` (every turn-based or
  round-based game does, right after its `setup` and the choice of first player);
- a seat *holds* a card when the card is in one of the seat's own zones (`... of
  playerN`) when setup ends, or enters one later (a drawn, bought or returned card).
  A card that enters another seat's *public* zone while a seat already holds it (a unit
  marching into the enemy's fortress zone, a card put on an opponent's side of the
  table) stays its holder's: else every attacker would count as held by the defender,
  and its record would be that of both decks;
- *in the opening hand*: in a zone of the seat that only its owner sees (zone
  visibility `owner`) when setup ends;
- *drawn*: entered such an owner-only zone of the seat after setup;
- *played*: a card the seat named in one of its own moves, taken from one of its own
  zones that is not public, which the same move put into a public zone. So a card put
  on the table from a hand is played, and so is a unit hired from a hidden deck into a
  starting garrison; a deck-building pick that puts cards into a hidden draw pile is not,
  nor is a card handed over to pay a cost (an answer to a question the cost asks).
- *seen* (the "games in hand" of card analytics): in the opening hand, drawn, or played.
- *dealt from a shared pile* (`pool`): made in a hidden zone of no seat (one draw pile
  the hands are dealt from, as in Kingdom Cards). Any seat could have been dealt it, so
  every seat of the match is compared on it — a seat that never had it counts as "not in
  the opening hand" — instead of only the seats that held it at some time: in a game
  where cards change hands, those that came by it later are the seats winning battles,
  and against them every card's opening-hand win rate looked worse (Kingdom Cards: all
  30 cards -3 to -17 points, ten of them "significant", the planted one among the rest).
- *offered*: in a public zone of no seat (a market row, a face-up supply) when setup ends
  or later, held by no seat — a card any seat could take; *acquired* by a seat: moved from
  there into one of the seat's zones after setup (bought, taken, built). A card a seat
  played onto a shared table and takes back stays its own: neither offered nor acquired. A deck-builder's or a
  market game's cards are never in an opening hand nor drawn, so this is the comparison
  that can judge them (balance.card_impact).

Only card names are kept: copies of one card count once per (match, seat) for the
held/seen/opening flags and each time for plays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action

SETUP_ENDS = "round_started"


@dataclass
class SeatFacts:
    """One seat's cards in one match (card names, sorted for stable output)."""

    held: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()
    opening: tuple[str, ...] = ()
    played: dict[str, int] = field(default_factory=dict)
    acquired: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()  # (the match's, the same for every seat)
    pool: tuple[str, ...] = ()  # dealt from a shared pile (the match's, the same for every seat)


def _name(card: str) -> str:
    return card.rpartition("#")[0] or card


def _seat_of(zone: str) -> tuple[str, int | None]:
    """`hand of player2` -> ("hand", 1); a shared zone -> (name, None)."""
    name, sep, owner = zone.partition(" of ")
    if sep and owner.startswith("player") and owner[6:].isdigit():
        return name, int(owner[6:]) - 1
    return zone, None


class PlayWatcher:
    """Given to `play_out` as `on_move`: notes each card a seat names in its own move from
    one of its own zones that is not public, and where the log then stood. The card is
    played when the next zone it enters after that is public (read from the log once the
    match stops, since a sealed pick is only put down when every seat has picked)."""

    def __init__(self) -> None:
        self.picks: list[tuple[int, str, int]] = []  # (seat, card as the log names it, log index)

    def __call__(self, match: PlayedMatch, action: Action) -> None:
        if getattr(match.pending, "paying", ""):
            return  # cards handed over to pay a cost are paid, not played
        picked = action.payload[1] if isinstance(action.payload, tuple) else action.payload
        for value in picked if isinstance(picked, list) else [picked]:
            for card in value if isinstance(value, list) else [value]:
                zone = getattr(card, "zone", None)
                if zone is None or not hasattr(card, "name") or zone.visibility == "public":
                    continue
                owner = getattr(zone, "owner", None)
                if owner is not None and getattr(owner, "index", None) == action.player:
                    self.picks.append((action.player, match.describe(card), len(match.log)))


def _plays(match: PlayedMatch, watcher: PlayWatcher, public: set[str]) -> list[Counter[str]]:
    """Each seat's plays: its picked cards whose next zone after the pick is public."""
    played: list[Counter[str]] = [Counter() for _ in match.players]
    moves: dict[str, list[tuple[int, str]]] = {}
    for i, entry in enumerate(match.log):
        if entry.get("event") == "move" and "to" in entry:
            moves.setdefault(str(entry.get("card")), []).append((i, str(entry.get("to"))))
    counted: set[tuple[str, int]] = set()
    for seat, card, at in watcher.picks:
        following = next(((i, zone) for i, zone in moves.get(card, []) if i >= at), None)
        if following is None or (card, following[0]) in counted:
            continue
        counted.add((card, following[0]))
        if _seat_of(following[1])[0] in public and seat < len(played):
            played[seat][_name(card)] += 1
    return played


def seat_facts(match: PlayedMatch, watcher: PlayWatcher) -> list[SeatFacts]:
    """Each seat's held/seen/opening cards from the log, and its plays from `watcher`."""
    seats = len(match.players)
    zones = match.game.ir.zones
    private = {z.name for z in zones if z.scope == "player" and z.visibility == "owner"}
    public = {z.name for z in zones if z.visibility == "public"}
    all_plays = _plays(match, watcher, public)
    where: dict[str, str] = {}  # card -> the zone it is in
    held: list[set[str]] = [set() for _ in range(seats)]
    seen: list[set[str]] = [set() for _ in range(seats)]
    opening: list[set[str]] = [set() for _ in range(seats)]
    holder: dict[str, int] = {}  # card (as the log names it) -> the seat that holds it
    offered: set[str] = set()
    pool: set[str] = set()
    acquired: list[set[str]] = [set() for _ in range(seats)]
    after_setup = False
    for entry in match.log:
        kind = entry.get("event")
        if kind == "emit" and not after_setup and entry.get("name") == SETUP_ENDS:
            after_setup = True
            for card, zone in where.items():
                name, seat = _seat_of(zone)
                if seat is None and name in public:
                    offered.add(_name(card))
                if seat is not None and seat < seats:
                    held[seat].add(_name(card))
                    holder[card] = seat
                    if name in private:
                        opening[seat].add(_name(card))
            continue
        if kind == "create":
            card, zone = str(entry.get("card")), str(entry.get("zone"))
            if not after_setup and _seat_of(zone)[1] is None and _seat_of(zone)[0] not in public:
                pool.add(_name(card))
        elif kind == "move" and "to" in entry:
            card, zone = str(entry.get("card")), str(entry.get("to"))
        elif kind == "removed":
            where.pop(str(entry.get("card")), None)
            continue
        else:
            continue
        came_from = _seat_of(where.get(card, ""))
        where[card] = zone
        if after_setup:
            name, seat = _seat_of(zone)
            unheld = card not in holder  # (a played card on a shared table is still its player's)
            if seat is None and name in public and unheld:
                offered.add(_name(card))
            elif seat is not None and seat < seats and came_from[1] is None and came_from[0] in public and unheld:
                acquired[seat].add(_name(card))
            if seat is None or seat >= seats:
                if name not in public:
                    holder.pop(card, None)  # shuffled into a shared pile: nobody's until drawn
                continue
            if name in public and holder.get(card, seat) != seat:
                continue  # in another seat's public zone, still its holder's card
            held[seat].add(_name(card))
            holder[card] = seat
            if name in private:
                seen[seat].add(_name(card))
    facts = []
    for seat in range(seats):
        plays = all_plays[seat]
        seen_cards = seen[seat] | opening[seat] | {n for n, c in plays.items() if c}
        facts.append(SeatFacts(held=tuple(sorted(held[seat] | seen_cards)), seen=tuple(sorted(seen_cards)),
                               opening=tuple(sorted(opening[seat])), played=dict(sorted(plays.items())),
                               acquired=tuple(sorted(acquired[seat])), offered=tuple(sorted(offered)),
                               pool=tuple(sorted(pool))))
    return facts
