"""Files and caches (issue 17): art stays inside the game folder, a planted cache entry is
never executed, card data is never a template, and builds are all new or all old with no
temp files left behind by a kill."""

from __future__ import annotations

import io
import marshal
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MINI_CARDS, MINI_RULES, write_game
from PIL import Image
from pypdf import PdfReader

from cardsmith.compiler.api import load_game_ir, read_files
from cardsmith.compiler.handlers import compiled_handlers, handlers_key
from cardsmith.compiler.loader import resolve
from cardsmith.compiler.text import fill_placeholders
from cardsmith.engine.game import CompiledGame
from cardsmith.printables import build as build_module
from cardsmith.printables.build import build, render
from cardsmith.printables.imposition import Options
from cardsmith.util.atomic import write_atomic
from cardsmith.util.sealed import KEY_FILE, MAC_SIZE, cache_dir, unseal

ROOT = Path(__file__).resolve().parent.parent


def pdf_text(data: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def png(path: Path, colour: tuple[int, int, int]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), colour).save(path)
    return path


# ---------------------------------------------------------------- art stays in the game folder

def game_with_art(tmp_path: Path, art: str) -> Path:
    cards = MINI_CARDS.replace('card "Knight" {', f'card "Knight" {{\n  art: "{art}"')
    return write_game(tmp_path / "game", {"rules.cards": MINI_RULES, "cards.cards": cards})


def art_errors(folder: Path) -> tuple[list[tuple[int, int, str, str | None]], bool, int]:
    """(line, column, message, hint) of every CS2009, whether the render is ok, and the
    line of the card's `art:` entry."""
    game = load_game_ir(str(folder))
    result = render(game, Options())
    lines = (folder / "cards.cards").read_text().splitlines()
    art_line = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("art:"))
    found = [(d.span.line, d.span.column, d.message, d.hint) for d in result.diagnostics if d.code == "CS2009"]
    assert all(d.severity.value == "error" for d in result.diagnostics if d.code == "CS2009")
    return found, result.ok, art_line


@pytest.mark.parametrize("kind", ["dotdot", "absolute", "symlink", "symlinked-folder"])
def test_art_outside_the_game_folder_is_a_located_error(tmp_path: Path, kind: str) -> None:
    secret = png(tmp_path / "private" / "secret.png", (200, 10, 10))
    art = {"dotdot": "../private/secret.png", "absolute": str(secret),
           "symlink": "art/knight.png", "symlinked-folder": "art/secret.png"}[kind]
    folder = game_with_art(tmp_path, art)
    if kind == "symlink":
        (folder / "art").mkdir()
        (folder / "art" / "knight.png").symlink_to(secret)
    if kind == "symlinked-folder":
        (folder / "art").symlink_to(secret.parent, target_is_directory=True)
    errors, ok, art_line = art_errors(folder)
    assert not ok
    assert len(errors) == 1
    line, column, message, hint = errors[0]
    assert (line, column) == (art_line, 3)
    assert "Knight" in message and "outside the game folder" in message
    assert hint and "relative" in hint
    out = tmp_path / "out"
    result = build(load_game_ir(str(folder)), out, Options())
    assert not result.ok and not out.exists()  # nothing written, the private image in no PDF


def test_art_warnings_do_not_reveal_whether_a_file_outside_exists(tmp_path: Path) -> None:
    png(tmp_path / "private" / "secret.png", (10, 200, 10))
    seen = []
    for name in ("secret.png", "nothing.png"):
        errors, _, _ = art_errors(game_with_art(tmp_path / name, f"../../private/{name}"))
        seen.append([(line, col, msg.replace(name, "X"), hint) for line, col, msg, hint in errors])
    assert seen[0] == seen[1] and seen[0]


def test_art_inside_the_game_folder_is_still_printed(tmp_path: Path) -> None:
    folder = game_with_art(tmp_path, "art/knight.png")
    png(folder / "art" / "knight.png", (10, 10, 200))
    # a symlink that stays inside the folder is fine too
    (folder / "art" / "alias.png").symlink_to(folder / "art" / "knight.png")
    for art in ("art/knight.png", "art/alias.png", "./art/knight.png"):
        (folder / "cards.cards").write_text(MINI_CARDS.replace('card "Knight" {', f'card "Knight" {{\n  art: "{art}"'))
        game = load_game_ir(str(folder))
        result = render(game, Options())
        assert result.ok, result.diagnostics
        assert not [d for d in result.diagnostics if d.code in ("CS2003", "CS2009")]
        assert b"/Image" in result.files["cards.pdf"]


