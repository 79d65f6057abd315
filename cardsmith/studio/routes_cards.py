"""The studio's cards pages: the gallery, a card's page, and the card faces they show.

Faces are served at web.card_image_url's address, `/cards/image/<name>.png?v=<key>`: the
key changes exactly when the card's face may, so a face whose `v` is current is cached
by the browser for good, and the gallery's script swaps in a new address only for the
cards whose key changed (`/api/cards` lists the current ones). While the game has errors
the pages show the last version that checked, saying so.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from cardsmith.dsl import ir
from cardsmith.studio.cardinfo import card_item, card_page, filters
from cardsmith.studio.cards import faces_of
from cardsmith.studio.project import Snapshot
from cardsmith.studio.web import card_image_url, card_stats_of, page, project_of, snapshot_of

router = APIRouter()

IMMUTABLE = "public, max-age=31536000, immutable"
MAX_NAME = 400


def _printed(request: Request) -> tuple[Snapshot | None, bool]:
    """The snapshot whose cards are shown, and whether it is older than the current one."""
    current = snapshot_of(request)
    printed = faces_of(request.app.state).printed(current)
    return printed, printed is not None and printed.version != current.version


def _card(snapshot: Snapshot | None, name: str) -> ir.CardDecl | None:
    if snapshot is None or snapshot.game is None or len(name) > MAX_NAME:
        return None
    return next((c for c in snapshot.game.cards if c.name == name), None)


def page_url(name: str) -> str:
    """A card's page; its name quoted whole, so a `/` in it is no path separator."""
    return "/cards/" + quote(name, safe="")


def _image_url(snapshot: Snapshot, name: str, side: str = "front") -> str:
    url = card_image_url(snapshot, name)
    return url + "&side=back" if side == "back" else url


def _gallery(request: Request) -> dict[str, Any]:
    printed, stale = _printed(request)
    if printed is None or printed.game is None:
        return {"printed": None, "stale": stale, "items": [], "filters": None}
    game = printed.game
    faces_of(request.app.state).warm(printed)
    items = [(card_item(game, card), _image_url(printed, card.name), page_url(card.name)) for card in game.cards]
    return {"printed": printed, "stale": stale, "items": items, "filters": filters(game)}


@router.get("/cards", response_class=HTMLResponse)
def gallery(request: Request) -> HTMLResponse:
    return page(request, "cards.html", "cards", **_gallery(request))


@router.get("/api/cards")
def cards_index(request: Request) -> JSONResponse:
    """The current face address of every card shown: the gallery's script compares it
    with the page's to swap changed faces and to notice cards added or removed."""
    printed, stale = _printed(request)
    cards = {c.name: _image_url(printed, c.name) for c in printed.game.cards} \
        if printed is not None and printed.game is not None else {}
    return JSONResponse({"version": snapshot_of(request).version, "shown": printed.version if printed else None,
                         "stale": stale, "cards": cards}, headers={"Cache-Control": "no-store"})


def _not_found(request: Request, name: str) -> HTMLResponse:
    response = page(request, "card.html", "cards", info=None, missing=name[:MAX_NAME], printed=None)
    response.status_code = 404
    return response


def _image(request: Request, name: str, side: str, v: str | None) -> Response:
    if not name.endswith(".png"):
        return JSONResponse({"detail": "a card face is <name>.png"}, status_code=404)
    name = name[:-4]
    printed, _stale = _printed(request)
    if printed is None:
        return JSONResponse({"detail": "the game has errors and no version of it has checked yet"},
                            status_code=409)
    card = _card(printed, name)
    if card is None:
        return JSONResponse({"detail": "no card of that name"}, status_code=404)
    face = faces_of(request.app.state).face(printed, card, side)
    current = v is not None and v == printed.card_keys.get(name)
    headers = {"Cache-Control": IMMUTABLE if current and not face.problem else "no-cache"}
    if face.problem:
        headers["X-Cardsmith-Problem"] = face.problem.encode("ascii", "replace").decode()[:300]
    return Response(face.png, media_type="image/png", headers=headers)


@router.get("/cards/image/{name:path}")
def card_image(request: Request, name: str,
               side: Annotated[str, Query(pattern="^(front|back)$")] = "front",
               v: Annotated[str | None, Query(max_length=80)] = None) -> Response:
    """A card's face as printed (PNG). `v` is the card's key: an address with the current
    key never changes, so it is cached for good."""
    if not request.scope.get("raw_path", b"/cards/image/").startswith(b"/cards/image/"):
        return card(request, "image/" + name)  # the page of a card whose name starts with "image/"
    return _image(request, name, side, v)


@router.get("/cards/{name:path}", response_class=HTMLResponse)
def card(request: Request, name: str) -> HTMLResponse:
    printed, stale = _printed(request)
    found = _card(printed, name)
    if found is None or printed is None or printed.game is None:
        return _not_found(request, name)
    info = card_page(printed.game, found, project_of(request).root)
    stats = card_stats_of(request).get(name)
    return page(request, "card.html", "cards", info=info, printed=printed, stale=stale, missing=None,
                front=_image_url(printed, name), back=_image_url(printed, name, "back"),
                sim=sorted(stats.items()) if isinstance(stats, dict) else None)
