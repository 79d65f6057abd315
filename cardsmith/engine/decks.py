"""Which decks a match deals: given decklist files, or the game's ready decks."""

from __future__ import annotations

from pathlib import Path

from cardsmith.engine.game import CompiledGame


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
    from cardsmith.decks.library import load_decklist, ready_deck_paths, ready_decks

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
