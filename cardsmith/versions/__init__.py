"""Versions of a game: what changed between two of them (`cardsmith diff`), and the
errata sheet of the cards that did (`cardsmith build --changed-since`)."""
