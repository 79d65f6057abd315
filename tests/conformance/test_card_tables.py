"""Conformance: `cards "file.csv" { type: T }` — cards whose data lives in a sheet
(docs/language.md, "Card data in a sheet"), played: the sheet's rows are cards of the
match, with their stats, copies, keywords (with arguments) and abilities (an effect
written in a cell) doing what the same card written in `.cards` does.
"""

from __future__ import annotations

from pathlib import Path

from conformance.support import build, covers, descriptions, take

GAME = '''
game "Tables" {
  id: tables
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter gold per player { start: 9 }
zone hand per player { visibility: owner }
zone grave per player { visibility: public }
cardtype Spell {
  stats { cost: number; power: number = 1 }
  properties { school: text = "none" }
}
keyword Echo(n: number) {
  reminder: "Then add {n}."
  effect { set out to out * 10 + n }
}
cards "spells.csv" {
  type: Spell
  columns { cost: "Mana" }
}
setup {
  for each name in catalog() {
    create every copy of name in hand of player1 for player1
  }
}
action cast "Cast" {
  choose c from a spell in your hand
  pay c.cost gold
  move c to your grave
  resolve the effect of c
}
turn { stage main { actions: cast } }
heuristic { value: out }
'''

# `;`-delimited, with a BOM, as a spreadsheet in a comma-decimal locale saves it
SPELLS = ("\ufeffName;Mana;Power;School;Keywords;Copies;Effect\n"
          "Spark;1;3;fire;Echo 2;2;set out to out * 10 + self.power\n"
          "\n"
          "Hush;2;;\"\"\"\"\"\";;;\"effect {\n  set out to 0\n}\"\n")


@covers("CardDecl.name", "CardDecl.type", "CardDecl.stats", "CardDecl.properties", "CardDecl.copies",
        "CardDecl.keywords", "CardDecl.abilities", "KeywordUse.args")
def test_cards_from_a_sheet_are_played_like_written_cards(tmp_path: Path) -> None:
    game = build(tmp_path, "tables", GAME, {"spells.csv": SPELLS})
    match = game.new_match(seed=1)
    hand = match.zone("hand", match.players[0]).cards
    # copies: 2 makes two Sparks; the blank row between the cards holds none
    assert [c.name for c in hand] == ["Spark", "Spark", "Hush"]
    spark, hush = hand[0], hand[2]
    assert (match.effective(spark, "cost"), match.effective(spark, "power"), match.effective(spark, "school")) == (
        1, 3, "fire")
    # an empty cell: the type's default; a cell holding "" (a quoted string): the empty text
    assert (match.effective(hush, "power"), match.effective(hush, "school")) == (1, "")
    assert "Cast: Spark#1" in descriptions(match)
    take(match, "Cast: Spark#1")
    # the cell's effect runs (out = 0 * 10 + power 3), then the keyword's (Echo 2)
    assert match.shared["out"] == 32
    assert match.players[0].counters["gold"] == 8, "the cost read from the 'Mana' column"
