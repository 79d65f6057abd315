"""Shared state and value readers of the IR builder.

Every concern of the builder (see `build.py`) reads property values the same way:
a quoted text, a name, a whole number, a yes/no flag, an expression, a player range,
a card size. Those readers, the diagnostics they raise and the state every pass shares
(the sink, the phrase pattern table, procedure signatures, card type schemas, the
`Parts` being gathered, the `broken` names) live here once, so that each concern
module holds only its own declarations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from lark import Token

from cardsmith.dsl import fastexpr, ir
from cardsmith.dsl.diagnostics import DiagnosticSink, did_you_mean
from cardsmith.dsl.exprparse import TOO_LARGE_HINT, ExprSyntaxError, number_too_large, parse_words, unescape
from cardsmith.dsl.phrases import PatternTable
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.dsl.structure import Entry
from cardsmith.dsl.units import CARD_SIZES_MM
from cardsmith.util.fastmodel import span_of_token

# `{name}` in a keyword's reminder text (as in phrase patterns).
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# How a flag property is spelled (docs/language.md): one word each way, the same words
# as the grammar's yes/no literals in expressions (`true` and `false` are refused in both).
FLAG_WORDS = {"yes": True, "no": False}
# Spellings other languages use for a flag, each answered with the word meant.
_FLAG_MISSPELLINGS = {"yes": "yes", "true": "yes", "on": "yes", "no": "no", "false": "no", "off": "no"}
# The most players a game (or a mode) may declare.
MAX_PLAYERS = 16
# Declarations that introduce a name rules refer to (see BuilderBase.broken).
DECLARING_HEADS = frozenset({"param", "enum", "counter", "status", "zone", "board", "cardtype", "keyword", "event",
                             "procedure", "native", "function", "action"})


@dataclass
class Signature:
    """What the builder must know about a procedure before building any body."""

    name: str
    params: list[ir.Param]
    native: bool


@dataclass
class CardTypeInfo:
    """A card type's stat and property names (pass 1), so cards are read against them."""

    stats: set[str]
    properties: set[str]


@dataclass
class Parts:
    """Declarations gathered from every file, assembled into ir.Game at the end."""

    games: list[ir.GameDecl] = field(default_factory=list)
    expansions: list[ir.ExpansionDecl] = field(default_factory=list)
    decls: dict[str, list[Any]] = field(default_factory=dict)
    scoring: list[ir.ScoringDecl] = field(default_factory=list)
    heuristic: list[ir.HeuristicDecl] = field(default_factory=list)
    deck: list[ir.DeckRules] = field(default_factory=list)

    def add(self, key: str, decl: Any) -> None:
        self.decls.setdefault(key, []).append(decl)


