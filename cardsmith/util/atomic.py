"""Atomic file writes: a temp file in the same folder, fsync, then rename.

An error or a kill mid-write never leaves a half-written PDF, log or cache entry. The
written file keeps the permissions of the file it replaces (or the umask's default for
a new one), and writing through a symlink replaces the file it points to, not the link.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: Path, data: bytes) -> None:
    """_write_atomic, with any OSError naming `path` (not a temp file's name)."""
    try:
        _write_atomic(path, data)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc


def _write_atomic(path: Path, data: bytes) -> None:
    """Replace the regular file at `path` (or create it) all at once.

    Anything else already at `path` is not replaced: a folder is an error
    (IsADirectoryError), and a device or a pipe (/dev/stdout, a FIFO) is written to
    directly — it holds no half-written file to protect, and renaming over it would
    turn it into a plain file. Write errors (a full disk) surface as OSError."""
    path = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        existing = path.stat()
    except OSError:
        existing = None
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path))
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "wb") as handle:
            handle.write(data)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = _default_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))
