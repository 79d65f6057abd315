"""Diagnostics: what cardsmith tells a designer when something is wrong.

Modelled on rustc/Elm: a code, a message, the source line with carets under the span,
and a hint. Everything that can go wrong with input becomes one of these — never a
traceback — and every stage reports all it finds, not just the first problem.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from cardsmith.dsl.source import SourceFile, Span


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Diagnostic(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    span: Span
    severity: Severity
    code: str
    message: str
    hint: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def errors_of(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The errors among diagnostics (warnings never make a result fail)."""
    return [d for d in diagnostics if d.severity is Severity.ERROR]


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, compared case-insensitively."""
    pool = {c.lower(): c for c in candidates if c}
    matches = difflib.get_close_matches(name.lower(), list(pool), n=1, cutoff=0.6)
    if matches:
        return f"did you mean '{pool[matches[0]]}'?"
    return None


class DiagnosticSink:
    """Collects diagnostics from every stage of a run."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.items.append(Diagnostic(span=span, severity=Severity.ERROR, code=code,
                                     message=message, hint=hint))

    def warning(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.items.append(Diagnostic(span=span, severity=Severity.WARNING, code=code,
                                     message=message, hint=hint))

    def extend(self, items: Iterable[Diagnostic]) -> None:
        self.items.extend(items)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))


def problem(message: str, hint: str | None = None) -> str:
    """A command-line problem that is no diagnostic of a file (a bad target, a revision
    that does not exist): `error: ...` and its hint, as every command writes them."""
    return f"error: {message}" + (f"\n  = hint: {hint}" if hint else "")


def render_all(diagnostics: list[Diagnostic], sources: dict[str, SourceFile], color: bool = False) -> str:
    """Every diagnostic rendered (render), a blank line after each: how a command shows a
    game that does not check before it says what it could not do."""
    return "".join(render(d, sources, color=color) + "\n\n" for d in diagnostics).rstrip("\n")


def render(diagnostic: Diagnostic, sources: dict[str, SourceFile], color: bool = False) -> str:
    """Render one diagnostic the way a compiler would, with a caret snippet."""
    span = diagnostic.span
    red, yellow, blue, bold, reset = ("\x1b[31m", "\x1b[33m", "\x1b[34m", "\x1b[1m", "\x1b[0m") \
        if color else ("", "", "", "", "")
    sev_color = red if diagnostic.severity is Severity.ERROR else yellow
    source = sources.get(span.file)
    # a table of card data names the cell: units.csv:14:C (attack), units.xlsx[Units]!C14
    label = getattr(source, "cell_label", None)
    where = label(span.line, span.column) if label is not None else f"{span.file}:{span.line}:{span.column}"
    head = (f"{bold}{where}:{reset} "
            f"{sev_color}{bold}{diagnostic.severity.value}[{diagnostic.code}]{reset}"
            f"{bold}: {diagnostic.message}{reset}")
    lines = [head]
    if source is not None:
        text = source.line_text(span.line).expandtabs(1)
        if len(text) > 200:
            text = text[:200] + "…"
        row_of = getattr(source, "row_of", None)  # a sheet numbers its rows, not its lines
        gutter = str(row_of(span.line) if row_of is not None else span.line)
        pad = " " * len(gutter)
        width = (span.end_column - span.column) if span.end_line == span.line else len(text) - span.column + 1
        width = max(1, min(width, max(1, len(text) - span.column + 1)))
        lines.append(f"{blue}{pad} |{reset}")
        lines.append(f"{blue}{gutter} |{reset} {text}")
        lines.append(f"{blue}{pad} |{reset} {' ' * (span.column - 1)}{sev_color}{'^' * width}{reset}")
    if diagnostic.hint:
        lines.append(f"{blue}  = hint:{reset} {diagnostic.hint}")
    return "\n".join(lines)
