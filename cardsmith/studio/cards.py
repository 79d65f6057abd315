"""Card faces for the studio, drawn by the same code as `cardsmith build` and cached.

A face is a page of a PDF made by the printer's own `CardRenderer` (as `build --png` does,
exports.faces_pdf), rasterised with pypdfium2 at a screen resolution. Making a PDF and
starting PDFium cost more than one card, so a request for a missing face renders a batch:
every face of the game not cached yet (bounded), in one PDF rasterised once. A gallery's
first image request then draws the whole game in about a second and the others find it
cached. Faces are kept in memory (an LRU bounded in bytes) and on disk under cardsmith's
cache folder (written atomically), keyed by what the face depends on: the snapshot's card
key (the card, its card type, enums and layouts), the keyword reminders it may print, the
art files of the game and cardsmith's own code. A card that cannot be drawn gets a
placeholder face (the printer's art placeholder and the reason), never a server error.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardsmith.compiler.cache import key_for
from cardsmith.dsl import ir
from cardsmith.printables.build import art_root, resolve_layouts
from cardsmith.printables.cards import CardRenderer
from cardsmith.printables.draw import Forms, Painter, placeholder, text_lines
from cardsmith.printables.geometry import MM
from cardsmith.printables.imposition import new_canvas
from cardsmith.printables.png import page_images
from cardsmith.studio.project import Snapshot, art_fingerprint
from cardsmith.util.atomic import write_atomic
from cardsmith.util.sealed import cache_dir

__all__ = ["DPI", "FaceCache", "faces_of"]

DPI = 150  # 373 x 520 px for a 63 x 88 mm card: sharp at twice a gallery thumbnail, ~10 ms a face
MEMORY_BYTES = 96 * 1024 * 1024  # the in-memory LRU's budget (a face is 20-60 kB)
BATCH = 160  # faces drawn per PDF at most
DISK_FOLDER = "studio-faces"
DISK_MAX_FILES = 4000  # older faces on disk are removed beyond this
SIDES = ("front", "back")


@dataclass(frozen=True)
class Face:
    """One rendered face: the PNG and, when the card could not be drawn, why."""

    png: bytes
    problem: str = ""


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:24]


def _png(image: Any) -> bytes:
    """PNG at a low compression level: encoding, not drawing, is the slow part of a face,
    and the bytes only travel to a browser on this machine."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def _draw_pdf(game: ir.Game, jobs: list[tuple[ir.CardDecl, str]]) -> bytes:
    """One page per (card, side), drawn as exports.faces_pdf draws them."""
    layouts = resolve_layouts(game, "a4", [])
    renderer = CardRenderer(game, layouts, "home", art_root(game))
    buf = io.BytesIO()
    c = new_canvas(buf, f"{game.game.name} — faces", (63 * MM, 88 * MM))
    forms = Forms(c)
    for card, side in jobs:
        lay = layouts[card.type]
        c.setPageSize((lay.width_mm * MM, lay.height_mm * MM))
        if side == "front":
            renderer.draw_front(c, forms, card, 0, 0)
        else:
            renderer.draw_back(c, forms, card, 0, 0)
        c.showPage()
    c.save()
    return buf.getvalue()


def _placeholder_pdf(game: ir.Game, card: ir.CardDecl, problem: str) -> bytes:
    """A face for a card the printer cannot draw: its size, the printer's art placeholder,
    its name and the reason."""
    from cardsmith.printables import fonts

    try:
        lay = resolve_layouts(game, "a4", [])[card.type]
        w, h = lay.width_mm * MM, lay.height_mm * MM
    except Exception:  # the layout itself is what fails
        w, h = 63 * MM, 88 * MM
    buf = io.BytesIO()
    c = new_canvas(buf, "placeholder", (w, h))
    placeholder(c, Painter("home"), w, h)
    text_lines(c, [card.name[:60]], fonts.BOLD, 9.0, 4 * MM, h - 6 * MM, w - 8 * MM, "center", (0, 0, 0), 11.0)
    text_lines(c, ["cannot be drawn:", problem[:60], problem[60:120]], fonts.REGULAR, 7.0, 4 * MM, 22 * MM,
               w - 8 * MM, "center", (0.6, 0, 0), 9.0)
    c.showPage()
    c.save()
    return buf.getvalue()


def draw_faces(game: ir.Game, jobs: list[tuple[ir.CardDecl, str]]) -> list[Face]:
    """The faces of `jobs`, one PDF for all; when that fails, one PDF per face so a card
    that cannot be drawn spoils only its own face."""
    try:
        return [Face(_png(image)) for image in page_images(_draw_pdf(game, jobs), DPI)]
    except Exception:
        if len(jobs) == 1:
            raise
    faces: list[Face] = []
    for card, side in jobs:
        try:
            faces.append(Face(_png(page_images(_draw_pdf(game, [(card, side)]), DPI)[0])))
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
            faces.append(Face(_png(page_images(_placeholder_pdf(game, card, problem), DPI)[0]), problem))
    return faces


