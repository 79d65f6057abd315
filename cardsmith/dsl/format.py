"""`cardsmith fmt`: rewrite a `.cards` file in one canonical layout, keeping its comments.

Designers share and diff rules files, so layout should carry no information and cause no
churn: every file formats to the same shape whoever wrote it. The canonical form:

* two spaces of indentation per block level; one entry per line (`a; b` is split);
  `{` ends the header line, `}` stands on its own line, an empty block is `{ }`;
  `else`/`elif` after a block joins the closing brace: `} else {`;
* single spaces between words; none before `,` `)` `]` `:` or after `(` `[`; one after
  `,` and `:`; binary operators spaced (`a == b`, `x = 1`); `.` and `..` tight
  (`c.hp`, `2..4`, `30..`); a sign directly before its operand (`-1`, `by -1`);
* comments stay where they are, verbatim: a full-line comment on its own line at the
  indentation of the code around it, a trailing one two spaces after its line (after
  the `{` when it followed a block written on one line: it is about the entry);
* at most one blank line where the source had any, none after `{` or before `}`;
  exactly one newline at the end;
* strings and numbers are copied as written. An entry's header (its words, wrapped
  inside brackets or continued on lines starting with a string, `{`, an operator, `and`
  or `or`) is joined onto one line when that fits in 100 columns. Otherwise the
  author's line breaks stay, continuation lines four spaces in (four more per open
  bracket), and trailing strings (procedure phrase patterns) get a line each. A
  bracketed group holding a comment keeps its line breaks.

Comments are invisible to the Lark parser, so the formatter cannot work from the parse
tree: it re-lexes the text with Lark's lexer for the very same grammar (keeping
comments, newlines and whitespace), so its idea of a token can never drift from the
parser's, and rebuilds the entry structure itself with the structural layer's own rule
for which lines continue the one before. It never adds, drops or reorders a token
(bar a `;` before an entry whose head would otherwise continue the line above); it
only chooses the whitespace between them, and where dropping a space could glue two
tokens into one (`1 . 5` would read as `1.5`) it keeps the space. Where the author's
spacing can change how the expression layer reads the words (`2d6` is a dice roll,
`2 d6` is not) or where words cannot tell unary from binary (`by -1` versus `x - 1`),
the author's choice is kept. Finally the result is parsed again and must give the same
entries, so a file is never changed in meaning, only declined.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token
from lark.exceptions import LarkError

from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.lexer import continues
from cardsmith.dsl.source import SourceFile
from cardsmith.dsl.structure import Entry, _grammar, parse_entries

MAX_WIDTH = 100
INDENT = "  "
CONTINUATION = "    "

_NL = "_NL"
_STRINGS = frozenset({"STRING", "LONG_STRING"})
_OPENERS = frozenset({"LPAR", "LSQB"})
_CLOSERS = frozenset({"RPAR", "RSQB"})
# Tokens that end an operand: a '(' or '[' right after one may be a call or an index.
_OPERAND_ENDS = frozenset({"WORD", "NUMBER", "DIM", "STRING", "LONG_STRING", "RPAR", "RSQB"})
# After these a '-' or '+' can only be a sign.
_SIGN_CONTEXT = frozenset({"OP", "LPAR", "LSQB", "COMMA", "COLON"})
# Operators the expression grammar knows as binary (or '=' of let/params/kwargs): spaced.
# Other OP characters have no meaning in the grammar today, so their spacing is kept.
_SPACED_OPS = frozenset({"==", "!=", "<=", ">=", "<", ">", "=", "+", "-", "*", "/", "//", "%"})
_JOINS_BRACE = frozenset({"else", "elif"})


@dataclass(slots=True)
class _Tok:
    kind: str
    text: str
    pos: int
    touch: bool  # nothing (no space, newline or comment) separates it from the token before
    raw: Token


@dataclass(slots=True)
class _Comment:
    text: str
    trailing: bool  # written after code on the same line
    blank_before: bool = False


@dataclass(slots=True)
class _Entry:
    header: list[_Tok]  # head and words, with the comments and newlines that sit among them
    block: list[_Comment | _Entry] | None
    blank_before: bool = False
    one_line: bool = False  # the block was written on one line: `zone hand { ... }`


_Item = _Comment | _Entry


class _Unformattable(Exception):
    """Input the structural parser accepts but whose layout cannot be changed safely."""

    def __init__(self, pos: int, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.hint = hint


def format_source(source: SourceFile, sink: DiagnosticSink) -> str | None:
    """The canonical text of a file, or None after reporting why it cannot be formatted.

    The file is parsed first so a designer gets the same syntax errors as from
    `cardsmith check` rather than a formatter-specific complaint. The result is parsed
    again and must give the very same entries: the layout rules of the structural layer
    have grown over time, and a formatter that silently changed a game would be worse
    than one that declines to touch a file.
    """
    entries = parse_entries(source, sink)
    if sink.has_errors:
        return None
    try:
        tokens = _lex(source.text)
        items = _Parser(source.text, tokens).block(closing=False, opener=0)
    except _Unformattable as exc:
        sink.error(source.span(exc.pos, exc.pos + 1), "CS0101", exc.message, exc.hint)
        return None
    printer = _Printer()
    printer.block(items, 0)
    text = "\n".join(printer.lines) + "\n" if printer.lines else ""
    check = DiagnosticSink()
    again = parse_entries(SourceFile(source.path, text), check)
    if check.has_errors or _shape(again) != _shape(entries):
        sink.error(source.span(0, 0), "CS0101", "cannot format this file without changing its meaning",
                   "the file is left as it is; please report this as a bug in cardsmith fmt")
        return None
    return text


def _shape(entries: list[Entry]) -> list[object]:
    """What a layout must not change: every entry's head, kind, words and block."""
    return [(e.name, e.is_prop, [(t.type, str(t)) for t in e.items],
             None if e.block is None else _shape(e.block)) for e in entries]