# ---------------------------------------------------------------- the compiled-game cache

def test_a_planted_cache_entry_is_never_executed(tmp_path: Path, mini_game: Path) -> None:
    game_ir = load_game_ir(str(mini_game))
    key = handlers_key(read_files(resolve(str(mini_game))))
    marker = tmp_path / "pwned"
    payload = compile(f"open({str(marker)!r}, 'w').write('ran')\nHANDLERS = {{}}\n", "<planted>", "exec")
    entry = cache_dir() / f"handlers-{key}.bin"
    entry.parent.mkdir(parents=True, exist_ok=True)
    # planted bare, and planted behind a forged 32-byte "MAC"
    for blob in (marshal.dumps((payload, "planted")), b"\0" * MAC_SIZE + marshal.dumps((payload, "planted"))):
        entry.write_bytes(blob)
        compiled = CompiledGame(game_ir, key)
        assert not marker.exists()
        assert compiled.source != "planted" and "HANDLERS" in compiled.source
        data = unseal(entry.read_bytes())  # rebuilt, and sealed with this user's key
        assert data is not None and marshal.loads(data)[1] == compiled.source


def test_sealed_entries_are_cache_hits_and_the_key_is_private(mini_game: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game_ir = load_game_ir(str(mini_game))
    key = handlers_key(read_files(resolve(str(mini_game))))
    source, _ = compiled_handlers(game_ir, key)
    key_file = cache_dir() / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and len(key_file.read_bytes()) == 32

    def no_generate(*_: object) -> str:
        raise AssertionError("a sealed entry must be a cache hit")

    monkeypatch.setattr("cardsmith.compiler.handlers.generate", no_generate)
    assert compiled_handlers(game_ir, key)[0] == source
    # a key file others can read is not trusted: no entry is loaded (nor written)
    os.chmod(key_file, 0o644)
    with pytest.raises(AssertionError, match="cache hit"):
        compiled_handlers(game_ir, key)


# ---------------------------------------------------------------- card data is not a template

def test_card_names_and_text_print_as_written(tmp_path: Path) -> None:
    cards = MINI_CARDS.replace('card "Knight"', 'card "Sword {attack}"').replace(
        "  keywords: Charge\n", '  keywords: Charge\n  flavour: "Costs {cost} and {card.name}"\n')
    folder = write_game(tmp_path / "game", {"rules.cards": MINI_RULES, "cards.cards": cards})
    result = render(load_game_ir(str(folder)), Options())
    assert result.ok and not [d for d in result.diagnostics if d.code == "CS2007"]
    text = pdf_text(result.files["cards.pdf"])
    assert "Sword {attack}" in text and "Sword 3" not in text
    assert "Costs {cost} and {card.name}" in text


def test_layout_templates_still_fill_card_fields(tmp_path: Path) -> None:
    rules = MINI_RULES.replace("  enters: battlefield\n", "  enters: battlefield\n  layout: plain\n")
    layout = ('layout plain {\n  size: poker\n'
              '  region name { x: 4mm; y: 4mm; w: 55mm; h: 7mm; text: card.name }\n'
              '  region stats { x: 4mm; y: 20mm; w: 55mm; h: 7mm; text: "ATK {attack}" }\n}\n')
    cards = MINI_CARDS.replace('card "Knight"', 'card "Sword {attack}"')
    folder = write_game(tmp_path / "game", {"rules.cards": rules, "cards.cards": cards, "layout.cards": layout})
    text = pdf_text(render(load_game_ir(str(folder)), Options()).files["cards.pdf"])
    assert "ATK 3" in text and "Sword {attack}" in text


def test_placeholders_fill_in_one_pass() -> None:
    assert fill_placeholders("deal {amount} to {target}", {"amount": "{target}", "target": "X"}) == \
        "deal {target} to X"
    assert fill_placeholders("{unknown} stays", {}) == "{unknown} stays"


# ---------------------------------------------------------------- temp files and builds

KILL_WRITE = """
import os, signal, sys
from pathlib import Path
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)
from cardsmith.util.atomic import write_atomic
write_atomic(Path(sys.argv[1]), b"half")
"""


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_killed_write_leaves_no_temp_file_after_the_next_run(tmp_path: Path) -> None:
    target = tmp_path / "out" / "log.jsonl"
    write_atomic(target, b"old")
    proc = subprocess.run([sys.executable, "-c", KILL_WRITE, str(target)], cwd=ROOT, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert temps(target.parent) and target.read_bytes() == b"old"
    # the temp file of a writer that is still running is left alone
    live = target.parent / f".other.{os.getppid()}.abcdefgh.tmp"
    live.write_bytes(b"in progress")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert temps(target.parent) == [live.name]


KILL_BUILD = """
import os, signal, sys
from pathlib import Path
from cardsmith.compiler.api import load_game_ir
from cardsmith.printables import build as b
from cardsmith.printables.imposition import Options
real = b._stage_file
def stage(path, data):
    real(path, data)
    os.kill(os.getpid(), signal.SIGKILL)
b._stage_file = stage
b.build(load_game_ir(sys.argv[1]), Path(sys.argv[2]), Options())
"""


def test_a_failed_or_killed_build_leaves_the_old_files_and_no_temp_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_game(tmp_path / "game", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS})
    out = tmp_path / "out"
    (out / "notes.txt").parent.mkdir()
    (out / "notes.txt").write_text("mine")
    first = build(load_game_ir(str(folder)), out, Options())
    assert len(first.outputs) >= 2
    old = {p.name: p.read_bytes() for p in out.iterdir()}
    (folder / "cards.cards").write_text(MINI_CARDS.replace('"Archer"', '"Longbow Archer"'))
    # a reminder text both the cards and the action sheets print
    (folder / "rules.cards").write_text(MINI_RULES.replace("Strikes first.", "Strikes first, always."))
    game = load_game_ir(str(folder))
    names = [o.path.name for o in first.outputs]

    real = build_module._stage_file

    def failing(path: Path, data: bytes) -> None:
        if path.name == names[-1]:
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(build_module, "_stage_file", failing)
    with pytest.raises(OSError, match="No space") as caught:
        build(game, out, Options())
    assert caught.value.filename == str(out / names[-1])
    assert {p.name: p.read_bytes() for p in out.iterdir()} == old  # all old, nothing staged left
    monkeypatch.setattr(build_module, "_stage_file", real)

    proc = subprocess.run([sys.executable, "-c", KILL_BUILD, str(folder), str(out)], cwd=ROOT, timeout=300)
    assert proc.returncode == -signal.SIGKILL
    assert temps(out)  # the killed build's staging folder
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == old

    second = build(game, out, Options())
    assert temps(out) == []
    new = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(new) == set(old) and new["notes.txt"] == b"mine"
    assert all(new[n] != old[n] for n in names)  # every output from the new build
    assert "Longbow Archer" in pdf_text(new["cards.pdf"])
    assert [o.path for o in second.outputs] == [out / n for n in names]


class _Planted:
    """Unpickling this runs code: what a planted parser-table file would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return exec, (f"open({str(self.marker)!r}, 'w').write('ran')",)


def test_a_planted_parser_table_file_is_never_unpickled(tmp_path: Path) -> None:
    """The expression parser's tables are pickled in the cache folder; unpickling runs
    code, so only a file sealed with this user's key is loaded."""
    import pickle

    folder = write_game(tmp_path / "mini", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS})
    probe = f"from cardsmith.compiler.api import load_game_ir; print(len(load_game_ir({str(folder)!r}).cards))"
    env = {**os.environ, "CARDSMITH_CACHE_DIR": str(tmp_path / "cache")}

    def parse() -> str:
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0 and not proc.stderr, proc.stderr
        return proc.stdout

    assert parse() == "2\n"
    [tables] = (tmp_path / "cache").glob("lark-expr-*.bin")
    marker = tmp_path / "pwned"
    payload = pickle.dumps(_Planted(marker))
    for blob in (payload, b"\0" * MAC_SIZE + payload, tables.read_bytes()[:MAC_SIZE] + payload):
        tables.write_bytes(blob)
        assert parse() == "2\n"
        assert not marker.exists()
        assert tables.stat().st_size > 1000  # rebuilt whole, sealed again
