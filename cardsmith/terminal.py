"""The terminal of a person playing (`cardsmith play --human N`): reading their answers and
showing them the table.

A front end like the studio: the engine's table (engine/table.py) builds what to show as
rich renderables; this module is where they are printed — to stderr, so stdout holds only
the match's result — in colour unless `NO_COLOR` is set or stderr is no terminal.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer


def ask_line(question: str) -> str:
    """A line from the person playing at the terminal (or a pipe). The question goes to
    stderr and nothing to stdout, which holds only the result (click's prompt writes a
    space there); the end of the input stops the match (typer.Abort)."""
    sys.stderr.write(f"{question}: ")
    sys.stderr.flush()
    line = sys.stdin.readline()
    if not line:
        raise typer.Abort()
    return line.strip()


def show(renderable: Any) -> None:
    """Print a renderable (or text) for the person, on stderr."""
    from rich.console import Console

    Console(stderr=True, no_color="NO_COLOR" in os.environ, highlight=False).print(renderable)
