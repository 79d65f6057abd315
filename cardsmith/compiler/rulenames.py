"""The rules of a game that a simulation can see happen, named as the designer wrote them.

One catalog serves two readers: the checker, which resolves every key of a `coverage { }`
block against it (so an exclusion cannot name a rule that does not exist), and the
engine's dead-rule report (engine/coverage.py), which counts how often each rule was
offered, taken or fired in simulated matches. Both must spell a rule the same way, or an
exclusion copied from the report would not match; that is why the names are made here,
from the IR, and nowhere else.

The scheme (kind, then the designer's own words; quoted names stay quoted):

    action play_unit                       an action
    ability "Watchtower" "Shoot"            an activated ability of a card (card, label)
    ability Ranged "Ranged shot"            an activated ability of a keyword
    keyword Ranged                          a keyword (any of its abilities, or the rules reading it)
    trigger "Banshee" on destroyed          a card's `on` trigger
    trigger Damage on effects_resolve       a keyword's `on` trigger
    trigger on game_started                 a game-level `on` trigger
    event collecting                        an event the game declares (or a core event it reacts to)
    stage combat                            a stage; a step is written with its stage: stage combat.declare

When two rules would get the same name (two `on entered` triggers of one card), the
second is `... 2`, the third `... 3`, in declaration order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardsmith.dsl import ir
from cardsmith.dsl.rulekeys import KINDS, quoted
from cardsmith.dsl.source import Span

__all__ = ["KINDS", "Rule", "declared_rules", "quoted"]

Add = Callable[[str, str, Span, tuple[str, ...]], None]


@dataclass(frozen=True)
class Rule:
    """One rule of the report: its kind, its name (the key a `coverage` block uses), where
    it is declared, and the engine's key for it (see engine/coverage.py)."""

    kind: str
    name: str
    span: Span
    key: tuple[str, ...]


def declared_rules(game: ir.Game, core_file: str) -> list[Rule]:
    """Every rule of the game a played match can offer or fire, in declaration order.

    Events are those the game declares itself, plus the core prelude's events that some
    trigger of the game reacts to (a core event nothing hears is the engine's business,
    not a rule of this game). `core_file`: the prelude's path (compiler.api.CORE_PATH)."""
    rules: list[Rule] = []
    seen: set[str] = set()

    def add(kind: str, name: str, span: Span, key: tuple[str, ...]) -> None:
        unique, n = name, 1
        while unique in seen:
            n += 1
            unique = f"{name} {n}"
        seen.add(unique)
        rules.append(Rule(kind, unique, span, key))

    for action in game.actions:
        add("action", f"action {action.name}", action.span, ("action", action.name))
    for card in game.cards:
        for index, ability in enumerate(card.abilities):
            if isinstance(ability, ir.Activated):
                add("ability", f"ability {quoted(card.name)} {quoted(ability.label)}", ability.span,
                    ("card", card.name, str(index)))
    for keyword in game.keywords:
        if keyword.span.file == core_file:
            continue
        add("keyword", f"keyword {keyword.name}", keyword.span, ("keyword", keyword.name))
        for index, ability in enumerate(keyword.abilities):
            if isinstance(ability, ir.Activated):
                add("ability", f"ability {keyword.name} {quoted(ability.label)}", ability.span,
                    ("keyword", keyword.name, str(index)))
    for i, trigger in enumerate(game.triggers):
        add("trigger", f"trigger on {trigger.event}", trigger.span, ("trigger", str(i)))
    for card in game.cards:
        for index, ability in enumerate(card.abilities):
            if isinstance(ability, ir.Trigger):
                add("trigger", f"trigger {quoted(card.name)} on {ability.event}", ability.span,
                    ("card", card.name, str(index)))
    for keyword in game.keywords:
        for index, ability in enumerate(keyword.abilities):
            if isinstance(ability, ir.Trigger):
                add("trigger", f"trigger {keyword.name} on {ability.event}", ability.span,
                    ("keyword", keyword.name, str(index)))
    heard = {t.event for t in game.triggers}
    heard |= {a.event for c in game.cards for a in c.abilities if isinstance(a, ir.Trigger)}
    heard |= {a.event for k in game.keywords for a in k.abilities if isinstance(a, ir.Trigger)}
    for event in game.events:
        if event.span.file != core_file or event.name in heard:
            add("event", f"event {event.name}", event.span, ("event", event.name))
    for flow in game.flows:
        for stage in flow.stages:
            _stage(add, flow.scope, stage, [])
    return rules


def _stage(add: Add, scope: str, stage: ir.StageDecl, path: list[str]) -> None:
    here = [*path, stage.name]
    add("stage", f"stage {'.'.join(here)}", stage.span, ("stage", scope, *here))
    for step in stage.steps:
        _stage(add, scope, step, here)
