"""Which card makes a dominant deck dominant: the same seeds played again without it.

Card impact (engine/balance.py) compares the matches where a seat had a card early with
those where it did not. When a deck wins nearly every match, every one of its cards has
the same record — all wins — and no comparison inside the deck can tell them apart: a
Kingdom Combat unit made absurd (cost 1, 9/9/9) is hired into the starting garrison in
every match, so it is never *not* there to compare with. The question a designer then
asks is an experiment, so `simulate` runs it: for each card of the deck, the same seeds
and seat orders are played with every copy of that card taken out of that deck, and each
match is paired with its twin of the main run. A card's *left-out impact* is the deck's
win rate with it minus without it (mean of the paired differences, normal 95% interval).

Cost is kept down in two rounds: every card is first left out for `SCREEN` seeds; a
card whose removal lost no match there (a card that matters loses some: leaving out one
worth 30 points loses none of 16 twins once in 300) stops, and the others are played
on up to `SEEDS` seeds, enough for a test (balance.MIN_SAMPLE pairs). A card whose
removal breaks the game (a deck's fortress) or stalls it shows as failed twins and is
reported, not tested.

The same experiment judges, on request (`simulate --leave-out-untested`), the cards that
no comparison inside the matches can: in an army game such as Two Kingdoms every piece
is on the table from the start, so a card is never *not* seen, whatever its deck's win
rate. Each such card is left out of every dealt deck holding it (`untested_cards`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cardsmith.engine.balance import MIN_SAMPLE, WON, Z95, as_measured, seat_won
from cardsmith.engine.simulate import Lineup, MatchSummary, Task, play_tasks, seat_orders

DOMINANT = 0.8  # a deck whose 95% Wilson interval lies above this win rate is examined
SCREEN = 8  # seeds every card of such a deck is first left out for
SEEDS = 25  # seeds a card whose removal lost a match in the screen is played on to
# A deck without a card it cannot do without may stall (nothing left to score with): its
# twins stop at STALL times the longest match of the main run (at least STALL_FLOOR
# actions) and count as failed, instead of running to the main run's action cap.
STALL = 4
STALL_FLOOR = 1_000


@dataclass(frozen=True)
class LeftOut:
    """One card left out of one deck: the paired win-rate differences of its twins."""

    deck: str
    card: str
    differences: tuple[int, ...]  # per paired match: deck won with it (1/0) minus won without it
    failed: int  # twins that did not end (an error, the action cap, the turn limit)

    def as_json(self, min_sample: int = MIN_SAMPLE) -> dict[str, Any]:
        n = len(self.differences)
        mean = sum(self.differences) / n if n else None
        low = high = p = None
        if n >= 2 and mean is not None:
            variance = sum((d - mean) ** 2 for d in self.differences) / (n - 1)
            se = math.sqrt(variance / n)
            if se == 0:
                low = high = mean
                p = 1.0 if mean == 0 else 0.0
            else:
                low, high = max(-1.0, mean - Z95 * se), min(1.0, mean + Z95 * se)
                p = math.erfc(abs(mean / se) / math.sqrt(2))
        warning = None
        if self.failed and not n:
            warning = f"the deck cannot be played without it ({self.failed} matches failed)"
        elif n < min_sample:
            warning = f"few paired matches ({n} < {min_sample}): not tested"
        return {"deck": self.deck, "card": self.card, "pairs": n, "failed": self.failed,
                "impact": None if mean is None else round(mean, 4),
                "impact_low": None if low is None else round(low, 4),
                "impact_high": None if high is None else round(high, 4),
                "p": None if warning else p, "warning": warning}


def dominant_decks(decks: dict[str, dict[str, Any]], min_sample: int = MIN_SAMPLE) -> list[str]:
    """Decks whose win rate's 95% interval lies above DOMINANT, over enough matches."""
    return [name for name, r in decks.items()
            if r.get("of", 0) >= min_sample and r.get("low") is not None and r["low"] >= DOMINANT]


def untested_cards(rows: Sequence[dict[str, Any]], lineups: Sequence[Lineup]) -> dict[str, list[str]]:
    """Per dealt deck, its cards that card impact could not test: no comparison at all
    (always seen and in play, as every piece of an army game is) or too few matches on one
    side of it (a Two Kingdoms archer once dealt late among 50 matches): only leaving them
    out can judge them."""
    lonely = {r["card"] for r in rows if r.get("p") is None and r.get("warning")
              and ("no comparison" in r["warning"] or _lopsided(r))}
    found: dict[str, set[str]] = {}
    for dealt, names in lineups:
        for cards, name in zip(dealt, names, strict=True):
            found.setdefault(name, set()).update(card for card in cards if card in lonely)
    return {deck: sorted(cards) for deck, cards in sorted(found.items()) if cards}


# the two sides of each comparison card impact may rank by (balance.card_impact's rows)
_SIDES = {"opening hand": ("opening_hand", "not_opening_hand"), "drawn": ("seen", "not_seen"),
          "acquired": ("acquired", "offered_not_acquired")}


