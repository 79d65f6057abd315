"""Run the code in a Markdown page, so a tutorial or a cookbook cannot rot.

A page marks what it means to be run with HTML comments, which Markdown viewers hide:

    <!-- file: mygame/rules.cards -->
    ```cards
    ...
    ```
    <!-- run: check mygame -->
    <!-- run 1: check mygame -->

`file:` writes the fenced block that follows it to that path (relative to a fresh folder
for the whole page; a later block for the same path replaces it, as a tutorial's next
step does). `run:` runs a cardsmith command line (without the word `cardsmith`) there, in
order, with everything written so far, and expects exit 0 — or the exit code after `run`
(`run 1:` for a step that shows a diagnostic). Each step remembers its line, so a failure
names the line of the page to fix.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

_FILE = re.compile(r"^<!--\s*file:\s*(?P<path>\S+)\s*-->\s*$")
_RUN = re.compile(r"^<!--\s*run(?:\s+(?P<code>\d+))?:\s*(?P<args>.+?)\s*-->\s*$")
_FENCE = re.compile(r"^(?P<fence>```+|~~~+)")


@dataclass(frozen=True)
class Step:
    """One thing the page asks for: a file written, or a command run."""

    line: int                 # 1-based line of the page's marker
    path: str | None = None   # a file step: where the block goes
    text: str = ""            # ... and what it holds
    args: tuple[str, ...] = ()  # a run step: the command line after `cardsmith`
    expect: int = 0           # ... and the exit code it must give


def steps(page: Path) -> list[Step]:
    """The page's file and run steps, in order. A `file:` marker with no fenced block after
    it (blank lines allowed) is an error in the page, raised at once."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Step] = []
    i = 0
    while i < len(lines):
        found = _FILE.match(lines[i].strip())
        if found:
            start = i + 1
            j = start
            while j < len(lines) and not lines[j].strip():
                j += 1
            fence = _FENCE.match(lines[j].strip()) if j < len(lines) else None
            if fence is None:
                raise ValueError(f"{page}:{i + 1}: a `file:` marker must be followed by a fenced block")
            close = fence.group("fence")
            k = j + 1
            while k < len(lines) and lines[k].strip() != close:
                k += 1
            if k >= len(lines):
                raise ValueError(f"{page}:{j + 1}: the fenced block is never closed")
            out.append(Step(line=i + 1, path=found.group("path"), text="\n".join(lines[j + 1:k]) + "\n"))
            i = k + 1
            continue
        run = _RUN.match(lines[i].strip())
        if run:
            out.append(Step(line=i + 1, args=tuple(shlex.split(run.group("args"))),
                            expect=int(run.group("code") or 0)))
        i += 1
    return out


@contextmanager
def _inside(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run_page(page: Path, folder: Path) -> list[tuple[Step, str]]:
    """Write the page's files into `folder` and run its commands there, in order. Returns
    each run step with its output; raises AssertionError naming the page's line when a
    command exits otherwise than the page says."""
    from cardsmith.cli import app

    runner = CliRunner()
    ran: list[tuple[Step, str]] = []
    page_steps = steps(page)  # (read before moving into the folder: the page's path may be relative)
    with _inside(folder):
        for step in page_steps:
            if step.path is not None:
                target = folder / step.path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(step.text, encoding="utf-8")
                continue
            result = runner.invoke(app, list(step.args), env={"NO_COLOR": "1"})
            output = result.output
            if result.exit_code != step.expect:
                raise AssertionError(
                    f"{page.name}:{step.line}: `cardsmith {' '.join(step.args)}` exited {result.exit_code}, "
                    f"the page says {step.expect}\n{output}\n{result.exception!r}")
            ran.append((step, output))
    return ran
