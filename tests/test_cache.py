"""The content-hash result cache: hits when nothing changed, never trusts bad entries."""

from __future__ import annotations

import json
from pathlib import Path

from cardsmith.compiler import cache
from cardsmith.compiler.api import check_game
from cardsmith.util.atomic import write_atomic


def test_second_check_is_a_cache_hit_with_the_same_diagnostics(mini_game: Path) -> None:
    (mini_game / "extra.cards").write_text('card "Z" { type: Unit; faction: Rde; attack: 1 }')
    first = check_game(str(mini_game), use_cache=True)
    second = check_game(str(mini_game), use_cache=True)
    assert not first.cached and second.cached
    assert first.diagnostics == second.diagnostics and not second.ok


def test_any_change_misses(mini_game: Path) -> None:
    check_game(str(mini_game), use_cache=True)
    (mini_game / "cards.cards").write_text((mini_game / "cards.cards").read_text() + "\n# note\n")
    assert not check_game(str(mini_game), use_cache=True).cached


def test_corrupt_entries_are_rebuilt(mini_game: Path) -> None:
    check_game(str(mini_game), use_cache=True)
    entries = list(cache.cache_dir().glob("*.json"))
    assert len(entries) == 1
    for garbage in (b"{not json", json.dumps({"key": "other"}).encode(),
                    json.dumps({"key": entries[0].stem, "diagnostics": [{"bogus": 1}]}).encode()):
        entries[0].write_bytes(garbage)
        result = check_game(str(mini_game), use_cache=True)
        assert not result.cached and result.ok
    assert json.loads(entries[0].read_text())["key"] == entries[0].stem


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "out" / "file.bin"
    write_atomic(target, b"first")
    write_atomic(target, b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in target.parent.iterdir()] == ["file.bin"]


def test_atomic_write_keeps_permissions_and_follows_symlinks(tmp_path: Path) -> None:
    import os
    import stat

    target = tmp_path / "real.cards"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.cards"
    link.symlink_to(target)
    write_atomic(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.cards"
    write_atomic(fresh, b"x")
    assert stat.S_IMODE(fresh.stat().st_mode) & 0o044  # readable by others, like a normal new file


def test_the_expression_parser_tables_are_cached_and_a_bad_file_is_rebuilt(tmp_path: Path) -> None:
    """Lark keeps the LALR tables in the cache folder (start-up); a truncated or foreign
    file there is rebuilt silently, and the parser parses the same either way."""
    import os
    import subprocess
    import sys

    from conftest import MINI_CARDS, MINI_RULES, write_game

    folder = write_game(tmp_path / "mini", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS})
    probe = ("from cardsmith.compiler.api import load_game_ir; "
             f"game = load_game_ir({str(folder)!r}); print(repr(game.procedures), repr(game.actions))")
    cache_folder = tmp_path / "cache"
    env = {**os.environ, "CARDSMITH_CACHE_DIR": str(cache_folder)}

    def parse() -> str:
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0 and not proc.stderr, proc.stderr
        return proc.stdout

    fresh = parse()
    [tables] = cache_folder.glob("lark-expr-*.bin")
    assert parse() == fresh  # from the cached tables
    for garbage in (tables.read_bytes()[:300], b"garbage"):
        tables.write_bytes(garbage)
        assert parse() == fresh
        assert tables.stat().st_size > 1000  # written again whole


def test_a_changed_checker_or_compiler_misses_the_cache(tmp_path: Path) -> None:
    """cardsmith's own source is part of every cache key: results worked out by older
    code (the same version number, a developer's tree) are never served."""
    from cardsmith.compiler.cache import source_fingerprint

    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "check.py"
    module.write_text("RULE = 1\n")
    before = source_fingerprint(tmp_path)
    assert source_fingerprint(tmp_path) == before
    module.write_text("RULE = 2\n")
    assert source_fingerprint(tmp_path) != before
    (tmp_path / "pkg" / "other.py").write_text("")
    assert len({before, source_fingerprint(tmp_path)}) == 2
