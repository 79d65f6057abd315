"""The dead-rule report: which rules of a game simulated matches never saw happen.

A designer needs to know when an action is never offered, an ability never used, a
trigger never fires or a stage is always skipped — it is usually a rule written wrong
(a condition that never holds, an event nothing emits), sometimes a rule that only a
rare position reaches. `cardsmith simulate` counts, per game, how often each rule of
compiler/rulenames.py's catalog was

* **offered** (actions and activated abilities: in how many windows the holder of
  priority had at least one legal way to take it) and **taken**;
* **fired**: a trigger whose `where` held, an event emitted, a keyword whose trigger,
  hook, static, effect or activated ability ran;
* **read** (keywords): a rule asked `has_keyword` / `keyword_value` of a card that has it
  (the only way a keyword with no abilities of its own — Charge, Mounted — works);
* **run**, **skipped** (its `skip:` held) or **passed over** (after `end the turn`) for
  stages and steps.

Counting is a `Tally` the match holds (`PlayedMatch(..., tally=Tally(index))`); a match
without one (the default: play, scenarios, search replicas) pays one `is None` test per
hook and records nothing. A tally never writes to the log, so a tallied match's log is
byte-identical to an untallied one. What a legality probe or a greedy agent's look-ahead
does is rolled back and not counted as fired (`Match.journal` is set then); offers are
counted where the flow makes them, and keyword reads and statics wherever the rules
evaluate them (a read inside a memoised pure function may first happen in a probe).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardsmith.compiler.api import CORE_PATH
from cardsmith.compiler.rulenames import KINDS, Rule, declared_rules
from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.engine.game import CompiledGame

OFFERED = "offered"
TAKEN = "taken"
FIRED = "fired"
READ = "read"
RUN = "run"
SKIPPED = "skipped"
PASSED_OVER = "passed over"
MEASURES = (OFFERED, TAKEN, FIRED, READ, RUN, SKIPPED, PASSED_OVER)

Counts = Counter[tuple[str, str]]  # (rule name, measure) -> how many times


class RuleIndex:
    """From the engine's own keys (an action's name, an ability's handler key, a compiled
    trigger function, a stage's path) to the names of the rules they count for. Built
    once per compiled game (`index_for`), so a hook only looks a key up."""

    def __init__(self, game: CompiledGame) -> None:
        self.rules: list[Rule] = declared_rules(game.ir, CORE_PATH)
        self.actions: dict[str, str] = {}
        # ("card", name, index) / ("keyword", keyword, index) -> the ability's rule (and its keyword's)
        self.abilities: dict[tuple[str, ...], tuple[str, ...]] = {}
        # a compiled trigger, hook or effect function -> the rules it fires (a keyword's
        # trigger fires the trigger and the keyword; its hooks and effects the keyword)
        self.handlers: dict[Any, tuple[str, ...]] = {}
        self.statics: dict[tuple[str, ...], str] = {}  # ("keyword", name, index) -> the keyword's rule
        self.keywords: dict[str, str] = {}
        self.events: dict[str, str] = {}
        self.stages: dict[tuple[str, ...], str] = {}
        for rule in self.rules:
            kind, key = rule.kind, rule.key
            if kind == "action":
                self.actions[key[1]] = rule.name
            elif kind == "ability":
                self.abilities[key] = (rule.name, *((f"keyword {key[1]}",) if key[0] == "keyword" else ()))
            elif kind == "keyword":
                self.keywords[key[1]] = rule.name
            elif kind == "trigger":
                if key[0] == "trigger":
                    handler = game.handlers.get(key)
                elif key[0] == "card":
                    handler = game.card_handler(key[1], key[2])
                else:
                    handler = game.keyword_handler(key[1], key[2])
                of_keyword = (f"keyword {key[1]}",) if key[0] == "keyword" else ()
                if handler is not None:
                    self.handlers[handler] = (*self.handlers.get(handler, ()), rule.name, *of_keyword)
            elif kind == "event":
                self.events[key[1]] = rule.name
            elif kind == "stage":
                self.stages[key[1:]] = rule.name
        for keyword in game.ir.keywords:
            name = self.keywords.get(keyword.name)
            if name is None:
                continue
            for index, ability in enumerate(keyword.abilities):
                if isinstance(ability, ir.Hook | ir.Effect):
                    handler = game.keyword_handler(keyword.name, str(index))
                    if handler is not None:
                        self.handlers[handler] = (name,)
                elif isinstance(ability, ir.Static):
                    self.statics[("keyword", keyword.name, str(index))] = name


@functools.lru_cache(maxsize=16)
def index_for(game: CompiledGame) -> RuleIndex:
    """The rule index of a compiled game (one per game and process)."""
    return RuleIndex(game)


class Tally:
    """The counts of one match (or of several: a tally may be handed to each in turn).

    Its methods are the engine's hooks (flow.py, match.py, runtime.py); `counts` is a
    plain Counter of (rule name, measure), picklable and summed across matches."""

    __slots__ = ("counts", "index")

    def __init__(self, index: RuleIndex) -> None:
        self.index = index
        self.counts: Counts = Counter()

    def offered(self, actions: Iterable[Any]) -> None:
        """A window's moves (flow.Action): each action or ability counts once per window."""
        seen: set[str] = set()
        for action in actions:
            payload = action.payload
            if type(payload) is tuple:
                seen.update(self._names(payload[0]))
        for name in seen:
            self.counts[(name, OFFERED)] += 1

    def taken(self, move: Any) -> None:
        for name in self._names(move):
            self.counts[(name, TAKEN)] += 1

    def _names(self, move: Any) -> tuple[str, ...]:
        if type(move) is str:
            name = self.index.actions.get(move)
            return (name,) if name is not None else ()
        return self.index.abilities.get(tuple(move[2][:3]), ())

    def fired(self, handler: Any) -> None:
        """A compiled trigger (its `where` held), keyword hook or keyword effect ran."""
        for name in self.index.handlers.get(handler, ()):
            self.counts[(name, FIRED)] += 1

    def static(self, key: tuple[str, ...]) -> None:
        """A static ability reached a card (only keywords' statics have a rule)."""
        name = self.index.statics.get(key)
        if name is not None:
            self.counts[(name, FIRED)] += 1

    def read(self, keyword: Any) -> None:
        """A rule found `keyword` on a card (has_keyword, keyword_value)."""
        name = self.index.keywords.get(str(keyword))
        if name is not None:
            self.counts[(name, READ)] += 1

    def emitted(self, event: str) -> None:
        name = self.index.events.get(event)
        if name is not None:
            self.counts[(name, FIRED)] += 1

    def stage(self, scope: str, path: Iterable[str], measure: str) -> None:
        name = self.index.stages.get((scope, *path))
        if name is not None:
            self.counts[(name, measure)] += 1


