"""`cardsmith text` and `cardsmith export`: a game's cards as words and as JSON.

They live outside cli.py so each can say how an expansion is shown: like `build`, an
expansion lists its own cards (the base game's only with `--with-base`), because a
designer reading an expansion wants to see what it adds, not the whole base game again.
Heavy modules are imported inside the commands, so `cardsmith --help` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from typing import Annotated, Any

import typer

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2

WITH_BASE_HELP = "an expansion: also list its base game's cards"


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _err(message: str) -> None:
    typer.echo(message, err=True)


def _checked(target: str, with_base: bool) -> Any:
    """The checked game (an expansion: only its own cards unless `with_base`), or the
    reason it is not one: bad usage (exit 2) or a game with errors (exit 1)."""
    return _checked_result(target, with_base)[0]


def _checked_result(target: str, with_base: bool) -> tuple[Any, Any]:
    """`_checked`, and the check result whose sources the CSV export copies cells from."""
    from cardsmith.compiler.api import check_game
    from cardsmith.compiler.expansions import shown_game
    from cardsmith.compiler.loader import LoadError
    from cardsmith.dsl.diagnostics import errors_of, problem, render_all
    try:
        result = check_game(target)
    except LoadError as exc:
        _err(problem(exc.message, exc.hint))
        raise typer.Exit(EXIT_USAGE) from None
    if not result.ok or result.game is None:
        _err(render_all(result.diagnostics, result.sources, color="NO_COLOR" not in os.environ and sys.stderr.isatty()))
        _err("")
        errors = len(errors_of(result.diagnostics))
        _err(f"{target}: {errors} error(s), {len(result.diagnostics) - errors} warning(s)")
        raise typer.Exit(EXIT_INPUT)
    return shown_game(result.game, with_base), result


class ExportFormat(StrEnum):
    json = "json"
    csv = "csv"


def export(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    output: Annotated[ExportFormat, typer.Option("--format", help="json (the whole game) or csv (one card type)")]
    = ExportFormat.json,
    card_type: Annotated[str | None, typer.Option("--type", help="csv: the card type to write")] = None,
    with_base: Annotated[bool, typer.Option("--with-base", help=WITH_BASE_HELP)] = False,
) -> None:
    """Print the checked IR of a game as JSON (see `cardsmith schema`), or the cards of one
    type as a CSV sheet that `cards "units.csv" { type: Unit }` reads back."""
    from cardsmith.compiler.export import export_game

    if output is ExportFormat.json and card_type is not None:
        _err("error: --type chooses the card type of a CSV export")
        _err("  = hint: add --format csv")
        raise typer.Exit(EXIT_USAGE)
    game, result = _checked_result(target, with_base)
    if output is ExportFormat.json:
        typer.echo(export_game(game).model_dump_json(indent=2))
        return
    from cardsmith.compiler.sheet_export import ExportError, card_types_with_cards, export_csv
    from cardsmith.dsl.diagnostics import did_you_mean

    types = card_types_with_cards(game)
    if card_type is None and len(types) != 1:
        _err(f"error: {game.game.name} has cards of {len(types)} types; a sheet holds one")
        _err(f"  = hint: add --type with one of: {', '.join(types)}")
        raise typer.Exit(EXIT_USAGE)
    chosen = card_type or types[0]
    if chosen not in types:
        _err(f"error: {game.game.name} has no cards of type '{chosen}'")
        _err(f"  = hint: {did_you_mean(chosen, types) or 'its card types: ' + ', '.join(types)}")
        raise typer.Exit(EXIT_USAGE)
    try:
        typer.echo(export_csv(game, result.sources, chosen), nl=False)
    except ExportError as exc:
        _err(f"error: {exc}")
        raise typer.Exit(EXIT_INPUT) from None


def text(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    card: Annotated[str | None, typer.Argument(help="one card's name (default: every card)")] = None,
    generated: Annotated[bool, typer.Option("--generated", help="always show the text generated from effects")]
    = False,
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json")] = OutputFormat.text,
    with_base: Annotated[bool, typer.Option("--with-base", help=WITH_BASE_HELP)] = False,
) -> None:
    """Print cards' rules text: the designer's, or generated from the card's effects."""
    from cardsmith.compiler.text import card_text, generated_text
    from cardsmith.dsl.diagnostics import did_you_mean

    game = _checked(target, with_base or card is not None)
    cards = game.cards
    if card is not None:
        cards = [c for c in game.cards if c.name.lower() == card.lower()]
        if not cards:
            _err(f"error: {game.game.name} has no card named '{card}'")
            hint = did_you_mean(card, [c.name for c in game.cards])
            _err(f"  = hint: {hint or f'`cardsmith text {target}` lists every card'}")
            raise typer.Exit(EXIT_USAGE)
    rows = [{"name": c.name, "text": generated_text(game, c) if generated else card_text(game, c),
             "generated": generated_text(game, c), "hand_written": c.text is not None} for c in cards]
    if output is OutputFormat.json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        typer.echo(f"{row['name']}: {row['text']}")
