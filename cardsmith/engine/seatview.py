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
import math
import os
import random
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Player, named

if TYPE_CHECKING:
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.moves import Action
    from cardsmith.engine.movewords import Decision


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
    number; while a simultaneous decision is open, what the others' picks changed is hidden
    (the cards they moved or changed, and the counters, shown as the decision opened).
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
    sealed = match.sealed_counters(viewer)  # (as they were before the others' hidden picks)

    def counters(index: int, table: dict[str, Any]) -> dict[str, Any]:
        return {k: rt._plain(sealed.get((index, k), v)) for k, v in table.items()}

    return {"you": viewer.name, "current": match.describe(match.current), "turn": match.turn_number,
            "mode": match.mode, "stage": match.stage_name,
            "simultaneous": match.deciding_together,
            "players": [{"name": p.name, "counters": counters(p.index, p.counters),
                         "eliminated": p.eliminated} for p in match.players],
            "shared": counters(-1, match.shared), "zones": zones,
            "waiting": waiting,
            "revealed": [{"card": name, "from": where} for name, where, to in
                         match.reveals[match.reveal_marks.get(seat, 0):] if to is None or to is viewer],
            "legal_actions": [a.seen_as(names.describe) for a in match.legal_actions() if a.player == seat],
            "result": match.result if match.over else None}


def _unseal_counters(match: PlayedMatch, viewer: Player) -> None:
    """Counters the others' hidden picks changed go back to their values when the decision
    opened (journaled), as the seat knows them: a look-ahead never reads another's pick."""
    for (index, name), value in match.sealed_counters(viewer).items():
        table = match.shared if index < 0 else match.players[index].counters
        had, old = name in table, table.get(name)
        table[name] = value

        def undo(table: dict[str, Any] = table, name: str = name, had: bool = had, old: Any = old) -> None:
            if had:
                table[name] = old
            else:
                table.pop(name, None)
        match.undoable(undo)


