"""The symbol table of a game: every declared name, by namespace.

Built once from the assembled IR; the checker, the deck checker and later back ends
resolve names through it, so "what does this word mean here" has one answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardsmith.compiler.namekinds import NAME_PARAM_TYPES
from cardsmith.dsl import ir

CARD_BUILTINS = {
    "name": "text", "type": "cardtype", "owner": "player", "controller": "player", "zone": "zone",
    "host": "card", "attached": "cards", "position": "cell", "keywords": "list", "copies": "number",
    "rules_text": "text", "art": "text", "flavour": "text", "face_down": "bool", "id": "number",
}
PLAYER_BUILTINS = {
    "name": "text", "index": "number", "opponents": "players", "eliminated": "bool",
    "seat": "number",
}
ZONE_BUILTINS = {"cards": "cards", "size": "number", "owner": "player", "name": "text", "top": "card",
                 "bottom": "card"}
# Names every rule may read. (`deck` and a deck's `let` names are not among them: only
# inside the `deck { }` rules, whose checker binds them, so a zone may be named `deck`.)
GLOBAL_BUILTINS = {
    "you": "player", "opponent": "player", "current": "player", "players": "players",
    "self": "card", "turn_number": "number", "round_number": "number",
    "winner": "player", "none": "none", "mode": "text",
    "player_count": "number",
    "player1": "player", "player2": "player", "player3": "player", "player4": "player",
    "player5": "player", "player6": "player", "it": "card", "game_over": "bool", "drawn": "bool",
    "active_player": "player",
}
QUERY_ADJECTIVES = {"friendly", "enemy", "other", "token", "tokens", "attached", "unattached",
                    "face_down", "face_up"}
# `until end of X` / `until your next X`: the turn, the round, or a stage or step by name.
# (`until end of game` is rejected: it only repeats `permanently`.)
PERIODS = {"turn", "round"}

# core prelude phrases that drive a scenario's played flow: errors anywhere else
SCENARIO_STATEMENTS = {"pass_priority", "everyone_passes", "run_stage"}

# Result types of the engine's native functions (first and last: see native_result).
FUNCTION_RESULTS = {
    "count": "number", "sum": "number", "min": "number", "max": "number", "any": "bool",
    "size": "number", "values": "list", "abs": "number",
    "floor": "number", "ceil": "number", "distance": "number", "cell": "cell", "position": "cell",
    "card_at": "card", "has_keyword": "bool", "keyword_value": "number", "opponents": "players",
    "next_player": "player", "create": "card", "in_region": "bool", "catalog": "list",
    "rank": "number", "copies_of": "number", "cells": "list",
}
# Natives whose result is one of their argument's items: typed by what the argument holds.
ITEM_RESULTS = {"first", "last"}
# what one item of each kind of collection is ("list": items of any kind)
ITEM_TYPES = {"cards": "card", "zone": "card", "players": "player", "card": "card", "player": "player"}


def native_result(name: str, args: list[str]) -> str:
    """The result type of an engine function, given its arguments' types: `first(xs)` is
    a card of cards, a player of players, and unknown ("any") of a list whose items the
    checker does not track; `min`/`max` of text are text."""
    if name in ITEM_RESULTS:
        return ITEM_TYPES.get(args[0], "any") if args else "any"
    if name in ("min", "max") and args and all(t == "text" for t in args):
        return "text"
    return FUNCTION_RESULTS.get(name, "any")


# Every type a parameter or param may declare: value types and the name types.
TYPE_NAMES = {"number", "text", "bool", "player", "players", "card", "cards", "zone", "dice", "cardname",
              "list", "any", "none", "cell", "cardtype"} | NAME_PARAM_TYPES


@dataclass
class Symbols:
    game: ir.Game
    cards: dict[str, ir.CardDecl] = field(default_factory=dict)
    cardtypes: dict[str, ir.CardTypeDecl] = field(default_factory=dict)
    nouns: dict[str, str | None] = field(default_factory=dict)
    enums: dict[str, ir.EnumDecl] = field(default_factory=dict)
    enum_values: dict[str, list[str]] = field(default_factory=dict)
    counters: dict[str, ir.CounterDecl] = field(default_factory=dict)
    statuses: dict[str, ir.StatusDecl] = field(default_factory=dict)
    zones: dict[str, ir.ZoneDecl] = field(default_factory=dict)
    boards: dict[str, ir.BoardDecl] = field(default_factory=dict)
    regions: dict[str, str] = field(default_factory=dict)
    region_decls: list[ir.RegionDecl] = field(default_factory=list)
    keywords: dict[str, ir.KeywordDecl] = field(default_factory=dict)
    events: dict[str, ir.EventDecl] = field(default_factory=dict)
    procedures: dict[str, ir.ProcedureDecl] = field(default_factory=dict)
    functions: dict[str, ir.FunctionDecl] = field(default_factory=dict)
    actions: dict[str, ir.ActionDecl] = field(default_factory=dict)
    layouts: dict[str, ir.LayoutDecl] = field(default_factory=dict)
    params: dict[str, ir.ParamDecl] = field(default_factory=dict)
    stages: set[str] = field(default_factory=set)
    card_stats: dict[str, str] = field(default_factory=dict)
    card_props: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, game: ir.Game) -> Symbols:
        s = cls(game)
        s.cards = {c.name.lower(): c for c in game.cards}
        s.cardtypes = {t.name: t for t in game.cardtypes}
        s.nouns = {"card": None, "cards": None}
        for t in game.cardtypes:
            for noun in (t.name.lower(), t.singular.lower(), t.plural.lower()):
                s.nouns[noun] = t.name
            for f in t.stats:
                s.card_stats.setdefault(f.name, f.type)
            for f in t.properties:
                s.card_props.setdefault(f.name, f.type)
        s.enums = {e.name: e for e in game.enums}
        for e in game.enums:
            for v in e.values:
                s.enum_values.setdefault(v.name, []).append(e.name)
        s.counters = {c.name: c for c in game.counters}
        s.statuses = {st.name: st for st in game.statuses}
        s.zones = {z.name: z for z in game.zones}
        s.boards = {b.name: b for b in game.boards}
        for b in game.boards:
            for r in b.regions:
                s.regions.setdefault(r.name, b.name)
                s.region_decls.append(r)
        s.keywords = {k.name: k for k in game.keywords}
        s.events = {e.name: e for e in game.events}
        s.procedures = {p.name: p for p in game.procedures}
        s.functions = {f.name: f for f in game.functions}
        s.actions = {a.name: a for a in game.actions}
        s.layouts = {layout.name: layout for layout in game.layouts}
        s.params = {p.name: p for p in game.params}
        for flow in game.flows:
            for stage in flow.stages:
                s.stages.add(stage.name)
                s.stages.update(step.name for step in stage.steps)
        return s

    def card_field_type(self, name: str) -> str | None:
        if name in CARD_BUILTINS:
            return CARD_BUILTINS[name]
        if name in self.card_stats:
            return _field_type(self.card_stats[name], self)
        if name in self.card_props:
            return _field_type(self.card_props[name], self)
        counter = self.counters.get(name)
        if counter is not None and counter.scope == "card":
            return "number"
        if name in self.statuses:
            return "bool"
        return None

    def card_field_names(self) -> list[str]:
        names = list(CARD_BUILTINS) + list(self.card_stats) + list(self.card_props)
        names += [c.name for c in self.game.counters if c.scope == "card"]
        names += list(self.statuses)
        return names

    def player_field_type(self, name: str) -> str | None:
        if name in PLAYER_BUILTINS:
            return PLAYER_BUILTINS[name]
        counter = self.counters.get(name)
        if counter is not None and counter.scope == "player":
            return "number"
        zone = self.zones.get(name)
        if zone is not None and zone.scope == "player":
            return "zone"
        return None

    def player_field_names(self) -> list[str]:
        names = list(PLAYER_BUILTINS)
        names += [c.name for c in self.game.counters if c.scope == "player"]
        names += [z.name for z in self.game.zones if z.scope == "player"]
        return names


def _field_type(declared: str, symbols: Symbols) -> str:
    if declared in symbols.enums:
        return f"enum:{declared}"
    return declared if declared in TYPE_NAMES else "any"


def hooked_procedures(game: ir.Game) -> set[str]:
    """Procedures some rule, card or keyword hooks (before / instead / after): only a call
    to one of these can be changed by something in play, so only these go through the
    engine's hook lookup (codegen calls every other one straight)."""
    hooked = {h.procedure for h in game.hooks}
    for abilities in [c.abilities for c in game.cards] + [k.abilities for k in game.keywords]:
        hooked.update(a.procedure for a in abilities if isinstance(a, ir.Hook))
    return hooked
