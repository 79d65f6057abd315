"""Assemble built declarations into one `ir.Game`, reporting duplicates.

Names live in namespaces (cards, card types, procedures, ...). Redeclaring a name in
its namespace is an error pointing at both places; core prelude names may be shadowed
by nothing — a game that declares `shuffle` again is told so.
"""

from __future__ import annotations

from typing import Any

from cardsmith.dsl import ir
from cardsmith.dsl.build_common import Parts
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.source import BUILTIN_SPAN, Span

_NAMESPACES = {
    "params": "param", "modes": "mode", "enums": "enum", "counters": "counter or status",
    "statuses": "counter or status", "zones": "zone", "boards": "board", "cardtypes": "card type",
    "cards": "card", "keywords": "keyword", "events": "event", "procedures": "procedure",
    "functions": "function", "actions": "action", "layouts": "layout", "sheets": "sheet",
    "references": "reference", "scenarios": "scenario",
}


def _where(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.column}"


def assemble(parts: Parts, sink: DiagnosticSink, where: Span | None = None) -> ir.Game | None:
    """`where`: the place to report a missing game declaration (the start of the first
    file checked); without it the report is not located in any file."""
    if not parts.games:
        if parts.expansions:
            return None  # an expansion is assembled together with its base game
        sink.error(where or BUILTIN_SPAN, "CS0204", "no game declaration found",
                   'add a file with game "Name" { id: name; players: 2 }')
        return None
    game = parts.games[0]
    for extra in parts.games[1:]:
        sink.error(extra.span, "CS0201", f"a second game declaration ('{extra.name}')",
                   f"the game is already declared at {_where(game.span)}")
    seen: dict[tuple[str, str], Any] = {}
    fields: dict[str, Any] = {}
    for key, decls in parts.decls.items():
        kept = []
        for decl in decls:
            name = getattr(decl, "name", None)
            if name is not None and key in _NAMESPACES:
                ns = _NAMESPACES[key]
                ident = (ns, name.lower() if key == "cards" else name)
                if ident in seen:
                    first = seen[ident]
                    sink.error(decl.span, "CS0201", f"{ns} '{name}' is declared twice",
                               f"first declared at {_where(first.span)}")
                    continue
                seen[ident] = decl
            kept.append(decl)
        fields[key] = kept
    flows: dict[str, ir.FlowDecl] = {}
    for flow in fields.get("flows", []):
        if flow.scope in flows:
            sink.error(flow.span, "CS0201", f"a second '{flow.scope}' block",
                       f"the first is at {_where(flows[flow.scope].span)}; put all stages in one block")
        else:
            flows[flow.scope] = flow  # the duplicate is kept so its stages still resolve
    for single, label in (("scoring", "scoring"), ("heuristic", "heuristic"), ("deck", "deck")):
        items = getattr(parts, single)
        for extra in items[1:]:
            sink.error(extra.span, "CS0201", f"a second {label} block",
                       f"the first is at {_where(items[0].span)}")
        fields[single] = items[0] if items else None
    return ir.Game.model_construct(game=game, expansions=parts.expansions, **{
        k: fields.get(k, []) for k in (
            "params", "modes", "enums", "counters", "statuses", "zones", "boards", "cardtypes",
            "cards", "keywords", "events", "procedures", "functions", "setup", "flows", "actions",
            "checks", "layouts", "sheets", "references", "scenarios", "triggers", "hooks", "coverage")
    }, scoring=fields["scoring"], heuristic=fields["heuristic"], deck=fields["deck"])
