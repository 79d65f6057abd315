"""Decklists: parse, check against a game's `deck { }` rules, show and build.

Modules, one job each:
  decklist  the text format (`N Card Name` lines, `Section:` headers, `#` comments)
  games     a checked game as the deck tools need it (cached per process)
  validate  the generic checker: every rule of the game's deck block, per line
  explain   hints that quote the failing rule and the values it read
  model     Decklist / DeckReport, what the engine and the CLI consume
  show      derived values (the game's `summary` blocks), cost curve, type mix
  build     `deck new`: a legal deck following the game's decks/advice.md
  library   load_decklist / ready_decks for `play` and `simulate`
  cli       the typer sub-app `deck_app` (check, show, new)

Diagnostic codes: CS1000 unreadable decklist, CS1001 unknown card, CS1002 card of
another game, CS1003 bad count, CS1004 unknown section, CS1005 card in the wrong
section, CS1006 section count, CS1007 deck size, CS1008 too many copies, CS1009
excluded card, CS1010 card not allowed, CS1011 a `require`/`forbid` rule, CS1012 a
card chosen `within` a section that does not hold it.
"""
