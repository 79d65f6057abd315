"""Which expansion a file, and so each card and keyword in it, belongs to.

An expansion is a folder checked together with its base game (compiler/loader.py); its
`expansion "..." { base: ... }` block sits in one of its files, but its cards may be
spread over sub-folders (`cards/*.cards`). A file belongs to the expansion whose block is
declared in its own folder or the nearest folder above it — stopping at a folder that
declares the game, so the base game's files never do. This is what lets `build` print an
expansion's own cards, and the reference list only its new keywords.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from cardsmith.dsl import ir

_EXPANSION = re.compile(rb'^expansion\s+"([^"\n]*)"', re.MULTILINE)
_GAME = re.compile(rb'^game\s+"', re.MULTILINE)


def file_owners(named: list[tuple[str, bytes]]) -> dict[str, str | None]:
    """Each file's expansion name (None: the base game's), read before building so every
    card of a file is stamped with its expansion, wherever the block is written."""
    declared: dict[PurePath, str] = {}
    games: set[PurePath] = set()
    for path, data in named:
        folder = PurePath(path).parent
        found = _EXPANSION.search(data)
        if found:
            declared.setdefault(folder, found.group(1).decode("utf-8", "replace"))
        if _GAME.search(data):
            games.add(folder)
    return {path: _owner(PurePath(path), declared, games) for path, _ in named}


def _owner(path: PurePath, declared: dict[PurePath, str], games: set[PurePath]) -> str | None:
    for folder in path.parents:
        if folder in declared:
            return declared[folder]
        if folder in games:
            return None
    return None


def owner_of(game: ir.Game, file: str) -> str | None:
    """The expansion a checked game's source file belongs to (None: the base game's)."""
    declared = {PurePath(e.span.file).parent: e.name for e in game.expansions}
    return _owner(PurePath(file), declared, {PurePath(game.game.span.file).parent})


def expansion_cards(game: ir.Game) -> list[ir.CardDecl]:
    return [c for c in game.cards if c.expansion is not None]


def expansion_keywords(game: ir.Game) -> list[ir.KeywordDecl]:
    """The keywords an expansion adds: the ones declared in its files."""
    return [k for k in game.keywords if owner_of(game, k.span.file) is not None]


def shown_game(game: ir.Game, with_base: bool = False) -> ir.Game:
    """The game as `text`, `export` and `deck new` show it: an expansion (without
    `with_base`) keeps only its own cards; every rule and keyword stays, since its
    cards' text and decks are read with the base game's."""
    if with_base or not game.expansions:
        return game
    return game.model_copy(update={"cards": expansion_cards(game)})


@dataclass(frozen=True)
class Collector:
    """A card's place in its printed set: `ASH 12/40`."""

    set_code: str
    number: int
    total: int

    def label(self) -> str:
        return f"{self.set_code} {self.number}/{self.total}"


def collector_numbers(game: ir.Game) -> dict[str, Collector]:
    """Card name -> its set code and collector number, for the sets that declare a code
    (`set_code` in the `game` or `expansion` block). A set's cards are numbered from 1 in
    the order they are declared (files in name order), so the numbers are stable while
    the files are."""
    codes: dict[str | None, str] = {None: game.game.set_code}
    codes.update({e.name: e.set_code for e in game.expansions})
    members: dict[str | None, list[str]] = {}
    for card in game.cards:
        if codes.get(card.expansion):
            members.setdefault(card.expansion, []).append(card.name)
    return {name: Collector(codes[owner], i, len(names))
            for owner, names in members.items() for i, name in enumerate(names, 1)}
