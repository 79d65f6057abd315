"""A `simulate` run started from the Balance page: run in the background, read back as a page.

The run calls exactly what `cardsmith simulate` calls (engine/simrun.simulate_versions,
its statistics and dead-rule report, simreport's text lines, plots' charts), in one
background thread per studio: the page polls its progress, and a second start while one
runs is refused (`Busy`). Matches are played one after another in that thread (jobs=1):
the game compiled in this process is the one the studio shows, and a cancel takes effect
after the match being played. Everything a page shows is plain data worked out once when
the run ends (`Run.view`), so requests never touch the engine.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.engine.agents import DEFAULT_AGENT, agent_problem
from cardsmith.engine.balance import PLACED_FIRST
from cardsmith.engine.simulate import MAX_ACTIONS_LIMIT

MAX_MATCHES = 2000  # seeds per run from the page (each played in every seat order)
MAX_SEED = 2**31 - 1
MAX_AGENT_TEXT = 60  # characters of one agent's name (search:500ms:depth=20 fits)
POLL_STATES = ("idle", "running", "done", "failed", "cancelled")


class Busy(Exception):
    """A run is already going: one at a time per studio."""


class Refused(Exception):
    """The run cannot start: the game has errors or its decks cannot be dealt (409), or
    the settings are wrong (400)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class _Cancelled(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    """What the form asks for, already within bounds (the router's Form limits)."""

    matches: int = 100
    seed: int = 1
    agents: tuple[str, ...] = (DEFAULT_AGENT,)
    max_actions: int = 20_000
    rotate: bool = True
    untested: bool = False  # also leave out the cards card impact cannot test (simulate --leave-out-untested)


def settings_problems(settings: Settings, seats: int) -> list[str]:
    """What is wrong with the settings, in the CLI's words (empty: nothing)."""
    problems = [p for p in (agent_problem(kind) for kind in settings.agents) if p is not None]
    if len(settings.agents) > seats:
        problems.append(f"{len(settings.agents)} agents named for {seats} seats")
    if not 1 <= settings.matches <= MAX_MATCHES or not 1 <= settings.max_actions <= MAX_ACTIONS_LIMIT:
        problems.append(f"matches must be from 1 to {MAX_MATCHES:,} and max actions from 1 to "
                        f"{MAX_ACTIONS_LIMIT:,}")
    return problems


@dataclass
class Run:
    """One simulation: its progress while it runs, its page data (`view`) and charts after."""

    number: int
    settings: Settings
    version: int  # the game's version when it started
    total: int
    players: int
    done: int = 0
    state: str = "running"
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    view: dict[str, Any] = field(default_factory=dict)
    charts: dict[str, bytes] = field(default_factory=dict)
    cancel: threading.Event = field(default_factory=threading.Event)

    def progress(self) -> dict[str, Any]:
        return {"run": self.number, "state": self.state, "done": self.done, "total": self.total,
                "message": self.message, "version": self.version,
                "seconds": round(self.seconds or time.monotonic() - self.started, 2)}


class Runner:
    """The studio's simulation runs: at most one running, the last one kept for its page."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.last: Run | None = None
        self._count = 0

    @property
    def running(self) -> bool:
        return self.last is not None and self.last.state == "running"

    def start(self, snapshot: Any, target: str, settings: Settings,
              finished: Callable[[Run, dict[str, Any]], None], current_version: Callable[[], int]) -> Run:
        """Start a run of `snapshot`'s game (refused: Busy, Refused); `finished(run)` is
        called in the run's thread when it ends well, with its statistics."""
        from cardsmith.app import DecksNotDealt, deck_lineups
        from cardsmith.decks.library import DeckError
        from cardsmith.engine.setup import default_players
        from cardsmith.engine.simulate import seat_orders

        game = snapshot.compiled
        if game is None:
            raise Refused("the game has errors: fix them first (see Problems)")
        players = default_players(game, None)
        problems = settings_problems(settings, players)
        if problems:
            raise Refused("; ".join(problems), 400)
        try:
            lineups = deck_lineups(game, players, None, False)
        except DecksNotDealt as exc:
            raise Refused(f"{exc} ({exc.hint})") from None
        except DeckError as exc:
            raise Refused(f"a ready deck breaks the deck rules: {exc} (see the Decks page)") from None
        total = settings.matches * len(seat_orders(lineups, settings.rotate))
        with self._lock:
            if self.running:
                raise Busy("a simulation is already running: wait for it or cancel it")
            self._count += 1
            run = Run(self._count, settings, snapshot.version, total, players)
            self.last = run
        work = threading.Thread(target=_work, name=f"studio-simulation-{run.number}", daemon=True,
                                args=(run, target, lineups, game.ir.game.turn_limit, finished, current_version))
        work.start()
        return run


def _work(run: Run, target: str, lineups: Any, turn_limit: int, finished: Callable[[Run, dict[str, Any]], None],
          current_version: Callable[[], int]) -> None:
    """The run's thread: simulate, then work out the page data and the charts."""
    from cardsmith.engine.plots import chart_svgs
    from cardsmith.engine.simrun import Version, simulate_versions

    s = run.settings
    traces = Path(tempfile.gettempdir()) / f"cardsmith-studio-traces-{run.number}-{int(time.time())}"

    def told(label: str, n: int) -> None:
        if label != target:  # cards left out (engine/leaveout.py): matches not planned
            run.total += n
        run.done += n
        if run.cancel.is_set():
            raise _Cancelled

    try:
        done = simulate_versions(Version(target, lineups), None, [], s.matches, s.seed, run.players, None, 1,
                                 s.max_actions, list(s.agents), s.rotate, traces, turn_limit, told,
                                 untested=s.untested)
        run.view = page_data(done, target, s, run.players, turn_limit, traces, len(done.results))
        if current_version() != run.version:
            run.view["changed"] = "the game changed while it ran: some matches may have used the newer version"
        run.charts = chart_svgs(done.stats, [r.turns for r in done.results])
        finished(run, done.stats)
        run.state = "done"
    except _Cancelled:
        run.state, run.message = "cancelled", f"cancelled after {run.done} of {run.total} matches"
    except Exception as exc:  # a rules error escapes simulate only when the game cannot be played at all
        run.state, run.message = "failed", f"the simulation failed: {type(exc).__name__}: {exc}"
    finally:
        run.seconds = time.monotonic() - run.started


def _where(path: str, target: str) -> str:
    """A rule's file shown relative to the game's folder when it is inside it."""
    try:
        root = Path(target).resolve()
        return str(Path(path).resolve().relative_to(root)) if root.is_dir() else path
    except (ValueError, OSError):
        return path


def page_data(done: Any, target: str, s: Settings, players: int, turn_limit: int, traces: Path,
              matches: int) -> dict[str, Any]:
    """Everything the results part of the page shows, as plain data (`done`: simrun.Simulation)."""
    from cardsmith.engine.coverage import measures_of
    from cardsmith.engine.simreport import outcome_line, summary_lines, turn_limit_note, warnings

    stats = done.stats
    orders = max(1, matches // max(1, s.matches))
    note = turn_limit_note(stats["turn_limit"]["matches"], stats["matches"], turn_limit)
    rows = sorted(stats["card_impact"], key=lambda r: (r["impact"] is None, -(r["impact"] or 0.0), r["card"]))
    report = done.report
    dead = [{"kind": r.kind, "name": r.name, "at": f"{_where(r.file, target)}:{r.line}", "verdict": r.verdict,
             "counts": ", ".join(f"{m} {r.counts.get(m, 0):,}" for m in measures_of(r.kind))} for r in report.dead]
    return {
        "outcome": outcome_line(stats, s.max_actions).strip(),
        "totals": {"matches": stats["matches"], **stats["outcomes"]},
        "seats": stats["seats"], "fair": 1 / max(1, players), "ended": stats["ended"],
        "placed_first": stats.get("outcome_measure") == PLACED_FIRST, "sole_winners": stats.get("sole_winners", 0),
        "wins_per_seat": stats["wins_per_seat"], "turns": stats["turns"], "actions_mean": stats["actions_mean"],
        "decks": stats["decks"], "matchups": stats["matchups"], "cards": rows,
        "left_out": sorted(stats.get("left_out", []),
                           key=lambda f: (f["deck"], f["impact"] is None, -(f["impact"] or 0.0), f["card"])),
        "left_out_matches": stats.get("left_out_matches", 0),
        "untested": stats.get("untested_not_left_out"),
        "method": stats["method"], "errors": stats["errors"],
        "dead": dead, "rules": len(report.rules), "excused": [r.name for r in report.excused],
        "stale": [r.name for r in report.stale],
        "text": summary_lines(done, target, s.seed, s.matches, orders, s.max_actions, players, note),
        "warnings": warnings(done, traces, None, s.max_actions, note),
        "settings": {"matches": s.matches, "seed": s.seed, "agents": ", ".join(s.agents),
                     "max_actions": s.max_actions, "rotate": s.rotate, "orders": orders},
    }


def card_stats(stats: dict[str, Any], version: int) -> dict[str, dict[str, Any]]:
    """Each card's figures for the card pages (web.card_stats_of), from the card-impact rows.

    Keys: matches (match-seats that held it), plays, play_rate (+ _low/_high: share of those
    match-seats where it was played), win_rate_when_played (+ _low/_high), win_rate_when_drawn
    (+ _low/_high: won when seen), impact (+ _low/_high, win-rate points; None: not tested),
    flagged, warning, version (of the game simulated). Rates are fractions 0..1."""
    out: dict[str, dict[str, Any]] = {}
    for r in stats["card_impact"]:
        played, won, seen = r["played"], r["won_when_played"], r["seen"]
        out[r["card"]] = {
            "matches": r["matches"], "plays": played.get("plays", 0),
            "play_rate": played["rate"], "play_rate_low": played["low"], "play_rate_high": played["high"],
            "win_rate_when_played": won["rate"], "win_rate_when_played_low": won["low"],
            "win_rate_when_played_high": won["high"],
            "win_rate_when_drawn": seen["rate"], "win_rate_when_drawn_low": seen["low"],
            "win_rate_when_drawn_high": seen["high"],
            "impact": r["impact"], "impact_low": r["impact_low"], "impact_high": r["impact_high"],
            "flagged": r["flagged"], "warning": r["warning"], "version": version,
        }
    return out
