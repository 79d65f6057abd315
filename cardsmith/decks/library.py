"""Decklists as the engine takes them: from a file, or a game's ready decks (the
`decks/*.deck` files in its own folder: a library game's, or any other's).

`play` and `simulate` deal decks they get from here. A deck that breaks its game's
construction rules is never dealt: `load_decklist` raises `DeckError` carrying the full
report, so the command can print every problem the way `deck check` does.
"""

from __future__ import annotations

from pathlib import Path

from cardsmith.compiler.loader import library_games
from cardsmith.decks.games import GameContext, game_context
from cardsmith.decks.model import Decklist, DeckReport
from cardsmith.decks.validate import check_decklist
from cardsmith.dsl import ir

DECK_SUFFIX = ".deck"


class DeckError(Exception):
    """A decklist is unreadable or breaks its game's rules (`report` says how)."""

    def __init__(self, report: DeckReport) -> None:
        super().__init__(f"{report.source.path}: {len(report.errors)} deck error(s)")
        self.report = report


def load_decklist(path: str | Path, game: str | ir.Game | GameContext) -> Decklist:
    """Read and check a decklist file; the resolved deck, or DeckError.

    `game` is a library id, a game folder, a checked IR or a context. An unreadable
    file (OSError) propagates: that is a usage problem, not a deck problem.
    """
    path = Path(path)
    report = check_decklist(str(path), path.read_bytes(), game)
    if not report.ok:
        raise DeckError(report)
    return report.decklist


def library_deck_paths(game_id: str) -> list[Path]:
    """The ready decks of a library game (`library/<game>/decks/*.deck`), sorted by name."""
    folder = library_games().get(game_id)
    if folder is None or not (folder / "decks").is_dir():
        return []
    return sorted(p for p in (folder / "decks").glob(f"*{DECK_SUFFIX}") if p.is_file())


def library_decks(game_id: str) -> dict[str, Decklist]:
    """The ready decks of a library game by name (file stem), each checked."""
    paths = library_deck_paths(game_id)
    if not paths:  # a game outside the library (or without ready decks) has none
        return {}
    ctx = game_context(game_id)
    return {p.stem: load_decklist(p, ctx) for p in paths}


def game_folder(game: ir.Game) -> Path:
    """The folder of a checked game: where the file declaring its `game` block lives."""
    return Path(game.game.span.file).resolve().parent


def ready_deck_paths(game: ir.Game) -> list[Path]:
    """The ready decks of a game, wherever it lives: `decks/*.deck` in its own folder,
    sorted by name. A game is found by its folder, not its id: a copy of a library game
    that kept the library's id has its own decks (or none), never the library's. A game
    checked with expansions also has each expansion's `decks/` (beside its block)."""
    if not Path(game.game.span.file).is_file():  # checked from memory, not from a folder
        return library_deck_paths(game.game.id)
    paths = _deck_files(game_folder(game) / "decks")
    for expansion in game.expansions:  # an expansion's decks use its cards: dealt with the base game's
        paths += [p for p in _deck_files(Path(expansion.span.file).resolve().parent / "decks") if p not in paths]
    return paths


def _deck_files(decks: Path) -> list[Path]:
    if not decks.is_dir():
        return []
    return sorted(p for p in decks.glob(f"*{DECK_SUFFIX}") if p.is_file())


def ready_decks(game: ir.Game) -> dict[str, Decklist]:
    """The ready decks of a game by name (file stem), each checked against its rules.
    The game must declare deck rules (`game.deck`) when it has any ready deck."""
    paths = ready_deck_paths(game)
    if not paths:
        return {}
    library = library_games().get(game.game.id)
    if library is not None and paths == library_deck_paths(game.game.id):
        return library_decks(game.game.id)  # the same files, checked once per process, hints quoting its rules
    ctx = game_context(game)
    return {p.stem: load_decklist(p, ctx) for p in paths}
