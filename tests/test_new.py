"""`cardsmith new` (issue 20): every template writes a game that checks clean, passes its
scenarios, plays to a winner, simulates and builds PDFs — run through the CLI in-process,
as a designer would run the commands the new game's message lists. And the refusals:
a folder that is not empty, an unknown template, names that cannot be a game's id."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from cardsmith.cli import app
from cardsmith.newgame.scaffold import TEMPLATES

runner = CliRunner()


def _new(folder: Path, template: str) -> None:
    done = runner.invoke(app, ["new", str(folder), "--template", template])
    assert done.exit_code == 0, done.output
    assert "cardsmith check" in done.stderr and "cardsmith studio" in done.stderr, "the next steps are listed"


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_checks_tests_plays_simulates_and_builds(tmp_path: Path, template: str) -> None:
    game = tmp_path / f"my_{template.replace('-', '_')}"
    _new(game, template)
    rules = (game / "rules.cards").read_text(encoding="utf-8")
    assert f"id: {game.name}" in rules and "docs/language.md" in rules

    checked = runner.invoke(app, ["check", str(game), "--format", "json", "--no-cache"])
    assert checked.exit_code == 0 and json.loads(checked.stdout) == [], checked.output  # no errors, no warnings
    for deck in sorted(game.glob("decks/*.deck")):  # a ready deck is legal under the game's deck rules
        dealt = runner.invoke(app, ["deck", "check", str(deck), "--game", str(game)])
        assert dealt.exit_code == 0, dealt.output

    tested = runner.invoke(app, ["test", str(game), "--format", "json"])
    scenarios = json.loads(tested.stdout)
    assert tested.exit_code == 0 and scenarios and all(s["passed"] for s in scenarios), tested.output

    for seed in (1, 2):
        played = runner.invoke(app, ["play", str(game), "--seed", str(seed)])
        assert played.exit_code == 0, played.output
        result = json.loads(played.stdout)
        assert result["over"] and result["winner"] and result["error"] is None, result

    simulated = runner.invoke(app, ["simulate", str(game), "-n", "3", "--rules", "none", "--format", "json",
                                    "--traces", str(tmp_path / "traces")])
    assert simulated.exit_code == 0, simulated.output  # a rules error or a stopped match exits 1

    out = tmp_path / "print"
    built = runner.invoke(app, ["build", str(game), "--out", str(out)])
    assert built.exit_code == 0, built.output
    pdfs = sorted(out.rglob("*.pdf"))
    assert pdfs, "build wrote no PDF"
    for pdf in pdfs:
        assert len(PdfReader(pdf).pages) >= 1, pdf


def test_every_template_file_is_shipped_in_the_package() -> None:
    """pyproject.toml's package data for cardsmith.newgame takes .cards and .deck files."""
    root = Path(__file__).resolve().parent.parent / "cardsmith" / "newgame" / "templates"
    assert sorted(p.name for p in root.iterdir() if p.is_dir()) == sorted(TEMPLATES)
    files = [p for p in root.rglob("*") if p.is_file()]
    assert files and all(p.suffix in (".cards", ".deck") for p in files), files
    pyproject = (root.parent.parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"cardsmith.newgame" = ["templates/**/*.cards", "templates/**/*.deck"]' in pyproject


def test_the_templates_comments_name_sections_that_the_language_reference_has() -> None:
    root = Path(__file__).resolve().parent.parent
    headings = {line.lstrip("#").strip() for line in (root / "docs" / "language.md").read_text().splitlines()
                if line.startswith("#")}
    for template in TEMPLATES:
        folder = root / "cardsmith" / "newgame" / "templates" / template
        text = "".join(p.read_text() for p in sorted(folder.rglob("*.*")))
        named = set(re.findall(r'docs/language\.md, "([^"]+)"', text))
        assert len(named) >= 8, (template, named)
        assert named <= headings, (template, sorted(named - headings))


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "taken"
    game.mkdir()
    (game / "notes.txt").write_text("mine", encoding="utf-8")
    done = runner.invoke(app, ["new", str(game)])
    assert done.exit_code == 1 and "not empty" in done.stderr and "hint" in done.stderr
    assert sorted(p.name for p in game.iterdir()) == ["notes.txt"], "nothing was written"
    # an empty folder is fine
    (tmp_path / "empty").mkdir()
    assert runner.invoke(app, ["new", str(tmp_path / "empty"), "-t", "board"]).exit_code == 0


def test_an_unknown_template_is_a_usage_error_that_lists_the_templates(tmp_path: Path) -> None:
    done = runner.invoke(app, ["new", str(tmp_path / "g"), "--template", "poker"])
    assert done.exit_code == 2
    assert "unknown template 'poker'" in done.stderr
    assert all(name in done.stderr for name in TEMPLATES)
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("name", ["../x", '"; import os', "", "9lives", "if", "a" * 65, "my game", "x/.."])
def test_names_that_cannot_be_a_game_id_are_refused_without_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["new", name])
    assert done.exit_code == 2, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert done.stderr.startswith("error: ") and "hint" in done.stderr
    assert list(tmp_path.iterdir()) == [], "nothing was written"


def test_a_dashed_folder_name_becomes_an_id_and_a_title(tmp_path: Path) -> None:
    _new(tmp_path / "Dragon-Duel", "duel")
    rules = (tmp_path / "Dragon-Duel" / "rules.cards").read_text(encoding="utf-8")
    assert 'game "Dragon Duel" {' in rules and "id: dragon_duel" in rules
    assert "__TITLE__" not in rules and "__ID__" not in rules
