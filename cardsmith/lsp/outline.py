"""The outline of one file: its cards, keywords, procedures, stages and other declarations."""

from __future__ import annotations

from lsprotocol import types as lsp

from cardsmith.lsp.convert import to_range
from cardsmith.lsp.index import Index, Symbol

_KINDS = {
    "card": lsp.SymbolKind.Object, "cardtype": lsp.SymbolKind.Class, "stat": lsp.SymbolKind.Field,
    "property": lsp.SymbolKind.Property, "keyword": lsp.SymbolKind.Key, "procedure": lsp.SymbolKind.Function,
    "function": lsp.SymbolKind.Function, "event": lsp.SymbolKind.Event, "action": lsp.SymbolKind.Method,
    "zone": lsp.SymbolKind.Variable, "counter": lsp.SymbolKind.Number, "status": lsp.SymbolKind.Boolean,
    "enum": lsp.SymbolKind.Enum, "enum value": lsp.SymbolKind.EnumMember, "param": lsp.SymbolKind.Constant,
    "board": lsp.SymbolKind.Struct, "region": lsp.SymbolKind.Struct, "layout": lsp.SymbolKind.Struct,
    "stage": lsp.SymbolKind.Namespace, "scenario": lsp.SymbolKind.Module,
}
# declared inside another declaration: shown under it (a stage's steps), not at the top
_NESTED = {"stat", "property", "enum value", "region"}


def document_symbols(index: Index, file: str) -> list[lsp.DocumentSymbol]:
    steps = {id(child) for s in index.symbols for child in s.children}
    return [_symbol(s) for s in index.symbols
            if s.span.file == file and id(s) not in steps and s.kind not in _NESTED]


def _symbol(s: Symbol) -> lsp.DocumentSymbol:
    span = to_range(s.span)
    return lsp.DocumentSymbol(name=s.name, kind=_KINDS.get(s.kind, lsp.SymbolKind.Variable), range=span,
                              selection_range=span, detail=s.kind,
                              children=[_symbol(c) for c in s.children] or None)
