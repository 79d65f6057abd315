"""Read a table of card data (.csv or .xlsx) into cells a designer can be pointed at.

A game may keep its card *data* in a spreadsheet (`cards "units.csv" { type: Unit }`);
its rules stay in `.cards`. So that every error is still shown where it is written, a
table becomes a `SheetSource`: a text with one line per row (cells joined by " | ") that
the ordinary span, caret and line machinery works on, plus a map from each character back
to its cell, so a diagnostic reads `units.csv:14:C (attack)` or `units.xlsx[Units]!C14`.

Cells are only ever read as data: a formula's saved value is used (never evaluated), and
text that looks like a formula, Python or a template stays text.
"""

from __future__ import annotations

import csv
import io
from bisect import bisect_right
from dataclasses import dataclass, field

from cardsmith.dsl.source import SourceFile

SEPARATOR = " | "
TABLE_SUFFIXES = (".csv", ".xlsx")
# Characters a spreadsheet reads as the start of a formula. Written cells that start with
# one are prefixed with a quote (OWASP CSV injection); read back, the quote is dropped.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def column_letters(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA: the column names every spreadsheet shows."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def unquote_cell(value: str) -> str:
    """A cell written as `'=...` (a formula guarded by a quote) reads as `=...`."""
    if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_STARTS:
        return value[1:]
    return value


def guard_cell(value: str) -> str:
    """The inverse of `unquote_cell`: never write a cell a spreadsheet would run."""
    if value.startswith(FORMULA_STARTS) or (value.startswith("'") and value[1:2] in FORMULA_STARTS
                                            and len(value) > 1):
        return "'" + value
    return value


@dataclass(slots=True)
class Cell:
    """One cell: its sheet row (1-based), column (0-based), text and place in the source."""

    row: int
    col: int
    value: str
    offset: int


@dataclass(slots=True)
class Problem:
    """Something wrong with a cell found while reading (before any card is built)."""

    row: int
    col: int
    code: str
    message: str
    hint: str | None = None


@dataclass
class SheetSource(SourceFile):
    """A table as text (one line per row) that knows which cell each character is in."""

    sheet: str | None = None
    headers: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    rows: list[list[Cell]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)

    def cell_at(self, line: int, column: int) -> Cell | None:
        if not self.cells or line < 1 or line > len(self.line_starts):
            return None
        offset = self.line_starts[line - 1] + column - 1
        index = bisect_right(self.starts, offset) - 1
        return self.cells[max(0, index)]

    def row_of(self, line: int) -> int:
        """The sheet row a line of the text shows (a cell may span several lines)."""
        cell = self.cell_at(line, 1)
        return cell.row if cell is not None else line

    def cell_label(self, line: int, column: int) -> str:
        """`units.csv:14:C (attack)` for a CSV, `units.xlsx[Units]!C14 (attack)` for a sheet."""
        cell = self.cell_at(line, column)
        if cell is None:
            return f"{self.path}:{line}:{column}"
        letters = column_letters(cell.col)
        where = f"{self.path}!{letters}{cell.row}" if self.sheet is not None else \
            f"{self.path}:{cell.row}:{letters}"
        header = self.headers[cell.col].strip() if cell.col < len(self.headers) else ""
        return f"{where} ({header})" if header and cell.row > 1 else where


def build_source(path: str, grid: list[list[str]], sheet: str | None = None) -> SheetSource:
    """Lay the grid out as text and index every cell."""
    parts: list[str] = []
    cells: list[Cell] = []
    rows: list[list[Cell]] = []
    offset = 0
    for r, values in enumerate(grid, start=1):
        row: list[Cell] = []
        for c, value in enumerate(values):
            if c:
                parts.append(SEPARATOR)
                offset += len(SEPARATOR)
            value = value.replace("\r\n", "\n").replace("\r", "\n")
            cell = Cell(r, c, value, offset)
            row.append(cell)
            cells.append(cell)
            parts.append(value)
            offset += len(value)
        rows.append(row)
        parts.append("\n")
        offset += 1
    headers = [c.value for c in rows[0]] if rows else []
    return SheetSource(path, "".join(parts), sheet=sheet, headers=headers, cells=cells, rows=rows,
                       starts=[c.offset for c in cells])


