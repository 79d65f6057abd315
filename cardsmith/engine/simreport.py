"""A simulation as a designer reads it: text lines for the terminal, and a per-match export.

The CLI prints these lines; keeping them here keeps the command short and lets tests read
the same text. Percentages are win-rate points with their 95% interval in brackets.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cardsmith.engine.balance import PLACED_FIRST
from cardsmith.engine.decisions import no_real_choice
from cardsmith.engine.simulate import MatchSummary
from cardsmith.util.atomic import write_text_atomic

CARDS_SHOWN = 30  # rows of the card-impact table in text (JSON has them all)


def turn_limit_note(stopped: int, matches: int, limit: int) -> str:
    return (f"{stopped} of {matches} matches stopped at the turn limit of {limit:,} turns: "
            "raise `turn_limit` in `game` or check that the game can end")


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def points(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}"


def _rate(r: dict[str, Any]) -> str:
    return f"{pct(r['rate'])} [{pct(r['low'])}..{pct(r['high'])}] of {r['of']:,}"


def outcome_line(stats: dict[str, Any], max_actions: int) -> str:
    """How the matches ended, naming only what happened (a match that did not end is
    never left out: it is counted here, in the JSON and in the exit status)."""
    o = stats["outcomes"]
    words = {"won": "won", "shared": "shared", "drawn": "drawn", "no winner": "ended without a winner",
             "capped": f"still going at the action cap ({max_actions:,})", "turn limit": "at the turn limit",
             "error": "failed"}
    return "  outcomes: " + ", ".join(f"{o[k]} {w}" for k, w in words.items() if o[k]) if stats["matches"] else \
        "  outcomes: none"


def balance_lines(stats: dict[str, Any], players: int) -> list[str]:
    """Flagged cards first, then seats, decks, matchups and the card-impact table."""
    lines: list[str] = []
    flagged = [r for r in stats["card_impact"] if r["flagged"]]
    method = stats["method"]
    if flagged:
        lines.append(f"FLAGGED: {len(flagged)} card(s) whose impact is significant ({method['correction']}):")
        lines += [f"  {r['card']}: impact {points(r['impact'])} points [{points(r['impact_low'])} to "
                  f"{points(r['impact_high'])}], q={r['q']}" for r in flagged]
    rate = "win rate"
    if stats.get("outcome_measure") == PLACED_FIRST:
        rate = "first-place rate"
        lines.append(f"Counted: placing first by the game's scoring, not winning — only {stats['sole_winners']:,} "
                     f"of {stats['ended']:,} matches that ended had a winner, so seats, decks and card impact "
                     "below compare who placed first (a winner places first).")
    lines.append(f"Seats ({rate} [95% Wilson], fair is {pct(1 / max(1, players))}), over {stats['ended']:,} "
                 "matches that ended:")
    lines += [f"  {seat}: {_rate(r)}" for seat, r in stats["seats"].items()]
    if stats["decks"]:
        lines.append(f"Decks ({rate} over every seat they were dealt):")
        lines += [f"  {deck}: {_rate(r)}" for deck, r in stats["decks"].items()]
        left = {found["deck"] for found in stats.get("left_out", [])}
        lines += [f"  note: {deck} won nearly every match: card impact cannot tell its cards from the deck "
                  f"(they share one record); compare versions of a card with --set or --compare"
                  for deck, r in stats["decks"].items() if _sweeps(r) and deck not in left]
        lines += left_out_lines(stats)
        waiting = stats.get("untested_not_left_out")
        if waiting:
            count = sum(len(cards) for cards in waiting["cards"].values())
            cards = f"{count} cards" if count != 1 else "1 card"
            lines.append(f"  note: card impact could not test {cards} (no comparison, or too few matches on one "
                         "side): --leave-out-untested plays the same seeds without each, in each deck holding it "
                         f"(at most {waiting['at_most']:,} more matches)")
    if stats["matchups"]:
        lines.append(f"Matchups (row deck's {rate} against column deck, both seat orders):")
        lines += [f"  {a} vs {b}: {_rate(r)}" for a, row in stats["matchups"].items() for b, r in row.items()]
    rows = stats["card_impact"]
    if rows:
        lines.append(f"Card impact (opening-hand {rate} minus {rate} when held but not in it; {method['test']}, "
                     f"{method['correction']}; * flagged):")
        lines.append(f"  {'card':<28} {'impact':>7} {'95% interval':>15} {'GIH WR':>7} {'not seen':>8} "
                     f"{'IWD':>6} {'OH WR':>6} {'played':>6} {'n':>6}  note")
        for r in rows[:CARDS_SHOWN]:
            interval = "" if r["impact"] is None else f"{points(r['impact_low'])}..{points(r['impact_high'])}"
            lines.append(f"  {('* ' if r['flagged'] else '') + r['card']:<28.28} {points(r['impact']):>7} "
                         f"{interval:>15} {pct(r['seen']['rate']):>7} {pct(r['not_seen']['rate']):>8} "
                         f"{points(r['iwd']):>6} {pct(r['opening_hand']['rate']):>6} {pct(r['played']['rate']):>6} "
                         f"{r['matches']:>6}  {r['warning'] or ''}".rstrip())
        if len(rows) > CARDS_SHOWN:
            lines.append(f"  ... and {len(rows) - CARDS_SHOWN} more (--format json lists every card)")
    return lines


def left_out_lines(stats: dict[str, Any]) -> list[str]:
    """Each dominant deck's cards, and the cards card impact could not test, left out in
    turn (engine/leaveout.py), biggest loss first."""
    lines: list[str] = []
    found = stats.get("left_out", [])
    untested = stats.get("left_out_decks", {}).get("untested", {})
    for deck in sorted({f["deck"] for f in found}):
        rows = sorted((f for f in found if f["deck"] == deck),
                      key=lambda f: (f["impact"] is None, -(f["impact"] or 0.0), f["card"]))
        why = (f"{deck}: its cards card impact could not test were each left out in turn" if deck in untested
               else f"{deck} won nearly every match: each of its cards was left out in turn")
        lines.append(f"  {why} on the same seeds ({stats.get('left_out_matches', 0):,} more matches in all, paired); "
                     "the deck's win rate with the card minus without it:")
        lines += [f"    {f['card']}: {points(f['impact'])} points"
                  + (f" [{points(f['impact_low'])} to {points(f['impact_high'])}]" if f["impact_low"] is not None
                     else "")
                  + f", {f['pairs']} pairs" + (f" — {f['warning']}" if f["warning"] else "") for f in rows]
    return lines


def comparison_lines(diff: dict[str, Any], changes: Sequence[str]) -> list[str]:
    """Every difference of a what-if, with its 95% interval; significant ones marked *."""
    def show(d: dict[str, Any] | None) -> str:
        if not d or d.get("diff") is None:
            return "-"
        half = (d["high"] - d["low"]) / 2
        return f"{points(d['diff'])} points (±{100 * half:.1f}){' *' if d.get('significant') else ''}"

    title = "; ".join(changes) or "the two versions"
    lines = [f"What-if: {title} — {diff['pairs']:,} paired matches (the same seeds and seat orders); "
             "* the 95% interval excludes 0"]
    seats = ", ".join(f"{seat} win rate {show(d)}" for seat, d in diff["seats"].items())
    named = [(card, d) for card, d in diff["cards"].items() if any(c.startswith(f"{card} ") for c in changes)]
    top = next(iter(named or diff["cards"].items()), None)  # the changed card, else the most changed
    headline = f"  {title}: {seats}"
    if top is not None:
        headline += f", card impact of {top[0]} {show(top[1]['impact'])}"
    lines.append(headline)
    for deck, d in diff["decks"].items():
        lines.append(f"  deck {deck}: win rate {show(d)}")
    turns = diff["turns"]
    if turns["diff"] is not None:
        lines.append(f"  match length: {turns['diff']:+.2f} turns (±{(turns['high'] - turns['low']) / 2:.2f})")
    before, after = diff["outcomes"]["before"], diff["outcomes"]["after"]
    changed = [f"{k} {before[k]} → {after[k]}" for k in before if before[k] != after[k]]
    if changed:
        lines.append("  outcomes: " + ", ".join(changed))
    for card, d in diff["cards"].items():
        lines.append(f"  {card}: impact {show(d['impact'])}, IWD {show(d['iwd'])}")
    return lines


def match_rows(results: Sequence[MatchSummary]) -> list[dict[str, Any]]:
    return [{"seed": r.seed, "order": r.rotation + 1, "decks": r.decks, "outcome": r.outcome,
             "winners": [f"player{w + 1}" for w in r.winners], "turns": r.turns, "actions": r.actions,
             "error": r.error, "seats": [asdict(s) for s in r.seats]} for r in results]


def export_matches(results: Sequence[MatchSummary], path: Path) -> None:
    """One row per match: JSON lines (everything, each seat's cards too), or CSV (`.csv`:
    one flat row per match, seats' cards joined with `|`), written atomically."""
    rows = match_rows(results)
    if path.suffix.lower() != ".csv":
        write_text_atomic(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
        return
    buffer = io.StringIO()
    seats = max((len(r["seats"]) for r in rows), default=0)
    columns = ["seed", "order", "decks", "outcome", "winners", "turns", "actions", "error"]
    for s in range(seats):
        columns += [f"player{s + 1}_{k}" for k in ("seen", "opening", "played")]
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        cells = [row["seed"], row["order"], "|".join(row["decks"] or []), row["outcome"], "|".join(row["winners"]),
                 row["turns"], row["actions"], row["error"] or ""]
        for s in range(seats):
            facts = row["seats"][s] if s < len(row["seats"]) else {"seen": [], "opening": [], "played": {}}
            cells += ["|".join(facts["seen"]), "|".join(facts["opening"]),
                      "|".join(f"{k}:{v}" for k, v in facts["played"].items())]
        writer.writerow(cells)
    write_text_atomic(path, buffer.getvalue())


def summary_lines(done: Any, target: str, seed: int, games: int, orders: int, cap: int, players: int,
                  turn_limit_note: str) -> list[str]:
    """The whole text report above the dead-rule table (`done`: simrun.Simulation)."""
    stats = done.stats
    lines = [f"{stats['matches']} matches of {target} (seeds {seed}..{seed + games - 1}"
             f"{f', each in {orders} seat orders' if orders > 1 else ''})", outcome_line(stats, cap)]
    lines += [f"  {seat} wins: {wins}" for seat, wins in stats["wins_per_seat"].items()]
    lines.append(f"  shared wins: {stats['shared_wins']}   draws: {stats['draws']}   errors: {stats['error_count']}")
    if stats["turn_limit"]["matches"]:
        lines.append(f"  {turn_limit_note}")
    if stats["unfinished"]:
        lines.append(f"  {stats['unfinished']} of {stats['matches']} matches were still going after {cap:,} actions")
    lines.append(f"  first player win rate: {stats['first_player_win_rate']}")
    lines.append(f"  turns: {stats['turns']}   actions per match: {stats['actions_mean']}")
    lines += balance_lines(stats, players)
    if done.diff is not None:
        lines += comparison_lines(done.diff, done.changes)
    return lines


# a deck whose 95% interval lies above this won (nearly) everything: its cards cannot be told apart
SWEEP = 0.9


def _sweeps(rate: dict[str, Any]) -> bool:
    return bool(rate.get("of", 0) >= 30 and rate.get("low") is not None and rate["low"] >= SWEEP)


def warnings(done: Any, traces: Path, plots: Path | None, cap: int, turn_limit_note: str) -> list[str]:
    """What the CLI says on stderr after a run: saved logs, charts, matches that did not end."""
    stats = done.stats
    out = []
    saved = [r.trace for r in done.results if r.trace is not None]
    if saved:
        out.append(f"saved the logs of {len(saved)} failing match(es) in {traces} (cardsmith replay FILE re-runs one)")
    if done.charts:
        out.append(f"wrote {len(done.charts)} charts in {plots}")
    if stats["turn_limit"]["matches"]:
        out.append(f"warning: {turn_limit_note}")
    if stats["unfinished"]:
        out.append(f"warning: {stats['unfinished']} of {stats['matches']} matches hit the action cap of {cap:,} "
                   "(--max-actions)")
    for kind, counts in stats["agents"].items():
        missed = no_real_choice(kind, counts)
        if missed is not None:
            out.append(f"warning: {missed}")
    if stats["outcomes"]["no winner"]:
        out.append(f"note: {stats['outcomes']['no winner']} of {stats['matches']} matches ended without a winner")
    return out
