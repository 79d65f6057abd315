"""What compiled handlers call: the engine's generic mechanisms.

The generated module (compiler/codegen.py) imports this as `rt`. Nothing here knows any
particular game: names, fields, counters, zones and card types are looked up in the
compiled game's tables, and every game-specific rule arrives as a compiled handler.
Decisions are requests the handlers `yield` (Choose, ChooseOption); the match turns them
into legal actions or answers them from a scenario script."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from types import GeneratorType as GeneratorType  # generated code tests native results with it
from typing import TYPE_CHECKING, Any

from cardsmith.engine.catalogue import MAX_STEPS as MAX_STEPS
from cardsmith.engine.catalogue import create_catalog as create_catalog
from cardsmith.engine.memo import MEMO_LIMIT as MEMO_LIMIT
from cardsmith.engine.memo import MISSING as MISSING
from cardsmith.engine.memo import ByValue as ByValue
from cardsmith.engine.memo import kept as kept
from cardsmith.engine.memo import memo as memo
from cardsmith.engine.memo import memo_body as memo_body
from cardsmith.engine.memo import memo_match as memo_match
from cardsmith.engine.memo import memo_match_body as memo_match_body
from cardsmith.engine.memo import run_pure as run_pure
from cardsmith.model import values
from cardsmith.model.errors import ExpectationFailed as ExpectationFailed
from cardsmith.model.state import Card, EnumValue, Modifier, Player, Zone, in_words
from cardsmith.model.values import EQ_BY_PYTHON as EQ_BY_PYTHON
from cardsmith.model.values import Dice as Dice
from cardsmith.model.values import Range as Range
from cardsmith.model.values import RulesError as RulesError

if TYPE_CHECKING:
    from cardsmith.engine.match import Match

F = Fraction
# the loop guard, MAX_STEPS (engine/catalogue.py): steps between two decisions before the
# rules are taken to loop without end (Match.step raises past it; generated code counts
# steps in line and compares with it)


class Cancelled(Exception):
    """Raised by `cancel` in a before/instead hook: the hooked procedure does not happen."""


class CannotPay(Exception):
    """A cost could not be paid: the action is not legal."""


class Fizzled(Exception):
    """A required choice has no legal option: the effect that asked does nothing more."""


class NotLegal(Exception):
    """An action's condition does not hold for the chosen parameters."""


class Paid:
    """Yielded by an action once its parameters are chosen and its cost is paid."""


# What makes a move illegal when it is tried before it is taken: probing (engine/moves.py)
# and the compiled legality predicates (compiler/legality.py) read the same errors the same
# way, so both paths agree on what an error in a rule means for legality.
ILLEGAL_ERRORS: tuple[type[BaseException], ...] = (
    CannotPay, NotLegal, RulesError, TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError)


def illegal(error: BaseException) -> bool:
    """Does `error`, raised while a move was tried, make the move illegal? A rule beyond
    the engine's limits (`choose x from 1..10^15`) is a broken rule, not an illegal move:
    the match stops naming it, as it would when the move ran."""
    return not (isinstance(error, values.OperationError) and error.kind in ("large", "limit"))


# What a compiled trigger returns when its `where` does not hold: it did not fire (the
# dead-rule report, engine/coverage.py, counts the triggers that did).
UNMET = object()


class Ctx:
    """Who is acting: `you` (a player) and `self` (the card whose ability runs).

    A keyword's ability also knows which use of the keyword it runs for (a card may list
    `Damage low Self 10` twice), so its parameters read that use's arguments."""

    __slots__ = ("keyword", "keyword_args", "self", "you")

    def __init__(self, you: Player | None, self_card: Card | None, keyword: str | None = None,
                 keyword_args: list[Any] | None = None) -> None:
        self.you = you
        self.self = self_card
        self.keyword = keyword
        self.keyword_args = keyword_args


# ---------------------------------------------------------------- requests


