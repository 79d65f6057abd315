"""The studio's web app: the FastAPI application, its routers, and the change stream.

`create_app(project)` builds the app; `serve` runs it under uvicorn. While the app runs,
the project watches the game's files (Project.watch) and `/events` streams each new
version to open pages (Server-Sent Events): a page re-reads what changed within a second
of a save. Requests must name this machine (TrustedHostMiddleware), so a web page
elsewhere cannot reach the studio through DNS rebinding; and a request that changes
something (a move, a simulation) must come from the studio's own pages (`same_origin`), so
another site open in the same browser cannot post moves to it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from cardsmith.studio import routes_balance, routes_cards, routes_decks, routes_play
from cardsmith.studio.project import Project, Snapshot
from cardsmith.studio.web import HERE, page, rendered_diagnostics, snapshot_of, templates

LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "testserver"]
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class SameOriginMiddleware:
    """Refuse a request that changes something when the browser says it comes from
    another site: `Sec-Fetch-Site: cross-site`, or an `Origin` whose host is not the one
    the request was sent to. (Tools that send neither header, like curl, are let through:
    they are the user's own.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS and not same_origin(scope):
            response = PlainTextResponse("refused: a request from another site", status_code=403)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def same_origin(scope: Scope) -> bool:
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    if headers.get("sec-fetch-site") == "cross-site":
        return False
    origin = headers.get("origin")  # ("null" from a sandboxed frame or a file: never this host)
    return origin is None or origin.split("://", 1)[-1] == headers.get("host")


def status(snapshot: Snapshot) -> dict[str, object]:
    """A version of the game in brief: what the change stream sends and /api/status gives."""
    return {"version": snapshot.version, "ok": snapshot.ok, **snapshot.counts(),
            "changed_cards": list(snapshot.changed_cards), "checked_at": snapshot.checked_at,
            "seconds": round(snapshot.seconds, 3)}


def create_app(project: Project, watch: bool = True, hosts: list[str] | None = None) -> FastAPI:
    """The studio for `project`. `watch`: re-check the game when its files change (tests
    that drive reloads by hand turn it off)."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stop = asyncio.Event()
        watcher = asyncio.create_task(project.watch(stop)) if watch else None
        try:
            yield
        finally:
            stop.set()
            if watcher is not None:
                watcher.cancel()

    app = FastAPI(title="cardsmith studio", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.project = project
    app.state.card_stats = {}  # set by the Balance page when a simulation finishes (web.card_stats_of)
    app.add_middleware(SameOriginMiddleware)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts or LOCAL_HOSTS)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for module in (routes_cards, routes_play, routes_balance, routes_decks):
        app.include_router(module.router)

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/cards", status_code=303)

    @app.get("/problems", response_class=HTMLResponse)
    def problems(request: Request) -> HTMLResponse:
        return page(request, "problems.html", "problems")

    @app.get("/fragments/problems", response_class=HTMLResponse)
    def problems_fragment(request: Request) -> HTMLResponse:
        snapshot = snapshot_of(request)
        return templates.TemplateResponse(request, "problems_panel.html", {
            "problems": rendered_diagnostics(snapshot), "counts": snapshot.counts(), "snapshot": snapshot})

    @app.get("/api/status")
    def api_status(request: Request) -> JSONResponse:
        return JSONResponse(status(snapshot_of(request)))

    @app.get("/events")
    async def events(request: Request, since: int = 0) -> StreamingResponse:
        """Server-Sent Events: one `change` event per new version after `since`."""

        async def stream() -> AsyncIterator[str]:
            seen = since
            yield "retry: 500\n\n"
            while not await request.is_disconnected():
                snapshot = await asyncio.to_thread(project.wait_for_change, seen, 1.0)
                if snapshot.version > seen:
                    seen = snapshot.version
                    yield f"event: change\nid: {seen}\ndata: {json.dumps(status(snapshot))}\n\n"
                else:
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return app


def serve(project: Project, host: str, port: int, on_ready: object = None) -> None:
    """Run the studio until interrupted (uvicorn; its access log off, errors to stderr)."""
    import uvicorn

    config = uvicorn.Config(create_app(project), host=host, port=port, log_level="warning", access_log=False)
    uvicorn.Server(config).run()
