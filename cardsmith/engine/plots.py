"""The charts of a simulation, as SVG files: seat win rates, card impact, match lengths.

matplotlib is imported only when charts are drawn (it takes most of a second to import,
and `cardsmith --help` must stay fast), with the Agg back end (no display needed). The
files are byte-identical for the same statistics: SVG ids come from a fixed hash salt and
the metadata carries no date or version.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardsmith.util.atomic import write_text_atomic

MAX_CARDS_SHOWN = 40  # the card-impact chart shows the cards with the largest impact


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "cardsmith"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: no glyph paths that vary with fonts
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> None:
    import io

    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None},
                bbox_inches="tight")
    write_text_atomic(path, buffer.getvalue())


def _bars(plt: Any, labels: Sequence[str], values: Sequence[float], lows: Sequence[float],
          highs: Sequence[float], title: str, xlabel: str, reference: float | None) -> Any:
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(labels) + 1.5))
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


def write_plots(stats: dict[str, Any], lengths: Sequence[int], folder: Path) -> list[Path]:
    """Draw the three charts into `folder`; the paths written."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    seats = stats["seats"]
    labels = list(seats)
    fig = _bars(plt, labels, [100 * (seats[s]["rate"] or 0) for s in labels], [100 * seats[s]["low"] for s in labels],
                [100 * seats[s]["high"] for s in labels], "Win rate by seat (95% Wilson interval)", "win rate (%)",
                100 / max(1, len(labels)))
    written.append(folder / "seat_win_rates.svg")
    _save(fig, written[-1])
    plt.close(fig)
    cards = [r for r in stats["card_impact"] if r["impact"] is not None][:MAX_CARDS_SHOWN]
    fig = _bars(plt, [("* " if r["flagged"] else "") + r["card"] for r in cards],
                [100 * r["impact"] for r in cards], [100 * r["impact_low"] for r in cards],
                [100 * r["impact_high"] for r in cards],
                "Card impact (95% interval; * significant after Benjamini-Hochberg)",
                "win-rate points when in the opening hand", 0.0)
    written.append(folder / "card_impact.svg")
    _save(fig, written[-1])
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(list(lengths), bins=min(40, max(1, len(set(lengths)))), color="#4c78a8")
    ax.set_title("Match length")
    ax.set_xlabel("turns")
    ax.set_ylabel("matches")
    written.append(folder / "match_lengths.svg")
    _save(fig, written[-1])
    plt.close(fig)
    return written
