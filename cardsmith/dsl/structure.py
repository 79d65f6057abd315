"""Parse a `.cards` file into raw entries (the structural layer).

The structural grammar (grammar/structure.lark) only knows properties (`name: words`)
and nodes (`head words { block }`). Everything else is decided later by the builder,
which keeps syntax errors local and lets games grow vocabulary without grammar edits.

The parser runs Lark's LALR with an inline transformer, so no parse tree is built and
nested input never recurses in Python. Bad input of any kind (binary, not UTF-8, huge,
deeply nested, truncated) becomes diagnostics.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.lexer import MAX_DEPTH, StructureLexer, TooDeep
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.util.fastmodel import construct

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_SYNTAX_ERRORS = 25


class Entry:
    """One property or node of the structural layer."""

    __slots__ = ("block", "end_pos", "head", "is_prop", "items", "name", "source")

    def __init__(self, head: Token, items: list[Token], block: list[Entry] | None,
                 is_prop: bool, end_pos: int) -> None:
        self.head = head
        self.name: str = head.value
        self.items = items
        self.block = block
        self.is_prop = is_prop
        self.source: SourceFile | None = None
        self.end_pos = end_pos

    def span(self) -> Span:
        """From the head to the last word (the block is not included)."""
        assert self.source is not None
        last = self.items[-1] if self.items else self.head
        return _token_span(self.source.path, self.head, last)

    def head_span(self) -> Span:
        assert self.source is not None
        return _token_span(self.source.path, self.head, self.head)

    def items_span(self) -> Span:
        assert self.source is not None
        if not self.items:
            return self.head_span()
        return _token_span(self.source.path, self.items[0], self.items[-1])

    def items_text(self) -> str:
        assert self.source is not None
        if not self.items:
            return ""
        return self.source.text[self.items[0].start_pos:self.items[-1].end_pos]

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        kind = "prop" if self.is_prop else "node"
        return f"<{kind} {self.head} {[str(t) for t in self.items]} block={self.block is not None}>"


def _token_span(path: str, first: Token, last: Token) -> Span:
    """Structural tokens carry their own line and column; no offset lookup needed."""
    return construct(Span, file=path, line=first.line, column=first.column,
                     end_line=last.end_line, end_column=last.end_column)


class _Build(Transformer[Token, object]):
    """Inline transformer: builds Entry objects as the LALR parser reduces."""

    def start(self, children: list[object]) -> list[Entry]:
        return [c for c in children if isinstance(c, Entry)]

    def block(self, children: list[object]) -> list[Entry]:
        return [c for c in children if isinstance(c, Entry)]

    def prop(self, children: list[object]) -> Entry:
        head = children[0]
        assert isinstance(head, Token)
        items = [c for c in children[1:] if isinstance(c, Token)]
        end = items[-1].end_pos if items else head.end_pos
        return Entry(head, items, None, True, end or 0)

    def node(self, children: list[object]) -> Entry:
        head = children[0]
        assert isinstance(head, Token)
        items = [c for c in children[1:] if isinstance(c, Token)]
        end = items[-1].end_pos if items else head.end_pos
        return Entry(head, items, None, False, end or 0)

    def node_with_block(self, children: list[object]) -> Entry:
        head = children[0]
        assert isinstance(head, Token)
        block = children[-1]
        assert isinstance(block, list)
        items = [c for c in children[1:-1] if isinstance(c, Token)]
        end = items[-1].end_pos if items else head.end_pos
        return Entry(head, items, block, False, end or 0)


def _grammar(name: str) -> str:
    return resources.files("cardsmith.grammar").joinpath(name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def structure_parser() -> Lark:
    return Lark(_grammar("structure.lark"), parser="lalr", lexer=StructureLexer,
                transformer=_Build(), maybe_placeholders=False)


_EXPECTED_NAMES = {
    "WORD": "a name", "NUMBER": "a number", "STRING": "a string", "LONG_STRING": "a string",
    "_NL": "a new line", "LBRACE": "'{'", "RBRACE": "'}'", "COLON": "':'", "SEMICOLON": "';'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "OP": "an operator",
    "DIM": "a dimension", "$END": "the end of the file",
}


def _describe_expected(expected: set[str] | frozenset[str]) -> str:
    names = sorted({_EXPECTED_NAMES.get(e, e) for e in expected})
    if len(names) > 6:
        return ""
    return "expected " + ", ".join(names)


def decode_source(path: str, data: bytes, sink: DiagnosticSink) -> SourceFile | None:
    """Turn raw bytes into a SourceFile, or report why they cannot be one."""
    empty = SourceFile(path, "")
    if len(data) > MAX_FILE_BYTES:
        sink.error(empty.span(0, 0), "CS0103",
                   f"file is too large ({len(data):,} bytes; the limit is {MAX_FILE_BYTES:,})",
                   "split the cards over several files in the game folder")
        return None
    if b"\x00" in data:
        at = data.index(b"\x00")
        prefix = data[:at].decode("utf-8", errors="replace")
        src = SourceFile(path, prefix)
        sink.error(src.span(len(prefix), len(prefix) + 1), "CS0102",
                   "file contains binary data (a NUL byte), not text",
                   ".cards files are plain UTF-8 text")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[:exc.start].decode("utf-8", errors="replace")
        src = SourceFile(path, prefix)
        sink.error(src.span(len(prefix), len(prefix) + 1), "CS0102",
                   f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                   "save the file as UTF-8")
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return SourceFile(path, text)


_TOP_LEVEL = re.compile(r"^[A-Za-z_]", re.MULTILINE)


def parse_entries(source: SourceFile, sink: DiagnosticSink) -> list[Entry]:
    """Parse one file's text into entries; syntax errors go to the sink.

    After a syntax error the parser resynchronises at the next line that starts a
    top-level declaration (a name in column 1), so one run reports the errors of every
    declaration. Text already handled is blanked out (newlines kept) rather than cut,
    so every offset, line and column stays true to the file.
    """
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    parser = structure_parser()
    entries: list[Entry] = []
    start = 0
    errors = 0
    while start < len(text):
        masked = _blank(text, start) + text[start:] if start else text
        try:
            result = parser.parse(masked)
        except TooDeep as deep:
            pos = deep.token.start_pos or 0
            sink.error(source.span(pos, pos + 1), "CS0105",
                       f"nesting is too deep (more than {MAX_DEPTH} levels)",
                       "split the rule into procedures")
            return entries
        except UnexpectedInput as exc:
            errors += 1
            _report_syntax_error(source, exc, sink)
            bad = _error_offset(exc, len(text))
            decl_start = _last_top_level(text, start, bad)
            if decl_start > start:
                entries.extend(_parse_clean(parser, text, start, decl_start))
            resync = _next_top_level(text, max(bad, decl_start) + 1)
            if resync is None or errors >= MAX_SYNTAX_ERRORS:
                break
            start = resync
            continue
        assert isinstance(result, list)
        entries.extend(result)
        break
    _attach_source(entries, source)
    return entries


def _blank(text: str, upto: int) -> str:
    return "".join("\n" if ch == "\n" else " " for ch in text[:upto])


def _parse_clean(parser: Lark, text: str, start: int, end: int) -> list[Entry]:
    """Parse a region known to end at a declaration boundary."""
    try:
        result = parser.parse(_blank(text, start) + text[start:end] + "\n")
    except (UnexpectedInput, TooDeep):
        return []
    return result if isinstance(result, list) else []


def _error_offset(exc: UnexpectedInput, length: int) -> int:
    if isinstance(exc, UnexpectedToken):
        start = exc.token.start_pos
        if exc.token.type == "$END" or start is None:
            return length
        return int(start)
    if isinstance(exc, UnexpectedCharacters):
        return int(exc.pos_in_stream or 0)
    return length


def _last_top_level(text: str, start: int, upto: int) -> int:
    found = start
    for match in _TOP_LEVEL.finditer(text, start, upto + 1):
        if match.start() <= upto:
            found = match.start()
    return found


def _next_top_level(text: str, after: int) -> int | None:
    match = _TOP_LEVEL.search(text, after)
    return match.start() if match else None


def _attach_source(entries: list[Entry], source: SourceFile) -> None:
    stack = list(entries)
    while stack:
        entry = stack.pop()
        entry.source = source
        if entry.block:
            stack.extend(entry.block)


def _report_syntax_error(source: SourceFile, exc: UnexpectedInput, sink: DiagnosticSink) -> None:
    pos = getattr(exc, "pos_in_stream", None)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        pos = token.start_pos if token.start_pos is not None else len(source.text)
        if token.type == "$END":
            sink.error(source.span(len(source.text), len(source.text)), "CS0101",
                       "unexpected end of file", "a '{' block is not closed with '}'")
            return
        shown = str(token).replace("\n", "\\n") or token.type
        hint = _describe_expected(exc.expected) or None
        if token.type == "RBRACE":
            hint = "this '}' has no matching '{'"
        elif token.type == "_NL" and "RPAR" in exc.expected:
            hint = "a '(' is not closed"
        sink.error(source.span(pos, pos + max(1, len(str(token)))), "CS0101",
                   f"unexpected '{shown}'", hint)
    elif isinstance(exc, UnexpectedCharacters):
        pos = int(exc.pos_in_stream or 0)
        char = source.text[pos] if pos < len(source.text) else ""
        hint = None
        if char == '"':
            hint = "a string is not closed on this line (use \"\"\"...\"\"\" for text over several lines)"
        elif char == "{":
            hint = "'{' can only open the block of a node"
        sink.error(source.span(pos, pos + 1), "CS0101", f"unexpected character {char!r}", hint)
    elif isinstance(exc, UnexpectedEOF):
        sink.error(source.span(len(source.text), len(source.text)), "CS0101",
                   "unexpected end of file", "a '{' block is not closed with '}'")
    else:  # pragma: no cover - Lark has no other kinds today
        sink.error(source.span(pos or 0, (pos or 0) + 1), "CS0101", "syntax error")
