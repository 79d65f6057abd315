"""Scenarios on the played flow: a scenario's statements drive a real PlayedMatch.

A scenario sets up a position, then its statements run against it. The statements that
move time — `perform`, `expect illegal`, `P passes`, `everyone passes`, `run stage "S"`,
`end the turn` — drive the same flow generator a played match runs (engine/flow.py), so
a scenario proves what `legal_actions`/`apply` do: an action is taken only where the
flow offers it (its stage, its player, priority, the stack), and time passes only as
the turn structure says. The flow starts at the first such statement, at the beginning
of player 1's first turn (or, with `setup: game`, of the turn the game's own
`first_player` rule picks); until then statements run on the set-up table.

Whatever the flow asks while a scenario drives it — a choice inside an effect, another
player's target — takes the scripted answers first (`choosing ...`, in order), then the
first option. Windows are never answered silently: only `perform`, a pass, or a
statement that runs time forward (`run stage`, `end the turn`, `everyone passes`, which
pass for whoever holds priority) leave one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from cardsmith.compiler.linetable import line_of
from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.engine.flow import Pause, PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.match import ENDLESS
from cardsmith.engine.moves import MAX_WINDOW_MOVES, Action, ActionWindow
from cardsmith.engine.scenario_steps import ScenarioResult, _NotAnOption, _offers
from cardsmith.model.state import Player

# the most decisions one scenario statement may pass through while running time forward
MAX_DRIVEN = 20 * MAX_WINDOW_MOVES


class ScenarioMatch(PlayedMatch):
    """A PlayedMatch whose flow a scenario starts and drives (see the module docstring)."""

    reports_expectations = True
    pause_every_stage = True  # time moves to the next decision or the next stage, whichever is first

    def __init__(self, game: CompiledGame, index: int) -> None:
        self.scenario = game.ir.scenarios[index]
        self.index = index
        players = self.scenario.players
        # every seat is asked at every window: a scenario decides when time moves on
        super().__init__(game, seed=self.scenario.seed, players=players, mode=self.scenario.mode,
                         stops=range(players))
        self.flow_active = False  # natives called by the scenario itself act on the flow

    def _begin(self) -> None:
        self._flow = None  # started by the first statement that moves time

    # ---------------------------------------------------------------- running the scenario
    def run_scenario(self, index: int | None = None) -> ScenarioResult:
        scenario = self.scenario
        handler = self.game.handlers[("scenario", str(self.index))]
        ctx = rt.Ctx(self.players[0] if self.players else None, None)
        try:
            if scenario.game_setup:
                self.run(self._prologue(), self.scenario_answer)
            self.run(handler(self, ctx), self.scenario_answer)
        except rt.ExpectationFailed as failed:
            return ScenarioResult(scenario.name, False, str(failed), scenario.span.file, failed.line, len(self.log))
        except rt.RulesError as error:
            self.last_line = line_of(error, self.last_line)  # the rules line it reached (linetable.py)
            return self._scenario_failed(scenario, f"rules error: {error}")
        except RecursionError as error:
            self.last_line = line_of(error, self.last_line)
            return self._scenario_failed(scenario, f"rules error: {ENDLESS}")
        except rt.Fizzled as error:
            self.last_line = line_of(error, self.last_line)
            return self._scenario_failed(scenario, f"rules error: {self.nothing_to_choose()}")
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError) as error:
            self.last_line = line_of(error, self.last_line)
            return self._scenario_failed(scenario, f"engine error: {type(error).__name__}: {error}")
        return ScenarioResult(scenario.name, True, "ok", scenario.span.file, scenario.span.line, len(self.log))

    def _first_player(self) -> Any:
        """Player 1 begins a scenario, unless it opted in to the game's own setup."""
        if self.scenario.game_setup:
            return (yield from super()._first_player())
        first = self.players[0]
        self.record("first_player", player=first.name, rule="scenario")
        return first

    # ---------------------------------------------------------------- driving the flow
    def _advance(self, reply: Any) -> None:
        self.flow_active = True  # natives reached from the flow act as in a played match
        try:
            super()._advance(reply)
        finally:
            self.flow_active = False
        if self.error is not None:
            raise rt.RulesError(self.error)

    def _start_flow(self) -> None:
        """The flow begins (at the first turn) if it has not yet, and runs to a decision."""
        if self._flow is None:
            self.flow_started = True
            self._flow = self._turns()
            self._advance(None)
            self._settle()

    def _forced_answer(self, request: Any) -> Any:
        """A choice with one option needs no decision; a scripted answer naming it is used up."""
        if self.script and isinstance(request, rt.Choose) and request.options and request.mode == "one":
            return self.scenario_answer(request)  # (fails the scenario if the answer is not the option)
        return super()._forced_answer(request)

    def _stack_answers(self) -> tuple[list[Any], int]:
        """The answers left over from `choosing` wait with the effect for its choices."""
        answers, self.script = self.script, []
        return answers, self.script_line

    def _settle(self) -> None:
        """Answer the choices the flow asks (scripted answers first, then the first
        option) until it reaches a window, a pause, or the end."""
        for _ in range(MAX_DRIVEN):
            pending = self._pending
            if pending is None or isinstance(pending, ActionWindow | Pause):
                return
            self._advance(self._answer(pending))
        raise rt.RulesError(ENDLESS)

    def _answer(self, request: Any) -> Any:
        if isinstance(request, rt.ChooseOption):
            if self.script and isinstance(self.script[0], str):
                wanted = self.script[0]
                if wanted not in request.labels:
                    raise rt.ExpectationFailed(
                        f"'{wanted}' is not an option of this choice (it offers "
                        f"{', '.join(repr(label) for label in request.labels)})", self.script_line)
                self.script.pop(0)
                return request.labels.index(wanted)
            if self.script and type(self.script[0]) is int and 0 <= self.script[0] < len(request.labels):
                return self.script.pop(0)
            return 0
        return self.scenario_answer(request)

    def _current_window(self) -> ActionWindow:
        """The window the scenario stands at (running on from a pause), with its offers
        worked out again: the scenario's own statements may have changed the table."""
        self._start_flow()
        for _ in range(MAX_DRIVEN):
            if not isinstance(self._pending, Pause):
                break
            self._advance(None)
            self._settle()
        pending = self._pending
        if self.over or pending is None:
            raise rt.ExpectationFailed("the match is over: no player may act", self.scenario_line)
        assert isinstance(pending, ActionWindow)
        pending.actions = self._window_actions(pending)
        return pending

    def _where(self, window: ActionWindow) -> str:
        stage = window.stage.name
        return (f"{window.player.name} holds priority in stage '{stage}' of "
                f"{self.describe(self.current)}'s turn {self.turn_number}"
                + (" (something waits on the stack)" if self.stack_programs else ""))

    # ---------------------------------------------------------------- the statements
    def perform_scripted(self, action: str, by: Any, choosing: list[Any], expect_illegal: bool,
                         line: int) -> Iterator[Any]:
        """`perform ACTION by P choosing ...`: take the action where the flow stands. The
        first scripted values are its parameters; the rest answer its later choices."""
        if action not in self.game.actions:
            raise rt.RulesError(f"unknown action {action!r}")
        actor = self._player(by, line)
        window = self._current_window()
        found = self._offered(window, action, actor, choosing)
        if expect_illegal:
            if found is not None and self._later_choices_fit(found, actor, choosing):
                raise rt.ExpectationFailed(f"{action} by {actor.name} was expected to be illegal, "
                                           f"but it is offered: {found.description}", line)
            self.record("illegal", action=action, player=actor.name)
            return iter(())
        if found is None:
            raise rt.ExpectationFailed(self._not_offered(window, action, actor), line)
        params = len(found.payload[1])
        self.script, self.script_line = list(choosing[params:]), line
        self._apply_move(found)
        self._settle()
        self._all_answers_used()
        self.script = []
        return iter(())

    def _player(self, by: Any, line: int) -> Player:
        if isinstance(by, Player):
            return by
        if isinstance(by, int) and not isinstance(by, bool) and 1 <= by <= len(self.players):
            return self.players[by - 1]
        raise rt.ExpectationFailed(f"{self.describe(by)} is not a player", line)

    def _offered(self, window: ActionWindow, action: str, actor: Player, choosing: list[Any]) -> Action | None:
        """The offer of `action` to `actor` whose parameters the scripted values begin with."""
        if window.player is not actor:
            return None
        for offer in window.actions:
            if not isinstance(offer.payload, tuple) or offer.payload[0] != action:
                continue
            params = offer.payload[1]
            if len(choosing) >= len(params) and all(_same(a, b) for a, b in zip(params, choosing, strict=False)):
                return offer
        return None

    def _later_choices_fit(self, offer: Action, actor: Player, choosing: list[Any]) -> bool:
        """Would the scripted answers after the parameters be accepted by the action's
        later choices? (Run aside and rolled back.)"""
        move, params = offer.payload
        rest = list(choosing[len(params):])
        if not rest:
            return True
        snapshot = self.snapshot_state()
        saved = self.script
        self.script = list(params) + rest
        try:
            program, _speed, _label = self._program(move, actor)
            reply: Any = None
            while True:
                request = program.send(reply)
                if isinstance(request, rt.Choose) and self.script and request.mode == "one" \
                        and not _offers(request, self.script[0]):
                    raise _NotAnOption()
                reply = None if isinstance(request, rt.Paid) else self.default_answer(request)
        except StopIteration:
            return not self.script
        except (rt.CannotPay, rt.NotLegal, _NotAnOption, rt.Fizzled, rt.RulesError):
            return False
        finally:
            self.script = saved
            self.restore_state(snapshot)

    def _not_offered(self, window: ActionWindow, action: str, actor: Player) -> str:
        label = self.game.actions[action].label
        if window.player is not actor:
            return f"{action} by {actor.name} is not offered: {self._where(window)}"
        same = [a.description for a in window.actions if isinstance(a.payload, tuple) and a.payload[0] == action]
        if same:
            return (f"{action} by {actor.name} is offered, but not with these choices: "
                    f"{'; '.join(same[:6])}")
        others = ", ".join(a.description for a in window.actions[:8])
        return f"'{label}' ({action}) is not offered to {actor.name} now: {self._where(window)}; offered: {others}"

    def run_stage_choosing(self, stage: Any, answers: Any, line: int) -> None:
        """`run stage "S" choosing [a, b]`: the answers go, in order, to the choices met
        on the way (a stage's own `choose`, a trigger's target)."""
        self.script = list(answers) if isinstance(answers, list) else ([] if answers is None else [answers])
        self.script_line = line
        try:
            self.run_stage(stage, line)
            self._all_answers_used()
        finally:
            self.script = []

    def pass_by(self, player: Any, line: int) -> None:
        """`P passes`: P, holding priority, passes it on."""
        actor = self._player(player, line)
        window = self._current_window()
        if window.player is not actor:
            raise rt.ExpectationFailed(f"{actor.name} cannot pass: {self._where(window)}", line)
        self._pass(window, line)

    def _pass(self, window: ActionWindow, line: int) -> None:
        passing = next((a for a in window.actions if a.payload == "pass"), None)
        if passing is None:
            offered = ", ".join(a.description for a in window.actions[:6])
            raise rt.ExpectationFailed(f"{window.player.name} may not pass in stage '{window.stage.name}' "
                                       f"(pass: no): perform one of {offered}", line)
        self._apply_move(passing)
        self._settle()

    def everyone_passes(self, line: int) -> None:
        """Every player holding priority passes in turn: what waits on the stack resolves,
        or — with nothing waiting — the window closes."""
        window = self._current_window()
        busy = bool(self.stack_programs)
        start = len(self.log)
        self._run_until(lambda: (not self.stack_programs) if busy else self._stage_ended_since(start), line,
                        f"stage '{window.stage.name}' did not close")

    def _stage_ended_since(self, start: int) -> bool:
        return any(e.get("event") == "emit" and e.get("name") == "stage_ended" for e in self.log[start:])

    def run_stage(self, name: Any, line: int) -> None:
        """`run stage "S"`: time runs on (every window passed) until stage or step S has
        run its statements and steps; the scenario stands there, before S's window."""
        path = self._stage_path(str(name), line)
        where = ("stage", path)
        if isinstance(self._pending, Pause) and self._pending.where == where:
            return
        self.pause_at = where
        try:
            self._start_flow()
            self._run_until(lambda: isinstance(self._pending, Pause) and self._pending.where == where, line,
                            f"stage '{name}' never came")
        finally:
            self.pause_at = None

    def _stage_path(self, name: str, line: int) -> str:
        def paths(stages: list[ir.StageDecl], prefix: str) -> Iterator[str]:
            for stage in stages:
                full = f"{prefix}{stage.name}"
                yield full
                yield from paths(stage.steps, f"{full}.")
        known = [p for flow in self.game.ir.flows for p in paths(flow.stages, "")]
        for full in known:
            if full == name or full.rsplit(".", 1)[-1] == name:
                return full
        raise rt.ExpectationFailed(f"the game has no stage or step named '{name}'", line)

    def advance_turn(self) -> Iterator[Any]:
        """`end the turn` in a scenario: the rest of the turn runs as in a played match
        (only `always` stages, their windows passed), and the scenario stands at the
        beginning of the next turn (its `turn_started` has happened, no stage has run)."""
        scope = "turn" if any(f.scope == "turn" for f in self.game.ir.flows) else "round"
        where = ("begin", scope)
        line = self.scenario_line
        if self._flow is None:
            self.pause_at = where
            self._start_flow()  # (the first turn begins and stops at once: that is the turn to end)
        self.pause_at = where
        self.end_turn_requested = True
        turn = self.turn_number
        try:
            if isinstance(self._pending, Pause):
                self._advance(None)
                self._settle()
            self._run_until(lambda: isinstance(self._pending, Pause) and self._pending.where == where
                            and self.turn_number != turn, line, "the next turn never began")
        finally:
            self.pause_at = None
        return iter(())

    def _run_until(self, reached: Callable[[], bool], line: int, never: str) -> None:
        """Pass every window (answering choices as `_settle` does) until `reached()`."""
        for _ in range(MAX_DRIVEN):
            if reached():
                return
            pending = self._pending
            if self.over or pending is None:
                raise rt.ExpectationFailed(f"{never}: the match ended first", line)
            if isinstance(pending, Pause):
                self._advance(None)
                self._settle()
            elif isinstance(pending, ActionWindow):
                pending.actions = self._window_actions(pending)
                self._pass(pending, line)
            else:
                self._settle()
        raise rt.ExpectationFailed(f"{never} within {MAX_DRIVEN} decisions", line)


def _same(offered: Any, scripted: Any) -> bool:
    return offered is scripted or rt.same(offered, scripted)
