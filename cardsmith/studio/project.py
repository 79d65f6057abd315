"""The game a studio shows, checked again whenever one of its files changes.

A `Project` holds the latest `Snapshot` of the game: the check result (diagnostics and
sources, also when the game has errors), the compiled game when it checks, and which
cards changed since the snapshot before. Pages read a snapshot and never the files, so a
page is always consistent with one version of the game. `watch` (watchfiles, the file
watcher uvicorn uses) re-checks on every save and wakes whoever waits in `changed_since`:
the page's event stream turns that into "the game changed, here is what" within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsmith.app import reload
from cardsmith.compiler.api import CheckResult, GameError, check_game
from cardsmith.compiler.loader import GameFiles, LoadError, resolve
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Diagnostic, Severity
from cardsmith.engine.game import CompiledGame

__all__ = ["Project", "Snapshot", "card_keys"]

# files whose change re-checks the game: its sources, decks and art
ART_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp")
WATCHED_SUFFIXES = (".cards", ".deck", ".csv", ".xlsx", *ART_SUFFIXES)  # (sheets: card data, `cards "x.csv"`)
ART_MAX_FILES = 5000  # art files fingerprinted at most (a folder of photos is not a game's art)


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:24]


def art_fingerprint(root: Path) -> str:
    """Every image file under the game's folder, by path, size and modification time: a
    layout may print any of them, and changing an art file changes no card's source."""
    found: list[tuple[str, int, int]] = []
    if root.is_dir():
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.lower().endswith(ART_SUFFIXES):
                    with contextlib.suppress(OSError):
                        st = os.stat(os.path.join(folder, name))
                        found.append((os.path.join(folder, name), st.st_size, st.st_mtime_ns))
                if len(found) >= ART_MAX_FILES:
                    return _digest(found)
    return _digest(found)


def _without_spans(value: Any) -> Any:
    """A dumped IR node with every `span` left out: moving a card down the file (a line
    added above it) does not change the card."""
    if isinstance(value, dict):
        return {k: _without_spans(v) for k, v in value.items() if k != "span"}
    if isinstance(value, list):
        return [_without_spans(v) for v in value]
    return value


def _printing_key(game: ir.Game, art: str) -> str:
    """What every card's picture depends on besides the card: the card types, enums
    (colours, icons), layouts, keywords (their reminder text is printed), the game's name
    (on the backs) and the art files (`art`: their fingerprint)."""
    parts = {"cardtypes": [t.model_dump(mode="json") for t in game.cardtypes],
             "enums": [e.model_dump(mode="json") for e in game.enums],
             "layouts": [layout.model_dump(mode="json") for layout in game.layouts],
             "keywords": [(k.name, k.reminder, [p.name for p in k.params]) for k in game.keywords],
             "name": game.game.name, "art": art}
    return _digest(_without_spans(parts))


def card_keys(game: ir.Game, art: str = "") -> dict[str, str]:
    """A key per card name that changes exactly when the card's printed face may change:
    the card itself (not where it stands in the file) and everything its layout reads."""
    shared = _printing_key(game, art)
    keys: dict[str, str] = {}
    for card in game.cards:
        body = json.dumps(_without_spans(card.model_dump(mode="json")), sort_keys=True, default=str)
        keys[card.name] = hashlib.sha256(f"{shared}\n{body}".encode()).hexdigest()[:20]
    return keys


@dataclass(frozen=True)
class Snapshot:
    """One version of the game as checked: what every page of that version reads."""

    version: int
    result: CheckResult | None  # None when the target could not be read at all
    compiled: CompiledGame | None  # None when the game has errors (or its decks cannot be dealt)
    problem: str | None  # why there is no compiled game beyond the diagnostics (a load error)
    card_keys: dict[str, str] = field(default_factory=dict)
    last_ok: Snapshot | None = None  # when this version has errors: the latest one that checked
    changed_cards: tuple[str, ...] = ()  # cards whose key differs from the version before
    checked_at: float = 0.0  # time.time() when this version was made
    seconds: float = 0.0  # how long checking and compiling took

    @property
    def ok(self) -> bool:
        return self.compiled is not None

    @property
    def shown(self) -> Snapshot | None:
        """The version whose cards pages show: this one when it checks, else the latest
        that did (None when none has yet)."""
        return self if self.ok else self.last_ok

    @property
    def game(self) -> ir.Game | None:
        return self.result.game if self.result is not None else None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.result.diagnostics if self.result is not None else []

    def counts(self) -> dict[str, int]:
        errors = sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)
        return {"errors": errors, "warnings": len(self.diagnostics) - errors}


class Project:
    """The studio's game: a library name or a folder, re-checked on change.

    Raises LoadError at construction when `target` names no game (the CLI's usage
    error); a game with errors is fine — its snapshot carries the diagnostics."""

    def __init__(self, target: str, on_change: Callable[[Snapshot], None] | None = None) -> None:
        self.target = target
        self.files: GameFiles = resolve(target)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._snapshot: Snapshot | None = None
        self._on_change = on_change
        self.reload()

    @property
    def root(self) -> Path:
        return self.files.root

    @property
    def snapshot(self) -> Snapshot:
        assert self._snapshot is not None
        return self._snapshot

    def watched_folders(self) -> list[Path]:
        return [self.files.root, *self.files.expansion_roots]

    def reload(self) -> Snapshot:
        """Check and compile the game as its files are now; the new snapshot replaces
        the old and wakes everyone waiting for a change."""
        start = time.perf_counter()
        before = self._snapshot
        result: CheckResult | None = None
        compiled: CompiledGame | None = None
        problem: str | None = None
        try:
            self.files = resolve(self.target)
            result = check_game(self.target)
            if result.ok and result.game is not None:
                compiled = reload(self.target, result.game)
        except LoadError as exc:
            problem = exc.message
        except GameError as exc:  # changed again between the check and the compile
            result = exc.result
        except Exception as exc:  # a deck that cannot be dealt, an unreadable file
            problem = f"{type(exc).__name__}: {exc}"
        keys = card_keys(result.game, art_fingerprint(self.files.root)) \
            if result is not None and result.game is not None else {}
        old = before.card_keys if before is not None else {}
        changed = tuple(sorted(name for name, key in keys.items() if old.get(name) != key)) if before else ()
        snapshot = Snapshot(version=(before.version + 1) if before else 1, result=result, compiled=compiled,
                            problem=problem, card_keys=keys, changed_cards=changed, checked_at=time.time(),
                            seconds=time.perf_counter() - start,
                            last_ok=None if compiled is not None or before is None else before.shown)
        with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()
        if self._on_change is not None:
            self._on_change(snapshot)
        return snapshot

    def wait_for_change(self, since: int, timeout: float) -> Snapshot:
        """The snapshot after version `since`, waiting up to `timeout` seconds for it
        (the current one when none comes)."""
        with self._changed:
            self._changed.wait_for(lambda: self.snapshot.version > since, timeout=timeout)
            return self.snapshot

    async def watch(self, stop: asyncio.Event) -> None:
        """Re-check the game whenever one of its files is saved, until `stop` is set.
        Saves that come together (an editor writing a file in two steps) are one change."""
        from watchfiles import awatch

        def relevant(_change: Any, path: str) -> bool:
            return path.endswith(WATCHED_SUFFIXES)

        folders = [str(folder) for folder in self.watched_folders() if folder.is_dir()]
        if not folders:
            return
        async for _changes in awatch(*folders, watch_filter=relevant, stop_event=stop, debounce=150, step=50):
            await asyncio.to_thread(self.reload)
