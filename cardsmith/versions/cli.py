"""`cardsmith diff OLD NEW`: what changed between two versions of a game, and the errata
filter behind `cardsmith build --changed-since OLD`.

Mounted by cardsmith/cli.py and imported when the CLI starts, so the comparing loads
only when the command runs. The differences go to stdout (text, or `--format json`);
diagnostics to stderr. Exit 0 whether or not anything changed, 1 when a version does
not check or OLD names no revision (git missing, not a repository, unknown revision),
2 when OLD or NEW cannot name a version at all.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from cardsmith.dsl import ir
    from cardsmith.versions.diff import GameDiff

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


class DiffFormat(StrEnum):
    text = "text"
    json = "json"


def _err(message: str) -> None:
    typer.echo(message, err=True)


def diff_command(
    old: Annotated[str, typer.Argument(
        help="the old version: a folder, a library game, or a git revision of NEW (HEAD~1, a tag, REV:path)")],
    new: Annotated[str, typer.Argument(help="the new version: a game folder or library game")] = ".",
    output: Annotated[DiffFormat, typer.Option("--format", help="text or json")] = DiffFormat.text,
) -> None:
    """List what changed between two versions of a game: card by card, then rule by rule."""
    from cardsmith.versions.diff import diff_games, to_json

    new_game = checked_game(new, new)
    with old_game(old, new) as before:
        diff = diff_games(before, new_game)
    if output is DiffFormat.json:
        typer.echo(json.dumps(to_json(diff, old, new), indent=2, ensure_ascii=False))
    else:
        for line in diff_lines(diff):
            typer.echo(line)
    raise typer.Exit(EXIT_OK)


def diff_lines(diff: GameDiff) -> list[str]:
    """The text form: a `cards:` block, then a `rules:` block, then one count line."""
    if diff.empty:
        return ["no changes"]
    lines: list[str] = []
    for title, entries in (("cards:", diff.cards), ("rules:", diff.rules)):
        if entries:
            lines.append(title)
            lines += [f"  {e.line()}" for e in entries]
    s = diff.summary()
    lines.append(f"{s['cards_changed']} card(s) changed, {s['cards_added']} added, {s['cards_removed']} removed; "
                 f"{s['rules_changed']} rule(s) changed, {s['rules_added']} added, {s['rules_removed']} removed")
    return lines


def errata_game(game: ir.Game, target: str, old: str) -> ir.Game:
    """`game` with only the cards changed or new since `old` (an errata sheet); exits 0
    with a message, building nothing, when no card changed."""
    from cardsmith.versions.diff import diff_games

    with old_game(old, target) as before:
        names = set(diff_games(before, game).changed_cards())
    if not names:
        _err(f"no card changed since {old}; nothing built")
        raise typer.Exit(EXIT_OK)
    _err(f"{len(names)} card(s) changed since {old}")
    return game.model_copy(update={"cards": [c for c in game.cards if c.name in names]})


@contextmanager
def old_game(spec: str, new_target: str) -> Iterator[ir.Game]:
    """The checked old version (exported to a temporary folder if it is a revision)."""
    from cardsmith.dsl.diagnostics import problem
    from cardsmith.versions.revision import VersionError, old_version

    try:
        with old_version(spec, new_target) as target:
            yield checked_game(target, spec)
    except VersionError as exc:
        _err(problem(exc.message, exc.hint))
        raise typer.Exit(EXIT_USAGE if exc.usage else EXIT_INPUT) from None


def checked_game(target: str, label: str) -> ir.Game:
    """Check one version; its diagnostics (and exit 1) when it does not check cleanly."""
    from cardsmith.compiler.api import check_game
    from cardsmith.compiler.loader import LoadError
    from cardsmith.dsl.diagnostics import problem, render_all

    try:
        checked = check_game(target)
    except LoadError as exc:
        _err(problem(f"{label}: {exc.message}", exc.hint))
        raise typer.Exit(EXIT_USAGE) from None
    if not checked.ok or checked.game is None:
        color = "NO_COLOR" not in os.environ and sys.stderr.isatty()
        _err(render_all(checked.diagnostics, checked.sources, color=color))
        _err(f"{label}: {len(checked.errors)} error(s); cannot compare")
        raise typer.Exit(EXIT_INPUT)
    return checked.game
