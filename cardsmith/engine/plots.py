"""The charts of a simulation, as SVG: seat win rates, card impact, card play, match lengths.

One drawing per chart, used twice: `simulate --plots DIR` writes the charts as files
(`write_plots`) and the studio's Balance page serves the same bytes (`chart_svgs`), so
the page and the files never disagree. matplotlib is imported only when charts are drawn
(it takes most of a second to import, and `cardsmith --help` must stay fast). Figures are
made without pyplot (no global figure registry), so a web server may draw from any
thread. The bytes are identical for the same statistics: SVG ids come from a fixed hash
salt and the metadata carries no date or version.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardsmith.util.atomic import write_text_atomic

MAX_CARDS_SHOWN = 40  # the card-impact chart shows the cards with the largest impact
CHARTS = ("seat_win_rates", "card_impact", "card_play", "match_lengths")  # their names, in drawing order
_DRAWING = threading.Lock()  # rcParams are global: one drawing at a time


def _figure(width: float, height: float) -> Any:
    import matplotlib
    from matplotlib.figure import Figure

    matplotlib.rcParams["svg.hashsalt"] = "cardsmith"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: no glyph paths that vary with fonts
    return Figure(figsize=(width, height))


def _svg(fig: Any) -> bytes:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None},
                bbox_inches="tight")
    return buffer.getvalue().encode("utf-8")


def _bars(labels: Sequence[str], values: Sequence[float], lows: Sequence[float], highs: Sequence[float],
          title: str, xlabel: str, reference: float | None) -> Any:
    fig = _figure(7, 0.35 * len(labels) + 1.5)
    ax = fig.subplots()
    positions = list(range(len(labels)))[::-1]
    errors = [[v - lo for v, lo in zip(values, lows, strict=True)], [hi - v for v, hi in zip(values, highs,
                                                                                              strict=True)]]
    ax.barh(positions, values, xerr=errors, color="#4c78a8", ecolor="#333333", capsize=3)
    ax.set_yticks(positions, labels)
    if reference is not None:
        ax.axvline(reference, color="#999999", linestyle="--", linewidth=1)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    return fig


def _seat_win_rates(stats: dict[str, Any], _lengths: Sequence[int]) -> Any:
    seats = stats["seats"]
    labels = list(seats)
    return _bars(labels, [100 * (seats[s]["rate"] or 0) for s in labels], [100 * seats[s]["low"] for s in labels],
                 [100 * seats[s]["high"] for s in labels], "Win rate by seat (95% Wilson interval)", "win rate (%)",
                 100 / max(1, len(labels)))


def _card_impact(stats: dict[str, Any], _lengths: Sequence[int]) -> Any:
    cards = [r for r in stats["card_impact"] if r["impact"] is not None][:MAX_CARDS_SHOWN]
    return _bars([("* " if r["flagged"] else "") + r["card"] for r in cards],
                 [100 * r["impact"] for r in cards], [100 * r["impact_low"] for r in cards],
                 [100 * r["impact_high"] for r in cards],
                 "Card impact (95% interval; * significant after Benjamini-Hochberg)",
                 "win-rate points when in the opening hand", 0.0)


def _card_play(stats: dict[str, Any], _lengths: Sequence[int]) -> Any:
    """Per card, how often its holder played it and how often a player who played it won,
    side by side (most played first), each with its 95% interval."""
    rows = [r for r in stats["card_impact"] if r["played"].get("rate") is not None]
    rows.sort(key=lambda r: (-r["played"]["rate"], r["card"]))
    rows = rows[:MAX_CARDS_SHOWN]
    fig = _figure(9, 0.35 * len(rows) + 1.5)
    left, right = fig.subplots(1, 2, sharey=True)
    positions = list(range(len(rows)))[::-1]
    for ax, part, title in ((left, "played", "Play rate (matches held)"),
                            (right, "won_when_played", "Win rate when played")):
        values = [100 * (r[part].get("rate") or 0) for r in rows]
        lows = [100 * (r[part].get("low") or 0) for r in rows]
        highs = [100 * (r[part].get("high") or 0) for r in rows]
        ax.barh(positions, values, xerr=[[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
                                         [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]],
                color="#4c78a8", ecolor="#333333", capsize=3)
        ax.set_title(title)
        ax.set_xlabel("%")
        ax.set_xlim(0, 100)
    left.set_yticks(positions, [r["card"] for r in rows])
    return fig


def _match_lengths(_stats: dict[str, Any], lengths: Sequence[int]) -> Any:
    fig = _figure(7, 4)
    ax = fig.subplots()
    ax.hist(list(lengths), bins=min(40, max(1, len(set(lengths)))), color="#4c78a8")
    ax.set_title("Match length")
    ax.set_xlabel("turns")
    ax.set_ylabel("matches")
    return fig


_DRAW = {"seat_win_rates": _seat_win_rates, "card_impact": _card_impact, "card_play": _card_play,
         "match_lengths": _match_lengths}


def chart_svgs(stats: dict[str, Any], lengths: Sequence[int]) -> dict[str, bytes]:
    """Every chart of a simulation (`stats`: simulate.statistics; `lengths`: each match's
    turns) as SVG bytes, by name (CHARTS)."""
    with _DRAWING:
        return {name: _svg(_DRAW[name](stats, lengths)) for name in CHARTS}


def write_plots(stats: dict[str, Any], lengths: Sequence[int], folder: Path) -> list[Path]:
    """Draw the charts into `folder` (NAME.svg each); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, svg in chart_svgs(stats, lengths).items():
        written.append(folder / f"{name}.svg")
        write_text_atomic(written[-1], svg.decode("utf-8"))
    return written
