"""The Balance page: start a `simulate` run, watch its progress, read its results and charts.

The run itself lives in balance.py (one per studio, in the background); this router
only validates the form (bounded numbers, agents as the CLI checks them), answers the
progress poll, and renders the last run's page data. The charts are the same SVG the
`simulate --plots` files are (engine/plots.py), kept in memory with the run.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from cardsmith.engine.agents import DEFAULT_AGENT
from cardsmith.engine.plots import CHARTS
from cardsmith.engine.simulate import MAX_ACTIONS, MAX_ACTIONS_LIMIT
from cardsmith.studio.balance import (
    MAX_AGENT_TEXT,
    MAX_MATCHES,
    MAX_SEED,
    Busy,
    Refused,
    Run,
    Runner,
    Settings,
    card_stats,
)
from cardsmith.studio.web import page, project_of, snapshot_of

router = APIRouter()
_RUNNER_LOCK = threading.Lock()
AGENT_CHOICES = ("random", "variety", "greedy", "search:50", "search:200")


def runner_of(request: Request) -> Runner:
    """The studio's runner (made on first use, one per app)."""
    state = request.app.state
    with _RUNNER_LOCK:
        runner: Runner | None = getattr(state, "balance_runner", None)
        if runner is None:
            runner = Runner()
            state.balance_runner = runner
        return runner


def _seats(request: Request) -> int:
    from cardsmith.engine.setup import default_players

    compiled = snapshot_of(request).compiled
    return default_players(compiled, None) if compiled is not None else 0


def _context(request: Request) -> dict[str, Any]:
    runner = runner_of(request)
    run = runner.last
    return {"run": run, "progress": run.progress() if run is not None else None, "seats": _seats(request),
            "limits": {"matches": MAX_MATCHES, "seed": MAX_SEED, "max_actions": MAX_ACTIONS_LIMIT},
            "defaults": {"max_actions": MAX_ACTIONS, "agent": DEFAULT_AGENT}, "agent_choices": AGENT_CHOICES,
            "charts": CHARTS, "current_version": snapshot_of(request).version}


@router.get("/balance", response_class=HTMLResponse)
def balance_page(request: Request) -> HTMLResponse:
    return page(request, "balance.html", "balance", **_context(request))


@router.post("/balance/start")
def balance_start(
    request: Request,
    matches: Annotated[int, Form(ge=1, le=MAX_MATCHES)] = 100,
    seed: Annotated[int, Form(ge=0, le=MAX_SEED)] = 1,
    agent: Annotated[list[str] | None, Form(max_length=MAX_AGENT_TEXT)] = None,
    max_actions: Annotated[int, Form(ge=1, le=MAX_ACTIONS_LIMIT)] = MAX_ACTIONS,
    rotate: Annotated[bool, Form()] = False,
    leave_out_untested: Annotated[bool, Form()] = False,
) -> Response:
    """Start a run of the game as it is now: 202 with its progress (409: one is running,
    or the game has errors; 400: a bad agent)."""
    kinds = tuple(k.strip() for k in (agent or []) if k.strip()) or (DEFAULT_AGENT,)
    if len(kinds) > 16:
        raise HTTPException(status_code=400, detail="too many agents")
    settings = Settings(matches=matches, seed=seed, agents=kinds, max_actions=max_actions, rotate=rotate,
                        untested=leave_out_untested)
    project = project_of(request)
    snapshot = project.snapshot
    if snapshot.compiled is None:
        raise HTTPException(status_code=409, detail="the game has errors: fix them first (see Problems)")

    runner = runner_of(request)
    try:
        run = runner.start(snapshot, project.target, settings, _publish(request), lambda: project.snapshot.version)
    except Busy as exc:
        raise HTTPException(status_code=409, detail=str(exc)) from None
    except Refused as exc:
        raise HTTPException(status_code=exc.status, detail=str(exc)) from None
    if "application/json" in request.headers.get("accept", ""):
        return JSONResponse(run.progress(), status_code=202)
    return RedirectResponse("/balance", status_code=303)


def _publish(request: Request) -> Any:
    """What a run does when it ends well: give the card pages its per-card figures."""
    state = request.app.state

    def finished(run: Run, stats: dict[str, Any]) -> None:
        state.card_stats = card_stats(stats, run.version)

    return finished


@router.get("/balance/progress")
def balance_progress(request: Request) -> JSONResponse:
    run = runner_of(request).last
    if run is None:
        return JSONResponse({"run": 0, "state": "idle", "done": 0, "total": 0, "message": "", "version": 0})
    return JSONResponse(run.progress(), headers={"Cache-Control": "no-store"})


@router.post("/balance/cancel")
def balance_cancel(request: Request) -> JSONResponse:
    run = runner_of(request).last
    if run is None or run.state != "running":
        raise HTTPException(status_code=409, detail="no simulation is running")
    run.cancel.set()
    return JSONResponse(run.progress(), status_code=202)


@router.get("/balance/chart/{name}.svg")
def balance_chart(request: Request, name: str) -> Response:
    """A chart of the last finished run, as `simulate --plots` writes it."""
    run = runner_of(request).last
    if name not in CHARTS:
        raise HTTPException(status_code=404, detail=f"no chart {name!r} (charts: {', '.join(CHARTS)})")
    if run is None or name not in run.charts:
        raise HTTPException(status_code=404, detail="no finished simulation yet")
    return Response(run.charts[name], media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
