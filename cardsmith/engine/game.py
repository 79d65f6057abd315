"""A compiled game: the IR's lookup tables plus its handlers, ready for matches.

The compiler checks the game and produces its handlers (compiler/api.py,
compiler/handlers.py); this module only builds the tables the runtime looks things up in
(what each global name is, enum properties, card definitions with their printed values,
who listens to which event). Matches share one CompiledGame; `load` keeps one per game.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardsmith.compiler.actions import option_blind_parameters
from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.handlers import files_key, handlers_for
from cardsmith.compiler.loader import resolve
from cardsmith.compiler.namekinds import global_name_kinds
from cardsmith.compiler.static_eval import NotStatic, StaticEnv, to_runtime
from cardsmith.compiler.symbols import hooked_procedures
from cardsmith.compiler.text import card_text
from cardsmith.dsl import ir
from cardsmith.engine.flow import PlayedMatch
from cardsmith.model.state import EnumValue
from cardsmith.model.values import Dice

# A reaction as events._react walks them: (handler, the zones it reacts from, keyword,
# the card's arguments to it, guard: `trigger_guard`).
Reaction = tuple[Any, list[str], str | None, list[Any] | None, tuple[int, int] | None]


@dataclass
class RegionInfo:
    name: str
    board: str
    cells: set[tuple[int, int]]
    properties: dict[str, Any]


@dataclass
class CardDef:
    """A card as printed: the values every instance starts from, and its abilities."""

    decl: ir.CardDecl
    name: str
    type: str
    base: dict[str, Any]
    keywords: list[tuple[str, list[Any]]]
    copies: int
    text: str
    art: str | None
    flavour: str | None
    token: bool
    abilities: list[tuple[str, ir.Ability]] = field(default_factory=list)
    activated: list[tuple[str, ir.Activated]] = field(default_factory=list)  # those of `abilities`


class CompiledGame:
    def __init__(self, game: ir.Game, key: str | None = None) -> None:
        self.ir = game
        # the decklists (card names) a match deals when it is given none: the composition
        # root fills them (cardsmith/app.py reads the game's decks/ folder); the engine
        # itself never reads decklist files
        self.ready_decks: list[list[str]] = []
        self.source, self.handlers = handlers_for(game, key)
        env = StaticEnv(game)
        self.static = env
        self.counters = {c.name: c for c in game.counters}
        self.zones = {z.name: z for z in game.zones}
        self.statuses = {s.name for s in game.statuses}
        self.keywords = {k.name: k for k in game.keywords}
        self.procedures = {p.name: p for p in game.procedures}
        self.events = {e.name: e for e in game.events}
        self.actions = {a.name: a for a in game.actions}
        # instant actions are offered in every window, whether or not its stage lists them
        self.instant_actions = [a.name for a in game.actions if a.speed == "instant"]
        # actions whose legality does not depend on the answer to their last choice
        self.option_blind = {a.name: lead for a in game.actions if (lead := option_blind_parameters(a)) is not None}
        # actions whose legal combinations the compiler computes without probing (compiler/legality.py)
        self.legality: dict[str, Any] = {a.name: self.handlers[("legal", a.name)] for a in game.actions
                                         if ("legal", a.name) in self.handlers}
        # per action (or ability key), how many of its questions before payment are its
        # parameters (filled as moves are probed: engine/moves.MoveFinder.parameter_count)
        self.parameter_counts: dict[Any, int] = {}
        # the actions (and ability keys) whose cost has been seen to ask a question: taking
        # one first asks those questions (flow._cost_answers); the others skip that probe
        self.asks_while_paying: set[Any] = set()
        self.cardtypes = {t.name: t for t in game.cardtypes}
        self.nouns: dict[str, str | None] = {"card": None, "cards": None}
        for t in game.cardtypes:
            for noun in (t.name.lower(), t.singular.lower(), t.plural.lower()):
                self.nouns[noun] = t.name
        self.value_enum: dict[str, str] = {}
        # an enum value's properties, by (enum, name) and by the value itself (interned: one
        # object per enum and name), which generated code reads without making the pair
        self.enum_props: dict[tuple[str, str] | EnumValue, dict[str, Any]] = {}
        for e in game.enums:
            for v in e.values:
                self.value_enum.setdefault(v.name, e.name)
                props = {k: self._static(x) for k, x in v.properties.items()}
                self.enum_props[(e.name, v.name)] = self.enum_props[EnumValue(e.name, v.name)] = props
        self.card_fields = {f.name for t in game.cardtypes for f in (*t.stats, *t.properties)}
        self.params = {p.name: self._static(p.value) for p in game.params}
        self.boards = {b.name: b for b in game.boards}
        self.regions: dict[str, RegionInfo] = {}
        for b in game.boards:
            for r in b.regions:
                cells: set[tuple[int, int]] = set()
                for rect in r.cells:
                    for x in range(min(rect.start.x, rect.end.x), max(rect.start.x, rect.end.x) + 1):
                        for y in range(min(rect.start.y, rect.end.y), max(rect.start.y, rect.end.y) + 1):
                            cells.add((x, y))
                self.regions[r.name] = RegionInfo(r.name, b.name, cells,
                                                  {k: self._static(v) for k, v in r.properties.items()})
        self.name_kinds = {n: kind for n, (kind, _) in global_name_kinds(game).items()}
        # cards with a `play:` condition: a move may play one only while it holds
        self.play_conditions: dict[str, Any] = {c.name: self.handlers[("card", c.name, "play")]
                                                for c in game.cards if c.play_condition is not None}
        self.cards_by_name: dict[str, CardDef] = {}
        for c in game.cards:
            self.cards_by_name[c.name.lower()] = self._card_def(c)
        # which cards carry static abilities (their own or through a keyword): only those
        # need looking at when a stat is read
        static_keywords = {k.name for k in game.keywords if any(isinstance(a, ir.Static) for a in k.abilities)}
        self.static_cards = {c.name for c in game.cards
                             if any(isinstance(a, ir.Static) for a in c.abilities)
                             or any(k.name in static_keywords for k in c.keywords)}
        # which cards have activated abilities (their own, a printed keyword's, or — when a
        # static grants a keyword that has one — any card): the only ones a window asks
        activated_keywords = {k.name for k in game.keywords if any(isinstance(a, ir.Activated) for a in k.abilities)}
        granted = any(use.name in activated_keywords for c in game.cards for a in c.abilities
                      if isinstance(a, ir.Static) for use in a.grants) or any(
            use.name in activated_keywords for k in game.keywords for a in k.abilities
            if isinstance(a, ir.Static) for use in a.grants)
        self.activated_cards = {c.name for c in game.cards
                                if granted or any(isinstance(a, ir.Activated) for a in c.abilities)
                                or any(k.name in activated_keywords for k in c.keywords)}
        # the activated abilities each keyword gives, with their index (a card's: CardDef.activated):
        # a window lists them for every card in play (engine/offers.py), in the zones a card
        # type enters or public ones (Match._in_play)
        self.entered_zones = {t.enters for t in game.cardtypes if t.enters is not None}
        self.word_nouns: dict[str, str | None] = {}  # `is` words that name a card type (engine/queries.py)
        self.keyword_activations: dict[str, list[tuple[str, ir.Activated]]] = {
            k.name: [(str(i), a) for i, a in enumerate(k.abilities) if isinstance(a, ir.Activated)]
            for k in game.keywords}
        # for each event / procedure, the names of the cards that can react to it (own or
        # keyword triggers) or change it (hooks): an event nobody listens to, or a
        # procedure nobody hooks, then costs one lookup
        self.listeners = _index_cards(game, lambda a: a.event if isinstance(a, ir.Trigger) else None)
        # (by procedure and moment: a call asks for its `before`, `instead` and `after` hooks
        # in turn, and Two Kingdoms' cards hook only `before deal_damage`)
        self.hookers: dict[tuple[str, str], set[str]] = _index_cards(
            game, lambda a: (a.procedure, str(a.when)) if isinstance(a, ir.Hook) else None)
        self._trigger_zones: dict[str, set[str]] = {}
        self._reactions: dict[tuple[str, str], list[Reaction]] = {}
        # procedures that some rule or card hooks (before / instead / after): only a call
        # to one of these needs to look for hooks
        self.hooked = hooked_procedures(game)
        # events some rule, card or keyword reacts to: any other is only logged
        self.heard = {t.event for t in game.triggers} | set(self.listeners)
        # a card's move sets off what hears `left` or `entered`: else natives moves it at once
        self.hears_moves = "left" in self.heard or "entered" in self.heard
        self.bounds = {c.name: (self._static(c.min), self._static(c.max)) for c in game.counters}
        # counters and statuses that return to their start at a moment of the flow
        self.resets: dict[str, list[ir.CounterDecl | ir.StatusDecl]] = {}
        declared: list[ir.CounterDecl | ir.StatusDecl] = [*game.counters, *game.statuses]
        for decl in declared:
            if decl.reset != "never":
                self.resets.setdefault(decl.reset, []).append(decl)
        self.triggers: dict[str, list[tuple[str, Any, ir.Trigger]]] = {}
        self.hooks: dict[str, list[tuple[str, Any, ir.Hook]]] = {}
        for i, trig in enumerate(game.triggers):
            self.triggers.setdefault(trig.event, []).append(("game", self.handlers[("trigger", str(i))], trig))
        for i, hook in enumerate(game.hooks):
            self.hooks.setdefault(hook.procedure, []).append(("game", self.handlers[("hook", str(i))], hook))

    def _static(self, value: ir.Expr | None) -> Any:
        if value is None:
            return None
        if isinstance(value, ir.Dice):
            return Dice(value.count, value.sides)
        if isinstance(value, ir.Dim):
            return value.mm
        try:
            return to_runtime(self.static.eval(value, {}))
        except NotStatic:
            return None

    def _card_def(self, c: ir.CardDecl) -> CardDef:
        ctype = self.cardtypes.get(c.type)
        base: dict[str, Any] = {}
        if ctype is not None:
            for f in (*ctype.stats, *ctype.properties):
                given = c.stats.get(f.name) if f.name in c.stats else c.properties.get(f.name, f.default)
                base[f.name] = self._static(given)
        keywords = [(k.name, [self._static(a) for a in k.args]) for k in c.keywords]
        token = False
        if ctype is not None and ctype.token is not None:
            try:
                token = bool(self.static.eval(ctype.token, {"card": c}))
            except NotStatic:
                token = False
        definition = CardDef(c, c.name, c.type, base, keywords, c.copies, card_text(self.ir, c), c.art, c.flavour,
                             token)
        for i, a in enumerate(c.abilities):
            definition.abilities.append((str(i), a))
            if isinstance(a, ir.Activated):
                definition.activated.append((str(i), a))
        return definition

    def new_match(self, seed: int = 1, decks: list[list[str]] | None = None,
                  players: int | None = None, mode: str | None = None) -> PlayedMatch:
        """A match to play through legal_actions() / apply().

        `decks`: per seat, the card names in deal order; without them, the game's ready
        decks when whoever loaded it gave them (`ready_decks`: cardsmith.app.load deals
        a game's own decks/ folder, seat i the i-th deck, as `cardsmith play` does)."""
        count = players if players is not None else max(2, self.ir.game.players_min)
        if decks is not None and not all(isinstance(d, list | tuple) for d in decks):
            raise TypeError("decks are lists of card names: decklist files are read by cardsmith.app.decks_for")
        if decks is None and self.ready_decks:
            decks = [self.ready_decks[i % len(self.ready_decks)] for i in range(count)]
        return PlayedMatch(self, seed=seed, players=count, mode=mode,
                           decks=[list(d) for d in decks] if decks is not None else None)

    def restore_match(self, snapshot: dict[str, Any]) -> PlayedMatch:
        """The match a `snapshot()` was taken of (replayed from its seed and actions, then
        verified against the state it recorded; ValueError when they differ)."""
        return PlayedMatch.restore(self, snapshot)

    def trigger_zones(self, event: str) -> set[str]:
        """Non-public zones from which a card's trigger on `event` can work: those its
        triggers name, and the zones card types enter (see Match._in_play)."""
        found = self._trigger_zones.get(event)
        if found is None:
            found = {t.enters for t in self.ir.cardtypes if t.enters is not None}
            abilities = [a for c in self.ir.cards for a in c.abilities]
            abilities += [a for k in self.ir.keywords for a in k.abilities]
            for ability in abilities:
                if isinstance(ability, ir.Trigger) and ability.event == event:
                    found.update(ability.zones)
            self._trigger_zones[event] = found
        return found

    def reactions(self, event: str, card_name: str) -> list[Reaction]:
        """A card's triggers on `event` — its own, then its keywords' — as (handler, the
        zones it reacts from, keyword, the card's arguments to it, its guard: `trigger_guard`);
        built once per pair."""
        key = (event, card_name)
        found = self._reactions.get(key)
        if found is None:
            found = []
            definition = self.cards_by_name.get(card_name.lower())
            if definition is not None:
                for index, ability in definition.abilities:
                    if isinstance(ability, ir.Trigger) and ability.event == event:
                        found.append((self.card_handler(card_name, index), ability.zones, None, None,
                                      trigger_guard(ability, self.events.get(event), None)))
                for keyword, kargs in definition.keywords:
                    kw = self.keywords.get(keyword)
                    for index_k, kw_ability in enumerate(kw.abilities if kw is not None else []):
                        if isinstance(kw_ability, ir.Trigger) and kw_ability.event == event:
                            found.append((self.keyword_handler(keyword, str(index_k)), kw_ability.zones, keyword,
                                          kargs, trigger_guard(kw_ability, self.events.get(event), kw)))
            self._reactions[key] = found
        return found

    def card_handler(self, card_name: str, index: str, *suffix: str) -> Any:
        return self.handlers.get(("card", card_name, index, *suffix))

    def keyword_handler(self, keyword: str, index: str, *suffix: str) -> Any:
        return self.handlers.get(("keyword", keyword, index, *suffix))

    def activation_handler(self, key: tuple[str, ...]) -> Any:
        """An activated ability's compiled decision, by its key: ("card", name, index) or
        ("keyword", keyword, index, use) — the use says which of the card's keyword uses
        it runs for, and is not part of the handler's own key."""
        return self.handlers[key[:3]]


def trigger_guard(trigger: ir.Trigger, event: ir.EventDecl | None,
                  keyword: ir.KeywordDecl | None) -> tuple[int, int] | None:
    """The test a trigger's condition opens with when it is `<event parameter> == self` or
    `<event parameter> == <keyword parameter>` (either way round, or the first operand of
    an `and`): (the event argument's position, the keyword argument's position or -1 for
    self). The reacting loop (events._react) tests it before making the trigger's context
    and generator: most triggers that hear an event are not about this card or this
    section (Combat Cards' `on effects_resolve(part) where part == section`: three calls
    in four end at once). Names are bound as the compiled trigger binds them (codegen
    `trigger`): its bindings, then the event's other parameters, over the keyword's."""
    condition = trigger.condition
    while isinstance(condition, ir.Logic) and condition.op == "and":
        condition = condition.left
    if not (isinstance(condition, ir.Compare) and condition.op == "=="
            and isinstance(condition.left, ir.Ref) and isinstance(condition.right, ir.Ref)):
        return None
    params = [p.name for p in event.params] if event is not None else []
    names = list(trigger.bindings) + params[len(trigger.bindings):]
    karg_names = [p.name for p in keyword.params] if keyword is not None else []
    for one, other in ((condition.left.name, condition.right.name), (condition.right.name, condition.left.name)):
        if one not in names or other in names:
            continue
        # (the last of two equal names is the one the compiled trigger's unpacking keeps)
        position = len(names) - 1 - names[::-1].index(one)
        if other == "self" and "self" not in karg_names:
            return (position, -1)
        if other in karg_names:
            return (position, len(karg_names) - 1 - karg_names[::-1].index(other))
    return None


K = TypeVar("K")  # (an index's key: an event's name, a procedure and moment)


def _index_cards(game: ir.Game, key: Callable[[Any], K | None]) -> dict[K, set[str]]:
    """key(ability) → the names of the cards having such an ability, themselves or
    through one of their keywords."""
    by_keyword = {k.name: {x for a in k.abilities if (x := key(a)) is not None} for k in game.keywords}
    index: dict[K, set[str]] = {}
    for card in game.cards:
        keys = {x for a in card.abilities if (x := key(a)) is not None}
        for use in card.keywords:
            keys |= by_keyword.get(use.name, set())
        for k in keys:
            index.setdefault(k, set()).add(card.name)
    return index


_CACHE: dict[tuple[str, str, str], CompiledGame] = {}


def load(target: str, fresh: bool = False, checked: ir.Game | None = None) -> CompiledGame:
    """Check and compile a game (by path or library name); cached per process and on disk.
    The process's cache is keyed by the name given, where it was given (a relative name's
    spans, and so its ready decks, are read from the working folder) and the files'
    contents: `play mygame` from two folders, or after an edit, never gets the other game.
    `fresh`: compile again even so, from `checked` (the game just checked) when given."""
    key = files_key(resolve(target))
    where = (os.getcwd(), target, key)
    if fresh or where not in _CACHE:
        _CACHE[where] = CompiledGame(checked or load_game_ir(target), key)
    return _CACHE[where]
