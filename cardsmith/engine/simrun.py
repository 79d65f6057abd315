"""One `simulate` run end to end, without printing: the game (and the version it is
compared with) played on the same seeds, statistics, dead-rule report, paired comparison,
exports and charts. The CLI validates the options, deals the decks and prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.engine.agents import DEFAULT_AGENT
from cardsmith.engine.balance import outcome_measure
from cardsmith.engine.coverage import CoverageReport
from cardsmith.engine.leaveout import dominant_decks, most_matches, untested_cards
from cardsmith.engine.leaveout import leave_out as leave_out_cards
from cardsmith.engine.simulate import Lineup, MatchSummary, Task, coverage, statistics
from cardsmith.engine.simulate import simulate as run
from cardsmith.engine.whatif import compare


@dataclass
class Version:
    """A game to simulate and the deck lineups it deals (None: its setup builds decks)."""

    target: str
    lineups: list[Lineup] | None


@dataclass
class Simulation:
    results: list[MatchSummary]
    stats: dict[str, Any]
    report: CoverageReport
    diff: dict[str, Any] | None = None
    changes: list[str] = field(default_factory=list)
    charts: list[Path] = field(default_factory=list)

    def as_json(self, orders: int, cap: int) -> dict[str, Any]:
        whatif = {"whatif": {"changes": self.changes, **self.diff}} if self.diff is not None else {}
        return {**self.stats, "seat_orders": orders, "max_actions": cap, "coverage": self.report.as_json(),
                **whatif}


def simulate_versions(base: Version, other: Version | None, changes: list[str], games: int, seed: int,
                      players: int, mode: str | None, jobs: int, cap: int, agents: list[str], rotate: bool,
                      traces: Path, turn_limit: int, progress: Callable[[str, int], None],
                      matches_out: Path | None = None, plots: Path | None = None,
                      explicit_players: int | None = None, leave_out: bool = True,
                      untested: bool = False) -> Simulation:
    """Play `base` (and `other`, on the same seeds and seat orders) and gather everything
    the report shows; `progress(target, n)` is told of each finished match. With
    `leave_out`, a deck that won nearly every match has each of its cards left out in turn
    on the same seeds (engine/leaveout.py), so card impact can tell its cards apart; with
    `untested`, so is every card card impact could not test, in each deck holding it."""
    runs = []
    for version in [base] + ([other] if other else []):
        def told(n: int, target: str = version.target) -> None:
            progress(target, n)

        runs.append(run(version.target, games, seed, explicit_players, mode, jobs, cap, agents, progress=told,
                        traces=traces, lineups=version.lineups, rotate=rotate))
    # both versions count the same outcome (placing first when either is rarely won)
    measure = outcome_measure([r for results in runs for r in results])
    stats = statistics(runs[0], players, turn_limit, measure=measure)
    sweeping = dominant_decks(stats["decks"]) if base.lineups else []
    dominant = sweeping if leave_out else []
    lonely = {deck: cards for deck, cards in untested_cards(stats["card_impact"], base.lineups or []).items()
              if deck not in sweeping}  # (a dominant deck's cards are all left out, or the report says why not)
    if (dominant or (untested and lonely)) and base.lineups:
        only = lonely if untested else {}
        decks = dominant + sorted(only)

        def told_left(n: int) -> None:
            progress(f"leaving out cards of {', '.join(decks)}", n)

        template = Task(base.target, seed, explicit_players, mode, cap, tuple(agents or [DEFAULT_AGENT]), None, None)
        found = leave_out_cards(base.target, runs[0], base.lineups, decks, seed, games, template, jobs, rotate,
                                told_left, measure, only)
        stats = statistics(runs[0], players, turn_limit, [f.as_json() for f in found], measure)
        stats["left_out_matches"] = sum(len(f.differences) + f.failed for f in found)
    # which decks were left out for what (the report words them apart), and what was not tried
    stats["left_out_decks"] = {"dominant": dominant, "untested": lonely if untested else {}}
    if lonely and not untested:
        stats["untested_not_left_out"] = {"cards": lonely,
                                          "at_most": most_matches(base.lineups or [], lonely, games, rotate)}
    done = Simulation(runs[0], stats, coverage(base.target, runs[0]), changes=changes)
    if other is not None:
        done.diff = compare(runs[0], runs[1], stats, statistics(runs[1], players, turn_limit, measure=measure), players,
                            list(range(seed, seed + games)))
    if matches_out is not None:
        from cardsmith.engine.simreport import export_matches

        export_matches(runs[0], matches_out)
    if plots is not None:
        from cardsmith.engine.plots import write_plots

        done.charts = write_plots(stats, [r.turns for r in runs[0]], plots)
    return done
