"""What the rules react to and what lasts: events and triggers, hooks, statics, and the
changes that lapse (until the end of a period, while a condition holds, `reset:`).

Mixed into Match. These are the parts of a match that look across every card in play
to find who reacts or what applies, and the bookkeeping of changes that end on their
own; the match core (match.py) keeps only the state, its journal and the RNG. Every
change made here goes through the core's journaled setters.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Number, Player, Zone, log_describe

if TYPE_CHECKING:
    from cardsmith.engine.coverage import Tally
    from cardsmith.engine.game import CompiledGame

MAX_DEPTH = 200

_NOTHING: tuple[Any, ...] = ()  # `yield from` an empty tuple: a step that yields nothing

StaticUse = tuple[Card, ir.Static, tuple[str, ...], rt.Ctx]  # a static in play: source, ability, key, ctx
# a static granting keywords: its key, the cards it reaches (by id), what it grants
Grant = tuple[tuple[str, ...], set[int], list[tuple[str, list[Any]]]]


# Match.guarded's `request` when the program has not been started yet
NOT_ASKED: Any = object()

class EventsAndStatics:
    """Mixed into Match: events, hooks, statics, and the changes that lapse."""

    game: CompiledGame
    tally: Tally | None
    journal: list[Callable[[], None]] | None
    depth: int
    current: Player | None
    players: list[Player]
    zones: dict[tuple[str, int], Zone]
    periods_in_use: set[str]
    whiles_in_use: bool
    rolls_pending: list[int]
    _in_statics: bool
    _statics_cache: list[StaticUse] | None
    _statics_index: tuple[list[Any], dict[str, list[Any]]] | None
    # (_grants: the state it was worked out for — version, whose turn, turn, round — its
    # list, and the cards each keyword is granted to)
    _grants_cache: tuple[int, Player | None, int, int, list[Grant], dict[str, set[int]]] | None
    version: int
    # per event: the zones _react looks in for triggers, and the one card type that hears it
    _event_zones: dict[str, tuple[list[Zone], str | None]]
    turn_number: int
    round_number: int
    log: list[dict[str, Any]]

    if TYPE_CHECKING:  # provided by Match, which this is mixed into
        def record(self, kind: str, **data: Any) -> None: ...
        def describe(self, value: Any) -> Any: ...
        def all_cards(self) -> list[Card]: ...
        def undoable(self, undo: Callable[[], None]) -> None: ...
        def touch(self) -> None: ...
        def set_status(self, card: Card, status: str, on: bool) -> None: ...
        def set_counter(self, owner: Player | None, name: str, value: Any) -> None: ...
        def set_card_counter(self, card: Card, name: str, value: Number) -> None: ...
        def _start(self, decl: Any) -> Any: ...

    # ---------------------------------------------------------------- in play
    def _in_play(self, card: Card, zones: list[str]) -> bool:
        if card.zone is None:
            return False
        if zones:
            return card.zone.name in zones
        ctype = self.game.cardtypes.get(card.type)
        if ctype is not None and ctype.enters is not None:
            return card.zone.name == ctype.enters or card.zone.visibility == "public"
        return card.zone.visibility == "public"

    # ---------------------------------------------------------------- statics
    def keywords_of(self, card: Card) -> list[tuple[str, list[Any]]]:
        """Printed keywords plus those granted by statics (`grants: Alert`) of cards in play."""
        found = list(card.definition.keywords) if card.definition is not None else []
        if self._in_statics:
            return found
        for key, reached, granted in self._grants():
            if id(card) in reached:
                if self.tally is not None:
                    self.tally.static(key)
                found.extend((name, list(args)) for name, args in granted)
        return found

    def _grants(self) -> list[Grant]:
        """Each static in play that grants keywords: the cards it reaches now (by id) and
        what it grants. Worked out once per state — version, whose turn, turn and round,
        what a static's `while` and target may read — instead of once per card asked:
        rules ask `has_keyword` of every unit for every move they weigh. (The state is
        compared part by part, not as a tuple made at every call; functions.fn_has_keyword
        reads the same cache.)"""
        cached = self._grants_cache
        if cached is not None and cached[0] == self.version and cached[1] is self.current \
                and cached[2] == self.turn_number and cached[3] == self.round_number:
            return cached[4]
        grants: list[Grant] = []
        by_keyword: dict[str, set[int]] = {}
        for source, ability, key, ctx in self._statics():
            if ability.grants:
                reached = {id(card) for card in self._static_reach(source, ability, key, ctx)}
                grants.append((key, reached, [(use.name, [self.game._static(a) for a in use.args])
                                              for use in ability.grants]))
                for use in ability.grants:
                    by_keyword[use.name] = by_keyword.get(use.name, set()) | reached
        self._grants_cache = (self.version, self.current, self.turn_number, self.round_number, grants, by_keyword)
        return grants

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
        reached = any(t is card for t in self._static_reach(source, ability, key, ctx))
        if reached and self.tally is not None:
            self.tally.static(key)
        return reached

    def _static_reach(self, source: Card, ability: ir.Static, key: tuple[str, ...], ctx: rt.Ctx) -> list[Any]:
        """The cards a static ability of `source` reaches now: none while its `while`
        fails, else its target (the card itself by default). Read without statics, so
        statics never loop."""
        self._in_statics = True
        try:
            if ability.condition is not None and not rt.truth(self._static_call(key, ("condition",), ctx)):
                return []
            return [source] if ability.target is None else list(rt.iterate(
                self, self._static_call(key, ("target",), ctx)))  # type: ignore[arg-type]  # (a Match)
        finally:
            self._in_statics = False

    def _static_call(self, key: tuple[str, ...], suffix: tuple[str, ...], ctx: rt.Ctx) -> Any:
        return self.game.handlers[(*key, *suffix)](self, ctx)

    def _statics(self) -> list[StaticUse]:
        """Every static ability of a card in play (its own, and its keywords').

        Cached: the list only changes when a card moves, changes host or controller. A
        zone where no card is in play (neither public nor where a type enters: _in_play)
        is not looked through, nor one holding no card at all."""
        if self._statics_cache is not None:
            return self._statics_cache
        found: list[StaticUse] = []
        static_cards = self.game.static_cards
        entered = self.game.entered_zones
        in_play = [card for zone in self.zones.values() if static_cards and zone.cards
                   and (zone.visibility == "public" or zone.name in entered)
                   for card in zone.cards if card.name in static_cards]
        for card in in_play:
            definition = card.definition
            if definition is None or not self._in_play(card, []):
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

    # ---------------------------------------------------------------- hooks
    def _hooks(self, procedure: str, when: str, ctx: rt.Ctx) -> list[tuple[str, Any, rt.Ctx]]:
        found: list[tuple[str, Any, rt.Ctx]] = []
        for who, handler, hook in self.game.hooks.get(procedure, []):
            if hook.when == when:
                found.append((who, handler, rt.Ctx(self.current, None)))
        hookers = self.game.hookers.get((procedure, when))
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

    # ---------------------------------------------------------------- events
    def emit(self, ctx: rt.Ctx, event: str, args: list[Any]) -> Iterable[Any]:
        """An event happened: logged; then the game's triggers react, then those of the
        cards (in zone order) whose trigger's zones hold them. An event nothing in the game
        reacts to costs no generator: `yield from` gets an empty tuple."""
        # (a stage's name, a card, a zone and a player, the most frequent arguments, written
        # in line; one or two of them without a comprehension's call; the entry as
        # record("emit", name=..., args=...) makes it, without the call: a dozen an action)
        count = len(args)
        if count == 2:
            first, second = args
            kind, other = type(first), type(second)
            logged = [first if kind is str else f"{first.name}#{first.id}" if kind is Card else log_describe(first),
                      second.title if other is Zone else second.name if other is Player
                      else f"{second.name}#{second.id}" if other is Card else log_describe(second)]
        elif count == 1:
            first = args[0]
            kind = type(first)
            logged = [first if kind is str else first.name if kind is Player
                      else f"{first.name}#{first.id}" if kind is Card else log_describe(first)]
        else:
            logged = [a if type(a) is str else f"{a.name}#{a.id}" if type(a) is Card else log_describe(a)
                      for a in args]
        self.log.append({"name": event, "args": logged, "event": "emit"})
        if self.tally is not None and self.journal is None:
            self.tally.emitted(event)
        if event not in self.game.heard:
            return _NOTHING
        return self._react(ctx, event, args)

    def emit_one(self, ctx: rt.Ctx, event: str, value: Any, logged: Any) -> Iterable[Any]:
        """emit(ctx, event, [value]) for the flow's own events (a turn's player, a stage's
        name, a round's number), whose one argument the caller logs as `logged` (a name):
        the same entry, without emit's look at the argument, a handful an action."""
        self.log.append({"name": event, "args": [logged], "event": "emit"})
        if self.tally is not None and self.journal is None:
            self.tally.emitted(event)
        if event not in self.game.heard:
            return _NOTHING
        return self._react(ctx, event, [value])

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
            where = self._event_zones.get(event)
            if where is None:  # zones where a trigger on this event can work (the same all match)
                reachable = game.trigger_zones(event)
                kinds = {c.type for c in game.ir.cards if c.name in listening}
                where = self._event_zones[event] = (
                    [z for z in self.zones.values() if z.visibility == "public" or z.name in reachable],
                    kinds.pop() if len(kinds) == 1 else None)
            scanned, kind = where
            # (when the cards that hear the event are all of one type, a zone holding none of
            # that type is passed over whole: Combat Cards' pile of resources, at every event)
            # (a loop, not a comprehension: cheaper over a few zones of a few cards)
            hearing = []
            for z in scanned:
                if kind is None or z.types.get(kind):
                    for c in z.cards:
                        if c.name in listening:
                            hearing.append(c)
            for card in hearing:
                for handler, zones, keyword, kargs, guard in game.reactions(event, card.name):
                    # (_in_play in line where it is plain: the card's zone named, or a public one)
                    zone = card.zone
                    if zone is None or (zone.name not in zones if zones else
                                        zone.visibility != "public" and not self._in_play(card, zones)):
                        continue
                    if guard is not None:  # (the condition's opening test, as the trigger makes it)
                        value = args[guard[0]]
                        if guard[1] < 0:
                            if value is not card:
                                continue
                        elif kargs is not None and guard[1] < len(kargs):
                            other = kargs[guard[1]]
                            if type(value) is type(other) in rt.EQ_BY_PYTHON and value != other:
                                continue
                    # (guarded's first step in line: most reactions finish, their condition
                    # unmet, without asking anything, so need no guarding generator)
                    program = handler(self, rt.Ctx(card.controller, card, keyword, kargs), args)
                    try:
                        request = program.send(None)
                    except StopIteration as stop:
                        done = stop.value
                    except rt.Fizzled:
                        done = None
                    else:
                        done = yield from self.guarded(program, request)
                    if self.tally is not None and done is not rt.UNMET:
                        self._fired(handler)
        finally:
            self.depth -= 1
        return None

    def guarded(self, program: Generator[Any, Any, Any], request: Any = NOT_ASKED) -> Generator[Any, Any, Any]:
        """Run one effect: if a choice it needs has no option, it fizzles (stops) alone.
        `request`: the first question of a program already started (_react starts a
        reaction itself: most finish, their condition unmet, without asking anything, and
        so need no guarding generator)."""
        reply: Any = None
        while True:
            if request is NOT_ASKED:
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
            request = NOT_ASKED

    def _fired(self, handler: Any) -> None:
        """A trigger, hook or keyword effect did its work: counted for the dead-rule
        report, unless this is a legality probe or a look-ahead that will be rolled back."""
        if self.tally is not None and self.journal is None:
            self.tally.fired(handler)

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

    # ---------------------------------------------------------------- changes that lapse
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

    def _expire(self, period: str) -> None:
        """Changes made "until the end of" `period` lapse (`next:turn:<player>`: those made
        "until your next turn" by that player, as their turn begins)."""
        if period not in self.periods_in_use:
            return
        for card in self.all_cards():
            if card.modifiers:
                card.modifiers = [mod for mod in card.modifiers if mod.period != period]
        self.touch()

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
