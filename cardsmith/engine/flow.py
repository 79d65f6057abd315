"""Turn structure, priority and legal actions: a played match, OpenSpiel-style.

The flow is one generator over the game's declared structure — setup, the first player,
then rounds of turns (each player's stages and steps, in the turn order the rules keep)
and the `round` block's stages — that runs compiled stage bodies and opens *action
windows* where a stage lists actions. In a window one player at a time holds
**priority** (windows.py says who, and when the window closes); what they may do is
decided by engine/offers.py and probed for legality by running each candidate up to its
payment. Whatever the flow or a handler needs decided becomes a pending request;
`legal_actions` turns it into Action objects with stable ids and readable descriptions,
and `apply` answers it.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from cardsmith.dsl import ir
from cardsmith.engine import offers
from cardsmith.engine import runtime as rt
from cardsmith.engine.coverage import PASSED_OVER, RUN, SKIPPED, Tally
from cardsmith.engine.match import ENDLESS, Match, _NotAnOption, _offers
from cardsmith.engine.replica import Rebuilder, portable
from cardsmith.engine.seatview import SeatNames, Shown, determinize, observe, render
from cardsmith.engine.state import Card, Player
from cardsmith.values import MAX_DECK, OperationError

# the most parameter combinations one action (or ability) offers in one window; past it
# the rest are not offered and the match counts the cut (offers_cut), which soaks report
MAX_COMBINATIONS = 1000
# a game's turn limit when it declares none (`turn_limit:` in `game`, GameDecl.turn_limit)
MAX_TURNS = ir.DEFAULT_TURN_LIMIT
# the most moves (actions and passes) one stage's window may take before it closes: a
# bound on rules where players could keep acting without end
MAX_WINDOW_MOVES = 1000


@dataclass(frozen=True)
class Action:
    """One legal move: who makes it, a stable id within the decision, and what it does.

    `description` names cards as the log does (`Kick#12`: the referee's names). `parts`
    is the same description with each value kept apart (engine/seatview.Shown), so a
    seat's view can name them as that seat may (`seen_as`); empty when the description
    holds no values."""

    id: int
    player: int
    description: str
    payload: Any
    parts: tuple[Any, ...] = field(default=(), compare=False)

    def seen_as(self, describe: Any) -> str:
        return render(self.parts, describe) if self.parts else self.description


def _with_values(head: str, choices: list[Any], describe: Any) -> tuple[str, tuple[Any, ...]]:
    """A move's description — `head`, then its parameters after a colon — and its parts."""
    described = ", ".join(str(describe(c)) for c in choices)
    if not described:
        return head, ()
    parts: list[Any] = [head, ": "]
    for i, choice in enumerate(choices):
        parts += [", ", Shown(choice)] if i else [Shown(choice)]
    return f"{head}: {described}", tuple(parts)


class Pause:
    """A point a scenario asked the flow to stop at (engine/scenario_flow.py): the start
    of a turn, or a named stage once its statements and steps have run. Played matches
    never set one (`pause_at` stays None)."""

    def __init__(self, where: tuple[str, ...]) -> None:
        self.where = where


class ActionWindow:
    """`player` holds priority in a stage's window: the moves offered were worked out
    when the window opened (engine/offers.py decides which, probing decides legality)."""

    def __init__(self, player: Player, stage: ir.StageDecl, sealed: bool = False) -> None:
        self.player = player
        self.stage = stage
        self.sealed = sealed  # a simultaneous stage: the others' picks are not yet shown
        self.actions: list[Action] = []


class PlayedMatch(Match):
    """A match driven by agents through legal_actions() / apply().

    `stops`: seats that want to be asked at every window, even when passing is all they
    could do (by default such a window passes by itself: a person is asked only when
    they have a real choice)."""

    pause_every_stage = False  # scenarios stop at each stage's start (engine/scenario_flow.py)

    def __init__(self, *args: Any, stops: Iterable[int] = (), tally: Tally | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tally = tally  # counts for the dead-rule report (engine/coverage.py); never logged
        self.flow_active = True
        self.stops = frozenset(stops)
        self.history: list[int] = []
        # every applied move as (id, seat, description, portable payload): replica() replays them
        self.moves: list[tuple[int, int, str, Any]] = []
        # simultaneous decisions: the group of each sealed move (by its index in moves), the
        # group still open (its picks not yet revealed), and where its log began
        self.sealed_moves: dict[int, int] = {}
        self.open_seal: int | None = None
        self.seal_log_start = 0
        self._seals = 0
        self.cards_played: list[tuple[int, str]] = []
        self.offers_cut: Counter[str] = Counter()  # windows where a move's combinations passed the cap
        self._picks_cut = False  # a probed pick of several cards had more combinations than offered
        extra = {"stops": sorted(self.stops)} if self.stops else {}
        self.record("match", game=self.game.ir.game.id, seed=self.seed, players=len(self.players), mode=self.mode,
                    decks=self.decks, **extra)
        self._pending: Any = None
        self.error: str | None = None
        self._seat_names: dict[int, SeatNames] = {}  # how each seat names cards (engine/seatview.py)
        self.sampled = False  # a world resampled for an agent (sample_world): no history to replay
        self.reveal_marks: dict[int, int] = {}  # per seat: how many reveals it had seen at its last move
        self.out_of_turns = False
        self.pause_at: tuple[str, ...] | None = None  # only scenarios stop the flow (Pause)
        self._begin()

    def _begin(self) -> None:
        """Start the flow and run it to the first decision (a scenario starts it later)."""
        self._flow: Generator[Any, Any, None] | None = self._run()
        self._advance(None)

    # ---------------------------------------------------------------- the public API
    @property
    def is_over(self) -> bool:
        return self.over or self._pending is None

    @property
    def result(self) -> dict[str, Any]:
        return {"over": self.over, "winner": self.describe(self.winner), "winners": self.describe(self.winners),
                "drawn": self.drawn, "turns": self.turn_number, "error": self.error}

    def legal_actions(self) -> list[Action]:
        return self._actions_for(self._pending)

    def apply(self, action: Action | int) -> None:
        actions = self.legal_actions()
        chosen = actions[action] if isinstance(action, int) else action
        if chosen not in actions:
            raise ValueError("not a legal action now")
        self._apply_move(chosen)

    def _apply_move(self, chosen: Action) -> None:
        self.record("action", player=f"player{chosen.player + 1}", id=chosen.id, description=chosen.description)
        self.reveal_marks[chosen.player] = len(self.reveals)  # what was shown to them before, they have seen
        self.history.append(chosen.id)
        if self.open_seal is not None:
            self.sealed_moves[len(self.moves)] = self.open_seal
        self.moves.append((chosen.id, chosen.player, chosen.description, portable(chosen.payload)))
        picked = chosen.payload[1] if isinstance(chosen.payload, tuple) else chosen.payload
        for value in picked if isinstance(picked, list) else [picked]:
            # "played": a card its chooser takes out of a zone only they can see (a hand)
            if isinstance(value, Card) and value.zone is not None and value.zone.visibility == "owner" \
                    and value.zone.owner is self.players[chosen.player]:
                self.cards_played.append((chosen.player, value.name))
        self._advance(chosen.payload)

    @staticmethod
    def _played(player: Player, picked: list[Any]) -> list[Card]:
        """The cards `player` plays with a move's parameters: each card (also inside a pick
        of several) that they take out of a zone only they can see — their hand. (The
        `played` event; cards_played, a soak's tally, also counts answers to later choices.)"""
        found: list[Card] = []
        for value in picked:
            for card in value if isinstance(value, list) else [value]:
                if isinstance(card, Card) and card.zone is not None and card.zone.visibility == "owner" \
                        and card.zone.owner is player:
                    found.append(card)
        return found

    @property
    def pending(self) -> Any:
        return self._pending

    def hidden_from(self, viewer: int, move_index: int) -> bool:
        """Is this move another seat's pick in a simultaneous decision still open (so
        `viewer` may not know it yet)?"""
        group = self.sealed_moves.get(move_index)
        return group is not None and group == self.open_seal and self.moves[move_index][1] != viewer

    def determinize(self, viewer: int, rng: Any) -> None:
        """Swap every card `viewer` cannot see for another it cannot see (seatview.determinize)."""
        determinize(self, viewer, rng)

    def look_ahead(self, seat: int, actions: list[Action], rng: random.Random) -> list[Any] | None:
        """The game's heuristic for `seat` after each of `actions` (SeatView.look_ahead):
        scored in a world resampled from the seat's view, dice rolled by a generator drawn
        from `rng`; everything rolled back after."""
        heuristic = self.game.handlers.get(("heuristic",))
        if heuristic is None or not isinstance(self._pending, ActionWindow):
            return None
        snapshot = self.snapshot_state()
        real_rng = self.rng
        try:
            determinize(self, seat, rng)
            self.rng = random.Random(rng.getrandbits(64))
            return [self.score_action(action, heuristic) for action in actions]
        finally:
            self.restore_state(snapshot)  # (its undo of a roll sets the state of self.rng: the stand-in's)
            self.rng = real_rng

    def sample_world(self, seat: int, rng: random.Random) -> PlayedMatch:
        """A copy of this match that `seat` cannot tell from it (SeatView.determinized): a
        replica with the others' open sealed picks guessed, every card out of the seat's
        view resampled, a seed and generator drawn from `rng`, and no log, move history,
        memo or tally left from the real match. Its pending moves are described anew (their
        descriptions were written with the real cards' names)."""
        copy = self.replica(viewer=seat, rng=rng)
        determinize(copy, seat, rng)
        copy.seed = rng.getrandbits(63)
        copy.rng = random.Random(rng.getrandbits(64))
        copy.log.clear()
        copy.seal_log_start = 0
        copy.moves.clear()
        copy.history.clear()
        copy.sealed_moves.clear()
        copy.cards_played.clear()
        mark = copy.reveal_marks.get(seat, 0)  # only what was shown to this seat, and not yet acted on
        copy.reveals = [r for r in copy.reveals[mark:] if r[2] is None or r[2].index == seat]
        copy.reveal_marks = {}
        copy.offers_cut.clear()
        copy.memo.clear()
        copy.probe_cache.clear()
        copy._seat_names.clear()
        copy.decks = None
        copy.sampled = True
        if isinstance(copy._pending, ActionWindow):
            copy._pending.actions = [replace(a, description=a.seen_as(copy.describe))
                                     for a in copy._pending.actions]
        return copy

    def score_action(self, action: Action, heuristic: Any) -> Any:
        """The heuristic's value for the acting player after this move (then rolled back)."""
        player = self.players[action.player]
        snapshot = self.snapshot_state()
        try:
            if isinstance(action.payload, tuple):
                move, choices = action.payload
                self.script = list(choices)
                program, _speed, _label = self._program(move, player)
                self.run(program, self._scripted_then_default)
                self.run(self.run_checks(), self.default_answer)  # type: ignore[arg-type]
            return heuristic(self, rt.Ctx(player, None))
        except (rt.RulesError, rt.CannotPay, rt.NotLegal, _NotAnOption, rt.Fizzled, TypeError, ValueError):
            return float("-inf")
        finally:
            self.script = []
            self.restore_state(snapshot)

    def _scripted_then_default(self, request: Any) -> Any:
        if isinstance(request, rt.Paid):
            return None
        return self.default_answer(request)

    # ---------------------------------------------------------------- what a player sees, snapshots
    def observation(self, player: int) -> dict[str, Any]:
        """The position as `player` (0-based seat) may see it (engine/seatview.observe)."""
        return observe(self, player)

    def seat_names(self, seat: int) -> SeatNames:
        """How `seat` names cards: its own numbers, nothing for cards out of its view."""
        names = self._seat_names.get(seat)
        if names is None:
            names = self._seat_names[seat] = SeatNames(self, seat)
        return names

    @property
    def deciding_together(self) -> bool:
        """Is a simultaneous decision open (the others' picks hidden until all are made)?"""
        pending = self._pending
        return (isinstance(pending, ActionWindow) and pending.sealed) or self.open_seal is not None

    def sealed_cards(self, viewer: Player) -> set[int]:
        """Cards another player's pick in the open simultaneous decision has moved or
        changed: the viewer sees them only when all picks are revealed."""
        if self.open_seal is None:
            return set()
        mentioned = {entry["card"].rpartition("#")[2] for entry in self.log[self.seal_log_start:]
                     if isinstance(entry.get("card"), str)}  # (by id: a sampled world renames cards)
        return {c.id for c in self.all_cards() if str(c.id) in mentioned and c.controller is not viewer}

    def state_summary(self) -> dict[str, Any]:
        """Everything on the table, unhidden (for snapshots and verification)."""
        return {"turn": self.turn_number, "round": self.round_number, "current": self.describe(self.current),
                "players": [{"name": p.name, "counters": {k: rt._plain(v) for k, v in p.counters.items()},
                             "eliminated": p.eliminated} for p in self.players],
                "shared": {k: rt._plain(v) for k, v in self.shared.items()},
                "zones": {f"{name}/{owner}": [self.describe(c) for c in zone.cards]
                          for (name, owner), zone in self.zones.items()},
                "waiting": [entry[0] for entry in self.stack_programs],
                "over": self.over, "winner": self.describe(self.winner), "log_size": len(self.log)}

    def snapshot(self) -> dict[str, Any]:
        """A JSON snapshot: how the match began and every action since, plus the state.

        The flow is a Python generator, whose position cannot be serialised; but a match
        is deterministic, so its seed and action history restore it exactly (restore()
        replays them and checks the state matches)."""
        return {"game": self.game.ir.game.id, "seed": self.seed, "players": len(self.players), "mode": self.mode,
                "decks": self.decks, "stops": sorted(self.stops), "history": list(self.history),
                "state": self.state_summary()}

    @classmethod
    def restore(cls, game: Any, snapshot: dict[str, Any]) -> PlayedMatch:
        match = cls(game, seed=snapshot["seed"], players=snapshot["players"], mode=snapshot["mode"],
                    decks=snapshot.get("decks"), stops=snapshot.get("stops", ()))
        for action_id in snapshot["history"]:
            match.apply(match.legal_actions()[action_id])
        if match.state_summary() != snapshot["state"]:
            raise ValueError("the restored match differs from the snapshot")
        return match

    def replica(self, viewer: int | None = None, rng: Any = None) -> PlayedMatch:
        """A copy of this match at this position, for search (engine/replica.py): replayed
        move by move without finding legal moves; the table is checked to be the same.

        With a `viewer` (and an `rng`), the other seats' picks in a simultaneous decision
        still open are not copied: each decision the copy asks of another seat there is
        answered at random — however many there are, since they may depend on the guesses —
        and the viewer's own picks are replayed as made (`_guess_others`)."""
        if self.sampled:
            raise ValueError("a sampled world keeps no history to copy it from")
        copy = type(self)(self.game, seed=self.seed, players=len(self.players), mode=self.mode, decks=self.decks,
                          stops=self.stops)
        rebuild = Rebuilder(copy)
        guessing = False
        try:
            for index, (action_id, seat, description, payload) in enumerate(self.moves):
                if viewer is not None and rng is not None and self.hidden_from(viewer, index):
                    guessing = True  # answered as the copy asks (below), not as it was
                    continue
                if guessing:
                    copy._guess_others(viewer, rng)
                    mine = copy._own_move(action_id, seat, description, rebuild.value(payload), rng)
                    if mine is None:
                        return copy  # the guesses led elsewhere: a plausible world all the same
                    copy._apply_move(mine)
                    continue
                copy._apply_move(Action(action_id, seat, description, rebuild.value(payload)))
            if guessing:
                copy._guess_others(viewer, rng)
        except KeyError:  # a move named a card in no zone (none of the library's do): replay by id
            return type(self).restore(self.game, self.snapshot())
        if not guessing and copy.state_summary() != self.state_summary():
            raise ValueError("the replica differs from the match")
        return copy

    def _guess_others(self, viewer: int | None, rng: Any) -> None:
        """While a simultaneous decision is open, answer the other seats' decisions at random
        until the viewer is asked (or the decision closes)."""
        for _ in range(MAX_WINDOW_MOVES):
            actions = self.legal_actions()
            if self.open_seal is None or not actions or actions[0].player == viewer:
                return
            self._apply_move(actions[rng.randrange(len(actions))])

    def _own_move(self, action_id: int, seat: int, description: str, payload: Any, rng: Any) -> Action | None:
        """The viewer's own recorded pick, as this copy offers it: the same move if it is
        still offered, else the one described alike, else a random one of the viewer's (the
        guesses changed the options); None when the copy does not ask the viewer now."""
        actions = self.legal_actions()
        if not actions or actions[0].player != seat:
            return None
        for action in actions:
            if action.payload is payload or (action.description == description and action.id == action_id):
                return action
        alike = [a for a in actions if a.description == description]
        return alike[0] if alike else actions[rng.randrange(len(actions))]

    # ---------------------------------------------------------------- driving the flow
    def _advance(self, reply: Any) -> None:
        self.steps = 0  # the loop guard counts the steps between two decisions
        assert self._flow is not None
        try:
            request = self._flow.send(reply)
            while isinstance(request, rt.BeginSimultaneous | rt.EndSimultaneous) or (
                    isinstance(request, rt.Choose) and request.mode == "one"
                    and ((len(request.options) <= 1 and not request.optional) or not request.options)):
                if isinstance(request, rt.BeginSimultaneous):
                    self._open_seal()
                elif isinstance(request, rt.EndSimultaneous):
                    self._close_seal()
                elif not request.options and not request.optional:
                    request = self._flow.throw(self.fizzle(request))  # the effect that asked stops
                    continue
                # a forced choice (one option, or an optional one with none: nothing) needs no decision
                request = self._flow.send(self._forced_answer(request))
            self._pending = request
        except StopIteration:
            self._pending = None
        except rt.Fizzled:
            # no effect around the empty choice to fizzle: the rules themselves (a stage, a
            # procedure the turn calls) needed a choice that has no option
            self._stop(self.nothing_to_choose())
        except rt.ExpectationFailed as error:
            if self.reports_expectations:
                raise  # a scenario fails at its own line
            self._stop(f"{error} (line {self.last_line})")
        except rt.RulesError as error:
            self._stop(f"{error} (line {self.last_line})")
        except RecursionError:
            self._stop(f"{ENDLESS} (line {self.last_line})")

    def _forced_answer(self, request: Any) -> Any:
        """The answer to a choice with one option (or an optional one with none)."""
        return request.options[0] if isinstance(request, rt.Choose) and request.options else None

    def _open_seal(self) -> None:
        """A simultaneous decision begins: picks from now on are sealed until it ends."""
        self._seals += 1
        self.open_seal = self._seals
        self.seal_log_start = len(self.log)

    def _close_seal(self) -> None:
        if self.open_seal is not None:
            self.record("revealed")
        self.open_seal = None

    def _stop(self, error: str) -> None:
        """The rules broke: the match ends here with the error in its result."""
        self.error = error
        self.over = True
        self._pending = None

    def deal_decks(self) -> None:
        """Decklists go, card by card in their listed order, into each player's zone named
        `deck` (the game's setup shuffles and draws from there)."""
        if not self.decks:
            return
        if "deck" not in self.game.zones or self.game.zones["deck"].scope != "player":
            raise rt.RulesError("decklists were given, but the game has no per-player zone named 'deck'")
        for names in self.decks:  # (before any card is made: a huge list fails at once)
            if len(names) > MAX_DECK:
                raise rt.RulesError(f"a decklist of {len(names):,} cards is too large "
                                    f"(at most {MAX_DECK:,} cards a player)")
        for player, names in zip(self.players, self.decks, strict=False):
            zone = self.zone("deck", player)
            for name in names:
                self.create_card(name, zone, player, top=False)

    def _run(self) -> Generator[Any, Any, None]:
        yield from self._prologue()
        yield from self._turns()

    def _prologue(self) -> Generator[Any, Any, None]:
        """Before the first turn: decklists dealt, `game_started`, the game's setup, checks."""
        ctx = rt.Ctx(self.current, None)
        self.deal_decks()
        yield from self.emit(ctx, "game_started", [])
        for i in range(len(self.game.ir.setup)):
            yield from self.game.handlers[("setup", str(i))](self, ctx)
        yield from self.run_checks()

    def _turns(self) -> Generator[Any, Any, None]:
        """The first player, then rounds of turns until the game ends (or the turn limit)."""
        turn_flow = next((f for f in self.game.ir.flows if f.scope == "turn"), None)
        round_flow = next((f for f in self.game.ir.flows if f.scope == "round"), None)
        if self.over or (turn_flow is None and round_flow is None):
            return
        self.current = yield from self._first_player()
        while not self.over:
            ctx = rt.Ctx(self.current, None)
            for each in self.players:
                self._expire(f"next:round:{each.name}")
            self.reset_counters("start of round", None)
            yield from self.emit(ctx, "round_started", [self.round_number])
            if turn_flow is not None:
                yield from self._round_of_turns(turn_flow)
            if round_flow is not None and not self.over:
                yield from self._stages(round_flow, "round", self.current or self.players[0])
            if self.over:
                return
            yield from self.emit(ctx, "round_ended", [self.round_number])
            self.reset_counters("end of round", None)
            self._expire("round")
            self.round_number += 1
            if turn_flow is None:  # everyone acts together: each round is the game's turn
                self.turn_number += 1
            limit = self.game.ir.game.turn_limit
            if self.turn_number > limit or self.round_number > limit:
                self.error = f"no winner after {limit} turns"
                self.out_of_turns = True  # the turn limit, not a broken rule (soaks count it unended)
                self.over = True

    def _first_player(self) -> Generator[Any, Any, Player]:
        """The game's `first_player`: `seat1`, `random` (a logged draw of the match's RNG)
        or `choose` (the first seat picks who starts)."""
        rule = self.game.ir.game.first_player
        living = rt.players(self)
        first = living[0]
        if rule == "random" and len(living) > 1:
            first = living[self.rng.randrange(len(living))]
        elif rule == "choose" and len(living) > 1:
            first = yield rt.Choose(self, living[0], list(living), "one", None, label="who takes the first turn",
                                    line=self.game.ir.game.span.line)
        self.record("first_player", player=first.name, rule=rule)
        return first

    def _round_of_turns(self, flow: ir.FlowDecl) -> Generator[Any, Any, None]:
        """Every living player takes a turn (or has it skipped), in the turn order the rules
        keep; an extra turn is taken at once, inside the round, and uses up nobody's place."""
        due = len(rt.players(self))
        taken = 0
        limit = self.game.ir.game.turn_limit
        while (taken < due or self.extra_turn_now) and not self.over and self.turn_number <= limit:
            player = self.current
            if player is None or player.eliminated:
                player = self.following(player)
                if player is None:
                    return
                self.current = player
            extra = self.extra_turn_now
            if self.take_skip(player):
                taken += 1
            else:
                yield from self._turn(flow, player)
                self.turn_number += 1
                if not extra:
                    taken += 1
                if self.over:
                    return
            upcoming = self.next_turn_player(player)
            if upcoming is None:
                return
            self.current = upcoming

    def _turn(self, flow: ir.FlowDecl, player: Player) -> Generator[Any, Any, None]:
        ctx = rt.Ctx(player, None)
        self.taken.clear()  # action limits count per turn
        self._expire(f"next:turn:{player.name}")  # what they did "until your next turn" lapses
        self.reset_counters("start of turn", player)
        self.turn_player = player  # losing the game now ends this turn (Match.native_lose_game)
        try:
            yield from self.emit(ctx, "turn_started", [player])
            yield from self._stages(flow, "turn", player)
        finally:
            self.turn_player = None
        yield from self.emit(ctx, "turn_ended", [player])
        self.reset_counters("end of turn", player)
        self._expire("turn")

    def _stages(self, flow: ir.FlowDecl, scope: str, player: Player) -> Generator[Any, Any, None]:
        """The stages in order. After `end the turn` only the stages marked `always` run."""
        self.end_turn_requested = scope == "turn" and player.eliminated  # (lost as their turn began)
        if self.pause_at == ("begin", scope):
            yield Pause(("begin", scope))
        for stage in flow.stages:
            if self.over:
                return
            if self.end_turn_requested and not stage.always:
                if self.tally is not None:
                    self.tally.stage(scope, [stage.name], PASSED_OVER)
                continue
            yield from self._stage(stage, scope, [stage.name], player)

    def _stage(self, stage: ir.StageDecl, scope: str, path: list[str], player: Player) -> Generator[Any, Any, None]:
        ctx = rt.Ctx(player, None)
        if self.pause_every_stage:  # a scenario sees the table between stages
            yield Pause(("start", ".".join(path)))
            if self.end_turn_requested and not stage.always:
                return  # (the scenario ended the turn while standing here)
        if stage.skip is not None and rt.truth(self.game.handlers[("stage", scope, *path, "skip")](self, ctx)):
            self.record("stage_skipped", stage=stage.name)
            if self.tally is not None:
                self.tally.stage(scope, path, SKIPPED)
            return
        if self.tally is not None:
            self.tally.stage(scope, path, RUN)
        self.stage_name = stage.name
        self._expire(f"next:{stage.name}:{player.name}")
        yield from self.emit(ctx, "stage_started", [stage.name])
        yield from self.game.handlers[("stage", scope, *path)](self, ctx)
        yield from self.run_checks()
        for step in stage.steps:
            if self.over:
                return
            if self.end_turn_requested and not step.always:
                if self.tally is not None:
                    self.tally.stage(scope, [*path, step.name], PASSED_OVER)
                continue
            yield from self._stage(step, scope, [*path, step.name], player)
        self.end_stage_requested = False
        if self.pause_at == ("stage", ".".join(path)) and not self.over:
            yield Pause(("stage", ".".join(path)))
        if stage.actions and not self.over:
            if stage.simultaneous:
                yield from self._simultaneous_window(stage, player)
            else:
                yield from self._window(stage, player)
        yield from self.emit(ctx, "stage_ended", [stage.name])
        self._expire(stage.name)

    # ---------------------------------------------------------------- windows and priority
    def _window(self, stage: ir.StageDecl, player: Player) -> Generator[Any, Any, None]:
        """A stage's action window: priority passes between players.

        `player` (whose turn it is) holds priority first. Taking an action keeps it; an
        action that goes on the stack passes it to the next player, so every other player
        may respond. Passing hands priority on; when every living player has passed in a
        row, the stack resolves (last in, first out, each effect followed by the checks)
        and priority returns to `player` — or, with nothing waiting, the window closes.
        Without `responses: yes`, the others get priority only while something waits on
        the stack, so `player` passing with an empty stack closes the window."""
        holder: Player | None = player
        passes = 0
        for _ in range(MAX_WINDOW_MOVES):
            if self.over or holder is None:
                return
            if not self.stack_programs and (self.end_turn_requested or self.end_stage_requested):
                return
            if holder.eliminated:  # out of the game: priority goes by them, and no pass is counted
                holder = self.following(holder)
                continue
            reply = yield from self._priority(holder, stage)
            if reply is None:
                passes += 1
                living = len(rt.players(self))
                if passes >= living or (holder is player and not stage.responses and not self.stack_programs):
                    if not self.stack_programs:
                        return
                    yield from self.resolve_stack()  # everyone passed: last in, first out
                    passes, holder = 0, player
                    continue
                holder = self.following(holder)
                continue
            passes = 0
            move, choices = reply
            if isinstance(move, str):
                self.count_taken(move, holder)
            pushed = yield from self._take(move, holder, choices)
            yield from self.run_checks()
            if pushed:
                holder = self.following(holder)
        self.record("window_closed", stage=stage.name, reason=f"{MAX_WINDOW_MOVES} moves")

    def _priority(self, holder: Player, stage: ir.StageDecl, sealed: bool = False) -> Generator[Any, Any, Any]:
        """`holder` decides in this window: the move taken ((move, choices)), or None for
        a pass. A window where passing is all they could do passes by itself (unless the
        seat asked to stop everywhere); one where passing is not allowed and nothing is
        legal passes too."""
        window = ActionWindow(holder, stage, sealed)
        window.actions = self._window_actions(window)
        if self.tally is not None:
            self.tally.offered(window.actions)
        moves = [a for a in window.actions if a.payload != "pass"]
        if not moves and (not window.actions or holder.index not in self.stops):
            return None
        reply = yield window
        return None if reply is None or reply == "pass" else reply

    def _simultaneous_window(self, stage: ir.StageDecl, player: Player) -> Generator[Any, Any, None]:
        """`simultaneous: yes`: every living player, in turn order from `player`, picks one
        of the stage's actions (or passes) against the same position — no pick is carried
        out, or shown, before all are made. Then the picks are carried out in that order;
        one that is no longer legal by then (its cost cannot be paid) is logged and dropped."""
        seated: list[Player] = []
        who: Player | None = player
        for _ in range(len(self.players)):
            if who is None or who in seated:
                break
            seated.append(who)
            who = self.following(who)
        picks: list[tuple[Player, Any]] = []
        self._open_seal()
        try:
            for seat in seated:
                reply = yield from self._priority(seat, stage, sealed=True)
                if reply is not None:
                    picks.append((seat, reply))
        finally:
            self._close_seal()
        for seat, (move, choices) in picks:
            if self.over:
                return
            if seat.eliminated or self._try(move, seat, list(choices)) is not True:
                self.record("pick_dropped", player=seat.name, move=self._label(move))
                continue
            if isinstance(move, str):
                self.count_taken(move, seat)
            pushed = yield from self._take(move, seat, choices)
            yield from self.run_checks()
            if pushed:
                yield from self.resolve_stack()  # a pick made together with the others: none answers it

    def _stack_answers(self) -> tuple[list[Any], int]:
        """Scripted answers kept for an effect put on the stack (a scenario's; none here)."""
        return [], 0

    def _program(self, move: Any, player: Player) -> tuple[Generator[Any, Any, Any], str, str]:
        """The compiled decision a move runs — an action's, or a card's activated ability —
        with its speed and a label for the log."""
        if isinstance(move, str):
            decl = self.game.actions[move]
            return self.game.handlers[("action", move)](self, rt.Ctx(player, None)), decl.speed, move
        _kind, card, key = move
        found = offers.find_activation(self, card, key)
        if found is None:
            raise rt.NotLegal(str(key))
        program = self.game.activation_handler(key)(self, found.ctx())
        return program, found.ability.speed, f"{card.name}: {found.ability.label}"

    def _label(self, move: Any) -> str:
        return move if isinstance(move, str) else f"{move[1].name}#{move[1].id}: {move[2]}"

    def _take(self, move: Any, player: Player, choices: list[Any]) -> Generator[Any, Any, bool]:
        """Carry out a move with its chosen parameters. An immediate one runs to its end;
        one of stack or instant speed is paid, then its effect waits on the stack (True)."""
        program, speed, label = self._program(move, player)
        if self.tally is not None:
            self.tally.taken(move)
        played = self._played(player, choices)  # (where the cards are before the move runs)
        script = list(choices)
        reply: Any = None
        while True:
            try:
                request = program.send(reply) if not isinstance(reply, rt.Fizzled) else program.throw(reply)
            except (StopIteration, rt.Fizzled):
                yield from self._emit_played(player, played)
                return False
            if isinstance(request, rt.Paid):
                if speed in ("stack", "instant"):
                    self.stack_programs.append((label, program, *self._stack_answers()))
                    self.stack_owners[id(program)] = player
                    if not isinstance(move, str):
                        self.stack_sources[id(program)] = move[1]
                    self.record("waiting", effect=label, player=player.name)
                    yield from self._emit_played(player, played)
                    return True
                reply = None
                continue
            if script and isinstance(request, rt.Choose | rt.ChooseOption):
                reply = script.pop(0)
                continue
            try:
                reply = yield request
            except rt.Fizzled as fizzled:
                reply = fizzled

    def _emit_played(self, player: Player, cards: list[Card]) -> Generator[Any, Any, None]:
        """`played(card, player)` for each card the move played, once the move is carried
        out (or paid, for one that waits on the stack)."""
        ctx = rt.Ctx(player, None)
        for card in cards:
            yield from self.emit(ctx, "played", [card, player])

    # ---------------------------------------------------------------- legal actions
    def _actions_for(self, request: Any) -> list[Action]:
        if request is None:
            return []
        if isinstance(request, ActionWindow):
            return request.actions
        if isinstance(request, rt.ChooseOption):
            who = request.player.index if request.player is not None else 0
            return [Action(i, who, f"choose '{label}'", i) for i, label in enumerate(request.labels)]
        if isinstance(request, rt.Choose):
            return self._choice_actions(request)
        return []

    def _choice_actions(self, request: rt.Choose) -> list[Action]:
        who = request.player.index if request.player is not None else 0
        if request.mode == "one":
            if request.hidden:  # a blind pick: the chooser sees places, not cards
                count = len(request.options)
                out = [Action(i, who, f"choose {'card' if isinstance(o, Card) else 'option'} {i + 1} of {count} "
                                      f"({request.label})", o) for i, o in enumerate(request.options)]
            else:
                out = [Action(i, who, f"choose {self.describe(o)} ({request.label})", o,
                              ("choose ", Shown(o), f" ({request.label})"))
                       for i, o in enumerate(request.options)]
            if request.optional or not out:
                out.append(Action(len(out), who, "choose nothing", None))
            return out
        picks, cut = several_picks(request)
        if cut:
            self.offers_cut[f"choose {request.label} (line {request.line})"] += 1
        return [Action(i, who, f"choose {self.describe(g)} ({request.label})", g,
                       ("choose ", Shown(g), f" ({request.label})")) for i, g in enumerate(picks)]

    def _window_actions(self, window: ActionWindow) -> list[Action]:
        """The moves the priority holder has: the stage's actions and the activated
        abilities of their cards that engine/offers.py allows now, each parameter
        combination that probing finds legal — and `pass`, unless the stage says
        `pass: no` and some move is legal."""
        holder = window.player
        who = holder.index
        stage = window.stage
        is_current = holder is self.current
        stack_busy = bool(self.stack_programs)
        out: list[Action] = []
        self.probe_cache.clear()  # options remembered while probing this position only
        listed = [name for name in stage.actions if name not in ("pass", "activate")]
        listed += [name for name in self.game.instant_actions if name not in listed]
        for name in listed:
            decl = self.game.actions.get(name)
            if decl is None or not offers.action_offered(decl, is_current, stack_busy) \
                    or not self.within_limit(name, holder):
                continue
            for choices in self._probe(name, holder):
                label, parts = _with_values(decl.label, choices, self.describe)
                out.append(Action(len(out), who, label, (name, choices), parts))
        lists_activate = "activate" in stage.actions
        for found in offers.activations(self, holder):
            if not offers.ability_offered(found.ability, is_current, stack_busy, lists_activate):
                continue
            for choices in self._probe(found.move, holder):
                label, parts = _with_values(f"{found.card.name}: {found.ability.label}", choices, self.describe)
                out.append(Action(len(out), who, label, (found.move, choices), parts))
        if stage.passing or not out:
            out.append(Action(len(out), who, "pass", "pass"))
        return out

    def _probe(self, move: Any, player: Player) -> list[list[Any]]:
        """Every parameter combination for which the move is legal (condition + cost).

        Breadth first, one run of the move per prefix of answers. When an action's
        legality cannot depend on the answer to its last choice
        (compiler/actions.option_blind_parameters), one run with the first option of that
        choice decides for all of them — the same list, in the same order."""
        last = self.game.option_blind.get(move) if isinstance(move, str) else None
        self._picks_cut = False  # a pick of several cards among too many combinations (_try)
        found: list[list[Any]] = []
        frontier: list[list[Any]] = [[]]
        while frontier and len(found) < MAX_COMBINATIONS:
            prefix = frontier.pop(0)
            outcome = self._try(move, player, prefix)
            if outcome is True:
                found.append(prefix)
            elif isinstance(outcome, list):
                if last is not None and len(prefix) == last - 1:
                    if self.game.play_conditions:  # a card that may not be played now is no option
                        outcome = [option for option in outcome if self._may_play(option, player)]
                    if outcome and self._try(move, player, [*prefix, outcome[0]]) is True:
                        found.extend([*prefix, option] for option in outcome)
                else:
                    frontier.extend([*prefix, option] for option in outcome)
        if len(found) > MAX_COMBINATIONS or (frontier and len(found) >= MAX_COMBINATIONS) or self._picks_cut:
            self.offers_cut[move if isinstance(move, str) else f"{move[1].name}: {move[2]}"] += 1
        return found[:MAX_COMBINATIONS]

    def _try(self, move: Any, player: Player, prefix: list[Any]) -> bool | list[Any]:
        """Run the move up to its payment with these choices, then roll everything back.

        True: legal as is. A list: the options of the next, still open, choice. False: not legal."""
        snapshot = self.snapshot_state()
        script = list(prefix)
        try:
            program, _speed, _label = self._program(move, player)
        except rt.NotLegal:
            self.restore_state(snapshot)
            return False
        self.probe_path = (move if isinstance(move, str) else ("activate", move[1].id, move[2]), player.index)
        try:
            reply: Any = None
            while True:
                request = program.send(reply)
                if isinstance(request, rt.Paid):
                    return True
                if isinstance(request, rt.Choose):
                    if not script:
                        if request.mode == "one":
                            return list(request.options)
                        picks, cut = several_picks(request)
                        self._picks_cut = self._picks_cut or cut
                        return picks
                    reply = script.pop(0)
                    if not _answers(request, reply):
                        return False  # no longer an option (a card that moved, a target gone)
                    if self.game.play_conditions and not self._may_play(reply, player):
                        return False  # it would play a card whose `play:` condition fails
                    self.probe_path += (tuple(reply) if isinstance(reply, list) else reply,)
                    continue
                if isinstance(request, rt.ChooseOption):
                    if not script:
                        return list(range(len(request.labels)))
                    reply = script.pop(0)
                    if not (type(reply) is int and 0 <= reply < len(request.labels)):
                        return False
                    self.probe_path += (reply,)
                    continue
                reply = None
        except (StopIteration, rt.CannotPay, rt.NotLegal, _NotAnOption):
            return False
        except OperationError as error:
            if error.kind in ("large", "limit"):
                # a rule beyond the limits (`choose x from 1..10^15`) is a broken rule, not an
                # illegal move: the match stops naming it, as it would when the move ran
                raise
            return False
        except (rt.RulesError, TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError):
            return False
        finally:
            self.probe_path = None
            program.close()
            self.restore_state(snapshot)

    def _may_play(self, picked: Any, player: Player) -> bool:
        """Does every card this answer would play — one its chooser takes out of a zone
        only they can see, as _apply_move records it — meet its `play:` condition (read
        with `self` the card and `you` the player)?"""
        for value in picked if isinstance(picked, list) else [picked]:
            if isinstance(value, Card) and value.zone is not None and value.zone.visibility == "owner" \
                    and value.zone.owner is player:
                condition = self.game.play_conditions.get(value.name)
                if condition is None:
                    continue
                try:
                    if not rt.truth(condition(self, rt.Ctx(player, value))):
                        return False
                except (rt.RulesError, TypeError, ValueError, AttributeError, KeyError, IndexError):
                    return False  # a condition that cannot be read now does not hold (as in _try)
        return True


def several_picks(request: rt.Choose) -> tuple[list[list[Any]], bool]:
    """Every answer to a pick of several items, each a combination of the options in their
    order: `exact` — every group of n (all the options when there are fewer); `up_to` and
    `any` — none, then every group of one, of two, ... up to n (`any`: up to all of them).
    Equal groups (a list source may repeat a value) are offered once; at most
    MAX_COMBINATIONS are offered, and True says that some were cut."""
    options = request.options
    n = len(options) if request.n is None else max(0, min(request.n, len(options)))
    sizes = [n] if request.mode == "exact" else range(n + 1)
    groups = itertools.chain.from_iterable(itertools.combinations(options, r) for r in sizes)
    picks: list[list[Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for group in groups:
        key = tuple((type(o), o) if type(o) in (int, str, bool) else (None, id(o)) for o in group)
        if key in seen:
            continue
        if len(picks) == MAX_COMBINATIONS:
            return picks, True
        seen.add(key)
        picks.append(list(group))
    return picks, False


def _answers(request: rt.Choose, reply: Any) -> bool:
    """Is a scripted answer one the choice offers now (each item of a several-item pick)?"""
    if request.mode == "one":
        # the answer is usually the very object offered: test identity before equality
        return (reply is None and request.optional) or any(reply is option for option in request.options) \
            or _offers(request, reply)
    return isinstance(reply, list) and all(_offers(request, item) for item in reply)
