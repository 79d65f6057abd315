"""A game folder as the editor sees it: the files on disk overlaid with the open buffers.

A `.cards` file is checked together with the rest of its game (a card names a keyword
declared in another file), so one keystroke re-checks the whole folder — with the
unsaved texts of every open buffer in place of what is on disk, the way `check` would
see the folder if everything were saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cardsmith.compiler.api import CORE_PATH, CheckResult, check_sources
from cardsmith.compiler.loader import GameFiles, LoadError, cards_files, resolve
from cardsmith.dsl import ir
from cardsmith.dsl.source import SourceFile

_HEAD = re.compile(rb"^(game|expansion)\s+\"", re.MULTILINE)
# how far above a file the folder that declares its game is looked for
_MAX_DEPTH = 6


@dataclass
class Analysis:
    """One check of a game folder: its files, the texts checked, and the result."""

    root: Path
    files: list[Path]
    result: CheckResult
    texts: dict[str, str] = field(default_factory=dict)

    @property
    def game(self) -> ir.Game | None:
        return self.result.game

    def source(self, path: str) -> SourceFile | None:
        return self.result.sources.get(path)


def core_file() -> Path:
    """The prelude on disk, so a jump to a core procedure opens a real file."""
    return Path(str(resources.files("cardsmith.prelude").joinpath("core.cards")))


def real_path(span_file: str) -> Path:
    """The file a span names (the prelude's display name maps to its file)."""
    return core_file() if span_file == CORE_PATH else Path(span_file)


def game_root(path: Path) -> Path:
    """The folder of the game a file belongs to: the nearest folder above it (or its own)
    holding a `.cards` file that declares a `game` or an `expansion`."""
    folder = path.resolve().parent
    for candidate in [folder, *folder.parents][:_MAX_DEPTH]:
        try:
            heads = [f for f in candidate.glob("*.cards") if f.is_file() and _HEAD.search(f.read_bytes())]
        except OSError:
            continue
        if heads:
            return candidate
    return folder


def game_files(path: Path) -> GameFiles:
    """The files checked together with `path` (its game, plus a base game for an expansion)."""
    root = game_root(path)
    try:
        return resolve(str(root))
    except (LoadError, OSError):  # e.g. an expansion of a base that cannot be found: the file's folder alone
        folder = path.resolve().parent
        try:
            files = cards_files(folder) or [path.resolve()]
        except OSError:
            files = [path.resolve()]
        return GameFiles(folder, files, [])


def analyse(files: GameFiles, overlays: dict[Path, str]) -> Analysis:
    """Check a game with the open buffers' texts in place of the files on disk (an open
    buffer of a new file under the game's folder takes part as well)."""
    paths = [p.resolve() for p in [*files.files, *files.tables]]  # sheets of card data too
    for extra in sorted(overlays):
        if extra not in paths and extra.suffix == ".cards" and extra.is_relative_to(files.root):
            paths.append(extra)
    named: list[tuple[str, bytes]] = []
    texts: dict[str, str] = {}
    for p in paths:
        text = overlays.get(p)
        if text is None:
            try:
                data = p.read_bytes()
            except OSError:
                continue
        else:
            data = text.encode("utf-8")
        named.append((str(p), data))
        texts[str(p)] = data.decode("utf-8", "replace")
    return Analysis(files.root, paths, check_sources(named), texts)
