"""The Decks page: the game's ready decks with their verdicts, and a decklist checked on demand.

A decklist pasted or uploaded is checked by the same call as `cardsmith deck check`
(decks.validate.check_decklist) against the game the studio shows now, and every
diagnostic is rendered as the CLI prints it (dsl.diagnostics.render: file, line, caret
snippet, hint), with the CLI's verdict line and `deck show`'s summary. Uploads are read
up to the decklist parser's own limit (decklist.MAX_BYTES); anything bigger is a 413.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from cardsmith.decks.decklist import MAX_BYTES
from cardsmith.dsl.diagnostics import render
from cardsmith.studio.project import Snapshot
from cardsmith.studio.web import page, snapshot_of

router = APIRouter()
PASTED = "pasted.deck"  # the file name a pasted decklist is reported under
MAX_NAME = 200
TOO_BIG = f"the decklist is over {MAX_BYTES:,} bytes: a decklist is a short text file"


def deck_context(snapshot: Snapshot) -> tuple[Any, str | None]:
    """The deck checker's context for this version of the game, or None and why not.
    The hints quote the game's rules, so the context carries this version's sources."""
    from cardsmith.decks.games import GameNotReady, context_for

    result = snapshot.result
    if result is None or not result.ok or result.game is None:
        return None, "The game has errors: fix them before checking decks (see Problems)."
    try:
        ctx = context_for(result.game, result.sources)
    except GameNotReady as exc:
        return None, f"{exc.message}: there are no decks to check in this game."
    return ctx, None


def verdict(report: Any, ctx: Any) -> dict[str, Any]:
    """A checked decklist as the page shows it: every diagnostic rendered as `deck check`
    prints it, its verdict line, and `deck show`'s summary."""
    from cardsmith.decks.show import deck_summary

    try:
        summary: dict[str, Any] | None = deck_summary(report, ctx)
    except Exception:  # a summary the rules cannot evaluate for this deck: the verdict still stands
        summary = None
    return {"path": report.source.path, "ok": report.ok, "line": _verdict_line(report, ctx),
            "diagnostics": [{"severity": d.severity.value, "text": render(d, report.sources, color=False)}
                            for d in report.diagnostics], "summary": summary}


def ready_decks(ctx: Any) -> list[dict[str, Any]]:
    """The game's ready decks (decks/*.deck in its folder), each checked now."""
    from cardsmith.decks.library import ready_deck_paths
    from cardsmith.decks.validate import check_decklist

    found = []
    for path in ready_deck_paths(ctx.game):
        try:
            report = check_decklist(f"decks/{path.name}", path.read_bytes()[:MAX_BYTES + 1], ctx)
        except OSError as exc:
            found.append({"name": path.stem, "ok": False, "line": f"cannot read {path.name}: {exc.strerror}"})
            continue
        found.append({"name": path.stem, "ok": report.ok, "line": _verdict_line(report, ctx)})
    return found


def _verdict_line(report: Any, ctx: Any) -> str:
    """The CLI's own verdict line (`deck check`'s last line), so the two never differ."""
    from cardsmith.decks.show import verdict as verdict_line

    return verdict_line(report, ctx)


def _page(request: Request, checked: dict[str, Any] | None = None, text: str = "", status: int = 200,
          refused: str | None = None) -> HTMLResponse:
    snapshot = snapshot_of(request)
    ctx, problem = deck_context(snapshot)
    decks = ready_decks(ctx) if ctx is not None else []
    response = page(request, "decks.html", "decks", ctx=ctx, problem=problem, decks=decks, checked=checked,
                    text=text, refused=refused, limit=MAX_BYTES)
    response.status_code = status
    return response


@router.get("/decks", response_class=HTMLResponse)
def decks_page(request: Request) -> HTMLResponse:
    return _page(request)


@router.get("/decks/ready/{name}", response_class=HTMLResponse)
def ready_deck(request: Request, name: str) -> HTMLResponse:
    """One ready deck checked, its text in the form to edit and check again."""
    from cardsmith.decks.library import ready_deck_paths
    from cardsmith.decks.validate import check_decklist

    ctx, problem = deck_context(snapshot_of(request))
    if ctx is None:
        raise HTTPException(status_code=409, detail=problem)
    path = next((p for p in ready_deck_paths(ctx.game) if p.stem == name), None)
    if path is None:
        raise HTTPException(status_code=404, detail=f"no ready deck named {name!r}")
    data = path.read_bytes()[:MAX_BYTES + 1]
    report = check_decklist(f"decks/{path.name}", data, ctx)
    return _page(request, verdict(report, ctx), data.decode("utf-8", errors="replace"))


# the most a check request's body may be: a decklist of the limit, as text or a file, and the form around it
MAX_BODY = 2 * MAX_BYTES + 64_000


@router.post("/decks/check", response_class=HTMLResponse)
async def check_deck(request: Request) -> HTMLResponse:
    """Check a pasted (`text`) or uploaded (`file`, wins over the text) decklist: 413 when
    it is over the size limit, 409 when the game cannot check decks. The form is read here,
    not by FastAPI, so a body over the limit is refused before it is read."""
    from starlette.datastructures import UploadFile
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from cardsmith.decks.validate import check_decklist

    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        return _page(request, status=413, refused=TOO_BIG)
    try:
        form = await request.form(max_files=1, max_fields=4, max_part_size=MAX_BODY)
    except StarletteHTTPException as exc:
        raise HTTPException(status_code=400, detail=f"not a form this page sends: {exc.detail}") from None
    ctx, problem = deck_context(snapshot_of(request))
    if ctx is None:
        return _page(request, status=409, refused=problem)
    text, upload = form.get("text"), form.get("file")
    name, data = PASTED, (text if isinstance(text, str) else "").encode("utf-8")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read(MAX_BYTES + 1)
        name = Path(upload.filename).name[:MAX_NAME] or PASTED
    if len(data) > MAX_BYTES:
        return _page(request, status=413, refused=TOO_BIG)
    report = check_decklist(name, data, ctx)
    return _page(request, verdict(report, ctx), data.decode("utf-8", errors="replace"))
