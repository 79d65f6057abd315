"""The rules of a game as a list of named declarations, for comparing two versions.

Each declaration gets a key — its kind and name — so one version's `procedure attack`
is compared with the other's wherever each was written. A turn's stages are keyed by
their path (`combat > declare` for a step), so a stage added to the turn reads `stage
combat: added`; the order of the stages is a rule of its own (`turn: stages ... → ...`).
Scenarios and coverage notes are tests of the rules, not rules: they are not compared.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from cardsmith.dsl import ir

# the game's lists of named declarations and the kind each is called by
_NAMED: tuple[tuple[str, str], ...] = (
    ("expansions", "expansion"), ("params", "param"), ("modes", "mode"), ("enums", "enum"),
    ("counters", "counter"), ("statuses", "status"), ("zones", "zone"), ("boards", "board"),
    ("cardtypes", "card type"), ("keywords", "keyword"), ("events", "event"), ("procedures", "procedure"),
    ("functions", "function"), ("actions", "action"), ("checks", "check"), ("layouts", "layout"),
    ("sheets", "sheet"), ("references", "reference"),
)


@dataclass(frozen=True)
class Rule:
    """One declaration: `node`'s fields are compared except `skip` (compared elsewhere)."""

    kind: str
    name: str
    node: BaseModel
    skip: frozenset[str] = frozenset({"name"})

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.name


class Order(BaseModel):
    """The stages of a flow in order: a node of its own, so a reordering is one change."""

    stages: list[str]


def rules_of(game: ir.Game) -> list[Rule]:
    out = [Rule("game", "", game.game, frozenset())]
    for field, kind in _NAMED:
        out += [Rule(kind, getattr(node, "name", ""), node) for node in getattr(game, field)]
    if game.setup:
        out.append(Rule("setup", "", ir.SetupDecl(span=game.setup[0].span,
                                                  body=[s for block in game.setup for s in block.body])))
    for flow in game.flows:
        kind = "stage" if flow.scope == "turn" else "round stage"
        paths = list(_stages(flow.stages, ""))
        out.append(Rule(flow.scope, "", Order(stages=[p for p, _ in paths])))
        out += [Rule(kind, path, stage, frozenset({"name", "steps"})) for path, stage in paths]
    for name in ("scoring", "heuristic"):
        node = getattr(game, name)
        if node is not None:
            out.append(Rule(name, "", node))
    if game.deck is not None:
        out.append(Rule("deck rules", "", game.deck))
    seen: dict[str, int] = {}
    for hook in game.hooks:
        out.append(Rule("hook", _nth(seen, f"{hook.when} {hook.procedure}"), hook))
    for trigger in game.triggers:
        out.append(Rule("trigger", _nth(seen, f"on {trigger.event}"), trigger))
    return out


def _nth(seen: dict[str, int], name: str) -> str:
    """The second `on turn_start` trigger is `on turn_start #2`."""
    seen[name] = seen.get(name, 0) + 1
    return name if seen[name] == 1 else f"{name} #{seen[name]}"


def _stages(stages: list[ir.StageDecl], parent: str) -> Iterator[tuple[str, ir.StageDecl]]:
    for stage in stages:
        path = f"{parent} > {stage.name}" if parent else stage.name
        yield path, stage
        yield from _stages(stage.steps, path)
