"""`cardsmith build GAME`: the command-line face of the printables.

Progress and the "wrote ..." lines go to stderr, like every diagnostic. Exit codes
follow the rest of cardsmith: 0 written (warnings allowed), 1 errors in the game or
its layouts (nothing written), 2 bad usage.
"""

from __future__ import annotations

import math
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from cardsmith.dsl.source import SourceFile
    from cardsmith.printables.build import BuildResult


EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


class Mode(StrEnum):
    home = "home"
    ink_saver = "ink-saver"
    print_shop = "print-shop"


class Duplex(StrEnum):
    long_edge = "long-edge"
    short_edge = "short-edge"
    none = "none"


def _err(message: str) -> None:
    typer.echo(message, err=True)


def parse_offset(text: str) -> tuple[float, float]:
    """`X,Y` in mm, rounded to the 0.1 mm steps a printer's drift is measured in."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError("expected X,Y in millimetres, e.g. 0.5,-0.3")
    values = [float(p) for p in parts]
    if not all(math.isfinite(v) for v in values):
        raise ValueError("offsets are numbers of millimetres, e.g. 0.5,-0.3")
    x, y = (round(v, 1) for v in values)
    if abs(x) > 20 or abs(y) > 20:
        raise ValueError("an offset over 20 mm is not printer drift")
    return x, y


def parse_bleed(text: str) -> float:
    """Bleed as `3mm` (the default) or `0.125in` / `1/8in`, in mm."""
    t = text.strip().lower().replace(" ", "")
    if t in ("1/8in", "0.125in", "1/8"):
        return 3.175
    if t.endswith("mm"):
        return float(t[:-2])
    if t.endswith("in"):
        return float(t[:-2]) * 25.4
    return float(t)


def build_command(
    game: Annotated[str, typer.Argument(help="a game folder or library game name")],
    out: Annotated[Path, typer.Option("--out", help="output folder")] = Path("build"),
    paper: Annotated[Paper, typer.Option("--paper", help="a4 or letter")] = Paper.a4,
    mode: Annotated[Mode, typer.Option("--mode", help="home, ink-saver or print-shop")] = Mode.home,
    duplex: Annotated[Duplex, typer.Option("--duplex", help="long-edge, short-edge or none")] = Duplex.long_edge,
    back_offset: Annotated[str, typer.Option("--back-offset", help="shift backs by X,Y mm (0.1 mm steps)")] = "0,0",
    bleed: Annotated[str, typer.Option("--bleed", help="print-shop bleed: 3mm or 1/8in")] = "3mm",
    png: Annotated[bool, typer.Option("--png", help="also one PNG per card face at 300 dpi")] = False,
    tts: Annotated[bool, typer.Option("--tts", help="also Tabletop Simulator deck sheets and JSON")] = False,
    with_base: Annotated[bool, typer.Option(
        "--with-base", help="an expansion: also print its base game's cards and sheets")] = False,
    changed_since: Annotated[str | None, typer.Option("--changed-since", help="errata: only the cards changed "
                                                      "or new since OLD (a folder, or a git revision: HEAD~1)")] = None,
    warnings_to: Annotated[Path | None, typer.Option(
        "--warnings-to", help="write layout warnings to this file; print one line that counts them")] = None,
) -> None:
    """Build print-and-play PDFs: cards (duplex backs, crop marks), unit and action sheets."""
    from cardsmith.compiler.api import check_game
    from cardsmith.compiler.loader import LoadError
    from cardsmith.dsl.diagnostics import problem, render_all
    from cardsmith.printables.expansion import build_printables, printed_game
    from cardsmith.printables.imposition import Options
    try:
        offset = parse_offset(back_offset)
        bleed_mm = parse_bleed(bleed)
    except ValueError as exc:
        _err(f"error: bad option: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    if not 0 <= bleed_mm <= 10:
        _err("error: bad option: bleed must be between 0 and 10 mm")
        raise typer.Exit(EXIT_USAGE)
    try:
        checked = check_game(game)
    except LoadError as exc:
        _err(problem(exc.message, exc.hint))
        raise typer.Exit(EXIT_USAGE) from None
    color = "NO_COLOR" not in os.environ and sys.stderr.isatty()
    if not checked.ok or checked.game is None:
        _err(render_all(checked.diagnostics, checked.sources, color=color))
        _err(f"{game}: {len(checked.errors)} error(s); nothing built")
        raise typer.Exit(EXIT_INPUT)
    if changed_since is not None:  # an errata sheet (exits 0, building nothing, when no card changed)
        from cardsmith.versions.cli import errata_game
        checked.game = errata_game(checked.game, game, changed_since)
    opts = Options(paper=paper.value, mode=mode.value, duplex=duplex.value, back_offset=offset, bleed_mm=bleed_mm)
    shown: dict[str, int] = {}

    def progress(name: str, done: int, total: int) -> None:
        step = done * 4 // max(total, 1)
        if total >= 24 and step > shown.get(name, 0):
            shown[name] = step
            _err(f"{name}: {done}/{total} pages")

    result = build_printables(checked.game, out, opts, progress, with_base)
    _report(result, checked.sources, color, warnings_to)
    if not result.ok:
        raise typer.Exit(EXIT_INPUT)
    if png or tts:
        from cardsmith.printables.exports import write_pngs, write_tts

        try:
            if png:
                written = write_pngs(printed_game(checked.game, with_base), out, opts)
                _err(f"wrote {written.path} ({written.pages} PNG images)")
            if tts:
                for item in write_tts(printed_game(checked.game, with_base), out, opts):
                    unit = "card sheet" if item.kind == "sheet" else "decks"
                    _err(f"wrote {item.path} ({item.pages} {unit})")
        except RuntimeError as exc:
            _err(f"error: {exc}")
            raise typer.Exit(EXIT_USAGE) from None
    raise typer.Exit(EXIT_OK)


def _report(result: BuildResult, sources: dict[str, SourceFile], color: bool, warnings_to: Path | None) -> None:
    """Errors always reach the terminal. Warnings too, unless `--warnings-to` asks for them
    in a file: a first run then reads one line that counts them, not pages of snippets."""
    from cardsmith.dsl.diagnostics import Severity, render
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    warnings = [d for d in result.diagnostics if d.severity is not Severity.ERROR]
    shown = errors if warnings_to is not None else result.diagnostics
    for d in shown:
        _err(render(d, sources, color=color))
    for o in result.outputs:
        _err(f"wrote {o.path} ({o.pages} page{'s' if o.pages != 1 else ''})")
    if warnings_to is not None:
        _write_warnings(warnings_to, [render(d, sources, color=False) for d in warnings])
    if errors:
        _err(f"{len(errors)} error(s), {len(warnings)} warning(s); nothing written")
    elif warnings and warnings_to is not None:
        _err(f"{len(warnings)} layout warning(s) written to {warnings_to}")
    elif warnings:
        _err(f"{len(warnings)} warning(s)")


def _write_warnings(path: Path, rendered: list[str]) -> None:
    """The whole file at once (an empty one when there are none, so no stale warnings of
    an earlier build stay behind); a path that cannot be written is bad usage."""
    from cardsmith.util.atomic import write_atomic
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "".join(f"{text}\n" for text in rendered).encode("utf-8"))
    except OSError as exc:
        _err(f"error: cannot write {path}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_USAGE) from None


build_app = typer.Typer(add_completion=False, rich_markup_mode=None, help="Build print-and-play PDFs.")
build_app.command("build")(build_command)
