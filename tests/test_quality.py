"""The code stays ruff-clean and mypy-clean (strict), checked in the suite itself."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import ROOT


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("ruff") is None and run("ruff", "--version").returncode != 0,
                    reason="ruff is not installed")
def test_ruff_clean() -> None:
    proc = run("ruff", "check", "cardsmith", "tests", "benchmarks")
    assert proc.returncode == 0, proc.stdout[-4000:]


def test_mypy_strict_clean() -> None:
    proc = run("mypy", "cardsmith")
    assert proc.returncode == 0, proc.stdout[-4000:]
