"""`cardsmith studio GAME`: serve the studio for a game on this machine.

Mounted by cardsmith/cli.py. The web stack is the optional `studio` extra, imported only
here when the command runs: without it the command says what to install (exit 2).
"""

from __future__ import annotations

import socket
from typing import Annotated

import typer

EXIT_INPUT, EXIT_USAGE = 1, 2
MAX_PORT = 65535


def _err(message: str) -> None:
    typer.echo(message, err=True)


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def studio_command(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    port: Annotated[int, typer.Option("--port", help="the port to serve on (0: any free port)")] = 8765,
    host: Annotated[str, typer.Option("--host", help="the address to serve on (default: this machine only)")]
    = "127.0.0.1",
    open_browser: Annotated[bool, typer.Option("--open", help="open the studio in the web browser")] = False,
) -> None:
    """Serve cardsmith studio: the cards, a playable match and the balance, in a browser."""
    try:
        from cardsmith.studio.project import Project
        from cardsmith.studio.server import serve
    except ImportError as exc:
        _err(f"error: the studio needs its web stack ({exc.name} is not installed)")
        _err("  = hint: pip install 'cardsmith[studio]'")
        raise typer.Exit(EXIT_USAGE) from None
    from cardsmith.compiler.loader import LoadError
    from cardsmith.dsl.diagnostics import problem

    if not 0 <= port <= MAX_PORT:
        _err(f"error: --port must be from 0 to {MAX_PORT}")
        raise typer.Exit(EXIT_USAGE)
    if port == 0:
        with socket.socket() as probe:
            probe.bind((host, 0))
            port = probe.getsockname()[1]
    elif not _port_free(host, port):
        _err(f"error: port {port} on {host} is in use")
        _err("  = hint: pick another with --port N (or --port 0 for any free port)")
        raise typer.Exit(EXIT_USAGE)
    try:
        project = Project(target)
    except LoadError as exc:
        _err(problem(exc.message, exc.hint))
        raise typer.Exit(EXIT_USAGE) from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    counts = project.snapshot.counts()
    state = f"{counts['errors']} error(s)" if counts["errors"] else "checks clean"
    _err(f"cardsmith studio: {project.target} ({state}); watching {project.root}")
    _err("press Ctrl-C to stop")
    typer.echo(url)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    serve(project, host, port)
