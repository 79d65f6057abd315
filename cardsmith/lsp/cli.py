"""`cardsmith lsp`: run the language server on stdin/stdout for an editor.

Mounted by cardsmith/cli.py. The protocol stack is the optional `lsp` extra, imported
only here when the command runs: without it the command says what to install (exit 2).
"""

from __future__ import annotations

from typing import Annotated

import typer

EXIT_USAGE = 2


def lsp_command(
    stdio: Annotated[bool, typer.Option("--stdio", help="talk over stdin/stdout (the default and only transport)")]
    = True,
    debounce: Annotated[int, typer.Option("--debounce", help="milliseconds of quiet after a keystroke before "
                                          "the game is re-checked")] = 200,
) -> None:
    """Run the language server for .cards files (diagnostics, hover, jump, completion) over stdio."""
    try:
        from cardsmith.lsp.server import serve
    except ImportError as exc:
        typer.echo(f"error: the language server needs pygls ({exc.name} is not installed)", err=True)
        typer.echo("  = hint: pip install 'cardsmith[lsp]'", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if debounce < 0:
        typer.echo("error: --debounce must be 0 or more milliseconds", err=True)
        raise typer.Exit(EXIT_USAGE)
    serve(debounce / 1000)
