"""The front half of cardsmith as one call: files → checked IR + diagnostics."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cardsmith.compiler import cache
from cardsmith.compiler.assemble import assemble
from cardsmith.compiler.check import Checker
from cardsmith.compiler.deckrules import check_deck_satisfiable
from cardsmith.compiler.expansions import file_owners
from cardsmith.compiler.loader import GameFiles, resolve
from cardsmith.compiler.names import check_names
from cardsmith.compiler.static_eval import check_static_values
from cardsmith.dsl import ir
from cardsmith.dsl.build import Builder
from cardsmith.dsl.diagnostics import Diagnostic, DiagnosticSink, errors_of
from cardsmith.dsl.sheettable import TABLE_SUFFIXES
from cardsmith.dsl.source import SourceFile
from cardsmith.dsl.structure import Entry, decode_source, parse_entries
from cardsmith.util.gcpause import paused_gc

CORE_PATH = "<core>/core.cards"


@dataclass
class CheckResult:
    game: ir.Game | None
    diagnostics: list[Diagnostic]
    sources: dict[str, SourceFile] = field(default_factory=dict)
    cached: bool = False

    @property
    def errors(self) -> list[Diagnostic]:
        return errors_of(self.diagnostics)

    @property
    def ok(self) -> bool:
        return not self.errors


class GameError(Exception):
    """Raised by load_game_ir when a game does not check cleanly."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(f"{len(result.errors)} error(s)")
        self.result = result


def display_path(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith(".." + os.sep + "..") else str(path)


def _core_source() -> SourceFile:
    text = resources.files("cardsmith.prelude").joinpath("core.cards").read_text(encoding="utf-8")
    return SourceFile(CORE_PATH, text)


def check_sources(named: list[tuple[str, bytes]]) -> CheckResult:
    """Check a game given as (display path, bytes) pairs, core prelude included."""
    with paused_gc():
        return _check_sources(named)


def _check_sources(named: list[tuple[str, bytes]]) -> CheckResult:
    sink = DiagnosticSink()
    sources: dict[str, SourceFile] = {}
    parsed: list[list[Entry]] = []
    core = _core_source()
    sources[CORE_PATH] = core
    parsed.append(parse_entries(core, sink))
    paths = [CORE_PATH]
    tables = {path: data for path, data in named if path.lower().endswith(TABLE_SUFFIXES)}
    for path, data in named:
        if path in tables:
            continue
        source = decode_source(path, data, sink)
        if source is None:
            continue
        sources[path] = source
        parsed.append(parse_entries(source, sink))
        paths.append(path)
    builder = Builder(sink)
    builder.tables = {os.path.normpath(p): d for p, d in tables.items()}
    for entries in parsed:
        builder.collect_signatures(entries)
    owners = file_owners(named)
    for entries, path in zip(parsed, paths, strict=True):
        builder.expansion = owners.get(path)
        builder.build_file(entries)
    sources.update(builder.sheet_sources)
    first = next((sources[path] for path, _ in named if path in sources), None)
    where = first.span(0, 0) if first is not None else (
        SourceFile(named[0][0], "").span(0, 0) if named else None)
    game = assemble(builder.parts, sink, where)
    if game is not None:
        checker = Checker(game, sink, CORE_PATH, broken=builder.broken)
        checker.run()
        check_names(game, sources, sink, CORE_PATH)
        if not checker.cyclic:  # evaluating a param defined by itself would never end
            if not sink.has_errors:  # (a value the checker already faulted is not told twice)
                check_static_values(game, sink)
            check_deck_satisfiable(game, sink)
    return CheckResult(game, sink.sorted(), sources)


def read_files(files: GameFiles) -> list[tuple[str, bytes]]:
    return [(display_path(p), p.read_bytes()) for p in [*files.files, *files.tables]]


def check_game(target: str, use_cache: bool = False) -> CheckResult:
    """Check a game by path or library name (LoadError if it names nothing)."""
    named = read_files(resolve(target))
    if use_cache and not any(p.lower().endswith(TABLE_SUFFIXES) for p, _ in named):
        key = cache.key_for(named, "check")
        hit = cache.load(key)
        if hit is not None:
            try:
                diagnostics = [Diagnostic.model_validate(d) for d in hit["diagnostics"]]
            except (KeyError, TypeError, ValueError):
                diagnostics = None
            if diagnostics is not None:
                sources = {p: SourceFile(p, d.decode("utf-8", "replace")) for p, d in named
                           if any(x.span.file == p for x in diagnostics)}
                return CheckResult(None, diagnostics, sources, cached=True)
        result = check_sources(named)
        cache.store(key, {"diagnostics": [d.model_dump(mode="json") for d in result.diagnostics]})
        return result
    return check_sources(named)


def load_game_ir(target: str) -> ir.Game:
    result = check_game(target)
    if not result.ok or result.game is None:
        raise GameError(result)
    return result.game