class Choose:
    """A decision: pick one (or several) of `options` for `player`."""

    __slots__ = ("hidden", "label", "line", "mode", "n", "optional", "options", "paying", "player", "targeting")

    def __init__(self, m: Match, player: Player | None, options: list[Any], mode: str, n: Any,
                 hidden: bool = False, optional: bool = False, targeting: bool = False, label: str = "",
                 line: int = 0) -> None:
        self.player = player if player is not None else m.current
        self.options = options
        self.mode = mode
        self.n = whole(m, n) if n is not None else None
        self.hidden = hidden
        self.optional = optional
        self.targeting = targeting
        self.label = label
        self.line = line
        # asked while a move's cost is paid: the action's name, or "Card: ability" (narrowed)
        self.paying = ""


class ChooseOption:
    """A choice between labelled modes (`choose one { option ... }`); answered by index."""

    __slots__ = ("labels", "line", "paying", "player")

    def __init__(self, m: Match, player: Player | None, labels: list[str], line: int) -> None:
        self.player = player if player is not None else m.current
        self.labels = labels
        self.line = line
        self.paying = ""  # as Choose.paying


class BeginSimultaneous:
    """Choices until EndSimultaneous are made without seeing each other's answers."""


class EndSimultaneous:
    pass


# ---------------------------------------------------------------- values


# What the operators do is cardsmith/model/values.py's, the one definition the static evaluator
# shares; compiled code calls these names (rt.add, rt.same, rt.lt, ...).
truth = values.truth


def whole(m: Match, value: Any) -> int:
    if isinstance(value, Dice):
        value = roll(m, value)
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        if value is None:
            return 0
        raise RulesError(f"expected a whole number, got {value!r}")
    return math.floor(value)


arith = values.arith
add = values.add
sub = values.sub
mul = values.mul
div = values.div
floordiv = values.floordiv
mod = values.mod
neg = values.neg
same = values.equal
lt = values.lt
le = values.le
gt = values.gt
ge = values.ge
compare = values.compare
_contains = values.contains


def contains(m: Match, collection: Any, item: Any) -> bool:
    return _contains(collection, item)


index = values.index


def iterate(m: Match, source: Any) -> list[Any]:
    if type(source) is list or source is None:  # (the most frequent, by type)
        return list(source) if source is not None else []
    if isinstance(source, Zone):
        return list(source.cards)
    if isinstance(source, list | tuple):
        return list(source)
    if isinstance(source, Range):
        return list(source)
    if isinstance(source, Card | Player):
        return [source]
    raise RulesError(f"cannot loop over {source!r}")


def keep_all(options: list[Any]) -> list[Any]:
    """The filter of a choice's options when no card has a `play:` condition: all of them
    (a compiled legality predicate tests for it rather than call it: compiler/legality.py)."""
    return options


def query_pool(m: Match, noun: str, zone: Any) -> Iterable[Card]:
    """The cards a query with no adjective looks at, in order, before its condition is
    asked (compiler/codegen_scan.py writes the condition in line): the cards of the noun's
    type in the zone, a list or (zone None) every zone — as q.query gathers them."""
    type_name = m.game.nouns.get(noun)
    if type(zone) is Zone:
        if type_name is None:
            return zone.cards
        if not (held := zone.types[type_name]) or held == len(zone.cards):  # (none or only of that type)
            return zone.cards if held else ()
        return [c for c in zone.cards if c.type == type_name]
    return cards_outside_a_zone(m, type_name, zone)


def cards_outside_a_zone(m: Match, type_name: str | None, zone: Any) -> list[Card]:
    """A query's cards of a type (None: any) when it names no one zone: every zone's
    (`zone` None) or a list's — a new list; anything else is a rules error. q.query and
    query_pool both gather so."""
    if zone is None:
        return m.all_cards() if type_name is None else [
            c for z in m.zones.values() if z.types[type_name] for c in z.cards if c.type == type_name]
    if isinstance(zone, list):
        return [c for c in zone if isinstance(c, Card) and (type_name is None or c.type == type_name)]
    raise RulesError(f"cannot look for cards in {zone!r}")


