"""Balance statistics with their uncertainty: seat and deck win rates, matchups, card impact.

A designer acts on a number only when they know how sure it is, so every rate carries a
95% interval and every card comparison a test:

- rates use the Wilson score interval (honest near 0% and 100%, where the textbook
  p ± 1.96·se interval goes below 0 or above 1);
- a difference of two win rates (a card's impact, its "improvement when drawn") gets a
  normal interval and z test whose variance is clustered by match (clustered_difference:
  the two seats of a match are not independent observations);
- the p-values of all cards are corrected together with Benjamini-Hochberg (false
  discovery rate 5%): with 30 cards, about 1.5 would look "significant" at p < 0.05 by
  chance alone.

A win is being the only winner; shared wins, draws and matches that ended without a
winner count as not won. A game that is mostly lost by everyone (a cooperative or
solo-against-the-game design, where the game itself wins nearly every simulated match)
would leave every rate at 0% and every card's impact at zero, so when fewer than half of
the ended matches have a sole winner and the game's `scoring` places someone first in
more of them, every figure counts *placing first by the scoring* instead of winning
(outcome_measure; the report and the JSON say which was counted). Matches that did not
end (an error, the action cap, the turn limit) are left out of every rate: they are
counted apart (`outcomes` in simulate.py).
Card figures are per (match, seat): a card in both decks counts once for each seat
holding it. What "held", "seen" (drawn or in the opening hand, or played) and "played"
mean is in engine/cardfacts.py.
"""

from __future__ import annotations

import copy
import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
FDR = 0.05  # Benjamini-Hochberg false discovery rate for flagged cards
MIN_SAMPLE = 30  # fewer (match, seat) pairs on either side of a comparison: not tested, warned


class Played(Protocol):
    """What balance reads of a match (simulate.MatchSummary)."""

    winners: list[int]
    decks: list[str] | None
    seats: Any

    @property
    def outcome(self) -> str: ...


PlayedT = TypeVar("PlayedT", bound=Played)
ENDED = ("won", "shared", "drawn", "no winner")
WON = "won"
PLACED_FIRST = "placed first"  # by the game's `scoring`, when too few matches have a winner


def outcome_measure(results: Sequence[Played]) -> str:
    """What the figures count as a seat's success: WON, or PLACED_FIRST when fewer than
    half of the ended matches have a sole winner and the game's scoring singles out a
    first-placed seat in more of them (simulate.placed_first: a winner places first)."""
    ended = [m for m in results if m.outcome in ENDED]
    sole = sum(1 for m in ended if len(m.winners) == 1)
    placed = sum(1 for m in ended if len(getattr(m, "placed", None) or ()) == 1)
    return PLACED_FIRST if 2 * sole < len(ended) and placed > sole else WON


def as_measured(results: Sequence[PlayedT], measure: str) -> list[PlayedT]:
    """The matches as the figures read them: under PLACED_FIRST each match's `winners`
    are the seats its scoring placed first (copies: the results themselves keep the
    rules' own outcome for the honest totals)."""
    if measure == WON:
        return list(results)
    measured: list[PlayedT] = []
    for match in results:
        twin = copy.copy(match)
        twin.winners = list(getattr(match, "placed", None) or ())
        measured.append(twin)
    return measured


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of wins/n (0..1 when n is 0: nothing is known)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def clustered_difference(groups: Sequence[Sequence[tuple[bool, bool]]]) -> tuple[float, float, float, float] | None:
    """The win rate of the observations marked True minus that of those marked False,
    with its 95% normal interval and two-sided p-value, the variance clustered by match.

    `groups` has one entry per match: its (marked, won) observations. Two seats of one
    match are not independent — when one wins the other loses, and in a game drawing from
    a shared pile a card in one seat's opening hand is not in the other's — so treating
    them as independent would understate the variance (about halving it when both seats
    hold the card). The cluster-robust (sandwich) variance sums, match by match, the
    squared contribution of its observations to the difference; with one observation per
    match it is exactly the usual unpooled variance p1(1-p1)/n1 + p0(1-p0)/n0.
    None when either side has no observation."""
    found = stratified_difference([[(None, marked, won) for marked, won in group] for group in groups])
    return None if found is None else found[:4]


