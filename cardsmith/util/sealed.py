"""The cache folder, and sealed entries: cached data that is executed when loaded.

Compiled handlers (marshalled code objects, compiler/handlers.py) and the parser's
tables (util/larkcache.py) run when loaded, so they are sealed with an HMAC under a
per-user secret key kept in the cache folder (mode 0600): a file planted in the cache by
anyone who cannot read that key fails to verify and is rebuilt, never unmarshalled. It
lives in util, below the compiler, because the parser (dsl) caches through it too.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from cardsmith.util.atomic import write_atomic


def cache_dir() -> Path:
    override = os.environ.get("CARDSMITH_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardsmith"


KEY_FILE = "secret.key"
MAC_SIZE = hashlib.sha256().digest_size


def _secret_key() -> bytes:
    """The per-user key that seals executable entries, created on first use.

    Created atomically with O_EXCL and mode 0600 (a racing second process reads the
    winner's key). A key file that is not ours, or readable by others, is not trusted:
    raises OSError, and the caller then neither reads nor writes sealed entries."""
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        pass
    else:
        try:
            os.write(fd, secrets.token_bytes(32))
            os.fsync(fd)
        finally:
            os.close(fd)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            raise PermissionError(f"{path}: cache key must be owned by you with mode 0600")
        key = os.read(fd, 64)
    finally:
        os.close(fd)
    if len(key) < 32:
        raise OSError(f"{path}: cache key is too short")
    return key


def seal(data: bytes) -> bytes:
    """`data` with its HMAC-SHA256 in front, for store_sealed/load_sealed."""
    return hmac.new(_secret_key(), data, hashlib.sha256).digest() + data


def unseal(blob: bytes) -> bytes | None:
    """The data of a sealed blob, or None when its MAC does not verify (planted, damaged,
    or sealed under another user's key)."""
    mac, data = blob[:MAC_SIZE], blob[MAC_SIZE:]
    expected = hmac.new(_secret_key(), data, hashlib.sha256).digest()
    return data if len(mac) == MAC_SIZE and hmac.compare_digest(mac, expected) else None


def load_sealed(path: Path) -> bytes | None:
    """A sealed entry's data, or None: missing, unreadable, or failing its MAC."""
    try:
        return unseal(path.read_bytes())
    except OSError:
        return None


def store_sealed(path: Path, data: bytes) -> None:
    # a cache that cannot be written is only slower, never wrong
    with contextlib.suppress(OSError):
        write_atomic(path, seal(data))
