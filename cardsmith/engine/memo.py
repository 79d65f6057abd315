"""Remembering what the rules' pure functions compute (compiler/purity.py proves which
are pure): per state version (memo), or for the whole match (memo_match).

Apart from runtime.py, which re-exports these names for the generated code (`rt.memo`),
because the generated rules call them more than anything else and they are one job: a
key, a dictionary, a miss computed. Nothing here imports the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from cardsmith.model.state import EnumValue
from cardsmith.model.values import RulesError

_MISSING = MISSING = object()  # (MISSING: generated code reads the memo in line)

_MEMO_LIMIT = MEMO_LIMIT = 200_000  # (MEMO_LIMIT: generated code files misses in line)


def memo(m: Any, ctx: Any, fn: Callable[..., Any], reads_actor: bool, *args: Any) -> Any:
    """A pure function's result (compiler/purity.py proves which are), remembered for
    as long as the match state keeps its version. A list result is copied out, so a
    caller that changes it cannot change the remembered one.

    (_remembered and _cached written out in line: the generated rules call it for every
    remembered function they ask, and two more Python frames per call cost more than a
    hit; memo_body keeps the shared path.)"""
    key: tuple[Any, ...] = (m.version, m._in_statics, fn, ctx.you, ctx.self, m.current, *args) if reads_actor \
        else (m.version, m._in_statics, fn, *args)
    cache = m.memo
    try:
        value = cache.get(key, _MISSING)
    except TypeError:  # an argument that cannot be a key (a list): just compute
        return fn(m, ctx, *args)
    if value is _MISSING:
        value = fn(m, ctx, *args)
        if len(cache) >= _MEMO_LIMIT:
            cache.clear()
        cache[key] = value
    return list(value) if type(value) is list else value


def kept(cache: dict[Any, Any], key: tuple[Any, ...], value: Any) -> Any:
    """A value the generated rules computed in line after missing it in the memo
    (compiler/codegen_memo.py), filed under the key they made, as memo() files it: the
    memo cleared when full, a list copied out so the caller cannot change the kept one."""
    if len(cache) >= _MEMO_LIMIT:
        cache.clear()
    cache[key] = value
    return list(value) if type(value) is list else value


def memo_body(m: Any, ctx: Any, fn: Callable[..., Any], reads_actor: bool, *args: Any) -> Any:
    """memo() for a function written with a { } body (a generator run by run_pure)."""
    return _remembered(m, ctx, fn, reads_actor, args, True)




def memo_match(m: Any, ctx: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """A function that reads nothing the match changes (purity.match_constant_functions),
    remembered for the whole match: its key holds no state version."""
    return _cached(m, m.match_memo, (fn, *args), ctx, fn, args, False)


def memo_match_body(m: Any, ctx: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """memo_match() for a function written with a { } body (a generator run by run_pure)."""
    return _cached(m, m.match_memo, (fn, *args), ctx, fn, args, True)


def _remembered(m: Any, ctx: Any, fn: Callable[..., Any], reads_actor: bool, args: tuple[Any, ...],
                body: bool) -> Any:
    if reads_actor:
        key: tuple[Any, ...] = (m.version, m._in_statics, fn, ctx.you, ctx.self, m.current, *args)
    else:
        key = (m.version, m._in_statics, fn, *args)
    return _cached(m, m.memo, key, ctx, fn, args, body)


def _cached(m: Any, cache: dict[Any, Any], key: tuple[Any, ...], ctx: Any, fn: Callable[..., Any],
            args: tuple[Any, ...], body: bool) -> Any:
    """`fn`'s result under `key` in `cache` (one of the match's memos), computed on a miss.
    A list result is copied out, so a caller that changes it cannot change the remembered one."""
    try:
        value = cache.get(key, _MISSING)
    except TypeError:  # an argument that cannot be a key (a list): just compute
        return run_pure(m, fn(m, ctx, *args)) if body else fn(m, ctx, *args)
    if value is _MISSING:
        value = run_pure(m, fn(m, ctx, *args)) if body else fn(m, ctx, *args)
        if len(cache) >= _MEMO_LIMIT:
            cache.clear()
        cache[key] = value
    return list(value) if type(value) is list else value


def run_pure(m: Any, gen: Iterator[Any]) -> Any:
    """Run a function written with a { } body: it may compute but not ask anything."""
    try:
        request = next(gen)
    except StopIteration as stop:
        return stop.value
    raise RulesError(f"a function cannot make a decision ({type(request).__name__})")


class ByValue(dict[int, Any]):
    """A function's answers by the value of the one stat it reads (compiler/codegen_bystat.py:
    Kingdom Cards' `slot(c)`), made once with the game's module: the answers read nothing
    else, so they hold in every match. Generated code reads it in line (`.get`) and calls
    `keep` on a miss with the function's answer for the card."""

    # answers worth keeping: immutable, and compared by the generated code as before
    KINDS = frozenset({int, str, bool, Fraction, EnumValue})
    LIMIT = 4096  # (a stat with many values — one an effect keeps changing — stops filling it)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name  # (the function's: what a reader of the generated code sees)

    def keep(self, value: Any, answer: Any) -> Any:
        """`answer` (the function's, on a card whose stat is `value`), kept for the next card
        with that value when the value is a whole number (no bool, no fraction equal to it)."""
        if type(value) is int and type(answer) in ByValue.KINDS and len(self) < ByValue.LIMIT:
            self[value] = answer
        return answer
