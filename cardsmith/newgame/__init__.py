"""`cardsmith new FOLDER --template T`: start a game from a small, complete template.

Modules, one job each:
  scaffold   the game's name from the folder, the templates, and writing the files
  cli        the typer command mounted by cardsmith/cli.py (the only layer that prints)
  templates/ the games themselves, as package data: each one checks clean, passes its
             scenarios, plays, simulates and builds; `__TITLE__` and `__ID__` in their
             rules.cards are replaced by the new game's title and id
"""
