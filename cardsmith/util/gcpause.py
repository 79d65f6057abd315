"""Pause Python's cyclic garbage collector around bulk, acyclic allocation.

Parsing and building the IR allocate hundreds of thousands of small objects that form
no reference cycles; the cyclic collector rescans the growing young heap again and
again while they are created, which costs more than the work itself on large games.
Reference counting still frees everything; a single collection runs afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
