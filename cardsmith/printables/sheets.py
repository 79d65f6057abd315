"""Unit sheets and action/reference sheets: rows that flow down pages, never split.

Each row is measured before it is drawn; a row that does not fit the rest of the page
starts a new page (with the block's heading repeated), so a unit's HP track or a rule
never tears across two sheets. The positions of every row are recorded for the tests.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from cardsmith.compiler.text import render_expr
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Diagnostic, Severity
from cardsmith.printables import fonts
from cardsmith.printables.cards import CODE_BAD_EXPR, CODE_OVERFLOW, CODE_UNKNOWN_PROPERTY, CardRenderer
from cardsmith.printables.draw import Forms, text_lines
from cardsmith.printables.evaluate import CardEvaluator, EvalError, fmt, style_word
from cardsmith.printables.geometry import MARK_WIDTH, MM, PAPERS, make_grid, parse_size
from cardsmith.printables.imposition import Options, new_canvas
from cardsmith.printables.textfit import LEADING, MIN_SIZE, wrap

MARGIN = 12 * MM
BOX = 4 * MM          # write-in HP box: at least 4 x 4 mm
GAP = 2 * MM          # and 2 mm apart
LABEL_W = 16 * MM
SHEET_PROPS = frozenset({"for", "rows", "row_label", "track", "checkboxes", "write_in"})
REFERENCE_PROPS = frozenset({"size", "note", "copies"})
PAGE_SIZES = {"a5": (148.0, 210.0), "a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@dataclass
class RowRecord:
    page: int
    top: float
    bottom: float
    label: str


@dataclass
class Flow:
    """A canvas with a cursor that moves down the page and breaks before a row."""

    canvas: Canvas
    width: float
    height: float
    page: int = 0
    y: float = 0.0
    rows: list[RowRecord] = field(default_factory=list)
    started: bool = False

    def new_page(self) -> None:
        if self.started:
            self.canvas.showPage()
            self.page += 1
        self.started = True
        self.canvas.setPageSize((self.width, self.height))
        self.y = self.height - MARGIN

    def room(self) -> float:
        return self.y - MARGIN

    def ensure(self, h: float, heading: Sequence[tuple[str, float, bool]] | None = None) -> None:
        if not self.started or h > self.room():
            self.new_page()
            for text, size, bold in heading or []:
                self.text(text, size, bold)

    def text(self, text: str, size: float, bold: bool = False, italic: bool = False, x: float = MARGIN,
             w: float | None = None) -> None:
        font = fonts.font_name(bold, italic)
        width = w if w is not None else self.width - 2 * MARGIN
        lines = wrap(text, font, size, width)
        text_lines(self.canvas, lines, font, size, x, self.y, width, "left", (0, 0, 0), size * LEADING)
        self.y -= size * LEADING * len(lines) + 1.5 * MM

    @property
    def pages(self) -> int:
        return self.page + 1 if self.started else 0


def _labels(ev: CardEvaluator, expr: ir.Expr | None, card: ir.CardDecl | None) -> list[str]:
    if expr is None:
        return []
    value = ev.value(expr, card) if not isinstance(expr, ir.ListExpr) else [ev.text(i, card) for i in expr.items]
    items = value if isinstance(value, list) else str(value or "").split(",")
    return [fmt(i).strip() for i in items if fmt(i).strip()]


# ---------------------------------------------------------------- unit sheets

@dataclass
class UnitSheets:
    data: bytes
    pages: int
    rows: list[RowRecord]
    page_height: float


def render_unit_sheets(game: ir.Game, ev: CardEvaluator, opts: Options,
                       diagnostics: list[Diagnostic]) -> tuple[bytes, int] | None:
    found = unit_sheets(game, ev, opts, diagnostics)
    return None if found is None else (found.data, found.pages)


def unit_sheets(game: ir.Game, ev: CardEvaluator, opts: Options, diagnostics: list[Diagnostic]) -> UnitSheets | None:
    """One block per unit type (or per sheet), one row per numbered piece."""
    if not game.sheets:
        return None
    fonts.register()
    buf = io.BytesIO()
    pw, ph = PAPERS[opts.paper]
    c = new_canvas(buf, f"{game.game.name} — unit sheets", (pw * MM, ph * MM))
    flow = Flow(c, pw * MM, ph * MM)
    usable = flow.width - 2 * MARGIN
    for sheet in game.sheets:
        p = sheet.properties
        for key in p:
            if key not in SHEET_PROPS:
                diagnostics.append(Diagnostic(span=p[key].span, severity=Severity.WARNING, code=CODE_UNKNOWN_PROPERTY,
                                              message=f"sheet {sheet.name}: {key}: property not supported by the "
                                                      "printer; ignored"))
        try:
            cards: list[ir.CardDecl | None] = (
                [card for card in game.cards if ev.matches(p["for"], card)] if "for" in p else [None])
        except EvalError as exc:
            diagnostics.append(Diagnostic(span=p["for"].span, severity=Severity.WARNING, code=CODE_BAD_EXPR,
                                          message=f"sheet '{sheet.name}': {exc}"))
            continue
        flow.new_page()
        flow.text(sheet.label, 14, bold=True)
        for card in cards:
            try:
                rows = ev.number(p.get("rows"), card, 1)
                track = ev.number(p.get("track"), card, 0)
                boxes = _labels(ev, p.get("checkboxes"), card)
            except EvalError as exc:
                diagnostics.append(Diagnostic(span=sheet.span, severity=Severity.WARNING, code=CODE_BAD_EXPR,
                                              message=f"sheet '{sheet.name}': {exc}"))
                continue
            write_in = style_word(p.get("write_in")) if p.get("write_in") is not None else ""
            title = card.name if card is not None else sheet.label
            if card is not None and track:
                title += f"  —  {track} HP"
            heading = [(f"{sheet.label} (continued)", 10, True), (title, 11, True)]
            track_w = usable - LABEL_W
            per_line = max(1, int((track_w + GAP) // (BOX + GAP)))
            track_lines = -(-track // per_line) if track else 0
            box_lines = _checkbox_lines(boxes, usable - LABEL_W)
            row_h = (track_lines * (BOX + GAP) + len(box_lines) * 6 * MM + (6 * MM if write_in else 0)
                     + 3 * MM)
            row_h = max(row_h, 8 * MM)
            flow.ensure(11 * 1.2 + row_h + 4 * MM, heading[:0])
            flow.text(title, 11, bold=True)
            label_tpl = p.get("row_label")
            for n in range(1, rows + 1):
                flow.ensure(row_h, heading)
                label = (ev.fill(label_tpl.value, card, {"n": n}) if isinstance(label_tpl, ir.Text)
                         else f"#{n}")
                top = flow.y
                _draw_row(c, flow, label, track, per_line, box_lines, write_in)
                flow.y = top - row_h
                c.setLineWidth(0.3)
                c.setStrokeColorRGB(0.6, 0.6, 0.6)
                c.line(MARGIN, flow.y + 1.5 * MM, flow.width - MARGIN, flow.y + 1.5 * MM)
                flow.rows.append(RowRecord(flow.page, top, top - row_h, f"{title} {label}"))
            flow.y -= 3 * MM
    c.showPage()
    c.save()
    return UnitSheets(buf.getvalue(), flow.pages, flow.rows, flow.height)


def _checkbox_lines(labels: list[str], width: float) -> list[list[tuple[str, float]]]:
    lines: list[list[tuple[str, float]]] = []
    line: list[tuple[str, float]] = []
    used = 0.0
    for label in labels:
        w = BOX + 1.5 * MM + fonts.width(label, fonts.REGULAR, 8) + 5 * MM
        if line and used + w > width:
            lines.append(line)
            line, used = [], 0.0
        line.append((label, w))
        used += w
    if line:
        lines.append(line)
    return lines


def _draw_row(c: Canvas, flow: Flow, label: str, track: int, per_line: int,
              box_lines: list[list[tuple[str, float]]], write_in: str) -> None:
    top = flow.y
    text_lines(c, [label], fonts.BOLD, 9, MARGIN, top, LABEL_W, "left", (0, 0, 0), 11)
    x0 = MARGIN + LABEL_W
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.6)
    y = top - BOX
    for i in range(track):
        row, col = divmod(i, per_line)
        bx, by = x0 + col * (BOX + GAP), y - row * (BOX + GAP)
        c.rect(bx, by, BOX, BOX, stroke=1, fill=0)
        if (i + 1) % 5 == 0:
            c.setFont(fonts.REGULAR, 4)
            c.setFillColorRGB(0.4, 0.4, 0.4)
            c.drawCentredString(bx + BOX / 2, by - 1.6 * MM + 0.5, str(i + 1))
    y = top - (-(-track // per_line) if track else 0) * (BOX + GAP) - 1 * MM
    for line in box_lines:
        x = x0
        for text, w in line:
            c.setLineWidth(0.6)
            c.rect(x, y - BOX, BOX, BOX, stroke=1, fill=0)
            text_lines(c, [text], fonts.REGULAR, 8, x + BOX + 1.5 * MM, y - 0.6 * MM, w, "left", (0, 0, 0), 9)
            x += w
        y -= 6 * MM
    if write_in:
        text_lines(c, [f"{write_in}:"], fonts.REGULAR, 8, x0, y - 0.6 * MM, 30 * MM, "left", (0, 0, 0), 9)
        c.setLineWidth(0.4)
        c.line(x0 + fonts.width(f"{write_in}:", fonts.REGULAR, 8) + 2 * MM, y - BOX, x0 + 80 * MM, y - BOX)


# ---------------------------------------------------------------- references and action sheets

@dataclass
class RefRow:
    label: str
    details: str
    text: str


def reference_rows(ref: ir.ReferenceDecl, ev: CardEvaluator, diagnostics: list[Diagnostic]) -> list[RefRow]:
    rows = []
    for row in ref.rows:
        details, text = [], ""
        for key, expr in row.properties.items():
            try:
                value = ev.text(expr, None)
            except EvalError:
                value = render_expr(expr)
            if key == "text":
                text = value
            else:
                details.append(f"{key.replace('_', ' ').capitalize()}: {value}")
        rows.append(RefRow(row.label, " · ".join(details), text))
    return rows


def rules_reference(game: ir.Game) -> tuple[str, list[RefRow]]:
    """The generated reference every game gets: turn order and every keyword's reminder."""
    actions = {a.name: a.label or a.name for a in game.actions}
    rows: list[RefRow] = []
    for flow in game.flows:
        who = "Each player's turn" if flow.scope == "turn" else "After every player (each round)"
        for i, stage in enumerate(flow.stages, 1):
            name = stage.label or stage.name.replace("_", " ").capitalize()
            parts = []
            if stage.steps:
                parts.append("Steps: " + ", ".join(s.label or s.name.replace("_", " ") for s in stage.steps) + ".")
            if stage.actions:
                parts.append("Actions: " + ", ".join(actions.get(a, a.replace("_", " ")) for a in stage.actions) + ".")
            if stage.simultaneous:
                parts.append("Everyone decides at once, hidden.")
            if stage.responses:
                parts.append("Others may respond.")
            rows.append(RefRow(f"{i}. {name}", who if i == 1 else "", " ".join(parts)))
    own = [kw for kw in game.keywords if not kw.span.file.startswith("<core>")]
    if own:
        rows.append(RefRow("Keywords", "", "Every keyword of the game with its reminder text."))
    rows += keyword_rows(own)
    return f"{game.game.name} — rules reference", rows