# ---- lexing ---------------------------------------------------------------


@lru_cache(maxsize=1)
def _lexer() -> Lark:
    return Lark(_grammar("structure.lark"), parser="lalr", lexer="basic")


def _lex(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    glued = False  # the previous raw token was code, so the next one may touch it
    try:
        for raw in _lexer().lex(text, dont_ignore=True):
            kind = raw.type
            if kind == "WS":
                glued = False
                continue
            value = str(raw).rstrip() if kind == "COMMENT" else str(raw)
            tokens.append(_Tok(kind, value, raw.start_pos or 0, glued, raw))
            glued = kind not in ("COMMENT", _NL)
    except LarkError as exc:  # pragma: no cover - the text has just parsed
        raise _Unformattable(getattr(exc, "pos_in_stream", 0) or 0, "cannot read this file") from None
    return tokens


@lru_cache(maxsize=4096)
def _lexes_apart(parts: tuple[str, ...]) -> bool:
    """True when the parts, written with nothing between them, still read as these tokens."""
    try:
        got = [str(t) for t in _lexer().lex("".join(parts), dont_ignore=True)]
    except LarkError:
        return False
    return got == list(parts)


# ---- structure ------------------------------------------------------------


class _Parser:
    """Groups tokens into entries and blocks, the way the structural post-lexer does."""

    def __init__(self, text: str, tokens: list[_Tok]) -> None:
        self.text = text
        self.toks = tokens
        self.i = 0

    def block(self, closing: bool, opener: int) -> list[_Item]:
        toks = self.toks
        items: list[_Item] = []
        newlines = 0
        on_line = closing  # code (or the opening '{') precedes on the current line
        ends_line = False  # the last item is an entry that ended on the current line
        while self.i < len(toks):
            tok = toks[self.i]
            kind = tok.kind
            if kind == _NL:
                newlines += 1
                on_line = False
                ends_line = False
                self.i += 1
            elif kind == "SEMICOLON":
                on_line = True
                self.i += 1
            elif kind == "COMMENT":
                trailing = on_line and (closing or bool(items))
                last = items[-1] if items else None
                if ends_line and isinstance(last, _Entry) and last.one_line and last.block:
                    # `counter gold per player { start: 0 }  # why` is about the counter:
                    # once the block is spread over lines the comment stays on its header.
                    # Only a comment on the line the block ends on: one after a `;` on a
                    # later line follows the whole entry (and would land on the header
                    # ahead of this one, out of order).
                    last.block.insert(0, _Comment(tok.text, True))
                else:
                    items.append(_Comment(tok.text, trailing, not trailing and newlines >= 2))
                newlines = 0
                self.i += 1
            elif kind == "RBRACE":
                if not closing:
                    raise _Unformattable(tok.pos, "unexpected '}'", "this '}' has no matching '{'")
                self.i += 1
                return items
            elif kind == "WORD":
                entry = self.entry()
                entry.blank_before = newlines >= 2
                items.append(entry)
                newlines = 0
                on_line = True
                ends_line = True
            else:
                raise _Unformattable(tok.pos, f"unexpected '{tok.text}'")
        if closing:
            raise _Unformattable(opener, "this '{' is not closed", "add a '}'")
        return items

    def entry(self) -> _Entry:
        toks = self.toks
        header = [toks[self.i]]
        self.i += 1
        open_brackets: list[_Tok] = []
        while self.i < len(toks):
            tok = toks[self.i]
            kind = tok.kind
            if open_brackets and kind not in ("LBRACE", "RBRACE"):  # braces close brackets
                if kind == "SEMICOLON":
                    # The parser's bracket count runs on into the next entry, so putting
                    # that entry on a line of its own would glue the two together.
                    raise _Unformattable(open_brackets[-1].pos, "this bracket is not closed",
                                         "close it before the ';'")
                if kind in _OPENERS:
                    open_brackets.append(tok)
                elif kind in _CLOSERS:
                    open_brackets.pop()
                _append(header, tok)
                self.i += 1
                continue
            if kind in (_NL, "COMMENT"):
                ahead = self.i
                while ahead < len(toks) and toks[ahead].kind in (_NL, "COMMENT"):
                    ahead += 1
                if ahead < len(toks) and continues(toks[ahead].raw):
                    for skipped in toks[self.i:ahead]:
                        _append(header, skipped)
                    self.i = ahead
                    continue
                break
            if kind == "LBRACE":
                self.i += 1
                block = self.block(closing=True, opener=tok.pos)
                closed = self.toks[self.i - 1].pos
                one_line = "\n" not in self.text[tok.pos:closed]
                return _Entry(_strip_newlines(header), block, one_line=one_line)
            if kind in ("SEMICOLON", "RBRACE"):
                break
            if kind in _OPENERS:
                open_brackets.append(tok)
            header.append(tok)
            self.i += 1
        if open_brackets and self.i >= len(toks):  # pragma: no cover - the parser rejects this
            raise _Unformattable(open_brackets[-1].pos, "this bracket is not closed")
        return _Entry(_strip_newlines(header), None)


def _append(header: list[_Tok], tok: _Tok) -> None:
    """Add a token to a header; runs of newlines count as one (blank lines go)."""
    if tok.kind == _NL and header[-1].kind == _NL:
        return
    header.append(tok)


def _strip_newlines(header: list[_Tok]) -> list[_Tok]:
    while header[-1].kind == _NL:
        header.pop()
    return header


# ---- spacing --------------------------------------------------------------


class _Spacing:
    """Decides the whitespace between neighbouring code tokens of one header."""

    def __init__(self, code: list[_Tok]) -> None:
        self.code = code

    def space_before(self, j: int) -> bool:
        code = self.code
        prev, cur = code[j - 1], code[j]
        pk, ck = prev.kind, cur.kind
        if ck in ("COMMA", "RPAR", "RSQB", "COLON"):
            return False
        if pk in _OPENERS:
            return False
        if pk in ("COMMA", "COLON"):
            return True
        if ck == "OP" and cur.text == "..":
            if pk == "OP" and prev.text in _SPACED_OPS:
                return True
            return not self._range_tight(j) and not cur.touch
        if pk == "OP" and prev.text == "..":
            return not self._range_tight(j - 1) and not cur.touch
        if (ck == "OP" and cur.text == ".") or (pk == "OP" and prev.text == "."):
            return False
        if pk == "OP" and self._is_sign(j - 1):
            return False
        if ck == "OP" or pk == "OP":
            if (ck == "OP" and cur.text in _SPACED_OPS) or (pk == "OP" and prev.text in _SPACED_OPS):
                return True
            return not cur.touch
        if ck in _OPENERS and pk in _OPERAND_ENDS:
            return not cur.touch  # `count(xs)` is a call, `where (a or b)` is not
        # `2d6` is one dice roll for the expression layer, `2 d6` is not
        return not (pk == "NUMBER" and ck == "WORD" and cur.touch)

    def _range_tight(self, k: int) -> bool:
        """`..` hugs both operands unless written with space on one side only (`in ..5`).

        A side whose spacing is fixed anyway (`(..5)`, `: ..5`, `30..,`, `30..` at the
        end) says nothing about the author's intent, so the range is tight then.
        """
        code = self.code
        if k + 1 >= len(code) or code[k + 1].kind in ("COMMA", "RPAR", "RSQB", "COLON"):
            return True
        before = code[k - 1]
        if before.kind in ("LPAR", "LSQB", "COMMA", "COLON") or before.text in _SPACED_OPS:
            return True
        return code[k].touch == code[k + 1].touch

    def _is_sign(self, k: int) -> bool:
        tok = self.code[k]
        if tok.text not in ("-", "+") or k + 1 >= len(self.code):
            return False
        before = self.code[k - 1] if k > 0 else None
        if before is None or before.kind in _SIGN_CONTEXT:
            return True
        # After a word it could be either (`by -1`, `x - 1`): the author's spacing decides.
        return not tok.touch and self.code[k + 1].touch


def _render(code: list[_Tok], spacing: _Spacing, start: int, end: int) -> str:
    """Code tokens start..end on one line."""
    parts: list[str] = []
    run: list[str] = []  # the tokens written since the last space
    for j in range(start, end):
        text = code[j].text
        if j > start:
            space = spacing.space_before(j)
            if not space and not _lexes_apart((*run[-3:], text)):
                space = True
            if space:
                parts.append(" ")
                run = []
        parts.append(text)
        run.append(text)
    return "".join(parts)


def _width(indent: int, text: str) -> int:
    lines = text.split("\n")  # a triple-quoted string may span lines
    return max([indent + len(lines[0]), *(len(line) for line in lines[1:])])


def _split_point(code: list[_Tok]) -> int | None:
    """Where a header's trailing strings (phrase patterns) may move to their own lines."""
    end = len(code)
    start = end
    while start > 1 and code[start - 1].kind in _STRINGS:
        start -= 1
    if start == end:
        return None
    before = code[start - 1]
    if start == 1 or before.kind in _SIGN_CONTEXT:
        start += 1  # `text: "..."`, `card "Name"`, `a, "b"`: the first string is the value
    return start if start < end else None


# ---- headers --------------------------------------------------------------


def _header_lines(header: list[_Tok], indent: str, suffix: str, lead: int) -> list[tuple[str, bool]]:
    """Lay out one header: (text, ends in a comment) per line; the first line unindented.

    `suffix` (` {` or ` { }`) is written after the last token; `lead` is the width that
    precedes the first line (its indentation, or also `} ` when joined to a brace).

    A header that fits in MAX_WIDTH columns goes on one line. One that does not keeps
    the line breaks its author chose (wrapping inside brackets or before an operator is
    how designers make long rules readable, and no rule of ours would know better) and
    puts its trailing strings on lines of their own. Comments force breaks either way.
    """
    code = [t for t in header if t.kind not in (_NL, "COMMENT")]
    spacing = _Spacing(code)
    joined = _render(code, spacing, 0, len(code))
    too_long = _width(lead, joined + suffix) > MAX_WIDTH
    if not too_long and all(t.kind != "COMMENT" for t in header):
        return [(joined + suffix, False)]
    starts = _line_starts(header, keep_all=too_long)
    split = _split_point(code) if too_long else None
    if split is not None:
        moved = {id(t) for t in code[split:]}
        starts.update(index for index, t in enumerate(header) if id(t) in moved)
    return _broken_header_lines(header, code, spacing, starts, indent, suffix)


def _line_starts(header: list[_Tok], keep_all: bool) -> set[int]:
    """Indices of the header tokens that begin a new line.

    A comment runs to the end of its line, so a break follows (and, for a comment on a
    line of its own, precedes) every comment, and a bracketed group holding a comment
    keeps all its line breaks. With `keep_all` every line break of the source stays.
    """
    kept = {index for index, tok in enumerate(header) if tok.kind == _NL and (
        keep_all or header[index - 1].kind == "COMMENT"
        or (index + 1 < len(header) and header[index + 1].kind == "COMMENT"))}
    depth = 0
    group_start = 0
    for index, tok in enumerate(header):
        if tok.kind in _OPENERS:
            if depth == 0:
                group_start = index
            depth += 1
        elif tok.kind in _CLOSERS and depth > 0:
            depth -= 1
            if depth == 0:
                group = header[group_start:index + 1]
                if any(t.kind == "COMMENT" for t in group):
                    kept.update(group_start + k for k, t in enumerate(group) if t.kind == _NL)
    return {index + 1 for index in kept}


def _broken_header_lines(header: list[_Tok], code: list[_Tok], spacing: _Spacing, starts: set[int],
                         indent: str, suffix: str) -> list[tuple[str, bool]]:
    """Write a header over several lines, a new one at each of `starts`.

    Lines after the first are indented four spaces per open bracket (a line starting
    with a closing bracket one level less), and at least four: they continue the entry.
    """
    lines: list[tuple[str, bool]] = []
    depth = 0
    line_depth = 0
    next_code = 0  # index into `code` of the current line's first code token
    pending: list[_Tok] = []

    def flush() -> None:
        nonlocal next_code
        count = sum(1 for t in pending if t.kind != "COMMENT")
        text = _render(code, spacing, next_code, next_code + count)
        next_code += count
        comment = pending[-1].kind == "COMMENT"
        if comment:
            text = f"{text}  {pending[-1].text}" if text else pending[-1].text
        if lines:
            closer = pending[0].kind in _CLOSERS
            levels = line_depth - 1 if closer else line_depth
            pad = CONTINUATION * levels if levels > 0 else ("" if closer else CONTINUATION)
            text = indent + pad + text
        lines.append((text, comment))
        pending.clear()

    for index, tok in enumerate(header):
        if tok.kind == _NL:
            continue
        if index in starts and pending:
            flush()
            line_depth = depth
        pending.append(tok)
        if tok.kind in _OPENERS:
            depth += 1
        elif tok.kind in _CLOSERS:
            depth = max(0, depth - 1)
    flush()
    text, comment = lines[-1]
    if suffix and comment:
        lines.append((indent + suffix.lstrip(), False))
    elif suffix:
        lines[-1] = (text + suffix, False)
    return lines


# ---- printing -------------------------------------------------------------


class _Printer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.commented: list[bool] = []  # does the line end in a comment

    def add(self, text: str, commented: bool) -> None:
        self.lines.append(text)
        self.commented.append(commented)

    def block(self, items: list[_Item], level: int) -> None:
        indent = INDENT * level
        previous: _Item | None = None
        last_entry: _Entry | None = None
        for item in items:
            if isinstance(item, _Comment):
                if item.trailing and self.lines and not self.commented[-1]:
                    self.lines[-1] += "  " + item.text
                    self.commented[-1] = True
                else:
                    if item.blank_before and previous is not None:
                        self.add("", False)
                    self.add(indent + item.text, True)
            else:
                joined = (isinstance(previous, _Entry) and previous.block is not None
                          and item.header[0].text in _JOINS_BRACE and not self.commented[-1])
                if not joined and item.blank_before and previous is not None:
                    self.add("", False)
                # A line starting with `and`, `or`, ... continues the line before, so an
                # entry with such a head keeps a ';' after an entry that needs one.
                glue = last_entry is not None and last_entry.block is None \
                    and continues(item.header[0].raw)
                self.entry(item, level, joined, "; " if glue else "")
                last_entry = item
            previous = item

    def entry(self, entry: _Entry, level: int, joined: bool, prefix: str) -> None:
        indent = INDENT * level
        suffix = "" if entry.block is None else (" {" if entry.block else " { }")
        lead = len(self.lines[-1].rsplit("\n", 1)[-1]) + 1 if joined else len(indent + prefix)
        lines = _header_lines(entry.header, indent, suffix, lead)
        first, commented = lines[0]
        if joined:
            self.lines[-1] += " " + first
            self.commented[-1] = commented
        else:
            self.add(indent + prefix + first, commented)
        for text, commented in lines[1:]:
            self.add(text, commented)
        if entry.block:
            self.block(entry.block, level + 1)
            self.add(indent + "}", False)
