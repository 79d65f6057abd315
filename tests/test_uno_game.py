"""The benchmark's UNO (benchmarks/games/uno), played through legal_actions / apply.

The game exists to race RLCard's UNO (benchmarks/bench_engine.py), so what matters is
that it is RLCard's game: it checks cleanly, random matches end with a player out of
cards, the moves offered are RLCard's legal actions (a Wild Draw Four only when nothing
else can be played, a draw only when nothing at all can), a wild's chosen colour is
what the next card must match, and a Draw Two makes the next player draw two and lose
their turn. Every match is seeded, so every figure here is the same on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from conftest import ROOT

from cardsmith.app import load
from cardsmith.compiler.api import check_game
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.moves import Action

UNO = str(ROOT / "benchmarks" / "games" / "uno")
COLOUR_CODES = {"red": 1, "green": 2, "blue": 3, "yellow": 4}


@cache
def game() -> CompiledGame:
    return load(UNO)


def kinds(actions: list[Action]) -> set[str]:
    return {action.payload[0] for action in actions if isinstance(action.payload, tuple)}


def hand(match: PlayedMatch, seat: int) -> list[Any]:
    return list(match.zones[("hand", seat)].cards)


def first_position(where: Callable[[list[Action]], Action | None]) -> tuple[PlayedMatch, Action]:
    """The first seeded match whose opening decision offers the move `where` picks."""
    for seed in range(1, 500):
        match = PlayedMatch(game(), seed=seed, players=2)
        chosen = where(match.legal_actions())
        if chosen is not None:
            return match, chosen
    raise AssertionError("no seed below 500 opens with that move")


def test_uno_checks_without_errors() -> None:
    result = check_game(UNO)
    errors = [f"{d.span.file}:{d.span.line}: {d.code} {d.message}" for d in result.errors]
    assert not errors, "\n".join(errors)
    assert result.game is not None and result.game.game.id == "uno"
    assert sum(card.copies for card in result.game.cards) == 108, "RLCard's 108-card deck"


def test_random_matches_end_with_a_winner_and_offer_rlcards_moves() -> None:
    for seed in range(1, 31):
        match = PlayedMatch(game(), seed=seed, players=2)
        rng = random.Random(seed)
        assert [len(hand(match, s)) for s in (0, 1)] in ([7, 7], [9, 7]), "7 each (+2 on a first Draw Two)"
        applied = 0
        while not match.is_over:
            assert applied < 2_000, f"seed {seed}: no winner after 2,000 actions"
            actions = match.legal_actions()
            offered = kinds(actions)
            assert actions and all(a.payload != "pass" for a in actions), "UNO has no passing"
            if "draw_card" in offered:
                assert offered == {"draw_card"}, "a draw only when nothing can be played"
            if "play_wild_draw_four" in offered:
                assert offered == {"play_wild_draw_four"}, "a Wild Draw Four only when nothing else matches"
            cards = [a.payload[1][0] for a in actions if a.payload[0] == "play_card"]
            assert len({c.name for c in cards}) == len(cards), "two copies of a card are one move"
            match.apply(rng.choice(actions))
            applied += 1
        assert match.error is None
        out_of_cards = [p.name for p in match.players if not hand(match, p.index)]
        assert match.result["winners"] == out_of_cards and len(out_of_cards) == 1, f"seed {seed}"


def test_a_wilds_chosen_colour_is_what_the_next_card_must_match() -> None:
    match, wild = first_position(lambda actions: next(
        (a for a in actions if a.payload[0] == "play_wild" and a.payload[1][0].name == "blue"), None))
    mover = wild.player
    match.apply(wild)
    assert match.shared["target_colour"] == COLOUR_CODES["blue"]
    actions = match.legal_actions()
    assert actions[0].player == 1 - mover, "a Wild passes the turn"
    for action in actions:
        if action.payload[0] == "play_card":
            assert action.payload[1][0].base["colour"].name == "blue", action.description
    blue_in_hand = [c for c in hand(match, 1 - mover) if c.base["colour"].name == "blue"]
    assert bool(blue_in_hand) == ("play_card" in kinds(actions)), "every blue card, and only blue, matches"


def test_draw_two_makes_the_next_player_draw_two_and_lose_their_turn() -> None:
    match, draw_two = first_position(lambda actions: next(
        (a for a in actions if a.payload[0] == "play_card" and a.payload[1][0].base["face"] == 12), None))
    mover = draw_two.player
    other_before = len(hand(match, 1 - mover))
    mine_before = len(hand(match, mover))
    match.apply(draw_two)
    assert len(hand(match, 1 - mover)) == other_before + 2
    assert len(hand(match, mover)) == mine_before - 1
    assert match.legal_actions()[0].player == mover, "the other player's turn is skipped"
    assert match.shared["target_face"] == 12
