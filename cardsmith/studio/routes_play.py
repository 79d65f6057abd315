"""The Play pages: start a match, a seat's board, moves, undo, the log, and replays.

The pages are plain HTML forms (each move a button posting its number and the step it
was chosen at), so they work without JavaScript; play.js only highlights the cards a move
uses and keeps a second click from posting twice. A client that posts JSON gets JSON back.
Hot seat: when the next decision is another person's, a seat's page shows only "pass the
screen to player N" — never the board of the seat that just moved, nor the next one's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, File, Path, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import BaseModel, Field, ValidationError

from cardsmith.dsl import ir
from cardsmith.studio.play import (
    PERSON,
    Matches,
    MatchSession,
    PlayError,
    Replays,
    Setup,
    read_replay,
    seat_kind_problem,
)
from cardsmith.studio.playview import seat_state
from cardsmith.studio.web import compiled_or_409, page, snapshot_of

router = APIRouter()

AGENT_CHOICES = ["random", "variety", "greedy", "search"]
MAX_SEED = 2**31 - 1
MAX_SEATS = 64
_STORES = threading.Lock()

SeatNumber = Annotated[int, Path(ge=1, le=MAX_SEATS)]
MatchId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[0-9a-f]+$")]


def _store(request: Request, name: str, make: Callable[[], Any]) -> Any:
    """The app's store `name`, made on first use (one per studio, shared by its requests)."""
    with _STORES:
        found = getattr(request.app.state, name, None)
        if found is None:
            found = make()
            setattr(request.app.state, name, found)
    return found


def _matches(request: Request) -> Matches:
    found: Matches = _store(request, "play_matches", Matches)
    return found


def _replays(request: Request) -> Replays:
    found: Replays = _store(request, "play_replays", Replays)
    return found


def _wants_json(request: Request) -> bool:
    return "json" in request.headers.get("content-type", "") or "json" in request.headers.get("accept", "")


def _refused(request: Request, error: PlayError, back: str | None = None) -> Response:
    if _wants_json(request):
        return JSONResponse({"detail": error.message}, status_code=error.status)
    response = page(request, "play_error.html", "play", message=error.message, back=back)
    response.status_code = error.status
    return response


async def _body(request: Request) -> dict[str, Any]:
    """A POST's fields, from JSON or a form (anything else: no fields)."""
    if "json" in request.headers.get("content-type", ""):
        try:
            data = await request.json()
        except ValueError:
            raise PlayError(422, "the body is not JSON") from None
        if not isinstance(data, dict):
            raise PlayError(422, "the body must be a JSON object")
        return data
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


def _checked(model: type[BaseModel], data: dict[str, Any]) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        raise PlayError(422, f"{where}: {first.get('msg', 'invalid')}") from None


# ---------------------------------------------------------------- starting a match
class StartForm(BaseModel):
    seed: int = Field(1, ge=0, le=MAX_SEED)
    players: int | None = Field(None, ge=1, le=MAX_SEATS)
    mode: str | None = Field(None, max_length=200)


def _form_context(game: Any) -> dict[str, Any]:
    modes = [{"name": m.name, "label": m.label or m.name, "seats": ir.seat_range(game.ir, m.name)}
             for m in game.ir.modes]
    low, high = ir.seat_range(game.ir, None)
    for m in modes:
        low, high = min(low, m["seats"][0]), max(high, m["seats"][1])
    return {"modes": modes, "low": low, "high": min(high, MAX_SEATS), "agents": AGENT_CHOICES}


def _seat_kinds(data: dict[str, Any], count: int) -> list[str]:
    kinds = []
    for seat in range(1, count + 1):
        kind = str(data.get(f"seat{seat}") or (PERSON if seat == 1 else "random"))
        budget = str(data.get(f"budget{seat}") or "").strip()
        if kind == "search" and budget:
            kind = f"search:{budget}"
        problem = seat_kind_problem(kind) if len(kind) <= 60 else "too long"
        if problem is not None:
            raise PlayError(422, f"seat {seat}: {problem}")
        kinds.append(kind)
    return kinds


@router.get("/play", response_class=HTMLResponse)
def play_new(request: Request) -> HTMLResponse:
    snapshot = snapshot_of(request)
    context = _form_context(snapshot.compiled) if snapshot.compiled is not None else {}
    sessions = list(_matches(request).sessions.values())[::-1]
    return page(request, "play_new.html", "play", error=None, running=sessions, **context)


