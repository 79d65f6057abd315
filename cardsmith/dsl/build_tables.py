"""`cards "units.csv" { type: Unit }`: cards of one type whose data lives in a sheet.

Each row becomes an ordinary `ir.CardDecl`, built by the same readers as a `card` block:
a cell is lexed like the words after `attack:` and placed in a `SheetSource`, so its
tokens, spans and every later diagnostic point at the cell (`units.csv:14:C (attack)`).
Only the data moves to the sheet; everything downstream (checker, engine, printables,
decks, export) cannot tell a sheet's card from a written one.
"""

from __future__ import annotations

import os
import re
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters

from cardsmith.dsl import ir
from cardsmith.dsl.build_abilities import AbilityBuilder
from cardsmith.dsl.diagnostics import DiagnosticSink, did_you_mean
from cardsmith.dsl.exprparse import unescape
from cardsmith.dsl.lexer import TooDeep, tokenize
from cardsmith.dsl.sheettable import Cell, Problem, SheetSource, build_source, column_letters, read_csv, read_xlsx
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.dsl.structure import Entry, parse_entries
from cardsmith.model.values import MAX_COPIES
from cardsmith.util.fastmodel import construct

# Columns every sheet may have, whatever its card type (`flavor` is read as `flavour`).
TEXT_COLUMNS = ("text", "flavour", "art")
FIXED_COLUMNS = ("name", "type", "copies", "keywords", "play", *TEXT_COLUMNS)
_ABILITY = re.compile(r"^(abilit(y|ies)|effects?)(_?\d+)?$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def quoted_text(text: str) -> str:
    """A text cell is taken as it stands, unless written as a quoted string (`""` for an
    empty text, or to keep spaces at either end): then as the string it spells."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return unescape(text)
    return text


def normal_header(header: str) -> str:
    """`Min Range` and `min-range` both name the stat `min_range`."""
    return re.sub(r"[\s\-]+", "_", header.strip()).lower()


class TableDecls(AbilityBuilder):
    """The `cards` declaration: a table file of one card type."""

    def __init__(self, sink: DiagnosticSink) -> None:
        super().__init__(sink)
        self.tables: dict[str, bytes] = {}  # table files by display path (loader.table_files)
        self.sheet_sources: dict[str, SourceFile] = {}
        self.cardtype_entries: dict[str, Entry] = {}  # pass 1: field types and defaults

    def top_cards(self, entry: Entry) -> None:
        filename = self._string_item(entry)
        if filename is None or not self._needs_block(entry):
            if filename is None:
                self.error(entry.span(), "CS0204", "name the table file",
                           'write cards "units.csv" { type: Unit }')
            return
        settings: dict[str, Entry] = {}
        for sub in entry.block or []:
            if sub.name in ("type", "sheet", "columns"):
                settings[sub.name] = sub
            else:
                self.unknown(sub, f'cards "{filename}"', ("type", "sheet", "columns"))
        type_entry = settings.get("type")
        if type_entry is None:
            self.error(entry.span(), "CS0204", f"the cards of '{filename}' have no type",
                       "add type: Unit (a declared cardtype) to the block")
            return
        type_name = self.word(type_entry)
        if type_name is None:
            return
        info = self.cardtypes.get(type_name)
        if info is None:
            self.error(type_entry.items_span(), "CS0202", f"unknown card type '{type_name}'",
                       did_you_mean(type_name, self.cardtypes))
            return
        source = self._table_source(entry, filename, settings.get("sheet"))
        if source is None:
            return
        _TableReader(self, source, type_name, settings.get("columns")).read()

    def _table_source(self, entry: Entry, filename: str, sheet_entry: Entry | None) -> SheetSource | None:
        assert entry.source is not None
        where = entry.items_span()
        path = os.path.normpath(os.path.join(os.path.dirname(entry.source.path), filename))
        if os.path.isabs(filename) or ".." in re.split(r"[\\/]", filename):
            self.error(where, "CS0301", f"'{filename}' is outside the game's folder",
                       "keep the sheet in the game's folder (or a folder inside it) and name it from there")
            return None
        if not filename.lower().endswith((".csv", ".xlsx")):
            self.error(where, "CS0301", f"'{filename}' is not a .csv or .xlsx file",
                       "save the sheet as CSV (UTF-8) or as an Excel workbook (.xlsx)")
            return None
        data = self.tables.get(path)
        if data is None:
            self.error(where, "CS0202", f"no table file '{filename}' next to {os.path.basename(entry.source.path)}",
                       did_you_mean(os.path.basename(path), [os.path.basename(p) for p in self.tables]) or
                       f"looked for {path}")
            return None
        sheet = self.text(sheet_entry) if sheet_entry is not None else None
        problems: list[Problem]
        if path.lower().endswith(".xlsx"):
            grid, sheet_name, problems = read_xlsx(data, sheet)
            source = build_source(f"{path}[{sheet_name}]", grid, sheet_name)
        else:
            if sheet_entry is not None:
                self.error(sheet_entry.head_span(), "CS0203", "'sheet:' names a sheet of an .xlsx workbook",
                           "a .csv file holds one table; remove 'sheet:'")
            grid, problem = read_csv(data)
            problems = [problem] if problem else []
            source = build_source(path, grid)
        self.sheet_sources[source.path] = source
        for p in problems:
            if p.row == 0 or not grid:
                self.error(sheet_entry.items_span() if (p.row == 0 and sheet_entry) else where,
                           p.code, p.message, p.hint)
            else:
                self.error(_cell_span(source, p.row, p.col), p.code, p.message, p.hint)
        if not grid and not problems:
            self.error(where, "CS0204", f"'{filename}' is empty", "its first row names the columns: name, ...")
        return source if grid and not any(p.row == 0 or p.code == "CS0102" for p in problems) else None


def _cell_span(source: SheetSource, row: int, col: int) -> Span:
    cells = source.rows[row - 1] if 0 < row <= len(source.rows) else []
    if col < len(cells):
        c = cells[col]
        return source.span(c.offset, c.offset + max(1, len(c.value.split("\n")[0])))
    start = source.line_starts[min(row, len(source.line_starts)) - 1]
    return source.span(start, start + 1)


def _shift(tok: Token, delta: int) -> Token:
    return Token(tok.type, tok.value, (tok.start_pos or 0) + delta, tok.line, tok.column,
                 tok.end_line, tok.end_column, (tok.end_pos or 0) + delta)


class _TableReader:
    """One table read against one card type: columns first, then a card per row."""

    def __init__(self, builder: TableDecls, source: SheetSource, type_name: str,
                 columns: Entry | None) -> None:
        self.b = builder
        self.src = source
        self.type = type_name
        self.columns = columns
        info = builder.cardtypes[type_name]
        self.stats, self.properties = info.stats, info.properties
        self.types: dict[str, str] = {}
        self.required: list[str] = []
        decl = builder.cardtype_entries.get(type_name)
        for group in (decl.block or []) if decl is not None else []:
            for f in (group.block or []) if group.name in ("stats", "properties") else []:
                if f.items:
                    self.types[f.name] = str(f.items[0])
                if group.name == "stats" and not any(str(t) == "=" for t in f.items):
                    self.required.append(f.name)

    # ------------------------------------------------------------ columns

    def _fields(self) -> dict[str, str]:
        """Every field a column may fill, by normalised name → the field's own name."""
        out = {normal_header(n): n for n in (*FIXED_COLUMNS, *self.stats, *self.properties)}
        out["flavor"] = "flavour"
        return out

    def _map_columns(self) -> dict[int, str]:
        fields = self._fields()
        headers = self.src.headers
        mapped: dict[int, str] = {}
        explicit: dict[str, int] = {}
        for sub in (self.columns.block or []) if self.columns is not None else []:
            name = fields.get(normal_header(sub.name)) or (sub.name if _ABILITY.match(sub.name) else None)
            if name is None:
                self.b.unknown(sub, f"the columns of {self.type} cards", sorted(set(fields.values())))
                continue
            header = self.b.text(sub)
            if header is None:
                continue
            found = [i for i, h in enumerate(headers) if h.strip() == header.strip()]
            if not found:
                self.b.error(sub.items_span(), "CS0204", f"no column '{header}' in {self.src.path}",
                             did_you_mean(header, headers) or "its columns: " + ", ".join(headers))
                continue
            explicit[name] = found[0]
        taken = {i: n for n, i in explicit.items()}
        for i, header in enumerate(headers):
            if i in taken:
                mapped[i] = taken[i]
                continue
            key = normal_header(header)
            cell = self.src.rows[0][i]
            if not key:
                if any(i < len(r) and r[i].value.strip() for r in self.src.rows[1:]):
                    self.b.error(_cell_span(self.src, 1, i), "CS0204", "this column has values but no header",
                                 "name the column in the first row (name, a stat, keywords, ...)")
                continue
            name = fields.get(key) or (key if _ABILITY.match(key) else None)
            if name is None:
                self.b.error(self.src.span(cell.offset, cell.offset + len(header)), "CS0203",
                             f"unknown column '{header.strip()}' for {self.type} cards",
                             did_you_mean(key, [*fields, "ability"]) or
                             "columns name the card's name, stats, properties, keywords, copies, "
                             "text, flavour, art, play or an ability")
                continue
            if name in explicit:
                continue  # the columns block chose another column for it
            if name in mapped.values():
                first = next(j for j, n in mapped.items() if n == name)
                self.b.error(self.src.span(cell.offset, cell.offset + len(header)), "CS0201",
                             f"a second '{name}' column", f"the first is column {column_letters(first)}")
                continue
            mapped[i] = name
        return mapped

    # ------------------------------------------------------------ rows

    def read(self) -> None:
        if not self.src.rows:
            return
        mapped = self._map_columns()
        header_span = _cell_span(self.src, 1, 0)
        if "name" not in mapped.values():
            self.b.error(header_span, "CS0204", f"{self.src.path} has no 'name' column",
                         "the first row names the columns; one of them must be 'name'")
            return
        for stat in self.required:
            if stat not in mapped.values():
                self.b.error(header_span, "CS0204", f"no column for the stat '{stat}' of {self.type} cards",
                             f"add a '{stat}' column (the stat has no default)")
        for row in self.src.rows[1:]:
            if not any(c.value.strip() for c in row):
                continue  # a blank row (spreadsheets end with many) holds no card
            self._row(row, mapped)

    def _row(self, row: list[Cell], mapped: dict[int, str]) -> None:
        by_field = {mapped[c.col]: c for c in row if c.col in mapped and c.value.strip()}
        name_cell = by_field.get("name")
        if name_cell is None:
            first = next(c for c in row if c.value.strip())
            self.b.error(self._span(first), "CS0204", f"row {first.row} has no card name",
                         "fill in its 'name' cell, or clear the row")
            return
        name = name_cell.value.strip()
        fields: dict[str, Any] = {"name": name, "type": self.type, "stats": {}, "properties": {},
                                  "keywords": [], "abilities": [], "expansion": self.b.expansion}
        for c in row:
            key = mapped.get(c.col)
            if key is None or key == "name" or not c.value.strip():
                if key is None and c.value.strip() and c.col >= len(self.src.headers):
                    self.b.error(self._span(c), "CS0204", "this cell is outside the table",
                                 "every column needs a header in the first row")
                continue
            self._cell(c, key, fields, name)
        self.b.parts.add("cards", construct(ir.CardDecl, span=self._span(name_cell), **fields))

    def _span(self, c: Cell) -> Span:
        value = c.value
        lead = len(value) - len(value.lstrip())
        first_line = value.strip().split("\n")[0]
        return self.src.span(c.offset + lead, c.offset + lead + max(1, len(first_line)))

    def _cell(self, c: Cell, key: str, fields: dict[str, Any], card: str) -> None:
        text = c.value.strip()
        if key in TEXT_COLUMNS or self.types.get(key) == "text":
            text = quoted_text(text)
        if key in TEXT_COLUMNS:
            fields[key] = text
        elif key == "type":
            if text != self.type:
                self.b.error(self._span(c), "CS0301", f"this table holds {self.type} cards, not '{text}'",
                             f"write {self.type} or leave the cell empty; another type needs its own table")
        elif key == "copies":
            if not re.fullmatch(r"\d+", text):
                self.b.error(self._span(c), "CS0301", f"'{text}' is not a whole number",
                             "copies is how many of the card a deck holds: 1, 2, 3, ...")
            elif int(text) > MAX_COPIES:
                self.b.error(self._span(c), "CS0301", f"{int(text):,} copies is too many",
                             f"a card has at most {MAX_COPIES:,} copies (docs/language.md, Limits)")
            else:
                fields["copies"] = int(text)
        elif _ABILITY.match(key):
            fields["abilities"].extend(self._abilities(c, card))
        elif self.types.get(key) == "text":
            target = "stats" if key in self.stats else "properties"
            fields[target][key] = construct(ir.Text, span=self._span(c), value=text)
        else:
            entry = self._entry(c, key)
            if entry is None:
                return
            if key == "keywords":
                fields["keywords"].extend(self.b.keyword_uses(entry))
            elif key == "play":
                fields["play_condition"] = self.b.expr(entry, "'play'")
            else:
                if self.types.get(key) == "number" and not _NUMBER.match(text):
                    self.b.error(self._span(c), "CS0301", f"'{text}' is not a number",
                                 f"'{key}' is a number: write 3, 0 or -1")
                    # the card still has the stat, so this is not reported again as missing
                    fields["stats" if key in self.stats else "properties"][key] = construct(
                        ir.Num, span=self._span(c), num=0)
                    return
                value = self.b.expr(entry, f"stat '{key}'" if key in self.stats else f"property '{key}'")
                if value is not None:
                    fields["stats" if key in self.stats else "properties"][key] = value

    def _lex(self, c: Cell) -> tuple[str, int, list[Token]] | None:
        """The cell's tokens, placed where the cell is in the source."""
        value = c.value
        lead = len(value) - len(value.lstrip())
        start = c.offset + lead
        line, column = self.src.line_col(start)
        prefix = "\n" * (line - 1) + " " * (column - 1)
        delta = start - len(prefix)
        try:
            tokens = [_shift(t, delta) for t in tokenize(prefix + value.strip()) if t.type != "_NL"]
        except UnexpectedCharacters as exc:
            pos = int(exc.pos_in_stream or 0) + delta
            char = self.src.text[pos] if pos < len(self.src.text) else ""
            self.b.error(self.src.span(pos, pos + 1), "CS0101", f"unexpected character {char!r}",
                         "a cell holds a value written as in a .cards file")
            return None
        except TooDeep as deep:
            pos = (deep.token.start_pos or 0) + delta
            self.b.error(self.src.span(pos, pos + 1), "CS0105", "nesting is too deep")
            return None
        return prefix, delta, tokens

    def _entry(self, c: Cell, key: str) -> Entry | None:
        lexed = self._lex(c)
        if lexed is None or not lexed[2]:
            return None
        tokens = lexed[2]
        first = tokens[0]
        head = Token("WORD", key, first.start_pos, first.line, first.column, first.line, first.column,
                     first.start_pos)
        entry = Entry(head, tokens, None, True, tokens[-1].end_pos or 0)
        entry.source = self.src
        return entry

    def _abilities(self, c: Cell, card: str) -> list[ir.Ability]:
        """A cell of abilities written as in a card block (`on play { ... }`), or bare
        statements (`gain 2 gold`, a procedure's phrase or name), read as the card's `effect`."""
        value = c.value
        signature = self.b.signatures.get(value.strip())
        if signature is not None and not signature.params:
            # a cell naming a procedure declared in .cards: the card's effect calls it
            span = self._span(c)
            call = construct(ir.Invoke, span=span, procedure=signature.name, args={}, phrase="")
            return [construct(ir.Effect, span=span, body=[call])]
        lead = len(value) - len(value.lstrip())
        start = c.offset + lead
        line, column = self.src.line_col(start)
        prefix = "\n" * (line - 1) + " " * (column - 1)
        padded = SourceFile(self.src.path, prefix + value.strip())
        entries = parse_entries(padded, self.b.sink)
        delta = start - len(prefix)
        stack = list(entries)
        while stack:
            e = stack.pop()
            e.head = _shift(e.head, delta)
            e.items = [_shift(t, delta) for t in e.items]
            e.end_pos += delta
            e.source = self.src
            stack.extend(e.block or [])
        out: list[ir.Ability] = []
        loose: list[Entry] = []
        for e in entries:
            if e.name in self.b.ABILITY_HEADS and not e.is_prop:
                ability = self.b.ability(e, card)
                if ability is not None:
                    out.append(ability)
            else:
                loose.append(e)
        if loose:
            body = self.b.statements(loose, loose[0])
            out.insert(0, construct(ir.Effect, span=self._span(c), body=body))
        return out
