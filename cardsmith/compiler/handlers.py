"""A checked game's handlers: generated Python, compiled once, cached sealed on disk.

The code generator (codegen.py) lowers the IR to one Python module whose `HANDLERS`
table maps each rule's key to a function; this module compiles that source, keeps the
code object in the disk cache (sealed: util/sealed.py) under a key of the game's files,
the generator's own source and the bytecode version, and runs it to get the table. It is
the compiler's job (the engine only looks handlers up), so it lives here.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import os
import types
from pathlib import Path
from typing import Any

from cardsmith.compiler import codegen
from cardsmith.compiler.cache import key_for as cache_key
from cardsmith.compiler.codegen import generate
from cardsmith.compiler.loader import GameFiles
from cardsmith.dsl import ir
from cardsmith.util.sealed import cache_dir, load_sealed, store_sealed
from cardsmith.util.version import VERSION as __version__


def compiled_handlers(game: ir.Game, key: str | None) -> tuple[str, Any]:
    """The generated module's source and code object, from the cache when possible.

    The cache entry (marshalled code + source) is keyed by the game's content hash, the
    cardsmith version and the Python bytecode magic number; one that cannot be read back
    is rebuilt, never trusted.
    """
    path = cache_dir() / f"handlers-{key}.bin" if key is not None else None
    if path is not None:
        # only an entry sealed with this user's key is unmarshalled (compiler/cache.py):
        # a planted file is ignored and rebuilt, never executed
        data = load_sealed(path)
        try:
            code, source = marshal.loads(data) if data is not None else (None, None)
            if isinstance(source, str) and isinstance(code, types.CodeType):
                return source, code
        except (ValueError, EOFError, TypeError):
            pass
    source = generate(game, __version__)
    code = compile(source, f"<cardsmith handlers for {game.game.id}>", "exec")
    if path is not None:
        store_sealed(path, marshal.dumps((code, source)))
    return source, code


def files_key(files: GameFiles) -> str:
    """handlers_key of a game's files named relative to their common folder: the
    generated source depends only on that (codegen writes origins so), and so does the
    key — the same game copied to another folder, or compiled from another working
    directory, finds the same cache entry."""
    paths = [path.resolve() for path in [*files.files, *files.tables]]  # a sheet's cards compile too
    root = Path(os.path.commonpath(paths)) if paths else Path()
    if len(paths) == 1:
        root = root.parent
    return handlers_key([(path.relative_to(root).as_posix(), path.read_bytes()) for path in paths])


def handlers_key(files: list[tuple[str, bytes]]) -> str:
    """Game files + cardsmith version (in key_for) + bytecode magic + the generator's own
    source, so a changed code generator never serves a stale module. The generator is
    every module of the compiler and of the IR it reads (a list of chosen modules went
    stale once already: legality.py and inline.py write code too)."""
    return cache_key(files, f"handlers {importlib.util.MAGIC_NUMBER.hex()} {_generator_digest()}")


@functools.cache
def _generator_digest() -> str:
    """The hash of the code generator's source: cardsmith/compiler and cardsmith/dsl."""
    digest = hashlib.sha256()
    for package in (Path(codegen.__file__).parent, Path(ir.__file__).parent):
        for module in sorted(package.glob("*.py")):
            digest.update(module.name.encode() + b"\0" + module.read_bytes())
    return digest.hexdigest()


def handlers_for(game: ir.Game, key: str | None) -> tuple[str, dict[tuple[str, ...], Any]]:
    """The generated source and its `HANDLERS` table (rule key -> compiled function)."""
    source, code = compiled_handlers(game, key)
    namespace: dict[str, Any] = {"__name__": f"cardsmith_handlers_{game.game.id}"}
    # our own generated module: user text only ever appears in it as repr() literals
    exec(code, namespace)
    handlers: dict[tuple[str, ...], Any] = namespace["HANDLERS"]
    return source, handlers
