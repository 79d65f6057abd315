"""The kinds of game-wide name, in one table: what a bare word like `gold` or `hand` is.

A rule may write a declared name as a value (`gold`, `hand`, `Red`) or pass it as a
name to a parameter of a name type (`pay 3 gold`: the counter, not its value). The
checker, the code generator and the engine each need to know which declarations make
such names and which parameter types take one; they used to keep a list each. This
module is that knowledge once: the compiler's generator resolves names through
`global_name_kinds` at compile time, the engine's CompiledGame at run time, and the
checker and generator ask `NAME_PARAM_TYPES` which parameters take names.
"""

from __future__ import annotations

from collections.abc import Callable

from cardsmith.dsl import ir

# Parameter types whose argument is a *name* (of a counter, status, ...) not a value.
NAME_PARAM_TYPES = frozenset({"counter", "status", "keyword", "field", "stage", "region"})


def _enum_values(game: ir.Game) -> list[tuple[str, str]]:
    """Each enum value with its enum; a value in several enums belongs to the first."""
    first: dict[str, str] = {}
    for e in game.enums:
        for v in e.values:
            first.setdefault(v.name, e.name)
    return list(first.items())


# Every kind of game-wide name, with its declarations as (name, detail): the detail is
# a zone's or counter's scope ("player" or "shared") and an enum value's enum. When two
# declarations share a name, the kind later in this table wins (a param hides a zone).
NAME_KINDS: tuple[tuple[str, Callable[[ir.Game], list[tuple[str, str]]]], ...] = (
    ("region", lambda g: [(r.name, "") for b in g.boards for r in b.regions]),
    ("keyword", lambda g: [(k.name, "") for k in g.keywords]),
    ("status", lambda g: [(s.name, "") for s in g.statuses]),
    ("enumvalue", _enum_values),
    ("enum", lambda g: [(e.name, "") for e in g.enums]),
    ("zone", lambda g: [(z.name, z.scope) for z in g.zones]),
    ("counter", lambda g: [(c.name, c.scope) for c in g.counters]),
    ("param", lambda g: [(p.name, "") for p in g.params]),
)


def global_name_kinds(game: ir.Game) -> dict[str, tuple[str, str]]:
    """Each game-wide name's (kind, detail), by NAME_KINDS."""
    out: dict[str, tuple[str, str]] = {}
    for kind, declared in NAME_KINDS:
        for name, detail in declared(game):
            out[name] = (kind, detail)
    return out
