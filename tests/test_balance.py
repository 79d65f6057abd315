"""The statistics of engine/balance.py against textbook values, and card impact on real matches.

Wilson intervals against the standard worked examples (0/10, 10/10, 81/263); the clustered
difference against the unpooled Wald interval it must equal for independent matches, and
wider when the two seats of a match mirror each other; Benjamini-Hochberg by hand.
"""

from __future__ import annotations

import pytest

from cardsmith.engine.balance import balance, benjamini_hochberg, card_impact, clustered_difference, wilson
from cardsmith.engine.simulate import simulate


def test_wilson_interval_matches_the_textbook() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)  # nothing known: anything is possible


def test_clustered_difference_is_the_unpooled_interval_for_independent_matches() -> None:
    """One observation per match: the textbook unpooled Wald interval and z test
    (56/70 vs 48/80: 0.2 +- 1.96 * 0.0727, p = 0.0059)."""
    groups = ([[(True, True)]] * 56 + [[(True, False)]] * 14 + [[(False, True)]] * 48 + [[(False, False)]] * 32)
    found = clustered_difference(groups)
    assert found is not None
    diff, low, high, p = found
    se = (0.8 * 0.2 / 70 + 0.6 * 0.4 / 80) ** 0.5
    assert diff == pytest.approx(0.2) and low == pytest.approx(0.2 - 1.959963984540054 * se)
    assert high == pytest.approx(0.2 + 1.959963984540054 * se) and p == pytest.approx(0.00594, abs=1e-5)
    assert clustered_difference([[(True, True)]]) is None  # nothing to compare with


def test_clustered_difference_widens_when_the_seats_of_a_match_mirror_each_other() -> None:
    """A shared draw pile: the card is in exactly one seat's opening hand, and exactly one
    seat wins. Counting the two seats as independent would halve the variance."""
    both = [[(True, True), (False, False)]] * 30 + [[(True, False), (False, True)]] * 20
    alone = [[(True, True)]] * 30 + [[(True, False)]] * 20 + [[(False, False)]] * 30 + [[(False, True)]] * 20
    paired, independent = clustered_difference(both), clustered_difference(alone)
    assert paired is not None and independent is not None
    assert paired[0] == independent[0] == pytest.approx(0.2)
    assert paired[2] - paired[1] == pytest.approx((independent[2] - independent[1]) * 2 ** 0.5)
    assert paired[3] > independent[3]


def test_benjamini_hochberg_adjusts_in_rank_order() -> None:
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg([]) == []
    assert benjamini_hochberg([0.9, 0.8]) == pytest.approx([0.9, 0.9])


def test_card_impact_of_real_matches_is_consistent() -> None:
    """On 60 real Combat Cards matches: every held card has its counts add up, every
    interval contains its estimate, and a card under the minimum sample is warned, not
    tested (so it cannot be flagged)."""
    results = simulate("combat_cards", 60, seed=11)
    ended = [r for r in results if r.outcome in ("won", "shared", "drawn", "no winner")]
    rows = card_impact(ended, min_sample=30)
    assert rows and len({r["card"] for r in rows}) == len(rows)
    for r in rows:
        assert r["seen"]["of"] + r["not_seen"]["of"] == r["matches"]
        assert r["opening_hand"]["of"] + r["not_opening_hand"]["of"] == r["matches"]
        assert r["seen"]["of"] >= r["opening_hand"]["of"] or r["basis"] == "drawn"
        if r["impact"] is not None:
            assert r["impact_low"] <= r["impact"] <= r["impact_high"]
        if r["q"] is None:
            assert not r["flagged"]
            assert r["warning"] is not None
    few = card_impact(ended, min_sample=10_000)
    assert not any(r["flagged"] or r["p"] is not None for r in few)
    assert all("not tested" in r["warning"] or "no comparison" in r["warning"] for r in few)
    stats = balance(results, 2)
    assert stats["ended"] == len(ended)
    assert sum(s["wins"] for s in stats["seats"].values()) == sum(1 for r in ended if len(r.winners) == 1)
    assert stats["method"]["correction"].startswith("Benjamini-Hochberg")


def test_a_card_in_two_decks_is_compared_within_each_deck() -> None:
    """A card in the opening hand of the strong deck more often (it holds more copies)
    looks strong when the decks are pooled; within each deck it changes nothing."""
    from cardsmith.engine.balance import stratified_difference

    groups = [[("strong", i % 4 != 0, True), ("weak", i % 4 == 0, False)] for i in range(200)]
    pooled = clustered_difference([[(marked, won) for _, marked, won in group] for group in groups])
    assert pooled is not None and pooled[0] == 0.5 and pooled[3] < 1e-6  # deck strength, read as the card's
    found = stratified_difference(groups)
    assert found is not None and found[0] == 0 and found[3] == 1.0
    assert found[4:] == (200, 200)  # marked and unmarked observations in strata with both sides
    one = stratified_difference([[(None, m, w) for m, w in group] for group in
                                 [[(True, True)], [(False, False)], [(True, False)], [(False, True)], [(True, True)]]])
    assert one is not None and one[:4] == clustered_difference(
        [[(True, True)], [(False, False)], [(True, False)], [(False, True)], [(True, True)]])
