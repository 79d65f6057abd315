"""A match of a compiled game: its state, the journal that undoes it, the RNG, the log.

The match runs compiled handlers (generators). When one yields a decision request the
match either answers it (scenario scripts, the default policy) or, in a played match,
pauses and offers it as legal actions. Every roll, shuffle, move and change is logged;
the RNG is seeded per match, so the same seed and answers give the same log.

This module is the core every other part builds on: the state, every journaled change
(so a probed move rolls back in place), state versions, calls with their hooks, and
running programs and checks. The rest is mixed in or looked up: counters and their
journaled setters (counters.py), events, hooks, statics and lapsing changes
(events.py), scripted answers and scenario-only statements (scenario_steps.py), turn
order (turnorder.py), and the core prelude's natives, a table by name (natives.py).
"""

from __future__ import annotations

import functools
import itertools
import random
import types
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cardsmith.compiler.static_eval import to_runtime
from cardsmith.dsl import ir
from cardsmith.engine import natives
from cardsmith.engine import runtime as rt
from cardsmith.engine.counters import Counters
from cardsmith.engine.events import MAX_DEPTH, EventsAndStatics
from cardsmith.engine.scenario_steps import ScenarioSteps
from cardsmith.engine.statindex import StatIndex
from cardsmith.engine.turnorder import TurnOrder
from cardsmith.model.state import Card, Player, Zone, log_describe, set_counted

if TYPE_CHECKING:
    from cardsmith.engine.coverage import Tally
    from cardsmith.engine.game import CompiledGame

MAX_STEPS = rt.MAX_STEPS
# Functions and unhooked procedures call each other directly: one that calls itself without
# end runs out of Python's stack, and that is reported as this, at the last line run.
ENDLESS = "a rule calls itself without end"
__all__ = ["ENDLESS", "MAX_STEPS", "Match", "log_describe"]  # (log_describe: moves.py reads it here)


class _BoundNatives(dict[str, Callable[..., Any]]):
    """Match.natives: the natives of the game's `native` procedures, each bound to the
    match when first looked up; a name the game does not declare native is missing."""

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def __missing__(self, name: str) -> Callable[..., Any]:
        match = self.match
        proc = match.game.procedures.get(name)
        if proc is None or not proc.native:
            raise KeyError(name)
        function = natives.NATIVES.get(name)
        bound = types.MethodType(function, match) if function is not None else match._missing_native(name)
        self[name] = bound
        return bound