class FaceCache:
    """The faces of one studio's game: in memory (bounded LRU), on disk, or drawn.

    Also remembers the last version of the game that checked, so pages still show cards
    while the game has errors."""

    def __init__(self, disk: Path | None) -> None:
        self.disk = disk
        self._lock = threading.Lock()  # the memory and the bookkeeping
        self._drawing = threading.Lock()  # one batch at a time (PDFium is not thread-safe)
        self._memory: OrderedDict[str, Face] = OrderedDict()
        self._bytes = 0
        self._extra: dict[int, str] = {}  # id(game) -> what every face of it also depends on
        self.last_good: Snapshot | None = None
        self.drawn = 0  # faces drawn by this process (tests and the benchmark read it)

    # -- which version of the game is printed ----------------------------------------
    def printed(self, snapshot: Snapshot) -> Snapshot | None:
        """The snapshot whose cards are shown: this one when it checks, else the last one
        that did (None when none has)."""
        shown = snapshot.shown
        with self._lock:
            if shown is not None and (self.last_good is None or shown.version >= self.last_good.version):
                self.last_good = shown
            return self.last_good

    # -- keys ------------------------------------------------------------------------
    def _shared(self, game: ir.Game) -> str:
        with self._lock:
            cached = self._extra.get(id(game))
        if cached is not None:
            return cached
        reminders = [(k.name, k.reminder, [p.name for p in k.params]) for k in game.keywords]
        value = _digest([reminders, game.game.name, art_fingerprint(art_root(game)), DPI])
        with self._lock:
            if len(self._extra) > 16:
                self._extra.clear()
            self._extra[id(game)] = value
        return value

    def key(self, snapshot: Snapshot, card: ir.CardDecl, side: str) -> str:
        assert snapshot.game is not None
        shared = self._shared(snapshot.game)
        if side == "back":  # a back shows the game's name and the card type
            ctype = next((t for t in snapshot.game.cardtypes if t.name == card.type), None)
            part = _digest(["back", card.type, ctype.plural if ctype else "", snapshot.card_keys.get(card.name)])
        else:
            part = snapshot.card_keys.get(card.name, "")
        return key_for([("face", f"{side}|{part}|{shared}".encode())], f"studio-face-{DPI}")

    # -- memory and disk -------------------------------------------------------------
    def _remember(self, key: str, face: Face) -> None:
        with self._lock:
            old = self._memory.pop(key, None)
            if old is not None:
                self._bytes -= len(old.png)
            self._memory[key] = face
            self._bytes += len(face.png)
            while self._bytes > MEMORY_BYTES and len(self._memory) > 1:
                _, dropped = self._memory.popitem(last=False)
                self._bytes -= len(dropped.png)

    def _recall(self, key: str) -> Face | None:
        with self._lock:
            face = self._memory.get(key)
            if face is not None:
                self._memory.move_to_end(key)
                return face
        if self.disk is None:
            return None
        try:
            data = (self.disk / f"{key}.png").read_bytes()
        except OSError:
            return None
        if not data.startswith(b"\x89PNG"):
            return None
        face = Face(data)
        self._remember(key, face)
        return face

    def _store(self, key: str, face: Face) -> None:
        self._remember(key, face)
        if self.disk is None or face.problem:  # a placeholder is not worth keeping
            return
        with contextlib.suppress(OSError):  # a cache that cannot be written is only slower
            write_atomic(self.disk / f"{key}.png", face.png)

    def prune_disk(self) -> None:
        """Keep the disk cache bounded: the oldest faces beyond DISK_MAX_FILES go."""
        if self.disk is None:
            return
        with contextlib.suppress(OSError):
            entries = sorted(self.disk.glob("*.png"), key=lambda p: p.stat().st_mtime)
            for path in entries[:max(0, len(entries) - DISK_MAX_FILES)]:
                path.unlink(missing_ok=True)

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()
            self._bytes = 0

    # -- faces -----------------------------------------------------------------------
    def face(self, snapshot: Snapshot, card: ir.CardDecl, side: str = "front") -> Face:
        """The face of `card` (a card of `snapshot`, which checks), drawing it — with the
        other missing faces of the game, in one batch — when no cache has it."""
        key = self.key(snapshot, card, side)
        found = self._recall(key)
        if found is not None:
            return found
        with self._drawing:
            found = self._recall(key)  # drawn by the batch another request was waiting for
            if found is not None:
                return found
            game = snapshot.game
            assert game is not None
            jobs: list[tuple[ir.CardDecl, str, str]] = [(card, side, key)]
            if side == "front":
                for other in game.cards:
                    if len(jobs) >= BATCH:
                        break
                    other_key = self.key(snapshot, other, "front")
                    if other.name != card.name and self._recall(other_key) is None:
                        jobs.append((other, "front", other_key))
            faces = draw_faces(game, [(c, s) for c, s, _ in jobs])
            for (_card, _side, job_key), drawn in zip(jobs, faces, strict=True):
                self._store(job_key, drawn)
            self.drawn += len(faces)
        if self.disk is not None and self.drawn % 500 < len(faces):
            self.prune_disk()
        return faces[0]


    def warm(self, snapshot: Snapshot) -> None:
        """Start drawing the game's faces in the background (a gallery page is on its
        way to the browser, whose image requests will follow within ~100 ms)."""
        game = snapshot.game
        if game is None or not game.cards or self._drawing.locked():
            return
        if self._recall(self.key(snapshot, game.cards[0], "front")) is not None:
            return

        def draw() -> None:
            with contextlib.suppress(Exception):  # the image request will say what is wrong
                self.face(snapshot, game.cards[0])

        threading.Thread(target=draw, name="studio-faces", daemon=True).start()


def default_disk() -> Path | None:
    """cardsmith's cache folder (CARDSMITH_CACHE_DIR, else the user's cache), if usable."""
    folder = cache_dir() / DISK_FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


_MAKING = threading.Lock()


def faces_of(app_state: Any) -> FaceCache:
    """The face cache of a studio app, made on first use."""
    with _MAKING:
        cache: FaceCache | None = getattr(app_state, "studio_faces", None)
        if cache is None:
            cache = FaceCache(default_disk())
            app_state.studio_faces = cache
        return cache
