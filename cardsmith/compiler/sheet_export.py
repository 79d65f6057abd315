"""The cards of one type as a CSV sheet that `cards "x.csv" { type: T }` reads back.

So a designer can move an existing game's numbers into a spreadsheet with one command,
each cell holds exactly what the `.cards` file wrote (the source text of a stat, the
keyword list, an ability block), not a rendering of it: read back, the sheet builds the
same IR. Cells a spreadsheet would run as a formula (= + - @) are written with a leading
quote, which the reader drops again.
"""

from __future__ import annotations

import csv
import io

from lark.exceptions import UnexpectedCharacters

from cardsmith.dsl import ir
from cardsmith.dsl.lexer import TooDeep, tokenize
from cardsmith.dsl.sheettable import guard_cell
from cardsmith.dsl.source import SourceFile, Span


class ExportError(Exception):
    """The type cannot be written as a sheet (the message says why)."""


def card_types_with_cards(game: ir.Game) -> list[str]:
    """The card types that have cards, in declaration order."""
    used = {c.type for c in game.cards}
    return [t.name for t in game.cardtypes if t.name in used]


def _offset(source: SourceFile, line: int, column: int) -> int:
    return source.line_starts[max(0, min(line, len(source.line_starts)) - 1)] + column - 1


def span_text(span: Span, sources: dict[str, SourceFile]) -> str:
    """The source text a span covers."""
    source = sources.get(span.file)
    if source is None:
        raise ExportError(f"the source of {span.file} is not at hand")
    return source.text[_offset(source, span.line, span.column):_offset(source, span.end_line, span.end_column)]


def block_text(span: Span, sources: dict[str, SourceFile]) -> str:
    """The text of an ability from its head to the `}` that closes its block (an
    ability's span ends at its last head word)."""
    source = sources.get(span.file)
    if source is None:
        raise ExportError(f"the source of {span.file} is not at hand")
    start = _offset(source, span.line, span.column)
    depth = 0
    end = _offset(source, span.end_line, span.end_column)
    try:
        for tok in tokenize(source.text[start:]):
            if tok.type == "LBRACE":
                depth += 1
            elif tok.type == "RBRACE":
                depth -= 1
                if depth == 0:
                    end = start + (tok.end_pos or 0)
                    break
    except (UnexpectedCharacters, TooDeep):
        pass
    lines = source.text[start:end].split("\n")
    indent = len(lines[-1]) - len(lines[-1].lstrip(" ")) if len(lines) > 1 else 0
    return "\n".join([lines[0], *(ln[min(indent, len(ln) - len(ln.lstrip(" "))):] for ln in lines[1:])])


def export_csv(game: ir.Game, sources: dict[str, SourceFile], type_name: str) -> str:
    """The CSV text of every card of `type_name`, one row per card, in declaration order."""
    decl = next((t for t in game.cardtypes if t.name == type_name), None)
    if decl is None:
        raise ExportError(f"{game.game.name} has no card type '{type_name}'")
    cards = [c for c in game.cards if c.type == type_name]
    stats = [f.name for f in decl.stats if any(f.name in c.stats for c in cards)]
    props = [f.name for f in decl.properties if any(f.name in c.properties for c in cards)]
    header = ["name", *stats, *props]
    optional = [("keywords", any(c.keywords for c in cards)), ("copies", any(c.copies != 1 for c in cards)),
                ("text", any(c.text is not None for c in cards)),
                ("flavour", any(c.flavour is not None for c in cards)),
                ("art", any(c.art is not None for c in cards)),
                ("play", any(c.play_condition is not None for c in cards)),
                ("abilities", any(c.abilities for c in cards))]
    header += [name for name, used in optional if used]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for card in cards:
        writer.writerow([guard_cell(_cell(card, column, sources)) for column in header])
    return out.getvalue()


def quote_text(value: str) -> str:
    """A text the reader would not take as it stands (empty, padded with spaces, or in
    quotes) is written as a quoted string, which it reads back to the same text."""
    if value == "" or value != value.strip() or (len(value) >= 2 and value[0] == value[-1] == '"'):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def _cell(card: ir.CardDecl, column: str, sources: dict[str, SourceFile]) -> str:
    if column == "name":
        return card.name
    if column in card.stats or column in card.properties:
        value = card.stats.get(column) or card.properties[column]
        return quote_text(value.value) if isinstance(value, ir.Text) else span_text(value.span, sources)
    if column == "keywords":
        return ", ".join(span_text(k.span, sources) for k in card.keywords)
    if column == "copies":
        return str(card.copies)
    if column in ("text", "flavour", "art"):
        value = getattr(card, column)
        return "" if value is None else quote_text(str(value))
    if column == "play":
        return "" if card.play_condition is None else span_text(card.play_condition.span, sources)
    if column == "abilities":
        return "\n".join(block_text(a.span, sources) for a in card.abilities)
    return ""
