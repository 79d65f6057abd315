"""`cardsmith diff OLD NEW` and `cardsmith build --changed-since OLD` (issue 21): two
versions of a game compared card by card and rule by rule, the old one a folder or a git
revision; an errata sheet of the cards that changed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from cardsmith.cli import app

ROOT = Path(__file__).resolve().parent.parent
KC = ROOT / "library" / "kingdom_combat"
CC = ROOT / "library" / "combat_cards"
runner = CliRunner()

NEW_CARD = '''
card "Grave Digger" {
  type: Unit
  faction: Grimhold
  subtype: "Undead"
  cost: 1
  attack: 1; defense: 1; armor: 1
  flavour: "Digs for both sides."
}
'''


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _playtest_round(folder: Path) -> None:
    """One round of changes a designer makes between two playtests."""
    grimhold = folder / "cards" / "grimhold.cards"
    _edit(grimhold, 'subtype: "Archer"\n  cost: 3\n  attack: 1;', 'subtype: "Archer"\n  cost: 2\n  attack: 2;')
    _edit(grimhold, "  keywords: Etherial\n  flavour: \"Swords", "  keywords: Etherial, Charge\n  flavour: \"Swords")
    text = grimhold.read_text(encoding="utf-8")
    text = re.sub(r'\ncard "Banshee" \{.*?\n\}\n', "\n", text, count=1, flags=re.S)
    grimhold.write_text(text + NEW_CARD, encoding="utf-8")
    rules = folder / "rules.cards"
    _edit(rules, "param hand_size: number = 7", "param hand_size: number = 8")
    _edit(rules, '"remove all damage from {u}" {\n  set u.damage to 0\n',
          '"remove all damage from {u}" {\n  set u.damage to 0\n  set u.exhausted to no\n')


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("versions")
    old, new = base / "old", base / "new"
    shutil.copytree(KC, old)
    shutil.copytree(KC, new)
    _playtest_round(new)
    return old, new


def _diff(*args: str) -> tuple[int, str, str]:
    done = runner.invoke(app, ["diff", *args])
    return done.exit_code, done.stdout, done.stderr


def test_a_playtest_round_reads_card_by_card_then_rule_by_rule(versions: tuple[Path, Path]) -> None:
    old, new = versions
    code, out, _ = _diff(str(old), str(new))
    assert code == 0
    lines = [line.strip() for line in out.splitlines()]
    assert lines[0] == "cards:"
    assert lines[1:5] == ["Bone Archer: cost 3 → 2; attack 1 → 2", "Wraith: keyword Charge added",
                          "Grave Digger: added", "Banshee: removed"]
    assert lines[5] == "rules:"
    assert lines[6:8] == ["param hand_size: 7 → 8", "procedure heal: body changed"]
    assert lines[8] == "2 card(s) changed, 1 added, 1 removed; 2 rule(s) changed, 0 added, 0 removed"
    assert len(lines) == 9


def test_the_json_form_carries_every_change_with_its_old_and_new_value(versions: tuple[Path, Path]) -> None:
    old, new = versions
    code, out, _ = _diff(str(old), str(new), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "cardsmith-diff/1"
    assert data["summary"] == {"cards_changed": 2, "cards_added": 1, "cards_removed": 1,
                               "rules_changed": 2, "rules_added": 0, "rules_removed": 0}
    archer = data["cards"][0]
    assert (archer["kind"], archer["name"], archer["status"]) == ("card", "Bone Archer", "changed")
    assert archer["changes"] == [
        {"field": "cost", "old": "3", "new": "2", "text": "cost 3 → 2"},
        {"field": "attack", "old": "1", "new": "2", "text": "attack 1 → 2"}]
    assert data["cards"][1]["changes"] == [
        {"field": "keyword Charge", "old": None, "new": "Charge", "text": "keyword Charge added"}]
    assert [(e["name"], e["status"], e["changes"]) for e in data["cards"][2:]] == [
        ("Grave Digger", "added", []), ("Banshee", "removed", [])]
    param, proc = data["rules"]
    assert (param["kind"], param["name"], param["changes"][0]["old"], param["changes"][0]["new"]) == (
        "param", "hand_size", "7", "8")
    assert (proc["kind"], proc["name"], proc["line"]) == ("procedure", "heal", "procedure heal: body changed")


def test_the_same_game_has_no_changes_wherever_its_declarations_are_written(tmp_path: Path) -> None:
    moved = tmp_path / "kc"
    shutil.copytree(KC, moved)
    grimhold = moved / "cards" / "grimhold.cards"
    grimhold.write_text("\n\n# moved down two lines\n" + grimhold.read_text(encoding="utf-8"), encoding="utf-8")
    assert _diff(str(KC), str(moved)) == (0, "no changes\n", "")


def test_texts_keyword_arguments_and_stages_say_what_changed(tmp_path: Path) -> None:
    new = tmp_path / "kc"
    shutil.copytree(KC, new)
    grimhold = new / "cards" / "grimhold.cards"
    _edit(grimhold, "  keywords: Ranged 1\n", "  keywords: Ranged 2\n")
    _edit(grimhold, 'in Banshee\'s zone.")', 'in Banshee\'s zone, twice.")')
    _edit(new / "rules.cards", "turn {\n", 'turn {\n  stage omens {\n    say "omens"\n  }\n')
    code, out, _ = _diff(str(KC), str(new))
    assert code == 0
    lines = [line.strip() for line in out.splitlines()]
    assert lines[:2] == ["cards:", "Goblin Slinger: keyword Ranged 1 → Ranged 2"]
    assert lines[2].startswith('Banshee: text "Etherial') and lines[2].endswith('zone, twice."')
    # a stage added is one entry: the turn's other stages keep their order, so no `turn:` line
    assert lines[3:] == ["rules:", "stage omens: added",
                         "2 card(s) changed, 0 added, 0 removed; 0 rule(s) changed, 1 added, 0 removed"]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository holding combat_cards at `game/`, one commit, then one edit."""
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(CC, root / "game")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "first playtest")
    _edit(root / "game" / "cards" / "common.cards", "  copies: 2\n", "  copies: 3\n")
    return root


