"""What a player holding priority may do: the timing rules of actions and abilities.

One table decides, for every window of a played match, which of the game's actions and
which activated abilities are offered to the player holding priority (flow.py then
probes each for legality by running it up to its payment). Scenarios' `perform` and the
played match read the same table, so "who may act, when" has one definition.

* `by: current` — the player whose turn it is; while something waits on the stack, only
  if the action is `instant`.
* `by: any` — every player holding priority, on any player's turn.
* `by: responder` — every player holding priority, but only in answer to something
  waiting on the stack.
* `speed: instant` actions and abilities may be used in every window of every stage,
  listed or not ("at any time"); other activated abilities are offered to their card's
  controller on their own turn, with the stack empty, in stages that list `activate`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Player

if TYPE_CHECKING:
    from cardsmith.engine.match import Match


def action_offered(decl: ir.ActionDecl, is_current: bool, stack_busy: bool) -> bool:
    """May the priority holder take this action now (timing only; legality is probed)?"""
    if decl.by == "current":
        return is_current and (not stack_busy or decl.speed == "instant")
    if decl.by == "responder":
        return stack_busy
    return True


def ability_offered(ability: ir.Activated, is_current: bool, stack_busy: bool, stage_lists_activate: bool) -> bool:
    """May the controller of a card use this activated ability now?"""
    if ability.speed == "instant":
        return True
    return is_current and not stack_busy and stage_lists_activate


class Activation:
    """One activated ability of one card: the handler key and the Ctx it runs with. (Read
    only. A plain slotted class: a window makes one for every ability of every card it
    lists, and a frozen dataclass took five times as long to make.)"""

    __slots__ = ("ability", "card", "key", "keyword", "keyword_args")

    def __init__(self, card: Card, key: tuple[str, ...], ability: ir.Activated, keyword: str | None,
                 keyword_args: list[Any] | None) -> None:
        self.card = card
        self.key = key
        self.ability = ability
        self.keyword = keyword
        self.keyword_args = keyword_args

    @property
    def move(self) -> tuple[Any, ...]:
        """The move as a played match stores it (portable: card, then the handler key)."""
        return ("activate", self.card, self.key)

    def ctx(self) -> rt.Ctx:
        return rt.Ctx(self.card.controller, self.card, self.keyword, self.keyword_args)


def activations(m: Match, player: Player, instant_only: bool = False) -> Iterator[Activation]:
    """Every activated ability of the cards `player` controls that are in play (the zone
    their type enters, or a public zone: where their triggers work too), in zone order.

    A zone holding no card of the player's is skipped by its count (Zone.controlled), and
    a card is asked for its abilities only when it has some: its own, its printed
    keywords' (`_activatable`), or a keyword with one that a static grants it now — so a
    game whose statics may grant such a keyword no longer lists every card of every
    discard pile — and its keywords are read only when one of them may have one. (While
    the dead-rule report counts what statics reach, every card is asked as before:
    asking counts.)

    When no static grants such a keyword now, a zone's candidates are picked by a list
    comprehension over the names that have an ability (`_activatable`), not tested one
    by one in this generator: Kingdom Combat's statics may grant one, so every card counts
    as having one (Game.activated_cards), and each window walked both discard piles card
    by card to find the few that do. `instant_only` (the caller offers only instant
    abilities now: ability_offered) narrows the names to the cards with an instant one;
    the caller still asks ability_offered of each ability listed."""
    with_abilities = m.game.activated_cards
    if not with_abilities:
        return
    entered = m.game.entered_zones
    counting = m.tally is not None
    found = _activatable(m)
    own, by_keyword = (found.own_instant, found.keyword_instant) if instant_only else (found.own, found.by_keyword)
    granted = _NO_IDS if counting else _granted_ids(m)
    either = found.either_instant if instant_only else found.either
    for zone in m.zones.values():
        public = zone.visibility == "public"
        if not public and zone.name not in entered:
            continue  # no card is in play there (Match._in_play)
        if not zone.controlled[player]:
            continue
        if counting or granted:
            for card in list(zone.cards):
                if card.controller is not player or card.name not in with_abilities:
                    continue
                # (a card of a public zone is in play there: Match._in_play need not be asked)
                if counting or card.name in by_keyword or (granted and id(card) in granted):
                    if (public and card.zone is zone) or m._in_play(card, []):
                        yield from card_activations(m, card)
                elif card.name in own and ((public and card.zone is zone) or m._in_play(card, [])):
                    yield from card_activations(m, card, keywords=False)
            continue
        for card in [c for c in zone.cards if c.name in either and c.controller is player]:
            if (public and card.zone is zone) or m._in_play(card, []):
                yield from card_activations(m, card, keywords=card.name in by_keyword)


_NO_IDS: frozenset[int] = frozenset()


class _Activatable:
    """The names of the cards with an activated ability of their own, of those with a
    printed keyword that has one, either, and the same for instant abilities only (kept
    for the match: the game's cards never change)."""

    __slots__ = ("by_keyword", "either", "either_instant", "keyword_instant", "own", "own_instant")

    def __init__(self, m: Match) -> None:
        by_keyword = m.game.keyword_activations
        cards = m.game.cards_by_name.values()
        self.own = frozenset(d.name for d in cards if d.activated)
        self.by_keyword = frozenset(d.name for d in cards if any(by_keyword.get(k) for k, _ in d.keywords))
        self.either = self.own | self.by_keyword
        self.own_instant = frozenset(d.name for d in cards if any(a.speed == "instant" for _i, a in d.activated))
        self.keyword_instant = frozenset(d.name for d in cards if any(
            a.speed == "instant" for k, _ in d.keywords for _i, a in by_keyword.get(k, ())))
        self.either_instant = self.own_instant | self.keyword_instant


def _activatable(m: Match) -> _Activatable:
    """The match's _Activatable, made at its first window."""
    found: _Activatable | None = m.match_memo.get(_ACTIVATABLE)
    if found is None:
        found = m.match_memo[_ACTIVATABLE] = _Activatable(m)
    return found


_ACTIVATABLE = ("offers", "cards with activated abilities")  # (its key in the match's memo)


def _granted_ids(m: Match) -> set[int] | frozenset[int]:
    """The cards (by id) that a static in play grants a keyword with an activated ability
    now — the same statics keywords_of reads (events.py `_grants`, worked out once per
    state; so is this, kept beside the list it was read from)."""
    if m._in_statics:
        return _NO_IDS
    grants = m._grants()
    kept = m.match_memo.get(_GRANTED)
    if kept is not None and kept[0] is grants:
        return kept[1]  # type: ignore[no-any-return]
    by_keyword = m.game.keyword_activations
    found: set[int] = set()
    for _key, reached, granted in grants:
        if any(by_keyword.get(name) for name, _args in granted):
            found |= reached
    m.match_memo[_GRANTED] = (grants, found)
    return found


_GRANTED = ("offers", "granted activated keywords")  # (its key in the match's memo)


def card_activations(m: Match, card: Card, keywords: bool = True) -> Iterator[Activation]:
    """A card's activated abilities: its own, then its keywords' (`keywords` False: its
    own only — the caller knows no keyword of it has one)."""
    definition = card.definition
    if definition is None:
        return
    for index, ability in definition.activated:
        yield Activation(card, ("card", card.name, index), ability, None, None)
    if not keywords:
        return
    by_keyword = m.game.keyword_activations
    for use, (keyword, kargs) in enumerate(m.keywords_of(card)):
        for index_k, ability in by_keyword.get(keyword, ()):
            yield Activation(card, ("keyword", keyword, index_k, str(use)), ability, keyword, kargs)


def find_activation(m: Match, card: Card, key: tuple[str, ...]) -> Activation | None:
    """The activation a stored move names (None: the card no longer has it). A card's own
    ability is looked up in its definition, without listing the keywords' (probing asks
    this once per run of an ability); anything else as card_activations lists it."""
    definition = card.definition
    if definition is not None and len(key) == 3 and key[0] == "card" and key[1] == card.name:
        for index, ability in definition.activated:
            if index == key[2]:
                return Activation(card, ("card", card.name, index), ability, None, None)
    return next((a for a in card_activations(m, card) if a.key == key), None)
