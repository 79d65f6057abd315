"""A content-hash cache of check results, written atomically.

The key hashes the cardsmith version, the grammars, the core prelude, cardsmith's own
Python source and every game source file's path and bytes, so any change anywhere
misses. Entries are JSON; an unreadable or malformed entry is ignored and rewritten,
never trusted.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from cardsmith import __version__
from cardsmith.util.atomic import write_atomic


def cache_dir() -> Path:
    override = os.environ.get("CARDSMITH_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardsmith"


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
