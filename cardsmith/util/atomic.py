"""Atomic file writes: a temp file in the same folder, fsync, then rename.

An error or a kill mid-write never leaves a half-written PDF, log or cache entry. The
written file keeps the permissions of the file it replaces (or the umask's default for
a new one), and writing through a symlink replaces the file it points to, not the link.

A kill between creating the temp file and renaming it leaves the temp file behind; its
name carries the writer's process id (`.NAME.PID.XXXXXXXX.tmp`), so the next write to
the same folder removes those whose process is gone (`clean_stale`). A temp file of a
writer still running is left alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


_OURS = re.compile(r"\.(?P<pid>\d+)\.[A-Za-z0-9_]{8}\.tmp$")


def temp_prefix(name: str) -> str:
    """The prefix of our temp files for `name`: the process id lets a later run tell a
    kill's leftovers from a write still under way."""
    return f".{name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    """Whether process `pid` may still be writing (when unsure: yes, keep its file)."""
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but not ours to signal
        return True
    return True


def clean_stale(folder: Path) -> None:
    """Remove temp files and folders a killed writer left in `folder` (never another
    file: only names of our own `.NAME.PID.XXXXXXXX.tmp` form)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(".") or not entry.name.endswith(".tmp"):
            continue
        match = _OURS.search(entry.name)
        try:
            if match is None or _alive(int(match["pid"])):
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            continue  # another run cleaned it first, or it is not ours to remove


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
    clean_stale(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=".tmp", dir=path.parent)
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
