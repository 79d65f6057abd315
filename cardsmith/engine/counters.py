"""Counters: their bounds, and the journaled setters every counter change goes through.

Mixed into Match. A player's, the table's (shared) or a card's counter is clamped to
its declared bounds as it is set; a change is logged and journaled (so a probed move
rolls it back), and setting a counter to the value it has is no change at all. These
are the hottest changes a match makes (several an action), so each setter makes its
change, new state version and inverse in line rather than through `undoable`, and
writes the inverse only while probing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Number, Player, log_describe, normalize

if TYPE_CHECKING:
    from collections.abc import Iterator

    from cardsmith.engine.game import CompiledGame


class Counters:
    """Mixed into Match: counters' bounds, reads and journaled changes."""

    game: CompiledGame
    shared: dict[str, Any]
    journal: list[Callable[[], None]] | None
    log: list[dict[str, Any]]
    version: int
    _versions: Iterator[int]

    def _bounds(self, name: str) -> tuple[Any, Any]:
        return self.game.bounds.get(name, (None, None))

    def _clamp(self, name: str, value: Any) -> Any:
        bounds = self.game.bounds.get(name)
        if type(value) is int:  # (the common case, in line: a plain int needs no normalizing)
            if bounds is None:
                return value
            low, high = bounds
            if low is not None and value < low:
                value = low
            if high is not None and value > high:
                value = high
            return value if type(value) is int else normalize(value)
        low, high = bounds if bounds is not None else (None, None)
        if isinstance(value, int) or hasattr(value, "denominator"):
            if low is not None and value < low:
                value = low
            if high is not None and value > high:
                value = high
        return normalize(value) if isinstance(value, int) or hasattr(value, "denominator") else value

    def get_counter(self, owner: Player | None, name: str) -> Any:
        if owner is None:
            return self.shared.get(name, 0)
        return owner.counters.get(name, 0)

    def set_counter(self, owner: Player | None, name: str, value: Any) -> None:
        # (_clamp's int case in line: an int within its bounds, or with none, is itself)
        if type(value) is not int or ((b := self.game.bounds.get(name)) is not None and (
                (b[0] is not None and value < b[0]) or (b[1] is not None and value > b[1]))):
            value = self._clamp(name, value)
        table: dict[str, Any] = self.shared if owner is None else owner.counters
        had, old = name in table, table.get(name)
        if had and type(old) is type(value) and old == value:
            return  # not a change: nothing to log, journal or re-check
        table[name] = value
        self.version = next(self._versions)
        if self.journal is not None:
            def undo() -> None:
                if had:
                    table[name] = old
                else:
                    table.pop(name, None)
            self.journal.append(undo)
        self.log.append({"player": log_describe(owner), "counter": name,  # (as record writes it)
                         "value": value if type(value) is int else rt._plain(value), "event": "counter"})

    def set_card_counter(self, card: Card, name: str, value: Number) -> None:
        counters = card.counters
        old = counters.get(name, 0)
        # (_clamp's int case in line: an int within its bounds, or with none, is itself)
        if type(value) is not int or ((b := self.game.bounds.get(name)) is not None and (
                (b[0] is not None and value < b[0]) or (b[1] is not None and value > b[1]))):
            value = self._clamp(name, value)
        if name in counters and type(old) is type(value) and old == value:
            return  # not a change
        counters[name] = value
        self.version = next(self._versions)
        if self.journal is not None:
            self.journal.append(lambda: counters.__setitem__(name, old))
        self.log.append({"card": f"{card.name}#{card.id}", "counter": name,  # (as record writes it)
                         "value": value if type(value) is int else rt._plain(value), "event": "counter"})
