"""A match of a compiled game: state, the running program, the log.

The match runs compiled handlers (generators). When one yields a decision request the
match either answers it (scenario scripts, the default policy) or, in a played match,
pauses and offers it as legal actions. Every roll, shuffle, move and change is logged;
the RNG is seeded per match, so the same seed and answers give the same log.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.engine.game import CompiledGame, to_runtime
from cardsmith.engine.state import Card, Number, Player, Zone, named, normalize
from cardsmith.engine.turnorder import TurnOrder

if TYPE_CHECKING:
    from cardsmith.engine.coverage import Tally

MAX_STEPS = 200_000
MAX_DEPTH = 200
# Functions and unhooked procedures call each other directly: one that calls itself without
# end runs out of Python's stack, and that is reported as this, at the last line run.
ENDLESS = "a rule calls itself without end"


def _log_name(card: Card) -> str:
    """A card as the log (the referee) names it: its name and engine id."""
    return f"{card.name}#{card.id}"


def _offers(request: rt.Choose, wanted: Any) -> bool:
    """Is a scripted answer among a choice's options (that object, or equal as rules mean)?"""
    return any(wanted is option or rt.same(wanted, option) for option in request.options)


@dataclass
class ScenarioResult:
    name: str
    passed: bool
    message: str
    file: str
    line: int
    log_size: int


