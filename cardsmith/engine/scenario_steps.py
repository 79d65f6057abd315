"""What a match offers a scenario: scripted answers, the scenario's result, and the
statements only a scenario may run.

A scenario (`scenario "..." { ... }`) answers the rules' choices from its `choosing`
lists and reports pass or fail; its time-moving statements (`perform`, `P passes`,
`everyone passes`, `run stage`, `end the turn`) drive the played flow, which
engine/scenario_flow.py's ScenarioMatch does by overriding the hooks here. Mixed into
Match, so a plain or played match refuses those statements with a rules error, and
the scripted-answer policy serves every match that has no agent to ask.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt


@dataclass
class ScenarioResult:
    name: str
    passed: bool
    message: str
    file: str
    line: int
    log_size: int


class _NotAnOption(Exception):
    """A scripted answer the choice does not offer (the move it was probing is not taken)."""


def _offers(request: rt.Choose, wanted: Any) -> bool:
    """Is a scripted answer among a choice's options (that object, or equal as rules mean)?"""
    return any(wanted is option or rt.same(wanted, option) for option in request.options)


class ScenarioSteps:
    """Mixed into Match: scripted answers and the scenario-only statements' hooks."""

    script: list[Any]
    script_line: int
    scenario_line: int
    last_line: int
    log: list[dict[str, Any]]

    if TYPE_CHECKING:  # provided by Match, which this is mixed into
        def describe(self, value: Any) -> Any: ...

    # ---------------------------------------------------------------- scripted answers
    def default_answer(self, request: Any) -> Any:
        """Scenario policy: scripted answers first, else the first legal option."""
        if isinstance(request, rt.ChooseOption):
            return 0
        if isinstance(request, rt.Choose):
            while self.script:
                wanted = self.script.pop(0)
                if request.mode == "one" and _offers(request, wanted):
                    return wanted
                if request.mode != "one" and isinstance(wanted, list):
                    return wanted
            if request.mode == "one":
                return request.options[0] if request.options else None
            n = request.n if request.n is not None else len(request.options)
            return list(request.options[: n if request.mode != "any" else 0])
        return None

    def scenario_answer(self, request: Any) -> Any:
        """default_answer for a scenario, where a scripted answer the choice does not
        offer fails the scenario at its `perform` line instead of being passed over."""
        if isinstance(request, rt.Choose) and request.mode == "one" and self.script:
            wanted = self.script[0]
            if not _offers(request, wanted):
                offered = ", ".join(str(self.describe(o)) for o in request.options[:6]) or "nothing"
                raise rt.ExpectationFailed(
                    f"{self.describe(wanted)} is not an option for '{request.label}' "
                    f"(the choice at line {request.line} offers {offered})", self.script_line)
        return self.default_answer(request)

    def _all_answers_used(self) -> None:
        """A scripted answer no choice asked for is a mistake in the scenario: say so."""
        if self.script:
            unused = ", ".join(str(self.describe(v)) for v in self.script)
            raise rt.ExpectationFailed(f"no choice was left to take {unused}", self.script_line)

    def _scenario_failed(self, scenario: ir.ScenarioDecl, message: str) -> ScenarioResult:
        """A scenario stopped by an error in the rules it set off: reported at the scenario
        statement that was running, naming the rules line it reached."""
        if self.last_line != self.scenario_line and f"line {self.last_line}" not in message:
            message += f" (the rules were at line {self.last_line})"
        return ScenarioResult(scenario.name, False, message, scenario.span.file, self.scenario_line, len(self.log))

    # ---------------------------------------------------------------- statements that move time
    # (engine/scenario_flow.py overrides them; the natives `perform`, `P passes`,
    # `everyone passes`, `run stage` and `end the turn` call them)
    def perform_scripted(self, action: str, by: Any, choosing: list[Any], expect_illegal: bool,
                         line: int) -> Iterator[Any]:
        """`perform` outside a scenario: the played flow takes actions, not the rules."""
        raise rt.RulesError("'perform' and 'expect illegal' are scenario statements")

    def pass_by(self, player: Any, line: int) -> None:
        raise rt.RulesError("'... passes' is a scenario statement")

    def everyone_passes(self, line: int) -> None:
        raise rt.RulesError("'everyone passes' is a scenario statement")

    def run_stage_choosing(self, stage: Any, answers: Any, line: int) -> None:
        raise rt.RulesError("'run stage' is a scenario statement")

    def advance_turn(self) -> Iterator[Any]:
        """`end the turn` outside a played flow (a scenario overrides this; engine/scenario_flow.py)."""
        return iter(())
