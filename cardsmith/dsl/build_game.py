"""The game and the things it is played with: game, expansion, params, modes, enums,
counters, statuses, zones and boards.

These declarations are property blocks with no rules inside, read by the shared value
readers alone; they are kept apart from the rule-bearing declarations (`build_rules`)
and the cards (`build_cards`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Token

from cardsmith.dsl import ir
from cardsmith.dsl.build_common import BuilderBase
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import ExprSyntaxError, number_too_large
from cardsmith.dsl.structure import Entry
from cardsmith.util.fastmodel import construct

SET_CODE = re.compile(r"[A-Z0-9]{1,6}")


class GameDecls(BuilderBase):
    """`game`, `expansion`, `param`, `mode`, `enum`, `counter`, `status`, `zone`, `board`."""

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
            "set_code": lambda e: self._set_code(e, fields),
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

    def _set_code(self, e: Entry, fields: dict[str, Any]) -> None:
        """`set_code: "ASH"`: the short code printed before each card's collector number
        (`ASH 12/40`) and accepted by decklists — 1 to 6 capital letters or digits."""
        value = self.text(e)
        if value is not None and SET_CODE.fullmatch(value):
            fields["set_code"] = value
            return
        self.error(e.items_span(), "CS0301", f"a set code is 1 to 6 capital letters or digits, not {e.items_text()}",
                   'write set_code: "ASH"')

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

        self._walk(entry, "expansion", {"base": base, "version": version,
                                        "set_code": lambda e: self._set_code(e, fields)})
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
            type_name = "any"  # (its stand-in 0 is no value the designer wrote: no type error for it)
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


def _identifier(name: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "_" for ch in name).strip("_")
    while "__" in out:
        out = out.replace("__", "_")
    return out or "game"