def options(m: Match, source: Any, where: Callable[[Any], Any] | None, exclude_self: bool = False,
            ctx: Ctx | None = None) -> list[Any]:
    items = iterate(m, source)
    if where is not None:
        items = [x for x in items if where(x)]  # (truth(v) is bool(v), as `if` asks it)
    if exclude_self and ctx is not None:
        items = [x for x in items if x is not ctx.self]
    return items


def probed_options(m: Match, site: int, compute: Callable[[], list[Any]]) -> list[Any]:
    """A choice's options. While legal moves are probed, an action is run again from its
    start for every option of every choice; reached again with the same earlier answers
    in the same state, a choice has the same options, so they are computed once per
    probe of a position (m.probe_path holds the action, the actor and the answers)."""
    path = m.probe_path
    if path is None:
        return compute()
    key = (site, m.version, path)
    cache = m.probe_cache
    try:
        found = cache.get(key)
    except TypeError:
        return compute()
    if found is None:
        found = cache[key] = compute()
    return list(found)


def roll(m: Match, dice: Any) -> int:
    if isinstance(dice, int) and not isinstance(dice, bool):
        dice = Dice(1, dice)
    if not isinstance(dice, Dice) or dice.sides < 1:
        raise RulesError(f"cannot roll {dice!r}")
    m.use_rng()
    results = [m.rng.randint(1, dice.sides) for _ in range(dice.count)]
    m.record("roll", dice=repr(dice), results=results)
    total = sum(results)
    m.rolls_pending.append(total)  # emitted as `rolled` after the statement (Match.emit_rolls)
    if m.journal is not None:
        pending = m.rolls_pending

        def undo() -> None:
            pending.pop()  # (undone newest first: it is the last one again by then)
        m.journal.append(undo)
    return total


def random_pick(m: Match, items: list[Any], count: Any) -> Any:
    pool = list(items)
    m.use_rng()
    if count is None:
        if not pool:
            return None
        pick = pool[m.rng.randrange(len(pool))]
        m.record("random", picked=m.describe(pick))
        return pick
    m.rng.shuffle(pool)
    picked = pool[: whole(m, count)]
    m.record("random", picked=[m.describe(p) for p in picked])
    return picked


# ---------------------------------------------------------------- names and fields


def player(m: Match, seat: int) -> Player | None:
    return m.players[seat - 1] if 1 <= seat <= len(m.players) else None


def players(m: Match) -> list[Player]:
    for p in m.players:  # (nobody out, the usual case: a copy, without a comprehension's frame)
        if p.eliminated:
            return [p for p in m.players if not p.eliminated]
    return m.players[:]


def opponent(m: Match, ctx: Ctx) -> Player | None:
    you = ctx.you or m.current
    if you is None:
        return None
    living = [p for p in m.players if not p.eliminated]
    if you not in living:
        return None
    i = living.index(you)
    return living[(i + m.direction) % len(living)] if len(living) > 1 else None


def name(m: Match, ctx: Ctx, text: str) -> Any:
    """A global name: a param, a counter, a zone, an enum value, or a name argument."""
    kind = m.game.name_kinds.get(text)
    if kind == "param":
        return m.params[text]
    if kind == "counter":
        decl = m.game.counters[text]
        if decl.scope == "shared":
            return m.shared[text]
        owner = ctx.you or m.current
        return owner.counters.get(text, 0) if owner is not None else 0
    if kind == "zone":
        decl_zone = m.game.zones[text]
        return m.zone(text, None if decl_zone.scope == "shared" else (ctx.you or m.current))
    if kind == "enumvalue":
        return EnumValue(m.game.value_enum[text], text)
    if kind == "enum":
        return EnumType(text)
    return text  # statuses, card types, keywords, regions, stages: used by name


