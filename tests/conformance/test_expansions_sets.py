"""Conformance: `set_code` in the `game` and `expansion` blocks (docs/expansions.md).

A set code numbers the cards of its game or expansion (`BS 1/2`): the numbers are shown
by the JSON export, printed by the default layouts and accepted by decklists; in a played
match a card named by its number in a decklist is the card itself.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_game

from cardsmith.compiler.api import check_game
from cardsmith.compiler.export import export_game
from cardsmith.decks.library import load_decklist
from cardsmith.engine.game import CompiledGame
from conformance.support import covers

BASE = '''
game "Base" {
  id: basegame
  players: 2
  set_code: "BS"
}
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
action draw "Draw" {
  condition: size(your deck) > 0
  move top of your deck to your hand
}
cardtype Coin { stats { value: number = 1 } }
card "Penny" { type: Coin }
card "Nickel" { type: Coin; value: 5 }
deck {
  section Deck { size: 2..6 }
}
turn {
  stage main { actions: draw }
}
'''

EXPANSION = '''
expansion "Golden Age" {
  base: basegame
  set_code: "GA"
}
card "Crown" { type: Coin; value: 50 }
'''


def folders(tmp_path: Path) -> Path:
    write_game(tmp_path / "basegame", {"rules.cards": BASE})
    return write_game(tmp_path / "golden", {"cards/crown.cards": EXPANSION})


@covers("GameDecl.set_code", "ExpansionDecl.set_code")
def test_a_set_code_numbers_the_cards_of_its_game_and_of_its_expansion(tmp_path: Path) -> None:
    result = check_game(str(folders(tmp_path)))
    assert result.game is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    assert (result.game.game.set_code, result.game.expansions[0].set_code) == ("BS", "GA")
    exported = export_game(result.game)
    assert {c.name: (c.set_code, c.collector_number) for c in exported.cards} == {
        "Penny": ("BS", 1), "Nickel": ("BS", 2), "Crown": ("GA", 1)}
    # a decklist names cards by number; the deck dealt holds the cards themselves
    deck = tmp_path / "numbers.deck"
    deck.write_text("2 BS 2\n1 GA 1/1\n1 Penny\n", encoding="utf-8")
    assert sorted(load_decklist(deck, result.game).card_names()) == ["Crown", "Nickel", "Nickel", "Penny"]
    dealt = load_decklist(deck, result.game).card_names()
    match = CompiledGame(result.game).new_match(seed=1, decks=[dealt, dealt])
    for seat in match.players:
        assert sorted(c.name for c in match.zone("deck", seat).cards) == ["Crown", "Nickel", "Nickel", "Penny"]
