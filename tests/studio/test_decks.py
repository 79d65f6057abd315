"""The Decks page: ready decks with their verdicts, and a pasted or uploaded decklist checked
exactly as `cardsmith deck check` checks it (every error with its caret snippet and hint)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardsmith.studio.project import Project
from cardsmith.studio.server import create_app
from tests.conftest import LIBRARY
from tests.studio.conftest import broken_project

GAMES_WITH_DECKS = sorted(p.parent.parent.name for p in LIBRARY.glob("*/decks/*.deck"))
BROKEN = "# a broken deck\nDeck:\n9 Savage Strike\n2 Nonexistent Card\n"


def diagnostics(page: str) -> list[str]:
    return [html.unescape(text) for text in re.findall(r'<pre class="diagnostic [a-z]+">(.*?)</pre>', page, re.S)]


def base_decks(game: str) -> list[Path]:
    """The ready decks of the game an expansion adds to (none for a base game)."""
    found = re.search(r"^\s*base:\s*(\w+)", "".join(p.read_text(encoding="utf-8")
                                                   for p in (LIBRARY / game).glob("*.cards")), re.M)
    return sorted((LIBRARY / found.group(1) / "decks").glob("*.deck")) if found else []


@pytest.mark.parametrize("game", sorted(set(GAMES_WITH_DECKS)))
def test_every_ready_deck_of_a_game_is_legal(game: str) -> None:
    client = TestClient(create_app(Project(game), watch=False))
    page = client.get("/decks").text
    names = sorted(p.stem for p in (LIBRARY / game / "decks").glob("*.deck"))
    listed = page[page.index('id="ready-decks"'):page.index("</table>", page.index('id="ready-decks"'))]
    assert all(name in listed for name in names) and "not a legal" not in listed
    # (an expansion's page lists its base game's ready decks too: they are dealt alongside)
    assert listed.count('class="legal"') == len(names) + len(base_decks(game))
    checked = client.get(f"/decks/ready/{names[0]}")
    assert checked.status_code == 200 and 'class="verdict legal"' in checked.text
    assert not diagnostics(checked.text) and "<h3>Summary</h3>" in checked.text
    assert client.get("/decks/ready/no_such_deck").status_code == 404


def test_a_broken_decklist_shows_every_error_as_the_cli_does(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.cli import app as cli

    client = TestClient(create_app(Project("combat_cards"), watch=False))
    page = client.post("/decks/check", files={"file": ("broken.deck", BROKEN.encode())}).text
    shown = diagnostics(page)
    assert len(shown) == 2
    assert "9 copies of 'Savage Strike'" in shown[0] and "no card named 'Nonexistent Card'" in shown[1]
    assert all("^^^" in text and "= hint:" in text and text.startswith("broken.deck:") for text in shown)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.deck").write_text(BROKEN)
    result = CliRunner().invoke(cli, ["deck", "check", "broken.deck", "--game", "combat_cards"],
                                env={"NO_COLOR": "1"})
    assert result.exit_code == 1
    for text in shown:
        assert text in result.stderr  # the same words, caret snippet and hint as the terminal
    verdict = html.unescape(re.search(r'id="deck-verdict-line">(.*?)</p>', page).group(1))  # type: ignore[union-attr]
    assert verdict == "broken.deck: 2 error(s): not a legal Combat Cards deck" and verdict in result.stderr


def test_a_pasted_decklist_is_checked_too() -> None:
    client = TestClient(create_app(Project("combat_cards"), watch=False))
    legal = (LIBRARY / "combat_cards" / "decks" / "fantasy_starter.deck").read_text()
    page = client.post("/decks/check", data={"text": legal}).text
    assert "pasted.deck: legal Combat Cards deck (9 cards)" in page and not diagnostics(page)
    page = client.post("/decks/check", data={"text": "<script>alert(1)</script>\n"}).text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page  # escaped


def test_an_oversized_decklist_is_refused() -> None:
    client = TestClient(create_app(Project("combat_cards"), watch=False))
    response = client.post("/decks/check", files={"file": ("huge.deck", b"1 Savage Strike\n" * 70_000)})
    assert response.status_code == 413 and "over 1,000,000 bytes" in response.text
    response = client.post("/decks/check", data={"text": "1 Savage Strike\n" * 70_000})
    assert response.status_code == 413
    response = client.post("/decks/check", content=b"x" * 2_500_000,
                           headers={"content-type": "multipart/form-data; boundary=b"})
    assert response.status_code == 413


def test_a_game_with_errors_says_so(tmp_path: Path) -> None:
    client = TestClient(create_app(broken_project(tmp_path), watch=False))
    assert "has errors" in client.get("/decks").text
    response = client.post("/decks/check", data={"text": BROKEN})
    assert response.status_code == 409 and "has errors" in response.text
