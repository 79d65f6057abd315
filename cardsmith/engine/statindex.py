"""A zone's cards of a type by the value of one stat, per state version: `all figures in
kingdom of p where it.value == v` answered by one look-up instead of a scan.

Mixed into Match. The generated rules (compiler/codegen_index.py) ask `m.stat_cards` for a
query whose whole condition is `it.<stat> == <variable>` on a stat no static ability
changes: Kingdom Cards' `value_taken`, `group_cards` and `group_fits` ask it of a kingdom
~10 times a decision window with one value after another, and each asked it by a scan of
every card there. The table of one zone, type and stat is made once per state version
(it reads what the scan read: a card's printed or set stat, or card_stat's answer for a
card an effect modifies) and kept in the match's memo beside the remembered functions.

The answer is the scan's — the cards whose stat equals the value, in the zone's order —
wherever it is given: only when every such card's stat and the value are of one kind that
`values.equal` compares as Python's `==` does (int, text, an interned enum value). For
anything else (a value of another kind, a stat that raised an error, a zone that is not
one) it is None, and the generated code scans as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Zone
from cardsmith.model.values import EQ_BY_PYTHON

if TYPE_CHECKING:
    from cardsmith.engine.game import CompiledGame

_STAT_TABLE = "stat table"  # (its key in m.memo: no remembered function's key has a text there)
_NONE: tuple[Card, ...] = ()
_UNUSABLE = (None, None)  # a table that cannot answer: the scan runs


class StatIndex:
    """Mixed into Match: a zone's cards of a type by one stat's value (see above)."""

    game: CompiledGame
    memo: dict[Any, Any]
    version: int
    _in_statics: bool

    def stat_cards(self, zone: Any, type_name: str, stat: str, value: Any) -> list[Card] | tuple[Card, ...] | None:
        """The cards of `type_name` in `zone` whose `stat` equals `value`, in the zone's
        order (a list the caller must not change: the table's own), or None where the
        table cannot answer and the caller scans."""
        kind, table = self._table_of(zone, type_name, stat)
        if table is None:
            return None
        if kind is None:
            return _NONE  # (no card of the type there: none)
        return table.get(value, _NONE) if type(value) is kind else None

    def stat_cards_of(self, zone: Any, type_name: str, stat: str,
                      value: Callable[[], Any]) -> list[Card] | tuple[Card, ...] | None:
        """stat_cards for a value computed by `value()` (`low.value + 1`), asked only when the
        zone holds a card of the type whose stats could all be read: where the scan it
        replaces would first have asked it (so an error it raises is raised as before)."""
        kind, table = self._table_of(zone, type_name, stat)
        if table is None:
            return None
        if kind is None:
            return _NONE
        asked = value()
        return table.get(asked, _NONE) if type(asked) is kind else None

    def _table_of(self, zone: Any, type_name: str, stat: str) -> tuple[Any, dict[Any, list[Card]] | None]:
        """The zone's table for (type, stat) in this state version, made on first asking
        (_UNUSABLE for anything but a plain zone: the caller scans)."""
        if type(zone) is not Zone:
            return _UNUSABLE
        key = (self.version, self._in_statics, _STAT_TABLE, zone, type_name, stat)
        found: tuple[Any, dict[Any, list[Card]] | None] | None = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._stat_table(zone, type_name, stat)
        return found

    def _stat_table(self, zone: Zone, type_name: str, stat: str) -> tuple[Any, dict[Any, list[Card]] | None]:
        """(the kind of every value, value → cards), (None, {}) for a zone without a card of
        the type, or _UNUSABLE."""
        match: Any = self  # (a Match: this is mixed into it)
        table: dict[Any, list[Card]] = {}
        kind: Any = None
        for card in zone.cards:
            if card.type != type_name:
                continue
            try:
                value = card.base[stat] if not card.modifiers and stat in card.base else rt.card_stat(match, card, stat)
            except Exception:  # (a rules error, or any: the scan raises it, or not, as it reaches the card)
                return _UNUSABLE
            if type(value) is not kind:
                if kind is not None or type(value) not in EQ_BY_PYTHON:
                    return _UNUSABLE
                kind = type(value)
            same = table.get(value)
            if same is None:
                table[value] = [card]
            else:
                same.append(card)
        return kind, table