class BuilderBase:
    """State shared by every builder concern, and the readers of property values."""

    def __init__(self, sink: DiagnosticSink) -> None:
        self.sink = sink
        self.patterns = PatternTable()
        self.signatures: dict[str, Signature] = {}
        self.cardtypes: dict[str, CardTypeInfo] = {}
        self.parts = Parts()
        self.expansion: str | None = None
        self.source: SourceFile = SourceFile("<none>", "")
        # names whose declaration could not be built (its error is reported once, there):
        # the checker keeps their uses quiet instead of calling each one unknown
        self.broken: set[str] = set()

    # ------------------------------------------------------------ diagnostics

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.sink.error(span, code, message, hint)

    def _expr_error(self, exc: ExprSyntaxError, entry: Entry, what: str) -> None:
        src = entry.source
        assert src is not None
        self.error(src.span(exc.offset, exc.offset + exc.length), exc.code, f"{exc.message} in {what}", exc.hint)

    # ------------------------------------------------------------ helpers

    def _tok_span(self, entry: Entry, tok: Token) -> Span:
        assert entry.source is not None
        return span_of_token(entry.source.path, tok, Span)

    def _first_word(self, entry: Entry) -> str | None:
        if entry.items and entry.items[0].type == "WORD":
            return str(entry.items[0])
        return None

    def parse_tail(self, entry: Entry, rule: str, start_index: int = 0) -> Any:
        items = entry.items[start_index:]
        src = entry.source
        assert src is not None
        fast = fastexpr.read(src.path, items, rule)
        if fast is not None:
            return fast
        if not items:
            pos = entry.head.end_pos or 0
            return parse_words(src, pos, pos, rule)
        return parse_words(src, items[0].start_pos or 0, items[-1].end_pos or 0, rule)

    def tokens_expr(self, entry: Entry, tokens: list[Token]) -> ir.Expr:
        """An expression from a token slice (common shapes skip the grammar: see fastexpr)."""
        src = entry.source
        assert src is not None
        fast = fastexpr.read(src.path, tokens, "cond_tail")
        if fast is not None:
            return fast  # type: ignore[no-any-return]
        result: ir.Expr = parse_words(src, tokens[0].start_pos or 0, tokens[-1].end_pos or 0,
                                      "cond_tail")
        return result

    def expr(self, entry: Entry, what: str) -> ir.Expr | None:
        if not entry.items:
            self.error(entry.head_span(), "CS0204", f"'{entry.name}' needs a value")
            return None
        try:
            return self.tokens_expr(entry, entry.items)
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, what)
            return None

    def text(self, entry: Entry) -> str | None:
        if len(entry.items) == 1 and entry.items[0].type in ("STRING", "LONG_STRING"):
            return unescape(str(entry.items[0]))
        # Adjacent strings concatenate, so long text can be split over lines in ( ).
        strings = [t for t in entry.items if t.type in ("STRING", "LONG_STRING")]
        others = [t for t in entry.items if t.type not in ("STRING", "LONG_STRING", "LPAR", "RPAR")]
        if strings and not others:
            return "".join(unescape(str(t)) for t in strings)
        self.error(entry.items_span(), "CS0301", f"'{entry.name}' must be a quoted string",
                   f'write {entry.name}: "..."')
        return None

    def word(self, entry: Entry) -> str | None:
        if len(entry.items) == 1 and entry.items[0].type == "WORD":
            return str(entry.items[0])
        self.error(entry.items_span(), "CS0301", f"'{entry.name}' must be a single name")
        return None

    def words(self, entry: Entry) -> list[str]:
        out = [str(t) for t in entry.items if t.type == "WORD"]
        bad = [t for t in entry.items if t.type not in ("WORD", "COMMA")]
        if bad or not out:
            self.error(entry.items_span(), "CS0301", f"'{entry.name}' must be a list of names",
                       f"write {entry.name}: a, b, c")
        return out

    def integer(self, entry: Entry) -> int | None:
        if len(entry.items) == 1 and entry.items[0].type == "NUMBER" and "." not in entry.items[0]:
            if number_too_large(entry.items[0]):
                self.error(entry.items_span(), "CS0301", "this number is too large", TOO_LARGE_HINT)
                return None
            return int(entry.items[0])
        self.error(entry.items_span(), "CS0301", f"'{entry.name}' must be a whole number")
        return None

    def flag(self, entry: Entry) -> bool:
        """A yes/no property (`responses: yes`; the bare head alone means yes). The
        language spells a flag one way, `yes` or `no`: another spelling (`true`, `on`,
        `Yes`) is an error with the right word as its hint, not a second dialect."""
        if not entry.items:
            return True
        value = str(entry.items[0]) if len(entry.items) == 1 else ""
        if value in FLAG_WORDS:
            return FLAG_WORDS[value]
        meant = _FLAG_MISSPELLINGS.get(value.lower())
        if meant is not None:
            self.error(entry.items_span(), "CS0301", f"'{entry.name}' is written yes or no, not '{value}'",
                       f"write {entry.name}: {meant}")
            return meant == "yes"
        self.error(entry.items_span(), "CS0301", f"'{entry.name}' must be yes or no")
        return False

    def int_range(self, entry: Entry) -> tuple[int | None, int | None] | None:
        value = self.expr(entry, f"'{entry.name}'")
        if value is None:
            return None
        if isinstance(value, ir.Num) and value.den == 1:
            return value.num, value.num
        if isinstance(value, ir.RangeExpr) and all(
                b is None or (isinstance(b, ir.Num) and b.den == 1) for b in (value.low, value.high)):
            low = value.low.num if isinstance(value.low, ir.Num) else None
            high = value.high.num if isinstance(value.high, ir.Num) else None
            return low, high
        self.error(entry.items_span(), "CS0301", f"'{entry.name}' must be a whole number or a range like 2..4")
        return None

    def player_range(self, entry: Entry) -> tuple[int, int] | None:
        """`players: 2` or `players: 2..4`, each count from 1 to MAX_PLAYERS."""
        bounds = self.int_range(entry)
        if bounds is None:
            return None
        low, high = bounds
        low = 1 if low is None else low
        high = low if high is None else high
        if not (1 <= low <= high <= MAX_PLAYERS):
            shown = str(low) if low == high else f"{low}..{high}"
            self.error(entry.items_span(), "CS0301", f"a game is played by 1 to {MAX_PLAYERS} players, not {shown}",
                       "write players: 2, or a range like players: 2..4")
            return None
        return low, high

    def unknown(self, entry: Entry, where: str, allowed: Iterable[str]) -> None:
        kind = "property" if entry.is_prop else "entry"
        allowed = list(allowed)
        hint = did_you_mean(entry.name, allowed)
        if hint is None and allowed:
            hint = "expected one of: " + ", ".join(sorted(allowed)[:12])
        self.error(entry.head_span(), "CS0203", f"unknown {kind} '{entry.name}' in {where}", hint)

    def _walk(self, entry: Entry, where: str, handlers: dict[str, Callable[[Entry], None]]) -> None:
        for sub in entry.block or []:
            handler = handlers.get(sub.name)
            if handler is None:
                self.unknown(sub, where, handlers)
            else:
                handler(sub)

    def _declaration_failed(self, entry: Entry, exc: ExprSyntaxError) -> None:
        """The declaration is dropped, but its name stays known as broken (see `broken`),
        and the error says why its uses are not reported one by one."""
        name = self._first_word(entry)
        if name is not None and entry.name in DECLARING_HEADS:
            self.broken.add(name)
            exc.hint = exc.hint or f"{entry.name} '{name}' is left out until this is fixed; its uses are not checked"

    def _needs_block(self, entry: Entry) -> bool:
        if entry.block is None:
            self.error(entry.span(), "CS0204", f"'{entry.name}' needs a {{ }} block")
            return False
        return True

    def _string_item(self, entry: Entry, index: int = 0) -> str | None:
        if len(entry.items) > index and entry.items[index].type in ("STRING", "LONG_STRING"):
            return unescape(str(entry.items[index]))
        return None

    def _card_size(self, e: Entry, fields: dict[str, Any]) -> None:
        """`card_size: poker` or `63mm x 88mm`, into `fields` (card_size, card_width_mm,
        card_height_mm): read alike for the game's size and a card type's own `size:`."""
        if len(e.items) == 1 and e.items[0].type == "WORD":
            size = str(e.items[0]).lower()
            if size not in CARD_SIZES_MM:
                self.error(e.items_span(), "CS0202", f"unknown card size '{size}'",
                           did_you_mean(size, CARD_SIZES_MM) or
                           "use " + ", ".join(CARD_SIZES_MM) + " or 63mm x 88mm")
                return
            fields["card_size"] = size
            fields["card_width_mm"], fields["card_height_mm"] = CARD_SIZES_MM[size]
            return
        try:
            width, height = self.parse_tail(e, "size_tail")
        except ExprSyntaxError as exc:
            self._expr_error(exc, e, "the card size")
            return
        if not (isinstance(width, ir.Dim) and isinstance(height, ir.Dim)):
            self.error(e.items_span(), "CS0301", "a custom card size is written 63mm x 88mm")
            return
        if not (10 <= width.mm <= 300 and 10 <= height.mm <= 300):
            self.error(e.items_span(), "CS0301", "card sizes must be between 10mm and 300mm a side")
            return
        fields["card_size"] = "custom"
        fields["card_width_mm"], fields["card_height_mm"] = width.mm, height.mm

