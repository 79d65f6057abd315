"""cardsmith spans and diagnostics as the protocol's ranges, locations and diagnostics.

A span is 1-based with an exclusive end column; a protocol range is 0-based. Columns
are counted in characters (the same as `check` prints), which is what editors expect for
the ASCII a `.cards` file is mostly written in.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from cardsmith.dsl.diagnostics import Diagnostic, Severity
from cardsmith.dsl.source import Span
from cardsmith.lsp.workspace import real_path

SOURCE = "cardsmith"


def to_range(span: Span) -> lsp.Range:
    start = lsp.Position(line=max(0, span.line - 1), character=max(0, span.column - 1))
    end = lsp.Position(line=max(0, span.end_line - 1), character=max(0, span.end_column - 1))
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return lsp.Range(start=start, end=end)


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def to_location(span: Span) -> lsp.Location:
    return lsp.Location(uri=uri_of(real_path(span.file)), range=to_range(span))


def contains(span: Span, line: int, character: int) -> bool:
    """Does a span cover a 0-based protocol position?"""
    here = (line + 1, character + 1)
    return (span.line, span.column) <= here <= (span.end_line, span.end_column)


def to_diagnostic(d: Diagnostic) -> lsp.Diagnostic:
    """The checker's diagnostic with its code; the hint follows the message (editors show
    the message, not always the related information) and rides along as data."""
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(
        range=to_range(d.span),
        message=message,
        severity=lsp.DiagnosticSeverity.Error if d.severity is Severity.ERROR else lsp.DiagnosticSeverity.Warning,
        code=d.code,
        source=SOURCE,
        data={"hint": d.hint} if d.hint else None,
    )
