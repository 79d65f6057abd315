"""Quick fixes and formatting: edits the server offers for a file.

Every "did you mean 'X'?" hint of the checker becomes a code action replacing the
misspelt name under the diagnostic with X. Formatting is `cardsmith fmt`'s, and a file
`fmt` declines (a syntax error) is left untouched.
"""

from __future__ import annotations

import difflib
import re

from lsprotocol import types as lsp

from cardsmith.dsl.diagnostics import Diagnostic, DiagnosticSink
from cardsmith.dsl.format import format_source
from cardsmith.dsl.source import SourceFile
from cardsmith.lsp.convert import to_diagnostic, to_range

_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")
_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*')


def quick_fixes(uri: str, source: SourceFile, diagnostics: list[Diagnostic],
                wanted: lsp.Range) -> list[lsp.CodeAction]:
    actions: list[lsp.CodeAction] = []
    for d in diagnostics:
        match = _DID_YOU_MEAN.search(d.hint or "")
        if match is None or not _overlaps(to_range(d.span), wanted):
            continue
        edit = _replacement(source, d, match.group(1))
        if edit is None:
            continue
        actions.append(lsp.CodeAction(
            title=f"Change to '{match.group(1)}'", kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[to_diagnostic(d)], is_preferred=True,
            edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
    return actions


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _replacement(source: SourceFile, d: Diagnostic, suggestion: str) -> lsp.TextEdit | None:
    """The edit putting the suggestion in place of the token under the diagnostic most
    like it (a diagnostic may underline more than the misspelt word)."""
    span = d.span
    row = source.line_text(span.line)
    end = span.end_column - 1 if span.end_line == span.line else len(row)
    start = span.column - 1
    best: tuple[float, int, int, str] | None = None
    for m in _TOKEN.finditer(row):
        if m.end() <= start or m.start() >= max(end, start + 1):
            continue
        word = m.group()
        quoted = word.startswith('"')
        bare = word[1:-1] if quoted else word
        if bare == suggestion:
            continue
        score = difflib.SequenceMatcher(None, bare.lower(), suggestion.lower()).ratio()
        if best is None or score > best[0]:
            best = (score, m.start() + int(quoted), m.end() - int(quoted), bare)
    if best is None:
        return None
    _, first, last, _ = best
    where = lsp.Range(start=lsp.Position(line=span.line - 1, character=first),
                      end=lsp.Position(line=span.line - 1, character=last))
    return lsp.TextEdit(range=where, new_text=suggestion)


def format_edits(source: SourceFile) -> list[lsp.TextEdit]:
    """One edit replacing the whole text with its formatted form (none when unchanged)."""
    formatted = format_source(source, DiagnosticSink())
    if formatted is None or formatted == source.text:
        return []
    last = len(source.line_starts)
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=last, character=0))
    return [lsp.TextEdit(range=whole, new_text=formatted)]
