"""The `variety` agent: random play over kinds of move (engine/agents.py VarietyAgent).

Random play is uniform over moves, so where one action offers hundreds of ways (Kingdom
Combat's unit moves) it hardly ever attacks and its matches run to the action cap; a
balance report of such matches says nothing. Variety picks a kind of move first, so its
matches end, and it reads only what a seat may: the kind of each move (SeatView.kinds).
"""

from __future__ import annotations

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, VarietyAgent, agent_problem, ask, make_agent, play_out
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.seatview import seat_view


def test_variety_ends_kingdom_combat_matches_that_random_play_does_not() -> None:
    game = load("kingdom_combat")
    decks = decks_for(game, 2, None)
    for seed in (1, 5):
        varied = PlayedMatch(game, seed=seed, players=2, decks=decks)
        played = play_out(varied, [VarietyAgent(seed * 10), VarietyAgent(seed * 10 + 1)], max_actions=2_500)
        assert varied.is_over and len(varied.winners) == 1 and played < 2_500
    chance = PlayedMatch(game, seed=1, players=2, decks=decks)
    play_out(chance, [RandomAgent(10), RandomAgent(11)], max_actions=2_500)
    assert not chance.is_over  # the same seed, uniform over moves: still going


def test_the_kinds_of_moves_a_seat_sees() -> None:
    game = load("kingdom_combat")
    match = PlayedMatch(game, seed=2, players=2, decks=decks_for(game, 2, None))
    seen_window = seen_other = False
    agent = make_agent("variety", 7)
    for _ in range(300):
        actions = match.legal_actions()
        with seat_view(match, actions) as view:
            kinds = view.kinds
            windowed = isinstance(getattr(match.pending, "actions", None), list)
            assert len(kinds) == view.size
            if windowed:
                seen_window = True
                names = {a.payload[0] for a in actions
                         if isinstance(a.payload, tuple) and isinstance(a.payload[0], str)}
                assert {k for k in kinds if k is not None and ": " not in k} == names
                if view.pass_index is not None:
                    assert kinds[view.pass_index] is None
            else:
                seen_other = True
                assert kinds == [None] * view.size
        match.apply(ask(agent, match, actions))
        if match.is_over:
            break
    assert seen_window and seen_other
    assert agent_problem("variety") is None and agent.decisions > 0 and agent.fallbacks == 0