@router.post("/play", response_model=None)
async def play_start(request: Request) -> Response:
    from cardsmith.app import DecksNotDealt, decks_for
    from cardsmith.decks.library import DeckError
    from cardsmith.engine.setup import default_players, match_problems

    snapshot = snapshot_of(request)
    try:
        game = compiled_or_409(snapshot)
        data = await _body(request)
        cleaned = {k: v for k, v in data.items() if k in ("seed", "players", "mode") and v not in ("", None)}
        form = _checked(StartForm, cleaned)
        problems = match_problems(game, form.players, form.mode)
        if problems:
            raise PlayError(422, problems[0])
        count = form.players if form.players is not None else default_players(game, form.mode)
        kinds = _seat_kinds(data, count)
        try:
            decks = decks_for(game, count, None)
        except (DecksNotDealt, DeckError) as exc:
            raise PlayError(422, f"the game's ready decks cannot be dealt: {exc}") from None
        setup = Setup(form.seed, count, form.mode, tuple(kinds), decks)
        session = _matches(request).start(game, snapshot.version, setup)
    except PlayError as error:
        if _wants_json(request):
            return _refused(request, error)
        context = _form_context(snapshot.compiled) if snapshot.compiled is not None else {}
        response = page(request, "play_new.html", "play", error=error.message,
                        running=list(_matches(request).sessions.values())[::-1], **context)
        response.status_code = error.status
        return response
    return _after(request, session, None)


def _next_url(session: MatchSession, seat: int | None) -> str:
    """Where a page goes after a move of `seat` (0-based; None: no one's yet): that seat's
    board when it decides again or the match is over; else the hand-over page."""
    decider = session.decider()
    persons = session.persons
    if decider is not None and session.setup.kinds[decider] == PERSON:
        if decider == seat or len(persons) == 1:
            return f"/play/{session.id}/seat/{decider + 1}"
        return f"/play/{session.id}"
    if seat is not None:
        return f"/play/{session.id}/seat/{seat + 1}"
    return f"/play/{session.id}/seat/{persons[0] + 1}" if persons else f"/play/{session.id}"


def _after(request: Request, session: MatchSession, seat: int | None) -> Response:
    url = _next_url(session, seat)
    if _wants_json(request):
        return JSONResponse({"ok": True, "step": session.step, "over": session.match.is_over, "next": url})
    return RedirectResponse(url, status_code=303)


# ---------------------------------------------------------------- replays (before /play/{id})
@router.get("/play/replay", response_class=HTMLResponse)
def replay_form(request: Request) -> HTMLResponse:
    return page(request, "play_replay.html", "play", replay=None, error=None)


@router.post("/play/replay", response_model=None)
async def replay_upload(request: Request, log: Annotated[UploadFile, File()]) -> Response:
    snapshot = snapshot_of(request)
    try:
        game = compiled_or_409(snapshot)
        data = await log.read(20_000_001)
        replay = read_replay(game, log.filename or "log", data)
    except PlayError as error:
        response = page(request, "play_replay.html", "play", replay=None, error=error.message)
        response.status_code = error.status
        return response
    _replays(request).add(replay)
    return RedirectResponse(f"/play/replay/{replay.id}", status_code=303)