def read_csv(data: bytes) -> tuple[list[list[str]], Problem | None]:
    """The rows of a CSV file in UTF-8 (with or without a BOM), in whatever delimiter the
    sniffer finds among `, ; tab |`."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], Problem(1, 0, "CS0102", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} "
                           f"at offset {exc.start})", "save the sheet as CSV UTF-8")
    if "\x00" in text:
        return [], Problem(1, 0, "CS0102", "file contains binary data (a NUL byte), not text",
                           "save the sheet as CSV UTF-8")
    try:
        grid = [[unquote_cell(v) for v in row]
                for row in csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))]
    except csv.Error as exc:
        return [], Problem(1, 0, "CS0101", f"not a readable CSV file: {exc}")
    return grid, None


def sniff_delimiter(text: str) -> str:
    """The delimiter of the header row: whatever the sniffer finds among `, ; tab |`.
    Only the header is sniffed, since it holds no quoted multi-line cells (ability
    blocks, rules text) to mislead it; quoting is always the spreadsheet default."""
    header = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header, delimiters=",;\t|").delimiter
    except csv.Error:
        counts = {d: header.count(d) for d in ",;\t|"}
        best = max(counts, key=lambda d: counts[d])
        return best if counts[best] else ","


def read_xlsx(data: bytes, sheet: str | None) -> tuple[list[list[str]], str, list[Problem]]:
    """The rows of one sheet of a workbook (the first if none is named), with problems a
    plain table cannot have: merged cells and formulas without a saved value."""
    import zipfile

    from openpyxl import load_workbook

    try:
        formulas = load_workbook(io.BytesIO(data), data_only=False)
        values = load_workbook(io.BytesIO(data), data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as exc:
        return [], sheet or "", [Problem(1, 0, "CS0102", f"not a readable .xlsx workbook ({exc})",
                                         "save the sheet as an Excel workbook (.xlsx)")]
    names = list(values.sheetnames)
    if sheet is None:
        sheet = names[0]
    if sheet not in names:
        from cardsmith.dsl.diagnostics import did_you_mean
        return [], sheet, [Problem(0, 0, "CS0202", f"the workbook has no sheet '{sheet}'",
                                   did_you_mean(sheet, names) or "its sheets: " + ", ".join(names))]
    ws_f, ws_v = formulas[sheet], values[sheet]
    problems: list[Problem] = []
    for merged in sorted(ws_f.merged_cells.ranges, key=lambda m: (m.min_row, m.min_col)):
        problems.append(Problem(merged.min_row, merged.min_col - 1, "CS0301",
                                f"merged cells {merged.coord}: each card needs a value in each cell",
                                "unmerge the cells and fill in every row"))
    grid: list[list[str]] = []
    for row_f, row_v in zip(ws_f.iter_rows(), ws_v.iter_rows(), strict=False):
        out: list[str] = []
        for cf, cv in zip(row_f, row_v, strict=False):
            raw = cf.value
            if cf.data_type == "f" and cv.value is None:  # its saved value is used, or this says why not
                problems.append(Problem(cf.row, cf.column - 1, "CS0301",
                                        f"this cell holds a formula ({str(raw)[:40]}) with no saved value",
                                        "open and save the workbook in a spreadsheet app so the value "
                                        "is computed, or type the value"))
                out.append("")
                continue
            out.append(_text_of(cv.value))
        grid.append(out)
    while grid and not any(v.strip() for v in grid[-1]):
        grid.pop()
    return grid, sheet, problems


def _text_of(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return unquote_cell(value)
    return str(value)
