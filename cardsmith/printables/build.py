"""`cardsmith build`: a checked game in, print-ready files out.

Renders everything in memory first and writes files only when no error was found, so
a failed build never leaves a half-written or misleading PDF behind. The files of one
build go together: each is written in full into a staging folder beside the outputs
(`.cardsmith-build.PID.XXXXXXXX.tmp`), and only once all are written are they renamed
into place, so a failure or a kill while writing leaves the previous build's files as
they were — never a new cards.pdf beside an old unit-sheets.pdf. A staging folder left
by a killed build is removed by the next one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Diagnostic, Severity
from cardsmith.printables.cards import CODE_BAD_LAYOUT, CODE_UNKNOWN_PROPERTY, CardRenderer
from cardsmith.printables.geometry import make_grid
from cardsmith.printables.imposition import CardsPdf, Options, render_cards
from cardsmith.printables.layout import Layout, resolve_layout
from cardsmith.util.atomic import clean_stale, temp_prefix
from cardsmith.util.atomic import write_atomic as _write_atomic

Progress = Callable[[str, int, int], None]


@dataclass
class Output:
    path: Path
    pages: int
    kind: str


@dataclass
class BuildResult:
    outputs: list[Output] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cards: CardsPdf | None = None
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


def write_atomic(path: Path, data: bytes) -> None:
    """Atomic write, then the permissions a normal file gets (the temp file is 0600)."""
    _write_atomic(path, data)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def art_root(game: ir.Game) -> Path:
    """Art paths are relative to the game's folder (where its `game` block lives)."""
    return Path(game.game.span.file).resolve().parent


def resolve_layouts(game: ir.Game, paper: str, diagnostics: list[Diagnostic]) -> dict[str, Layout]:
    """A layout per card type, with diagnostics for unknown properties and impossible sizes."""
    layouts: dict[str, Layout] = {}
    seen: set[str] = set()
    for ctype in game.cardtypes:
        lay = resolve_layout(game, ctype)
        layouts[ctype.name] = lay
        if lay.name in seen:
            continue
        seen.add(lay.name)
        for what, span in lay.unknown:
            diagnostics.append(Diagnostic(span=span, severity=Severity.WARNING, code=CODE_UNKNOWN_PROPERTY,
                                          message=f"{what}: property not supported by the printer; ignored"))
        if make_grid(paper, lay.width_mm, lay.height_mm) is None:
            diagnostics.append(Diagnostic(span=lay.span, severity=Severity.ERROR, code=CODE_BAD_LAYOUT,
                                          message=f"layout '{lay.name}': {lay.width_mm:g} x {lay.height_mm:g} mm "
                                                  f"cards do not fit on {paper} paper",
                                          hint="use a smaller card size or larger paper"))
        for r in lay.regions:
            if r.x < 0 or r.y < 0 or r.x + r.w > lay.width_mm + 0.01 or r.y + r.h > lay.height_mm + 0.01:
                diagnostics.append(Diagnostic(span=r.span, severity=Severity.WARNING, code=CODE_BAD_LAYOUT,
                                              message=f"region '{r.name}' of layout '{lay.name}' reaches outside "
                                                      f"the {lay.width_mm:g} x {lay.height_mm:g} mm card"))
    return layouts


def render(game: ir.Game, opts: Options, progress: Progress | None = None) -> BuildResult:
    """Render every printable of a game in memory; nothing is written."""
    from cardsmith.printables.sheets import render_action_sheets, render_unit_sheets

    result = BuildResult()
    layouts = resolve_layouts(game, opts.paper, result.diagnostics)
    if not result.ok:
        return result
    renderer = CardRenderer(game, layouts, opts.mode, art_root(game))
    for card in game.cards:
        renderer.plan(card)
    cards = render_cards(game, renderer, opts,
                         (lambda done, total: progress("cards.pdf", done, total)) if progress else None)
    result.cards = cards
    result.files["cards.pdf"] = cards.data
    result.outputs.append(Output(Path("cards.pdf"), len(cards.pages), "cards"))
    units = render_unit_sheets(game, renderer.evaluator, opts, result.diagnostics)
    if units is not None:
        result.files["unit-sheets.pdf"] = units[0]
        result.outputs.append(Output(Path("unit-sheets.pdf"), units[1], "unit sheets"))
    actions = render_action_sheets(game, renderer, opts, result.diagnostics)
    if actions is not None:
        result.files["action-sheets.pdf"] = actions[0]
        result.outputs.append(Output(Path("action-sheets.pdf"), actions[1], "action sheets"))
    result.diagnostics[:0] = renderer.diagnostics
    result.diagnostics.sort(key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))
    return result


def _stage_file(path: Path, data: bytes) -> None:
    """Write one output in full (flushed to disk) into the staging folder."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def write_all(out: Path, files: dict[str, bytes]) -> list[Path]:
    """Write `files` into folder `out` together: all staged first, then renamed into place.

    An error while staging removes the staging folder and leaves `out` untouched. An
    output that is a symlink, or not a plain file, is written through write_atomic (a
    rename would replace the link itself or turn a device into a file)."""
    out.mkdir(parents=True, exist_ok=True)
    clean_stale(out)
    staging = Path(tempfile.mkdtemp(prefix=temp_prefix("cardsmith-build"), suffix=".tmp", dir=out))
    target = out
    try:
        for name, data in files.items():
            target = out / name
            _stage_file(staging / name, data)
        targets = []
        for name, data in files.items():
            target = out / name
            if target.is_symlink() or (target.exists() and not target.is_file()):
                write_atomic(target, data)
            else:
                os.replace(staging / name, target)
            targets.append(target)
        return targets
    except OSError as exc:  # name the output, not a staging file
        raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def build(game: ir.Game, out: Path, opts: Options, progress: Progress | None = None) -> BuildResult:
    """Render, then write every file together (write_all) — or nothing at all if there
    were errors."""
    return write_result(render(game, opts, progress), out)


def write_result(result: BuildResult, out: Path) -> BuildResult:
    """Write a rendered build's files together (write_all) into `out`, each output then
    naming where it went — or nothing at all, and no outputs, if rendering had errors."""
    if not result.ok:
        result.outputs = []
        return result
    targets = write_all(out, {o.path.name: result.files[o.path.name] for o in result.outputs})
    for o, target in zip(result.outputs, targets, strict=True):
        o.path = target
    return result
