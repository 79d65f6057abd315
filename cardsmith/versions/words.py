"""Comparing two IR nodes and saying what differs in a designer's words.

Two versions of a game are compared structurally: the same card or rule written in a
different place (another line, another file) is the same, so every `span` is left out
of the comparison. What differs is then said as the designer would say it — `cost 3 → 2`,
`actions added: play_event` — using the rules-text words of cardsmith/compiler/text.py
for expressions, and plainly `body changed` where a value (a list of statements) has no
short form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from cardsmith.compiler.text import render_expr
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import members

ARROW = "→"
# a value longer than this is not repeated inline: the line says "<field> changed"
# (the JSON still carries both values)
SHORT = 80

_EXPRS = members(ir.Expr)
_LABELS = {"expr": "expression", "value": "", "play_condition": "play condition"}


@dataclass(frozen=True)
class Change:
    """One difference: `field` names what changed, `old`/`new` its values in words (None:
    absent, or not said in words), `text` the whole change as the designer reads it."""

    field: str
    old: str | None
    new: str | None
    text: str


def shape(value: Any) -> Any:
    """`value` as plain nested tuples without source spans: equal shapes, same meaning."""
    if isinstance(value, BaseModel):
        return (type(value).__name__,
                tuple((name, shape(getattr(value, name))) for name in type(value).model_fields if name != "span"))
    if isinstance(value, list | tuple):
        return tuple(shape(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, shape(v)) for k, v in value.items()))
    return value


def same(a: Any, b: Any) -> bool:
    return bool(shape(a) == shape(b))


def words(value: Any) -> str | None:
    """A value in the words a card or a rule would print it, or None when it has no
    short form (statements)."""
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, _EXPRS):
        return render_expr(value)  # type: ignore[arg-type]
    if isinstance(value, list) and not value:
        return "none"
    if isinstance(value, list) and all(isinstance(v, ir.Param) for v in value):
        return ", ".join(_param(p) for p in value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return None


def _param(p: ir.Param) -> str:
    default = "" if p.default is None else f" = {render_expr(p.default)}"
    return f"{p.name}: {p.type}{default}"


def label_of(field: str) -> str:
    return _LABELS.get(field, field.replace("_", " "))


def value_change(label: str, old: Any, new: Any) -> Change:
    """`label old → new`, or `label changed` when either side has no short form."""
    o, n = words(old), words(new)
    head = f"{label} " if label else ""
    if o is None or n is None or len(o) > SHORT or len(n) > SHORT or o == n:
        return Change(label or "value", o, n, f"{label or 'value'} changed")
    return Change(label or "value", o, n, f"{head}{o} {ARROW} {n}")


def list_change(label: str, old: list[str], new: list[str]) -> list[Change]:
    """Names added to or removed from a list (a stage's actions, a procedure's phrases);
    the same names in another order are `reordered`."""
    added = [x for x in new if x not in old]
    removed = [x for x in old if x not in new]
    out = []
    if added:
        out.append(Change(label, None, ", ".join(added), f"{label} added: {', '.join(added)}"))
    if removed:
        out.append(Change(label, ", ".join(removed), None, f"{label} removed: {', '.join(removed)}"))
    if not out:
        out.append(Change(label, ", ".join(old), ", ".join(new), f"{label} reordered"))
    return out


def field_changes(old: BaseModel, new: BaseModel, skip: frozenset[str] = frozenset()) -> list[Change]:
    """Every field of two nodes of one kind that differs, in declaration order."""
    out: list[Change] = []
    for name in type(new).model_fields:
        if name in skip or name in ("span", "kind"):
            continue
        a, b = getattr(old, name, None), getattr(new, name, None)
        if same(a, b):
            continue
        if isinstance(a, list) and isinstance(b, list) and a and b and all(isinstance(x, str) for x in a + b):
            out.extend(list_change(label_of(name), a, b))
        else:
            out.append(value_change(label_of(name), a, b))
    return out