def keyword_rows(keywords: list[ir.KeywordDecl]) -> list[RefRow]:
    """One row per keyword: its name with parameters, and its reminder text."""
    rows = []
    for kw in keywords:
        params = " ".join(p.name for p in kw.params)
        label = kw.name.replace("_", " ") + (f" {params}" if params else "")
        reminder = kw.reminder
        for p in kw.params:
            reminder = reminder.replace("{" + p.name + "}", p.name)
        rows.append(RefRow(label, "", reminder))
    return rows


def reference_sheet(title: str, note: str, rows: list[RefRow], opts: Options) -> tuple[bytes, int]:
    """One generated table on its own pages (an expansion's new keywords)."""
    fonts.register()
    buf = io.BytesIO()
    pw, ph = PAPERS[opts.paper]
    c = new_canvas(buf, title, (pw * MM, ph * MM))
    flow = Flow(c, pw * MM, ph * MM)
    _table(flow, title, note, rows)
    c.showPage()
    c.save()
    return buf.getvalue(), flow.pages


def _row_height(row: RefRow, width: float, size: float) -> tuple[float, list[str], list[str], list[str]]:
    label_lines = wrap(row.label, fonts.BOLD, size, 45 * MM)
    right = width - 48 * MM
    detail_lines = wrap(row.details, fonts.BOLD, size - 0.5, right) if row.details else []
    text_lines_ = wrap(row.text, fonts.REGULAR, size, right) if row.text else []
    lead = size * LEADING
    h = max(len(label_lines) * lead, (len(detail_lines) + len(text_lines_)) * lead) + 2.5 * MM
    return h, label_lines, detail_lines, text_lines_


