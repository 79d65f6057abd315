"""The command line starts fast because it imports a command's modules only when that
command runs (issue 18: `--help` and `--version` within 0.15 s; benchmarks/bench_startup.py
measures it). This test keeps the structure, without timing anything: starting the CLI
and printing its help loads no parser, IR, checker, engine or PDF module."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("cardsmith.compiler", "cardsmith.dsl", "cardsmith.engine", "cardsmith.printables.build",
         "cardsmith.decks.validate", "cardsmith.model", "pydantic", "lark", "reportlab", "typer.rich_utils",
         "cardsmith.studio.server", "fastapi", "starlette", "uvicorn", "watchfiles")

SCRIPT = """
import json, sys
from cardsmith.cli import app
try:
    app(["--help"])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def test_help_loads_none_of_the_heavy_modules() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert "Commands:" in done.stdout and "simulate" in done.stdout and "deck" in done.stdout
    heavy = [m for m in loaded if m.startswith(HEAVY)]
    assert heavy == [], heavy