def stratified_difference(groups: Sequence[Sequence[tuple[Hashable, bool, bool]]]) \
        -> tuple[float, float, float, float, int, int] | None:
    """clustered_difference within strata (a seat's deck), combined: (difference, low,
    high, p, marked, unmarked) over the strata that have both sides.

    A card in two decks is more often in the opening hand of the deck holding more
    copies; compared across decks, its "impact" would be that deck's strength. Within
    each stratum the difference is that of the card alone; the strata are weighted by
    n1·n0/(n1+n0) (the weight that makes a difference of two rates most precise), and the
    clustered variance takes each observation's share of the weighted sum. With one
    stratum this is exactly the plain clustered difference. None when no stratum has both."""
    tally: dict[Hashable, list[int]] = {}  # stratum -> [n1, k1, n0, k0]
    for group in groups:
        for stratum, marked, won in group:
            t = tally.setdefault(stratum, [0, 0, 0, 0])
            side = 0 if marked else 2
            t[side] += 1
            t[side + 1] += won
    both = {s: t for s, t in tally.items() if t[0] and t[2]}
    if not both:
        return None
    weights = {s: t[0] * t[2] / (t[0] + t[2]) for s, t in both.items()}
    total = sum(weights.values())
    share = {s: 1.0 if len(both) == 1 else w / total for s, w in weights.items()}
    rates = {s: (t[1] / t[0], t[3] / t[2]) for s, t in both.items()}
    diff = sum(share[s] * (p1 - p0) for s, (p1, p0) in rates.items()) if len(both) > 1 else \
        next(p1 - p0 for p1, p0 in rates.values())
    variance = 0.0
    for group in groups:
        part = 0.0
        for stratum, marked, won in group:
            if stratum not in both:
                continue
            t, (p1, p0) = both[stratum], rates[stratum]
            part += share[stratum] * ((won - p1) / t[0] if marked else -(won - p0) / t[2])
        variance += part * part
    n1, n0 = sum(t[0] for t in both.values()), sum(t[2] for t in both.values())
    se = math.sqrt(variance)
    if se == 0:
        return diff, diff, diff, 1.0 if diff == 0 else 0.0, n1, n0
    p = math.erfc(abs(diff / se) / math.sqrt(2))
    return diff, max(-1.0, diff - Z95 * se), min(1.0, diff + Z95 * se), p, n1, n0


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


def rate(wins: int, n: int) -> dict[str, Any]:
    """A rate as the report shows it: wins of n, the rate and its 95% Wilson interval."""
    low, high = wilson(wins, n)
    return {"wins": wins, "of": n, "rate": round(wins / n, 4) if n else None,
            "low": round(low, 4), "high": round(high, 4)}


def seat_won(match: Played, seat: int) -> bool:
    """The seat won alone (a shared win, a draw or no winner is not a win)."""
    return match.winners == [seat]


def seat_rates(ended: Sequence[Played], players: int) -> dict[str, Any]:
    """Each seat's win rate; with rotated decks every deck sat in every seat equally
    often, so what is left is the seat's own (dis)advantage."""
    return {f"player{s + 1}": rate(sum(1 for m in ended if seat_won(m, s)), len(ended)) for s in range(players)}


def deck_rates(ended: Sequence[Played]) -> dict[str, Any]:
    """Each deck's win rate over every (match, seat) it was dealt to, whatever the seat."""
    wins: Counter[str] = Counter()
    dealt: Counter[str] = Counter()
    for m in ended:
        for seat, deck in enumerate(m.decks or []):
            dealt[deck] += 1
            wins[deck] += seat_won(m, seat)
    return {deck: rate(wins[deck], dealt[deck]) for deck in sorted(dealt)}


def matchups(ended: Sequence[Played]) -> dict[str, dict[str, Any]]:
    """Deck against deck: the row deck's win rate in matches where the column deck sat
    at the same table (both seat orders together). Mirror matches are left out."""
    wins: dict[tuple[str, str], int] = defaultdict(int)
    met: dict[tuple[str, str], int] = defaultdict(int)
    for m in ended:
        decks = m.decks or []
        for i, a in enumerate(decks):
            for j, b in enumerate(decks):
                if i != j and a != b:
                    met[a, b] += 1
                    wins[a, b] += seat_won(m, i)
    table: dict[str, dict[str, Any]] = {}
    for a, b in sorted(met):
        table.setdefault(a, {})[b] = rate(wins[a, b], met[a, b])
    return table


