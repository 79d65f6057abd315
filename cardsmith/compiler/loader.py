"""Find a game's files: by path, or by name in the standard library.

A game is a folder of `.cards` files. An expansion is a folder whose files declare
`expansion "..." { base: game_id }`; it is loaded together with its base game. The
standard library ships inside the package (`cardsmith/library`, mapped from the
repository's `library/`), so `cardsmith check kingdom_combat` works after a plain install.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from cardsmith.dsl.diagnostics import did_you_mean

_EXPANSION_BASE = re.compile(rb"^\s*base\s*:\s*([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
_EXPANSION_HEAD = re.compile(rb"^expansion\s+\"", re.MULTILINE)
_GAME_HEAD = re.compile(rb"^game\s+\"", re.MULTILINE)
# `cards "units.csv" { ... }`: a table file of card data the game also reads
_TABLE_DECL = re.compile(rb'^[ \t]*cards\s+"([^"\n]+\.(?:csv|xlsx))"', re.MULTILINE | re.IGNORECASE)


class LoadError(Exception):
    """The command-line target does not name a game (bad usage, exit 2)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class GameFiles:
    """The files that make up one check: base game files, then expansion files."""

    root: Path
    files: list[Path]
    expansion_roots: list[Path]
    tables: list[Path] = field(default_factory=list)  # sheets of card data the files name


def library_roots() -> list[Path]:
    here = Path(__file__).resolve().parent.parent
    roots = [here / "library", here.parent / "library"]
    extra = os.environ.get("CARDSMITH_LIBRARY")
    if extra:
        roots = [Path(p) for p in extra.split(os.pathsep) if p] + roots
    return [r for r in roots if r.is_dir()]


def library_games() -> dict[str, Path]:
    games: dict[str, Path] = {}
    for root in library_roots():
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            if any(_GAME_HEAD.search(f.read_bytes()) for f in cards_files(folder)):
                games.setdefault(folder.name, folder)
    return games


def library_expansions() -> dict[str, Path]:
    """The library's expansion folders by folder name (they have no `game` block), so
    `cardsmith check kingdom_combat_ashen_host` finds one as it finds a game."""
    found: dict[str, Path] = {}
    for root in library_roots():
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            files = cards_files(folder)
            if files and any(_EXPANSION_HEAD.search(f.read_bytes()) for f in files) and not any(
                    _GAME_HEAD.search(f.read_bytes()) for f in files):
                found.setdefault(folder.name, folder)
    return found


def is_library_game(name: str) -> bool:
    """Is `name` the id of a game in the library (not a path)? A match log names its
    game by id; a path written in a log is not followed."""
    return name in library_games()


def cards_files(folder: Path) -> list[Path]:
    """Every .cards file under `folder` (not folders that happen to be named *.cards)."""
    return sorted(p for p in folder.rglob("*.cards") if p.is_file())


def resolve(target: str) -> GameFiles:
    path = Path(target)
    if path.exists():
        folder = path if path.is_dir() else path.parent
        return _with_base(folder.resolve())
    games = library_games()
    if target in games:
        return _with_base(games[target])
    expansions = library_expansions()
    if target in expansions:
        return _with_base(expansions[target])
    hint = did_you_mean(target, {**games, **expansions}) or (
        "library games: " + ", ".join(sorted(games)) if games else None)
    raise LoadError(f"'{target}' is neither a file, a folder, nor a game in the library", hint)


def _with_base(folder: Path) -> GameFiles:
    files = cards_files(folder)
    if not files:
        raise LoadError(f"no .cards files in '{folder}'",
                        "a game is a folder of .cards files")
    base_name = None
    is_game = False
    for f in files:
        data = f.read_bytes()[:200_000]
        if _GAME_HEAD.search(data):
            is_game = True
        if _EXPANSION_HEAD.search(data):
            match = _EXPANSION_BASE.search(data)
            if match:
                base_name = match.group(1).decode()
    if is_game or base_name is None:
        return GameFiles(folder, files, [], table_files(files))
    games = library_games()
    base = games.get(base_name)
    if base is None:
        sibling = folder.parent / base_name
        if sibling.is_dir():
            base = sibling
    if base is None:
        raise LoadError(f"expansion in '{folder}' names unknown base game '{base_name}'",
                        did_you_mean(base_name, games))
    every = cards_files(base) + files
    return GameFiles(base, every, [folder], table_files(every))


def table_files(files: list[Path]) -> list[Path]:
    """The .csv/.xlsx files that `cards "..."` declarations name, relative to the file
    that names them (a name with no file is reported when the declaration is built)."""
    found: list[Path] = []
    for f in files:
        for match in _TABLE_DECL.finditer(f.read_bytes()):
            name = match.group(1).decode("utf-8", "replace")
            if Path(name).is_absolute() or ".." in re.split(r"[\\/]", name):
                continue  # outside the game's folder: the declaration reports it
            path = f.parent / name
            # a misspelt name: its neighbours come along so the error can say "did you mean"
            for each in [path] if path.is_file() else sorted(
                    p for p in f.parent.iterdir() if p.suffix.lower() in (".csv", ".xlsx") and p.is_file()):
                if each not in found:
                    found.append(each)
    return found
