"""The Balance page: a simulation started from the page runs to the end in the background,
its results (seats, lengths, cards, dead rules) and charts are served, the card pages get
each card's figures, and bad or concurrent starts are refused."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardsmith.studio.project import Project
from cardsmith.studio.server import create_app
from tests.studio.conftest import broken_project

JSON = {"accept": "application/json"}
CHARTS = ("seat_win_rates", "card_impact", "card_play", "match_lengths")


def wait_for_end(client: TestClient, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress: dict[str, Any] = client.get("/balance/progress").json()
        if progress["state"] != "running":
            return progress
        time.sleep(0.05)
    raise AssertionError("the simulation did not end in time")


@pytest.fixture(scope="module")
def finished() -> tuple[TestClient, Any]:
    """A studio of Combat Cards after a 4-match random simulation started from the page."""
    app = create_app(Project("combat_cards"), watch=False)
    client = TestClient(app)
    assert client.get("/balance/progress").json()["state"] == "idle"
    started = client.post("/balance/start", data={"matches": 4, "seed": 1, "agent": ["random", "random"],
                                                  "max_actions": 20000, "rotate": "true"}, headers=JSON)
    assert started.status_code == 202, started.text
    assert started.json()["total"] == 4
    progress = wait_for_end(client)
    assert progress == {**progress, "state": "done", "done": 4, "total": 4}
    return client, app


def test_a_simulation_runs_to_the_end_and_shows_its_results(finished: tuple[TestClient, Any]) -> None:
    client, _app = finished
    html = client.get("/balance").text
    assert "4 won" in html and 'id="balance-outcome"' in html  # simreport's outcome line
    seats = html[html.index('id="balance-seats"'):html.index("</table>", html.index('id="balance-seats"'))]
    assert "player1" in seats and "player2" in seats and "%" in seats and "[" in seats  # rates with intervals
    assert "/balance/chart/match_lengths.svg" in html and "/balance/chart/seat_win_rates.svg" in html
    assert "/balance/chart/card_play.svg" in html
    cards = html[html.index('id="balance-cards"'):]
    assert "Savage Strike" in cards and "win rate when played" in cards
    assert 'id="balance-dead"' in html and "rules never happened" in html
    assert "cardsmith simulate" in html and "first player win rate" in html  # the CLI's text report


def test_the_charts_are_svg_and_the_same_as_simulate_plots(finished: tuple[TestClient, Any],
                                                           tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardsmith.cli import app as cli

    client, _app = finished
    result = CliRunner().invoke(cli, ["simulate", "combat_cards", "-n", "4", "--seed", "1", "--plots",
                                      str(tmp_path), "--traces", str(tmp_path / "traces")])
    assert result.exit_code == 0, result.output
    for name in CHARTS:
        served = client.get(f"/balance/chart/{name}.svg")
        assert served.status_code == 200 and served.headers["content-type"].startswith("image/svg+xml")
        root = ET.fromstring(served.content)
        assert root.tag.endswith("svg")
        assert served.content == (tmp_path / f"{name}.svg").read_bytes()  # one drawing, two outlets
    assert client.get("/balance/chart/nothing.svg").status_code == 404


def test_the_card_pages_get_each_cards_figures(finished: tuple[TestClient, Any]) -> None:
    _client, app = finished
    stats = app.state.card_stats
    assert "Savage Strike" in stats
    figures = stats["Savage Strike"]
    for key in ("play_rate", "win_rate_when_played", "win_rate_when_drawn", "impact", "impact_low",
                "impact_high", "matches", "flagged"):
        assert key in figures
    assert 0 <= figures["play_rate"] <= 1 and figures["matches"] >= 1


def test_bad_settings_are_refused_with_a_message() -> None:
    client = TestClient(create_app(Project("combat_cards"), watch=False))
    for data in ({"matches": 0}, {"matches": 100000}, {"max_actions": 0}, {"seed": -1}, {"matches": "many"}):
        response = client.post("/balance/start", data=data, headers=JSON)
        assert response.status_code == 422, data
        assert response.json()["detail"]
    response = client.post("/balance/start", data={"agent": ["random", "wizard"]}, headers=JSON)
    assert response.status_code == 400 and "unknown agent 'wizard'" in response.json()["detail"]
    response = client.post("/balance/start", data={"agent": ["search:0"]}, headers=JSON)
    assert response.status_code == 400 and "search budget" in response.json()["detail"]
    response = client.post("/balance/start", data={"agent": ["random"] * 3}, headers=JSON)
    assert response.status_code == 400 and "3 agents" in response.json()["detail"]
    assert client.get("/balance/progress").json()["state"] == "idle"  # nothing started
    assert client.post("/balance/cancel").status_code == 409


def test_a_second_start_while_running_is_refused_and_a_run_can_be_cancelled() -> None:
    client = TestClient(create_app(Project("combat_cards"), watch=False))
    assert client.post("/balance/start", data={"matches": 2000}, headers=JSON).status_code == 202
    second = client.post("/balance/start", data={"matches": 4}, headers=JSON)
    assert second.status_code == 409 and "already running" in second.json()["detail"]
    assert client.post("/balance/cancel").status_code == 202
    progress = wait_for_end(client)
    assert progress["state"] == "cancelled" and progress["done"] < 2000 and "cancelled" in progress["message"]
    assert 'data-state="cancelled"' in client.get("/balance").text
    assert client.post("/balance/start", data={"matches": 2}, headers=JSON).status_code == 202  # free again
    assert wait_for_end(client)["state"] == "done"


def test_a_game_with_errors_cannot_be_simulated(tmp_path: Path) -> None:
    client = TestClient(create_app(broken_project(tmp_path), watch=False))
    page = client.get("/balance")
    assert page.status_code == 200 and 'id="balance-refused"' in page.text and "has errors" in page.text
    response = client.post("/balance/start", data={"matches": 4}, headers=JSON)
    assert response.status_code == 409 and "errors" in response.json()["detail"]


def test_a_folder_game_with_decks_shows_the_deck_split(tmp_path: Path) -> None:
    """A game dealing ready decks: each deck's win rate over every seat it was dealt."""
    from tests.test_simulate_impact import duel

    client = TestClient(create_app(Project(str(duel(tmp_path / "duel"))), watch=False))
    started = client.post("/balance/start", data={"matches": 5, "agent": ["random"], "rotate": "true"},
                          headers=JSON)
    assert started.status_code == 202 and started.json()["total"] == 10, started.text  # both seat orders
    assert wait_for_end(client)["state"] == "done"
    html = client.get("/balance").text
    decks = html[html.index('id="balance-decks"'):]
    assert "pebbles" in decks and "giants" in decks and 'id="balance-matchups"' in html


