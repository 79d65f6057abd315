"""Queries over the table: `all units in your hand where ...`, `is` qualities, `top of`.

Generated code calls them as `q.query(...)`, `q.is_(...)` and `q.top(...)`. A query
walks only the zones it can find cards in (compiler/queryplan.py decides which, and may
test a condition once per zone) and reads card qualities — a card type's noun, a status,
an enum value, `friendly`/`enemy`, `damaged` — from the compiled game's tables. Apart
from runtime.py because it is the one part of the runtime that searches the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from cardsmith.compiler.queryplan import SPECIAL_WORDS
from cardsmith.dsl import ir
from cardsmith.engine.runtime import Ctx, cards_outside_a_zone, players, whole
from cardsmith.model.state import Card, EnumValue, Player, Zone
from cardsmith.model.values import RulesError

if TYPE_CHECKING:
    from cardsmith.engine.match import Match


def query(m: Match, ctx: Ctx, noun: str, adjectives: list[str], zone: Any,
          where: Callable[[Any], Any] | None, by_zone: Callable[[Any], Any] | None = None,
          rest: Callable[[Any], Any] | None = None, zone_site: int | None = None,
          zone_also: Callable[[Any], Any] | None = None, one: bool = False) -> list[Any]:
    """The cards (or players) a query names, in zone order: of the noun's type, with
    every adjective, where the condition holds. Always a new list.

    `one`: only the first of them is wanted (`any(all ...)`, `first(all ...)`: the
    compiler asks so), so the condition is not asked of the cards after it.

    `by_zone` and `rest`, when the compiler splits the condition (compiler/queryplan.py):
    the part that reads a card only by its zone, asked once per zone, and the part asked
    of each card of the zones that pass. `zone_site`: the zone test is the same all match
    long (queryplan.zone_constant), so each zone's answer is remembered for the match;
    `zone_also`, with a site: the part of the zone test that is not, asked per zone at
    every query of the zones the remembered part lets through."""
    try:
        noun = _LOWERED[noun]
    except KeyError:
        noun = _LOWERED[noun] = noun.lower()
    if noun in ir.PLAYER_NOUNS:
        pool: list[Any] = players(m)
        if noun.startswith("opponent") or "other" in adjectives:
            pool = [p for p in pool if p is not ctx.you]
        return _first([p for p in pool if where is None or where(p)], one)
    type_name = m.game.nouns.get(noun)
    if by_zone is not None and where is not None:
        site: _Site | None = None
        if zone_site is not None:
            site = m.match_memo.get((_LIVE_ZONES, zone_site))
            if site is None:
                site = _new_site(m, zone_site)
        if zone is None:
            if site is None:
                return _query_by_zone(m, ctx, type_name, adjectives, m.zones.values(), where, by_zone, rest, None,
                                      zone_also, one)
            if site.zones != len(m.zones) or site.answered != len(site.known):
                site.refresh(m)
            return _query_by_zone(m, ctx, type_name, adjectives, site.live, where, by_zone, rest, site.known,
                                  zone_also, one)
        if type(zone) is Zone:
            return _query_by_zone(m, ctx, type_name, adjectives, (zone,), where, by_zone, rest,
                                  None if site is None else site.known, zone_also, one)
    if type(zone) is not Zone:
        cards = cards_outside_a_zone(m, type_name, zone)
    elif type_name is None:
        if one and not adjectives and where is not None:
            return _first_where(zone.cards, None, where)
        cards = list(zone.cards)
    elif not zone.types[type_name]:
        return []
    elif not adjectives and where is not None:  # (one pass: `all units in z where ...`)
        if one:
            return _first_where(zone.cards, type_name, where)
        return [c for c in zone.cards if c.type == type_name and where(c)]
    else:
        cards = [c for c in zone.cards if c.type == type_name]
    for word in adjectives:  # each adjective narrows what the previous ones left
        cards = narrow(m, ctx, word, cards)
    if where is not None:
        if one:
            return _first_where(cards, None, where)
        cards = [c for c in cards if where(c)]
    return _first(cards, one)


def _first(found: list[Any], one: bool) -> list[Any]:
    return found[:1] if one else found


def _first_where(cards: Iterable[Card], type_name: str | None, where: Callable[[Any], Any]) -> list[Any]:
    """The first card of the type (any type: None) where the condition holds, as a list of
    at most one: the cards after it are not asked."""
    for c in cards:
        if (type_name is None or c.type == type_name) and where(c):
            return [c]
    return []


# the key of a query site's remembered zone answers in Match.match_memo (with the site)
_ZONE_TEST = "zone test"

# a query's noun as the game's tables spell it (lower case), kept per word written: the
# generated rules ask with the same few nouns again and again
_LOWERED: dict[str, str] = {}


class _Site:
    """What a query site with a remembered zone test keeps for the match: each zone's
    answer (`known`, also under (_ZONE_TEST, site) in Match.match_memo), and the match's
    zones, in order, less those whose answer is no (`live`): Kingdom Combat's move actions
    look only at the zones on the table instead of every player's deck, hand and discard
    at every query. `live` is made again when a zone is added or another zone answered."""

    __slots__ = ("answered", "known", "live", "zones")

    def __init__(self, known: dict[Zone, bool]) -> None:
        self.known = known
        self.zones = self.answered = -1  # (how many zones and answers `live` was made from)
        self.live: list[Zone] = []

    def refresh(self, m: Match) -> None:
        known = self.known
        self.zones, self.answered = len(m.zones), len(known)
        self.live = [z for z in m.zones.values() if known.get(z) is not False]


def _new_site(m: Match, site: int) -> _Site:
    known = m.match_memo.get((_ZONE_TEST, site))
    if known is None:
        known = m.match_memo[(_ZONE_TEST, site)] = {}
    entry = m.match_memo[(_LIVE_ZONES, site)] = _Site(known)
    return entry


# the key of a query site's _Site in Match.match_memo (with the site)
_LIVE_ZONES = "live zones"


def _query_by_zone(m: Match, ctx: Ctx, type_name: str | None, adjectives: list[str], zones: Iterable[Zone],
                   where: Callable[[Any], Any], by_zone: Callable[[Any], Any],
                   rest: Callable[[Any], Any] | None, known: dict[Zone, bool] | None,
                   zone_also: Callable[[Any], Any] | None = None, one: bool = False) -> list[Any]:
    """query() over whole zones: the zone test is asked of any card of the zone (its
    answer is the same for every card there), and the zone skipped when it fails — before
    its cards are even sorted by type. A zone whose test raises is asked card by card with
    the whole condition, as the query would without a plan (and its answer is not kept).
    `known`: the query site's remembered answers of the zone test, when it has a site.

    The part of the zone test not remembered per zone (`zone_also`; the whole `by_zone`
    without a site) may also read the card's controller (queryplan.PLACE_FIELDS): it is
    asked once per controller present in the zone (_by_controller), of the first
    candidate alone in a `friendly` query.

    A zone's counts (Zone.types, Zone.held) skip it before its test when it holds no card
    of the noun's type — none the query's owner controls, for "a friendly unit" — and
    spare the type and `friendly` tests of its cards when all of them pass."""
    found: list[Any] = []
    group = by_zone if known is None else zone_also  # (asked per zone and controller)
    # a leading `friendly` is decided by the counts; later adjectives keep their order
    # (a keyword's test counts what it reads for the dead-rule report)
    you = ctx.you
    friendly: tuple[str, Player | None] | None = None  # the key of Zone.held to count by
    if type_name is not None and adjectives and adjectives[0] == "friendly":
        friendly = (type_name, you)
        adjectives = adjectives[1:]
    mine = typed = 0  # (how many of the zone's cards pass: by the counts)
    for z in zones:
        cards = z.cards
        if not cards:
            continue
        if friendly is not None:
            mine = z.held[friendly]
            if not mine:
                continue
        elif type_name is not None:
            typed = z.types[type_name]
            if not typed:
                continue
        passes: bool | None = True
        if known is not None:
            passes = known.get(z)
            if passes is None:
                try:
                    passes = bool(by_zone(cards[0]))
                except Exception:
                    passes = None
                else:
                    known[z] = passes
            if passes is False:
                continue
        if friendly is not None:
            if passes and group is not None:
                # every candidate is the query owner's: any card of theirs answers for all
                answer = group_mine(group, cards, you)
                if answer is False:
                    continue
                if answer is None:
                    passes = None
            if mine != len(cards):
                cards = [c for c in cards if c.type == type_name and c.controller is you]
        else:
            allowed: bool | set[Player | None] | None = True
            if passes and group is not None:
                if z.controlled[cards[0].controller] == len(cards):  # (one controller: most zones)
                    try:
                        if not group(cards[0]):
                            continue
                    except Exception:
                        passes = None
                else:
                    allowed = _by_controller(group, z, cards)
                    if allowed is False:
                        continue
                    if allowed is None:
                        passes = None
            if type_name is not None and typed != len(cards):
                cards = [c for c in cards if c.type == type_name]
            if type(allowed) is set:
                cards = [c for c in cards if c.controller in allowed]
        for word in adjectives:
            if not cards:
                break
            cards = narrow(m, ctx, word, cards)
        # `one`: only the first is wanted, so the cards and zones after it are not asked
        test: Callable[[Any], Any]
        if passes is None:
            test = where
        elif rest is None:
            found.extend(cards)
            if one and found:
                return found[:1]
            continue
        else:
            test = rest
        if one:
            for c in cards:
                if test(c):
                    return [c]
        else:
            found += filter(test, cards)  # (the loop in C: no frame but the test's own)
    return found


def live_site(m: Match, zone_site: int) -> _Site:
    """A planned query's site written in line (compiler/codegen_planned.py): its record of
    remembered zone answers, its live zones made again when q.query would make them."""
    site: _Site | None = m.match_memo.get((_LIVE_ZONES, zone_site))
    if site is None:
        site = _new_site(m, zone_site)
    if site.zones != len(m.zones) or site.answered != len(site.known):
        site.refresh(m)
    return site


def zone_passes(known: dict[Zone, bool], zone: Zone, test: Callable[[Any], Any]) -> bool | None:
    """The remembered zone test of a planned query written in line, asked of the zone's
    first card and kept; None when it raises (not kept: the zone's cards are then asked
    the whole condition), as _query_by_zone asks it."""
    try:
        passes = bool(test(zone.cards[0]))
    except Exception:
        return None
    known[zone] = passes
    return passes


def group_mine(test: Callable[[Any], Any], cards: list[Card], you: Player | None) -> bool | None:
    """A `friendly` planned query's zone-and-controller test, asked of the zone's first card
    of yours (the answer for every candidate); None when it raises. _query_by_zone asks it too."""
    own = cards[0]
    if own.controller is not you:
        for own in cards:  # (the first of theirs)
            if own.controller is you:
                break
    try:
        return bool(test(own))
    except Exception:
        return None


def group_of(test: Callable[[Any], Any], zone: Zone) -> bool | set[Player | None] | None:
    """A planned query's zone-and-controller test for a zone, as _query_by_zone asks it:
    True when every card passes, False when none does, the passing controllers when only
    some do, None when it raises."""
    cards = zone.cards
    if zone.controlled[cards[0].controller] == len(cards):  # (one controller: most zones)
        try:
            return bool(test(cards[0]))
        except Exception:
            return None
    return _by_controller(test, zone, cards)


def _by_controller(test: Callable[[Any], Any], zone: Zone, cards: list[Card]) -> bool | set[Player | None] | None:
    """A zone test that reads a card only by its zone and controller, asked once per
    controller present in a zone of several (of its first card there): True when every card
    passes, False when none does, else the controllers whose cards pass; None when it
    raises (the zone's cards are then asked the whole condition one by one)."""
    present = len([n for n in zone.controlled.values() if n])
    answers: dict[Player | None, bool] = {}
    for c in cards:
        owner = c.controller
        if owner not in answers:
            try:
                answers[owner] = bool(test(c))
            except Exception:
                return None
            if len(answers) == present:
                break
    passing = {owner for owner, ok in answers.items() if ok}
    if not passing:
        return False
    return True if len(passing) == len(answers) else passing


def narrow(m: Match, ctx: Ctx, word: str, cards: list[Card]) -> list[Card]:
    """The cards with the quality `word` (quality_test's answer for each), in order; the
    words the rules ask most tested in the list comprehension itself, without a call per
    card (Two Kingdoms asks "enemy unattached unit" and "friendly unattached Horse unit"
    for every unit that may attack or ride, every window)."""
    game = m.game
    if word in game.statuses:  # (a status first, as quality_test reads the word)
        return [c for c in cards if word in c.statuses]
    if word == "unattached":
        return [c for c in cards if c.host is None]
    if word == "friendly":
        you = ctx.you
        return [c for c in cards if c.controller is you]
    if word == "enemy":
        you = ctx.you
        return [c for c in cards if c.controller is not None and c.controller is not you]
    if word in game.value_enum and word not in _SPECIAL_WORDS:
        # _has_enum_value, each card's answer kept while no card's base changes (it reads
        # only that): a window asks "friendly unattached Horse unit" of the same units for
        # every rider; Combat Cards asks "normal combat cards" of a hand after every change
        known = enum_word_answers(m, word)
        found = []
        for c in cards:
            has = known.get(c)
            if has is None:  # (_has_enum_value written out: a call per card costs more than its loop)
                has = False
                for value in c.base.values():
                    if type(value) is EnumValue and value.name == word:
                        has = True
                        break
                known[c] = has
            if has:
                found.append(c)
        return found
    test = quality_test(m, ctx, word)
    return [c for c in cards if test(c)]


_ENUM_WORD = "enum value"  # (narrow's key in m.memo: no remembered function's key has a text there)


def enum_word_answers(m: Match, word: str) -> dict[Card, bool]:
    """Which cards have an enum value named `word` among their printed values, as far as
    asked: kept until some card's printed values change (Match.base_changes). narrow reads
    it, and so does a query scanned in line (compiler/codegen_scan.py)."""
    key = (m.base_changes, _ENUM_WORD, word)
    known: dict[Card, bool] | None = m.memo.get(key)
    if known is None:
        known = m.memo[key] = {}
    return known


def enum_word_answer(known: dict[Card, bool], card: Card, word: str) -> bool:
    """Has the card an enum value named `word` among its printed values? Kept in `known`
    (enum_word_answers') for the next ask: the in-line scan's miss."""
    has = known[card] = _has_enum_value(card, word)
    return has


def quality_test(m: Match, ctx: Ctx, word: str) -> Callable[[Card], bool]:
    """What an adjective or `is` word asks of a card (a card type's noun, a status, an
    enum value, `friendly`/`enemy`, `damaged`, ...), decided once per query rather than
    once per card it looks at."""
    game = m.game
    if word in game.statuses:
        return lambda card: word in card.statuses
    if word == "friendly":
        you = ctx.you
        return lambda card: card.controller is you
    if word == "enemy":
        you = ctx.you
        return lambda card: card.controller is not None and card.controller is not you
    if word == "other":
        own = ctx.self
        return lambda card: card is not own
    if word in ("token", "tokens"):
        return m.is_token
    if word == "face_down":
        return lambda card: card.face_down
    if word == "face_up":
        return lambda card: not card.face_down
    if word == "attached":
        return lambda card: card.host is not None
    if word == "unattached":
        return lambda card: card.host is None
    if word in game.value_enum:
        return lambda card: _has_enum_value(card, word)
    if word in game.keywords:
        return lambda card: any(k == word for k, _ in m.keywords_of(card))
    type_name = game.nouns.get(word.lower())
    if type_name is not None:
        return lambda card: card.type == type_name
    return _never


def _has_enum_value(card: Card, name: str) -> bool:
    # a plain loop: any() would make a generator for every card asked
    for value in card.base.values():  # noqa: SIM110
        if type(value) is EnumValue and value.name == name:
            return True
    return False


def _never(card: Card) -> bool:
    return False


# the words quality_test reads before it tries a card type's noun (compiler/queryplan.py)
_SPECIAL_WORDS = SPECIAL_WORDS


def _noun_of(m: Match, word: str) -> str | None:
    """The card type `word` names when it names nothing quality_test asks first
    (remembered per game: `x is Unit` is asked of every card a rule weighs)."""
    game = m.game
    known = game.word_nouns
    if word not in known:
        plain = not (word in game.statuses or word in _SPECIAL_WORDS or word in game.value_enum
                     or word in game.keywords)
        known[word] = game.nouns.get(word.lower()) if plain else None
    return known[word]


def is_(m: Match, ctx: Ctx, value: Any, words: list[str]) -> bool:
    if type(value) is Card:
        for word in words:
            noun = _noun_of(m, word)
            if not (value.type == noun if noun is not None else quality_test(m, ctx, word)(value)):
                return False
        return True
    if isinstance(value, Player):
        return all(w in ("player",) or (w == "eliminated" and value.eliminated) for w in words)
    return False


def top(m: Match, zone: Any, count: Any, bottom: bool) -> Any:
    if not isinstance(zone, Zone):
        raise RulesError(f"'top of' needs a zone, not {zone!r}")
    cards = zone.cards[::-1] if bottom else zone.cards
    if count is None:
        return cards[0] if cards else None
    return list(cards[: whole(m, count)])