def _table(flow: Flow, title: str, note: str, rows: list[RefRow], size: float = 9.0) -> None:
    c = flow.canvas
    flow.new_page()
    flow.text(title, 14, bold=True)
    if note:
        flow.text(note, 9, italic=True)
    width = flow.width - 2 * MARGIN
    for row in rows:
        h, label_lines, detail_lines, body = _row_height(row, width, size)
        flow.ensure(h, [(f"{title} (continued)", 11, True)])
        top = flow.y
        lead = size * LEADING
        text_lines(c, label_lines, fonts.BOLD, size, MARGIN, top, 45 * MM, "left", (0, 0, 0), lead)
        text_lines(c, detail_lines, fonts.BOLD, size - 0.5, MARGIN + 48 * MM, top, width - 48 * MM, "left",
                   (0.25, 0.25, 0.25), lead)
        text_lines(c, body, fonts.REGULAR, size, MARGIN + 48 * MM, top - len(detail_lines) * lead,
                   width - 48 * MM, "left", (0, 0, 0), lead)
        flow.y = top - h
        c.setLineWidth(0.3)
        c.setStrokeColorRGB(0.6, 0.6, 0.6)
        c.line(MARGIN, flow.y + 1.2 * MM, flow.width - MARGIN, flow.y + 1.2 * MM)
        flow.rows.append(RowRecord(flow.page, top, top - h, row.label))


