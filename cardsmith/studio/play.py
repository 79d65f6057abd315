"""Matches played in the studio: who sits where, the match, its story per seat, undo.

A session keeps the compiled game it started with (a later edit of the game must not
break a running match), the match, and one agent per agent seat. Agents move on the
server until a person must decide; a person's move comes in by its number and the step it
was chosen at, so a double click or a stale page is refused rather than applied twice.
The story (log) of each seat is written as each move is applied, in that seat's own words
(engine/moveview.seen_by): the match's own log names every card by engine id, the
referee's view, and is handed out only when nobody at the table may still be surprised.
Undo rebuilds the match from its seed and the first moves (a match is deterministic).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from cardsmith.engine.agents import Labels, agent_problem, ask, make_agent
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action
from cardsmith.engine.moveview import seen_by
from cardsmith.engine.replay import log_lines

PERSON = "person"
MAX_MATCHES = 32  # sessions kept; the oldest is dropped
AGENT_MOVES = 5000  # the most agent moves one request plays before the page asks to continue
AGENT_SECONDS = 8.0  # ... or the longest it thinks


class PlayError(Exception):
    """A request the match cannot take: `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Setup:
    """How a match begins: everything needed to play it again from the start."""

    seed: int
    players: int
    mode: str | None
    kinds: tuple[str, ...]  # per seat: PERSON or an agent as make_agent spells it
    decks: list[list[str]] | None


@dataclass(frozen=True)
class Entry:
    """One applied move: its step (0-based), who made it, the turn, and how each seat
    reads it (None: that seat may not know which move it was)."""

    step: int
    seat: int
    turn: int
    seen: tuple[str | None, ...]


def seat_kind_problem(kind: str) -> str | None:
    """What is wrong with a seat's kind as the form spells it (None: nothing)."""
    return None if kind == PERSON else agent_problem(kind)


@dataclass
class MatchSession:
    """A match in the studio (see the module docstring)."""

    id: str
    game: Any  # the CompiledGame as it was when the match started
    version: int  # the project's version then
    setup: Setup
    labels: Labels = field(init=False)
    match: PlayedMatch = field(init=False)
    agents: list[Any] = field(init=False)
    story: list[Entry] = field(init=False)
    lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.labels = Labels(self.game.ir)
        self._restart([])

    # ---------------------------------------------------------------- building the match
    def _restart(self, history: list[int]) -> None:
        """The match from its start, with the moves `history` (their ids) applied again."""
        s = self.setup
        self.match = PlayedMatch(self.game, seed=s.seed, players=s.players, mode=s.mode, decks=s.decks)
        self.agents = [None if kind == PERSON else make_agent(kind, s.seed * 1000 + i)
                       for i, kind in enumerate(s.kinds)]
        self.story = []
        self._look()
        for action_id in history:
            actions = self.match.legal_actions()
            if not 0 <= action_id < len(actions):
                raise PlayError(409, "the match cannot be rebuilt: its moves are no longer legal")
            self._apply(actions[action_id])

    def _apply(self, action: Action) -> None:
        match = self.match
        seen = tuple(seen_by(match, seat, action) for seat in range(len(match.players)))
        self.story.append(Entry(len(match.history), action.player, match.turn_number, seen))
        match.apply(action)
        self._look()

    def _look(self) -> None:
        """Each person's seat looks at the table after every move, so the numbers it gives
        cards depend on the moves alone — not on when a page was opened — and a match
        rebuilt by undo shows the very board it showed before."""
        for seat in self.persons:
            self.match.observation(seat)

    @property
    def step(self) -> int:
        return len(self.match.history)

    @property
    def persons(self) -> list[int]:
        return [i for i, kind in enumerate(self.setup.kinds) if kind == PERSON]

    def decider(self) -> int | None:
        """The seat (0-based) that decides now, None when the match is over."""
        if self.match.is_over:
            return None
        actions = self.match.legal_actions()
        return actions[0].player if actions else None

    def run_agents(self, moves: int = AGENT_MOVES, seconds: float = AGENT_SECONDS) -> int:
        """Agents move until a person must decide, the match ends, or the bounds are hit."""
        played = 0
        deadline = time.monotonic() + seconds
        while played < moves and time.monotonic() < deadline:
            seat = self.decider()
            if seat is None or self.agents[seat] is None:
                break
            actions = self.match.legal_actions()
            self._apply(ask(self.agents[seat], self.match, actions))
            played += 1
        return played

    # ---------------------------------------------------------------- requests
    def act(self, seat: int, index: int, step: int) -> None:
        """A person's move: `seat` 0-based, `index` among the legal moves, `step` the number
        of moves applied when it was chosen."""
        if not 0 <= seat < len(self.match.players):
            raise PlayError(422, f"there is no seat {seat + 1} in this match")
        if self.match.is_over:
            raise PlayError(409, "the match is over")
        if self.agents[seat] is not None:
            raise PlayError(409, f"seat {seat + 1} is played by an agent")
        if step != self.step:
            raise PlayError(409, f"the page is out of date: {self.step} moves are applied, not {step} "
                                 "(a second click, or another window moved)")
        if self.decider() != seat:
            raise PlayError(409, f"it is not seat {seat + 1}'s decision")
        actions = self.match.legal_actions()
        if not 0 <= index < len(actions):
            raise PlayError(422, f"there is no move {index}: the moves are numbered 0 to {len(actions) - 1}")
        self._apply(actions[index])
        self.run_agents()

    def undo(self, step: int) -> None:
        """Back to the position after the first `step` moves; agents then go on."""
        if not 0 <= step <= self.step:
            raise PlayError(422, f"there is no step {step}: this match has steps 0 to {self.step}")
        self._restart(list(self.match.history[:step]))
        self.run_agents()

    def log_allowed(self) -> str | None:
        """Why the full log may not be handed out now (None: it may). It names every card,
        hidden ones too: fine once the match is over, or when no person sits at the table."""
        if self.match.is_over or not self.persons:
            return None
        return ("the log shows every hidden card, so it is given once the match is over "
                "(or for a match of agents only)")

    def log_text(self) -> str:
        return "\n".join(log_lines(self.match, len(self.match.history))) + "\n"


class Matches:
    """The studio's running matches by id, at most MAX_MATCHES (the oldest dropped)."""

    def __init__(self, limit: int = MAX_MATCHES) -> None:
        self.limit = limit
        self.sessions: OrderedDict[str, MatchSession] = OrderedDict()
        self.lock = threading.Lock()

    def start(self, game: Any, version: int, setup: Setup) -> MatchSession:
        session = MatchSession(secrets.token_hex(6), game, version, setup)
        with session.lock:
            session.run_agents()
        with self.lock:
            self.sessions[session.id] = session
            while len(self.sessions) > self.limit:
                self.sessions.popitem(last=False)
        return session

    def get(self, match_id: str) -> MatchSession:
        with self.lock:
            session = self.sessions.get(match_id)
        if session is None:
            raise PlayError(404, "no such match (it may have been dropped: the studio keeps the last "
                                 f"{self.limit})")
        return session


# ---------------------------------------------------------------- replaying a log
MAX_LOG_BYTES = 20_000_000
MAX_REPLAY_MOVES = 20_000
MAX_REPLAYS = 8


@dataclass
class ReplaySession:
    """A log read back: the full table after each of its moves (an omniscient review: the
    log names every card, so every card is shown)."""

    id: str
    name: str
    verdict: str  # what verifying the log said
    ok: bool
    states: list[dict[str, Any]]  # the table before any move, then after each
    moves: list[str]  # each move as the log describes it


def read_replay(game: Any, name: str, data: bytes) -> ReplaySession:
    """A log file's bytes as a ReplaySession for `game`, or a PlayError saying what is wrong
    with it (its line, as `cardsmith replay` reports)."""
    from cardsmith.engine.replay import parse_log, replay_entries

    if len(data) > MAX_LOG_BYTES:
        raise PlayError(413, f"the log is over {MAX_LOG_BYTES // 1_000_000} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PlayError(422, "this is not a match log: it is not UTF-8 text") from None
    lines = [line for line in text.splitlines() if line.strip()]
    entries, problem = parse_log(lines)
    if problem is not None:
        raise PlayError(422, f"line {problem.line}: {problem.message}" + (f" ({problem.hint})" if problem.hint else ""))
    own = game.ir.game.id
    if entries[0].get("game") != own:
        raise PlayError(422, f"this log is of the game {entries[0].get('game')!r}; the studio has {own!r} open")
    try:
        verdict = replay_entries(entries, game)
        head = entries[0]
        if not verdict.ok and verdict.line == 1:
            raise PlayError(422, f"line 1: {verdict.message}")
        match = PlayedMatch(game, seed=head["seed"], players=head["players"], mode=head.get("mode"),
                            decks=head.get("decks"), stops=head.get("stops", ()))
        states = [match.state_summary()]
        moves: list[str] = []
        for entry in entries[1:]:
            if entry.get("event") != "action" or len(moves) >= MAX_REPLAY_MOVES:
                continue
            actions = match.legal_actions()
            action_id = entry.get("id")
            if type(action_id) is not int or not 0 <= action_id < len(actions):
                break
            moves.append(f"{entry.get('player', '?')}: {actions[action_id].description}")
            match.apply(actions[action_id])
            states.append(match.state_summary())
    except PlayError:
        raise
    except Exception as exc:  # a log can hold anything: its problem is the answer, not a 500
        raise PlayError(422, f"this log cannot be replayed: {exc}") from None
    message = verdict.message if verdict.ok else f"line {verdict.line}: {verdict.message}"
    return ReplaySession(secrets.token_hex(6), name, message, verdict.ok, states, moves)


class Replays:
    """Logs read back, by id (the last MAX_REPLAYS)."""

    def __init__(self) -> None:
        self.sessions: OrderedDict[str, ReplaySession] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, replay: ReplaySession) -> None:
        with self.lock:
            self.sessions[replay.id] = replay
            while len(self.sessions) > MAX_REPLAYS:
                self.sessions.popitem(last=False)

    def get(self, replay_id: str) -> ReplaySession:
        with self.lock:
            found = self.sessions.get(replay_id)
        if found is None:
            raise PlayError(404, "no such replay (upload the log again)")
        return found