# ---------------------------------------------------------------- the report


@dataclass
class RuleReport:
    """One rule's counts over all simulated matches, and what they say."""

    kind: str
    name: str
    file: str
    line: int
    counts: dict[str, int]
    excluded: str | None  # the reason its game's `coverage { }` block gives, if listed there

    @property
    def happened(self) -> bool:
        """Did the rule do its work at least once (taken, fired, read, run)?"""
        c = self.counts
        if self.kind in ("action", "ability"):
            return c.get(TAKEN, 0) > 0
        if self.kind == "stage":
            return c.get(RUN, 0) > 0
        return c.get(FIRED, 0) + c.get(TAKEN, 0) + c.get(READ, 0) > 0

    @property
    def verdict(self) -> str:
        """What never happened, in words ("" when the rule did its work)."""
        if self.happened:
            return ""
        c = self.counts
        if self.kind in ("action", "ability"):
            return "never offered" if not c.get(OFFERED) else "offered, never taken"
        if self.kind == "stage":
            if c.get(SKIPPED) and c.get(PASSED_OVER):
                return "never run (skipped or passed over)"
            if c.get(SKIPPED):
                return "never run (always skipped)"
            if c.get(PASSED_OVER):
                return "never run (always passed over after end the turn)"
            return "never reached"
        if self.kind == "keyword" and c.get(OFFERED):
            return "offered, never used"
        return "never fired" if self.kind != "keyword" else "never used"


class CoverageReport:
    """Every rule of a game with its counts over `matches` simulated matches."""

    def __init__(self, game: ir.Game, counts: Counts, matches: int) -> None:
        self.matches = matches
        reasons = {exclusion.rule: exclusion.reason for exclusion in game.coverage}
        self.rules = [RuleReport(rule.kind, rule.name, rule.span.file, rule.span.line,
                                 {m: counts[(rule.name, m)] for m in MEASURES if counts[(rule.name, m)]},
                                 reasons.get(rule.name))
                      for rule in declared_rules(game, CORE_PATH)]

    @property
    def dead(self) -> list[RuleReport]:
        """Rules that never happened and are not excused by the game's `coverage` block."""
        return [r for r in self.rules if not r.happened and r.excluded is None]

    @property
    def excused(self) -> list[RuleReport]:
        """Rules the `coverage` block lists that indeed never happened."""
        return [r for r in self.rules if not r.happened and r.excluded is not None]

    @property
    def stale(self) -> list[RuleReport]:
        """Rules the `coverage` block lists that did happen: the exclusion is out of date."""
        return [r for r in self.rules if r.happened and r.excluded is not None]

    def as_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "rules": [{"kind": r.kind, "name": r.name, "at": f"{r.file}:{r.line}", **{m: r.counts.get(m, 0)
                       for m in measures_of(r.kind)}, "happened": r.happened, "verdict": r.verdict or None,
                       "excluded": r.excluded} for r in self.rules],
            "never": [r.name for r in self.dead],
            "excluded": {r.name: r.excluded for r in self.excused},
            "stale_exclusions": [r.name for r in self.stale],
            "kinds": {kind: {"declared": sum(1 for r in self.rules if r.kind == kind),
                             "never": sum(1 for r in self.dead if r.kind == kind)} for kind in KINDS},
        }


def measures_of(kind: str) -> tuple[str, ...]:
    """The counts that mean something for a kind of rule."""
    if kind in ("action", "ability"):
        return (OFFERED, TAKEN)
    if kind == "keyword":
        return (OFFERED, TAKEN, FIRED, READ)
    if kind == "stage":
        return (RUN, SKIPPED, PASSED_OVER)
    return (FIRED,)