def own_zone(m: Match, ctx: Ctx, zone: str) -> Zone:
    """A player's zone named bare (`hand`): the acting player's."""
    owner = ctx.you or m.current
    return m.zones[(zone, owner.index if owner is not None else 0)]


def own_counter(m: Match, ctx: Ctx, counter: str) -> Any:
    """A player's counter named bare (`gold`): the acting player's."""
    owner = ctx.you or m.current
    return owner.counters.get(counter, 0) if owner is not None else 0


class EnumType:
    __slots__ = ("name",)

    def __init__(self, enum_name: str) -> None:
        self.name = enum_name


def attr(m: Match, obj: Any, field: str) -> Any:
    t = type(obj)
    if t is Card:
        counters = obj.counters
        if field in counters:
            return counters[field]
        base = obj.base
        if field in base and not obj.modifiers and field not in m.game.statuses \
                and (m._in_statics or not m._field_statics(field)):
            return base[field]  # printed, and nothing changes it now
        return card_field(m, obj, field)
    if t is Player:
        counters = obj.counters
        if field in counters:
            return counters[field]
        zone = m.zones.get((field, obj.index))
        if zone is not None:
            return zone
        if field in m.game.zones:
            return m.zone(field, obj)
        if field in ("name", "index", "seat", "eliminated"):
            return getattr(obj, field) if field != "index" else obj.index
        if field == "opponents":
            return [p for p in players(m) if p is not obj]
        raise RulesError(f"a player has no {field!r}")
    if t is tuple and len(obj) == 2 and (field == "x" or field == "y"):  # a cell: board games read these most
        return obj[0] if field == "x" else obj[1]
    if t is EnumValue:  # an enum value's property (`c.colour.code`), as _attr_other reads it
        return m.game.enum_props.get((obj.enum, obj.name), _NO_PROPS).get(field)
    if obj is None:
        return None
    return _attr_other(m, obj, field)


def card_builtin(m: Match, obj: Any, field: str) -> Any:
    """`x.zone`, `x.controller`, ...: a built-in the game gives no other meaning
    (codegen.field_kinds), read off a card at once; anything else asks attr()."""
    t = type(obj)
    if t is Card or (t is Zone and (field == "owner" or field == "name")):
        return getattr(obj, field)
    return attr(m, obj, field)


def card_stat(m: Match, obj: Any, field: str) -> Any:
    """`x.cost` for a stat no static ability of the game changes (codegen.field_kinds):
    a card's printed or set value unless an effect with a duration modifies it."""
    if type(obj) is Card and not obj.modifiers:
        base = obj.base
        if field in base:
            return base[field]
    return attr(m, obj, field)


def card_status(m: Match, obj: Any, field: str) -> Any:
    """`x.exhausted` for a status the game gives no other meaning (codegen.field_kinds)."""
    if type(obj) is Card:
        return field in obj.statuses
    return attr(m, obj, field)


def player_zone(m: Match, obj: Any, field: str) -> Any:
    """`p.hand` for a zone every player has, no counter shares the name (codegen.field_kinds)."""
    if type(obj) is Player:
        zone = m.zones.get((field, obj.index))
        if zone is not None:
            return zone
    return attr(m, obj, field)


_NO_PROPS: dict[str, Any] = {}
NO_PROPS = _NO_PROPS  # (generated code reads an enum value's property in line)


