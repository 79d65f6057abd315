"""The cards gallery in a real browser: every card shown, filters, and a saved edit
swapping in the new face of exactly the card it changed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cardsmith.studio.project import Project
from tests.studio.conftest import copy_game

ALL_LOADED = """() => {
  const images = Array.from(document.querySelectorAll('#gallery img'));
  return images.length > 0 && images.every(i => i.complete && i.naturalWidth > 0);
}"""


def sources(page: Any) -> dict[str, str]:
    result: dict[str, str] = page.evaluate("""() => Object.fromEntries(
        Array.from(document.querySelectorAll('#gallery li.gallery-card'))
             .map(li => [li.dataset.name, li.querySelector('img').getAttribute('src')]))""")
    return result


@pytest.mark.browser
def test_the_gallery_shows_every_card_and_filters_narrow_it(live_studio: Any, page: Any) -> None:
    project = Project("kingdom_combat")
    game = project.snapshot.game
    assert game is not None
    studio = live_studio(project, watch=False)
    start = time.perf_counter()
    page.goto(studio.url + "/cards")
    page.wait_for_function(ALL_LOADED, timeout=30_000)
    print(f"kingdom_combat gallery: {len(game.cards)} cards shown in {time.perf_counter() - start:.2f} s (cold)")
    assert sorted(sources(page)) == sorted(c.name for c in game.cards)
    visible = "#gallery li.gallery-card:not([hidden])"
    total = page.locator(visible).count()
    assert total == len(game.cards)
    ctype = game.cardtypes[1].name
    page.select_option("#filter-type", ctype)
    narrowed = page.locator(visible).count()
    assert 0 < narrowed < total
    assert narrowed == sum(1 for c in game.cards if c.type == ctype)
    page.fill("#filter-q", game.cards[3].name.lower())
    assert page.locator(visible).count() >= 1
    page.select_option("#filter-type", "")
    page.fill("#filter-q", "")
    assert page.locator(visible).count() == total


@pytest.mark.browser
def test_a_saved_stat_updates_only_that_cards_face(tmp_path: Path, live_studio: Any, page: Any) -> None:
    folder = copy_game("combat_cards", tmp_path)
    studio = live_studio(Project(str(folder)))
    page.goto(studio.url + "/cards")
    page.wait_for_function(ALL_LOADED)
    before = sources(page)
    time.sleep(0.3)  # the watcher is up
    source = folder / "cards" / "fantasy.cards"
    start = time.perf_counter()
    source.write_text(source.read_text().replace("Damage high Opponent 14", "Damage high Opponent 15", 1))
    page.wait_for_function(
        "(old) => { const img = document.querySelector('#gallery li[data-name=\"Savage Strike\"] img');"
        " return img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0; }",
        arg=before["Savage Strike"], timeout=10_000)
    seconds = time.perf_counter() - start
    after = sources(page)
    assert [name for name in after if after[name] != before[name]] == ["Savage Strike"]
    print(f"save to updated card face: {seconds:.2f} s")
    assert seconds < 10


@pytest.mark.browser
def test_errors_keep_the_last_cards_and_a_new_card_appears(tmp_path: Path, live_studio: Any, page: Any) -> None:
    folder = copy_game("combat_cards", tmp_path)
    studio = live_studio(Project(str(folder)))
    page.goto(studio.url + "/cards")
    page.wait_for_function(ALL_LOADED)
    names = sorted(sources(page))
    time.sleep(0.3)  # the watcher is up
    source = folder / "cards" / "fantasy.cards"
    text = source.read_text()
    source.write_text(text + '\ncard "Broken" { nonsense }\n')
    page.wait_for_selector("#cards-stale", state="visible", timeout=10_000)
    assert sorted(sources(page)) == names
    added = text.replace('card "Savage Strike" {', 'card "Savage Strike II" {\n  type: Combat\n  faction: fantasy\n'
                         '  keywords: Damage low Opponent 3\n}\n\ncard "Savage Strike" {', 1)
    source.write_text(added)
    page.wait_for_selector('#gallery li[data-name="Savage Strike II"] img', timeout=10_000)
    page.wait_for_function(ALL_LOADED)
    assert sorted(sources(page)) == sorted([*names, "Savage Strike II"])
    assert page.locator("#cards-stale").is_hidden()


@pytest.mark.browser
def test_a_card_page_follows_its_card(tmp_path: Path, live_studio: Any, page: Any) -> None:
    folder = copy_game("combat_cards", tmp_path)
    studio = live_studio(Project(str(folder)))
    page.goto(studio.url + "/cards/Savage%20Strike")
    assert "Savage Strike" in page.locator("h1").inner_text()
    old = page.get_attribute("#card-front", "src")
    time.sleep(0.3)
    source = folder / "cards" / "fantasy.cards"
    source.write_text(source.read_text().replace("Damage high Opponent 14", "Damage high Opponent 15", 1))
    page.wait_for_function("(old) => { const img = document.getElementById('card-front');"
                           " return img && img.getAttribute('src') !== old; }", arg=old, timeout=10_000)
    assert "15" in page.locator("#card-view").inner_text()
