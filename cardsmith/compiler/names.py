"""Names a game may not take: words the language already reads as something else.

Two kinds of declared name would be accepted by the parser and then silently mean
something other than what the designer wrote:

* a name that reads as dice (`let d2 = 3`, a param `d6`, a stat `d8`): in an expression
  `d2` is always the 2-sided die, so `d2 + 1` would compute with a die, not the variable,
  and the match would stop at run time ("cannot compute d2 + d6");
* a game-wide name that a built-in hides (a zone named `players`, a per-player counter
  named `seat`, a card stat named `owner`): rules that write the name get the built-in,
  and the declaration is never read.

Both are refused where the name is declared (CS0201, "the name is taken"), with the
caret on the name itself, so the designer renames one line instead of chasing the uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import get_args

from pydantic import BaseModel

from cardsmith.compiler.symbols import CARD_BUILTINS, GLOBAL_BUILTINS, PLAYER_BUILTINS
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.source import SourceFile, Span

# What the expression grammar reads as a die (grammar/expr.lark, DICE): `d6`, `d20`.
# (A name cannot start with a digit, so `2d6` is never a name.)
_DIE = re.compile(r"d(\d+)")

# Declarations whose `name` is a name rules may write.
_NAMED = (ir.ParamDecl, ir.CounterDecl, ir.StatusDecl, ir.ZoneDecl, ir.EnumValue, ir.EnumDecl, ir.KeywordDecl,
          ir.EventDecl, ir.ProcedureDecl, ir.FunctionDecl, ir.RegionDecl, ir.BoardDecl, ir.CardTypeDecl,
          ir.ActionDecl, ir.StageDecl, ir.FieldDef, ir.Param, ir.Let)

_WHAT: dict[type, str] = {
    ir.ParamDecl: "param", ir.CounterDecl: "counter", ir.StatusDecl: "status", ir.ZoneDecl: "zone",
    ir.EnumValue: "enum value", ir.EnumDecl: "enum", ir.KeywordDecl: "keyword", ir.EventDecl: "event",
    ir.ProcedureDecl: "procedure", ir.FunctionDecl: "function", ir.RegionDecl: "region", ir.BoardDecl: "board",
    ir.CardTypeDecl: "card type", ir.ActionDecl: "action", ir.StageDecl: "stage", ir.FieldDef: "card field",
    ir.Param: "parameter", ir.Let: "variable", ir.ForEach: "loop variable", ir.Choose: "chosen value",
    ir.Trigger: "event value",
}


def die_sides(name: str) -> int | None:
    """The sides of the die `name` reads as (`d6` -> 6), or None for an ordinary name."""
    match = _DIE.fullmatch(name)
    return int(match.group(1)) if match else None


def check_names(game: ir.Game, sources: Mapping[str, SourceFile], sink: DiagnosticSink, core_file: str) -> None:
    """Report every declared name that reads as dice or that a built-in hides."""
    seen: set[tuple[str, int, int, str]] = set()
    refused: set[tuple[str, int, int]] = set()
    for node, name in _declared(game):
        span = node.span
        if span.file == core_file or (span.file, span.line, span.column, name) in seen:
            continue
        seen.add((span.file, span.line, span.column, name))
        what = _WHAT.get(type(node), "name")
        sides = die_sides(name)
        if sides is not None:
            sink.error(_name_span(sources, span, name), "CS0201",
                       f"{what} '{name}' reads as a die ({sides} sides); pick another name",
                       f"in rules '{name}' always means the die (as in 'roll {name}'); "
                       f"call it e.g. '{name}_value' or 'die{sides}'")
            refused.add((span.file, span.line, span.column))
            continue
        builtin = _hidden_by(node, name)
        if builtin is not None:
            sink.error(_name_span(sources, span, name), "CS0201",
                       f"{what} '{name}' is named like the built-in '{name}' ({builtin}); "
                       f"rules that write '{name}' would read the built-in", "pick another name")
            refused.add((span.file, span.line, span.column))
    # "never used" only repeats the error: every use of the name read the die or the built-in
    sink.items[:] = [d for d in sink.items if not (
        d.code == "CS0901" and (d.span.file, d.span.line, d.span.column) in refused)]


# Expressions declare nothing: the walk does not enter them (most of a game's nodes).
_SKIPPED: frozenset[type] = frozenset((*get_args(get_args(ir.Expr)[0]), Span))


def _declaring_nodes(game: ir.Game) -> Iterator[BaseModel]:
    """Every node of the game but expressions and spans (declarations, statements, ...)."""
    stack: list[BaseModel] = [game]
    while stack:
        item = stack.pop()
        yield item
        for name in type(item).model_fields:
            value = getattr(item, name)
            if isinstance(value, BaseModel):
                if type(value) not in _SKIPPED:
                    stack.append(value)
            elif isinstance(value, list | tuple | dict):
                for child in value.values() if isinstance(value, dict) else value:
                    if isinstance(child, BaseModel) and type(child) not in _SKIPPED:
                        stack.append(child)


def _declared(game: ir.Game) -> Iterator[tuple[ir.Node, str]]:
    for node in _declaring_nodes(game):
        if isinstance(node, ir.ForEach | ir.Choose):
            yield node, node.var
        elif isinstance(node, ir.Trigger):
            for binding in node.bindings:
                yield node, binding
        elif isinstance(node, ir.CardTypeDecl):
            for name in dict.fromkeys((node.name, node.singular, node.plural)):
                yield node, name
        elif isinstance(node, _NAMED):
            yield node, node.name


def _hidden_by(node: ir.Node, name: str) -> str | None:
    """What built-in hides this game-wide name, in the places rules read it."""
    game_wide = isinstance(node, ir.ParamDecl | ir.ZoneDecl | ir.EnumValue | ir.EnumDecl | ir.KeywordDecl
                           | ir.StatusDecl) or (
        isinstance(node, ir.CounterDecl) and node.scope != "card") or (
        isinstance(node, ir.CardTypeDecl) and name == node.name)  # (its nouns are query words)
    if game_wide and name in GLOBAL_BUILTINS:
        return _article(GLOBAL_BUILTINS[name])
    per_player = isinstance(node, ir.ZoneDecl | ir.CounterDecl) and node.scope == "player"
    if per_player and name in PLAYER_BUILTINS:
        return f"a player's {name}"
    per_card = isinstance(node, ir.FieldDef | ir.StatusDecl) or (
        isinstance(node, ir.CounterDecl) and node.scope == "card")
    if per_card and name in CARD_BUILTINS:
        return f"a card's {name}"
    return None


def _article(kind: str) -> str:
    return {"player": "a player", "players": "every player", "card": "a card", "number": "a number",
            "bool": "yes/no", "text": "text", "none": "nothing"}.get(kind, kind)


def _name_span(sources: Mapping[str, SourceFile], span: Span, name: str) -> Span:
    """The name's own place inside its declaration (the first whole-word match), so the
    caret points at the word to change; the whole declaration when it cannot be found."""
    source = sources.get(span.file)
    if source is None or span.line > len(source.line_starts):
        return span
    start = source.line_starts[span.line - 1] + span.column - 1
    end_line = min(span.end_line, len(source.line_starts))
    end = source.line_starts[end_line - 1] + span.end_column - 1
    found = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])").search(source.text, start,
                                                                                         max(end, start))
    return source.span(found.start(), found.end()) if found else span
