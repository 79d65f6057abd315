"""`cardsmith deck check | show | new`: the deck sub-commands (a typer sub-app).

Mounted by the main CLI as `app.add_typer(deck_app, name="deck")`. Same conventions as
the rest of cardsmith: data on stdout, diagnostics on stderr (colour only on a terminal
and never with NO_COLOR), exit 0 legal, 1 a deck (or the game) has errors, 2 bad usage.
"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from cardsmith.decks.games import GameContext
    from cardsmith.decks.model import DeckReport


EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2

deck_app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                       rich_markup_mode=None, help="Check, show and build decklists against a game's deck rules.")


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


GameOption = Annotated[str, typer.Option("--game", "-g", help="library game name or game folder")]
FormatOption = Annotated[OutputFormat, typer.Option("--format", help="text or json")]


def _color() -> bool:
    return "NO_COLOR" not in os.environ and sys.stderr.isatty()


def _err(message: str) -> None:
    typer.echo(message, err=True)


def _usage(message: str, hint: str | None = None) -> typer.Exit:
    _err(f"error: {message}")
    if hint:
        _err(f"  = hint: {hint}")
    return typer.Exit(EXIT_USAGE)


def _context(game: str) -> GameContext:
    from cardsmith.compiler.loader import LoadError
    from cardsmith.decks.games import GameNotReady, game_context
    from cardsmith.dsl.diagnostics import render
    try:
        return game_context(game)
    except LoadError as exc:
        raise _usage(exc.message, exc.hint) from None
    except GameNotReady as exc:
        if exc.result is None:  # a game without deck rules: the wrong --game
            raise _usage(exc.message, "deck commands need a game with a `deck { }` block") from None
        for d in exc.result.diagnostics:
            _err(render(d, exc.result.sources, color=_color()))
            _err("")
        _err(f"error: {exc.message}")
        raise typer.Exit(EXIT_INPUT) from None


def _read(path: Path) -> bytes:
    from cardsmith.decks.decklist import MAX_BYTES
    if not path.exists():
        raise _usage(f"no such decklist: {path}")
    if not path.is_file():
        raise _usage(f"not a decklist file: {path}", "give the path of a .deck file")
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _usage(f"cannot read {path}: {exc.strerror or exc}") from None


def _check(path: Path, ctx: GameContext) -> DeckReport:
    from cardsmith.decks.validate import check_decklist
    return check_decklist(str(path), _read(path), ctx)


def _print_report(report: DeckReport) -> None:
    from cardsmith.dsl.diagnostics import render
    color = _color()
    for d in report.diagnostics:
        _err(render(d, report.sources, color=color))
        _err("")


@deck_app.command("check")
def check_command(
    decks: Annotated[list[Path], typer.Argument(help="decklist files (.deck)")],
    game: GameOption,
    output: FormatOption = OutputFormat.text,
) -> None:
    """Is this deck legal? Every violation, against its line, with a hint."""
    from cardsmith.decks.show import verdict

    ctx = _context(game)
    failed = False
    found: list[dict[str, object]] = []
    for path in decks:
        report = _check(path, ctx)
        failed = failed or not report.ok
        if output is OutputFormat.json:
            found.extend(d.to_json() for d in report.diagnostics)
        else:
            _print_report(report)
            _err(verdict(report, ctx))
    if output is OutputFormat.json:
        typer.echo(json.dumps(found, indent=2))
    raise typer.Exit(EXIT_INPUT if failed else EXIT_OK)


@deck_app.command("show")
def show_command(
    deck: Annotated[Path, typer.Argument(help="a decklist file (.deck)")],
    game: GameOption,
    output: FormatOption = OutputFormat.text,
) -> None:
    """Print the deck's derived values (the game's `summary` blocks), cost curve and type mix."""
    from cardsmith.decks.show import deck_summary, render_summary
    ctx = _context(game)
    report = _check(deck, ctx)
    _print_report(report)
    data = deck_summary(report, ctx)
    typer.echo(json.dumps(data, indent=2) if output is OutputFormat.json else render_summary(data))
    raise typer.Exit(EXIT_OK if report.ok else EXIT_INPUT)


@deck_app.command("new")
def new_command(
    game: GameOption,
    head: Annotated[list[str] | None, typer.Option(
        "--head", help="a card of the deck's first section, by name (repeat for more)")] = None,
    with_: Annotated[list[str] | None, typer.Option(
        "--with", help="FIELD=VALUE: a first-section card whose field has that value (repeat for more)")] = None,
    seed: Annotated[int, typer.Option("--seed", help="random seed (same seed, same deck)")] = 1,
    out: Annotated[Path | None, typer.Option("--output", "-o", help="write the decklist to this file")] = None,
    with_base: Annotated[bool, typer.Option(
        "--with-base", help="an expansion: draw on the base game's cards alone, not its own first")] = False,
) -> None:
    """Build a legal deck following the game's advice (a third to a half units, ...).

    `--head` and `--with` pick the cards of the deck's first section when it stands apart
    from the deck (one card per pick); in a game without such a section, `--with` keeps
    only the cards whose field has one of the values given."""
    from cardsmith.decks.build import BuildError, build_deck, parse_pick
    from cardsmith.util.atomic import write_text_atomic
    ctx = _context(game)
    try:
        picks = [("name", name) for name in head or []] + [parse_pick(p) for p in with_ or []]
        text, report = build_deck(ctx, picks, seed, with_base)
    except BuildError as exc:
        raise _usage(exc.message, exc.hint) from None
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        write_text_atomic(out, text)
    except OSError as exc:
        raise _usage(f"cannot write {out}: {exc.strerror or exc}") from None
    _err(f"wrote {out}: {len(report.decklist.physical())} cards, legal")