@dataclass
class ActionSheets:
    data: bytes
    pages: int
    rows: list[RowRecord]


def render_action_sheets(game: ir.Game, renderer: CardRenderer, opts: Options,
                         diagnostics: list[Diagnostic]) -> tuple[bytes, int] | None:
    found = action_sheets(game, renderer, opts, diagnostics)
    return found.data, found.pages


def action_sheets(game: ir.Game, renderer: CardRenderer, opts: Options,
                  diagnostics: list[Diagnostic]) -> ActionSheets:
    """Every declared reference (tables, or card-sized panels with copies), then the
    generated rules reference."""
    fonts.register()
    ev = renderer.evaluator
    buf = io.BytesIO()
    pw, ph = PAPERS[opts.paper]
    c = new_canvas(buf, f"{game.game.name} — action sheets", (pw * MM, ph * MM))
    flow = Flow(c, pw * MM, ph * MM)
    for ref in game.references:
        for key in ref.properties:
            if key not in REFERENCE_PROPS:
                diagnostics.append(Diagnostic(span=ref.properties[key].span, severity=Severity.WARNING,
                                              code=CODE_UNKNOWN_PROPERTY, message=f"reference {ref.name}: {key}: "
                                              "property not supported by the printer; ignored"))
        size_word = style_word(ref.properties.get("size")).lower()
        rows = reference_rows(ref, ev, diagnostics)
        note = ev.text(ref.properties["note"], None) if "note" in ref.properties else ""
        card_size = parse_size(size_word) if size_word and size_word not in PAGE_SIZES else None
        if card_size is not None:
            copies = ev.number(ref.properties.get("copies"), None, 1)
            _panels(flow, ref, rows, card_size, copies, opts, diagnostics)
            continue
        page = PAGE_SIZES.get(size_word)
        flow.width, flow.height = ((page[0] * MM, page[1] * MM) if page else (pw * MM, ph * MM))
        _table(flow, ref.label, note, rows)
        flow.width, flow.height = pw * MM, ph * MM
    title, rows = rules_reference(game)
    _table(flow, title, "Turn order and every keyword with its reminder text.", rows)
    c.showPage()
    c.save()
    return ActionSheets(buf.getvalue(), flow.pages, flow.rows)


