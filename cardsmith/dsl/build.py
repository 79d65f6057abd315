"""Build the typed IR from raw entries.

One pass per file turns entries into IR declarations according to their head word.
Property values are parsed per their declared kind; unknown properties, misplaced
entries and bad words become diagnostics (with "did you mean"), and building goes on
so that one run reports everything. Phrase statements are resolved here against the
pattern table that `collect_signatures` gathered from every file first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from lark import Token

from cardsmith.dsl import fastexpr, fastpath, ir
from cardsmith.dsl.diagnostics import DiagnosticSink, did_you_mean
from cardsmith.dsl.exprparse import (
    TOO_LARGE_HINT,
    ExprSyntaxError,
    merge,
    number_too_large,
    parse_words,
    unescape,
)
from cardsmith.dsl.phrases import Pattern, PatternError, PatternTable, compile_pattern, matches
from cardsmith.dsl.rulekeys import KINDS, rule_name
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.dsl.structure import MAX_DEPTH, Entry
from cardsmith.util.fastmodel import construct, span_of_token
from cardsmith.values import MAX_COPIES

STATEMENT_HEADS = {
    "let", "set", "increase", "decrease", "if", "elif", "else", "for", "repeat", "while",
    "choose", "simultaneously", "emit", "cancel", "return", "perform", "expect",
}

CARD_SIZES_MM = {
    "poker": (63.0, 88.0), "bridge": (57.0, 89.0), "mini": (44.0, 63.0), "tarot": (70.0, 120.0),
    "square": (70.0, 70.0), "tall": (133.35, 101.6),
}

TOP_LEVEL = (
    "game", "expansion", "param", "mode", "enum", "counter", "status", "zone", "board", "cardtype",
    "card", "keyword", "event", "procedure", "native", "function", "setup", "turn", "round",
    "action", "check", "scoring", "heuristic", "deck", "layout", "sheet", "reference", "scenario",
    "on", "before", "after", "instead", "coverage",
)

# `{name}` in a keyword's reminder text (as in phrase patterns).
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# The most players a game (or a mode) may declare.
MAX_PLAYERS = 16
# The largest font size a layout may ask for (a whole poker card is about 250pt high).
MAX_FONT_PT = 200.0

KEYWORD_LIKE = {"true", "false", "none"}
# Declarations that introduce a name rules refer to (see Builder.broken).
DECLARING_HEADS = frozenset({"param", "enum", "counter", "status", "zone", "board", "cardtype", "keyword", "event",
                             "procedure", "native", "function", "action"})
# Words the expression grammar reserves (determiners and connectives), which therefore
# cannot be variable names.
RESERVED_NAMES = {"a", "an", "each", "every", "another", "one", "and", "or", "not", "in", "is", "of",
                  "if", "then", "else", "where", "from", "by", "to"}
# Properties every card may have, whatever its type.
CARD_PROPERTIES = ("type", "text", "flavour", "art", "copies", "keywords", "play")


@dataclass
class Signature:
    """What the builder must know about a procedure before building any body."""

    name: str
    params: list[ir.Param]
    native: bool


@dataclass
class CardTypeInfo:
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


class Builder:
    """Entries of all files → IR declarations."""

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
        self.error(src.span(exc.offset, exc.offset + 1), "CS0101", f"{exc.message} in {what}", exc.hint)

    # ------------------------------------------------------------ signatures (pass 1)

    def collect_signatures(self, entries: Iterable[Entry]) -> None:
        """Gather procedure signatures and card type schemas before building bodies."""
        for entry in entries:
            self.source = entry.source or self.source
            head = entry.name
            if entry.is_prop:
                continue
            if head in ("procedure", "native"):
                self._collect_procedure(entry)
            elif head == "cardtype" and entry.block is not None:
                name = self._first_word(entry)
                if name:
                    info = CardTypeInfo(set(), set())
                    for sub in entry.block:
                        if sub.name in ("stats", "properties") and sub.block:
                            target = info.stats if sub.name == "stats" else info.properties
                            target.update(s.name for s in sub.block)
                    self.cardtypes.setdefault(name, info)

    def _collect_procedure(self, entry: Entry) -> None:
        try:
            name, params, pattern_tokens = self.parse_tail(entry, "proc_tail")
        except ExprSyntaxError:
            self._salvage_phrases(entry)  # the error is reported when declarations are built
            return
        proc = str(name)
        if proc in self.signatures:
            return  # the duplicate is reported when declarations are built
        self.signatures[proc] = Signature(proc, params, entry.name == "native")
        param_names = {p.name for p in params}
        for tok in pattern_tokens:
            text = unescape(str(tok))
            try:
                self.patterns.add(compile_pattern(proc, text, param_names))
            except PatternError as exc:
                self.error(self._tok_span(entry, tok), "CS0602", f"bad phrase pattern: {exc}")

    def _salvage_phrases(self, entry: Entry) -> None:
        """A procedure whose header does not parse is still known by name, and its phrase
        patterns (the quoted strings of the header) still match its uses: so those uses
        neither become "unknown statement" errors nor bind to some other procedure."""
        name = self._first_word(entry)
        if name is None or name in self.signatures:
            return
        self.broken.add(name)
        for tok in entry.items:
            if tok.type == "STRING":
                text = unescape(str(tok))
                try:
                    self.patterns.add(compile_pattern(name, text, set(_PLACEHOLDER.findall(text))))
                except PatternError:
                    continue

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
        """An expression from a token slice (common shapes skip the grammar: see fastpath)."""
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
        if not entry.items:
            return True
        value = str(entry.items[0]).lower() if len(entry.items) == 1 else ""
        if value in ("yes", "true", "on"):
            return True
        if value in ("no", "false", "off"):
            return False
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

    # ------------------------------------------------------------ files (pass 2)

    def build_file(self, entries: list[Entry]) -> None:
        for entry in entries:
            self.source = entry.source or self.source
            self.build_top(entry)

    def build_top(self, entry: Entry) -> None:
        builder = getattr(self, f"top_{entry.name}", None)
        if builder is None or entry.is_prop:
            hint = did_you_mean(entry.name, TOP_LEVEL)
            if entry.is_prop:
                hint = hint or "properties belong inside a declaration's { } block"
            self.error(entry.head_span(), "CS0205",
                       f"'{entry.name}' cannot start a declaration", hint or
                       "declarations start with: " + ", ".join(TOP_LEVEL[:14]) + ", ...")
            return
        try:
            builder(entry)
        except ExprSyntaxError as exc:
            self._declaration_failed(entry, exc)
            self._expr_error(exc, entry, f"the {entry.name} declaration")

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

    # ---- game, expansion, param, mode
    def top_game(self, entry: Entry) -> None:
        name = self._string_item(entry)
        if name is None:
            self.error(entry.span(), "CS0204", "a game needs a quoted name", 'write game "My Game" { ... }')
            return
        if not self._needs_block(entry):
            return
        fields: dict[str, Any] = {"name": name, "id": _identifier(name)}

        def players(e: Entry) -> None:
            bounds = self.player_range(e)
            if bounds:
                fields["players_min"], fields["players_max"] = bounds

        def card_size(e: Entry) -> None:
            self._card_size(e, fields)

        def set_text(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                value = self.text(e)
                if value is not None:
                    fields[key] = value
            return go

        def set_word(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                value = self.word(e)
                if value is not None:
                    fields[key] = value
            return go

        self._walk(entry, "game", {
            "id": set_word("id"), "players": players, "card_size": card_size,
            "version": set_text("version"), "description": set_text("description"),
            "first_player": set_word("first_player"), "turn_limit": lambda e: self._turn_limit(e, fields),
        })
        self.parts.games.append(ir.GameDecl(span=entry.span(), **fields))

    def _turn_limit(self, e: Entry, fields: dict[str, Any]) -> None:
        """`turn_limit: 500`: the turns (or rounds) a match may last before it stops
        without a winner — a whole number from 1 to ir.MAX_TURN_LIMIT."""
        item = e.items[0] if len(e.items) == 1 else None
        if item is not None and item.type == "NUMBER" and "." not in item and not number_too_large(item) \
                and 1 <= int(item) <= ir.MAX_TURN_LIMIT:
            fields["turn_limit"] = int(item)
            return
        written = e.items_text() or "nothing"
        self.error(e.items_span(), "CS0301",
                   f"turn_limit must be a whole number from 1 to {ir.MAX_TURN_LIMIT:,}, not {written}",
                   f"a match stops without a winner after this many turns (default {ir.DEFAULT_TURN_LIMIT:,}); "
                   "write turn_limit: 500")

    def _card_size(self, e: Entry, fields: dict[str, Any]) -> None:
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

    def top_expansion(self, entry: Entry) -> None:
        name = self._string_item(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "an expansion needs a quoted name and a block")
            return
        fields: dict[str, Any] = {"name": name, "base": ""}

        def base(e: Entry) -> None:
            value = self.word(e)
            if value:
                fields["base"] = value

        def version(e: Entry) -> None:
            value = self.text(e)
            if value:
                fields["version"] = value

        self._walk(entry, "expansion", {"base": base, "version": version})
        if not fields["base"]:
            self.error(entry.span(), "CS0204", "an expansion must name its base game",
                       "add base: game_id")
        self.parts.expansions.append(ir.ExpansionDecl(span=entry.span(), **fields))
        self.expansion = name

    def top_param(self, entry: Entry) -> None:
        # param NAME[: type] = value  (the structure layer splits at ':' only for props)
        tokens = entry.items
        if not tokens or tokens[0].type != "WORD":
            self.error(entry.span(), "CS0204", "write param name: number = 15")
            return
        name = str(tokens[0])
        eq = next((i for i, t in enumerate(tokens) if str(t) == "="), None)
        if eq is None or eq == len(tokens) - 1:
            self.error(entry.span(), "CS0204", f"param '{name}' needs a value", f"write param {name} = 15")
            return
        # without a type the param holds whatever its value is (docs: any expression type)
        type_name = " ".join(str(t) for t in tokens[1:eq] if t.type == "WORD") or "any"
        value: ir.Expr
        try:
            value = self.tokens_expr(entry, tokens[eq + 1:])
        except ExprSyntaxError as exc:
            # reported; the param is still declared, so its uses are not "unknown names"
            self._expr_error(exc, entry, f"param '{name}'")
            value = construct(ir.Num, span=entry.span(), num=0, den=1)
        self.parts.add("params", ir.ParamDecl(span=entry.span(), name=name, type=type_name, value=value))

    def top_mode(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write mode name "Label" { ... }')
            return
        label = self._string_item(entry, 1) or name
        fields: dict[str, Any] = {"name": name, "label": label, "overrides": {}}
        for sub in entry.block or []:
            if sub.name == "players":
                bounds = self.player_range(sub)
                if bounds:
                    fields["players_min"], fields["players_max"] = bounds
            elif sub.is_prop:
                value = self.expr(sub, f"mode '{name}'")
                if value is not None:
                    fields["overrides"][sub.name] = value
            else:
                self.error(sub.head_span(), "CS0205", "a mode holds only 'param: value' overrides")
        self.parts.add("modes", ir.ModeDecl(span=entry.span(), **fields))

    # ---- enum, counter, status, zone, board
    def top_enum(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "write enum Name { a; b; c }")
            return
        values: list[ir.EnumValue] = []
        for sub in entry.block or []:
            if sub.is_prop:
                self.error(sub.head_span(), "CS0205", "enum values are names, optionally with a { } block",
                           f"write {sub.name} {{ ... }}")
                continue
            extra = [t for t in sub.items if t.type != "COMMA"]
            names = [sub.head] + [t for t in extra if t.type == "WORD"]
            if len(names) != len(extra) + 1:
                self.error(sub.items_span(), "CS0301", "enum values are plain names")
            props: dict[str, ir.Expr] = {}
            for prop in sub.block or []:
                if not prop.is_prop:
                    self.error(prop.head_span(), "CS0205", "enum value blocks hold 'name: value' properties")
                    continue
                value = self.expr(prop, f"enum value '{sub.name}'")
                if value is not None:
                    props[prop.name] = value
            for tok in names:
                span = sub.source.span(tok.start_pos or 0, tok.end_pos or 0) if sub.source else sub.span()
                values.append(ir.EnumValue(span=span, name=str(tok), properties=props))
        self.parts.add("enums", ir.EnumDecl(span=entry.span(), name=name, values=values))

    def _scope(self, entry: Entry, allowed: tuple[str, ...]) -> tuple[str, str] | None:
        try:
            name, scope = self.parse_tail(entry, "scope_tail")
        except ExprSyntaxError as exc:
            self._declaration_failed(entry, exc)
            self._expr_error(exc, entry, f"the {entry.name} declaration")
            return None
        scope = scope or "shared"
        if scope not in allowed:
            self.error(entry.items_span(), "CS0301", f"a {entry.name} is '{' or '.join(allowed)}'",
                       did_you_mean(scope, allowed))
            return None
        return str(name), scope

    def top_counter(self, entry: Entry) -> None:
        got = self._scope(entry, ("player", "card", "shared"))
        if got is None:
            return
        name, scope = got
        span = entry.span()
        fields: dict[str, Any] = {"name": name, "scope": scope,
                                  "start": ir.Num(span=span, num=0)}
        self._counter_props(entry, fields, "counter", ("start", "min", "max"))
        self.parts.add("counters", ir.CounterDecl(span=span, **fields))

    def _counter_props(self, entry: Entry, fields: dict[str, Any], what: str,
                       exprs: tuple[str, ...]) -> None:
        def expr_field(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                value = self.expr(e, f"'{key}'")
                if value is not None:
                    fields[key] = value
            return go

        def reset(e: Entry) -> None:
            words = " ".join(str(t) for t in e.items)
            allowed = ("start of turn", "end of turn", "start of round", "end of round", "never")
            if words not in allowed:
                self.error(e.items_span(), "CS0301", f"unknown reset time '{words}'",
                           did_you_mean(words, allowed) or "use: " + ", ".join(allowed))
                return
            fields["reset"] = words

        def label(e: Entry) -> None:
            value = self.text(e)
            if value is not None:
                fields["label"] = value

        handlers: dict[str, Callable[[Entry], None]] = {k: expr_field(k) for k in exprs}
        handlers.update({"reset": reset, "label": label})
        if entry.block is not None:
            self._walk(entry, what, handlers)

    def top_status(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None:
            self.error(entry.span(), "CS0204", "write status name")
            return
        fields: dict[str, Any] = {"name": name}
        if len(entry.items) > 1 and not (len(entry.items) == 3 and str(entry.items[1]) == "per"
                                         and str(entry.items[2]) == "card"):
            self.error(entry.items_span(), "CS0301", "a status is per card", f"write status {name}")
        self._counter_props(entry, fields, "status", ())
        self.parts.add("statuses", ir.StatusDecl(span=entry.span(), **fields))

    def top_zone(self, entry: Entry) -> None:
        got = self._scope(entry, ("player", "shared"))
        if got is None:
            return
        name, scope = got
        fields: dict[str, Any] = {"name": name, "scope": scope}

        def flag(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                fields[key] = self.flag(e)
            return go

        def visibility(e: Entry) -> None:
            value = self.word(e)
            if value is None:
                return
            if value not in ("hidden", "owner", "public"):
                self.error(e.items_span(), "CS0301", f"unknown visibility '{value}'",
                           did_you_mean(value, ("hidden", "owner", "public")) or
                           "use hidden, owner or public")
                return
            fields["visibility"] = value

        def capacity(e: Entry) -> None:
            fields["capacity"] = self.expr(e, "'capacity'")

        def board(e: Entry) -> None:
            fields["board"] = self.word(e)

        def label(e: Entry) -> None:
            fields["label"] = self.text(e) or ""

        def removed_stack(e: Entry) -> None:
            # removed: nothing but "at most one" read it — the engine keeps the effects
            # waiting to resolve itself, never as cards in a zone
            self.error(e.head_span(), "CS0206", "'stack' on a zone is not part of the language any more",
                       "remove it: effects of `speed: stack` moves wait on the engine's own stack (the "
                       "play screen shows them); a zone your rules move cards to while they wait is an "
                       "ordinary zone")

        if entry.block is not None:
            self._walk(entry, f"zone '{name}'", {
                "ordered": flag("ordered"), "stack": removed_stack, "visibility": visibility,
                "capacity": capacity, "board": board, "label": label,
                "hidden": lambda e: fields.__setitem__("visibility", "hidden"),
                "public": lambda e: fields.__setitem__("visibility", "public"),
                "owner": lambda e: fields.__setitem__("visibility", "owner"),
            })
        self.parts.add("zones", ir.ZoneDecl(span=entry.span(), **fields))

    def top_board(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "write board name { size: 22 x 20 ... }")
            return
        fields: dict[str, Any] = {"name": name, "width": 0, "height": 0, "regions": []}

        def size(e: Entry) -> None:
            try:
                w, h = self.parse_tail(e, "size_tail")
            except ExprSyntaxError as exc:
                self._expr_error(exc, e, "the board size")
                return
            if not (isinstance(w, ir.Num) and isinstance(h, ir.Num) and w.den == h.den == 1
                    and 1 <= w.num <= 200 and 1 <= h.num <= 200):
                self.error(e.items_span(), "CS0301", "a board size is two whole numbers from 1 to 200",
                           "write size: 22 x 20")
                return
            fields["width"], fields["height"] = w.num, h.num

        def region(e: Entry) -> None:
            rname = self._first_word(e)
            if rname is None or e.block is None:
                self.error(e.span(), "CS0204", "write region name { cells: (0, 0) .. (4, 19) }")
                return
            cells: list[ir.CellRect] = []
            props: dict[str, ir.Expr] = {}
            for p in e.block:
                if p.name == "cells" and p.is_prop:
                    cells.extend(self._cells(p))
                elif p.is_prop:
                    value = self.expr(p, f"region '{rname}'")
                    if value is not None:
                        props[p.name] = value
                else:
                    self.error(p.head_span(), "CS0205", "a region holds 'name: value' properties")
            fields["regions"].append(ir.RegionDecl(span=e.span(), name=rname, cells=cells, properties=props))

        self._walk(entry, f"board '{name}'", {"size": size, "region": region})
        if not fields["width"]:
            self.error(entry.span(), "CS0204", f"board '{name}' needs a size", "add size: 22 x 20")
        self.parts.add("boards", ir.BoardDecl(span=entry.span(), **fields))

    def _cells(self, entry: Entry) -> list[ir.CellRect]:
        """`(x, y)` and `(x, y) .. (x, y)` separated by commas at depth 0."""
        groups: list[list[Token]] = [[]]
        depth = 0
        for tok in entry.items:
            if tok.type in ("LPAR", "LSQB"):
                depth += 1
            elif tok.type in ("RPAR", "RSQB"):
                depth -= 1
            if tok.type == "COMMA" and depth == 0:
                groups.append([])
            else:
                groups[-1].append(tok)
        out: list[ir.CellRect] = []
        for group in groups:
            if not group:
                continue
            try:
                value = self.tokens_expr(entry, group)
            except ExprSyntaxError as exc:
                self._expr_error(exc, entry, "the cells")
                continue
            if isinstance(value, ir.RangeExpr) and value.low is not None and value.high is not None:
                a, b = self._cell(value.low, entry), self._cell(value.high, entry)
                if a and b:
                    out.append(ir.CellRect(span=value.span, start=a, end=b))
            else:
                c = self._cell(value, entry)
                if c:
                    out.append(ir.CellRect(span=value.span, start=c, end=c))
        return out

    def _cell(self, value: ir.Expr, entry: Entry) -> ir.Cell | None:
        items = value.items if isinstance(value, ir.ListExpr) else []
        if len(items) == 2 and all(isinstance(i, ir.Num) and i.den == 1 for i in items):
            x, y = items
            assert isinstance(x, ir.Num) and isinstance(y, ir.Num)
            return ir.Cell(span=value.span, x=x.num, y=y.num)
        self.error(value.span, "CS0301", "a cell is written [x, y]", "e.g. cells: [0, 0] .. [4, 19]")
        return None

    # ---- card types and cards
    def top_cardtype(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "write cardtype Name { stats { ... } }")
            return
        fields: dict[str, Any] = {"name": name, "singular": name.lower(), "plural": name.lower() + "s",
                                  "stats": [], "properties": [], "enters_with": []}

        def fielddefs(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                for f in e.block or []:
                    if not f.is_prop:
                        self.error(f.head_span(), "CS0205", f"write {f.name}: number = 0")
                        continue
                    try:
                        type_name, default = self.parse_tail(f, "type_tail")
                    except ExprSyntaxError as exc:
                        self._expr_error(exc, f, f"{key} '{f.name}'")
                        continue
                    fields[key].append(ir.FieldDef(span=f.span(), name=f.name, type=type_name,
                                                   default=default))
            return go

        def word_field(key: str) -> Callable[[Entry], None]:
            def go(e: Entry) -> None:
                value = self.word(e)
                if value is not None:
                    fields[key] = value
            return go

        def enters_with(e: Entry) -> None:
            fields["enters_with"] = self.words(e)

        def token(e: Entry) -> None:
            fields["token"] = self.expr(e, "'token'")

        def size(e: Entry) -> None:
            sized: dict[str, Any] = {}
            self._card_size(e, sized)
            if "card_size" in sized:
                fields["size"] = sized["card_size"] if sized["card_size"] != "custom" else \
                    f"{sized['card_width_mm']}x{sized['card_height_mm']}"

        self._walk(entry, f"cardtype '{name}'", {
            "stats": fielddefs("stats"), "properties": fielddefs("properties"),
            "enters": word_field("enters"), "enters_with": enters_with, "layout": word_field("layout"),
            "size": size, "token": token, "plural": word_field("plural"),
            "singular": word_field("singular"),
        })
        self.parts.add("cardtypes", ir.CardTypeDecl(span=entry.span(), **fields))

    def top_card(self, entry: Entry) -> None:
        name = self._string_item(entry)
        if name is None:
            self.error(entry.span(), "CS0204", "a card needs a quoted name", 'write card "Name" { ... }')
            return
        if not self._needs_block(entry):
            return
        fields: dict[str, Any] = {"name": name, "type": "", "stats": {}, "properties": {},
                                  "keywords": [], "abilities": [], "expansion": self.expansion}
        block = entry.block or []
        type_entry = next((e for e in block if e.name == "type" and e.is_prop), None)
        info: CardTypeInfo | None = None
        if type_entry is None:
            self.error(entry.span(), "CS0204", f"card '{name}' has no type",
                       "add type: Unit (a declared cardtype)")
        else:
            type_name = self.word(type_entry)
            if type_name:
                fields["type"] = type_name
                info = self.cardtypes.get(type_name)
                if info is None:
                    self.error(type_entry.items_span(), "CS0202", f"unknown card type '{type_name}'",
                               did_you_mean(type_name, self.cardtypes))
        given: dict[str, Entry] = {}
        for sub in block:
            # `keywords:` may be given once per printed section; any other property once
            if sub.is_prop and sub.name != "keywords":
                first = given.setdefault("flavour" if sub.name == "flavor" else sub.name, sub)
                if first is not sub:
                    where = first.head_span()
                    self.error(sub.head_span(), "CS0201", f"card '{name}' gives '{sub.name}' twice",
                               f"first given at line {where.line}; remove one")
                    continue
            self._card_entry(sub, fields, info, name)
        self.parts.add("cards", construct(ir.CardDecl, span=entry.span(), **fields))

    def _card_entry(self, sub: Entry, fields: dict[str, Any], info: CardTypeInfo | None,
                    card: str) -> None:
        key = sub.name
        if sub.is_prop:
            if key == "type":
                return
            if key in ("text", "flavour", "flavor", "art"):
                fields["flavour" if key == "flavor" else key] = self.text(sub)
            elif key == "copies":
                copies = self.integer(sub)
                if copies is not None and copies > MAX_COPIES:  # `create every copy` makes them all
                    self.error(sub.items_span(), "CS0301", f"{copies:,} copies is too many",
                               f"a card has at most {MAX_COPIES:,} copies (docs/language.md, Limits)")
                elif copies is not None:
                    fields["copies"] = copies
            elif key == "keywords":
                fields["keywords"].extend(self.keyword_uses(sub))
            elif key == "attach":
                # removed: nothing ever read it (a card was played unattached); the rules
                # that play a card attach it, with the host chosen like any target
                self.error(sub.head_span(), "CS0206", "'attach:' on a card is not part of the language any more",
                           "write the attachment in the action that plays the card: "
                           "choose t from a matching card, then attach c to t")
            elif key == "play":
                fields["play_condition"] = self.expr(sub, "'play'")
            elif info is not None and key in info.stats:
                value = self.expr(sub, f"stat '{key}'")
                if value is not None:
                    fields["stats"][key] = value
            elif info is not None and key in info.properties:
                value = self.expr(sub, f"property '{key}'")
                if value is not None:
                    fields["properties"][key] = value
            elif info is not None:
                allowed = [*info.stats, *info.properties, *CARD_PROPERTIES]
                self.unknown(sub, f"card '{card}' (a {fields['type']})", allowed)
            return
        ability = self.ability(sub, card)
        if ability is not None:
            fields["abilities"].append(ability)

    def keyword_uses(self, entry: Entry) -> list[ir.KeywordUse]:
        assert entry.source is not None
        try:
            uses = fastpath.keyword_list(entry.source, entry.items) or \
                self.parse_tail(entry, "keyword_list")
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, "the keyword list")
            return []
        out = []
        for tok, args in uses:
            span = self._tok_span(entry, tok)
            if args:
                span = merge(span, args[-1].span)
            out.append(construct(ir.KeywordUse, span=span, name=str(tok), args=args))
        return out

    # ---- abilities
    ABILITY_HEADS = ("effect", "on", "activate", "static", "before", "after", "instead")

    def ability(self, entry: Entry, owner: str) -> ir.Ability | None:
        head = entry.name
        try:
            if head == "effect":
                if entry.items:
                    self.error(entry.items_span(), "CS0301", "write effect { ... }")
                return construct(ir.Effect, span=entry.span(), body=self.body(entry))
            if head == "on":
                return self.trigger(entry)
            if head in ("before", "after", "instead"):
                return self.hook(entry)
            if head == "activate":
                return self.activated(entry)
            if head == "static":
                return self.static(entry)
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, f"'{head}'")
            return None
        self.unknown(entry, f"'{owner}'", self.ABILITY_HEADS)
        return None

    def trigger(self, entry: Entry) -> ir.Trigger:
        event, binds, cond = self.parse_tail(entry, "trigger_tail")
        zones: list[str] = []
        body: list[ir.Stmt] = []
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "zones":
                zones = self.words(sub)
            else:
                rest.append(sub)
        if entry.block is None:
            self.error(entry.span(), "CS0204", "a trigger needs a { } block")
        body = self.statements(rest, entry)
        return ir.Trigger(span=entry.span(), event=str(event), bindings=[str(b) for b in binds],
                          condition=cond, zones=zones, body=body)

    def hook(self, entry: Entry) -> ir.Hook:
        when = entry.name
        if when == "instead" and not (entry.items and str(entry.items[0]) == "of"):
            self.error(entry.span(), "CS0101", "write 'instead of procedure { ... }'")
        proc, cond = self.parse_tail(entry, "hook_tail")
        return ir.Hook(span=entry.span(), when=when, procedure=str(proc), condition=cond,
                       body=self.body(entry))

    def _speed(self, e: Entry, fields: dict[str, Any]) -> None:
        value = self.word(e)
        if value in ("immediate", "stack", "instant"):
            fields["speed"] = value
        elif value is not None:
            self.error(e.items_span(), "CS0301", f"unknown speed '{value}'",
                       did_you_mean(value, ("immediate", "stack", "instant")) or
                       "use immediate, stack or instant")

    def activated(self, entry: Entry) -> ir.Activated:
        label = self._string_item(entry) or "Activate"
        fields: dict[str, Any] = {"label": label, "cost": [], "body": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "speed":
                self._speed(sub, fields)
            elif sub.is_prop and sub.name == "condition":
                fields["condition"] = self.expr(sub, "'condition'")
            elif sub.name == "cost" and not sub.is_prop:
                fields["cost"] = self.body(sub)
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        return ir.Activated(span=entry.span(), **fields)

    def static(self, entry: Entry) -> ir.Static:
        fields: dict[str, Any] = {"modifiers": [], "grants": []}
        for sub in entry.block or []:
            if sub.is_prop and sub.name in ("target", "affects"):
                fields["target"] = self.expr(sub, "'target'")
            elif sub.is_prop and sub.name in ("while", "condition"):
                fields["condition"] = self.expr(sub, "'while'")
            elif sub.is_prop and sub.name == "grants":
                fields["grants"] = self.keyword_uses(sub)
            elif sub.is_prop:
                value = self._modifier(sub)
                if value is not None:
                    fields["modifiers"].append(value)
            else:
                self.error(sub.head_span(), "CS0205",
                           "a static block holds 'target:', 'while:', 'grants:' and 'stat: +N' lines")
        return ir.Static(span=entry.span(), **fields)

    def _modifier(self, e: Entry) -> ir.Modifier | None:
        if not e.items:
            self.error(e.head_span(), "CS0204", f"write {e.name}: +1")
            return None
        first = str(e.items[0])
        op = first if first in ("+", "-", "=") else "="
        tokens = e.items[1:] if first in ("+", "-", "=") else e.items
        if not tokens:
            self.error(e.items_span(), "CS0204", f"write {e.name}: +1")
            return None
        try:
            value = self.tokens_expr(e, tokens)
        except ExprSyntaxError as exc:
            self._expr_error(exc, e, f"the modifier of '{e.name}'")
            return None
        return ir.Modifier(span=e.span(), stat=e.name, op=op, value=value)

    # ---- keywords, events, procedures, functions
    def top_keyword(self, entry: Entry) -> None:
        name, params = self.parse_tail(entry, "decl_tail")
        fields: dict[str, Any] = {"name": str(name), "params": params, "abilities": []}
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "reminder":
                fields["reminder"] = self.text(sub) or ""
                self._check_reminder(sub, fields["reminder"], str(name), [p.name for p in params])
            elif sub.is_prop:
                self.unknown(sub, f"keyword '{name}'", ("reminder",))
            else:
                ability = self.ability(sub, str(name))
                if ability is not None:
                    fields["abilities"].append(ability)
        self.parts.add("keywords", ir.KeywordDecl(span=entry.span(), **fields))

    def _check_reminder(self, entry: Entry, text: str, keyword: str, params: list[str]) -> None:
        """A reminder's `{name}`s must name the keyword's parameters (as a phrase pattern's
        do); any other brace is an error, since it would be printed as it stands."""
        span = entry.items_span()
        for match in _PLACEHOLDER.finditer(text):
            if match.group(1) not in params:
                listed = ", ".join("{" + p + "}" for p in params)
                self.error(span, "CS0202", f"reminder of '{keyword}' names '{match.group(0)}', "
                           "which is not a parameter",
                           did_you_mean(match.group(1), params) or
                           (f"its parameters are {listed}" if params else f"'{keyword}' has no parameters"))
        rest = _PLACEHOLDER.sub("", text)
        if "{" in rest or "}" in rest:
            self.error(span, "CS0301", f"reminder of '{keyword}' has a stray '{{' or '}}'",
                       "a placeholder is written {name}, naming a parameter of the keyword")

    def top_event(self, entry: Entry) -> None:
        name, params = self.parse_tail(entry, "decl_tail")
        if entry.block is not None:
            self.error(entry.span(), "CS0205", "an event has no block", f"write event {name}(...)")
        self.parts.add("events", ir.EventDecl(span=entry.span(), name=str(name), params=params))

    def top_procedure(self, entry: Entry) -> None:
        name, params, patterns = self.parse_tail(entry, "proc_tail")
        native = entry.name == "native"
        if native and entry.block is not None:
            self.error(entry.span(), "CS0205", "a native procedure has no body")
        if not native and entry.block is None:
            self.error(entry.span(), "CS0204", f"procedure '{name}' needs a {{ }} body")
        body = [] if native else self.body(entry)
        self.parts.add("procedures", ir.ProcedureDecl(
            span=entry.span(), name=str(name), params=params,
            patterns=[unescape(str(p)) for p in patterns], body=body, native=native))

    top_native = top_procedure

    def top_function(self, entry: Entry) -> None:
        name, params, expr = self.parse_tail(entry, "func_tail")
        native = expr is None and entry.block is None
        body = self.body(entry) if entry.block is not None else []
        if expr is not None and entry.block is not None:
            self.error(entry.span(), "CS0205", "a function is either '= expression' or a { } body")
        self.parts.add("functions", ir.FunctionDecl(span=entry.span(), name=str(name), params=params,
                                                    expr=expr, body=body, native=native))

    # ---- flow
    def top_setup(self, entry: Entry) -> None:
        self.parts.add("setup", ir.SetupDecl(span=entry.span(), body=self.body(entry)))

    def top_turn(self, entry: Entry) -> None:
        if not self._needs_block(entry):
            return
        stages = [self.stage(sub) for sub in entry.block or [] if self._is_stage(sub, "stage")]
        self.parts.add("flows", ir.FlowDecl(span=entry.span(), scope=entry.name, stages=stages))

    top_round = top_turn

    def _is_stage(self, sub: Entry, head: str) -> bool:
        if sub.name != head or sub.is_prop:
            self.error(sub.head_span(), "CS0205", f"expected '{head} name {{ ... }}' here",
                       did_you_mean(sub.name, (head,)))
            return False
        return True

    def stage(self, entry: Entry) -> ir.StageDecl:
        name = self._first_word(entry) or "stage"
        fields: dict[str, Any] = {"name": name, "steps": [], "actions": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.name == "step" and not sub.is_prop:
                fields["steps"].append(self.stage(sub))
            elif sub.is_prop and sub.name == "actions":
                fields["actions"] = self.words(sub)
            elif sub.name in ("responses", "simultaneous", "always") and not sub.block:
                fields[sub.name] = self.flag(sub)
            elif sub.name == "automated" and not sub.block:
                # removed: it only restated "no actions: line" and nothing read it
                self.error(sub.head_span(), "CS0206", "'automated' is not part of the language any more",
                           "remove it: a stage without an 'actions:' line runs by itself")
            elif sub.is_prop and sub.name == "pass":
                fields["passing"] = self.flag(sub)
            elif sub.is_prop and sub.name == "skip":
                fields["skip"] = self.expr(sub, "'skip'")
            elif sub.is_prop and sub.name == "label":
                fields["label"] = self.text(sub) or ""
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        return ir.StageDecl(span=entry.span(), **fields)

    def top_action(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None:
            self.error(entry.span(), "CS0204", 'write action name "Label" { ... }')
            return
        label = self._string_item(entry, 1) or name.replace("_", " ").capitalize()
        fields: dict[str, Any] = {"name": name, "label": label, "cost": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "by":
                value = self.word(sub)
                if value in ("current", "any", "responder"):
                    fields["by"] = value
                elif value is not None:
                    self.error(sub.items_span(), "CS0301", f"unknown actor '{value}'",
                               "use current, any or responder")
            elif sub.is_prop and sub.name == "during":
                # removed: it restated the stages' 'actions:' lists, and nothing checked they agreed
                self.error(sub.head_span(), "CS0206", "'during:' is not part of the language any more",
                           f"list '{name}' in the 'actions:' line of each stage where it may be taken")
            elif sub.is_prop and sub.name == "speed":
                self._speed(sub, fields)
            elif sub.is_prop and sub.name in ("condition", "limit"):
                fields[sub.name] = self.expr(sub, f"'{sub.name}'")
            elif sub.name == "cost" and not sub.is_prop:
                fields["cost"] = self.body(sub)
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        self.parts.add("actions", ir.ActionDecl(span=entry.span(), **fields))

    def top_check(self, entry: Entry) -> None:
        label = self._string_item(entry) or "check"
        self.parts.add("checks", ir.CheckDecl(span=entry.span(), name=label, body=self.body(entry)))

    def top_scoring(self, entry: Entry) -> None:
        score: ir.Expr | None = None
        tiebreak: list[ir.Expr] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "score":
                score = self.expr(sub, "'score'")
            elif sub.is_prop and sub.name == "tiebreak":
                value = self.expr(sub, "'tiebreak'")
                if value is not None:
                    tiebreak.append(value)
            else:
                self.unknown(sub, "scoring", ("score", "tiebreak"))
        if score is None:
            self.error(entry.span(), "CS0204", "scoring needs a 'score:' expression")
            return
        self.parts.scoring.append(ir.ScoringDecl(span=entry.span(), score=score, tiebreak=tiebreak))

    def top_coverage(self, entry: Entry) -> None:
        """`coverage { action concede: "random agents never concede" }`: rules the
        dead-rule report may find never happening, each with its reason. The keys are
        checked against the game's rules by the checker (they may name a card or keyword
        of any file)."""
        if entry.items:
            self.error(entry.items_span(), "CS0205", "a coverage block takes no name", "write coverage { ... }")
        if not self._needs_block(entry):
            return
        for sub in entry.block or []:
            exclusion = self._coverage_line(sub)
            if exclusion is not None:
                self.parts.add("coverage", exclusion)

    def _coverage_line(self, sub: Entry) -> ir.CoverageExclusion | None:
        example = 'write KIND NAME: "why simulated matches never see it", e.g. action concede: "agents never concede"'
        if sub.is_prop or sub.block is not None:
            self.error(sub.head_span(), "CS0205", f"'{sub.name}' does not name a rule here", example)
            return None
        colons = [i for i, t in enumerate(sub.items) if t.type == "PCOLON"]
        key_tokens = sub.items[:colons[-1]] if colons else sub.items
        words: list[tuple[str, bool]] = [(sub.name, False)]
        for tok in key_tokens:
            if tok.type in ("STRING", "LONG_STRING"):
                words.append((unescape(str(tok)), True))
            elif tok.type in ("WORD", "NUMBER") or str(tok) == ".":
                words.append((str(tok), False))
            else:
                self.error(self._tok_span(sub, tok), "CS0301", f"'{tok}' cannot be part of a rule's name", example)
                return None
        name = rule_name(words)
        src = sub.source
        assert src is not None
        last = key_tokens[-1] if key_tokens else sub.head
        span = src.span(sub.head.start_pos or 0, last.end_pos or 0)
        if sub.name not in KINDS:
            self.error(sub.head_span(), "CS0202", f"unknown kind of rule '{sub.name}'",
                       did_you_mean(sub.name, KINDS) or "a rule is one of: " + ", ".join(KINDS))
            return None
        reason_tokens = sub.items[colons[-1] + 1:] if colons else []
        reason = "".join(unescape(str(t)) for t in reason_tokens) \
            if reason_tokens and all(t.type in ("STRING", "LONG_STRING") for t in reason_tokens) else None
        if not reason or not reason.strip():
            self.error(span if not reason_tokens else self._tok_span(sub, reason_tokens[0]), "CS0204",
                       f"'{name}' is excluded without a reason",
                       f'say why simulated matches never see it: {name}: "..."')
            return None
        return ir.CoverageExclusion(span=span, rule=name, reason=reason)

    def top_heuristic(self, entry: Entry) -> None:
        value: ir.Expr | None = None
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "value":
                value = self.expr(sub, "'value'")
            else:
                self.unknown(sub, "heuristic", ("value",))
        if value is None:
            self.error(entry.span(), "CS0204", "a heuristic needs a 'value:' expression")
            return
        self.parts.heuristic.append(ir.HeuristicDecl(span=entry.span(), value=value))

    def top_deck(self, entry: Entry) -> None:
        if not self._needs_block(entry):
            return
        fields: dict[str, Any] = {"sections": [], "requirements": [], "summaries": []}
        for sub in entry.block or []:
            key = sub.name
            if key == "section" and not sub.is_prop:
                fields["sections"].append(self._deck_section(sub))
            elif key == "summary" and not sub.is_prop:
                label = self._string_item(sub)
                if label is None or sub.block is None:
                    self.error(sub.span(), "CS0204", 'write summary "Label" { field: expression }')
                    continue
                values: dict[str, ir.Expr] = {}
                for f in sub.block:
                    if not f.is_prop:
                        self.error(f.head_span(), "CS0205", "a summary holds 'name: expression' lines")
                        continue
                    value = self.expr(f, f"summary field '{f.name}'")
                    if value is not None:
                        values[f.name] = value
                fields["summaries"].append(ir.DeckSummary(span=sub.span(), label=label, fields=values))
            elif sub.is_prop and key in ("size", "copies", "allow", "excluded"):
                fields[key] = self.expr(sub, f"'{key}'")
            elif key in ("require", "forbid") and not sub.is_prop:
                message = self._string_item(sub)
                if message is None or len(sub.items) < 3 or str(sub.items[1]) != ":":
                    self.error(sub.span(), "CS0204", f'write {key} "message": condition')
                    continue
                try:
                    cond = self.tokens_expr(sub, sub.items[2:])
                except ExprSyntaxError as exc:
                    self._expr_error(exc, sub, f"the {key} rule")
                    continue
                fields["requirements"].append(ir.DeckRequirement(
                    span=sub.span(), message=message, condition=cond, forbid=key == "forbid"))
            else:
                self.unknown(sub, "deck", ("section", "size", "copies", "allow", "excluded",
                                           "require", "forbid", "summary"))
        self.parts.deck.append(ir.DeckRules(span=entry.span(), **fields))

    def _deck_section(self, entry: Entry) -> ir.DeckSection:
        name = self._first_word(entry) or "Deck"
        fields: dict[str, Any] = {"name": name}
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "types":
                fields["types"] = self.words(sub)
            elif sub.is_prop and sub.name in ("count", "size"):
                fields["count"] = self.expr(sub, "'count'")
            elif sub.name in ("counts_toward_size", "optional"):
                fields[sub.name] = self.flag(sub)
            elif sub.is_prop and sub.name == "within":
                fields["within"] = self.word(sub)
            else:
                self.unknown(sub, f"section '{name}'", ("types", "count", "counts_toward_size",
                                                         "optional", "within"))
        return ir.DeckSection(span=entry.span(), **fields)

    # ---- printables
    def _props(self, entry: Entry, where: str) -> dict[str, ir.Expr]:
        props: dict[str, ir.Expr] = {}
        for sub in entry.block or []:
            if sub.is_prop:
                value = self.expr(sub, f"'{sub.name}'")
                if value is not None:
                    props[sub.name] = value
        return props

    def _font_or_expr(self, sub: Entry) -> ir.Expr | None:
        if sub.name == "font":
            # `font: bold 10pt` is a list of words and a size, kept as text for printables
            self._check_font(sub)
            span = sub.items_span()
            return ir.Text(span=span, value=" ".join(str(t) for t in sub.items))
        return self.expr(sub, f"'{sub.name}'")

    def _check_font(self, sub: Entry) -> None:
        """The size in `font: bold 10pt` must be in pt, above 0 and at most MAX_FONT_PT."""
        hint = f"write a size from 1pt to {MAX_FONT_PT:g}pt, e.g. font: bold 10pt"
        for i, tok in enumerate(sub.items):
            span = self._tok_span(sub, tok)
            if tok.type == "OP" and str(tok) == "-" and i + 1 < len(sub.items) and \
                    sub.items[i + 1].type in ("DIM", "NUMBER"):
                self.error(span, "CS0301", "a font size cannot be negative", hint)
                return
            if tok.type == "NUMBER":
                self.error(span, "CS0301", "a font size needs its unit", f"write {tok}pt")
                return
            if tok.type != "DIM":
                continue
            if number_too_large(tok):
                self.error(span, "CS0301", "this number is too large", hint)
                return
            text = str(tok)
            if not text.endswith("pt"):
                self.error(span, "CS0301", f"a font size is given in pt, not {text[-2:]}", hint)
                return
            size = float(text[:-2])
            if size <= 0:
                self.error(span, "CS0301", f"a font size must be more than 0pt, not {text}", hint)
            elif size > MAX_FONT_PT:
                self.error(span, "CS0301", f"a font size of {text} is too large", hint)

    def top_layout(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", "write layout name { region ... }")
            return
        props: dict[str, ir.Expr] = {}
        regions: list[ir.LayoutRegion] = []
        for sub in entry.block or []:
            if sub.name == "region" and not sub.is_prop:
                rname = self._first_word(sub) or "region"
                rprops: dict[str, ir.Expr] = {}
                for p in sub.block or []:
                    if not p.is_prop:
                        self.error(p.head_span(), "CS0205", "a region holds 'name: value' properties")
                        continue
                    value = self._font_or_expr(p)
                    if value is not None:
                        rprops[p.name] = value
                regions.append(ir.LayoutRegion(span=sub.span(), name=rname, properties=rprops))
            elif sub.is_prop:
                value = self._font_or_expr(sub)
                if value is not None:
                    props[sub.name] = value
            else:
                self.error(sub.head_span(), "CS0205", "a layout holds properties and regions")
        self.parts.add("layouts", ir.LayoutDecl(span=entry.span(), name=name, properties=props,
                                                regions=regions))

    def top_sheet(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write sheet name "Label" { ... }')
            return
        label = self._string_item(entry, 1) or name
        props: dict[str, ir.Expr] = {}
        for sub in entry.block or []:
            if not sub.is_prop:
                self.error(sub.head_span(), "CS0205", "a sheet holds 'name: value' properties")
                continue
            if sub.name == "checkboxes":
                try:
                    items = self.parse_tail(sub, "expr_list")
                except ExprSyntaxError as exc:
                    self._expr_error(exc, sub, "the checkboxes")
                    continue
                props["checkboxes"] = ir.ListExpr(span=sub.items_span(), items=items)
                continue
            value = self.expr(sub, f"'{sub.name}'")
            if value is not None:
                props[sub.name] = value
        self.parts.add("sheets", ir.SheetDecl(span=entry.span(), name=name, label=label, properties=props))

    def top_reference(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write reference name "Label" { row "..." { ... } }')
            return
        label = self._string_item(entry, 1) or name
        rows: list[ir.ReferenceRow] = []
        props: dict[str, ir.Expr] = {}
        for sub in entry.block or []:
            if sub.name == "row" and not sub.is_prop:
                rlabel = self._string_item(sub)
                if rlabel is None:
                    self.error(sub.span(), "CS0204", 'write row "Label" { ... }')
                    continue
                rows.append(ir.ReferenceRow(span=sub.span(), label=rlabel,
                                            properties=self._props(sub, "row")))
            elif sub.is_prop:
                value = self.expr(sub, f"'{sub.name}'")
                if value is not None:
                    props[sub.name] = value
            else:
                self.error(sub.head_span(), "CS0205", "a reference holds rows and properties")
        self.parts.add("references", ir.ReferenceDecl(span=entry.span(), name=name, label=label,
                                                      rows=rows, properties=props))

    # ---- scenarios
    def top_scenario(self, entry: Entry) -> None:
        name = self._string_item(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write scenario "What it shows" { ... }')
            return
        fields: dict[str, Any] = {"name": name, "setup": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "players":
                value = self.integer(sub)
                if value is not None:
                    fields["players"] = value
            elif sub.is_prop and sub.name == "seed":
                value = self.integer(sub)
                if value is not None:
                    fields["seed"] = value
            elif sub.is_prop and sub.name == "mode":
                fields["mode"] = self.word(sub)
            elif sub.name == "setup" and not sub.is_prop:
                fields["setup"] = self.body(sub)
            elif sub.is_prop and sub.name == "setup":
                if self.word(sub) == "game":
                    fields["game_setup"] = True
                else:
                    self.error(sub.items_span(), "CS0301", "'setup:' takes the word 'game'",
                               "write 'setup: game' to begin with the game's own setup, or a 'setup { ... }' block")
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        self.parts.add("scenarios", ir.ScenarioDecl(span=entry.span(), **fields))

    # ---- game-level triggers and hooks
    def top_on(self, entry: Entry) -> None:
        try:
            self.parts.add("triggers", self.trigger(entry))
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, "the trigger")

    def top_before(self, entry: Entry) -> None:
        self.parts.add("hooks", self.hook(entry))

    top_after = top_before
    top_instead = top_before

    # ------------------------------------------------------------ statements

    def body(self, entry: Entry) -> list[ir.Stmt]:
        if entry.block is None:
            self.error(entry.span(), "CS0204", f"'{entry.name}' needs a {{ }} block")
            return []
        return self.statements(entry.block, entry)

    def statements(self, entries: list[Entry], parent: Entry, depth: int = 0) -> list[ir.Stmt]:
        if depth > MAX_DEPTH:
            self.error(parent.span(), "CS0105", f"nesting is too deep (more than {MAX_DEPTH} levels)")
            return []
        out: list[ir.Stmt] = []
        pending_if: list[Any] | None = None  # [span, branches, orelse]
        for entry in entries:
            head = entry.name
            if head in ("elif", "else"):
                if pending_if is None or pending_if[2] is not None:
                    self.error(entry.head_span(), "CS0205", f"'{head}' without an 'if' before it")
                    continue
                try:
                    if head == "elif" or (entry.items and str(entry.items[0]) == "if"):
                        start = 1 if head == "else" else 0
                        cond = self.parse_tail(entry, "cond_tail", start)
                        pending_if[1].append(ir.Branch(span=entry.span(), condition=cond,
                                                       body=self._sub(entry, depth)))
                    else:
                        pending_if[2] = self._sub(entry, depth)
                except ExprSyntaxError as exc:
                    self._expr_error(exc, entry, f"'{head}'")
                continue
            if pending_if is not None:
                out.append(ir.If(span=pending_if[0], branches=pending_if[1], orelse=pending_if[2]))
                pending_if = None
            if head == "if" and not entry.is_prop:
                try:
                    cond = self.parse_tail(entry, "cond_tail")
                except ExprSyntaxError as exc:
                    self._expr_error(exc, entry, "'if'")
                    continue
                pending_if = [entry.span(), [ir.Branch(span=entry.span(), condition=cond,
                                                       body=self._sub(entry, depth))], None]
                continue
            stmt = self.statement(entry, depth)
            if stmt is not None:
                out.append(stmt)
        if pending_if is not None:
            out.append(ir.If(span=pending_if[0], branches=pending_if[1], orelse=pending_if[2]))
        return out

    def _sub(self, entry: Entry, depth: int) -> list[ir.Stmt]:
        if entry.block is None:
            self.error(entry.span(), "CS0204", f"'{entry.name}' needs a {{ }} block")
            return []
        return self.statements(entry.block, entry, depth + 1)

    def statement(self, entry: Entry, depth: int = 0) -> ir.Stmt | None:
        head = entry.name
        span = entry.span()
        if entry.is_prop:
            self.error(entry.head_span(), "CS0205", f"'{head}:' is a property, not a statement",
                       "properties go at the top of the block they configure")
            return None
        try:
            if head not in STATEMENT_HEADS:
                return self.phrase(entry, depth)
            if entry.block is not None and head not in ("for", "repeat", "while", "choose",
                                                       "simultaneously"):
                self.error(entry.span(), "CS0205", f"'{head}' takes no {{ }} block")
            if head == "let":
                name, value = self.parse_tail(entry, "let_tail")
                return ir.Let(span=span, name=str(name), value=value)
            if head in ("set", "increase", "decrease"):
                target, value, duration = self.parse_tail(entry, "set_tail" if head == "set" else "change_tail")
                return ir.Assign(span=span, op=head, target=target, value=value, duration=duration)
            if head == "for":
                var, source = self.parse_tail(entry, "for_tail")
                return ir.ForEach(span=span, var=str(var), source=source, body=self._sub(entry, depth))
            if head == "repeat":
                count = self.parse_tail(entry, "repeat_tail")
                return ir.Repeat(span=span, count=count, body=self._sub(entry, depth))
            if head == "while":
                cond = self.parse_tail(entry, "cond_tail")
                return ir.While(span=span, condition=cond, body=self._sub(entry, depth))
            if head == "choose":
                return self.choose(entry, depth)
            if head == "simultaneously":
                return ir.Simultaneously(span=span, body=self._sub(entry, depth))
            if head == "emit":
                event, args = self.parse_tail(entry, "emit_tail")
                return ir.Emit(span=span, event=str(event), args=args)
            if head == "cancel":
                return ir.Cancel(span=span)
            if head == "return":
                return ir.Return(span=span, value=self.parse_tail(entry, "return_tail"))
            if head == "expect":
                return self.expect(entry)
            if head == "perform":
                return self.perform(entry)
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, f"'{head}'")
            return None
        return None  # pragma: no cover - every head is handled above

    def choose(self, entry: Entry, depth: int) -> ir.Stmt:
        span = entry.span()
        if entry.items and str(entry.items[0]) == "one":
            by = self.parse_tail(entry, "choose_one_tail")
            options: list[ir.Option] = []
            for sub in entry.block or []:
                label = self._string_item(sub)
                if sub.name != "option" or label is None:
                    self.error(sub.head_span(), "CS0205", 'choose one holds option "Label" { ... } entries')
                    continue
                options.append(ir.Option(span=sub.span(), label=label, body=self._sub(sub, depth)))
            if not options:
                self.error(span, "CS0204", "choose one needs at least one option")
            return ir.ChooseOne(span=span, by=by, options=options)
        parts = self.parse_tail(entry, "choose_tail")
        mode, n = parts["count"]
        count = ir.ChooseCount(span=span, mode=mode, n=n)
        return ir.Choose(span=span, var=str(parts["var"]), source=parts["source"], count=count,
                         condition=parts.get("where"), by=parts.get("by"), hidden=bool(parts.get("hidden")),
                         optional=bool(parts.get("optional")))

    def expect(self, entry: Entry) -> ir.Stmt:
        items = entry.items
        if items and str(items[0]) == "illegal":
            perform = self.perform(entry, start=1)
            return perform.model_copy(update={"expect_illegal": True})
        message = None
        if len(items) >= 2 and items[-1].type in ("STRING", "LONG_STRING"):
            message = unescape(str(items[-1]))
            items = items[:-1]
        if not items:
            self.error(entry.span(), "CS0204", "expect needs a condition")
            return ir.Expect(span=entry.span(), condition=ir.Bool(span=entry.span(), value=True))
        cond = self.tokens_expr(entry, items)
        return ir.Expect(span=entry.span(), condition=cond, message=message)

    def perform(self, entry: Entry, start: int = 0) -> ir.Perform:
        # perform ACTION by PLAYER [choosing a, b, c]
        items = entry.items[start:]
        if len(items) < 3 or items[0].type != "WORD" or str(items[1]) != "by":
            self.error(entry.span(), "CS0204", "write perform action_name by player choosing a, b")
            return ir.Perform(span=entry.span(), action="", by=ir.Ref(span=entry.span(), name="you"))
        action = str(items[0])
        rest = items[2:]
        split = next((i for i, t in enumerate(rest) if str(t) == "choosing"), None)
        by_tokens = rest if split is None else rest[:split]
        by = self.tokens_expr(entry, by_tokens)
        choosing: list[ir.Expr] = []
        if split is not None and split + 1 < len(rest):
            src = entry.source
            assert src is not None
            tail = rest[split + 1:]
            choosing = parse_words(src, tail[0].start_pos or 0, tail[-1].end_pos or 0, "expr_list")
        return ir.Perform(span=entry.span(), action=action, by=by, choosing=choosing)

    # ------------------------------------------------------------ phrases

    def phrase(self, entry: Entry, depth: int) -> ir.Stmt | None:
        tokens = [entry.head, *entry.items]
        head = entry.name
        span = entry.span()
        if entry.block is not None:
            self.error(span, "CS0205", f"'{head} ...' is a phrase and takes no {{ }} block",
                       did_you_mean(head, STATEMENT_HEADS) or
                       "only if, for, repeat, while, choose and simultaneously take blocks")
        found: list[tuple[Pattern, dict[str, ir.Expr]]] = []
        best = -1
        for pattern in self.patterns.candidates(head):
            if pattern.literal_count < best:
                break
            args = self._bind(entry, pattern, tokens)
            if args is not None:
                found.append((pattern, args))
                best = pattern.literal_count
        if not found:
            call = self._named_call(entry)
            if call is not None:
                return self._invoke_call(call, span)
            self._no_phrase(entry, tokens)
            return None
        if len(found) > 1 and len({p.procedure for p, _ in found}) > 1:
            names = ", ".join(f'"{p.text}"' for p, _ in found)
            self.error(span, "CS0603", f"this phrase matches several patterns: {names}",
                       "add a word to one of the patterns, or parenthesise an argument")
        pattern, args = found[0]
        return ir.Invoke(span=span, procedure=pattern.procedure, args=args, phrase=pattern.text)

    def _named_call(self, entry: Entry) -> ir.Call | None:
        """`proc(args)` covering the whole statement, for a known procedure."""
        if entry.name not in self.signatures or not entry.items or entry.items[0].type != "LPAR":
            return None
        src = entry.source
        assert src is not None
        try:
            call = parse_words(src, entry.head.start_pos or 0, entry.items[-1].end_pos or 0, "cond_tail")
        except ExprSyntaxError:
            return None
        return call if isinstance(call, ir.Call) and call.func == entry.name else None

    def _bind(self, entry: Entry, pattern: Pattern, tokens: list[Token]) -> dict[str, ir.Expr] | None:
        for slices in matches(pattern, tokens):
            args: dict[str, ir.Expr] = {}
            try:
                for param, (start, end) in slices.items():
                    args[param] = self.tokens_expr(entry, tokens[start:end])
            except ExprSyntaxError:
                continue
            return args
        return None

    def _invoke_call(self, call: ir.Call, span: Span) -> ir.Invoke | None:
        sig = self.signatures[call.func]
        args: dict[str, ir.Expr] = {}
        names = [p.name for p in sig.params]
        if len(call.args) > len(names):
            self.error(span, "CS0602", f"'{call.func}' takes {len(names)} arguments, "
                       f"{len(call.args)} given")
            return None
        for name, value in zip(names, call.args, strict=False):
            args[name] = value
        for name, value in call.kwargs.items():
            if name not in names:
                self.error(value.span, "CS0202", f"'{call.func}' has no parameter '{name}'",
                           did_you_mean(name, names))
                continue
            args[name] = value
        return ir.Invoke(span=span, procedure=call.func, args=args, phrase="")

    def _no_phrase(self, entry: Entry, tokens: list[Token]) -> None:
        head = entry.name
        span = entry.span()
        if head in self.broken:
            return  # `proc(args)` of a procedure whose declaration failed (reported there)
        candidates = [p for p in self.patterns.candidates(head) if p.first_literal == head.lower()]
        if candidates:
            literals = set().union(*(p.literals for p in candidates))
            reserved = next((str(t) for t in tokens[1:] if t.type == "WORD" and str(t) in RESERVED_NAMES
                             and str(t).lower() not in literals), None)
            if reserved is not None:
                self.error(span, "CS0601", f"'{reserved}' is a reserved word and cannot name a value here",
                           f"rename it (e.g. '{reserved}_card'); reserved: " + ", ".join(sorted(RESERVED_NAMES)))
                return
            shown = "; ".join(f'"{p.text}"' for p in candidates[:4])
            self.error(span, "CS0601", f"'{head} ...' does not fit any phrase that starts with '{head}'",
                       f"known forms: {shown}")
            return
        firsts = list(self.patterns.by_first) + list(STATEMENT_HEADS)
        hint = did_you_mean(head, firsts)
        self.error(span, "CS0601", f"unknown statement '{head}'",
                   hint or "a statement is a keyword (let, set, if, for, choose, ...) "
                   "or a phrase declared by a procedure")


_SOFT = {"target", "all", "any", "random", "top", "bottom", "a", "an", "each", "every", "another"}


def _identifier(name: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "_" for ch in name).strip("_")
    while "__" in out:
        out = out.replace("__", "_")
    return out or "game"
