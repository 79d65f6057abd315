"""What the name under the cursor is: its declarations, its uses, and what hover says.

A word resolves through the index of declarations; a word that names nothing but sits
in a phrase statement (`deal 3 damage to target unit`) resolves to the procedure the
phrase calls. Uses are found in the game's texts as they were checked: a card by its
quoted name, anything else by the whole word outside strings and comments, and a
procedure also by every phrase that calls it.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as lsp

from cardsmith.dsl.source import SourceFile, Span
from cardsmith.lsp.convert import contains, to_location
from cardsmith.lsp.index import Index, Symbol, doc_comment, in_string, word_at
from cardsmith.lsp.workspace import Analysis, real_path


def resolve_at(index: Index, path: Path, text: str, line: int, character: int) -> list[Symbol]:
    """The declarations the cursor's word (or phrase) stands for. A fixed word of the
    phrase the cursor is in (`damage` in `deal 3 damage to t`) means the phrase's
    procedure, even where a counter is also called `damage`."""
    word = word_at(text, line, character)
    phrase = _phrase_at(index, str(path), line, character)
    procedures = index.lookup(phrase) if phrase else []
    if word is not None and not word.quoted and any(
            word.text in _SLOT.sub(" ", pattern).split() for s in procedures for pattern in s.patterns):
        return procedures
    if word is not None:
        found = index.lookup(word.text)
        if word.quoted:
            found = [s for s in found if s.kind == "card"]
        if found:
            return found
    return procedures


_SLOT = re.compile(r"\{[^}]*\}")


def _phrase_at(index: Index, file: str, line: int, character: int) -> str | None:
    best: tuple[tuple[int, int], str] | None = None
    for span, procedure in index.invokes:
        if span.file == file and contains(span, line, character):
            size = (span.end_line - span.line, span.end_column - span.column)
            if best is None or size < best[0]:
                best = (size, procedure)
    return best[1] if best else None


def definition(index: Index, path: Path, text: str, line: int, character: int) -> list[lsp.Location]:
    return [to_location(s.span) for s in resolve_at(index, path, text, line, character)]


def references(analysis: Analysis, index: Index, path: Path, text: str, line: int, character: int,
               include_declaration: bool) -> list[lsp.Location]:
    found: dict[tuple[str, int, int], lsp.Location] = {}
    for symbol in resolve_at(index, path, text, line, character):
        spans = _uses(analysis, index, symbol)
        if include_declaration:
            spans.append(symbol.span)
        for span in spans:
            found.setdefault((span.file, span.line, span.column), to_location(span))
    return [found[k] for k in sorted(found)]


def _uses(analysis: Analysis, index: Index, symbol: Symbol) -> list[Span]:
    spans: list[Span] = []
    if symbol.kind == "card":
        pattern = re.compile('"' + re.escape(symbol.name) + '"', re.IGNORECASE)
    else:
        pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(symbol.name) + r"(?![A-Za-z0-9_])")
    for file, text in analysis.texts.items():
        source = SourceFile(file, text)
        for m in pattern.finditer(text):
            start, end = m.start(), m.end()
            if symbol.kind == "card":
                start, end = start + 1, end - 1
            line, column = source.line_col(start)
            if symbol.kind != "card" and in_string(source.line_text(line), column - 1):
                continue
            span = source.span(start, end)
            if (span.file, span.line, span.column) != (symbol.span.file, symbol.span.line, symbol.span.column):
                spans.append(span)
    if symbol.kind == "procedure":
        spans += [span for span, proc in index.invokes if proc == symbol.name and span.file in analysis.texts]
    return spans


def hover(analysis: Analysis, index: Index, path: Path, text: str, line: int, character: int) -> lsp.Hover | None:
    symbols = resolve_at(index, path, text, line, character)
    if not symbols:
        return None
    parts = [_describe(analysis, s) for s in symbols]
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


def _describe(analysis: Analysis, symbol: Symbol) -> str:
    source = analysis.source(symbol.span.file)
    if source is None and real_path(symbol.span.file).is_file():
        source = SourceFile(symbol.span.file, real_path(symbol.span.file).read_text(encoding="utf-8"))
    declared = source.line_text(symbol.span.line).strip() if source is not None else symbol.name
    parts = [f"```cards\n{declared}\n```", f"*{symbol.kind}*"]
    docs = doc_comment(source, symbol.span.line)
    if docs:
        parts.append(docs)
    if symbol.detail:
        parts.append(symbol.detail)
    return "\n\n".join(parts)
