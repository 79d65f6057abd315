"""`cardsmith new FOLDER [--template T]`: write a small, complete game to start from.

Mounted by cardsmith/cli.py, and imported there when the CLI starts, so this module
imports nothing heavy: the writing (cardsmith.newgame.scaffold) loads when the command
runs. Exit 0 written, 1 the folder is not new or empty (or cannot be written), 2 a bad
name or template.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

NEXT_STEPS = (
    ("check", "cardsmith check {f}", "check the rules: every error, with its place and a hint"),
    ("test", "cardsmith test {f}", "run the scenarios (scenarios/*.cards)"),
    ("play", "cardsmith play {f} --human 1", "play a match yourself against a random agent"),
    ("simulate", "cardsmith simulate {f} -n 50", "play 50 seeds between agents: balance and dead rules"),
    ("build", "cardsmith build {f} --out {f}-print", "print-and-play PDFs of the cards"),
    ("studio", "cardsmith studio {f}", "see the cards, play and read the balance in a browser"),
)


def _err(message: str) -> None:
    typer.echo(message, err=True)


def new_command(
    folder: Annotated[str, typer.Argument(help="the new game's folder; its name becomes the game's id")],
    template: Annotated[str, typer.Option("--template", "-t",
                                          help="duel, shared-deck, deck-builder or board")] = "duel",
) -> None:
    """Start a new game: write a small, complete game from a template into FOLDER."""
    from cardsmith.dsl.diagnostics import problem
    from cardsmith.newgame.scaffold import NewGameError, write_game

    try:
        name, written = write_game(Path(folder), template)
    except NewGameError as exc:
        _err(problem(exc.message, exc.hint))
        raise typer.Exit(exc.exit_code) from None
    except OSError as exc:
        _err(f"error: cannot write {exc.filename or folder}: {exc.strerror or exc}")
        raise typer.Exit(1) from None
    shown = shlex.quote(folder)
    _err(f"created {folder}: the game '{name.title}' (id {name.ident}), template {template}, {len(written)} files")
    _err("next:")
    width = max(len(line.format(f=shown)) for _, line, _ in NEXT_STEPS)
    for _, line, why in NEXT_STEPS:
        _err(f"  {line.format(f=shown):<{width}}  # {why}")
    _err("the comments in each file point to the sections of docs/language.md they use")