def determinize(match: PlayedMatch, seat: int, rng: random.Random) -> None:
    """Swap every card `seat` cannot see for another it cannot see, in place (journaled).

    The cards out of the seat's view are pooled by owner (a shared deck's cards, owned by
    no one, form one pool, wherever they are: the draw pile and the others' hands) and
    their identities — name, type, printed values, compiled card — are dealt among the
    same places at random. Places keep what the seat could observe of them: position,
    counters, face, controller. Counters another seat's hidden pick changed go back to
    what they were when the simultaneous decision opened. So the seat's own deck order is guessed too, and a pending
    choice that points at a hidden card points at the guessed card."""
    viewer = match.players[seat]
    _unseal_counters(match, viewer)
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
# how many decisions of the others a look-ahead plays before it scores (SeatView.look_ahead)
LOOK_AHEAD_STEPS = 200

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
        self.pass_index: int | None = None
        for index, action in enumerate(actions):  # (a loop, not a list: asked at every decision)
            if action.payload == "pass":
                self.pass_index = index
                break
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

    def decision(self) -> Decision | None:
        """What the seat decides, and its moves, in the game's words (engine/movewords.py):
        for a person, never for the engine's own use."""
        from cardsmith.engine.movewords import decision_for

        match, _actions = self._open()
        match.seat_names(self.seat).look()
        return decision_for(match, self.seat)

    @property
    def kinds(self) -> list[str | None]:
        """Which rule each move is a way of taking, in a stage's window: the action's name,
        or `Card: ability` for an activated ability (both public: the actions of the game,
        and a card of this seat's in play); None for the pass and for every answer to any
        other decision (a choice inside an effect has one kind of move)."""
        match, actions = self._open()
        if not isinstance(getattr(match.pending, "actions", None), list):  # not a window (moves.ActionWindow)
            return [None] * len(actions)
        found: list[str | None] = []
        for action in actions:
            move = action.payload[0] if isinstance(action.payload, tuple) else None
            if isinstance(move, str):
                found.append(move)
            elif isinstance(move, tuple) and len(move) == 3 and isinstance(move[1], Card):
                found.append(f"{move[1].name}: {'/'.join(move[2][:3])}")  # (a keyword's uses are one kind)
            else:
                found.append(None)
        return found

    def look_ahead(self, rng: random.Random, steps: int = LOOK_AHEAD_STEPS) -> list[Any] | None:
        """The game's heuristic (`heuristic { value: ... }`) for this seat after each move,
        in a world resampled with `rng` (determinize) and with dice rolled by a generator
        drawn from `rng` — never the match's, which would tell the real next roll. None only
        when the game declares no heuristic.

        A move of a stage's window is played under the journal and rolled back (its nested
        choices by the default policy: copies.look_ahead). Any other decision — a choice
        inside an effect, a simultaneous pick, a setup selection — only the flow can
        continue, so each option is played in a world of its own (`determinized`), and the
        world goes on by a cheap policy until this seat is asked again, the match ends or
        `steps` decisions have passed; then the seat's lead over its best rival is scored
        (a win +inf, a loss -inf). Every option's world is drawn from the same seed, so the
        options are compared on the same guess of the hidden cards and the same later rolls."""
        match, actions = self._open()
        scores = match.look_ahead(self.seat, actions, rng)
        if scores is not None:
            return scores
        heuristic = match.game.handlers.get(("heuristic",))
        if heuristic is None:
            return None
        seed = rng.getrandbits(64)
        return [self._played_on(match, index, heuristic, seed, steps) for index in range(len(actions))]

    def _played_on(self, match: PlayedMatch, index: int, heuristic: Any, seed: int, steps: int) -> float:
        """Option `index` in a world drawn from `seed`, played on, as look_ahead scores it."""
        from cardsmith.engine.rollout import judge, play_on

        def scored(world: PlayedMatch, world_rng: random.Random) -> float | None:
            if not play_on(world, self.seat, steps, world_rng):
                return None
            kind, value = judge(world, self.seat, heuristic)
            return {"won": math.inf, "lost": -math.inf, "drawn": 0.0, "lead": value}.get(kind)

        found = self.world_value(seed, index, scored)
        return -math.inf if found is None else found

    def world_value(self, seed: int, index: int,
                    judge: Callable[[PlayedMatch, random.Random], float | None]) -> float | None:
        """What `judge` makes of this seat's option `index` played in a world drawn from
        `seed`: a world this seat cannot tell from the real one (as `determinized`), whose
        generator `judge` may use for its own random play. None when the world cannot say
        (the guesses led to a decision that is not this one, or broke a rule).

        Only a number comes back. A Python generator — the match's flow — cannot be copied
        but by replaying it or by copying the process. Replaying (a replica) costs the
        whole history again: ~1 s at move 1,000 of Kingdom Combat, against ~10 ms for a
        fork. So where the system can fork a single-threaded process, the world is this
        process forked, the match in the child resampled in place before `judge` sees it,
        and the child gone with everything it played. While a simultaneous decision is
        open and another seat has already picked in it, the world is a replica all the
        same: a replica picks the others' sealed picks again (maybe another move, or none),
        where resampling in place could only swap the cards they moved. Before anyone else
        has picked there is nothing to pick again, and the fork is the same world (Combat
        Cards, where every decision is a simultaneous pick: the first seat to pick no longer
        replays the match's history for each world)."""
        from cardsmith.engine.rollout import WORLD_ERRORS

        match, _actions = self._open()
        if not (match.deciding_together and _others_picked(match, self.seat)) and _can_fork():
            return _in_child(lambda: _valued(become_world(match, self.seat, random.Random(seed)), self.seat, index,
                                             judge, seed))
        try:
            world = match.sample_world(self.seat, random.Random(seed))
        except WORLD_ERRORS:
            return None
        return _valued(world, self.seat, index, judge, seed)

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


