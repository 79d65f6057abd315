"""Two checked versions of a game in, what changed out: card by card, then rule by rule.

The result is data (GameDiff): the CLI prints it as lines a designer reads ("Bone
Archer: cost 3 → 2; attack 1 → 2", "param hand_size: 7 → 8", "stage combat: added") or
as JSON (`to_json`, documented in docs/versions.md), and `build --changed-since` prints
the cards it names. Entries follow the new version's order; what was removed follows,
in the old version's order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from cardsmith.dsl import ir
from cardsmith.versions.cards import card_changes
from cardsmith.versions.rules import Order, Rule, rules_of
from cardsmith.versions.words import ARROW, Change, field_changes

JSON_FORMAT = "cardsmith-diff/1"

Status = Literal["added", "removed", "changed"]
T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    """One card or rule that differs between the versions."""

    kind: str
    name: str
    status: Status
    changes: list[Change] = field(default_factory=list)

    def line(self) -> str:
        head = self.name if self.kind == "card" else " ".join(p for p in (self.kind, self.name) if p)
        if self.status != "changed":
            return f"{head}: {self.status}"
        return f"{head}: " + "; ".join(c.text for c in self.changes)


@dataclass(frozen=True)
class GameDiff:
    cards: list[Entry]
    rules: list[Entry]

    @property
    def empty(self) -> bool:
        return not self.cards and not self.rules

    def changed_cards(self) -> list[str]:
        """The cards an errata sheet prints: changed or new (a removed card prints nothing)."""
        return [e.name for e in self.cards if e.status != "removed"]

    def summary(self) -> dict[str, int]:
        count = {f"cards_{s}": sum(1 for e in self.cards if e.status == s) for s in ("changed", "added", "removed")}
        count |= {f"rules_{s}": sum(1 for e in self.rules if e.status == s) for s in ("changed", "added", "removed")}
        return count


def diff_games(old: ir.Game, new: ir.Game) -> GameDiff:
    cards = _pair(old.cards, new.cards, lambda c: c.name,
                  lambda a, b: card_changes(old, a, new, b), lambda c: ("card", c.name))
    old_rules, new_rules = rules_of(old), rules_of(new)
    rules = _pair(old_rules, new_rules, lambda r: r.key, _rule_changes, lambda r: r.key)
    return GameDiff(cards, rules)


def _pair(old: Sequence[T], new: Sequence[T], key: Callable[[T], Hashable],
          compare: Callable[[T, T], list[Change]], name: Callable[[T], tuple[str, str]]) -> list[Entry]:
    before = {key(x): x for x in old}
    after = {key(x): x for x in new}
    out: list[Entry] = []
    for item in new:
        kind, label = name(item)
        was = before.get(key(item))
        if was is None:
            out.append(Entry(kind, label, "added"))
            continue
        changes = compare(was, item)
        if changes:
            out.append(Entry(kind, label, "changed", changes))
    for item in old:
        if key(item) not in after:
            kind, label = name(item)
            out.append(Entry(kind, label, "removed"))
    return out


def _rule_changes(old: Rule, new: Rule) -> list[Change]:
    if isinstance(old.node, Order) and isinstance(new.node, Order):
        return _order_change(old.node.stages, new.node.stages)
    return field_changes(old.node, new.node, new.skip)


def _order_change(old: list[str], new: list[str]) -> list[Change]:
    """Stages added or removed are entries of their own: only a new order of the stages
    both versions have is a change of the flow."""
    a = [s for s in old if s in new]
    b = [s for s in new if s in old]
    if a == b:
        return []
    before, after = ", ".join(a), ", ".join(b)
    return [Change("stages", before, after, f"stages {before} {ARROW} {after}")]


def to_json(diff: GameDiff, old: str, new: str) -> dict[str, Any]:
    """The documented JSON form (docs/versions.md): stable keys, entries in print order."""
    def entry(e: Entry) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": e.kind, "name": e.name, "status": e.status, "line": e.line()}
        out["changes"] = [{"field": c.field, "old": c.old, "new": c.new, "text": c.text} for c in e.changes]
        return out
    return {"format": JSON_FORMAT, "old": old, "new": new, "summary": diff.summary(),
            "cards": [entry(e) for e in diff.cards], "rules": [entry(e) for e in diff.rules]}