class _Card:
    """One card's observations: per match, one (seen, opening, played, won, deck) per seat
    holding it (deck: the seat's deck's name, None when the game deals none); and per
    match where it was offered (cardfacts: a market's card), one (deck, acquired, won)
    per seat — every seat could have taken it."""

    __slots__ = ("by_match", "offers", "plays")

    def __init__(self) -> None:
        self.by_match: list[list[tuple[bool, bool, bool, bool, str | None]]] = []
        self.offers: list[list[tuple[Hashable, bool, bool]]] = []
        self.plays = 0

    def count(self, which: int, won: bool | None = None) -> int:
        """Observations marked `which` (-1: all), of which won (or lost) when `won` is given."""
        return sum(1 for group in self.by_match for o in group if (which < 0 or o[which]) and
                   (won is None or o[3] == won))

    def split(self, which: int) -> list[list[tuple[Hashable, bool, bool]]]:
        return [[(o[4], bool(o[which]), o[3]) for o in group] for group in self.by_match]


def _cards(ended: Iterable[Played]) -> dict[str, _Card]:
    cards: dict[str, _Card] = {}
    for m in ended:
        here: dict[str, list[tuple[bool, bool, bool, bool, str | None]]] = {}
        decks = m.decks or []
        for seat, facts in enumerate(m.seats):
            won = seat_won(m, seat)
            deck = decks[seat] if seat < len(decks) else None
            seen, opening = set(facts.seen), set(facts.opening)
            # a card dealt from a shared pile is compared over every seat (cardfacts: pool)
            for name in sorted(set(facts.held).union(facts.pool)):
                plays = facts.played.get(name, 0)
                here.setdefault(name, []).append((name in seen, name in opening, plays > 0, won, deck))
                cards.setdefault(name, _Card()).plays += plays
        for name, group in here.items():
            cards[name].by_match.append(group)
        offered: dict[str, list[tuple[Hashable, bool, bool]]] = {}
        for seat, facts in enumerate(m.seats):
            deck = decks[seat] if seat < len(decks) else None
            for name in facts.offered:
                offered.setdefault(name, []).append((deck, name in facts.acquired, seat_won(m, seat)))
        for name, offers in offered.items():
            cards.setdefault(name, _Card()).offers.append(offers)
    return cards


SEEN, OPENING, PLAYED = 0, 1, 2  # positions in an observation; the last is won


def _compare(groups: Sequence[Sequence[tuple[Hashable, bool, bool]]], min_sample: int) -> dict[str, Any]:
    """Marked minus unmarked win rate within each deck (stratified_difference), tested when
    both sides have at least `min_sample` observations (else a warning says why not)."""
    found = stratified_difference(groups)
    if found is None:
        return {"diff": None, "low": None, "high": None, "p": None, "warning": "one side never happened"}
    diff, low, high, p, marked, unmarked = found
    fewest = min(marked, unmarked)
    warning = f"few matches ({fewest} < {min_sample}) on one side: not tested" if fewest < min_sample else None
    return {"diff": round(diff, 4), "low": round(low, 4), "high": round(high, 4),
            "p": None if warning else p, "warning": warning}


