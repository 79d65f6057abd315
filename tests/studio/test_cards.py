"""The studio's cards pages: every card of every library game in the gallery, its face
served as printed, filters read from the game's declarations, a card's page, escaping
of hostile names, and a change re-drawing only the cards it touched."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from cardsmith.compiler.text import generated_text, keyword_reminder
from cardsmith.decks.library import ready_decks
from cardsmith.studio.cardinfo import word_diff
from cardsmith.studio.cards import FaceCache, faces_of
from cardsmith.studio.project import Project
from cardsmith.studio.server import create_app
from cardsmith.studio.web import card_image_url
from tests.conftest import MINI_CARDS, MINI_RULES, write_game
from tests.studio.conftest import copy_game

GAMES = ["kingdom_combat", "combat_cards", "kingdom_cards", "construct_and_combat", "two_kingdoms"]
PNG = b"\x89PNG\r\n\x1a\n"
HOSTILE = 'Evil \\"<script>alert(1)</script> a/b?c#d & \'q\''


def studio(target: str) -> tuple[Project, TestClient]:
    project = Project(target)
    return project, TestClient(create_app(project, watch=False))


def gallery_names(page: str) -> list[str]:
    return [html.unescape(n) for n in re.findall(r'<li class="gallery-card" data-name="([^"]*)"', page)]


def image_urls(page: str) -> list[str]:
    return [html.unescape(u) for u in re.findall(r'<img src="(/cards/image/[^"]+)"', page)]


@pytest.mark.parametrize("name", GAMES)
def test_the_gallery_shows_every_card_of_each_library_game(name: str) -> None:
    project, client = studio(name)
    game = project.snapshot.game
    assert game is not None
    response = client.get("/cards")
    assert response.status_code == 200
    assert gallery_names(response.text) == [c.name for c in game.cards]
    urls = image_urls(response.text)
    assert urls == [card_image_url(project.snapshot, c.name) for c in game.cards]
    chosen = urls if name == "combat_cards" else [urls[0], urls[len(urls) // 2], urls[-1]]
    for url in chosen:
        image = client.get(url)
        assert image.status_code == 200 and image.content.startswith(PNG), url
        assert image.headers["content-type"] == "image/png"
        assert "immutable" in image.headers["cache-control"]


def test_a_face_is_the_printed_face_at_screen_resolution() -> None:
    import io

    from PIL import Image

    project, client = studio("combat_cards")
    url = card_image_url(project.snapshot, "Savage Strike")
    front = Image.open(io.BytesIO(client.get(url).content))
    back = Image.open(io.BytesIO(client.get(url + "&side=back").content))
    assert front.size == back.size and 300 < front.size[0] < 400  # 63 mm at 150 dpi
    assert front.tobytes() != back.tobytes()
    stale = client.get(url.split("?")[0] + "?v=old")  # an old key: the current face, not cached for good
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"


def test_filters_come_from_the_game_declarations() -> None:
    project, client = studio("kingdom_combat")
    game = project.snapshot.game
    assert game is not None
    page = client.get("/cards").text
    enums = {e.name: [v.name for v in e.values] for e in game.enums}
    enum_props = {f.name: enums[f.type] for t in game.cardtypes for f in t.properties if f.type in enums}
    shown = {prop: re.findall(r'<option value="([^"]+)"', block)
             for prop, block in re.findall(r'data-prop="([^"]+)">(.*?)</select>', page, re.S)}
    assert shown == enum_props
    types = re.search(r'id="filter-type">(.*?)</select>', page, re.S)
    assert types is not None
    assert re.findall(r'<option value="([^"]+)"', types.group(1)) == [t.name for t in game.cardtypes]
    stats = re.search(r'id="filter-stat">(.*?)</select>', page, re.S)
    assert stats is not None and "cost" in re.findall(r'<option value="([^"]+)"', stats.group(1))
    keywords = re.search(r'id="filter-keyword">(.*?)</select>', page, re.S)
    assert keywords is not None
    used = {u.name for c in game.cards for u in c.keywords}
    assert set(re.findall(r'<option value="([^"]+)"', keywords.group(1))) == used


def test_a_card_page_shows_text_keywords_decks_and_source() -> None:
    project, client = studio("combat_cards")
    game = project.snapshot.game
    assert game is not None
    card = next(c for c in game.cards if c.name == "Savage Strike")
    page = client.get("/cards/" + quote(card.name)).text
    assert html.escape(generated_text(game, card)) in page
    decl = next(k for k in game.keywords if k.name == card.keywords[0].name)
    assert html.escape(keyword_reminder(decl, card.keywords[0])) in page
    decks = [name for name, deck in ready_decks(game).items() if any(e.card.name == card.name for e in deck.entries)]
    assert decks and all(f"<td>{name}</td>" in page for name in decks)
    assert f"cards/fantasy.cards:{card.span.line}" in page
    assert "No simulation yet" in page
    assert card_image_url(project.snapshot, card.name).replace("&", "&amp;") in page


def test_written_and_generated_text_differences_are_marked() -> None:
    project, client = studio("kingdom_combat")
    game = project.snapshot.game
    assert game is not None
    card = next(c for c in game.cards if c.text is not None and c.text != generated_text(game, c))
    page = client.get("/cards/" + quote(card.name, safe="")).text
    assert 'id="text-diff"' in page and ("<ins>" in page or "<del>" in page)
    assert word_diff("deal 2 damage", "deal 3 damage") == [("same", "deal"), ("same", " "), ("del", "2"),
                                                          ("same", " "), ("ins", "3"), ("same", " "),
                                                          ("same", "damage")]


def test_simulation_figures_show_when_there_are_some() -> None:
    _project, client = studio("combat_cards")
    figures = {"play_rate": 0.25, "win_rate_when_played": 0.5}
    client.app.state.card_stats = {"Savage Strike": figures}  # type: ignore[attr-defined]
    page = client.get("/cards/Savage%20Strike").text
    assert 'id="card-sim"' in page and "play rate" in page and "0.25" in page


def test_an_unknown_card_is_a_404() -> None:
    _project, client = studio("combat_cards")
    assert client.get("/cards/No%20Such%20Card").status_code == 404
    assert "No such card" in client.get("/cards/No%20Such%20Card").text
    assert client.get("/cards/image/No%20Such%20Card.png").status_code == 404
    assert client.get("/cards/image/Savage%20Strike.jpg").status_code == 404
    assert client.get("/cards/image/Savage%20Strike.png?side=sideways").status_code == 422
    assert client.get("/cards/image/Savage%20Strike.png?v=" + "x" * 500).status_code == 422


def hostile_game(tmp_path: Path) -> Path:
    card = f'\ncard "{HOSTILE}" {{\n  type: Unit\n  faction: Red\n  attack: 2\n  art: "art/missing.png"\n' \
           '  text: "<b>bold</b> & </script>"\n}\n'
    return write_game(tmp_path / "mini", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS + card})


def test_a_hostile_card_name_is_escaped_and_its_face_served(tmp_path: Path) -> None:
    project, client = studio(str(hostile_game(tmp_path)))
    name = next(n for n in project.snapshot.card_keys if n.startswith("Evil"))
    for page in (client.get("/cards").text, client.get("/cards/" + quote(name, safe="")).text):
        assert "<script>alert" not in page and "<b>bold" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert gallery_names(client.get("/cards").text)[-1] == name
    assert client.get("/cards/" + quote(name, safe="")).status_code == 200
    assert "art/missing.png" in client.get("/cards/" + quote(name, safe="")).text  # the printer's note
    image = client.get(card_image_url(project.snapshot, name))  # missing art: the printer's placeholder
    assert image.status_code == 200 and image.content.startswith(PNG)


def test_a_card_named_like_a_route_has_its_own_page(tmp_path: Path) -> None:
    card = '\ncard "image/x.png" {\n  type: Unit\n  faction: Red\n  attack: 2\n}\n'
    folder = write_game(tmp_path / "mini", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS + card})
    project, client = studio(str(folder))
    assert client.get("/cards/" + quote("image/x.png", safe="")).status_code == 200
    assert client.get(card_image_url(project.snapshot, "image/x.png")).content.startswith(PNG)


def test_a_change_redraws_only_the_cards_it_touched(tmp_path: Path) -> None:
    folder = copy_game("combat_cards", tmp_path)
    project, client = studio(str(folder))
    before = client.get("/api/cards").json()["cards"]
    for url in before.values():
        assert client.get(url).status_code == 200
    faces = faces_of(client.app.state)  # type: ignore[attr-defined]
    drawn = faces.drawn
    old = client.get(before["Savage Strike"]).content
    source = folder / "cards" / "fantasy.cards"
    source.write_text(source.read_text().replace("Damage high Opponent 14", "Damage high Opponent 15", 1))
    assert project.reload().changed_cards == ("Savage Strike",)
    after = client.get("/api/cards").json()["cards"]
    assert [n for n in after if after[n] != before[n]] == ["Savage Strike"]
    for url in after.values():
        assert client.get(url).status_code == 200
    assert faces.drawn == drawn + 1  # only the changed card was drawn again
    assert client.get(after["Savage Strike"]).content != old  # the new number is printed


def test_with_errors_the_last_good_cards_stay(tmp_path: Path) -> None:
    folder = copy_game("combat_cards", tmp_path)
    project, client = studio(str(folder))
    names = gallery_names(client.get("/cards").text)
    source = folder / "cards" / "fantasy.cards"
    source.write_text(source.read_text() + '\ncard "Broken" { nonsense }\n')
    assert not project.reload().ok
    page = client.get("/cards").text
    assert gallery_names(page) == names and 'id="cards-stale"' in page and "last version that checked" in page
    index = client.get("/api/cards").json()
    assert index["stale"] is True and set(index["cards"]) == set(names)
    assert client.get(index["cards"][names[0]]).status_code == 200


def test_a_game_broken_from_the_start_says_so(tmp_path: Path) -> None:
    folder = copy_game("combat_cards", tmp_path)
    source = folder / "cards" / "fantasy.cards"
    source.write_text(source.read_text() + '\ncard "Broken" { nonsense }\n')
    _project, client = studio(str(folder))
    page = client.get("/cards")
    assert page.status_code == 200 and 'id="cards-none"' in page.text
    assert client.get("/cards/image/Savage%20Strike.png").status_code == 409
    assert client.get("/cards/Savage%20Strike").status_code == 404


def test_faces_come_back_from_the_disk_cache(tmp_path: Path) -> None:
    project = Project("kingdom_cards")
    game = project.snapshot.game
    assert game is not None
    first = FaceCache(tmp_path / "faces")
    card = game.cards[0]
    face = first.face(project.snapshot, card)
    assert first.drawn == len(game.cards)  # one batch: the whole game
    second = FaceCache(tmp_path / "faces")
    assert second.face(project.snapshot, card).png == face.png and second.drawn == 0
    assert all(second.face(project.snapshot, c) for c in game.cards) and second.drawn == 0


def test_a_card_that_cannot_be_drawn_gets_a_placeholder(tmp_path: Path, monkeypatch: Any) -> None:
    from cardsmith.printables.cards import CardRenderer
    from cardsmith.studio import cards

    project = Project("kingdom_cards")
    game = project.snapshot.game
    assert game is not None
    broken = game.cards[1].name
    real = CardRenderer.draw_front

    def draw_front(self: Any, c: Any, forms: Any, card: Any, x: float, y: float, bleed: float = 0.0) -> None:
        if card.name == broken:
            raise ValueError("a region that cannot be drawn")
        real(self, c, forms, card, x, y, bleed)

    monkeypatch.setattr(CardRenderer, "draw_front", draw_front)
    faces = cards.FaceCache(None)
    face = faces.face(project.snapshot, game.cards[1])
    assert face.png.startswith(PNG) and "cannot be drawn" in face.problem
    assert not faces.face(project.snapshot, game.cards[0]).problem
