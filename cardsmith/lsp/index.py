"""Every declared name of a checked game, with where it is declared and what to say about it.

Built from the IR (each node carries its span), not from the text: what the editor
calls a keyword is exactly what the checker resolved as one. Lookups are by the word
under the cursor, case-insensitively (a card is named in quotes, any case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardsmith.compiler.text import card_text, render_expr
from cardsmith.dsl import ir
from cardsmith.dsl.source import SourceFile, Span


@dataclass(frozen=True)
class Symbol:
    """One declaration: its kind (card, keyword, procedure, zone, ...), name and span."""

    kind: str
    name: str
    span: Span
    detail: str = ""  # markdown: what hover says beyond the declaration line
    patterns: tuple[str, ...] = ()  # a procedure's phrase templates
    children: tuple[Symbol, ...] = ()  # a stage's steps (the outline nests them)


@dataclass
class Index:
    symbols: list[Symbol] = field(default_factory=list)
    by_name: dict[str, list[Symbol]] = field(default_factory=dict)
    # phrase uses: (span of the statement, procedure) for every resolved call
    invokes: list[tuple[Span, str]] = field(default_factory=list)

    def add(self, symbol: Symbol, *aliases: str) -> None:
        self.symbols.append(symbol)
        for key in {symbol.name.lower(), *(a.lower() for a in aliases)}:
            self.by_name.setdefault(key, []).append(symbol)

    def lookup(self, word: str) -> list[Symbol]:
        return self.by_name.get(word.lower(), [])


def _params(params: list[ir.Param]) -> str:
    return ", ".join(f"{p.name}: {p.type}" for p in params)


def _card_detail(game: ir.Game, card: ir.CardDecl) -> str:
    stats = ", ".join(f"{k} {render_expr(v)}" for k, v in card.stats.items())
    lines = [f"*{card.type}*" + (f" — {stats}" if stats else "")]
    text = card_text(game, card)
    if text:
        lines.append(text)
    if card.flavour:
        lines.append(f"_{card.flavour}_")
    return "\n\n".join(lines)


def _stages(stages: list[ir.StageDecl]) -> tuple[Symbol, ...]:
    return tuple(Symbol("stage", s.name, s.span, s.label, children=_stages(s.steps)) for s in stages)


def build_index(game: ir.Game) -> Index:
    index = Index()
    for c in game.cards:
        index.add(Symbol("card", c.name, c.span, _card_detail(game, c)))
    for t in game.cardtypes:
        index.add(Symbol("cardtype", t.name, t.span, f"card type ({t.singular} / {t.plural})"),
                  t.singular, t.plural)
        for f in t.stats:
            index.add(Symbol("stat", f.name, f.span, f"stat of {t.name}: {f.type}"))
        for f in t.properties:
            index.add(Symbol("property", f.name, f.span, f"property of {t.name}: {f.type}"))
    for k in game.keywords:
        params = f"parameters: {_params(k.params)}\n\n" if k.params else ""
        index.add(Symbol("keyword", k.name, k.span, params + k.reminder))
    for p in game.procedures:
        phrases = "\n".join(f"- `{pattern}`" for pattern in p.patterns)
        detail = f"procedure {p.name}({_params(p.params)})" + (f"\n\nphrases:\n{phrases}" if phrases else "")
        index.add(Symbol("procedure", p.name, p.span, detail, tuple(p.patterns)))
    for fn in game.functions:
        index.add(Symbol("function", fn.name, fn.span, f"function {fn.name}({_params(fn.params)})"))
    for e in game.events:
        index.add(Symbol("event", e.name, e.span, f"event {e.name}({_params(e.params)})"))
    for a in game.actions:
        index.add(Symbol("action", a.name, a.span, a.label))
    for z in game.zones:
        ordered = ", ordered" if z.ordered else ""
        index.add(Symbol("zone", z.name, z.span, f"{z.scope} zone, {z.visibility}{ordered}"))
    for counter in game.counters:
        index.add(Symbol("counter", counter.name, counter.span, f"{counter.scope} counter"))
    for st in game.statuses:
        index.add(Symbol("status", st.name, st.span, st.label))
    for en in game.enums:
        index.add(Symbol("enum", en.name, en.span, "values: " + ", ".join(v.name for v in en.values)))
        for v in en.values:
            index.add(Symbol("enum value", v.name, v.span, f"value of enum {en.name}"))
    for param in game.params:
        index.add(Symbol("param", param.name, param.span, f"{param.type} = {render_expr(param.value)}"))
    for b in game.boards:
        index.add(Symbol("board", b.name, b.span, f"{b.width} x {b.height} board"))
        for r in b.regions:
            index.add(Symbol("region", r.name, r.span, f"region of board {b.name}"))
    for layout in game.layouts:
        index.add(Symbol("layout", layout.name, layout.span))
    for flow in game.flows:
        for stage in _stages(flow.stages):
            _add_stage(index, stage)
    for sc in game.scenarios:
        index.add(Symbol("scenario", sc.name, sc.span))
    index.invokes = [(n.span, n.procedure) for n in ir.nodes(game) if isinstance(n, ir.Invoke)]
    return index


def _add_stage(index: Index, stage: Symbol) -> None:
    index.add(stage)
    for step in stage.children:
        _add_stage(index, step)


def doc_comment(source: SourceFile | None, line: int) -> str:
    """The `#` comment lines right above a declaration's line (its documentation)."""
    if source is None:
        return ""
    lines: list[str] = []
    n = line - 1
    while n >= 1:
        text = source.line_text(n).strip()
        if not text.startswith("#") or set(text) <= {"#", "-", " "}:
            break
        lines.append(text.lstrip("#").strip())
        n -= 1
    return " ".join(reversed(lines))


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Word:
    """The name under the cursor: an identifier, or the text of a quoted string."""

    text: str
    line: int  # 0-based, as the protocol counts
    start: int
    end: int
    quoted: bool


def word_at(text: str, line: int, character: int) -> Word | None:
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    row = lines[line].rstrip("\r")
    quotes = [i for i, ch in enumerate(row) if ch == '"' and (i == 0 or row[i - 1] != "\\")]
    for open_, close in zip(quotes[::2], quotes[1::2], strict=False):
        if open_ < character <= close:
            return Word(row[open_ + 1:close], line, open_ + 1, close, True)
    for m in _WORD.finditer(row):
        if m.start() <= character <= m.end():
            return Word(m.group(), line, m.start(), m.end(), False)
    return None


def text_context(row: str, character: int) -> str:
    """What a column of a line is in: "code", a quoted "string" or a "comment"."""
    quoted = False
    for i, ch in enumerate(row[:character]):
        if ch == '"' and (i == 0 or row[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted:
            return "comment"
    return "string" if quoted else "code"


def in_string(row: str, character: int) -> bool:
    """Is a column of a line inside a quoted string or a comment (not a name in code)?"""
    return text_context(row, character) != "code"