def card_impact(ended: Sequence[Played], min_sample: int = MIN_SAMPLE,
                left_out: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Per card: the 17lands-style figures — win rate when seen (GIH WR), when held but not
    seen, their difference IWD ("improvement when drawn"), opening-hand win rate, play
    rate — and its *impact*: the opening-hand win rate minus the win rate of the matches
    where the seat held the card but not in its opening hand, with its interval.

    Impact is what is tested and ranked, not IWD: whether a card is in the opening hand
    is settled by the shuffle before anyone acts, while whether it is drawn later depends
    on how long the match lasts — a seat that loses fast draws fewer cards, so every card
    of a losing deck looks good when drawn (IWD is biased by match length; with one
    overpowered card most other cards of the game got "significant" IWDs). A card that is
    never or always in the opening hand falls back on IWD (`basis` says which); one never
    held but by taking it from a market (cardfacts: offered, acquired) on the win rate of
    the seats that acquired it minus that of the seats it was offered to that did not
    (biased as IWD is: a seat doing well can afford more). A card of a
    deck that won nearly everything is judged instead by `left_out` (engine/leaveout.py:
    the deck's win rate with it minus without it, on paired matches), the one comparison
    that can tell such a deck's cards apart — when that was tested, or the card has no
    comparison of its own. Sorted: tested cards by impact, most helpful
    first, then the rest."""
    removed: dict[str, dict[str, Any]] = {}
    for found in left_out:  # a card left out of two dominant decks: the clearer result
        kept = removed.get(found["card"])
        if kept is None or (found["p"] is not None and (kept["p"] is None or found["p"] < kept["p"])):
            removed[found["card"]] = found
    rows: list[dict[str, Any]] = []
    pvalues: list[float] = []
    tested: list[int] = []
    for name, c in sorted(_cards(ended).items()):
        held, held_won = c.count(-1), c.count(-1, True)
        seen, seen_won = c.count(SEEN), c.count(SEEN, True)
        opening, opening_won = c.count(OPENING), c.count(OPENING, True)
        played, played_won = c.count(PLAYED), c.count(PLAYED, True)
        iwd, first = _compare(c.split(SEEN), min_sample), _compare(c.split(OPENING), min_sample)
        bought = _compare(c.offers, min_sample)
        basis, chosen = ("opening hand", first) if first["diff"] is not None else \
            ("drawn", iwd) if iwd["diff"] is not None or bought["diff"] is None else ("acquired", bought)
        acquired = sum(1 for group in c.offers for o in group if o[1])
        acquired_won = sum(1 for group in c.offers for o in group if o[1] and o[2])
        offered = sum(len(group) for group in c.offers)
        offered_won = sum(1 for group in c.offers for o in group if o[2])
        row: dict[str, Any] = {
            "card": name, "matches": held,
            "seen": rate(seen_won, seen), "not_seen": rate(held_won - seen_won, held - seen),
            "iwd": iwd["diff"], "iwd_low": iwd["low"], "iwd_high": iwd["high"],
            "opening_hand": rate(opening_won, opening),
            "not_opening_hand": rate(held_won - opening_won, held - opening),
            "played": {"plays": c.plays, "matches": played,
                       **{k: v for k, v in rate(played, held).items() if k != "wins"}},
            "won_when_played": rate(played_won, played),
            "acquired": rate(acquired_won, acquired),
            "offered_not_acquired": rate(offered_won - acquired_won, offered - acquired),
            "impact": chosen["diff"], "impact_low": chosen["low"], "impact_high": chosen["high"], "basis": basis,
            "p": None, "q": None, "flagged": False,
            "warning": chosen["warning"] if chosen["diff"] is not None else
            (f"offered to {offered:,} seats, never acquired: no comparison" if offered and not acquired else
             "acquired by every seat it was offered to: no comparison" if offered and seen == 0 else
             "never seen in a match: no comparison" if seen == 0 else
             "seen and in the opening hand in every match it was held: no comparison"),
        }
        lo = removed.get(name)
        if lo is not None and lo["impact"] is not None and (lo["p"] is not None or chosen["p"] is None):
            chosen = {"diff": lo["impact"], "low": lo["impact_low"], "high": lo["impact_high"], "p": lo["p"],
                      "warning": lo["warning"]}
            row.update(impact=lo["impact"], impact_low=lo["impact_low"], impact_high=lo["impact_high"],
                       basis=f"left out of {lo['deck']}", warning=lo["warning"])
        if chosen["p"] is not None:
            tested.append(len(rows))
            pvalues.append(chosen["p"])
        rows.append(row)
    for i, p, q in zip(tested, pvalues, benjamini_hochberg(pvalues), strict=True):
        rows[i].update(p=float(f"{p:.3g}"), q=float(f"{q:.3g}"), flagged=q < FDR)
    rows.sort(key=lambda r: (r["q"] is None, -(r["impact"] if r["impact"] is not None else -2.0), r["card"]))
    return rows


def balance(results: Sequence[Played], players: int, min_sample: int = MIN_SAMPLE,
            left_out: Sequence[dict[str, Any]] = (), measure: str | None = None) -> dict[str, Any]:
    """Seat, deck, matchup and card-impact figures of the matches that ended (with the
    left-out comparisons of a dominant deck's cards, engine/leaveout.py, when run), each
    counting `measure` (None: what outcome_measure chooses for these matches)."""
    measure = measure or outcome_measure(results)
    ended = [m for m in as_measured(results, measure) if m.outcome in ENDED]
    cards = card_impact(ended, min_sample, left_out)
    return {
        "ended": len(ended),
        "outcome_measure": measure,
        "sole_winners": sum(1 for m in results if m.outcome == "won"),
        "seats": seat_rates(ended, players),
        "decks": deck_rates(ended),
        "matchups": matchups(ended),
        "card_impact": cards,
        "flagged": [r["card"] for r in cards if r["flagged"]],
        "left_out": list(left_out),
        "method": {"rates": "Wilson score 95%", "differences": "normal 95%, variance clustered by match",
                   "test": "z test, variance clustered by match", "correction": f"Benjamini-Hochberg, FDR {FDR:.0%}",
                   "min_sample": min_sample},
    }
