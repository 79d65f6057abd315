"""The composition root: a game loaded with the decks it deals, for the CLI and library users.

The engine plays a game with whatever decklists it is given and reads no decklist file;
the deck tools (cardsmith/decks) read and check decklists and know nothing of matches.
This module is where the two meet: `load` compiles a game and gives it the ready decks
of its own `decks/` folder, and `decks_for` turns `--deck` files into the card names a
match deals. It sits above both, beside the CLI.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from cardsmith.decks.library import load_decklist, ready_deck_paths, ready_decks
from cardsmith.dsl import ir
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.game import load as load_compiled

__all__ = ["DecksNotDealt", "deck_lineups", "decks_for", "load", "reload"]


class DecksNotDealt(Exception):
    """Decklists were given for a game that deals none (it builds its decks itself), or
    that has no deck rules to check them against; `hint` says what to do instead."""

    def __init__(self, message: str, hint: str = "leave out --deck for this game") -> None:
        super().__init__(message)
        self.hint = hint


def decks_for(game: CompiledGame, players: int, deck_files: list[Path] | None) -> list[list[str]] | None:
    """Card names per seat. Decklists are dealt only into a game with a per-player zone
    named `deck`; without --deck, seat i gets the i-th ready deck of the game's own
    `decks/` folder (in name order, wrapping round). Raises DeckError for an illegal
    decklist."""
    zone = game.zones.get("deck")
    if zone is None or zone.scope != "player":
        if deck_files:
            raise DecksNotDealt(f"{game.ir.game.name} deals no decklists: it has no zone `deck` per player "
                                f"(its setup builds the decks)")
        return None
    if game.ir.deck is None:  # nothing to check a decklist against
        if deck_files:
            raise DecksNotDealt(f"{game.ir.game.name} has no deck rules to check a decklist against",
                                "declare them in a `deck { }` block, or leave out --deck")
        if ready_deck_paths(game.ir):
            raise DecksNotDealt(f"{game.ir.game.name} has ready decks in decks/ but no deck rules to check "
                                "them against", "declare them in a `deck { }` block, or remove the decks/ folder")
        return None
    if deck_files:
        decklists = [load_decklist(path, game.ir) for path in deck_files]
    else:
        ready = ready_decks(game.ir)
        decklists = [ready[name] for name in sorted(ready)]
    if not decklists:
        return None
    return [decklists[i % len(decklists)].card_names() for i in range(players)]


def deck_lineups(game: CompiledGame, players: int, deck_files: list[Path] | None,
                 every: bool = False) -> list[tuple[list[list[str]], list[str]]] | None:
    """The lineups a simulation deals: (a decklist per seat, each deck's name). The
    decks are the `--deck` files (named by file stem) or the game's own ready decks. With
    no more decks than seats, one lineup (seat i gets deck i, wrapping round); with more
    `--deck` files than seats, or `every` ready deck asked for, every set of `players`
    different decks, so each pair meets (simulate rotates the seats of each). None when
    the game deals no decklists. Raises like decks_for."""
    if decks_for(game, players, deck_files) is None:  # refuses what cannot be dealt
        return None
    names = [path.stem for path in deck_files] if deck_files else sorted(ready_decks(game.ir))
    lists = decks_for(game, len(names), deck_files) or []
    names = [name if names.index(name) == i else f"{name}-{i + 1}" for i, name in enumerate(names)]
    if len(names) <= players or not (every or (deck_files and len(deck_files) > players)):
        return [([lists[i % len(lists)] for i in range(players)], [names[i % len(names)] for i in range(players)])]
    return [([lists[i] for i in chosen], [names[i] for i in chosen])
            for chosen in combinations(range(len(names)), players)]


def reload(target: str, checked: ir.Game | None = None) -> CompiledGame:
    """Like `load`, but from the game's files as they are now (a game being edited);
    `checked` is the game just checked from them, when the caller has it."""
    return load(target, fresh=True, checked=checked)


def load(target: str, fresh: bool = False, checked: ir.Game | None = None) -> CompiledGame:
    """A game by library name or folder, checked and compiled (cached per process and
    on disk), dealing its own ready decks when a match is given none. Raises
    compiler.api.GameError when it does not check; DeckError or DecksNotDealt when its
    ready decks are illegal or cannot be dealt."""
    game = load_compiled(target, fresh, checked)
    if not game.ready_decks:
        game.ready_decks = decks_for(game, len(ready_deck_paths(game.ir)), None) or []
    return game
