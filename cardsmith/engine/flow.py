"""Turn structure and legal actions: a played match, OpenSpiel-style.

The flow is one generator over the game's declared structure — setup, then turns
(each player's stages and steps) and rounds (stages after every player's turn) — that
runs compiled stage bodies and opens *action windows* where a stage lists actions.
Whatever the flow or a handler needs decided becomes a pending request; `legal_actions`
turns it into a list of Action objects with stable ids and readable descriptions, and
`apply` answers it. Legal actions are derived from the same compiled action code that
executes them: each parameter combination is probed (journaled, then rolled back) and
offered only if its condition holds and its cost can be paid.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.engine.match import ENDLESS, Match, _NotAnOption
from cardsmith.engine.replica import Rebuilder, portable
from cardsmith.engine.state import Card, Player

MAX_COMBINATIONS = 200
MAX_TURNS = 3000


@dataclass(frozen=True)
class Action:
    """One legal move: who makes it, a stable id within the decision, and what it does."""

    id: int
    player: int
    description: str
    payload: Any


class ActionWindow:
    """The current player may take one of the stage's actions, or pass."""

    def __init__(self, player: Player, stage: ir.StageDecl) -> None:
        self.player = player
        self.stage = stage


class PlayedMatch(Match):
    """A match driven by agents through legal_actions() / apply()."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.flow_active = True
        self.history: list[int] = []
        # every applied move as (id, seat, description, portable payload): replica() replays them
        self.moves: list[tuple[int, int, str, Any]] = []
        self.cards_played: list[tuple[int, str]] = []
        self.record("match", game=self.game.ir.game.id, seed=self.seed, players=len(self.players), mode=self.mode,
                    decks=self.decks)
        self._flow = self._run()
        self._pending: Any = None
        self._cached: list[Action] | None = None
        self.error: str | None = None
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
        if self._cached is None:
            self._cached = self._actions_for(self._pending)
        return self._cached

    def apply(self, action: Action | int) -> None:
        actions = self.legal_actions()
        chosen = actions[action] if isinstance(action, int) else action
        if chosen not in actions:
            raise ValueError("not a legal action now")
        self._apply_move(chosen)

    def _apply_move(self, chosen: Action) -> None:
        self.record("action", player=f"player{chosen.player + 1}", id=chosen.id, description=chosen.description)
        self.history.append(chosen.id)
        self.moves.append((chosen.id, chosen.player, chosen.description, portable(chosen.payload)))
        picked = chosen.payload[1] if isinstance(chosen.payload, tuple) else chosen.payload
        for value in picked if isinstance(picked, list) else [picked]:
            # "played": a card its chooser takes out of a zone only they can see (a hand)
            if isinstance(value, Card) and value.zone is not None and value.zone.visibility == "owner" \
                    and value.zone.owner is self.players[chosen.player]:
                self.cards_played.append((chosen.player, value.name))
        self._advance(chosen.payload)

    @property
    def pending(self) -> Any:
        return self._pending

    def determinize(self, viewer: int, rng: Any) -> None:
        """Replace what `viewer` cannot see with a plausible guess, in place (journaled).

        For each other player, the cards in their zones that the viewer cannot see (a
        hand, a deck) are pooled, shuffled and dealt back, each zone keeping its size; a
        shared hidden zone is shuffled. The viewer's own knowledge — every visible zone,
        and the sizes of hidden ones — is untouched."""
        me = self.players[viewer]
        for owner in self.players:
            if owner is me:
                continue
            zones = [z for z in self.zones.values() if z.owner is owner
                     and (z.visibility == "hidden" or z.visibility == "owner")]
            pool = [c for z in zones for c in z.cards if not (c.face_down and c.controller is me)]
            if len(pool) < 2:
                continue
            sizes = [(z, len(z.cards)) for z in zones]
            rng.shuffle(pool)
            for zone, _size in sizes:
                for card in list(zone.cards):
                    self._place(card, None, top=False)
            for zone, size in sizes:
                for _ in range(size):
                    self._place(pool.pop(), zone, top=False)
        for zone in self.zones.values():
            if zone.owner is None and zone.visibility == "hidden" and len(zone.cards) > 1:
                self._shuffle_journaled(zone, rng)

    def _shuffle_journaled(self, zone: Any, rng: Any) -> None:
        before = list(zone.cards)
        rng.shuffle(zone.cards)

        def undo() -> None:
            zone.cards[:] = before
        self.undoable(undo)

    def score_action(self, action: Action, heuristic: Any) -> Any:
        """The heuristic's value for the acting player after this move (then rolled back)."""
        player = self.players[action.player]
        snapshot = self.snapshot_state()
        saved_current = self.current
        try:
            if isinstance(action.payload, tuple):
                name, choices = action.payload
                self.script = list(choices)
                program = self.game.handlers[("action", name)](self, rt.Ctx(player, None))
                self.run(program, self._scripted_then_default)
                self.run(self.run_checks(), self.default_answer)  # type: ignore[arg-type]
            return heuristic(self, rt.Ctx(player, None))
        except (rt.RulesError, rt.CannotPay, rt.NotLegal, _NotAnOption, rt.Fizzled, TypeError, ValueError):
            return float("-inf")
        finally:
            self.script = []
            self.restore_state(snapshot)
            self.current = saved_current

    def _scripted_then_default(self, request: Any) -> Any:
        if isinstance(request, rt.Paid):
            return None
        return self.default_answer(request)

    # ---------------------------------------------------------------- what a player sees, snapshots
    def observation(self, player: int) -> dict[str, Any]:
        """The position as `player` (0-based seat) may see it: hidden zones and other
        players' hands show only how many cards they hold; face-down cards show as such."""
        viewer = self.players[player]

        def card_view(card: Any, visible: bool) -> dict[str, Any]:
            if not visible or (card.face_down and card.controller is not viewer):
                return {"id": card.id, "hidden": True}
            return {"id": card.id, "name": card.name, "type": card.type, "controller": self.describe(card.controller),
                    "statuses": sorted(card.statuses), "counters": {k: rt._plain(v) for k, v in card.counters.items()},
                    "host": card.host.id if card.host is not None else None}

        zones = []
        for (name, _owner), zone in self.zones.items():
            visible = zone.visibility == "public" or (zone.visibility == "owner" and zone.owner is viewer)
            zones.append({"zone": name, "owner": self.describe(zone.owner), "size": len(zone.cards),
                          "cards": [card_view(c, visible) for c in zone.cards] if visible else []})
        actions = [a.description for a in self.legal_actions() if a.player == player]
        return {"you": viewer.name, "current": self.describe(self.current), "turn": self.turn_number,
                "players": [{"name": p.name, "counters": {k: rt._plain(v) for k, v in p.counters.items()},
                             "eliminated": p.eliminated} for p in self.players],
                "shared": {k: rt._plain(v) for k, v in self.shared.items()}, "zones": zones,
                "legal_actions": actions, "result": self.result if self.over else None}

    def state_summary(self) -> dict[str, Any]:
        """Everything on the table, unhidden (for snapshots and verification)."""
        return {"turn": self.turn_number, "round": self.round_number, "current": self.describe(self.current),
                "players": [{"name": p.name, "counters": {k: rt._plain(v) for k, v in p.counters.items()},
                             "eliminated": p.eliminated} for p in self.players],
                "shared": {k: rt._plain(v) for k, v in self.shared.items()},
                "zones": {f"{name}/{owner}": [self.describe(c) for c in zone.cards]
                          for (name, owner), zone in self.zones.items()},
                "over": self.over, "winner": self.describe(self.winner), "log_size": len(self.log)}

    def snapshot(self) -> dict[str, Any]:
        """A JSON snapshot: how the match began and every action since, plus the state.

        The flow is a Python generator, whose position cannot be serialised; but a match
        is deterministic, so its seed and action history restore it exactly (restore()
        replays them and checks the state matches)."""
        return {"game": self.game.ir.game.id, "seed": self.seed, "players": len(self.players), "mode": self.mode,
                "decks": self.decks, "history": list(self.history), "state": self.state_summary()}

    @classmethod
    def restore(cls, game: Any, snapshot: dict[str, Any]) -> PlayedMatch:
        match = cls(game, seed=snapshot["seed"], players=snapshot["players"], mode=snapshot["mode"],
                    decks=snapshot.get("decks"))
        for action_id in snapshot["history"]:
            match.apply(match.legal_actions()[action_id])
        if match.state_summary() != snapshot["state"]:
            raise ValueError("the restored match differs from the snapshot")
        return match

    def replica(self) -> PlayedMatch:
        """A copy of this match at this position, for search (engine/replica.py): replayed
        move by move without finding legal moves; the table is checked to be the same."""
        copy = type(self)(self.game, seed=self.seed, players=len(self.players), mode=self.mode, decks=self.decks)
        rebuild = Rebuilder(copy)
        try:
            for action_id, seat, description, payload in self.moves:
                copy._apply_move(Action(action_id, seat, description, rebuild.value(payload)))
        except KeyError:  # a move named a card in no zone (none of the library's do): replay by id
            return type(self).restore(self.game, self.snapshot())
        if copy.state_summary() != self.state_summary():
            raise ValueError("the replica differs from the match")
        return copy

    # ---------------------------------------------------------------- driving the flow
    def _advance(self, reply: Any) -> None:
        self._cached = None
        self.steps = 0  # the loop guard counts the steps between two decisions
        try:
            request = self._flow.send(reply)
            while isinstance(request, rt.BeginSimultaneous | rt.EndSimultaneous) or (
                    isinstance(request, rt.Choose) and len(request.options) <= 1 and request.mode == "one"
                    and not request.optional):
                if isinstance(request, rt.Choose) and not request.options:
                    request = self._flow.throw(self.fizzle(request))  # the effect that asked stops
                    continue
                # a forced choice (one option) needs no decision
                answer = request.options[0] if isinstance(request, rt.Choose) else None
                request = self._flow.send(answer)
            self._pending = request
        except StopIteration:
            self._pending = None
        except rt.Fizzled:
            # no effect around the empty choice to fizzle: the rules themselves (a stage, a
            # procedure the turn calls) needed a choice that has no option
            self._stop(self.nothing_to_choose())
        except (rt.RulesError, rt.ExpectationFailed) as error:
            self._stop(f"{error} (line {self.last_line})")
        except RecursionError:
            self._stop(f"{ENDLESS} (line {self.last_line})")

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
        for player, names in zip(self.players, self.decks, strict=False):
            zone = self.zone("deck", player)
            for name in names:
                self.create_card(name, zone, player)

    def _run(self) -> Generator[Any, Any, None]:
        ctx = rt.Ctx(self.current, None)
        self.deal_decks()
        yield from self.emit(ctx, "game_started", [])
        for i in range(len(self.game.ir.setup)):
            yield from self.game.handlers[("setup", str(i))](self, ctx)
        yield from self.run_checks()
        turn_flow = next((f for f in self.game.ir.flows if f.scope == "turn"), None)
        round_flow = next((f for f in self.game.ir.flows if f.scope == "round"), None)
        while not self.over and self.turn_number <= MAX_TURNS:
            if turn_flow is not None:
                for player in list(self.players):
                    if self.over:
                        return
                    if player.eliminated:
                        continue
                    self.current = player
                    yield from self._turn(turn_flow, player)
                    self.turn_number += 1
            if round_flow is not None and not self.over:
                yield from self._stages(round_flow, "round", self.current or self.players[0])
            self.round_number += 1
            if turn_flow is None and round_flow is None:
                return
        if not self.over:
            self.error = f"no winner after {MAX_TURNS} turns"
            self.over = True

    def _turn(self, flow: ir.FlowDecl, player: Player) -> Generator[Any, Any, None]:
        ctx = rt.Ctx(player, None)
        self.taken.clear()  # action limits count per turn
        yield from self.emit(ctx, "turn_started", [player])
        yield from self._stages(flow, "turn", player)
        yield from self.emit(ctx, "turn_ended", [player])
        self._expire("turn")

    def _stages(self, flow: ir.FlowDecl, scope: str, player: Player) -> Generator[Any, Any, None]:
        self.end_turn_requested = False
        for stage in flow.stages:
            if self.over or self.end_turn_requested:
                return
            yield from self._stage(stage, scope, [stage.name], player)

    def _stage(self, stage: ir.StageDecl, scope: str, path: list[str], player: Player) -> Generator[Any, Any, None]:
        ctx = rt.Ctx(player, None)
        self.stage_name = stage.name
        yield from self.emit(ctx, "stage_started", [stage.name])
        yield from self.game.handlers[("stage", scope, *path)](self, ctx)
        yield from self.run_checks()
        for step in stage.steps:
            if self.over:
                return
            yield from self._stage(step, scope, [*path, step.name], player)
        self.end_stage_requested = False
        if stage.actions and not self.over:
            for _ in range(200):
                if self.over or self.end_turn_requested or self.end_stage_requested:
                    break
                reply = yield ActionWindow(player, stage)
                if reply is None or reply == "pass":
                    break
                action_name, choices = reply
                self.count_taken(action_name, player)
                yield from self._take(action_name, player, choices)
                yield from self.run_checks()
        yield from self.emit(ctx, "stage_ended", [stage.name])
        self._expire(stage.name)

    def _take(self, action: str, player: Player, choices: list[Any]) -> Generator[Any, Any, None]:
        ctx = rt.Ctx(player, None)
        program = self.game.handlers[("action", action)](self, ctx)
        script = list(choices)
        reply: Any = None
        while True:
            try:
                request = program.send(reply) if not isinstance(reply, rt.Fizzled) else program.throw(reply)
            except (StopIteration, rt.Fizzled):
                return
            if isinstance(request, rt.Paid):
                reply = None
                continue
            if script and isinstance(request, rt.Choose):
                reply = script.pop(0)
                continue
            try:
                reply = yield request
            except rt.Fizzled as fizzled:
                reply = fizzled

    # ---------------------------------------------------------------- legal actions
    def _actions_for(self, request: Any) -> list[Action]:
        if request is None:
            return []
        if isinstance(request, rt.ChooseOption):
            who = request.player.index if request.player is not None else 0
            return [Action(i, who, f"choose '{label}'", i) for i, label in enumerate(request.labels)]
        if isinstance(request, rt.Choose):
            return self._choice_actions(request)
        if isinstance(request, ActionWindow):
            return self._window_actions(request)
        return []

    def _choice_actions(self, request: rt.Choose) -> list[Action]:
        who = request.player.index if request.player is not None else 0
        if request.mode == "one":
            out = [Action(i, who, f"choose {self.describe(o)} ({request.label})", o)
                   for i, o in enumerate(request.options)]
            if request.optional or not out:
                out.append(Action(len(out), who, "choose nothing", None))
            return out
        # several items: offer the first n in each of a bounded set of orders (simple, deterministic)
        n = request.n if request.n is not None else len(request.options)
        picks: list[list[Any]] = []
        if request.mode in ("up_to", "any"):
            picks.append([])
        for start in range(len(request.options)):
            group = request.options[start:start + n]
            if len(group) == n or request.mode != "exact":
                picks.append(group)
        unique: list[list[Any]] = []
        for group in picks:
            if group not in unique:
                unique.append(group)
        return [Action(i, who, f"choose {self.describe(g)} ({request.label})", g) for i, g in enumerate(unique)]

    def _window_actions(self, window: ActionWindow) -> list[Action]:
        who = window.player.index
        out: list[Action] = []
        self.probe_cache.clear()  # options remembered while probing this position only
        for name in window.stage.actions:
            if name == "pass":
                continue
            decl = self.game.actions.get(name)
            if decl is None or decl.by not in ("current", "any") or not self.within_limit(name, window.player):
                continue
            for choices in self._probe(name, window.player):
                described = ", ".join(str(self.describe(c)) for c in choices)
                label = decl.label + (f": {described}" if described else "")
                out.append(Action(len(out), who, label, (name, choices)))
        out.append(Action(len(out), who, "pass", "pass"))
        return out

    def _probe(self, action: str, player: Player) -> list[list[Any]]:
        """Every parameter combination for which the action is legal (condition + cost).

        Breadth first, one run of the action per prefix of answers. When the action's
        legality cannot depend on the answer to its last choice
        (compiler/actions.option_blind_parameters), one run with the first option of that
        choice decides for all of them — the same list, in the same order."""
        last = self.game.option_blind.get(action)
        found: list[list[Any]] = []
        frontier: list[list[Any]] = [[]]
        while frontier and len(found) < MAX_COMBINATIONS:
            prefix = frontier.pop(0)
            outcome = self._try(action, player, prefix)
            if outcome is True:
                found.append(prefix)
            elif isinstance(outcome, list):
                if last is not None and len(prefix) == last - 1:
                    if outcome and self._try(action, player, [*prefix, outcome[0]]) is True:
                        found.extend([*prefix, option] for option in outcome)
                else:
                    frontier.extend([*prefix, option] for option in outcome)
        return found[:MAX_COMBINATIONS]

    def _try(self, action: str, player: Player, prefix: list[Any]) -> bool | list[Any]:
        """Run the action up to its payment with these choices, then roll everything back.

        True: legal as is. A list: the options of the next, still open, choice. False: not legal."""
        snapshot = self.snapshot_state()
        saved_current = self.current
        self.current = player
        script = list(prefix)
        program = self.game.handlers[("action", action)](self, rt.Ctx(player, None))
        self.probe_path = (action, player.index)
        try:
            reply: Any = None
            while True:
                request = program.send(reply)
                if isinstance(request, rt.Paid):
                    return True
                if isinstance(request, rt.Choose):
                    if not script:
                        return list(request.options) if request.mode == "one" else [
                            self.default_answer(request)]
                    reply = script.pop(0)
                    self.probe_path += (tuple(reply) if isinstance(reply, list) else reply,)
                    continue
                if isinstance(request, rt.ChooseOption):
                    if not script:
                        return list(range(len(request.labels)))
                    reply = script.pop(0)
                    self.probe_path += (reply,)
                    continue
                reply = None
        except (StopIteration, rt.CannotPay, rt.NotLegal, _NotAnOption):
            return False
        except (rt.RulesError, TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError):
            return False
        finally:
            self.probe_path = None
            program.close()
            self.restore_state(snapshot)
            self.current = saved_current
