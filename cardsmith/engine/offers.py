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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Activation:
    """One activated ability of one card: the handler key and the Ctx it runs with."""

    card: Card
    key: tuple[str, ...]
    ability: ir.Activated
    keyword: str | None
    keyword_args: list[Any] | None

    @property
    def move(self) -> tuple[Any, ...]:
        """The move as a played match stores it (portable: card, then the handler key)."""
        return ("activate", self.card, self.key)

    def ctx(self) -> rt.Ctx:
        return rt.Ctx(self.card.controller, self.card, self.keyword, self.keyword_args)


def activations(m: Match, player: Player) -> Iterator[Activation]:
    """Every activated ability of the cards `player` controls that are in play (the zone
    their type enters, or a public zone: where their triggers work too), in zone order."""
    with_abilities = m.game.activated_cards
    if not with_abilities:
        return
    entered = m.game.entered_zones
    for zone in m.zones.values():
        if zone.visibility != "public" and zone.name not in entered:
            continue  # no card is in play there (Match._in_play)
        for card in list(zone.cards):
            if card.controller is not player or card.name not in with_abilities or not m._in_play(card, []):
                continue
            yield from card_activations(m, card)


def card_activations(m: Match, card: Card) -> Iterator[Activation]:
    definition = card.definition
    if definition is None:
        return
    for index, ability in definition.activated:
        yield Activation(card, ("card", card.name, index), ability, None, None)
    by_keyword = m.game.keyword_activations
    for use, (keyword, kargs) in enumerate(m.keywords_of(card)):
        for index_k, ability in by_keyword.get(keyword, ()):
            yield Activation(card, ("keyword", keyword, index_k, str(use)), ability, keyword, kargs)


def find_activation(m: Match, card: Card, key: tuple[str, ...]) -> Activation | None:
    """The activation a stored move names (None: the card no longer has it)."""
    return next((a for a in card_activations(m, card) if a.key == key), None)
