"""The Play page in Chromium: a whole match clicked to its end, and a hot seat's hand-over."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cardsmith.studio.project import Project


def _start(page: Any, url: str, seat2: str) -> None:
    page.goto(url + "/play")
    page.fill("input[name=seed]", "3")
    page.select_option("select[name=seat1]", "person")
    page.select_option("select[name=seat2]", seat2)
    with page.expect_navigation():
        page.click("#start")


@pytest.mark.browser
def test_a_whole_match_clicked_to_its_end(live_studio: Any, page: Any, tmp_path: Path) -> None:
    screenshot = tmp_path / "match.png"  # (docs/images/ is made by scripts/studio_screenshots.py)
    studio = live_studio(Project("combat_cards"), watch=False)
    began = time.perf_counter()
    _start(page, studio.url, "random")
    assert page.locator("#board").count() == 1
    first = page.locator("#moves button.move").first
    first.hover()  # the cards the move uses light up
    assert page.locator("#board .pcard.used").count() >= 1
    clicks = 0
    for clicks in range(1, 400):
        if page.locator("#result").count():
            break
        if clicks == 12:
            page.screenshot(path=str(screenshot))
        with page.expect_navigation():
            page.locator("#moves button.move").first.click()
    seconds = time.perf_counter() - began
    assert page.locator("#result").count() == 1, "the match did not end within the clicks allowed"
    assert "The match is over" in page.locator("#result").inner_text()
    assert page.locator("#download-log").count() == 1
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"a whole clicked match: {clicks} clicks in {seconds:.1f} s")


@pytest.mark.browser
def test_hot_seat_passes_the_screen(live_studio: Any, page: Any) -> None:
    studio = live_studio(Project("combat_cards"), watch=False)
    _start(page, studio.url, "person")
    handed_to = []
    for _ in range(60):
        if len(set(handed_to)) == 2 and len(handed_to) >= 3:
            break
        if page.locator("#handover").count():
            assert page.locator("#board").count() == 0  # nobody's board while the screen is passed
            handed_to.append(page.locator("#handover strong").inner_text())
            with page.expect_navigation():
                page.click("#open-seat")
        assert page.locator("#board").count() == 1
        with page.expect_navigation():
            page.locator("#moves button.move").first.click()
    assert {"player1", "player2"} <= set(handed_to) and len(handed_to) >= 3, handed_to
