"""Completion: the names in scope, and the phrase templates of every procedure.

A phrase template is offered as a snippet whose placeholders are the template's own
`{slots}`, so choosing `deal {amount} damage to {target}` leaves the cursor on `amount`.
Inside quotes only card names make sense, so only they are offered there.
"""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from cardsmith.compiler.symbols import GLOBAL_BUILTINS
from cardsmith.lsp.index import Index, text_context

_KINDS = {
    "card": lsp.CompletionItemKind.Value, "keyword": lsp.CompletionItemKind.Keyword,
    "procedure": lsp.CompletionItemKind.Function, "function": lsp.CompletionItemKind.Function,
    "zone": lsp.CompletionItemKind.Variable, "counter": lsp.CompletionItemKind.Variable,
    "status": lsp.CompletionItemKind.Variable, "enum": lsp.CompletionItemKind.Enum,
    "enum value": lsp.CompletionItemKind.EnumMember, "cardtype": lsp.CompletionItemKind.Class,
    "stat": lsp.CompletionItemKind.Field, "property": lsp.CompletionItemKind.Field,
    "event": lsp.CompletionItemKind.Event, "param": lsp.CompletionItemKind.Constant,
}
_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def snippet(template: str) -> str:
    """A phrase template as an LSP snippet: `{amount}` becomes the tab stop `${1:amount}`."""
    counter = iter(range(1, 1000))
    escaped = template.replace("$", "\\$")
    return _SLOT.sub(lambda m: "${" + str(next(counter)) + ":" + m.group(1) + "}", escaped)


def completions(index: Index, text: str, line: int, character: int) -> list[lsp.CompletionItem]:
    lines = text.split("\n")
    row = lines[line] if 0 <= line < len(lines) else ""
    context = text_context(row, character)
    if context == "comment":
        return []
    if context == "string":
        return [lsp.CompletionItem(label=s.name, kind=lsp.CompletionItemKind.Value, detail="card")
                for s in index.symbols if s.kind == "card"]
    items: dict[tuple[str, str], lsp.CompletionItem] = {}
    for s in index.symbols:
        if s.kind == "scenario":
            continue
        label = f'"{s.name}"' if s.kind == "card" else s.name
        items.setdefault((label, s.kind), lsp.CompletionItem(
            label=label, kind=_KINDS.get(s.kind, lsp.CompletionItemKind.Text), detail=s.kind))
        for pattern in s.patterns:
            items.setdefault((pattern, "phrase"), lsp.CompletionItem(
                label=pattern, kind=lsp.CompletionItemKind.Snippet, detail=f"phrase: {s.name}",
                insert_text=snippet(pattern), insert_text_format=lsp.InsertTextFormat.Snippet,
                filter_text=_SLOT.sub(lambda m: m.group(1), pattern)))
    for name, type_ in GLOBAL_BUILTINS.items():
        items.setdefault((name, "builtin"), lsp.CompletionItem(
            label=name, kind=lsp.CompletionItemKind.Variable, detail=f"built-in {type_}"))
    return list(items.values())