@router.get("/play/replay/{replay_id}", response_model=None)
def replay_step(request: Request, replay_id: MatchId,
                step: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> Response:
    try:
        replay = _replays(request).get(replay_id)
    except PlayError as error:
        return _refused(request, error, "/play/replay")
    step = min(step, len(replay.states) - 1)
    state = replay.states[step]
    zones = [{"name": key, "cards": [name.rpartition("#")[0] or name for name in cards]}
             for key, cards in state["zones"].items()]
    return page(request, "play_replay.html", "play", replay=replay, error=None, step=step, state=state,
                zones=zones, last=len(replay.states) - 1, snapshot_now=snapshot_of(request))


# ---------------------------------------------------------------- a match
@router.get("/play/{match_id}", response_model=None)
def play_handover(request: Request, match_id: MatchId) -> Response:
    """Whose decision it is, and a button to open that seat's board (the hot seat's hand-over)."""
    try:
        session = _matches(request).get(match_id)
    except PlayError as error:
        return _refused(request, error, "/play")
    with session.lock:
        decider = session.decider()
        return page(request, "play_pass.html", "play", session=session, decider=decider,
                    players=[p.name for p in session.match.players], kinds=session.setup.kinds,
                    over=session.match.is_over, step=session.step)


def _seat_or_error(request: Request, match_id: str, n: int) -> tuple[MatchSession, int]:
    session = _matches(request).get(match_id)
    seat = n - 1
    if seat >= session.setup.players:
        raise PlayError(404, f"this match has {session.setup.players} seats")
    if session.setup.kinds[seat] != PERSON and session.persons and not session.match.is_over:
        raise PlayError(403, f"seat {n} is an agent's: its board is its own while the match runs")
    return session, seat


@router.get("/play/{match_id}/seat/{n}", response_model=None)
def play_seat(request: Request, match_id: MatchId, n: SeatNumber) -> Response:
    try:
        session, seat = _seat_or_error(request, match_id, n)
    except PlayError as error:
        return _refused(request, error, "/play")
    with session.lock:
        decider = session.decider()
        if decider is not None and decider != seat and session.setup.kinds[decider] == PERSON \
                and session.setup.kinds[seat] == PERSON:
            return page(request, "play_pass.html", "play", session=session, decider=decider,
                        players=[p.name for p in session.match.players], kinds=session.setup.kinds,
                        over=False, step=session.step)
        state = seat_state(session, seat, snapshot_of(request))
    return page(request, "play_seat.html", "play", state=state, session_version=session.version)


@router.get("/play/{match_id}/seat/{n}/state", response_model=None)
def play_seat_state(request: Request, match_id: MatchId, n: SeatNumber) -> Response:
    try:
        session, seat = _seat_or_error(request, match_id, n)
    except PlayError as error:
        return JSONResponse({"detail": error.message}, status_code=error.status)
    with session.lock:
        return JSONResponse(seat_state(session, seat, snapshot_of(request)))


class MoveRequest(BaseModel):
    seat: int = Field(ge=1, le=MAX_SEATS)
    index: int = Field(ge=0, le=10_000_000)
    step: int = Field(ge=0, le=100_000_000)


class UndoRequest(BaseModel):
    step: int = Field(ge=0, le=100_000_000)
    seat: int | None = Field(None, ge=1, le=MAX_SEATS)


@router.post("/play/{match_id}/act", response_model=None)
async def play_act(request: Request, match_id: MatchId) -> Response:
    try:
        session = _matches(request).get(match_id)
        move = _checked(MoveRequest, await _body(request))
        with session.lock:
            session.act(move.seat - 1, move.index, move.step)
            return _after(request, session, move.seat - 1)
    except PlayError as error:
        return _refused(request, error, f"/play/{match_id}")


@router.post("/play/{match_id}/undo", response_model=None)
async def play_undo(request: Request, match_id: MatchId) -> Response:
    try:
        session = _matches(request).get(match_id)
        undo = _checked(UndoRequest, await _body(request))
        with session.lock:
            session.undo(undo.step)
            seat = undo.seat - 1 if undo.seat is not None and undo.seat <= session.setup.players else None
            return _after(request, session, seat)
    except PlayError as error:
        return _refused(request, error, f"/play/{match_id}")


@router.post("/play/{match_id}/continue", response_model=None)
async def play_continue(request: Request, match_id: MatchId) -> Response:
    """Agents play on (a match of agents only, or one whose agents hit a request's bounds)."""
    try:
        session = _matches(request).get(match_id)
        with session.lock:
            session.run_agents()
            return _after(request, session, None)
    except PlayError as error:
        return _refused(request, error, "/play")


@router.get("/play/{match_id}/log", response_model=None)
def play_log(request: Request, match_id: MatchId) -> Response:
    try:
        session = _matches(request).get(match_id)
        with session.lock:
            why = session.log_allowed()
            if why is not None:
                raise PlayError(409, why)
            text = session.log_text()
    except PlayError as error:
        return _refused(request, error, f"/play/{match_id}")
    name = f"{session.game.ir.game.id}-seed{session.setup.seed}-{session.id}.log"
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})
