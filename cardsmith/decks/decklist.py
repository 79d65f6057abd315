"""Read a decklist: the text format players already trade, with a line for every entry.

```
# Valoria knights            <- comments start with #
Fortress:                    <- a section header (any section the game declares)
1 Castle Valoria
Deck:
4 Footman                    <- N Card Name (N defaults to 1; "4x Footman" works too)
Longsword
```

Parsing knows nothing about any game: it keeps every entry with its line and the span
of the name, so the validator can point a diagnostic at the exact text. Nothing a file
can contain (binary data, huge files, odd lines) raises: it becomes a diagnostic.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from cardsmith.dsl.diagnostics import Diagnostic, DiagnosticSink
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.util.fastmodel import construct

MAX_BYTES = 1_000_000
MAX_LINE = 300
MAX_COUNT = 999

_ENTRY = re.compile(r"(\d+)(?:\s*[xX\u00d7])?\s+(\S.*)")
_HEADER = re.compile(r"([^\W\d][\w '\u2019-]*?)\s*(?:\([^)]*\))?\s*:\s*(?:\(.*\))?")
_SPACES = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# typographic apostrophes, quotes and dashes → their ASCII forms
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'", "\u2032": "'",
                         "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-"})


@lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """The key a card name is matched by: case, apostrophe style and spacing ignored."""
    text = unicodedata.normalize("NFKC", name).translate(_QUOTES)
    return _SPACES.sub(" ", text).strip().casefold()


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One `N Card Name` entry of a decklist."""

    line: int
    count: int
    name: str
    key: str
    header: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class Header:
    """A `Section:` line."""

    name: str
    line: int
    span: Span


@dataclass
class ParsedDecklist:
    source: SourceFile
    lines: list[DeckLine] = field(default_factory=list)
    headers: list[Header] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def first_line_span(self) -> Span:
        """Where deck-wide problems point when no line is to blame."""
        for entry in self.lines:
            return entry.span
        text = self.source.line_text(1)
        return self.source.span(0, len(text))


def decode_decklist(path: str, data: bytes) -> tuple[SourceFile, list[Diagnostic]]:
    """Bytes → text, with a CS1000 diagnostic when the file is not a readable decklist."""
    sink = DiagnosticSink()
    if len(data) > MAX_BYTES:
        source = SourceFile(path, "")
        sink.error(source.span(0, 0), "CS1000", f"the decklist is too large ({len(data)} bytes)",
                   f"a decklist is a short text file (at most {MAX_BYTES} bytes)")
        return source, sink.items
    if b"\x00" in data:
        source = SourceFile(path, "")
        sink.error(source.span(0, 0), "CS1000", "the decklist is not a text file (it holds NUL bytes)",
                   "write one 'N Card Name' line per entry in a UTF-8 text file")
        return source, sink.items
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8-sig", errors="replace")
        source = SourceFile(path, text)
        offset = len(data[:exc.start].decode("utf-8-sig", errors="replace"))
        sink.error(source.span(offset, offset + 1), "CS1000", "the decklist is not valid UTF-8",
                   "save the file as UTF-8 text")
        return source, sink.items
    return SourceFile(path, text.replace("\r\n", "\n").replace("\r", "\n")), sink.items


def parse_decklist(path: str, data: bytes | str, sections: list[str] | None = None) -> ParsedDecklist:
    """Parse a decklist. `sections` (the game's section names) also accepts `Deck` without a colon."""
    problems: list[Diagnostic] = []
    if isinstance(data, str):
        source = SourceFile(path, data.replace("\r\n", "\n").replace("\r", "\n"))
    else:
        source, problems = decode_decklist(path, data)
    out = ParsedDecklist(source, diagnostics=list(problems))
    if problems:
        return out
    known = {normalize_name(s) for s in sections or []}
    sink = DiagnosticSink()
    header: str | None = None
    for index, start in enumerate(source.line_starts):
        raw = source.line_text(index + 1)
        found = _parse_line(source, index + 1, start, raw, known, sink)
        if isinstance(found, Header):
            out.headers.append(found)
            header = found.name
        elif found is not None:
            count, name, span = found
            out.lines.append(DeckLine(index + 1, count, name, normalize_name(name), header, span))
    out.diagnostics.extend(sink.items)
    return out


def _parse_line(source: SourceFile, line: int, start: int, raw: str, known: set[str],
                sink: DiagnosticSink) -> Header | tuple[int, str, Span] | None:
    if len(raw) > MAX_LINE:
        sink.error(source.span(start, start + len(raw)), "CS1000", f"line {line} is too long ({len(raw)} characters)",
                   "write one 'N Card Name' entry per line")
        return None
    text = raw.split("#", 1)[0]
    if text.lstrip().startswith("//"):
        return None
    stripped = text.strip()
    if not stripped:
        return None
    col = start + len(text) - len(text.lstrip())
    if _CONTROL.search(stripped):
        sink.error(source.span(col, col + len(stripped)), "CS1000", "this line holds control characters",
                   "write one 'N Card Name' entry per line")
        return None
    header = _HEADER.fullmatch(stripped) if not stripped[0].isdigit() else None
    if header is None and known and not stripped[0].isdigit() and normalize_name(stripped) in known:
        header = re.fullmatch(r"(.+)", stripped)
    if header is not None:
        name = header.group(1).strip()
        return Header(name, line, source.span(col, col + len(name)))
    entry = _ENTRY.fullmatch(stripped)
    if entry is None:
        return 1, stripped, source.span(col, col + len(stripped))
    digits, name = entry.group(1), entry.group(2).strip()
    name_col = col + stripped.index(name, len(digits))
    count = int(digits) if len(digits) <= 6 else MAX_COUNT + 1
    if count == 0 or count > MAX_COUNT:
        count_span = _span(source, line, start, col, col + len(digits))
    if count == 0:
        sink.error(count_span, "CS1003", f"a count of 0 for '{name}'", "remove the line, or write how many copies")
        return None
    if count > MAX_COUNT:
        sink.error(count_span, "CS1003", f"{digits} copies of '{name}' is not a deck",
                   f"a count is a whole number from 1 to {MAX_COUNT}")
        return None
    return count, name, _span(source, line, start, name_col, name_col + len(name))


def _span(source: SourceFile, line: int, line_start: int, start: int, end: int) -> Span:
    """A span inside one line (cheaper than SourceFile.span's search: the line is known)."""
    return construct(Span, file=source.path, line=line, column=start - line_start + 1, end_line=line,
                     end_column=end - line_start + 1)
