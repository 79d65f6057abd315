"""A zone's counts of its cards (Zone.types / controlled / held) always equal a recount.

Queries and a window's activated abilities skip a zone by its counts without looking at
its cards (engine/queries.py, engine/offers.py), so a count that drifted would hide a
legal move. Match._place and Match.set_attr keep the counts, and their undo closures roll
them back; these tests recount every zone after every action of random matches of the
library's games and after every rollback of a probe (an action tried hypothetically while
legal moves are found), and across the hidden cards a determinized world swaps.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardsmith.app import load
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.model.state import Zone


def _counts(zone: Zone) -> tuple[dict[Any, int], dict[Any, int], dict[Any, int]]:
    """The zone's kept counts, without the entries that fell back to 0."""
    return ({k: n for k, n in zone.types.items() if n}, {k: n for k, n in zone.controlled.items() if n},
            {k: n for k, n in zone.held.items() if n})


def _recount(zone: Zone) -> tuple[dict[Any, int], dict[Any, int], dict[Any, int]]:
    return (dict(Counter(c.type for c in zone.cards)), dict(Counter(c.controller for c in zone.cards)),
            dict(Counter((c.type, c.controller) for c in zone.cards)))


def assert_counted(match: PlayedMatch, when: str) -> None:
    for key, zone in match.zones.items():
        kept, actual = _counts(zone), _recount(zone)
        assert kept == actual, f"{when}: zone {key} counts {kept}, holds {actual}"
        assert all(n >= 0 for part in (zone.types, zone.controlled, zone.held) for n in part.values())


class CheckedMatch(PlayedMatch):
    """A played match that recounts every zone whenever a probe (or any journaled run) is
    rolled back — the moment a count the undo closures missed would show."""

    rollbacks = 0
    use_predicates = False  # every legal move probed (and rolled back), the compiled predicates unused

    def restore_state(self, snapshot: Any) -> None:
        super().restore_state(snapshot)
        type(self).rollbacks += 1
        assert_counted(self, f"after rollback {type(self).rollbacks}")


def _play(game_id: str, seed: int, actions: int, players: int | None = None) -> PlayedMatch:
    game = load(game_id)
    count = players if players is not None else max(2, game.ir.game.players_min)
    decks = [list(game.ready_decks[i % len(game.ready_decks)]) for i in range(count)] if game.ready_decks else None
    match = CheckedMatch(game, seed=seed, players=count, decks=decks)  # as game.new_match deals them
    assert_counted(match, "after setup")
    agents = [RandomAgent(seed * 10 + i) for i in range(count)]
    for applied in range(actions):
        if match.is_over:
            break
        legal = match.legal_actions()
        if not legal:
            break
        match.apply(ask(agents[legal[0].player % count], match, legal))
        assert_counted(match, f"{game_id} seed {seed} after action {applied + 1}")
    return match


# (game, seed, actions, seats, whether a window's legal moves are there to probe: Combat
# Cards has no action windows)
@pytest.mark.parametrize(("game_id", "seed", "actions", "players", "probed"), [
    ("kingdom_combat", 1, 150, None, True),
    ("kingdom_combat", 3, 120, 3, True),
    ("two_kingdoms", 2, 120, None, True),
    ("kingdom_cards", 4, 120, None, True),
    ("construct_and_combat", 5, 120, None, True),
    ("combat_cards", 6, 80, None, False),
])
def test_counts_equal_a_recount_after_every_action_and_rollback(game_id: str, seed: int, actions: int,
                                                                players: int | None, probed: bool) -> None:
    before = CheckedMatch.rollbacks
    _play(game_id, seed, actions, players)
    if probed:  # probing ran (and was rolled back) while moves were found
        assert CheckedMatch.rollbacks > before


def test_determinized_worlds_recount_the_swapped_cards() -> None:
    """A sampled world deals hidden cards' identities — their card type too — among the
    places the viewer cannot see (Match.set_attr): the counts follow, and the rollback
    puts them back."""
    match = _play("kingdom_combat", 2, 60)
    before = {key: _counts(zone) for key, zone in match.zones.items()}
    snapshot = match.snapshot_state()
    moved = False
    for seed in range(6):
        match.determinize(0, random.Random(seed))
        assert_counted(match, f"world {seed}")
        moved = moved or {key: _counts(zone) for key, zone in match.zones.items()} != before
    match.restore_state(snapshot)
    assert {key: _counts(zone) for key, zone in match.zones.items()} == before
    assert moved, "no world moved a card type between zones: the test saw no swap"


def test_a_change_of_controller_is_counted_and_rolled_back() -> None:
    match = _play("kingdom_combat", 5, 40)
    zone, card = next((z, c) for z in match.zones.values() for c in z.cards if c.controller is match.players[0])
    other = match.players[1]
    snapshot = match.snapshot_state()
    match.set_attr(card, "controller", other)
    assert zone.held[(card.type, other)] >= 1
    assert_counted(match, "after the change of controller")
    match.restore_state(snapshot)
    assert card.controller is match.players[0]
