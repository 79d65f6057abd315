"""The old version of a game: a folder, a library game, or a git revision of the new one.

A revision (`HEAD~1`, a tag, a commit, or `REV:path` for a folder other than the new
game's) is exported with `git archive` into a temporary folder that lives as long as the
`with` block, so the old version is checked by the very same code as the new one. git
runs from a list of arguments, never through a shell, and the revision is verified with
`git rev-parse --verify` before anything else reads it: text starting with `-` could
otherwise be taken for an option (`--upload-pack=...`), so it is refused outright.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cardsmith.compiler.loader import is_library_game, library_games

_TIMEOUT = 60


class VersionError(Exception):
    """OLD names no version: `usage` (exit 2) when it cannot be a revision at all,
    otherwise bad input (exit 1): git missing, not a repository, an unknown revision."""

    def __init__(self, message: str, hint: str | None = None, usage: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.usage = usage


def folder_of(target: str) -> Path:
    """The folder of the new version, where a revision of it is looked up."""
    path = Path(target)
    if path.exists():
        return (path if path.is_dir() else path.parent).resolve()
    return library_games().get(target, path)


@contextmanager
def old_version(spec: str, new_target: str) -> Iterator[str]:
    """Yield a target check_game reads: `spec` itself when it is a folder or a library
    game, else the folder exported from the git revision `spec` of `new_target`."""
    if Path(spec).exists() or is_library_game(spec):
        yield spec
        return
    rev, colon, sub = spec.partition(":")
    if not rev or rev.startswith("-") or any(ch.isspace() or not ch.isprintable() for ch in spec):
        raise VersionError(f"'{spec}' is neither a folder, a library game nor a git revision",
                           "OLD is a folder, a library game, or a revision such as HEAD~1, a tag, or REV:path",
                           usage=True)
    folder = folder_of(new_target)
    commit = _verified(folder, rev)
    path = sub.strip("/") if colon else _git(folder, "rev-parse", "--show-prefix").decode().strip().strip("/")
    tree = f"{commit}:{path}"
    missing = (f"no folder '{path}' at revision {rev}", "REV:path names a folder from the top of the repository")
    if _git(folder, "cat-file", "-t", tree, fail=missing).strip() != b"tree":
        raise VersionError(f"'{path}' at revision {rev} is a file, not a game folder",
                           "name the game's folder: REV:path/to/game")
    # from the top of the work tree: run in a subfolder, git archive would look for that
    # subfolder inside the tree it is given
    top = Path(_git(folder, "rev-parse", "--show-toplevel").decode().strip())
    data = _git(top, "archive", "--format=tar", tree)
    with tempfile.TemporaryDirectory(prefix="cardsmith-old-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            archive.extractall(tmp, filter="data")
        if not any(Path(tmp).rglob("*.cards")):
            raise VersionError(f"no .cards files in '{path or '.'}' at revision {rev}",
                               "was the game in another folder then? name it: REV:path/to/game")
        yield tmp


def _verified(folder: Path, rev: str) -> str:
    """The commit `rev` names in the repository holding `folder`."""
    _git(folder, "rev-parse", "--show-prefix")  # is it a repository at all? (a clear error first)
    out = _git(folder, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}",
               fail=(f"unknown git revision '{rev}'",
                     "a commit, a tag or a branch, e.g. HEAD~1 (see `git log --oneline`)"))
    return out.decode().strip()


def _git(folder: Path, *args: str, fail: tuple[str, str] | None = None) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise VersionError("git is not installed, so a revision cannot be read",
                           "install git, or give OLD as a folder holding the old version")
    if not folder.is_dir():
        raise VersionError(f"'{folder}' is not a folder, so it has no git revisions",
                           "give NEW as the game's folder inside a git repository")
    try:
        done = subprocess.run([git, "-C", str(folder), *args], capture_output=True, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise VersionError(f"git could not run: {exc}") from None
    if done.returncode == 0:
        return done.stdout
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    if said and "not a git repository" in said[0]:
        raise VersionError(f"'{folder}' is not in a git repository, so OLD cannot be a revision",
                           "give OLD as a folder holding the old version")
    if fail is not None:
        raise VersionError(*fail)
    raise VersionError(f"git {args[0]} failed: {said[-1] if said else done.returncode}")