def answer_of(choose: Callable[[SeatView], Any], match: PlayedMatch, actions: list[Action]) -> Any:
    """`choose` (an agent's) asked through the view of the seat to decide, valid only
    during the call: `seat_view` without a context manager's generator and calls, as
    every decision of a simulated match makes one (agents.ask)."""
    ticket = next(_TICKETS)
    _OPEN[ticket] = (match, actions)
    try:
        return choose(SeatView(ticket, actions[0].player, actions))
    finally:
        del _OPEN[ticket]


# ---------------------------------------------------------------- worlds in a forked process


def _can_fork() -> bool:
    """Forking is safe only where the system has it and this process runs one thread
    (a fork copies only the calling thread: another's held lock would never be let go)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _others_picked(match: PlayedMatch, seat: int) -> bool:
    """Has another seat already picked in the simultaneous decision still open? (Its
    moves are the last of the history: those sealed under the open seal.)"""
    if match.open_seal is None:
        return False
    index = len(match.moves) - 1
    while index >= 0 and match.sealed_moves.get(index) == match.open_seal:
        if match.moves[index][1] != seat:
            return True
        index -= 1
    return False


def _valued(world: PlayedMatch, seat: int, index: int,
            judge: Callable[[PlayedMatch, random.Random], float | None], seed: int) -> float | None:
    """Option `index` played in `world`, then judged (SeatView.world_value)."""
    from cardsmith.engine.rollout import WORLD_ERRORS

    world_rng = random.Random(seed ^ 0x5EED)
    try:
        offered = world.legal_actions()
        if index >= len(offered) or offered[0].player != seat:
            return None
        world.apply(offered[index])
        if world.error is not None:
            return None
        return judge(world, world_rng)
    except WORLD_ERRORS:
        return None


def become_world(match: PlayedMatch, seat: int, rng: random.Random) -> PlayedMatch:
    """Turn `match` itself into a world `seat` cannot tell from the real one: every card
    out of its view resampled (the others' sealed picks among them: cards they moved are
    out of view), a seed and generator drawn from `rng`, and no log, move history, memo or
    tally left from the real match; its pending moves described anew (their descriptions
    were written with the real cards' names). Done to a replica (copies.sample_world) or,
    in a forked child only, to the match itself (SeatView.world_value)."""
    determinize(match, seat, rng)
    match.seed = rng.getrandbits(63)
    match.rng = random.Random(rng.getrandbits(64))
    match.log.clear()
    match.seal_log_start = 0
    match.moves.clear()
    match.history.clear()
    match.sealed_moves.clear()
    match.cards_played.clear()
    mark = match.reveal_marks.get(seat, 0)  # only what was shown to this seat, and not yet acted on
    match.reveals = [r for r in match.reveals[mark:] if r[2] is None or r[2].index == seat]
    match.reveal_marks = {}
    match.offers_cut.clear()
    match.memo.clear()
    match.match_memo.clear()
    match.probe_cache.clear()
    match._grants_cache = None  # (keyed by state version, as the memo is)
    match._answers_listed = None  # (a pending choice's answers, described with the real cards' names)
    match._seat_names.clear()
    match.decks = None
    match.sampled = True
    match.tally = None
    window = getattr(match.pending, "actions", None)  # a window's moves (moves.ActionWindow: it imports this module)
    if isinstance(window, list):
        match.pending.actions = [a.described(a.seen_as(match.describe)) for a in window]
    return match


def _in_child(work: Callable[[], float | None]) -> float | None:
    """`work` run in a forked copy of this process; its number (None as NaN) comes back
    through a pipe, and the child ends at once (os._exit: no cleanup of the parent's files
    or buffers runs twice)."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        value = math.nan
        try:
            os.close(reading)
            found = work()
            value = math.nan if found is None else float(found)
        except BaseException:  # whatever went wrong in a guessed world stays there
            value = math.nan
        finally:
            try:
                os.write(writing, struct.pack("<d", value))
            finally:
                os._exit(0)
    os.close(writing)
    data = b""
    try:
        while len(data) < 8:
            chunk = os.read(reading, 8 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(reading)
        os.waitpid(pid, 0)
    if len(data) != 8:
        return None
    value = struct.unpack("<d", data)[0]
    return None if math.isnan(value) else value
