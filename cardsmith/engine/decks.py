"""Which decks a match deals: given decklist files, or the game's ready library decks."""

from __future__ import annotations

from pathlib import Path

from cardsmith.engine.game import CompiledGame


class DecksNotDealt(Exception):
    """Decklists were given for a game that deals none (it builds its decks itself)."""


def decks_for(game: CompiledGame, players: int, deck_files: list[Path] | None) -> list[list[str]] | None:
    """Card names per seat. Decklists are dealt only into a game with a per-player zone
    named `deck`; without --deck, seat i gets the i-th ready deck of the library (in
    name order, wrapping round). Raises DeckError for an illegal decklist."""
    from cardsmith.decks.library import library_decks, load_decklist

    zone = game.zones.get("deck")
    if zone is None or zone.scope != "player":
        if deck_files:
            raise DecksNotDealt(f"{game.ir.game.name} deals no decklists: it has no zone `deck` per player "
                                f"(its setup builds the decks)")
        return None
    if deck_files:
        decklists = [load_decklist(path, game.ir) for path in deck_files]
    else:
        ready = library_decks(game.ir.game.id)
        decklists = [ready[name] for name in sorted(ready)]
    if not decklists:
        return None
    return [decklists[i % len(decklists)].card_names() for i in range(players)]