def test_a_dominant_decks_cards_left_out_are_shown_and_counted(tmp_path: Path) -> None:
    """A deck that wins nearly every match has each card left out in turn (engine/leaveout.py):
    the page lists them under the decks, the card table says which comparison ranked a
    card, and the progress counts the extra matches."""
    from tests.test_simulate_leaveout import banner

    client = TestClient(create_app(Project(str(banner(tmp_path / "banner", 3))), watch=False))
    started = client.post("/balance/start", data={"matches": 30, "seed": 1, "agent": ["random", "random"],
                                                  "max_actions": 20000, "rotate": "true"}, headers=JSON)
    assert started.status_code == 202, started.text
    progress = wait_for_end(client, 120)
    assert progress["state"] == "done" and progress["done"] == progress["total"] > 60  # 60 + the left-out twins
    html = client.get("/balance").text
    left = html[html.index('id="balance-left-out"'):html.index("</table>", html.index('id="balance-left-out"'))]
    rows = left.split("<tr>")[2:]
    assert "Flag" in rows[0] and "flagged" in rows[0] and "50" in rows[0]  # biggest loss first, 50 pairs
    cards = html[html.index('id="balance-cards"'):html.index("</table>", html.index('id="balance-cards"'))]
    assert "left out of flagged" in cards


def test_a_game_rarely_won_says_it_counts_who_placed_first() -> None:
    """Construct & Combat is lost by everyone in nearly every simulated match: the page
    counts placing first by the game's scoring, and says so (engine/balance.outcome_measure)."""
    client = TestClient(create_app(Project("construct_and_combat"), watch=False))
    started = client.post("/balance/start", data={"matches": 6, "agent": ["variety"]}, headers=JSON)
    assert started.status_code == 202, started.text
    assert wait_for_end(client)["state"] == "done"
    html = client.get("/balance").text
    assert 'id="balance-measure"' in html and "placing first by the game's scoring" in html
    seats = html[html.index('id="balance-seats"'):html.index("</table>", html.index('id="balance-seats"'))]
    assert "first-place rate" in seats


def test_cards_no_comparison_can_judge_are_named_and_left_out_when_asked(tmp_path: Path) -> None:
    """Banners on the table from setup on can only be judged by leaving them out, which
    the page runs only when asked: until then it names them and how to ask."""
    from tests.test_simulate_leaveout import pennants

    client = TestClient(create_app(Project(str(pennants(tmp_path / "pennants"))), watch=False))
    started = client.post("/balance/start", data={"matches": 10, "agent": ["random"], "rotate": "true"},
                          headers=JSON)
    assert started.status_code == 202, started.text
    assert wait_for_end(client)["state"] == "done"
    html = client.get("/balance").text
    note = html[html.index('id="balance-untested"'):html.index("</p>", html.index('id="balance-untested"'))]
    assert "Flag (flagged); Pennant (pennant)" in note and "--leave-out-untested" in note
    started = client.post("/balance/start", data={"matches": 30, "agent": ["random"], "rotate": "true",
                                                  "leave_out_untested": "true"}, headers=JSON)
    assert started.status_code == 202, started.text
    progress = wait_for_end(client, 120)
    assert progress["state"] == "done" and progress["done"] == progress["total"] > 60  # 60 + the left-out twins
    html = client.get("/balance").text
    assert 'id="balance-untested"' not in html
    left = html[html.index('id="balance-left-out"'):html.index("</table>", html.index('id="balance-left-out"'))]
    assert "Flag" in left and "Pennant" in left