def _lopsided(row: dict[str, Any]) -> bool:
    """Is the card's comparison untested because one side almost never happens (under a
    tenth of enough observations) rather than because the run is short? More matches
    would not help the first; leaving the card out does."""
    sides = _SIDES.get(row.get("basis", ""))
    if sides is None:
        return False
    counts = [int((row.get(side) or {}).get("of", 0)) for side in sides]
    total, small = sum(counts), min(counts)
    return total >= MIN_SAMPLE and small < MIN_SAMPLE and small * 10 < total


def most_matches(lineups: Sequence[Lineup], cards: dict[str, list[str]], seeds: int, rotate: bool) -> int:
    """The most twins leaving `cards` out could play (every card on to its second round)."""
    return sum(len(seat_orders(without(lineups, deck, card), rotate)) * min(SEEDS, seeds)
               for deck, names in cards.items() for card in names)


def without(lineups: Sequence[Lineup], deck: str, card: str) -> list[Lineup]:
    """The lineups that deal `deck` to exactly one seat, with every copy of `card` taken
    out of it (a mirror match would take it from both sides and show nothing)."""
    out: list[Lineup] = []
    for decks, names in lineups:
        if names.count(deck) != 1:
            continue
        out.append(([[c for c in cards if c != card] if name == deck else list(cards)
                     for cards, name in zip(decks, names, strict=True)], list(names)))
    return out


def _pairs(base: dict[tuple[int, tuple[str, ...]], MatchSummary], twins: Sequence[MatchSummary],
           deck: str, measure: str = WON) -> tuple[list[int], int]:
    """The paired differences (deck's win with the card minus without, or its first
    place: balance.outcome_measure) and the failed twins."""
    ended = ("won", "shared", "drawn", "no winner")
    differences: list[int] = []
    failed = 0
    for twin in twins:
        if twin.outcome not in ended:
            failed += 1
            continue
        names = tuple(twin.decks or [])
        match = base.get((twin.seed, names))
        if match is None or match.outcome not in ended:
            continue
        seat = names.index(deck)
        match, twin = as_measured([match, twin], measure)
        differences.append(int(seat_won(match, seat)) - int(seat_won(twin, seat)))
    return differences, failed


def leave_out(target: str, results: Sequence[MatchSummary], lineups: Sequence[Lineup], decks: Sequence[str],
              first_seed: int, seeds: int, template: Task, jobs: int, rotate: bool,
              progress: Callable[[int], None] | None = None, measure: str = WON,
              only: dict[str, list[str]] | None = None) -> list[LeftOut]:
    """Every card of each deck in `decks` (or only the cards `only` names for a deck)
    left out in turn (two rounds, see the module's docstring), on the first seeds of the
    main run, paired with its matches. `template` carries the main run's players, mode,
    agents, action cap and traces folder; `measure` is what the main run's figures
    counted (balance.outcome_measure)."""
    base = {(r.seed, tuple(r.decks or [])): r for r in results}
    longest = max((r.actions for r in results if r.outcome in ("won", "shared", "drawn", "no winner")), default=0)
    template = replace(template, max_actions=min(template.max_actions, max(STALL_FLOOR, STALL * longest)))
    found: dict[tuple[str, str], tuple[list[int], int]] = {}
    plan: list[tuple[str, str, list[Lineup]]] = []
    for deck in decks:
        cards = sorted({card for dealt, names in lineups for cards, name in zip(dealt, names, strict=True)
                        if name == deck for card in cards})
        wanted_cards = (only or {}).get(deck)
        plan += [(deck, card, ups) for card in cards
                 if (wanted_cards is None or card in wanted_cards) and (ups := without(lineups, deck, card))]
    screen = min(SCREEN, seeds)
    rounds = [(0, screen), (screen, min(SEEDS, seeds))]
    for number, (start, stop) in enumerate(rounds):
        if stop <= start:
            continue
        wanted = [(deck, card, ups) for deck, card, ups in plan
                  if number == 0 or any(d > 0 for d in found[deck, card][0])]
        tasks: list[tuple[str, str, Task]] = []
        for deck, card, ups in wanted:
            for i in range(start, stop):
                for r, (dealt, names) in enumerate(seat_orders(list(ups), rotate)):
                    tasks.append((deck, card, replace(template, target=target, seed=first_seed + i, decks=dealt,
                                                      rotation=r, deck_names=names, traces=None)))
        played = play_tasks([t for _, _, t in tasks], jobs, progress)
        for deck, card in {(d, c) for d, c, _ in tasks}:
            twins = [m for (d, c, _), m in zip(tasks, played, strict=True) if (d, c) == (deck, card)]
            differences, failed = _pairs(base, twins, deck, measure)
            before = found.get((deck, card), ([], 0))
            found[deck, card] = (before[0] + differences, before[1] + failed)
    return [LeftOut(deck, card, tuple(found[deck, card][0]), found[deck, card][1]) for deck, card, _ in plan]