def _attr_other(m: Match, obj: Any, field: str) -> Any:
    if isinstance(obj, EnumValue):
        return m.game.enum_props.get((obj.enum, obj.name), {}).get(field)
    if isinstance(obj, EnumType):
        return EnumValue(obj.name, field)
    if isinstance(obj, Zone):
        if field == "cards":
            return list(obj.cards)
        if field == "size":
            return len(obj.cards)
        if field == "owner":
            return obj.owner
        if field == "name":
            return obj.name
        if field in ("top", "bottom"):
            return (obj.cards[0] if field == "top" else obj.cards[-1]) if obj.cards else None
        raise RulesError(f"a zone has no {field!r}")
    if isinstance(obj, tuple) and len(obj) == 2 and field in ("x", "y"):
        return obj[0] if field == "x" else obj[1]
    if isinstance(obj, list):
        return [attr(m, x, field) for x in obj]
    if isinstance(obj, str) and obj in m.game.regions:
        region = m.game.regions[obj]
        if field == "cells":
            return sorted(region.cells)
        return region.properties.get(field)
    raise RulesError(f"{obj!r} has no {field!r}")


def card_field(m: Match, card: Card, field: str) -> Any:
    if field in card.counters:
        return card.counters[field]
    game = m.game
    if field in card.base:
        if field in game.statuses:
            return field in card.statuses
        return m.effective(card, field)
    if field in game.statuses:
        return field in card.statuses
    builtin = _CARD_BUILTINS.get(field)
    if builtin is not None:
        return builtin(m, card)
    if field in game.card_fields:
        return m.effective(card, field)
    raise RulesError(f"{card.name} has no {field!r}")


_CARD_BUILTINS: dict[str, Callable[[Match, Card], Any]] = {
    "name": lambda m, c: c.name,
    "type": lambda m, c: c.type,
    "owner": lambda m, c: c.owner,
    "controller": lambda m, c: c.controller,
    "zone": lambda m, c: c.zone,
    "host": lambda m, c: c.host,
    "attached": lambda m, c: list(c.attached),
    "position": lambda m, c: c.position,
    "keywords": lambda m, c: [k for k, _args in m.keywords_of(c)],
    "copies": lambda m, c: c.definition.copies if c.definition is not None else 1,
    "rules_text": lambda m, c: c.definition.text if c.definition is not None else "",
    "art": lambda m, c: c.definition.art if c.definition is not None else None,
    "flavour": lambda m, c: c.definition.flavour if c.definition is not None else None,
    "face_down": lambda m, c: c.face_down,
    "id": lambda m, c: c.id,
}


def change_counter(m: Match, owner: Player | None, counter: str, op: str, value: Any) -> None:
    if owner is None and m.game.counters[counter].scope != "shared":
        owner = m.current
    # (`set` reads no old value: _combine would give `value` itself)
    m.set_counter(owner, counter, value if op == "set" else _combine(m, m.get_counter(owner, counter), op, value))


def change_field(m: Match, obj: Any, field: str, op: str, value: Any, period: str | None,
                 condition: Callable[[], Any] | None) -> None:
    kind = type(obj)  # (a card or a player, by type: a dozen changes an action in Combat Cards)
    if kind is Player:
        m.set_counter(obj, field, value if op == "set" else _combine(m, obj.counters.get(field, 0), op, value))
        return
    if kind is not Card:
        if not isinstance(obj, list):
            raise RulesError(f"cannot change {field!r} of {in_words(obj)}")
        for item in obj:
            change_field(m, item, field, op, value, period, condition)
        return
    card = obj
    if field in card.counters:
        m.set_card_counter(card, field, value if op == "set" else _combine(m, card.counters[field], op, value))
        return
    if field in m.game.statuses:
        on = bool(value) if op == "set" else True  # (truth: bool)
        if (field in card.statuses) != on:  # (setting it to what it is is not a change)
            m.set_status(card, field, on)
            m.record("status", card=m.describe(card), status=field, on=on)
        return
    if period is not None or condition is not None:
        delta = value if op != "decrease" else arith("-", 0, value)
        m.add_modifier(card, Modifier(field, "=" if op == "set" else "+", delta, period, condition))
        m.record("modify", card=m.describe(card), field=field, op=op, value=_plain(value), until=period)
        return
    current = card.base.get(field, 0)
    m.set_base(card, field, _combine(m, current, op, value))
    m.record("set", card=m.describe(card), field=field, value=_plain(card.base[field]))


