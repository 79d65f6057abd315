"""Pause Python's cyclic garbage collector around bulk, acyclic allocation.

Parsing and building the IR allocate hundreds of thousands of small objects that form
no reference cycles; the cyclic collector rescans the growing young heap again and
again while they are created, which costs more than the work itself on large games.
Afterwards the survivors are frozen (gc.freeze) rather than scanned once more: they are
long-lived and acyclic, reference counting still frees them, and re-enabling the
collector then costs nothing.
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
            gc.freeze()
            gc.enable()
