"""The Balance and Decks pages in a real browser: a simulation started from the page runs
to the end of its progress bar and its charts load; a bad decklist shows its errors."""

from __future__ import annotations

from typing import Any

import pytest

from cardsmith.studio.project import Project


@pytest.mark.browser
def test_a_simulation_from_the_page_and_a_bad_decklist(live_studio: Any, page: Any) -> None:
    studio = live_studio(Project("combat_cards"), watch=False)
    page.goto(studio.url + "/balance")
    page.fill("input[name=matches]", "30")
    page.click("#balance-start")
    page.wait_for_function("document.body.dataset.balance === 'shown'", timeout=30_000)
    bar = page.locator("#balance-bar")
    assert bar.get_attribute("max") == "30" or page.evaluate("document.getElementById('balance-bar').max") == 30
    assert page.evaluate("document.getElementById('balance-bar').value") == 30
    assert "30 of 30 matches" in page.locator("#balance-progress-text").inner_text()
    assert page.locator("#balance-seats").inner_text().count("player") == 2
    assert page.locator("#balance-cards tr").count() > 10 and page.locator("#balance-dead").is_visible()
    page.wait_for_function("Array.from(document.querySelectorAll('img.chart')).every(i => i.complete)")
    widths = page.evaluate("Array.from(document.querySelectorAll('img.chart')).map(i => i.naturalWidth)")
    assert len(widths) == 4 and all(w > 0 for w in widths)
    assert not page.locator("#balance-start").is_disabled()  # ready for another run

    page.goto(studio.url + "/decks")
    assert page.locator("#ready-decks").inner_text().count("legal Combat Cards deck") == 2
    page.fill("#deck-text", "Deck:\n1 Savage Strike\n1 No Such Card\n")
    page.click("#deck-check")
    error = page.locator("pre.diagnostic", has_text="no card named 'No Such Card'")
    assert "^^^" in error.inner_text() and "= hint:" in error.inner_text()
    assert "not a legal Combat Cards deck" in page.locator("#deck-verdict-line").inner_text()