def next_period(period: str, player: Any) -> str:
    """`until your next turn` (period "next:turn") made by `player`: the period name the
    flow expires when that player next begins a turn (or the named stage)."""
    return f"{period}:{player.name}" if isinstance(player, Player) else period


def change_index(m: Match, obj: Any, key: Any, op: str, value: Any) -> None:
    if isinstance(obj, list):
        i = int(key)
        old = obj[i]
        obj[i] = _combine(m, old, op, value)
        m.undoable(lambda: obj.__setitem__(i, old))
        return
    raise RulesError(f"cannot change an element of {in_words(obj)}")


def _combine(m: Match, current: Any, op: str, value: Any) -> Any:
    if op == "set":
        return value
    return arith("+" if op == "increase" else "-", current, value)


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, Card | Player | Zone | EnumValue):
        return str(value)
    return value


# ---------------------------------------------------------------- calls, hooks, events


def invoke(m: Match, ctx: Ctx, procedure: str, args: dict[str, Any]) -> Iterator[Any]:
    """Run a procedure (compiled or native) with its before / instead / after hooks."""
    return m.invoke(ctx, procedure, args)


def emit(m: Match, ctx: Ctx, event: str, args: list[Any]) -> Iterable[Any]:
    return m.emit(ctx, event, args)


def checkpoint(m: Match) -> Iterator[Any]:
    """Between scenario statements: the game's checks (state-based rules) until nothing
    changes. (What waits on the stack resolves only when everyone passes, as in a match.)"""
    yield from m.run_checks()


def perform(m: Match, ctx: Ctx, action: str, by: Any, choosing: list[Any], expect_illegal: bool,
            line: int) -> Iterator[Any]:
    return m.perform_scripted(action, by, choosing, expect_illegal, line)


def expect(m: Match, condition: Any, message: str | None, line: int) -> None:
    if not truth(condition):
        raise ExpectationFailed(message or "expectation failed", line)
    m.record("expect", line=line, message=message)


def card_at(m: Match, zone: Zone, cell: tuple[Any, Any]) -> Card | None:
    """fn_card_at for a zone and a 2-tuple cell (generated code calls it for those only): the card
    the zone's scan would find first on that cell, from an index of the zone's cards by
    cell made once per state version (Two Kingdoms asks ~20 times an action which piece
    stands on a space of a board of ~40)."""
    key = (m.version, CARD_AT, zone)
    index = m.memo.get(key)
    if index is None:
        index = {}
        for card in zone.cards:
            if type(card) is Card and card.position is not None and card.position not in index:
                index[card.position] = card
        m.memo[key] = index
    x, y = cell
    return index.get((x, y) if type(x) is type(y) is int else (int(x), int(y)))


CARD_AT = "card at"  # (card_at's key in m.memo, with the version and zone; generated code reads it too)


def _cell_of(m: Match, thing: Any) -> tuple[int, int] | None:
    if isinstance(thing, Card):
        if thing.position is None and thing.host is not None:
            return _cell_of(m, thing.host)
        return thing.position
    if isinstance(thing, tuple | list) and len(thing) == 2:
        return (int(thing[0]), int(thing[1]))
    return None


def keyword_arg(m: Match, ctx: Ctx, keyword: str, position: int) -> Any:
    """The value the acting card gives a keyword's parameter (`Ranged 2` → n = 2)."""
    if ctx.keyword == keyword and ctx.keyword_args is not None and position < len(ctx.keyword_args):
        return ctx.keyword_args[position]
    card = ctx.self
    if isinstance(card, Card):
        for k, args in m.keywords_of(card):
            if k == keyword and position < len(args):
                return args[position]
    decl = m.game.keywords.get(keyword)
    if decl is not None and position < len(decl.params) and decl.params[position].default is not None:
        return m.game._static(decl.params[position].default)
    return None

