"""Writing a new game folder from a template (issue 20).

The folder's own name becomes the game's id and title, so it is checked strictly: a
name that is not a plain word (`../x`, `"; import os`, an empty name) is refused rather
than cleaned up, because the user should see the name their game will carry. Only the
validated name is ever written into a template, and only as an id and a quoted title
made of letters, digits and spaces: user text never becomes rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from cardsmith.util.atomic import write_text_atomic

TEMPLATES = ("duel", "shared-deck", "deck-builder", "board")
DEFAULT_TEMPLATE = "duel"
MAX_NAME = 64
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_TITLE_MARK, _ID_MARK = "__TITLE__", "__ID__"


class NewGameError(Exception):
    """A refusal the CLI reports: a message, a hint, and the exit status (1 bad input,
    2 bad usage)."""

    def __init__(self, message: str, hint: str, exit_code: int) -> None:
        super().__init__(message)
        self.message, self.hint, self.exit_code = message, hint, exit_code


@dataclass(frozen=True)
class GameName:
    ident: str  # the game's `id:`: what `cardsmith` commands call it
    title: str  # the quoted name in `game "..."`


def game_name(folder: str) -> GameName:
    """The id and title a game in `folder` gets, or NewGameError (exit 2)."""
    hint = "name the folder with letters, digits, '-' and '_', starting with a letter (e.g. my_game)"
    if ".." in Path(folder).parts:
        raise NewGameError(f"'{folder}' climbs out of a folder with '..'",
                           "give the new folder's path without '..' (e.g. games/my_game)", 2)
    name = Path(folder).name
    if not name.strip():
        raise NewGameError(f"the folder name is empty (in '{folder}')", hint, 2)
    if len(name) > MAX_NAME or not _NAME.fullmatch(name):
        raise NewGameError(f"'{name}' cannot name a game", hint, 2)
    ident = name.lower().replace("-", "_")
    from cardsmith.dsl.words import RESERVED_NAMES  # the grammar's words: only when a game is made

    if ident in RESERVED_NAMES:
        raise NewGameError(f"'{ident}' is a reserved word of the language and cannot be a game's id",
                           f"pick another folder name (e.g. {ident}_game)", 2)
    title = " ".join(word.capitalize() for word in re.split(r"[-_]+", name) if word)
    return GameName(ident, title)


def _files(root: Traversable, prefix: str = "") -> list[tuple[str, str]]:
    """Every file under `root`, as (relative path, text), in a stable order."""
    found: list[tuple[str, str]] = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.startswith((".", "__")):
            continue
        if entry.is_dir():
            found += _files(entry, f"{prefix}{entry.name}/")
        else:
            found.append((prefix + entry.name, entry.read_text(encoding="utf-8")))
    return found


def template_files(template: str, name: GameName) -> list[tuple[str, str]]:
    """The template's files with the game's name filled in, or NewGameError (exit 2)."""
    if template not in TEMPLATES:
        raise NewGameError(f"unknown template '{template}'", "templates: " + ", ".join(TEMPLATES), 2)
    root = resources.files("cardsmith.newgame").joinpath("templates", template)
    return [(path, text.replace(_TITLE_MARK, name.title).replace(_ID_MARK, name.ident))
            for path, text in _files(root)]


def check_target(folder: Path) -> None:
    """Refuse a folder that holds anything, or a path that is not a folder (exit 1: the
    command was right, the place is not)."""
    if folder.exists() and not folder.is_dir():
        raise NewGameError(f"{folder} exists and is not a folder", "pick a new folder name", 1)
    if folder.is_dir() and any(folder.iterdir()):
        raise NewGameError(f"{folder} is not empty; cardsmith new writes only into a new or empty folder",
                           "pick a new folder name, or empty this one first", 1)


def write_game(folder: Path, template: str) -> tuple[GameName, list[Path]]:
    """Write the template into `folder` (each file atomically); the name and files written."""
    name = game_name(str(folder))
    files = template_files(template, name)
    check_target(folder)
    written: list[Path] = []
    for relative, text in files:
        path = folder.joinpath(*relative.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
        written.append(path)
    return name, written
