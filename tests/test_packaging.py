"""The built wheel carries the grammars, the prelude and the five library games, and
`cardsmith check GAME` works by name from an installed copy outside the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import GAMES, ROOT

PACKAGES = {p.name for p in (ROOT / "cardsmith").iterdir() if (p / "__init__.py").exists()}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (found,) = out.glob("cardsmith-*.whl")
    return found


def test_every_subpackage_is_listed_in_pyproject() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    for name in PACKAGES:
        assert f'"cardsmith.{name}"' in text, name


def test_wheel_contains_grammars_prelude_and_library(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cardsmith/grammar/structure.lark" in names and "cardsmith/grammar/expr.lark" in names
    assert "cardsmith/prelude/core.cards" in names
    for game in GAMES:
        assert f"cardsmith/library/{game}/rules.cards" in names, game
    assert "cardsmith/studio/templates/base.html" in names and "cardsmith/studio/static/studio.js" in names


def test_installed_copy_checks_library_games_by_name(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    deps = [p for p in sys.path if "site-packages" in p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *deps]), "NO_COLOR": "1"}
    env.pop("CARDSMITH_LIBRARY", None)
    proc = subprocess.run([sys.executable, "-I", "-c",
                           "import sys; sys.path[:0] = __import__('os').environ['PYTHONPATH'].split("
                           "__import__('os').pathsep); from cardsmith.cli import main; "
                           "sys.argv = ['cardsmith', 'check', 'kingdom_combat', '--no-cache']; main()"],
                          cwd=elsewhere, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "kingdom_combat: ok" in proc.stderr
    assert str(site) in subprocess.run(
        [sys.executable, "-I", "-c", "import sys; sys.path[:0] = __import__('os').environ['PYTHONPATH']"
         ".split(__import__('os').pathsep); import cardsmith.compiler.loader as l; "
         "print(l.library_games()['kingdom_combat'])"],
        cwd=elsewhere, capture_output=True, text=True, env=env, timeout=120).stdout
