"""A game rarely won, with cards bought from a market: card impact still finds the planted card.

Construct & Combat is lost by everyone in nearly every simulated match (the enemy deck
runs out before anyone reaches 15 CP), and its constructs are never in a hand: they are
bought from a public market row into a kingdom. So win rates are all 0% and no construct
has an opening-hand or drawn comparison. balance.outcome_measure then counts placing
first by the game's `scoring`, and a market card is judged on the seats that acquired it
against those it was offered to that did not (cardfacts: offered, acquired).

Measured (docs/simulate.md): Road's points 2 -> 8 in a copied folder is first and flagged
from 200 matches (q = 6.5e-23; untested below ~150, when fewer than 30 seats bought it).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from conftest import LIBRARY
from test_simulate_impact import simulate_json

from cardsmith.engine.balance import PLACED_FIRST, WON, as_measured, card_impact, outcome_measure
from cardsmith.engine.cardfacts import SeatFacts
from cardsmith.engine.simreport import balance_lines


@dataclass
class Ended:
    """A match as balance reads it (simulate.MatchSummary's fields that matter here)."""

    winners: list[int]
    placed: list[int] | None
    seats: list[SeatFacts] = field(default_factory=list)
    decks: list[str] | None = None

    @property
    def outcome(self) -> str:
        return "won" if len(self.winners) == 1 else "no winner"


def test_a_game_rarely_won_is_measured_by_who_placed_first() -> None:
    rarely = [Ended([], [i % 2]) for i in range(9)] + [Ended([0], [0])]
    assert outcome_measure(rarely) == PLACED_FIRST
    measured = as_measured(rarely, PLACED_FIRST)
    assert [m.winners for m in measured] == [[i % 2] for i in range(9)] + [[0]]
    assert [m.winners for m in rarely][:2] == [[], []]  # the results keep the rules' own outcome
    mostly_won = [Ended([i % 2], [i % 2]) for i in range(6)] + [Ended([], [1]) for _ in range(4)]
    assert outcome_measure(mostly_won) == WON
    no_scoring = [Ended([], None) for _ in range(10)]  # a game without `scoring` places nobody
    assert outcome_measure(no_scoring) == WON
    assert as_measured(mostly_won, WON) == mostly_won


def test_a_market_card_is_judged_on_the_seats_that_acquired_it() -> None:
    matches = []
    for i in range(80):
        bought = i % 2  # the seat that bought the card places first, the other did not buy it
        seats = [SeatFacts(acquired=("Gem",) if seat == bought else (), offered=("Gem", "Dust"))
                 for seat in range(2)]
        matches.append(Ended([bought], [bought], seats))
    rows = {r["card"]: r for r in card_impact(matches)}
    gem = rows["Gem"]
    assert gem["basis"] == "acquired" and gem["impact"] == 1.0 and gem["flagged"]
    assert gem["acquired"]["rate"] == 1.0 and gem["offered_not_acquired"]["rate"] == 0.0
    assert rows["Dust"]["impact"] is None
    assert rows["Dust"]["warning"] == "offered to 160 seats, never acquired: no comparison"


def test_a_planted_construct_is_ranked_first_and_flagged(tmp_path: Path) -> None:
    copy = tmp_path / "construct_and_combat"
    shutil.copytree(LIBRARY / "construct_and_combat", copy)
    cards = copy / "cards" / "constructs.cards"
    text = cards.read_text(encoding="utf-8")
    road = text.index('card "Road"')
    points = text.index("points: 2", road)
    cards.write_text(text[:points] + "points: 8" + text[points + len("points: 2"):], encoding="utf-8")
    code, data, err = simulate_json(str(copy), "-n", "200", "-j", "2")
    assert code == 0, err
    assert data["outcome_measure"] == PLACED_FIRST and data["sole_winners"] < 20
    top = data["card_impact"][0]
    assert top["card"] == "Road" and top["flagged"] and top["basis"] == "acquired"
    assert data["flagged"][0] == "Road" and top["impact_low"] > 0.3
    lines = balance_lines(data, 2)
    assert any(line.startswith("Counted: placing first by the game's scoring, not winning") for line in lines)
    assert any(line.startswith("Seats (first-place rate [95% Wilson]") for line in lines)
