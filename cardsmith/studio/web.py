"""What every studio page shares: the templates, the project of a request, a page's context.

Routers (routes_*.py) get the `Project` from the app's state and render templates that
extend `base.html`; `page` adds what the layout needs (the game's name, the check status,
the navigation) so a router passes only its own data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from cardsmith.dsl.diagnostics import render
from cardsmith.studio.project import Project, Snapshot

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))

NAVIGATION = [("cards", "Cards", "/cards"), ("play", "Play", "/play"), ("balance", "Balance", "/balance"),
              ("decks", "Decks", "/decks"), ("problems", "Problems", "/problems")]


def project_of(request: Request) -> Project:
    project: Project = request.app.state.project
    return project


def snapshot_of(request: Request) -> Snapshot:
    return project_of(request).snapshot


def compiled_or_409(snapshot: Snapshot) -> Any:
    """The compiled game of a snapshot, or a 409 saying the game has errors to fix first."""
    if snapshot.compiled is None:
        raise HTTPException(status_code=409, detail="the game has errors: fix them first (see Problems)")
    return snapshot.compiled


def rendered_diagnostics(snapshot: Snapshot) -> list[dict[str, str]]:
    """Each diagnostic as the CLI prints it (file:line:col, caret snippet, hint), uncoloured."""
    sources = snapshot.result.sources if snapshot.result is not None else {}
    out = [{"severity": d.severity.value, "code": d.code, "text": render(d, sources, color=False)}
           for d in snapshot.diagnostics]
    if snapshot.problem:
        out.insert(0, {"severity": "error", "code": "", "text": f"error: {snapshot.problem}"})
    return out


def page(request: Request, template: str, section: str, **context: Any) -> HTMLResponse:
    """A full page: `template` (extending base.html) with the layout's context added."""
    snapshot = snapshot_of(request)
    game = snapshot.game
    title = game.game.name if game is not None else project_of(request).target
    return templates.TemplateResponse(request, template, {
        "section": section, "navigation": NAVIGATION, "game_title": title, "snapshot": snapshot,
        "counts": snapshot.counts(), "problems": rendered_diagnostics(snapshot), **context})


def card_image_url(snapshot: Snapshot, name: str) -> str:
    """Where a card's rendered face is served (routes_cards): versioned by the card's key,
    so a browser re-fetches exactly the cards that changed."""
    from urllib.parse import quote

    return f"/cards/image/{quote(name, safe='')}.png?v={snapshot.card_keys.get(name, '0')}"


def card_stats_of(request: Request) -> dict[str, dict[str, Any]]:
    """Per-card statistics of the last simulation run from the Balance page (card name ->
    its figures), for the card pages; empty until a run finishes."""
    stats: dict[str, dict[str, Any]] = getattr(request.app.state, "card_stats", {})
    return stats
