"""Honest totals, the per-match export and the charts of `simulate`: matches that did not
end are counted and fail the run; exports and charts are byte-identical per seed."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from test_simulate_impact import duel


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args, "--rules", "none"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})


def test_matches_stopped_at_the_action_cap_are_counted_and_fail_the_run(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    traces = tmp_path / "traces"
    done = run(str(folder), "-n", "3", "--max-actions", "4", "--traces", str(traces))
    assert done.returncode == 1
    assert "6 still going at the action cap (4)" in done.stdout
    assert "6 of 6 matches were still going after 4 actions" in done.stdout
    assert "warning: 6 of 6 matches hit the action cap of 4 (--max-actions)" in done.stderr
    assert len(list(traces.glob("*.jsonl"))) == 6  # each seat order's log apart
    data = json.loads(run(str(folder), "-n", "3", "--max-actions", "4", "--format", "json", "--traces",
                          str(traces)).stdout)
    assert data["outcomes"]["capped"] == 6 and data["unfinished"] == 6 and data["max_actions"] == 4
    assert data["ended"] == 0 and data["seats"]["player1"]["of"] == 0  # no rate from matches that did not end
    for bad in ("0", "1000001"):
        refused = run(str(folder), "-n", "1", "--max-actions", bad)
        assert refused.returncode == 2 and "--max-actions from 1 to 1,000,000" in refused.stderr


def test_the_per_match_export_is_complete_and_deterministic(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    first, second, table = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "m.csv"
    assert run(str(folder), "-n", "5", "--matches-out", str(first)).returncode == 0
    assert run(str(folder), "-n", "5", "--matches-out", str(second), "-j", "2").returncode == 0
    assert first.read_bytes() == second.read_bytes()
    rows = [json.loads(line) for line in first.read_text().splitlines()]
    assert [(r["seed"], r["order"]) for r in rows] == [(s, o) for s in range(1, 6) for o in (1, 2)]
    assert rows[0]["decks"] == ["giants", "pebbles"] and rows[1]["decks"] == ["pebbles", "giants"]
    assert all(r["outcome"] == "won" and len(r["winners"]) == 1 and r["turns"] > 0 for r in rows)
    assert all(set(s["opening"]) <= set(s["seen"]) <= set(s["held"]) for r in rows for s in r["seats"])
    assert run(str(folder), "-n", "5", "--matches-out", str(table)).returncode == 0
    parsed = list(csv.DictReader(table.open(encoding="utf-8")))
    assert len(parsed) == 10 and parsed[1]["decks"] == "pebbles|giants"
    assert parsed[0]["outcome"] == "won" and parsed[0]["player1_played"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # written atomically


def test_the_charts_are_written_and_byte_identical_per_seed(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    done = run(str(folder), "-n", "20", "--plots", str(tmp_path / "a"))
    assert done.returncode == 0, done.stderr
    assert "wrote 4 charts" in done.stderr
    assert run(str(folder), "-n", "20", "--plots", str(tmp_path / "b")).returncode == 0
    names = ["card_impact.svg", "card_play.svg", "match_lengths.svg", "seat_win_rates.svg"]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == names
    for name in names:
        a, b = (tmp_path / "a" / name).read_bytes(), (tmp_path / "b" / name).read_bytes()
        assert a == b and a.startswith(b"<?xml") and b"<svg" in a
    chart = (tmp_path / "a" / "card_impact.svg").read_text(encoding="utf-8")
    assert "Card impact" in chart and all(card in chart for card in ("Giant", "Boulder", "Pebble"))
    assert "Win rate by seat" in (tmp_path / "a" / "seat_win_rates.svg").read_text(encoding="utf-8")
    assert "<dc:date>" not in chart  # no timestamp: the same bytes every run


def test_an_agent_that_never_really_chose_is_warned_about(tmp_path: Path) -> None:
    """Greedy in Two Kingdoms: moving a unit changes nothing its heuristic reads, so its
    window moves tie and it falls back to chance; the report says so (stderr, and the
    counts per agent in the JSON), so nobody takes those matches for greedy's play."""
    done = run("two_kingdoms", "-n", "1", "--no-rotate", "--agents", "greedy,random", "--max-actions", "16",
               "--traces", str(tmp_path / "traces"), "--format", "json")
    warned = [line for line in done.stderr.splitlines() if "had no real choice" in line]
    assert len(warned) == 1 and warned[0].startswith("warning: greedy had no real choice in ")
    agents = json.loads(done.stdout)["agents"]
    greedy = agents["greedy"]
    assert greedy["decisions"] > 0 and greedy["fallbacks"] > 0
    assert greedy["decisions"] >= greedy["real_choices"] + greedy["fallbacks"]
    assert "random" in agents
