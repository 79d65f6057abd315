"""Every construct of the language has a conformance case.

Walks the IR (every `Node` subclass of cardsmith/dsl/ir.py and its fields, each value of
a Literal-typed field) and the core prelude (every event, procedure and function of
cardsmith/prelude/core.cards), imports every `tests/conformance/test_*.py` module so its
`@covers(...)` registrations are made, and fails on

- a construct that no test covers: a new field or node cannot land without a case that
  plays it (or a line in EXEMPT saying why it needs none);
- a registration naming a construct that does not exist (a typo would otherwise prove
  nothing and hide the gap).
"""

from __future__ import annotations

import importlib
import inspect
import types
import typing
from pathlib import Path

from cardsmith.compiler.api import CORE_PATH, check_sources
from cardsmith.dsl import ir
from conformance.support import REGISTRY

HERE = Path(__file__).resolve().parent

# constructs that need no case of their own, each with the reason
EXEMPT: dict[str, str] = {}


def node_classes() -> list[type[ir.Node]]:
    """Every IR node class, in declaration order."""
    return [cls for _, cls in inspect.getmembers(ir, inspect.isclass)
            if issubclass(cls, ir.Node) and cls is not ir.Node and cls.__module__ == ir.__name__]


def literal_values(annotation: object) -> tuple[str, ...] | None:
    """The values of a Literal annotation (also inside `X | None`), else None."""
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(str(v) for v in typing.get_args(annotation))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            values = literal_values(arg)
            if values is not None:
                return values
    return None


def ir_constructs() -> tuple[set[str], set[str]]:
    """(required, also valid) construct names of the IR.

    A field is required as "Class.field"; a Literal field instead as one "Class.field=value"
    per value (the plain name is still a valid registration). `span` is every node's source
    position, and a one-valued `kind` is only the union's tag: neither is a construct.
    """
    required: set[str] = set()
    valid: set[str] = set()
    for cls in node_classes():
        hints = typing.get_type_hints(cls, vars(ir))
        for field in cls.model_fields:
            if field == "span":
                continue
            values = literal_values(hints[field])
            if field == "kind" and values is not None and len(values) == 1:
                continue
            name = f"{cls.__name__}.{field}"
            valid.add(name)
            if values is None:
                required.add(name)
            else:
                required.update(f"{name}={v}" for v in values)
    return required, valid | required


def prelude_constructs() -> set[str]:
    """Every declaration of the core prelude, as "prelude:NAME"."""
    result = check_sources([("enum/rules.cards", b'game "G" {\n  id: g\n  players: 2\n}\n')])
    assert result.game is not None, [d.message for d in result.diagnostics]
    game = result.game
    names = {decl.name for group in (game.events, game.procedures, game.functions)
             for decl in group if decl.span.file == CORE_PATH}
    assert names, "the core prelude declares nothing?"
    return {f"prelude:{name}" for name in names}


def collect() -> dict[str, set[str]]:
    """Import every conformance module (pytest may already have) and return the registry."""
    for path in sorted(HERE.glob("test_*.py")):
        importlib.import_module(f"conformance.{path.stem}")
    return REGISTRY


def test_every_construct_has_a_conformance_case() -> None:
    registry = collect()
    required, _ = ir_constructs()
    required |= prelude_constructs()
    missing = sorted(name for name in required if name not in EXEMPT and not registry.get(name))
    assert not missing, f"{len(missing)} construct(s) without a conformance case:\n  " + "\n  ".join(missing)


def test_registrations_name_real_constructs() -> None:
    registry = collect()
    _, valid = ir_constructs()
    valid |= prelude_constructs()
    unknown = sorted(f"{name} (in {', '.join(sorted(registry[name]))})" for name in registry if name not in valid)
    assert not unknown, "covers() names constructs that do not exist:\n  " + "\n  ".join(unknown)


def test_exemptions_name_real_constructs_and_say_why() -> None:
    _, valid = ir_constructs()
    valid |= prelude_constructs()
    assert not [name for name in EXEMPT if name not in valid], "EXEMPT names constructs that do not exist"
    assert all(len(reason) > 20 for reason in EXEMPT.values()), "every exemption says why"
    covered = [name for name in EXEMPT if REGISTRY.get(name)]
    assert not covered, f"exempt constructs that now have a case (drop the exemption): {covered}"


def test_the_enumeration_sees_what_it_should() -> None:
    """Guard the walker itself: it finds fields, Literal values and prelude events."""
    required, valid = ir_constructs()
    assert {"Choose.hidden", "StageDecl.skip", "ChooseCount.mode=up_to", "Duration.kind=until_next",
            "ActionDecl.by=responder", "ActionDecl.speed=stack"} <= required
    assert "Num.kind=num" not in required and "Choose.span" not in valid
    assert {"prelude:game_started", "prelude:shuffle", "prelude:count"} <= prelude_constructs()
