"""Card faces: a layout plus a card becomes a plan of draw operations, drawn per copy.

Planning (evaluating expressions, fitting text, checking art and glyphs) happens once
per card and reports diagnostics with the card's source span; drawing a copy only
replays the plan, so printing four copies costs little more than one. Frames, icons,
placeholders and backs go through `Forms`, drawn once per document.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from cardsmith.compiler.text import keyword_reminder, render_expr
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Diagnostic, Severity
from cardsmith.dsl.source import Span
from cardsmith.printables import fonts
from cardsmith.printables.draw import (
    BLACK,
    RGB,
    WHITE,
    Forms,
    Painter,
    checkbox,
    draw_shape,
    ink_on,
    placeholder,
    rgb,
    text_lines,
)
from cardsmith.printables.evaluate import CardEvaluator, EvalError, style_word
from cardsmith.printables.geometry import MM
from cardsmith.printables.layout import Layout, Region
from cardsmith.printables.textfit import MIN_SIZE, WARN_SIZE, Fitted, fit

FRAME_MM = 2.5   # the border band inside the cut line
PAD_MM = 0.6     # text keeps this far from its box edge

CODE_SMALL_TEXT = "CS2001"
CODE_OVERFLOW = "CS2002"
CODE_MISSING_ART = "CS2003"
CODE_MISSING_GLYPH = "CS2004"
CODE_UNKNOWN_PROPERTY = "CS2005"
CODE_BAD_LAYOUT = "CS2006"
CODE_BAD_EXPR = "CS2007"
CODE_UNBREAKABLE = "CS2008"
CODE_ART_OUTSIDE = "CS2009"
_NEXT_CARD = re.compile(r"\s*card\s+\"")


@dataclass(frozen=True)
class TextOp:
    fitted: Fitted
    font: str
    x: float
    top: float
    w: float
    align: str
    colour: RGB
    rotated: bool = False
    box_y: float = 0.0
    box_h: float = 0.0


@dataclass(frozen=True)
class FormOp:
    name: str
    kind: str            # shape | placeholder
    x: float
    y: float
    w: float
    h: float
    shape: str = ""
    fill: RGB = WHITE


@dataclass(frozen=True)
class ImageOp:
    path: str
    x: float
    y: float
    w: float
    h: float
    cover: bool


@dataclass(frozen=True)
class BoxOp:
    x: float
    y: float
    w: float
    h: float
    checkbox: bool = False


Op = TextOp | FormOp | ImageOp | BoxOp


@dataclass
class CardPlan:
    card: ir.CardDecl
    layout: Layout
    background: RGB
    border: RGB
    ops: list[Op] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


def art_inside(root: Path, value: str) -> Path | None:
    """The real path of art file `value` when it lies inside the game folder `root`, else
    None. Building a game from someone else must not copy a private image (`../../x.png`,
    `/home/me/id.png`, a symlink leading out) into its PDF; the answer depends only on the
    path, never on whether a file outside exists, so the warning reveals nothing about it."""
    candidate = Path(value)
    if candidate.is_absolute() or ".." in candidate.parts or candidate.drive:
        return None
    base = Path(os.path.realpath(root))
    real = Path(os.path.realpath(base / candidate))
    return real if real.is_relative_to(base) and real != base else None


def art_span(card: ir.CardDecl, value: str, fallback: Span) -> Span:
    """Where the card writes `art: "value"` (the IR keeps only the card's span), so the
    diagnostic points at that line; `fallback` when the value came from somewhere else."""
    if card.art != value:
        return fallback
    try:
        lines = Path(card.span.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return card.span
    for number in range(card.span.line, len(lines) + 1):  # the span covers the header only
        if number > card.span.line and re.match(r"\s*card\s", lines[number - 1]):
            break  # the next card
        match = re.match(r"\s*(art)\s*:", lines[number - 1])
        if match:
            column = match.start(1) + 1
            return Span(file=card.span.file, line=number, column=column, end_line=number,
                        end_column=len(lines[number - 1].rstrip()) + 1)
    return card.span


def _readable_image(path: Path) -> bool:
    """Can the whole image be decoded? Its header alone is not enough: a PNG whose data
    is cut short reads its size fine and fails only when the page is drawn."""
    from PIL import Image

    try:
        with Image.open(path) as image:
            image.load()
    except Exception:  # any decoder failure means "not an image we can print"
        return False
    return True


def _shows_name(region: Region) -> bool:
    text = region.get("text")
    return isinstance(text, ir.Attr) and text.name == "name" and isinstance(text.obj, ir.Ref)


def _key(*parts: object) -> str:
    return "F" + hashlib.sha1(repr(parts).encode()).hexdigest()[:12]


class CardRenderer:
    """Plans and draws card fronts and backs for one game and one output mode."""

    def __init__(self, game: ir.Game, layouts: dict[str, Layout], mode: str, art_root: Path | None) -> None:
        fonts.register()
        self.game = game
        self.layouts = layouts
        self.mode = mode
        self.painter = Painter(mode)
        self.evaluator = CardEvaluator(game)
        self.art_root = art_root
        self.diagnostics: list[Diagnostic] = []
        self._plans: dict[str, CardPlan] = {}
        self._warned: set[tuple[str, str]] = set()
        self._keywords = {k.name: k for k in game.keywords}
        self._enum_values = {v.name for e in game.enums for v in e.values}
        self._source_lines: dict[str, list[str]] = {}

    # -- diagnostics -----------------------------------------------------------------
    def report(self, span: Span, severity: Severity, code: str, message: str, hint: str | None = None,
               once: str | None = None) -> None:
        if once is not None:
            if (code, once) in self._warned:
                return
            self._warned.add((code, once))
        self.diagnostics.append(Diagnostic(span=span, severity=severity, code=code, message=message, hint=hint))

    # -- planning --------------------------------------------------------------------
    def plan(self, card: ir.CardDecl) -> CardPlan:
        cached = self._plans.get(card.name)
        if cached is not None:
            return cached
        layout = self.layouts[card.type]
        bg = self._colour(layout.background, card, "#FFFFFF", layout.span)
        border = self._colour(layout.border, card, "#333333", layout.span)
        plan = CardPlan(card, layout, bg, border)
        height = layout.height_mm * MM
        for region in layout.regions:
            try:
                self._plan_region(plan, region, height)
            except EvalError as exc:
                self.report(region.span, Severity.WARNING, CODE_BAD_EXPR,
                            f"region '{region.name}' of layout '{layout.name}': {exc}",
                            "the region is left empty on the printed card", once=f"{layout.name}.{region.name}")
        if not any(_shows_name(r) for r in layout.regions):
            # Every front names its card: a small line in the frame when the layout has none.
            font = fonts.ITALIC
            band = FRAME_MM * MM
            width = layout.width_mm * MM - 8 * MM
            name_fit = fit(card.name, font, 6.0, width, band)
            plan.ops.append(TextOp(name_fit, font, 4 * MM, band - 0.9, width, "center",
                                   self.painter.colour(ink_on(self.painter.surface(border)))))
            plan.texts.append(card.name)
        missing = sorted({ch for t in plan.texts for ch in fonts.missing_glyphs(t)})
        if missing:
            self.report(card.span, Severity.WARNING, CODE_MISSING_GLYPH,
                        f"card '{card.name}': the font has no glyph for {', '.join(repr(m) for m in missing)}",
                        "these characters print as empty boxes; use other characters")
        self._plans[card.name] = plan
        return plan

    def _colour(self, expr: ir.Expr | None, card: ir.CardDecl, default: str, span: Span) -> RGB:
        try:
            value = self.evaluator.colour(expr, card)
        except EvalError as exc:
            self.report(expr.span if expr is not None else span, Severity.WARNING, CODE_BAD_EXPR, str(exc),
                        once=f"colour:{render_expr(expr) if expr is not None else ''}")
            value = None
        return rgb(value or default)

    def _plan_region(self, plan: CardPlan, r: Region, card_h: float) -> None:
        card, ev, painter = plan.card, self.evaluator, self.painter
        x, w, h = r.x * MM, r.w * MM, r.h * MM
        y = card_h - r.y * MM - h
        under = painter.surface(plan.background)
        fill_expr = r.get("fill") or r.get("background")
        icon = r.get("icon")
        if fill_expr is not None and icon is None:
            fill = self._colour(fill_expr, card, "#FFFFFF", r.span)
            shape = r.shape or "square"
            plan.ops.append(FormOp(_key("shape", shape, w, h, fill, self.mode), "shape", x, y, w, h, shape, fill))
            under = painter.surface(fill)
        elif r.shape in ("heart", "shield", "coin") and w >= 2.4 * h and self._icon_fits(plan, r, w, h):
            # A stat with an icon: a white badge with the icon at its left, the text beside it.
            white = (1.0, 1.0, 1.0)
            plan.ops.append(FormOp(_key("shape", "badge", w, h, white, self.mode), "shape", x, y, w, h, "badge", white))
            icon_fill = {"heart": (0.75, 0.1, 0.15), "shield": (0.35, 0.4, 0.5), "coin": (0.8, 0.63, 0.13)}[r.shape]
            s = h * 0.7
            plan.ops.append(FormOp(_key("shape", r.shape, s, s, icon_fill, self.mode), "shape", x + h * 0.15,
                                   y + (h - s) / 2, s, s, r.shape, icon_fill))
            under = white
            x, w = x + h * 0.15 + s, w - h * 0.15 - s
        elif r.shape:
            fill = (1.0, 1.0, 1.0) if r.shape in ("circle", "badge", "coin", "heart", "shield") else plan.background
            if r.shape in ("circle", "coin"):
                fill = plan.border if r.get("text") is not None else (0.97, 0.97, 0.95)
            plan.ops.append(FormOp(_key("shape", r.shape, w, h, fill, self.mode), "shape", x, y, w, h, r.shape, fill))
            under = painter.surface(fill)
        if icon is not None:
            word = ev.text(icon, card)
            fill = plan.border if fill_expr is None else self._colour(fill_expr, card, "#FFFFFF", r.span)
            size = min(w, h)
            plan.ops.append(FormOp(_key("shape", word, size, size, fill, self.mode), "shape", x + (w - size) / 2,
                                   y + (h - size) / 2, size, size, word, fill))
        image = r.get("image")
        if image is not None:
            self._plan_image(plan, r, ev.value(image, card), x, y, w, h)
        colour = painter.colour(ink_on(under))
        text_expr = r.get("text")
        if text_expr is not None:
            text = ev.text(text_expr, card).strip()
            if text:
                self._plan_text(plan, r, text, x, y, w, h, colour, r.font_size, r.bold, r.italic)
        if r.get("symbols") is not None:
            self._plan_symbols(plan, r, x, y, w, h, colour)
        if r.get("columns") is not None:
            self._plan_columns(plan, r, x, y, w, h, colour)

    def _icon_fits(self, plan: CardPlan, r: Region, w: float, h: float) -> bool:
        """Whether the text still fits at its declared size beside a stat icon."""
        expr = r.get("text")
        if expr is None:
            return True
        try:
            text = self.evaluator.text(expr, plan.card)
        except EvalError:
            return True
        room = w - h * 0.85 - 2 * PAD_MM * MM
        return fit(text, fonts.font_name(r.bold, r.italic), r.font_size, max(room, 1.0), h).size >= r.font_size

    def _plan_image(self, plan: CardPlan, r: Region, value: Any, x: float, y: float, w: float, h: float) -> None:
        path = None
        if isinstance(value, str) and value and "." not in value and "/" not in value:
            # A bare word (`icon: "timber"`) names a symbol, not a file: print it as a labelled mark.
            plan.ops.append(FormOp(_key("placeholder", w, h, self.mode), "placeholder", x, y, w, h))
            label = value.replace("_", " ").capitalize()
            fitted = fit(label, fonts.BOLD, 9.0, w - 2 * PAD_MM * MM, h / 3)
            plan.ops.append(TextOp(fitted, fonts.BOLD, x + PAD_MM * MM, y + h * 0.3, w - 2 * PAD_MM * MM, "center",
                                   BLACK))
            plan.texts.append(label)
            return
        if isinstance(value, str) and value:
            candidate = art_inside(self.art_root if self.art_root is not None else Path.cwd(), value)
            if candidate is None:
                self.report(art_span(plan.card, value, r.span), Severity.ERROR, CODE_ART_OUTSIDE,
                            f"card '{plan.card.name}': art file '{value}' is outside the game folder",
                            "put the image in the game's folder (e.g. art/) and write its path relative "
                            "to that folder, without '..'")
            elif candidate.is_file():
                path = candidate if _readable_image(candidate) else None
                if path is None:
                    self.report(plan.card.span, Severity.WARNING, CODE_MISSING_ART,
                                f"card '{plan.card.name}': art file '{value}' is not a readable image",
                                "a placeholder is printed instead")
            else:
                self.report(plan.card.span, Severity.WARNING, CODE_MISSING_ART,
                            f"card '{plan.card.name}': art file '{value}' not found",
                            "a placeholder is printed instead")
        if path is not None:
            plan.ops.append(ImageOp(str(path), x, y, w, h, r.fit == "cover"))
        else:
            plan.ops.append(FormOp(_key("placeholder", w, h, self.mode), "placeholder", x, y, w, h))

    def _plan_text(self, plan: CardPlan, r: Region, text: str, x: float, y: float, w: float, h: float,
                   colour: RGB, size: float, bold: bool, italic: bool, top: float | None = None) -> None:
        font = fonts.font_name(bold, italic)
        pad = PAD_MM * MM
        bx, bw, bh = x + pad, w - 2 * pad, h - 0.3 * MM
        if r.shape in ("circle", "coin"):
            inset = min(w, h) * 0.15
            bx, bw, bh = x + inset, w - 2 * inset, h - 2 * inset
        fitted = fit(text, font, size, max(bw, 1.0), max(bh, 1.0))
        card = plan.card
        if not fitted.fits:
            self.report(card.span, Severity.ERROR, CODE_OVERFLOW,
                        f"card '{card.name}': text does not fit box '{r.name}' even at {MIN_SIZE:g} pt",
                        f"shorten the text or enlarge region '{r.name}' ({r.w:g} x {r.h:g} mm)")
        elif fitted.size < WARN_SIZE and fitted.size < size:
            self.report(card.span, Severity.WARNING, CODE_SMALL_TEXT,
                        f"card '{card.name}': text in box '{r.name}' shrunk to {fitted.size:g} pt to fit",
                        "text under 8 pt is hard to read; shorten it or enlarge the box")
        for word in fitted.unbreakable:
            self.report(self._word_span(card, word), Severity.WARNING, CODE_UNBREAKABLE,
                        f"card '{card.name}': the word '{word}' is wider than box '{r.name}' and no hyphenation "
                        f"point fits; it is cut at an arbitrary point (marked with a hyphen, {fitted.size:g} pt)",
                        f"shorten the word, write a hyphen or a space into it, or widen region '{r.name}' "
                        f"({r.w:g} mm)", once=f"{card.name}.{r.name}.{word}")
        block_h = fitted.size * (fitted.leading / fitted.size * (len(fitted.lines) - 1) + 1.0)
        if top is None:
            if r.shape in ("circle", "coin"):
                top = y + (h + block_h) / 2
            elif r.valign == "top" or r.orientation == "rotated":
                top = y + h - pad / 2
            elif r.valign == "bottom":
                top = y + block_h + pad / 2
            else:
                top = y + (h + block_h) / 2
        align = r.align if r.shape not in ("circle", "coin", "badge", "heart", "shield") else "center"
        plan.ops.append(TextOp(fitted, font, bx, top, bw, align, colour, r.orientation == "rotated", y, h))
        plan.texts.append(text)

    def _word_span(self, card: ir.CardDecl, word: str) -> Span:
        """Where `word` is written inside the card's declaration (its `text:` line, say), so
        the warning points at it; the card itself when the word is not in its source (text
        generated from the card's effects)."""
        span = card.span
        lines = self._source_lines.get(span.file)
        if lines is None:
            try:
                lines = Path(span.file).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                lines = []
            self._source_lines[span.file] = lines
        for number in range(span.line, len(lines) + 1):
            text = lines[number - 1]
            if number > span.line and _NEXT_CARD.match(text):
                break  # the card's block ended without the word
            column = text.find(word)
            if column >= 0:
                return Span(file=span.file, line=number, column=column + 1, end_line=number,
                            end_column=column + 1 + len(word))
        return span

    def _plan_symbols(self, plan: CardPlan, r: Region, x: float, y: float, w: float, h: float, colour: RGB) -> None:
        """Keyword symbols of one card section (Combat Cards): the uses whose first argument
        names this region's `section`, or, for a section no keyword names, the rest."""
        card, ev = plan.card, self.evaluator
        section_expr = r.get("section")
        section = style_word(section_expr) if section_expr is not None else ""
        sections = {style_word(reg.get("section")) for reg in plan.layout.regions if reg.get("section") is not None}
        uses = ev.value(r.props["symbols"], card)
        picked: list[ir.KeywordUse] = []
        for use in uses if isinstance(uses, list) else []:
            if not isinstance(use, ir.KeywordUse):
                continue
            first = style_word(use.args[0]) if use.args else ""
            catch_all = bool(section) and section not in self._enum_values
            if (section and first == section) or (catch_all and first not in sections):
                picked.append(use)
        label_expr = r.get("label")
        top = y + h
        pad = PAD_MM * MM
        circle = r.shape in ("circle", "coin")
        inner_x, inner_w = (x + w * 0.14, w * 0.72) if circle else (x + pad, w - 2 * pad)
        if circle:
            top = y + h * 0.86
        if label_expr is not None:
            label = ev.text(label_expr, card)
            lf = fit(label, fonts.ITALIC, 6.0, inner_w, 3 * MM)
            plan.ops.append(TextOp(lf, fonts.ITALIC, inner_x, top - pad / 2, inner_w,
                                   "center" if circle else "left", colour))
            plan.texts.append(label)
            top -= lf.leading * len(lf.lines) + pad / 2
        if not picked:
            return
        body_top = top
        body_h = body_top - (y + (h * 0.14 if circle else pad))
        # Most to least wordy: reminders, then name and arguments, then arguments alone.
        variants: list[tuple[str, str, float]] = []
        reminders, shorts, compact = [], [], []
        for use in picked:
            kw = self._keywords.get(use.name)
            args = [self._arg_label(a) for a in use.args if style_word(a) not in sections]
            shorts.append(" ".join([use.name.replace("_", " "), *args]))
            compact.append(" ".join(args) or use.name.replace("_", " "))
            reminders.append(keyword_reminder(kw, use) if kw is not None and kw.reminder else shorts[-1])
        variants = [("\n".join(reminders), fonts.REGULAR, 7.0), ("\n".join(shorts), fonts.BOLD, 8.0),
                    ("\n".join(compact), fonts.BOLD, 8.0)]
        # Prefer the wordiest variant that stays readable (7 pt or more), then any that fits.
        chosen = variants[-1]
        for floor in (7.0, MIN_SIZE):
            found = [v for v in variants if (f := fit(v[0], v[1], v[2], inner_w, body_h)).fits and f.size >= floor]
            if found:
                chosen = found[0]
                break
        text, font, size = chosen
        sub = Region(r.name, r.x, r.y, r.w, r.h, r.props, r.span, align="center" if circle else r.align,
                     valign="top")
        self._plan_text(plan, sub, text, inner_x - pad, y, inner_w + 2 * pad, body_h, colour, size,
                        font == fonts.BOLD, False, top=body_top)

    def _arg_label(self, arg: ir.Expr) -> str:
        """A keyword argument as printed: enum values by their label."""
        word = style_word(arg)
        if isinstance(arg, ir.Ref) and word in self._enum_values:
            try:
                return self.evaluator.text(arg, None)
            except EvalError:
                return word.replace("_", " ")
        return render_expr(arg)

    def _plan_columns(self, plan: CardPlan, r: Region, x: float, y: float, w: float, h: float, colour: RGB) -> None:
        """One column per numbered piece (Two Kingdoms): heading, HP write-in, status boxes."""
        card, ev = plan.card, self.evaluator
        n = max(1, ev.number(r.get("columns"), card, 1))
        col_w = w / n
        hp = ev.number(r.get("track"), card, 0) if r.get("track") is not None else 0
        boxes_expr = r.get("checkboxes")
        labels: list[str] = []
        if boxes_expr is not None:
            value = ev.value(boxes_expr, card)
            items = value if isinstance(value, list) else str(value or "").split(",")
            labels = [str(i).strip() for i in items if str(i).strip()]
        heading = r.get("heading")
        for i in range(n):
            cx = x + i * col_w
            top = y + h
            head = ev.fill(heading.value, card, {"n": i + 1}) if isinstance(heading, ir.Text) else f"#{i + 1}"
            hf = fit(head, fonts.BOLD, r.font_size, col_w - 2 * MM, 5 * MM)
            plan.ops.append(TextOp(hf, fonts.BOLD, cx + MM, top - 0.5 * MM, col_w - 2 * MM, "center", colour))
            plan.texts.append(head)
            top -= 6 * MM
            if hp:
                plan.ops.append(BoxOp(cx + MM, top - 9 * MM, col_w - 2 * MM, 9 * MM))
                tf = fit(f"/{hp}", fonts.REGULAR, 6.0, col_w - 3 * MM, 3 * MM)
                plan.ops.append(TextOp(tf, fonts.REGULAR, cx + 1.5 * MM, top - 6.2 * MM, col_w - 3.5 * MM, "right",
                                       BLACK))
                top -= 11 * MM
            for label in labels:
                if top - 4 * MM < y:
                    break
                plan.ops.append(BoxOp(cx + MM, top - 3.2 * MM, 3.2 * MM, 3.2 * MM, checkbox=True))
                lf = fit(label, fonts.REGULAR, 6.5, col_w - 6 * MM, 5 * MM)
                if not lf.fits:
                    self.report(card.span, Severity.ERROR, CODE_OVERFLOW,
                                f"card '{card.name}': status '{label}' does not fit box '{r.name}' at 6 pt",
                                once=f"{card.name}:{label}")
                plan.ops.append(TextOp(lf, fonts.REGULAR, cx + 5 * MM, top - 0.4 * MM, col_w - 6 * MM, "left",
                                       colour))
                top -= max(4.4 * MM, lf.leading * len(lf.lines) + 1.2 * MM)

    # -- drawing ---------------------------------------------------------------------
    def draw_front(self, c: Canvas, forms: Forms, card: ir.CardDecl, x: float, y: float, bleed: float = 0.0) -> None:
        plan = self.plan(card)
        w, h = plan.layout.width_mm * MM, plan.layout.height_mm * MM
        painter = self.painter
        frame_key = _key("frame", w, h, plan.background, plan.border, bleed, self.mode)

        def frame(cv: Canvas) -> None:
            band = FRAME_MM * MM
            if painter.ink_saver:
                cv.setStrokeColorRGB(*painter.colour(plan.border))
                cv.setLineWidth(1.2)
                cv.roundRect(band / 2, band / 2, w - band, h - band, 2 * MM, stroke=1, fill=0)
                return
            cv.setFillColorRGB(*plan.border)
            cv.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
            cv.setFillColorRGB(*plan.background)
            cv.roundRect(band, band, w - 2 * band, h - 2 * band, 1.5 * MM, stroke=0, fill=1)

        forms.use(frame_key, frame, x, y)
        c.saveState()
        c.translate(x, y)
        for op in plan.ops:
            if isinstance(op, TextOp):
                if op.rotated:
                    c.saveState()
                    cx, cy = op.x + op.w / 2, op.box_y + op.box_h / 2
                    c.translate(cx, cy)
                    c.rotate(180)
                    c.translate(-cx, -cy)
                    text_lines(c, op.fitted.lines, op.font, op.fitted.size, op.x, op.top, op.w, op.align,
                               op.colour, op.fitted.leading)
                    c.restoreState()
                else:
                    text_lines(c, op.fitted.lines, op.font, op.fitted.size, op.x, op.top, op.w, op.align, op.colour,
                               op.fitted.leading)
            elif isinstance(op, FormOp):
                self._form(forms, op)
            elif isinstance(op, ImageOp):
                self._image(c, op)
            else:
                if op.checkbox:
                    checkbox(c, op.x, op.y, op.w)
                else:
                    c.setFillColorRGB(*WHITE)
                    c.setStrokeColorRGB(*BLACK)
                    c.setLineWidth(0.6)
                    c.rect(op.x, op.y, op.w, op.h, stroke=1, fill=1)
        c.restoreState()

    def _form(self, forms: Forms, op: FormOp) -> None:
        painter = self.painter
        if op.kind == "placeholder":
            forms.use(op.name, lambda cv: placeholder(cv, painter, op.w, op.h), op.x, op.y)
        else:
            stroke = (0.15, 0.15, 0.15) if op.shape in ("circle", "coin", "badge", "heart", "shield") else None
            forms.use(op.name, lambda cv: draw_shape(cv, painter, op.shape, op.w, op.h, op.fill, stroke),
                      op.x, op.y)

    def _image(self, c: Canvas, op: ImageOp) -> None:
        c.saveState()
        p = c.beginPath()
        p.rect(op.x, op.y, op.w, op.h)
        c.clipPath(p, stroke=0, fill=0)
        if op.cover:
            from reportlab.lib.utils import ImageReader

            iw, ih = ImageReader(op.path).getSize()
            scale = max(op.w / iw, op.h / ih)
            dw, dh = iw * scale, ih * scale
            c.drawImage(op.path, op.x + (op.w - dw) / 2, op.y + (op.h - dh) / 2, dw, dh)
        else:
            c.drawImage(op.path, op.x, op.y, op.w, op.h, preserveAspectRatio=True, anchor="c")
        c.restoreState()

    def draw_back(self, c: Canvas, forms: Forms, card: ir.CardDecl, x: float, y: float, bleed: float = 0.0) -> None:
        layout = self.layouts[card.type]
        w, h = layout.width_mm * MM, layout.height_mm * MM
        ctype = next((t for t in self.game.cardtypes if t.name == card.type), None)
        label = (ctype.plural if ctype else card.type).replace("_", " ").title()
        title = self.game.game.name
        painter = self.painter
        back_colour = rgb("#2B2D42")

        def back(cv: Canvas) -> None:
            band = FRAME_MM * MM
            if painter.ink_saver:
                cv.setStrokeColorRGB(0.75, 0.75, 0.75)
                cv.setLineWidth(0.6)
                cv.roundRect(band / 2, band / 2, w - band, h - band, 2 * MM, stroke=1, fill=0)
                ink: RGB = (0.55, 0.55, 0.55)
            else:
                cv.setFillColorRGB(*back_colour)
                cv.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
                cv.setStrokeColorRGB(0.85, 0.75, 0.45)
                cv.setLineWidth(1.0)
                cv.roundRect(band, band, w - 2 * band, h - 2 * band, 2 * MM, stroke=1, fill=0)
                cv.roundRect(band + 2, band + 2, w - 2 * band - 4, h - 2 * band - 4, 2 * MM, stroke=1, fill=0)
                ink = (0.95, 0.9, 0.75)
            tf = fit(title, fonts.BOLD, 16.0, w - 10 * MM, 24 * MM)
            text_lines(cv, tf.lines, fonts.BOLD, tf.size, 5 * MM, h / 2 + tf.leading * len(tf.lines) / 2 + 2 * MM,
                       w - 10 * MM, "center", ink, tf.leading)
            lf = fit(label, fonts.ITALIC, 9.0, w - 10 * MM, 6 * MM)
            text_lines(cv, lf.lines, fonts.ITALIC, lf.size, 5 * MM, h / 2 - 4 * MM, w - 10 * MM, "center", ink,
                       lf.leading)

        forms.use(_key("back", w, h, title, label, bleed, self.mode), back, x, y)
