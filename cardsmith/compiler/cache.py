"""A content-hash cache of check results, written atomically.

The key hashes the cardsmith version, the grammars, the core prelude, cardsmith's own
Python source and every game source file's path and bytes, so any change anywhere
misses. Entries are JSON; an unreadable or malformed entry is ignored and rewritten,
never trusted.

The cache folder and the sealing of entries that are executed when loaded (compiled
handlers, the parser tables) live in util/sealed.py.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from cardsmith.util.atomic import write_atomic
from cardsmith.util.sealed import cache_dir
from cardsmith.util.version import VERSION as __version__


@functools.cache
def _tool_fingerprint() -> bytes:
    """The version, the grammars, the prelude and cardsmith's own source code: a checker
    or compiler changed without a new version number (a developer's tree, a patched
    install) must not be served results the old code worked out. Reading the ~75
    modules costs ~2 ms, once per process."""
    h = hashlib.sha256(__version__.encode())
    for package, name in (("cardsmith.grammar", "structure.lark"), ("cardsmith.grammar", "expr.lark"),
                          ("cardsmith.prelude", "core.cards")):
        h.update(resources.files(package).joinpath(name).read_bytes())
    h.update(source_fingerprint(Path(__file__).resolve().parents[1]))
    return h.digest()


def source_fingerprint(root: Path) -> bytes:
    """A hash of every Python module under `root`: its path and its bytes."""
    h = hashlib.sha256()
    for module in sorted(root.rglob("*.py")):
        h.update(str(module.relative_to(root)).encode() + b"\0" + len(module.read_bytes()).to_bytes(8, "big"))
        h.update(module.read_bytes())
    return h.digest()


def key_for(files: list[tuple[str, bytes]], purpose: str) -> str:
    h = hashlib.sha256(_tool_fingerprint())
    h.update(purpose.encode())
    for path, data in files:
        h.update(path.encode() + b"\0" + len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def load(key: str) -> dict[str, Any] | None:
    path = cache_dir() / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data


def store(key: str, payload: dict[str, Any]) -> None:
    # a cache that cannot be written is only slower, never wrong
    with contextlib.suppress(OSError):
        write_atomic(cache_dir() / f"{key}.json", json.dumps({"key": key, **payload}).encode())
