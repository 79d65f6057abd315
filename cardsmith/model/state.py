"""Match state: players, zones, card instances, counters — slotted and cheap to copy.

The engine never walks the IR at play time; it holds plain runtime objects that the
compiled handlers read and change. Everything a match knows lives here, so a snapshot
is a JSON dump of these objects and a restore rebuilds them exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar

Number = int | Fraction


def normalize(value: Number) -> Number:
    """Exact arithmetic keeps Fractions; a whole Fraction becomes an int again."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


class EnumValue:
    """A value of a game enum, e.g. Border.gold; its properties come from the IR.

    Interned: one object per (enum, name) in a process — made, copied or unpickled — so
    two values are equal exactly when they are the same object, and == and hash are
    Python's own identity ones (no Python call: Kingdom Cards hashed ~140,000 values a
    run, each through a dataclass's __hash__ building a tuple). Immutable, as it was."""

    __slots__ = ("enum", "name")
    enum: str
    name: str
    _interned: ClassVar[dict[tuple[str, str], EnumValue]] = {}  # (a class variable: slots leave it alone)

    def __new__(cls, enum: str, name: str) -> EnumValue:
        value = cls._interned.get((enum, name))
        if value is None:
            value = object.__new__(cls)
            object.__setattr__(value, "enum", enum)
            object.__setattr__(value, "name", name)
            cls._interned[(enum, name)] = value
        return value

    def __setattr__(self, field: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {field!r}")

    def __delattr__(self, field: str) -> None:
        raise AttributeError(f"cannot delete field {field!r}")

    def __reduce__(self) -> tuple[type[EnumValue], tuple[str, str]]:
        return EnumValue, (self.enum, self.name)  # (unpickled through __new__: interned again)

    def __copy__(self) -> EnumValue:
        return self

    def __deepcopy__(self, memo: object) -> EnumValue:
        return self

    def __repr__(self) -> str:
        return f"EnumValue(enum={self.enum!r}, name={self.name!r})"

    def __str__(self) -> str:
        return self.name


class Player:
    __slots__ = ("counters", "eliminated", "index", "name")

    def __init__(self, index: int, name: str, counters: dict[str, Number]) -> None:
        self.index = index          # 0-based seat
        self.name = name
        self.counters = counters
        self.eliminated = False

    @property
    def seat(self) -> int:
        return self.index + 1

    def __repr__(self) -> str:
        return f"<{self.name}>"


class Card:
    """One card instance in play (or in a zone): printed values plus what the match changed."""

    __slots__ = ("attached", "base", "controller", "counters", "definition", "face_down", "host", "id",
                 "modifiers", "name", "owner", "position", "statuses", "type", "zone")

    def __init__(self, cid: int, name: str, ctype: str, owner: Player | None, base: dict[str, Any],
                 counters: dict[str, Number], definition: Any, zone: Zone | None = None) -> None:
        self.id = cid
        self.name = name
        self.type = ctype
        self.owner = owner
        self.controller = owner
        self.base = base                        # printed stats and properties
        self.counters = counters                # per-card counters (damage, ...)
        self.statuses: set[str] = set()
        self.modifiers: list[Modifier] = []     # temporary changes with durations
        self.zone = zone  # (given only where the card is placed there at once: engine/catalogue.py)
        self.host: Card | None = None
        self.attached: list[Card] = []
        self.face_down = False
        self.position: tuple[int, int] | None = None
        self.definition = definition            # the compiled card (abilities, keywords)

    def __repr__(self) -> str:
        return f"<{self.name}#{self.id}>"


class Modifier:
    """A change to a card's field that lapses: until end of turn, while a condition holds, ..."""

    __slots__ = ("condition", "field", "held", "op", "period", "value")

    def __init__(self, field: str, op: str, value: Any, period: str | None, condition: Any) -> None:
        self.field = field
        self.op = op                # "+" or "="
        self.value = value
        self.period = period        # "turn", "round", a stage name, "next:turn", or None
        self.condition = condition  # a callable for `while` durations, or None
        self.held = False           # its `while` has been found true: found false now, it lapses


class Zone:
    """A zone and what it holds. Besides the cards in their order it keeps counts of them —
    per card type, per controller, per (type, controller) — so a query for "a friendly
    unit" or a window's list of activated abilities skips a zone holding none without
    looking at its cards. Match._place and Match.set_attr keep the counts (and their undo
    closures roll them back with the cards); a count may stay at 0."""

    __slots__ = ("cards", "controlled", "held", "name", "ordered", "owner", "title", "types", "visibility")

    def __init__(self, name: str, owner: Player | None, ordered: bool, visibility: str) -> None:
        self.name = name
        self.owner = owner
        self.ordered = ordered
        self.visibility = visibility
        self.cards: list[Card] = []
        # (defaultdicts: a zone is asked for counts it never held, and `counts[key]` reads
        # them without a call)
        self.types: defaultdict[str, int] = defaultdict(int)                        # per card type
        self.controlled: defaultdict[Player | None, int] = defaultdict(int)         # per controller
        self.held: defaultdict[tuple[str, Player | None], int] = defaultdict(int)   # per (type, controller)
        # how the log and every seat name it: written once, as neither part ever changes
        self.title = name if owner is None else f"{name} of {owner.name}"

    def count(self, card: Card, step: int) -> None:
        """Add `card` to the counts (`step` 1) or take it out of them (-1), as it is now:
        called as it enters or leaves `cards`, or around a change of its type or controller."""
        self.types[card.type] += step
        self.controlled[card.controller] += step
        self.held[(card.type, card.controller)] += step

    def __repr__(self) -> str:
        return f"<zone {self.name}{'' if self.owner is None else ' of ' + self.owner.name}>"


def set_counted(card: Card, name: str, value: Any) -> None:
    """Change a card's type or controller — what its zone counts cards by — with the
    counts (Match.set_attr, which journals it)."""
    zone = card.zone
    if zone is None or not any(c is card for c in zone.cards):
        setattr(card, name, value)
        return
    zone.count(card, -1)
    setattr(card, name, value)
    zone.count(card, 1)


def named(value: Any, card_name: Callable[[Card], str]) -> Any:
    """A value in words: a card as `card_name` names it (the log by engine id, a seat by
    its own numbers — engine/seatview.py), a player or zone by name, a list item by item,
    an enum value by its name; anything else as it is."""
    if isinstance(value, Card):
        return card_name(value)
    if isinstance(value, Player):
        return value.name
    if isinstance(value, Zone):
        return value.title
    if isinstance(value, list):
        return [named(v, card_name) for v in value]
    if isinstance(value, EnumValue):
        return value.name
    return value


def log_name(card: Card) -> str:
    """A card as the log (the referee) names it: its name and engine id."""
    return f"{card.name}#{card.id}"


def log_describe(value: Any) -> Any:
    """A value as the log writes it: a card as `Name#id`, a player or zone by name (named,
    with log_name). It reads nothing that changes during a match, so a description may be
    written when it is first read (moves.Action) and say the same. Here, beside the state
    it describes, so the engine's every module can write a log entry without the match."""
    kind = type(value)
    if kind is str or kind is int or value is None or kind is bool:
        return value  # most of what a log entry holds: written as it is
    if kind is Card:
        return f"{value.name}#{value.id}"  # (log_name, in line: the most frequent of the rest)
    if kind is Player or kind is Zone:
        return value.name if kind is Player else value.title
    if kind is list:
        return [log_describe(item) for item in value]
    if kind is EnumValue:  # (an event's enum argument, Combat Cards' section: named's answer, without its tests)
        return value.name
    return named(value, log_name)


def in_words(value: Any) -> str:
    """A value in a rules error as the language writes it (`none`, `true`), not Python."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)