class Match(TurnOrder):
    flow_started = False  # a scenario running on the played flow (engine/scenario_flow.py)
    reports_expectations = False  # a failed `expect` raised inside the flow fails a scenario
    def __init__(self, game: CompiledGame, seed: int = 1, players: int | None = None, mode: str | None = None,
                 decks: list[list[str]] | None = None) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        count = players if players is not None else game.ir.game.players_min
        self.params = dict(game.params)
        # no mode named: the first declared mode that allows this many players (docs/language.md)
        self.mode = mode if mode is not None else ir.default_mode(game.ir, count)
        mode = self.mode
        if mode is not None:
            for m in game.ir.modes:
                if m.name == mode:
                    for key, value in m.overrides.items():
                        self.params[key] = game._static(value)
        self.players = [Player(i, f"player{i + 1}", self._initial_counters("player")) for i in range(count)]
        self.shared: dict[str, Any] = {c.name: self._start(c) for c in game.ir.counters if c.scope == "shared"}
        self.zones: dict[tuple[str, int], Zone] = {}
        self.capped_zones = {z.name for z in game.ir.zones if z.capacity is not None}  # see room_in
        for z in game.ir.zones:
            if z.scope == "shared":
                self.zones[(z.name, -1)] = Zone(z.name, None, z.ordered, z.visibility)
            else:
                for p in self.players:
                    self.zones[(z.name, p.index)] = Zone(z.name, p, z.ordered, z.visibility)
        self.current: Player | None = self.players[0] if self.players else None
        self.turn_number = 1
        self.round_number = 1
        self.over = False
        self.drawn = False
        self.winner: Player | None = None
        self.winners: list[Player] = []
        self.next_id = 1
        self.steps = 0
        self.last_line = 0
        self.depth = 0
        self.log: list[dict[str, Any]] = []
        self.script: list[Any] = []
        # While probing whether an action is legal, every change records its inverse here,
        # so an illegal attempt is rolled back in place (objects keep their identity).
        self.journal: list[Callable[[], None]] | None = None
        # Every change to the state takes a new, never reused version number (rolled back
        # with the change), so "same version" means "same state": rt.memo keys remembered
        # function results by it.
        self._versions = itertools.count(1)
        self.version = 0
        self.memo: dict[Any, Any] = {}
        # how many times each player took each action this turn (for an action's `limit`)
        self.taken: dict[tuple[str, int], int] = {}
        # the periods some modifier lapses at: expiring any other period is a no-op
        self.periods_in_use: set[str] = set()
        self.whiles_in_use = False  # some `while cond` change was made: the checks look at them
        self.rolls_pending: list[int] = []  # totals rolled by the running statement
        # while probing a move: (action, actor seat, answers so far), and the options of
        # the choices reached (see rt.probed_options)
        self.probe_path: tuple[Any, ...] | None = None
        self.probe_cache: dict[Any, list[Any]] = {}
        self._checked: tuple[Any, ...] | None = None
        self.removed_cards = 0  # taken out of the game on purpose (not lost: see check_invariants)
        self._rng_saved_for: list[Callable[[], None]] | None = None
        self.decks = decks
        # effects of stack-speed actions waiting to resolve, last in first out
        # a scenario's stack: each waiting effect with the scripted answers left for it
        self.stack_programs: list[tuple[str, Generator[Any, Any, Any], list[Any], int]] = []
        # in a played match, who put each waiting effect on the stack (by id of its program)
        self.stack_owners: dict[int, Player] = {}
        # the card of each activated ability waiting on the stack (by id of its program)
        self.stack_sources: dict[int, Card] = {}
        # every card shown with `reveal`: its name, where it was, and to whom (None: everyone)
        self.reveals: list[tuple[str, Any, Player | None]] = []
        self.script_line = 0  # the scenario line whose `choosing` answers are in self.script
        self.scenario_line = 0  # the scenario statement running (set by the compiled scenario)
        self.empty_choice: rt.Choose | None = None  # the last choice that had no option (it fizzled)
        self._in_statics = False
        self._statics_cache: list[tuple[Card, ir.Static, tuple[str, ...], rt.Ctx]] | None = None
        self._statics_index: tuple[list[Any], dict[str, list[Any]]] | None = None
        self.flow_active = False          # a PlayedMatch runs the turn structure itself
        self.allow_lost = False
        self.end_turn_requested = False
        self.end_stage_requested = False
        self.turn_player: Player | None = None  # whose turn's stages the played flow runs (None: none)
        self.stage_name: str | None = None  # the stage (or step) running; None in setup
        # the dead-rule report's counts (engine/coverage.py); None: nothing is counted
        self.tally: Tally | None = None
        self.init_turn_order()

    # ---------------------------------------------------------------- setup helpers
    def _start(self, decl: Any) -> Any:
        value = self.game._static(decl.start)
        return 0 if value is None else value

    def _initial_counters(self, scope: str) -> dict[str, Any]:
        return {c.name: self._start(c) for c in self.game.ir.counters if c.scope == scope}

    # ---------------------------------------------------------------- bookkeeping
    def step(self, line: int) -> None:
        self.steps += 1
        self.last_line = line
        if self.steps > MAX_STEPS:
            raise rt.RulesError(f"the rules did not finish after {MAX_STEPS:,} steps "
                                f"(last at line {line}): a rule loops without end")

    def record(self, kind: str, **data: Any) -> None:
        self.log.append({"event": kind, **data})

    def describe(self, value: Any) -> Any:
        """A value as the log writes it: a card as `Name#id`, a player or zone by name."""
        kind = type(value)
        if kind is str or kind is int or value is None or kind is bool:
            return value  # most of what a log entry holds: written as it is
        return named(value, _log_name)

    # ---------------------------------------------------------------- zones and cards
    def zone(self, name: str, owner: Player | None) -> Zone:
        decl = self.game.zones.get(name)
        if decl is None:
            raise rt.RulesError(f"unknown zone {name!r}")
        key = (name, -1 if decl.scope == "shared" else (owner.index if owner is not None else 0))
        return self.zones[key]

    def all_cards(self) -> list[Card]:
        return [c for z in self.zones.values() for c in z.cards]

    def create_card(self, name: str, zone: Any, owner: Player | None, top: bool = True) -> Card:
        """A new card; in an ordered zone it goes on top, as a moved card does (`top`
        False: at the bottom, for decklists dealt in their listed order)."""
        definition = self.game.cards_by_name.get(name.lower())
        if definition is None:
            raise rt.RulesError(f"there is no card named {name!r}")
        card = Card(self.next_id, definition.name, definition.type, owner, dict(definition.base),
                    self._initial_counters("card"), definition)
        self.next_id += 1
        if isinstance(zone, Zone) and not self.room_in(zone, card):
            # made, but there is no room for it: it stays out of the game
            self.removed_cards += 1
            self.undoable(self._unremove)
            return card
        if isinstance(zone, Zone):
            self._place(card, zone, top=top and zone.ordered)
        self.record("create", card=self.describe(card), zone=self.describe(zone))
        return card

    def room_in(self, zone: Zone, card: Card) -> bool:
        """Is there room for `card` in `zone`? A zone declared with a `capacity` holds no
        more cards than that (read as the card goes in); a card that would go into a full
        zone stays where it was, logged `zone_full` — a normal game situation, not an error."""
        if zone.name not in self.capped_zones:
            return True
        capacity = self.game.handlers[("zone", zone.name, "capacity")](self, rt.Ctx(zone.owner or self.current, None))
        if len(zone.cards) < rt.whole(self, capacity):
            return True
        self.record("zone_full", card=self.describe(card), zone=self.describe(zone))
        return False

    def _place(self, card: Card, zone: Zone | None, top: bool) -> None:
        self._statics_cache = None
        old_zone = card.zone
        old_index = old_zone.cards.index(card) if old_zone is not None and card in old_zone.cards else None
        if old_zone is not None and old_index is not None:
            old_zone.cards.pop(old_index)
        if zone is not None:
            if top:
                zone.cards.insert(0, card)
            else:
                zone.cards.append(card)
        card.zone = zone

        def undo() -> None:
            self._statics_cache = None
            if zone is not None and card in zone.cards:
                zone.cards.remove(card)
            if old_zone is not None and old_index is not None:
                old_zone.cards.insert(old_index, card)
            card.zone = old_zone
        self.undoable(undo)

    def is_token(self, card: Card) -> bool:
        return bool(card.definition is not None and card.definition.token)

    def keywords_of(self, card: Card) -> list[tuple[str, list[Any]]]:
        """Printed keywords plus those granted by statics (`grants: Alert`) of cards in play."""
        found = list(card.definition.keywords) if card.definition is not None else []
        if self._in_statics:
            return found
        for source, ability, key, ctx in self._statics():
            if ability.grants and self._static_applies(card, source, ability, key, ctx):
                found.extend((use.name, [self.game._static(a) for a in use.args]) for use in ability.grants)
        return found

    def effective(self, card: Card, field: str) -> Any:
        """A card's current value of a stat or property: printed, changed, modified."""
        value = card.base.get(field)
        if card.modifiers:
            for mod in card.modifiers:
                if mod.field != field:
                    continue
                if mod.condition is not None and not rt.truth(mod.condition()):
                    continue
                value = mod.value if mod.op == "=" else rt.arith("+", value, mod.value)
        if self._in_statics or not self.game.static_cards:
            return value  # a static's own target or condition is read without statics
        for source, ability, key, ctx, i, static_mod in self._field_statics(field):
            if not self._static_applies(card, source, ability, key, ctx):
                continue
            self._in_statics = True
            try:
                amount = self._static_call(key, ("modifier", str(i)), ctx)
            finally:
                self._in_statics = False
            value = amount if static_mod.op == "=" else rt.arith(static_mod.op, value, amount)
        return value

    def _field_statics(self, field: str) -> Any:
        """The static modifiers in play that change `field`, in the order they apply."""
        found = self._statics()
        index = self._statics_index
        if index is None or index[0] is not found:
            by_field: dict[str, list[Any]] = {}
            for source, ability, key, ctx in found:
                for i, static_mod in enumerate(ability.modifiers):
                    by_field.setdefault(static_mod.stat, []).append((source, ability, key, ctx, i, static_mod))
            index = self._statics_index = (found, by_field)
        return index[1].get(field, ())

    def _static_applies(self, card: Card, source: Card, ability: ir.Static, key: tuple[str, ...],
                        ctx: rt.Ctx) -> bool:
        """Does this static ability of `source` reach `card` now (its `while` holding)?
        Its target and condition are read without statics, so statics never loop."""
        self._in_statics = True
        try:
            if ability.condition is not None and not rt.truth(self._static_call(key, ("condition",), ctx)):
                return False
            targets = [source] if ability.target is None else rt.iterate(
                self, self._static_call(key, ("target",), ctx))
            reached = any(t is card for t in targets)
            if reached and self.tally is not None:
                self.tally.static(key)
            return reached
        finally:
            self._in_statics = False

    def _static_call(self, key: tuple[str, ...], suffix: tuple[str, ...], ctx: rt.Ctx) -> Any:
        return self.game.handlers[(*key, *suffix)](self, ctx)

    def _statics(self) -> list[tuple[Card, ir.Static, tuple[str, ...], rt.Ctx]]:
        """Every static ability of a card in play (its own, and its keywords').

        Cached: the list only changes when a card moves, changes host or controller."""
        if self._statics_cache is not None:
            return self._statics_cache
        found: list[tuple[Card, ir.Static, tuple[str, ...], rt.Ctx]] = []
        static_cards = self.game.static_cards
        for card in self.all_cards() if static_cards else []:
            definition = card.definition
            if definition is None or card.name not in static_cards or not self._in_play(card, []):
                continue
            for index, ability in definition.abilities:
                if isinstance(ability, ir.Static):
                    found.append((card, ability, ("card", card.name, index), rt.Ctx(card.controller, card)))
            for keyword, kargs in definition.keywords:
                kw = self.game.keywords.get(keyword)
                if kw is None:
                    continue
                for index_k, ability in enumerate(kw.abilities):
                    if isinstance(ability, ir.Static):
                        found.append((card, ability, ("keyword", keyword, str(index_k)),
                                      rt.Ctx(card.controller, card, keyword, kargs)))
        self._statics_cache = found
        return found

    def zone_distance(self, a: Any, b: Any) -> int | None:
        return None

    # ---------------------------------------------------------------- counters
    def _bounds(self, name: str) -> tuple[Any, Any]:
        return self.game.bounds.get(name, (None, None))

    def _clamp(self, name: str, value: Any) -> Any:
        low, high = self._bounds(name)
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
        value = self._clamp(name, value)
        table: dict[str, Any] = self.shared if owner is None else owner.counters
        had, old = name in table, table.get(name)
        if had and type(old) is type(value) and old == value:
            return  # not a change: nothing to log, journal or re-check

        def undo() -> None:
            if had:
                table[name] = old
            else:
                table.pop(name, None)
        table[name] = value
        self.undoable(undo)
        self.record("counter", player=self.describe(owner), counter=name, value=rt._plain(value))

    def set_card_counter(self, card: Card, name: str, value: Number) -> None:
        old = card.counters.get(name, 0)
        value = self._clamp(name, value)
        if name in card.counters and type(old) is type(value) and old == value:
            return  # not a change
        card.counters[name] = value
        self.undoable(lambda: card.counters.__setitem__(name, old))
        self.record("counter", card=self.describe(card), counter=name, value=rt._plain(card.counters[name]))

    # ---------------------------------------------------------------- calls, hooks, events
    def invoke(self, ctx: rt.Ctx, name: str, args: dict[str, Any]) -> Generator[Any, Any, Any]:
        proc = self.game.procedures.get(name)
        if proc is None:
            raise rt.RulesError(f"unknown procedure {name!r}")
        full = dict(args)
        if len(full) < len(proc.params):
            for p in proc.params:
                if p.name not in full:
                    full[p.name] = self._default(p, ctx)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise rt.RulesError(f"procedure {name!r} (line {proc.span.line}) calls itself without end")
        if name not in self.game.hooked:  # nothing can change this call: run it straight
            try:
                return (yield from self._call_body(proc, ctx, full))
            finally:
                self.depth -= 1
        try:
            handler: Any = None
            try:
                for _who, handler, hook_ctx in self._hooks(name, "before", ctx):
                    given = full
                    full = yield from handler(self, hook_ctx, full)
                    if self.tally is not None and full is not given:  # its `where` held
                        self._fired(handler)
            except rt.Cancelled:
                if self.tally is not None:
                    self._fired(handler)
                self.record("cancelled", procedure=name)
                return None
            # the first `instead` hook whose `where` holds replaces the call; one whose
            # condition fails hands back the very arguments it was given (codegen.hook), and
            # the next hook — or, when none is left, the procedure itself — runs instead
            for _who, handler, hook_ctx in self._hooks(name, "instead", ctx):
                try:
                    done = yield from handler(self, hook_ctx, full)
                except rt.Cancelled:
                    done = None
                if done is not full:
                    if self.tally is not None:
                        self._fired(handler)
                    return None
            result = yield from self._call_body(proc, ctx, full)
            for _who, handler, hook_ctx in self._hooks(name, "after", ctx):
                done = yield from handler(self, hook_ctx, full)
                if self.tally is not None and done is not full:
                    self._fired(handler)
            return result
        finally:
            self.depth -= 1

    def _call_body(self, proc: ir.ProcedureDecl, ctx: rt.Ctx, args: dict[str, Any]) -> Generator[Any, Any, Any]:
        """A procedure itself, without its hooks: the engine's native, or its compiled body."""
        if proc.native:
            result = self.natives[proc.name](ctx, **args)
            if result is not None and hasattr(result, "__next__"):
                result = yield from result
            return result
        handler = self.game.handlers[("procedure", proc.name)]
        return (yield from handler(self, ctx, *[args[p.name] for p in proc.params]))

    @functools.cached_property
    def natives(self) -> dict[str, Callable[..., Any]]:
        """The engine's method for each `native` procedure the game declares."""
        found: dict[str, Callable[..., Any]] = {}
        for proc in self.game.procedures.values():
            if proc.native:
                method = getattr(self, f"native_{proc.name}", None)
                found[proc.name] = method if method is not None else self._missing_native(proc.name)
        return found

    @staticmethod
    def _missing_native(name: str) -> Callable[..., Any]:
        def missing(*_args: Any, **_kwargs: Any) -> Any:
            raise rt.RulesError(f"the engine has no native {name!r}")
        return missing

    def _default(self, param: Any, ctx: rt.Ctx) -> Any:
        default = param.default
        if default is None:
            raise rt.RulesError(f"no value for {param.name!r}")
        if getattr(default, "kind", "") == "ref":
            if default.name == "self":
                return ctx.self
            if default.name == "you":
                return ctx.you or self.current
            if default.name == "none":
                return None
        return to_runtime(self.game._static(default))

    def _in_play(self, card: Card, zones: list[str]) -> bool:
        if card.zone is None:
            return False
        if zones:
            return card.zone.name in zones
        ctype = self.game.cardtypes.get(card.type)
        if ctype is not None and ctype.enters is not None:
            return card.zone.name == ctype.enters or card.zone.visibility == "public"
        return card.zone.visibility == "public"

    def _hooks(self, procedure: str, when: str, ctx: rt.Ctx) -> list[tuple[str, Any, rt.Ctx]]:
        found: list[tuple[str, Any, rt.Ctx]] = []
        for who, handler, hook in self.game.hooks.get(procedure, []):
            if hook.when == when:
                found.append((who, handler, rt.Ctx(self.current, None)))
        hookers = self.game.hookers.get(procedure)
        if not hookers:
            return found
        for card in self.all_cards():
            definition = card.definition
            if definition is None or card.name not in hookers or not self._in_play(card, []):
                continue
            for index, ability in definition.abilities:
                if isinstance(ability, ir.Hook) and ability.procedure == procedure and ability.when == when:
                    found.append((card.name, self.game.card_handler(card.name, index), rt.Ctx(card.controller, card)))
            for keyword, kargs in definition.keywords:
                kw = self.game.keywords.get(keyword)
                if kw is None:
                    continue
                for index_k, ability in enumerate(kw.abilities):
                    if isinstance(ability, ir.Hook) and ability.procedure == procedure and ability.when == when:
                        found.append((card.name, self._keyword_bound(card, keyword, str(index_k)),
                                      rt.Ctx(card.controller, card, keyword, kargs)))
        return found

    def _keyword_bound(self, card: Card, keyword: str, index: str, suffix: tuple[str, ...] = ()) -> Callable[..., Any]:
        """A keyword's handler; it reads the card's keyword arguments itself (rt.keyword_arg)."""
        handler: Callable[..., Any] = self.game.keyword_handler(keyword, index, *suffix)
        return handler

    def emit(self, ctx: rt.Ctx, event: str, args: list[Any]) -> Iterable[Any]:
        """An event happened: logged; then the game's triggers react, then those of the
        cards (in zone order) whose trigger's zones hold them. An event nothing in the game
        reacts to costs no generator: `yield from` gets an empty tuple."""
        self.record("emit", name=event, args=[self.describe(a) for a in args])
        if self.tally is not None and self.journal is None:
            self.tally.emitted(event)
        if event not in self.game.heard:
            return _NOTHING
        return self._react(ctx, event, args)

    def _react(self, ctx: rt.Ctx, event: str, args: list[Any]) -> Iterator[Any]:
        game = self.game
        rule_triggers = game.triggers.get(event)
        listening = game.listeners.get(event)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise rt.RulesError(f"event {event!r} sets off triggers that set it off again without end")
        try:
            for _who, handler, _trigger in rule_triggers or ():
                done = yield from self.guarded(handler(self, rt.Ctx(ctx.you or self.current, None), args))
                if self.tally is not None and done is not rt.UNMET:
                    self._fired(handler)
            if not listening:
                return None
            reachable = game.trigger_zones(event)  # zones where a trigger on this event can work
            for card in [c for z in self.zones.values() if z.visibility == "public" or z.name in reachable
                         for c in z.cards if c.name in listening]:
                for handler, zones, keyword, kargs in game.reactions(event, card.name):
                    if self._in_play(card, zones):
                        done = yield from self.guarded(handler(self, rt.Ctx(card.controller, card, keyword, kargs),
                                                               args))
                        if self.tally is not None and done is not rt.UNMET:
                            self._fired(handler)
        finally:
            self.depth -= 1
        return None

    def _fired(self, handler: Any) -> None:
        """A trigger, hook or keyword effect did its work: counted for the dead-rule
        report, unless this is a legality probe or a look-ahead that will be rolled back."""
        if self.tally is not None and self.journal is None:
            self.tally.fired(handler)

    # ---------------------------------------------------------------- running programs
    def run(self, program: Generator[Any, Any, Any], answer: Callable[[Any], Any]) -> Any:
        """Drive a handler to completion, answering its decision requests with `answer`.

        A choice with nothing to choose from fizzles the effect that asked, as in a played
        match (flow._advance); with no effect around it, rt.Fizzled leaves this call."""
        reply: Any = None
        while True:
            try:
                request = program.throw(reply) if isinstance(reply, rt.Fizzled) else program.send(reply)
            except StopIteration as stop:
                return stop.value
            if isinstance(request, rt.BeginSimultaneous | rt.EndSimultaneous):
                reply = None
                continue
            if isinstance(request, rt.Choose) and not request.options and request.mode == "one" \
                    and not request.optional:
                reply = self.fizzle(request)
                continue
            reply = answer(request)
            self.record("choice", player=self.describe(getattr(request, "player", None)),
                        picked=self.describe(reply))

    def fizzle(self, request: rt.Choose) -> rt.Fizzled:
        """A choice with nothing to choose from: logged and remembered; the exception to
        throw into the effect that asked, which stops it (see guarded)."""
        self.record("fizzled", line=request.line, label=request.label)
        self.empty_choice = request
        return rt.Fizzled()

    def nothing_to_choose(self) -> str:
        """Why a match or scenario stopped when a choice outside any effect was empty."""
        empty = self.empty_choice
        where = f"'{empty.label}' (line {empty.line})" if empty is not None else f"(line {self.last_line})"
        return f"the rules ask for a choice with nothing to choose from: {where}"

    def default_answer(self, request: Any) -> Any:
        """Scenario policy: scripted answers first, else the first legal option."""
        if isinstance(request, rt.ChooseOption):
            return 0
        if isinstance(request, rt.Choose):
            while self.script:
                wanted = self.script.pop(0)
                if request.mode == "one" and _offers(request, wanted):
                    return wanted
                if request.mode != "one" and isinstance(wanted, list):
                    return wanted
            if request.mode == "one":
                return request.options[0] if request.options else None
            n = request.n if request.n is not None else len(request.options)
            return list(request.options[: n if request.mode != "any" else 0])
        return None

    def perform_scripted(self, action: str, by: Any, choosing: list[Any], expect_illegal: bool,
                         line: int) -> Iterator[Any]:
        """`perform` outside a scenario: the played flow takes actions, not the rules."""
        raise rt.RulesError("'perform' and 'expect illegal' are scenario statements")

    def within_limit(self, action: str, player: Player) -> bool:
        """May `player` take `action` again this turn (its `limit:`, if it has one)?"""
        if self.game.actions[action].limit is None:
            return True
        limit = self.game.handlers[("action", action, "limit")](self, rt.Ctx(player, None))
        return self.taken.get((action, player.index), 0) < rt.whole(self, limit)

    def count_taken(self, action: str, player: Player) -> None:
        key = (action, player.index)
        self.taken[key] = self.taken.get(key, 0) + 1

    def snapshot_state(self) -> Any:
        """Start recording inverses of every change (see `journal`)."""
        saved = (self.journal, len(self.log), self.version, self.next_id, self.over, self.drawn,
                 self.winner, list(self.winners), self.current, self.end_turn_requested, self.end_stage_requested)
        self.journal = []
        return saved

    def restore_state(self, snapshot: Any) -> None:
        """Undo every change since `snapshot_state`, newest first, in place."""
        outer, log_size, version, next_id, over, drawn, winner, winners, current, end_turn, end_stage = snapshot
        for undo in reversed(self.journal or []):
            undo()
        self.journal = outer
        del self.log[log_size:]
        self.version = version
        self.next_id, self.over, self.drawn, self.winner, self.winners = next_id, over, drawn, winner, winners
        self.current = current
        # a tried move that ends the turn or stage must not end the real one
        self.end_turn_requested, self.end_stage_requested = end_turn, end_stage

    def commit_state(self, snapshot: Any) -> None:
        """Keep the changes since `snapshot_state` (inverses move to an outer probe, if any)."""
        outer = snapshot[0]
        if outer is not None and self.journal:
            outer.extend(self.journal)
        self.journal = outer

    def undoable(self, undo: Callable[[], None]) -> None:
        """A change happened (its inverse is `undo`): a new state version, and the inverse
        journaled while probing."""
        self.version = next(self._versions)
        if self.journal is not None:
            self.journal.append(undo)

    def touch(self) -> None:
        """A change outside any probe that needs no inverse (end-of-period expiry)."""
        self.version = next(self._versions)

    def use_rng(self) -> None:
        """The match's RNG is about to draw: while probing, journal its state once per
        probe (saving it only when used keeps probes that roll nothing cheap)."""
        journal = self.journal
        if journal is not None and self._rng_saved_for is not journal:
            rng = self.rng  # (the generator in use now: an agent's look-ahead lends its own)
            state = rng.getstate()
            journal.append(lambda: rng.setstate(state))
            self._rng_saved_for = journal

    # ---------------------------------------------------------------- changing cards (journaled)
    def set_base(self, card: Card, field: str, value: Any) -> None:
        had, old = field in card.base, card.base.get(field)

        def undo() -> None:
            if had:
                card.base[field] = old
            else:
                card.base.pop(field, None)
        card.base[field] = value
        self.undoable(undo)

    def set_status(self, card: Card, status: str, on: bool) -> None:
        was = status in card.statuses
        if on:
            card.statuses.add(status)
        else:
            card.statuses.discard(status)
        def undo() -> None:
            if was:
                card.statuses.add(status)
            else:
                card.statuses.discard(status)
        self.undoable(undo)

    def add_modifier(self, card: Card, modifier: Any) -> None:
        if modifier.period is not None:
            self.periods_in_use.add(modifier.period)
        card.modifiers.append(modifier)
        self.undoable(lambda: card.modifiers.remove(modifier))
        if modifier.condition is not None:
            self.whiles_in_use = True
            modifier.held = rt.truth(modifier.condition())  # (a new object: nothing to journal)

    def _lapse_whiles(self) -> None:
        """`while cond` changes: one whose condition holds is marked as having held; one
        that has held and whose condition is false now lapses for good (it does not come
        back when the condition holds again). Run with the checks, after every action,
        resolved effect and stage body, so when a change lapses never depends on who
        looked at the card in between."""
        for card in self.all_cards():
            if not card.modifiers:
                continue
            for mod in [m for m in card.modifiers if m.condition is not None]:
                holds = rt.truth(mod.condition())
                if holds and not mod.held:
                    self._mark_held(mod)
                elif not holds and mod.held:
                    self._drop_modifier(card, mod)
                    self.record("lapsed", card=self.describe(card), field=mod.field)

    def _mark_held(self, mod: Any) -> None:
        mod.held = True

        def undo() -> None:
            mod.held = False
        self.undoable(undo)

    def _drop_modifier(self, card: Card, mod: Any) -> None:
        index = card.modifiers.index(mod)
        card.modifiers.pop(index)
        self.undoable(lambda: card.modifiers.insert(index, mod))

    def set_attr(self, obj: Any, name: str, value: Any) -> None:
        self._statics_cache = None
        old = getattr(obj, name)
        setattr(obj, name, value)

        def undo() -> None:
            self._statics_cache = None
            setattr(obj, name, old)
        self.undoable(undo)

    def _all_answers_used(self) -> None:
        """A scripted answer no choice asked for is a mistake in the scenario: say so."""
        if self.script:
            unused = ", ".join(str(self.describe(v)) for v in self.script)
            raise rt.ExpectationFailed(f"no choice was left to take {unused}", self.script_line)

    def scenario_answer(self, request: Any) -> Any:
        """default_answer for a scenario, where a scripted answer the choice does not
        offer fails the scenario at its `perform` line instead of being passed over."""
        if isinstance(request, rt.Choose) and request.mode == "one" and self.script:
            wanted = self.script[0]
            if not _offers(request, wanted):
                offered = ", ".join(str(self.describe(o)) for o in request.options[:6]) or "nothing"
                raise rt.ExpectationFailed(
                    f"{self.describe(wanted)} is not an option for '{request.label}' "
                    f"(the choice at line {request.line} offers {offered})", self.script_line)
        return self.default_answer(request)

    def _scenario_failed(self, scenario: ir.ScenarioDecl, message: str) -> ScenarioResult:
        """A scenario stopped by an error in the rules it set off: reported at the scenario
        statement that was running, naming the rules line it reached."""
        if self.last_line != self.scenario_line and f"line {self.last_line}" not in message:
            message += f" (the rules were at line {self.last_line})"
        return ScenarioResult(scenario.name, False, message, scenario.span.file, self.scenario_line, len(self.log))

    def resolve_stack(self) -> Generator[Any, Any, None]:
        """Every player passes: the waiting effects resolve, the last one first."""
        while self.stack_programs:
            action, program, answers, line = self.stack_programs.pop()
            self.stack_owners.pop(id(program), None)  # an id may be reused once the program is gone
            self.stack_sources.pop(id(program), None)
            self.record("resolve", action=action)
            saved = self.script, self.script_line
            self.script, self.script_line = answers, line
            try:
                yield from self.guarded(program)
                self._all_answers_used()
            finally:
                self.script, self.script_line = saved
            yield from self.run_checks()

    def guarded(self, program: Generator[Any, Any, Any]) -> Generator[Any, Any, Any]:
        """Run one effect: if a choice it needs has no option, it fizzles (stops) alone."""
        reply: Any = None
        while True:
            try:
                request = program.send(reply) if not isinstance(reply, rt.Fizzled) else program.throw(reply)
            except StopIteration as stop:
                return stop.value
            except rt.Fizzled:
                return None
            try:
                reply = yield request
            except rt.Fizzled as fizzled:
                reply = fizzled

    def run_checks(self) -> Iterator[Any]:
        """Every `check` block, repeatedly, until a pass changes nothing (bounded)."""
        # what a check can read: the state (by its version), who acts, the turn and round
        seen = (self.version, self.current, self.turn_number, self.round_number)
        if seen == self._checked:
            return None  # nothing changed since the checks last found nothing to do
        checks = [self.game.handlers[("check", str(i))] for i in range(len(self.game.ir.checks))]
        for _round in range(50):
            before = len(self.log)
            if self.whiles_in_use:
                self._lapse_whiles()
            for check in checks:
                if self.over:
                    return None
                yield from check(self, rt.Ctx(self.current, None))
            self._last_standing()
            if len(self.log) == before:
                self._checked = (self.version, self.current, self.turn_number, self.round_number)
                return None
        raise rt.RulesError("the game's checks keep changing the state (more than 50 rounds)")

    def check_invariants(self) -> None:
        """What must hold after every action, whatever the rules: each card is in exactly
        the zone it believes it is in and in no other, no card is lost, and every counter
        is within its declared bounds."""
        seen: dict[int, Zone] = {}
        for zone in self.zones.values():
            for card in zone.cards:
                if card.id in seen:
                    raise rt.RulesError(f"{card.name}#{card.id} is in two zones ({seen[card.id].name}, {zone.name})")
                seen[card.id] = zone
                if card.zone is not zone:
                    raise rt.RulesError(f"{card.name}#{card.id} is in {zone.name} but thinks it is elsewhere")
        created = self.next_id - 1
        removed = self.removed_cards
        if len(seen) + removed < created and not self.allow_lost:
            raise rt.RulesError(f"{created - len(seen) - removed} card(s) vanished from every zone")
        for owner in [None, *self.players]:
            table = self.shared if owner is None else owner.counters
            for name, value in table.items():
                low, high = self._bounds(name)
                if (low is not None and value < low) or (high is not None and value > high):
                    raise rt.RulesError(f"counter {name} = {value} is outside its bounds")

    def _last_standing(self) -> None:
        """When players have lost: the one left wins; if none is left, nobody does."""
        if self.over or not any(p.eliminated for p in self.players):
            return
        living = rt.players(self)
        if len(living) == 1:
            self.native_win(rt.Ctx(living[0], None), living[0])
        elif not living:
            self.over, self.winner, self.winners = True, None, []
            self.record("everyone_lost")

    def rank_of(self, who: Any) -> int | None:
        """1 for the winner(s); after a scored end, each player's place (ties share it)."""
        if who in self.winners:
            return 1
        ranking = getattr(self, "ranking", None)
        if ranking:
            for player, key in ranking:
                if player is who:  # behind every player still in the game, if out of it
                    return 1 + sum(1 for p, k in ranking if (not p.eliminated, k) > (not player.eliminated, key))
        return None

    # ---------------------------------------------------------------- natives
    def _cards(self, value: Any) -> list[Card]:
        if isinstance(value, Card):
            return [value]
        if isinstance(value, Zone):
            return list(value.cards)
        if isinstance(value, list):
            return [c for c in value if isinstance(c, Card)]
        return []

    def _move(self, ctx: rt.Ctx, cards: Any, zone: Any, top: bool) -> Iterator[Any]:
        if not isinstance(zone, Zone):
            raise rt.RulesError(f"cannot move cards to {zone!r}")
        for card in self._cards(cards):
            old = card.zone
            if old is zone or not self.room_in(zone, card):
                continue
            self._place(card, zone, top=top or zone.ordered)
            self.record("move", card=self.describe(card), to=self.describe(zone))
            if old is not None:
                yield from self.emit(ctx, "left", [card, old])
            ctype = self.game.cardtypes.get(card.type)
            if ctype is not None and ctype.enters == zone.name:
                for status in ctype.enters_with:
                    self.set_status(card, status, True)
            yield from self.emit(ctx, "entered", [card, zone])

    def native_move_cards(self, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any]:
        return self._move(ctx, cards, zone, top=False)

    def native_put_on_top(self, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any]:
        return self._move(ctx, cards, zone, top=True)

    def native_put_on_bottom(self, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any]:
        def go() -> Iterator[Any]:
            for card in self._cards(cards):
                yield from self._move(ctx, card, zone, top=False)
                if isinstance(zone, Zone) and card in zone.cards:
                    self._place(card, zone, top=False)  # to the bottom, journaled
        return go()

    def native_shuffle(self, ctx: rt.Ctx, zone: Any) -> None:
        if not isinstance(zone, Zone):
            raise rt.RulesError(f"cannot shuffle {zone!r}")
        before = list(zone.cards)
        self.use_rng()
        self.rng.shuffle(zone.cards)
        self.undoable(lambda: zone.cards.__setitem__(slice(None), before))
        self.record("shuffle", zone=self.describe(zone), order=[c.id for c in zone.cards])

    def native_shuffle_into(self, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any]:
        def go() -> Iterator[Any]:
            yield from self._move(ctx, cards, zone, top=False)
            self.native_shuffle(ctx, zone)
        return go()

    def native_place(self, ctx: rt.Ctx, card: Any, zone: Any, cell: Any) -> Iterator[Any]:
        def go() -> Iterator[Any]:
            yield from self._move(ctx, card, zone, top=False)
            if isinstance(card, Card) and card.zone is zone:  # (not when the zone was full)
                self.set_attr(card, "position", self._on_board(zone, rt._cell_of(self, cell)))
        return go()

    def native_move_to_cell(self, ctx: rt.Ctx, card: Any, cell: Any) -> None:
        if isinstance(card, Card):
            self.set_attr(card, "position", self._on_board(card.zone, rt._cell_of(self, cell)))
            self.record("move", card=self.describe(card), cell=card.position)

    def _on_board(self, zone: Any, cell: tuple[int, int] | None) -> tuple[int, int] | None:
        """The cell, when it lies on the board of the zone (`size: W x H`: [0, 0] to
        [W - 1, H - 1]); a rules error otherwise — no card stands off the board."""
        decl = self.game.zones.get(zone.name) if isinstance(zone, Zone) else None
        board = self.game.boards.get(decl.board) if decl is not None and decl.board is not None else None
        if board is not None and cell is not None and not (0 <= cell[0] < board.width and 0 <= cell[1] < board.height):
            raise rt.RulesError(f"cell [{cell[0]}, {cell[1]}] is outside board '{board.name}' of zone '{zone.name}' "
                                f"({board.width} x {board.height}: [0, 0] to [{board.width - 1}, {board.height - 1}])")
        return cell

    def native_attach(self, ctx: rt.Ctx, card: Any, host: Any) -> None:
        if isinstance(card, Card) and isinstance(host, Card):
            if host.zone is not None and card.zone is not host.zone and not self.room_in(host.zone, card):
                return  # no room by the host: the card stays where it is, unattached
            self.native_detach(ctx, card)
            if host.zone is not None and card.zone is not host.zone:
                self._place(card, host.zone, top=False)  # an attached card comes into play with its host
            self.set_attr(card, "host", host)
            host.attached.append(card)
            self.undoable(lambda: host.attached.remove(card))
            self.record("attach", card=self.describe(card), host=self.describe(host))

    def native_detach(self, ctx: rt.Ctx, card: Any) -> None:
        if isinstance(card, Card) and card.host is not None:
            host = card.host
            if card in host.attached:
                index = host.attached.index(card)
                host.attached.pop(index)
                self.undoable(lambda: host.attached.insert(index, card))
            self.set_attr(card, "host", None)

    def native_give_control(self, ctx: rt.Ctx, card: Any, player: Any) -> None:
        for c in self._cards(card):
            self.set_attr(c, "controller", player)

    def native_turn_face_down(self, ctx: rt.Ctx, cards: Any) -> None:
        for c in self._cards(cards):
            self.set_attr(c, "face_down", True)

    def native_turn_face_up(self, ctx: rt.Ctx, cards: Any) -> None:
        for c in self._cards(cards):
            self.set_attr(c, "face_down", False)

    def native_reveal(self, ctx: rt.Ctx, cards: Any, player: Any = None) -> None:
        """Show cards to one player (or all): the log says so, and each seat it was shown
        to finds it in its observation until its next move (`reveals`, seatview.observe)."""
        shown = self._cards(cards)
        self.record("reveal", cards=self.describe(shown), to=self.describe(player))
        to = player if isinstance(player, Player) else None
        for card in shown:
            self.reveals.append((card.name, self.describe(card.zone), to))
            self.undoable(self._unreveal)

    def _unreveal(self) -> None:
        self.reveals.pop()

    def native_remove_from_game(self, ctx: rt.Ctx, cards: Any) -> None:
        for c in self._cards(cards):
            self._place(c, None, top=False)
            self.removed_cards += 1
            self.undoable(self._unremove)
            self.record("removed", card=self.describe(c))

    def native_reset_cards(self, ctx: rt.Ctx, cards: Any) -> None:
        """Cards become the printed card again (as when a card leaves play in most card
        games): printed stats and properties, card counters at their start, no statuses,
        no lasting changes, controlled by their owner. Journaled like every change."""
        for card in self._cards(cards):
            definition = card.definition
            if definition is not None:
                for field, value in definition.base.items():
                    if card.base.get(field) != value or type(card.base.get(field)) is not type(value):
                        self.set_base(card, field, value)
            for name, start in self._initial_counters("card").items():
                self.set_card_counter(card, name, start)
            for status in sorted(card.statuses):
                self.set_status(card, status, False)
            if card.modifiers:
                self._clear_modifiers(card)
            if card.controller is not card.owner:
                self.set_attr(card, "controller", card.owner)
            self.record("reset", card=self.describe(card))

    def _clear_modifiers(self, card: Card) -> None:
        kept = card.modifiers
        card.modifiers = []

        def undo() -> None:
            card.modifiers = kept
        self.undoable(undo)

    def _unremove(self) -> None:
        self.removed_cards -= 1

    def native_create_copies(self, ctx: rt.Ctx, card: Any, zone: Any, owner: Any = None) -> None:
        definition = self.game.cards_by_name.get(str(card).lower())
        if definition is None:
            raise rt.RulesError(f"there is no card named {card!r}")
        if owner is None:  # cards made in a shared zone belong to nobody; in a player's zone, to them
            owner = zone.owner if isinstance(zone, Zone) else ctx.you
        for _ in range(definition.copies):
            self.create_card(definition.name, zone, owner)

    def native_perform_effect(self, ctx: rt.Ctx, card: Any) -> Iterator[Any]:
        """The card's `effect { }` blocks, then those of its keywords (a keyword such as
        "Draw Two" is an effect written once). `you` is the player resolving the card —
        who played it — also for a card from a shared deck that nobody controls."""
        def go() -> Iterator[Any]:
            if not isinstance(card, Card) or card.definition is None:
                return
            resolver = ctx.you or card.controller
            for index, ability in card.definition.abilities:
                if isinstance(ability, ir.Effect):
                    yield from self.guarded(self.game.card_handler(card.name, index)(self, rt.Ctx(resolver, card)))
            for keyword, kargs in self.keywords_of(card):
                decl = self.game.keywords.get(keyword)
                for index_k, kw_ability in enumerate(decl.abilities if decl is not None else []):
                    if isinstance(kw_ability, ir.Effect):
                        handler = self.game.keyword_handler(keyword, str(index_k))
                        yield from self.guarded(handler(self, rt.Ctx(resolver, card, keyword, kargs)))
                        if self.tally is not None:
                            self._fired(handler)
        return go()

    def native_gain(self, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> None:
        owner = None if self.game.counters[str(counter)].scope == "shared" else (player or ctx.you)
        self.set_counter(owner, str(counter), rt.arith("+", self.get_counter(owner, str(counter)), amount))

    def native_lose(self, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> None:
        owner = None if self.game.counters[str(counter)].scope == "shared" else (player or ctx.you)
        self.set_counter(owner, str(counter), rt.arith("-", self.get_counter(owner, str(counter)), amount))

    def native_pay(self, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> None:
        owner = None if self.game.counters[str(counter)].scope == "shared" else (player or ctx.you)
        have = self.get_counter(owner, str(counter))
        if rt.compare("<", have, amount):
            raise rt.CannotPay()
        self.set_counter(owner, str(counter), rt.arith("-", have, amount))

    def native_end_turn(self, ctx: rt.Ctx) -> Iterator[Any] | None:
        """In a played match the flow ends the turn; in a scenario the next turn begins
        and runs up to its first action window."""
        self.record("end_turn")
        self.end_turn_requested = True
        if self.flow_active:
            return None
        return self.advance_turn()

    def native_end_stage(self, ctx: rt.Ctx) -> None:
        self.record("end_stage")
        self.end_stage_requested = True

    def advance_turn(self) -> Iterator[Any]:
        """`end the turn` outside a played flow (a scenario overrides this; engine/scenario_flow.py)."""
        return iter(())

    def reset_counters(self, when: str, player: Player | None) -> None:
        """Counters and statuses declared `reset: <when>` return to their start: a
        player's counter at the start or end of that player's own turn (`player`), or of
        every round for everyone; a card's counter or status and a shared counter at
        every such moment."""
        resets = self.game.resets.get(when)
        if not resets:
            return
        turn = when.endswith("turn")
        for decl in resets:
            if decl.kind == "status":
                for card in self.all_cards():
                    if decl.name in card.statuses:
                        self.set_status(card, decl.name, False)
            elif decl.scope == "shared":
                self.set_counter(None, decl.name, self._start(decl))
            elif decl.scope == "player":
                for owner in ([player] if turn and player is not None else self.players):
                    self.set_counter(owner, decl.name, self._start(decl))
            else:
                start = self._start(decl)
                for card in self.all_cards():
                    if card.counters.get(decl.name, start) != start:
                        self.set_card_counter(card, decl.name, start)

    def _expire(self, period: str) -> None:
        """Changes made "until the end of" `period` lapse (`next:turn:<player>`: those made
        "until your next turn" by that player, as their turn begins)."""
        if period not in self.periods_in_use:
            return
        for card in self.all_cards():
            if card.modifiers:
                card.modifiers = [mod for mod in card.modifiers if mod.period != period]
        self.touch()

    def native_win(self, ctx: rt.Ctx, player: Any) -> None:
        if isinstance(player, Player) and player.eliminated:
            # a player who lost is out of the game: they cannot win it any more
            self.record("win_refused", player=self.describe(player))
            return
        self.over, self.winner, self.winners = True, player, [player]
        self.record("win", player=self.describe(player))

    def native_share_win(self, ctx: rt.Ctx, players: Any) -> None:
        given = [p for p in (players if isinstance(players, list) else [players]) if isinstance(p, Player)]
        group = [p for p in given if not p.eliminated]  # those who lost share nothing
        if not group and given:
            self.record("win_refused", players=self.describe(given))
            return
        self.over, self.winners = True, group
        self.winner = group[0] if len(group) == 1 else None
        self.record("win", players=self.describe(group))

    def native_lose_game(self, ctx: rt.Ctx, player: Any) -> None:
        if isinstance(player, Player):
            self.set_attr(player, "eliminated", True)
            if player is self.turn_player:
                # their turn ends here, as with `end the turn` (restored with the rest when
                # a probe rolls back): a player out of the game decides nothing more
                self.end_turn_requested = True
        self.record("lose", player=self.describe(player))
        # who is left standing is judged after the whole step (run_checks): several
        # players may lose at once

    def native_eliminate(self, ctx: rt.Ctx, player: Any) -> None:
        self.native_lose_game(ctx, player)

    def native_draw_game(self, ctx: rt.Ctx) -> None:
        self.over, self.drawn, self.winner = True, True, None
        self.record("draw")

    def native_end_game(self, ctx: rt.Ctx) -> None:
        """The game ends: players are ranked by the game's `scoring` (score, then each
        tiebreak); those tied at the top share the win."""
        self.over = True
        self.record("end_game")
        if self.winners or self.game.ir.scoring is None:
            return
        self.ranking = self.rank_players()
        # those still in the game are ranked first (a player who lost cannot win)
        top = [p for p, key in self.ranking if key == self.ranking[0][1] and not p.eliminated] if self.ranking else []
        self.winners = top
        self.winner = top[0] if len(top) == 1 else None
        self.record("ranking", order=[[self.describe(p), [rt._plain(k) for k in key]] for p, key in self.ranking])

    def rank_players(self) -> list[tuple[Player, tuple[Any, ...]]]:
        scoring = self.game.ir.scoring
        assert scoring is not None
        score = self.game.handlers[("score",)]
        tiebreaks = [self.game.handlers[("tiebreak", str(i))] for i in range(len(scoring.tiebreak))]
        keyed = []
        for p in self.players:
            ctx = rt.Ctx(p, None)
            key = tuple(fn(self, ctx, p) or 0 for fn in [score, *tiebreaks])
            keyed.append((p, key))
        # a player who lost comes after every player still in the game, whatever their score
        return sorted(keyed, key=lambda item: (not item[0].eliminated, item[1]), reverse=True)

    # scenario statements that drive the played flow (engine/scenario_flow.py overrides them)
    def native_pass_priority(self, ctx: rt.Ctx, player: Any) -> None:
        raise rt.RulesError("'... passes' is a scenario statement")

    def native_everyone_passes(self, ctx: rt.Ctx) -> None:
        raise rt.RulesError("'everyone passes' is a scenario statement")

    def native_run_stage(self, ctx: rt.Ctx, stage: Any, answers: Any = None) -> None:
        raise rt.RulesError("'run stage' is a scenario statement")

    def emit_rolls(self, ctx: rt.Ctx) -> Iterator[Any]:
        """`rolled(player, result)` for each roll the statement just made, by its player."""
        totals = self.rolls_pending[:]
        if not totals:
            return
        self.rolls_pending.clear()
        if self.journal is not None:  # (a probe that rolled puts them back as it rolls back)
            self.journal.append(lambda: self.rolls_pending.extend(totals))
        for total in totals:
            yield from self.emit(ctx, "rolled", [ctx.you or self.current, total])

    def native_say(self, ctx: rt.Ctx, message: Any) -> None:
        self.record("say", message=str(message))


class _NotAnOption(Exception):
    pass


_NOTHING: tuple[Any, ...] = ()  # `yield from` an empty tuple: a step that yields nothing
