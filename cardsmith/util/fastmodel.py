"""Build trusted pydantic models quickly.

The IR builder creates hundreds of thousands of nodes from data it has already
checked; pydantic's `model_construct` re-derives each class's field defaults on every
call. `construct` does the same work with the defaults computed once per class, which
keeps building the IR for a 10,000-card game well under the cost of parsing it.
Only for models without aliases, private attributes or post-init hooks (all IR nodes).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_Plan = tuple[dict[str, Any], tuple[tuple[str, Any], ...]]
_PLANS: dict[type[BaseModel], _Plan] = {}
_setattr = object.__setattr__


def _plan(cls: type[BaseModel]) -> _Plan:
    defaults: dict[str, Any] = {}
    factories: list[tuple[str, Any]] = []
    for name, field in cls.model_fields.items():
        if field.alias is not None or field.validation_alias is not None:
            raise TypeError(f"{cls.__name__}.{name} uses an alias; use model_construct")
        if field.default_factory is not None:
            factories.append((name, field.default_factory))
        elif not field.is_required():
            defaults[name] = field.default
    if cls.__private_attributes__ or cls.__pydantic_post_init__:
        raise TypeError(f"{cls.__name__} has private attributes or post-init; use model_construct")
    plan = (defaults, tuple(factories))
    _PLANS[cls] = plan
    return plan


def construct(cls: type[M], **values: Any) -> M:
    """Like `cls.model_construct(**values)`, minus the per-call default bookkeeping."""
    plan = _PLANS.get(cls) or _plan(cls)
    defaults, factories = plan
    data = {**defaults, **values} if defaults else values
    for name, factory in factories:
        if name not in values:
            data[name] = factory()
    m = cls.__new__(cls)
    _setattr(m, "__dict__", data)
    _setattr(m, "__pydantic_fields_set__", set(values))
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", None)
    return m


def fill(model: BaseModel, values: dict[str, Any]) -> None:
    """A model's `__init__` without pydantic validation, for a trusted builder: the same
    state `construct` gives, with unknown and missing field names still refused (a typo in
    the builder fails loudly, as pydantic's own check would; mypy's pydantic plugin checks
    the names and types statically too)."""
    cls = type(model)
    fields = cls.model_fields
    unknown = values.keys() - fields.keys()
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    defaults, factories = _PLANS.get(cls) or _plan(cls)
    data = {**defaults, **values} if defaults else dict(values)
    for name, factory in factories:
        if name not in values:
            data[name] = factory()
    if len(data) != len(fields):
        missing = sorted(fields.keys() - data.keys())
        raise TypeError(f"{cls.__name__} needs {missing[0]!r}")
    _setattr(model, "__dict__", data)
    _setattr(model, "__pydantic_fields_set__", set(values))
    _setattr(model, "__pydantic_extra__", None)
    _setattr(model, "__pydantic_private__", None)


def span_of_token(path: str, tok: Any, span_cls: type[M]) -> M:
    """A span straight from a structural token's own line/column (no offset lookup)."""
    m = span_cls.__new__(span_cls)
    _setattr(m, "__dict__", {"file": path, "line": tok.line, "column": tok.column,
                             "end_line": tok.end_line, "end_column": tok.end_column})
    _setattr(m, "__pydantic_fields_set__", _SPAN_FIELDS)
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", None)
    return m


_SPAN_FIELDS = {"file", "line", "column", "end_line", "end_column"}