def test_a_git_revision_of_the_folder_is_the_old_version(repo: Path) -> None:
    for old in ("HEAD", "HEAD:game"):
        code, out, err = _diff(old, str(repo / "game"))
        assert (code, err) == (0, "")
        assert out.splitlines()[:2] == ["cards:", "  Draw: copies 2 → 3"]


@pytest.mark.parametrize(("old", "code", "says"), [
    ("--upload-pack=touch pwned", 2, "neither a folder, a library game nor a git revision"),
    (";rm -rf /", 2, "neither a folder, a library game nor a git revision"),
    ("no_such_revision", 1, "unknown git revision 'no_such_revision'"),
    ("HEAD:nowhere", 1, "no folder 'nowhere' at revision HEAD"),
])
def test_a_hostile_or_unknown_revision_is_refused_with_a_hint(repo: Path, old: str, code: int, says: str) -> None:
    got, out, err = _diff("--", old, str(repo / "game"))
    assert (got, out) == (code, "")
    assert says in err and "= hint:" in err
    assert not (repo / "game" / "pwned").exists() and not Path("pwned").exists()


def test_a_revision_outside_a_repository_says_so(tmp_path: Path) -> None:
    shutil.copytree(CC, tmp_path / "game")
    code, _, err = _diff("HEAD~1", str(tmp_path / "game"))
    assert code == 1 and "is not in a git repository" in err and "= hint:" in err


def test_build_changed_since_prints_only_the_changed_and_new_cards(versions: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = versions
    done = runner.invoke(app, ["build", str(new), "--changed-since", str(old), "--out", str(tmp_path / "errata"),
                               "--duplex", "none"])
    assert done.exit_code == 0, done.stderr
    assert "3 card(s) changed since" in done.stderr
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "errata" / "cards.pdf").pages)
    for name in ("Bone Archer", "Wraith", "Grave Digger"):
        assert name in text
    for name in ("Banshee", "Orc Grunt", "Goblin Slinger"):
        assert name not in text


def test_build_changed_since_with_nothing_changed_builds_nothing(tmp_path: Path) -> None:
    done = runner.invoke(app, ["build", str(CC), "--changed-since", str(CC), "--out", str(tmp_path / "errata")])
    assert done.exit_code == 0
    assert "no card changed since" in done.stderr
    assert not (tmp_path / "errata").exists()


def test_build_changed_since_an_unknown_revision_is_bad_input(repo: Path, tmp_path: Path) -> None:
    done = runner.invoke(app, ["build", str(repo / "game"), "--changed-since", "v9.9", "--out", str(tmp_path)])
    assert done.exit_code == 1 and "unknown git revision 'v9.9'" in done.stderr
