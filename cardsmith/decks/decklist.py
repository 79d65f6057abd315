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
from itertools import accumulate
from typing import Any

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


@dataclass(slots=True, unsafe_hash=True)
class DeckLine:
    """One `N Card Name` entry of a decklist.

    Its span is built only when asked for: a decklist of 40 lines is checked in well under
    a millisecond, and a legal one never points at any of its lines. (Never changed once
    made, but not `frozen`: a frozen dataclass is three times slower to build.)"""

    line: int
    count: int
    name: str
    key: str
    header: str | None
    file: str
    column: int
    end_column: int

    @property
    def span(self) -> Span:
        return construct(Span, file=self.file, line=self.line, column=self.column, end_line=self.line,
                         end_column=self.end_column)


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
    """Parse a decklist. `sections` (the game's section names) also accepts `Deck` without a colon.

    The fast path: decklists repeat the same few hundred lines (`4 Footman`), so what a
    line means is remembered per list of section names (`_MEMOS`), as the reference reader
    `_parse_line` worked it out the first time. Only a line's meaning is remembered, never
    its place (spans are rebuilt from the line number), and never a line that made a
    diagnostic: such lines go through `_parse_line` every time, so every diagnostic
    comes from the one reader. `parse_decklist_reference` is the same without the memory
    (tests/test_decks_fastparse.py checks both agree).
    """
    problems: list[Diagnostic] = []
    if isinstance(data, str):
        text = data.replace("\r\n", "\n").replace("\r", "\n") if "\r" in data else data
    else:
        source, problems = decode_decklist(path, data)
        if problems:
            return ParsedDecklist(source, diagnostics=list(problems))
        text = source.text
    raws = text.split("\n")
    # (the line table SourceFile would build by searching the text, from the lines at hand)
    starts = list(accumulate(map((1).__add__, map(len, raws[:-1])), initial=0))
    source = SourceFile(path, text, starts)
    out = ParsedDecklist(source)
    key = tuple(sections) if sections else ()
    memo = _MEMOS.get(key)
    if memo is None:
        memo = _MEMOS[key] = ({normalize_name(s) for s in sections or []}, {})
    known, meanings = memo
    if len(meanings) > _MEMO_LINES:
        meanings.clear()
    entries = out.lines
    sink: DiagnosticSink | None = None
    header: str | None = None
    for line, raw in enumerate(raws, 1):
        meaning = meanings.get(raw)
        if meaning is None:
            if sink is None:
                sink = DiagnosticSink()
            made = len(sink.items)
            found = _parse_line(source, line, starts[line - 1], raw, known, sink)
            if isinstance(found, Header):
                meaning = (found.name, found.span.column, found.span.end_column)
            elif found is not None:
                meaning = (found[0], found[1], normalize_name(found[1]), found[2].column, found[2].end_column)
            else:
                meaning = ()
            if len(sink.items) == made:  # (a line that made a diagnostic is read afresh every time)
                meanings[raw] = meaning
        if not meaning:
            continue
        if len(meaning) == 3:
            name, column, end = meaning
            out.headers.append(Header(name, line, construct(Span, file=path, line=line, column=column,
                                                            end_line=line, end_column=end)))
            header = name
        else:
            count, name, normalized, column, end = meaning
            entries.append(DeckLine(line, count, name, normalized, header, path, column, end))
    if sink is not None:
        out.diagnostics.extend(sink.items)
    return out


# per tuple of section names: (their normalised names, a line's text → what it means:
# () nothing, (name, column, end column) a header, (count, name, key, column, end column) an entry)
_MEMOS: dict[tuple[str, ...], tuple[set[str], dict[str, tuple[Any, ...]]]] = {}
_MEMO_LINES = 100_000  # (forgotten past this: the lines of some 3,000 distinct decklists)


def forget_lines() -> None:
    """Forget every line's remembered meaning (a benchmark measures from a cold start)."""
    _MEMOS.clear()


def parse_decklist_reference(path: str, data: bytes | str, sections: list[str] | None = None) -> ParsedDecklist:
    """The reference reader: every line through `_parse_line`, nothing remembered."""
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
            out.lines.append(DeckLine(index + 1, count, name, normalize_name(name), header, path,
                                      span.column, span.end_column))
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