def _panels(flow: Flow, ref: ir.ReferenceDecl, rows: list[RefRow], size: tuple[float, float], copies: int,
            opts: Options, diagnostics: list[Diagnostic]) -> None:
    """A reference printed as cards (a cheat card): shrink to fit the card, with crop marks."""
    grid = make_grid(opts.paper, *size)
    if grid is None:
        diagnostics.append(Diagnostic(span=ref.span, severity=Severity.ERROR, code=CODE_OVERFLOW,
                                      message=f"reference '{ref.name}': a {size[0]:g} x {size[1]:g} mm card does "
                                              f"not fit on {opts.paper} paper"))
        return
    w, h = grid.card_w, grid.card_h
    pad = 3 * MM
    inner_w = w - 2 * pad
    chosen: float | None = None
    s = 9.0
    while s >= MIN_SIZE - 1e-9:
        total = _panel_height(ref.label, rows, s, inner_w)
        if total <= h - 2 * pad:
            chosen = s
            break
        s -= 0.5
    if chosen is None:
        diagnostics.append(Diagnostic(span=ref.span, severity=Severity.ERROR, code=CODE_OVERFLOW,
                                      message=f"reference '{ref.name}': text does not fit a {size[0]:g} x "
                                              f"{size[1]:g} mm card even at {MIN_SIZE:g} pt",
                                      hint="shorten the rows or use a larger size"))
        return
    forms = Forms(flow.canvas)
    c = flow.canvas

    def panel(cv: Canvas) -> None:
        cv.setStrokeColorRGB(0.3, 0.3, 0.3)
        cv.setLineWidth(1.0)
        cv.roundRect(1.5 * MM, 1.5 * MM, w - 3 * MM, h - 3 * MM, 2 * MM, stroke=1, fill=0)
        y = h - pad
        lead = chosen * LEADING
        head = wrap(ref.label, fonts.BOLD, chosen + 1, inner_w)
        text_lines(cv, head, fonts.BOLD, chosen + 1, pad, y, inner_w, "left", (0, 0, 0), (chosen + 1) * LEADING)
        y -= len(head) * (chosen + 1) * LEADING + 1 * MM
        for row in rows:
            lines = wrap(f"{row.label}: {row.text}", fonts.REGULAR, chosen, inner_w)
            text_lines(cv, lines, fonts.REGULAR, chosen, pad, y, inner_w, "left", (0, 0, 0), lead)
            y -= len(lines) * lead + 0.8 * MM

    name = "P" + hashlib.sha1(f"{ref.name}{w}{h}".encode()).hexdigest()[:12]
    for start in range(0, copies, grid.per_page):
        n = min(grid.per_page, copies - start)
        flow.canvas.setPageSize((grid.page_w, grid.page_h))
        if flow.started:
            c.showPage()
            flow.page += 1
        flow.started = True
        c.setPageSize((grid.page_w, grid.page_h))
        for i in range(n):
            x, y = grid.cell(*grid.slot(i))
            forms.use(name, panel, x, y)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(MARK_WIDTH)
        for seg in grid.crop_marks(n):
            c.line(seg.x1, seg.y1, seg.x2, seg.y2)
        flow.y = MARGIN  # the next table starts on a new page
        flow.rows.append(RowRecord(flow.page, grid.top, grid.top - grid.card_h, ref.label))


def _panel_height(title: str, rows: list[RefRow], size: float, width: float) -> float:
    total = len(wrap(title, fonts.BOLD, size + 1, width)) * (size + 1) * LEADING + 1 * MM
    for row in rows:
        total += len(wrap(f"{row.label}: {row.text}", fonts.REGULAR, size, width)) * size * LEADING + 0.8 * MM
    return total


