"""Turn structure and priority: a played match, OpenSpiel-style.

The flow is one generator over the game's declared structure — setup, the first player,
then rounds of turns (each player's stages and steps, in the turn order the rules keep)
and the `round` block's stages — that runs compiled stage bodies and opens *action
windows* where a stage lists actions. In a window one player at a time holds
**priority** (`_window` below says who, and when the window closes); what they may do is
decided by engine/offers.py and probed for legality by running each candidate up to its
payment (engine/moves.py). Whatever the flow or a handler needs decided becomes a pending
request; `legal_actions` turns it into Action objects with stable ids and readable
descriptions, and `apply` answers it. Copies of a match (replicas, sampled worlds, the
look-ahead) are engine/copies.py; what a seat sees is engine/seatview.py.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Iterable
from typing import Any

from cardsmith.compiler.linetable import line_of
from cardsmith.dsl import ir
from cardsmith.engine import copies
from cardsmith.engine import runtime as rt
from cardsmith.engine.coverage import PASSED_OVER, RUN, SKIPPED, Tally
from cardsmith.engine.match import ENDLESS
from cardsmith.engine.moves import (
    MAX_COMBINATIONS,
    MAX_WINDOW_MOVES,
    Action,
    ActionWindow,
    MoveFinder,
    from_own_hand,
    played_cards,
)
from cardsmith.engine.replica import portable
from cardsmith.engine.seatview import SeatNames, determinize, observe
from cardsmith.model.state import Card, Player
from cardsmith.model.values import MAX_DECK

# (tuples made once, not a union type built at every request)
_TOGETHER = (rt.BeginSimultaneous, rt.EndSimultaneous)
_QUESTIONS = (rt.Choose, rt.ChooseOption)
# a game's turn limit when it declares none (`turn_limit:` in `game`, GameDecl.turn_limit)
MAX_TURNS = ir.DEFAULT_TURN_LIMIT


class Pause:
    """A point a scenario asked the flow to stop at (engine/scenario_flow.py): the start
    of a turn, or a named stage once its statements and steps have run. Played matches
    never set one (`pause_at` stays None)."""

    def __init__(self, where: tuple[str, ...]) -> None:
        self.where = where


class PlayedMatch(MoveFinder):
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
        self.seal_counters: dict[tuple[int, str], Any] = {}
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
        self._flow: Generator[Any, Any, None] | None = self._turns(prologue=True)
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
        # (a move as offered sits at its id: no ==, which writes every description before it)
        if not (0 <= chosen.id < len(actions) and actions[chosen.id] is chosen) and chosen not in actions:
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
            if from_own_hand(value, self.players[chosen.player]):  # "played"
                self.cards_played.append((chosen.player, value.name))
        self._advance(chosen.payload)

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

    # ---------------------------------------------------------------- what a player sees, snapshots
    def look_ahead(self, seat: int, actions: list[Action], rng: random.Random) -> list[Any] | None:
        """The game's heuristic for `seat` after each of `actions` (copies.look_ahead)."""
        return copies.look_ahead(self, seat, actions, rng)

    def sample_world(self, seat: int, rng: random.Random) -> PlayedMatch:
        """A copy of this match that `seat` cannot tell from it (copies.sample_world)."""
        return copies.sample_world(self, seat, rng)

    def score_action(self, action: Action, heuristic: Any) -> Any:
        """The heuristic's value for the acting player after this move (copies.score_action)."""
        return copies.score_action(self, action, heuristic)

    def replica(self, viewer: int | None = None, rng: Any = None) -> PlayedMatch:
        """A copy of this match at this position (copies.replica)."""
        return copies.replica(self, viewer, rng)

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
        return (isinstance(self._pending, ActionWindow) and self._pending.sealed) or self.open_seal is not None

    def sealed_cards(self, viewer: Player) -> set[int]:
        """Cards another player's pick in the open simultaneous decision moved or changed (seen when revealed)."""
        if self.open_seal is None:
            return set()
        mentioned = {entry["card"].rpartition("#")[2] for entry in self.log[self.seal_log_start:]
                     if isinstance(entry.get("card"), str)}  # (by id: a sampled world renames cards)
        return {c.id for c in self.all_cards() if str(c.id) in mentioned and c.controller is not viewer}

    def sealed_counters(self, viewer: Player) -> dict[tuple[int, str], Any]:
        """Counters another player's pick in the open simultaneous decision changed — any
        player's, or the table's (-1) — each with its value when the decision opened: the
        viewer sees that value until all picks are revealed (a counter a pick changed
        would tell the pick: a sealed bid that moved coins)."""
        if self.open_seal is None:
            return {}
        seats = {p.name: p.index for p in self.players}
        found: dict[tuple[int, str], Any] = {}
        actor: str | None = None
        for entry in self.log[self.seal_log_start:]:
            kind = entry.get("event")
            if kind == "action":
                actor = entry.get("player")
            elif kind == "counter" and "card" not in entry and actor is not None and actor != viewer.name:
                key = (seats.get(entry.get("player"), -1), entry["counter"])  # type: ignore[arg-type]
                found.setdefault(key, self.seal_counters.get(key, 0))
        return found

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

    # ---------------------------------------------------------------- driving the flow
    def _advance(self, reply: Any) -> None:
        self.steps = 0  # the loop guard counts the steps between two decisions
        assert self._flow is not None
        try:
            request = self._flow.send(reply)
            while isinstance(request, _TOGETHER) or (
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
            self._stop(f"{error} (line {line_of(error, self.last_line)})")
        except rt.RulesError as error:
            self._stop(f"{error} (line {line_of(error, self.last_line)})")
        except RecursionError as error:
            self._stop(f"{ENDLESS} (line {line_of(error, self.last_line)})")

    def _forced_answer(self, request: Any) -> Any:
        """The answer to a choice with one option (or an optional one with none)."""
        return request.options[0] if isinstance(request, rt.Choose) and request.options else None

    def _open_seal(self) -> None:
        """A simultaneous decision begins: picks from now on are sealed until it ends."""
        self._seals += 1
        self.open_seal = self._seals
        self.seal_log_start = len(self.log)
        # the counters as the decision opened: what the others see until the picks are revealed
        self.seal_counters = {(-1, name): value for name, value in self.shared.items()}
        self.seal_counters.update({(p.index, name): value for p in self.players for name, value in p.counters.items()})

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

    def _prologue(self) -> Generator[Any, Any, None]:
        """Before the first turn: decklists dealt, `game_started`, the game's setup, checks."""
        ctx = rt.Ctx(self.current, None)
        self.deal_decks()
        yield from self.emit(ctx, "game_started", [])
        for i in range(len(self.game.ir.setup)):
            yield from self.game.handlers[("setup", str(i))](self, ctx)
        yield from self.checks()

    def _turns(self, prologue: bool = False) -> Generator[Any, Any, None]:
        """The first player, then rounds of turns until the game ends (or the turn limit);
        a played match's flow begins with the `prologue` (a level of its own would pass on
        every decision of the match)."""
        if prologue:
            yield from self._prologue()
        turn_flow = next((f for f in self.game.ir.flows if f.scope == "turn"), None)
        round_flow = next((f for f in self.game.ir.flows if f.scope == "round"), None)
        if self.over or (turn_flow is None and round_flow is None):
            return
        self.current = yield from self._first_player()
        while not self.over:
            ctx = self.actor(self.current)
            for each in self.players if self.periods_in_use else ():
                self._expire(f"next:round:{each.name}")
            self.reset_counters("start of round", None)
            yield from self.emit_one(ctx, "round_started", self.round_number, self.round_number)
            if turn_flow is not None:
                yield from self._round_of_turns(turn_flow)
            if round_flow is not None and not self.over:
                yield from self._stages(round_flow, "round", self.current or self.players[0])
            if self.over:
                return
            yield from self.emit_one(ctx, "round_ended", self.round_number, self.round_number)
            if self.game.resets:
                self.reset_counters("end of round", None)
            if self.periods_in_use:
                self._expire("round")
            self.round_number += 1
            if turn_flow is None:  # everyone acts together: each round is the game's turn
                self.turn_number += 1
            limit = self.game.ir.game.turn_limit
            if self.turn_number > limit or self.round_number > limit:
                self.error = f"no winner after {limit} turns"
                self.out_of_turns = True  # the turn limit, not a broken rule (soaks count it unended)
                self.over = True

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
        ctx = self._actors.get(player) or self.actor(player)
        self.taken.clear()  # action limits count per turn
        if self.periods_in_use:  # (no change lasts for a period: there is nothing to expire)
            self._expire(f"next:turn:{player.name}")  # what they did "until your next turn" lapses
        if self.game.resets:  # (asked here: most games reset nothing, and this is every turn)
            self.reset_counters("start of turn", player)
        self.turn_player = player  # losing the game now ends this turn (natives.lose_game)
        try:
            yield from self.emit_one(ctx, "turn_started", player, player.name)
            yield from self._stages(flow, "turn", player)
        finally:
            self.turn_player = None
        yield from self.emit_one(ctx, "turn_ended", player, player.name)
        if self.game.resets:
            self.reset_counters("end of turn", player)
        if self.periods_in_use:
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
        ctx = self._actors.get(player) or self.actor(player)
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
        if self.periods_in_use:
            self._expire(f"next:{stage.name}:{player.name}")
        yield from self.emit_one(ctx, "stage_started", stage.name, stage.name)
        if stage.body:  # (an empty body compiles to a generator that does nothing: one a turn)
            yield from self.game.handlers[("stage", scope, *path)](self, ctx)
        yield from self.checks()
        for step in stage.steps:
            if self.over:
                return
            if self.end_turn_requested and not step.always:
                if self.tally is not None:
                    self.tally.stage(scope, [*path, step.name], PASSED_OVER)
                continue
            yield from self._stage(step, scope, [*path, step.name], player)
        self.end_stage_requested = False
        if self.pause_at is not None and self.pause_at == ("stage", ".".join(path)) and not self.over:
            yield Pause(("stage", ".".join(path)))
        if stage.actions and not self.over:
            if stage.simultaneous:
                yield from self._simultaneous_window(stage, player)
            else:
                yield from self._window(stage, player)
        yield from self.emit_one(ctx, "stage_ended", stage.name, stage.name)
        if self.periods_in_use:
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
            window = self._offer(holder, stage)  # (_priority in line: one generator less an action)
            reply = None if window is None else (yield window)
            if reply is None or reply == "pass":
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
            yield from self.checks()
            if pushed:
                holder = self.following(holder)
        self.record("window_closed", stage=stage.name, reason=f"{MAX_WINDOW_MOVES} moves")

    def _priority(self, holder: Player, stage: ir.StageDecl, sealed: bool = False) -> Generator[Any, Any, Any]:
        """`holder` decides in this window: the move taken ((move, choices)), or None (a pass)."""
        window = self._offer(holder, stage, sealed)
        reply = None if window is None else (yield window)
        return None if reply is None or reply == "pass" else reply

    def _offer(self, holder: Player, stage: ir.StageDecl, sealed: bool = False) -> ActionWindow | None:
        """The window `holder` is asked at, with its actions; None when it passes by
        itself: passing is all they could do (unless the seat asked to stop everywhere),
        or passing is not allowed and nothing is legal."""
        window = ActionWindow(holder, stage, sealed)
        actions = window.actions = self._window_actions(window)
        if self.tally is not None:
            self.tally.offered(actions)
        # (a pass, when there is one, is the window's last move: moves._window_actions)
        if not actions or (len(actions) == 1 and actions[0].payload == "pass" and holder.index not in self.stops):
            return None
        return window

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
                if reply is None:
                    continue
                move, choices = reply
                if self.move_key(move) in self.game.asks_while_paying:
                    # how the pick pays is part of the pick: asked now, sealed with it
                    paying = yield from self._cost_answers(move, seat, choices)
                    if paying is None:
                        continue
                    reply = (move, paying)
                picks.append((seat, reply))
        finally:
            self._close_seal()
        for seat, (move, choices) in picks:
            if self.over:
                return
            if seat.eliminated or not self.legal_with(move, seat, list(choices)):
                self.record("pick_dropped", player=seat.name, move=self._label(move))
                continue
            if isinstance(move, str):
                self.count_taken(move, seat)
            pushed = yield from self._take(move, seat, choices)
            yield from self.checks()
            if pushed:
                yield from self.resolve_stack()  # a pick made together with the others: none answers it

    def _stack_answers(self) -> tuple[list[Any], int]:
        """Scripted answers kept for an effect put on the stack (a scenario's; none here)."""
        return [], 0

    def _take(self, move: Any, player: Player, choices: list[Any]) -> Generator[Any, Any, bool]:
        """Carry out a move with its chosen parameters. An immediate one runs to its end;
        one of stack or instant speed is paid, then its effect waits on the stack (True)."""
        played = played_cards(player, choices)  # (where the cards are before the move runs)
        if self.move_key(move) in self.game.asks_while_paying:
            paying = yield from self._cost_answers(move, player, choices)
            if paying is None:
                self.record("pick_dropped", player=player.name, move=self._label(move))
                return False
            choices = paying
        program, speed, label = self._program(move, player)
        if self.tally is not None:
            self.tally.taken(move)
        script = list(choices)
        reply: Any = None
        # the answers given so far, as probing keys the options it found (rt.probed_options):
        # up to its payment the move asks what probing (or the predicate) asked, in the same
        # state, so its choices' options are read back rather than computed again
        self.probe_path = self._probe_key(move, player)
        while True:
            try:
                request = program.send(reply) if not isinstance(reply, rt.Fizzled) else program.throw(reply)
            except (StopIteration, rt.Fizzled):
                self.probe_path = None
                yield from self._emit_played(player, played)
                return False
            if isinstance(request, rt.Paid):
                self.probe_path = None
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
            if script and isinstance(request, _QUESTIONS):
                reply = script.pop(0)
                if self.probe_path is not None:
                    self.probe_path += (tuple(reply) if isinstance(reply, list) else reply,)
                continue
            self.probe_path = None  # a live question: what follows was never probed
            try:
                reply = yield request
            except rt.Fizzled as fizzled:
                reply = fizzled

    def _cost_answers(self, move: Any, player: Player, choices: list[Any]) -> Generator[Any, Any, list[Any] | None]:
        """The move's parameters followed by the answers to the questions its cost asks,
        each asked now of the player it names, offering only the answers from which the
        cost can still be paid (moves.cost_question). Nothing on the table changes while
        they are asked: the cost is then paid, and the effect run, with all the answers —
        as a player at the table says how they pay before handing the cards over. None:
        the cost can no longer be paid."""
        answers = list(choices)
        for _ in range(MAX_COMBINATIONS):
            question = self.cost_question(move, player, answers)
            if question is True:
                return answers
            if question is None or question is False:
                return None
            request, allowed = question
            reply = yield request
            if isinstance(request, rt.ChooseOption) and type(reply) is int and 0 <= reply < len(allowed):
                reply = allowed[reply]
            answers.append(reply)
        return None

    def _emit_played(self, player: Player, cards: list[Card]) -> Iterable[Any]:
        """`played(card, player)` for each card the move played, once carried out (or paid,
        for one that waits on the stack); for one card or none, no generator is made."""
        if len(cards) == 1:
            return self.emit(self._actors.get(player) or self.actor(player), "played", [cards[0], player])
        return self._each_played(player, cards) if cards else ()

    def _each_played(self, player: Player, cards: list[Card]) -> Generator[Any, Any, None]:
        for card in cards:
            yield from self.emit(self.actor(player), "played", [card, player])
