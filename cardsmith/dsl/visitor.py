"""One way to walk the IR: a visitor whose dispatch table is built once per class.

A back end that treats each kind of node differently (rules text, static evaluation,
code generation, type inference) subclasses `Visitor` and writes one method per node
class, named `visit_<ClassName>` (`visit_BinOp`). The table from node class to method is
computed when the subclass is created — as sqlglot precomputes its generators' dispatch —
so a visit costs one dictionary lookup instead of a chain of `isinstance` tests, and a
node kind the visitor forgot is a clear error naming the node, never a silent fall-through.

A visitor states the node kinds it must handle in `covers` (e.g. `members(ir.Expr)`);
tests/test_visitors.py checks every visitor in cardsmith handles every member, so adding
a node kind to the language fails the suite until each back end knows it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel


def members(union: Any) -> tuple[type[BaseModel], ...]:
    """The node classes of an IR union (`ir.Expr`, `ir.Stmt`, `ir.Ability`), in order."""
    args = typing.get_args(union)
    if args and typing.get_origin(union) is typing.Annotated:
        args = typing.get_args(args[0])
    return tuple(a for a in args if isinstance(a, type) and issubclass(a, BaseModel))


class Visitor:
    """Dispatch `visit(node, ...)` to `visit_<type(node).__name__>(node, ...)`.

    `covers`: the node classes this visitor promises to handle (checked by a test).
    `generic_visit` handles a node with no method; by default it raises TypeError."""

    covers: ClassVar[tuple[type[BaseModel], ...]] = ()
    _dispatch: ClassVar[dict[type, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table: dict[type, Callable[..., Any]] = {}
        names = {name[len("visit_"):]: getattr(cls, name) for name in dir(cls)
                 if name.startswith("visit_") and callable(getattr(cls, name))}
        for node in cls.covers:
            method = names.get(node.__name__)
            if method is not None:
                table[node] = method
        cls._dispatch = table
        cls._by_name = names

    _by_name: ClassVar[dict[str, Callable[..., Any]]] = {}

    def visit(self, node: Any, *args: Any) -> Any:
        method = self._dispatch.get(type(node))
        if method is None:
            method = self._by_name.get(type(node).__name__)
            if method is None:
                return self.generic_visit(node, *args)
            type(self)._dispatch[type(node)] = method  # a class outside `covers`: remembered
        return method(self, node, *args)

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise TypeError(f"{type(self).__name__} has no visit_{type(node).__name__}")

    @classmethod
    def missing(cls) -> list[str]:
        """The node classes in `covers` this visitor has no method for."""
        return [node.__name__ for node in cls.covers if node not in cls._dispatch]
