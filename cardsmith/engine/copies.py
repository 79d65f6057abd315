"""Copies of a played match: replicas for search, worlds a seat cannot tell from the real
one, and the look-ahead that scores moves in such a world.

A match's flow is a Python generator, which cannot be copied, so a copy is the match
played again from its seed — move by move without finding legal moves (a *replica*,
engine/replica.py) — and, for an agent, resampled from its seat's view (seatview.py) and
stripped of what that seat may not know. Apart from the flow because none of it is how a
match proceeds: it is how agents and tools look at one.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardsmith.engine import runtime as rt
from cardsmith.engine.moves import MAX_WINDOW_MOVES, Action, ActionWindow
from cardsmith.engine.replica import Rebuilder
from cardsmith.engine.scenario_steps import _NotAnOption
from cardsmith.engine.seatview import become_world, determinize

if TYPE_CHECKING:
    from cardsmith.engine.flow import PlayedMatch


def look_ahead(match: PlayedMatch, seat: int, actions: list[Action], rng: random.Random) -> list[Any] | None:
    """The game's heuristic for `seat` after each of `actions` (SeatView.look_ahead):
    scored in a world resampled from the seat's view, dice rolled by a generator drawn
    from `rng`; everything rolled back after."""
    heuristic = match.game.handlers.get(("heuristic",))
    if heuristic is None or not isinstance(match._pending, ActionWindow):
        return None
    for action in actions:
        action.settle()  # described with the real cards' names, before they are swapped
    snapshot = match.snapshot_state()
    real_rng = match.rng
    try:
        determinize(match, seat, rng)
        match.rng = random.Random(rng.getrandbits(64))
        return [score_action(match, action, heuristic) for action in actions]
    finally:
        match.restore_state(snapshot)  # (its undo of a roll sets the state of match.rng: the stand-in's)
        match.rng = real_rng


def score_action(match: PlayedMatch, action: Action, heuristic: Any) -> Any:
    """The heuristic's value for the acting player after this move (then rolled back)."""
    player = match.players[action.player]
    snapshot = match.snapshot_state()
    try:
        if isinstance(action.payload, tuple):
            move, choices = action.payload
            match.script = list(choices)
            program, _speed, _label = match._program(move, player)
            match.run(program, lambda request: _scripted_then_default(match, request))
            match.run(match.run_checks(), match.default_answer)  # type: ignore[arg-type]
        return heuristic(match, rt.Ctx(player, None))
    except (rt.RulesError, rt.CannotPay, rt.NotLegal, _NotAnOption, rt.Fizzled, TypeError, ValueError):
        return float("-inf")
    finally:
        match.script = []
        match.restore_state(snapshot)


def _scripted_then_default(match: PlayedMatch, request: Any) -> Any:
    if isinstance(request, rt.Paid):
        return None
    return match.default_answer(request)


def sample_world(match: PlayedMatch, seat: int, rng: random.Random) -> PlayedMatch:
    """A copy of this match that `seat` cannot tell from it (SeatView.determinized): a
    replica with the others' open sealed picks guessed, every card out of the seat's
    view resampled, a seed and generator drawn from `rng`, and no log, move history,
    memo or tally left from the real match. Its pending moves are described anew (their
    descriptions were written with the real cards' names)."""
    return become_world(match.replica(viewer=seat, rng=rng), seat, rng)


def replica(match: PlayedMatch, viewer: int | None = None, rng: Any = None) -> PlayedMatch:
    """A copy of this match at this position, for search (engine/replica.py): replayed
    move by move without finding legal moves; the table is checked to be the same.

    With a `viewer` (and an `rng`), the other seats' picks in a simultaneous decision
    still open are not copied: each decision the copy asks of another seat there is
    answered at random — however many there are, since they may depend on the guesses —
    and the viewer's own picks are replayed as made (`_guess_others`)."""
    if match.sampled:
        raise ValueError("a sampled world keeps no history to copy it from")
    copy = type(match)(match.game, seed=match.seed, players=len(match.players), mode=match.mode, decks=match.decks,
                      stops=match.stops)
    rebuild = Rebuilder(copy)
    guessing = False
    try:
        for index, (action_id, seat, description, payload) in enumerate(match.moves):
            if viewer is not None and rng is not None and match.hidden_from(viewer, index):
                guessing = True  # answered as the copy asks (below), not as it was
                continue
            if guessing:
                _guess_others(copy, viewer, rng)
                mine = _own_move(copy, action_id, seat, description, rebuild.value(payload), rng)
                if mine is None:
                    return copy  # the guesses led elsewhere: a plausible world all the same
                copy._apply_move(mine)
                continue
            copy._apply_move(Action(action_id, seat, description, rebuild.value(payload)))
        if guessing:
            _guess_others(copy, viewer, rng)
    except KeyError:  # a move named a card in no zone (none of the library's do): replay by id
        return type(match).restore(match.game, match.snapshot())
    if not guessing and copy.state_summary() != match.state_summary():
        raise ValueError("the replica differs from the match")
    return copy


def _guess_others(match: PlayedMatch, viewer: int | None, rng: Any) -> None:
    """While a simultaneous decision is open, answer the other seats' decisions at random
    until the viewer is asked (or the decision closes)."""
    for _ in range(MAX_WINDOW_MOVES):
        actions = match.legal_actions()
        if match.open_seal is None or not actions or actions[0].player == viewer:
            return
        match._apply_move(actions[rng.randrange(len(actions))])


def _own_move(match: PlayedMatch, action_id: int, seat: int, description: str, payload: Any, rng: Any) -> Action | None:
    """The viewer's own recorded pick, as this copy offers it: the same move if it is
    still offered, else the one described alike, else a random one of the viewer's (the
    guesses changed the options); None when the copy does not ask the viewer now."""
    actions = match.legal_actions()
    if not actions or actions[0].player != seat:
        return None
    for action in actions:
        if action.payload is payload or (action.description == description and action.id == action_id):
            return action
    alike = [a for a in actions if a.description == description]
    return alike[0] if alike else actions[rng.randrange(len(actions))]