class Match(Counters, EventsAndStatics, ScenarioSteps, StatIndex, TurnOrder):
    flow_started = False  # a scenario running on the played flow (engine/scenario_flow.py)
    reports_expectations = False  # a failed `expect` raised inside the flow fails a scenario
    ranking: list[tuple[Player, tuple[Any, ...]]]  # set by `end the game` with a `scoring` (natives.end_game)

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
        # a new card's counters: the same starts for every card (copied for each)
        self._card_counters = self._initial_counters("card")
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
        self.base_changes = 0  # changes of a card's base (set_base, set_attr): queries.narrow reads bases by it
        self.depth = 0
        self.log: list[dict[str, Any]] = []
        self.script: list[Any] = []
        # While probing whether an action is legal, every change records its inverse here,
        # so an illegal attempt is rolled back in place (objects keep their identity).
        self.journal: list[Callable[[], None]] | None = None
        # Every change to the state takes a new, never reused version number (rolled back with
        # the change), so "same version" means "same state": rt.memo keys remembered results by it.
        self._versions = itertools.count(1)
        self.version = 0
        self.memo: dict[Any, Any] = {}
        self.match_memo: dict[Any, Any] = {}  # rt.memo_match: functions of their arguments alone
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
        self._actors: dict[Player | None, rt.Ctx] = {}  # (actor)
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
        self._grants_cache: Any = None  # events.py _grants: per state, what statics grant
        self._event_zones: dict[str, tuple[list[Zone], str | None]] = {}  # events.py _react: where triggers can work
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
        """A log entry: the event's kind and its data. The call's own keyword dictionary is
        the entry (no copy: a dozen entries an action); its keys' order means nothing —
        the log is written with sorted keys (replay.encode) and read by key."""
        data["event"] = kind
        self.log.append(data)

    # A value as the log writes it: log_describe itself (static: one call a value, not two).
    describe = staticmethod(log_describe)

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
        return self.make_card(definition, zone, owner, top)

    def make_card(self, definition: Any, zone: Any, owner: Player | None, top: bool = True, copies: int = 1) -> Card:
        """A new card of a compiled card `definition` (create_card, once it is found) — or
        `copies` of them, one after another, the last returned (natives.create_copies: a
        setup makes a whole deck so, in one call a card name rather than one a card)."""
        base, counters, name, log = definition.base, self._card_counters, definition.name, self.log
        card: Card | None = None
        for _ in range(copies):
            card = Card(self.next_id, name, definition.type, owner, dict(base), dict(counters), definition)
            self.next_id += 1
            if type(zone) is not Zone:
                self.record("create", card=f"{name}#{card.id}", zone=log_describe(zone))
                continue
            if zone.name in self.capped_zones and not self.room_in(zone, card):
                # made, but there is no room for it: it stays out of the game
                self.removed_cards += 1
                self.undoable(self._unremove)
                continue
            if self.journal is None:
                # (the bulk of setup: a new card comes from no zone and nothing will roll it
                # back, so it is placed as _place would, without the inverse or the search)
                self._statics_cache = None
                if top and zone.ordered:
                    zone.cards.insert(0, card)
                else:
                    zone.cards.append(card)
                ctype = card.type  # (zone.count, in line)
                zone.types[ctype] += 1
                zone.controlled[owner] += 1
                zone.held[(ctype, owner)] += 1
                card.zone = zone
                self.version = next(self._versions)
            else:
                self._place(card, zone, top=top and zone.ordered)
            log.append({"card": f"{name}#{card.id}", "zone": zone.title, "event": "create"})  # (record, in line)
        assert card is not None, "make_card makes at least one card"
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
        old_index: int | None = None
        ctype, controller = card.type, card.controller  # (Zone.count's keys: it is in line below)
        if old_zone is not None:
            try:
                old_index = old_zone.cards.index(card)
            except ValueError:  # (a card that believes it is in a zone that no longer holds it)
                pass
            else:
                del old_zone.cards[old_index]
                old_zone.types[ctype] -= 1
                old_zone.controlled[controller] -= 1
                old_zone.held[(ctype, controller)] -= 1
        if zone is not None:
            if top:
                zone.cards.insert(0, card)
            else:
                zone.cards.append(card)
            zone.types[ctype] += 1
            zone.controlled[controller] += 1
            zone.held[(ctype, controller)] += 1
        card.zone = zone
        if self.journal is None:  # nothing will roll this back: no inverse to write
            self.version = next(self._versions)
            return

        def undo() -> None:
            self._statics_cache = None
            if zone is not None and card in zone.cards:
                zone.cards.remove(card)
                zone.count(card, -1)
            if old_zone is not None and old_index is not None:
                old_zone.cards.insert(old_index, card)
                old_zone.count(card, 1)
            card.zone = old_zone
        self.undoable(undo)

    def is_token(self, card: Card) -> bool:
        return bool(card.definition is not None and card.definition.token)

    def zone_distance(self, a: Any, b: Any) -> int | None:
        return None

    # ---------------------------------------------------------------- calls (hooks: events.py)
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
        """The engine's function for each `native` procedure the game declares (natives.py),
        bound to this match: generated code calls `m.natives[name](ctx, ...)`. Each is
        bound as it is first called (a match calls a few of the prelude's dozens)."""
        return _BoundNatives(self)

    @functools.cached_property
    def native_checks(self) -> dict[str, Callable[..., bool]]:
        """For a native procedure that can fail (natives.CHECKS: `pay`), the engine's test
        of whether it would succeed now, bound to this match: a compiled legality predicate
        calls `m.native_checks[name](ctx, ...)` where probing would run the procedure."""
        return {name: types.MethodType(check, self) for name, check in natives.CHECKS.items()}

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
            self.base_changes += 1
            if had:
                card.base[field] = old
            else:
                card.base.pop(field, None)
        self.base_changes += 1
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

    def set_attr(self, obj: Any, name: str, value: Any) -> None:
        self._statics_cache = None
        old = getattr(obj, name)
        # a card's type and controller are what its zone counts it by (Zone.count)
        change = set_counted if (name == "type" or name == "controller") and type(obj) is Card else setattr
        change(obj, name, value)
        self.base_changes += name == "base"  # (a card given another base: seatview's guessed worlds)

        def undo() -> None:
            self._statics_cache = None
            self.base_changes += name == "base"
            change(obj, name, old)
        self.undoable(undo)

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

    def checks(self) -> Iterable[Any]:
        """run_checks as the flow asks it after every step: no generator (an empty tuple to
        `yield from`) when the game has no check to run."""
        if not self._check_handlers and not self.whiles_in_use:
            self._last_standing()  # (no check to run: who is left standing is judged, as run_checks would)
            return ()
        return self.run_checks()

    def actor(self, player: Player | None) -> rt.Ctx:
        """`rt.Ctx(player, None)`, one a player (a context never changes): the flow wants many."""
        ctx = self._actors[player] = self._actors.get(player) or rt.Ctx(player, None)
        return ctx

    def run_checks(self) -> Iterator[Any]:
        """Every `check` block, repeatedly, until a pass changes nothing (bounded)."""
        # what a check can read: the state (by its version), who acts, the turn and round
        seen = (self.version, self.current, self.turn_number, self.round_number)
        if seen == self._checked:
            return None  # nothing changed since the checks last found nothing to do
        checks = self._check_handlers
        if not checks and not self.whiles_in_use:
            # no check to run (the state changed, but only who is left standing reads it): one pass
            self._last_standing()
            self._checked = (self.version, self.current, self.turn_number, self.round_number)
            return None
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

    @functools.cached_property
    def _check_handlers(self) -> list[Callable[..., Any]]:
        """The game's `check` blocks, compiled, in order (run_checks runs them all)."""
        return [self.game.handlers[("check", str(i))] for i in range(len(self.game.ir.checks))]

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
        if self.over:
            return
        for player in self.players:  # (in line of any(): asked after every action)
            if player.eliminated:
                break
        else:
            return
        living = rt.players(self)
        if len(living) == 1:
            natives.win(self, rt.Ctx(living[0], None), living[0])
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

    def _unremove(self) -> None:
        self.removed_cards -= 1
