"""The errors a rule can raise at play time.

Apart from values.py and runtime.py, which raise them most, so that those modules hold
only plain classes and functions: they may then be compiled (benchmarks/bench_compiled.py
builds them with mypyc), which cannot compile a class deriving from two built-in
exceptions or from AssertionError.
"""

from __future__ import annotations


class RulesError(Exception):
    """A rule did something impossible at play time; names the .cards line."""


class OperationError(RulesError, ArithmeticError):
    """An operator or builtin given values it does not apply to, or a division by zero.

    `kind` is "type" (the values' kinds do not fit the operation), "zero" (a division
    by zero), "large" (a result beyond values.MAX_NUMBER) or "limit" (more dice or listed
    numbers than values.py's limits allow). "large" and "limit" are never a reason to
    leave a move out of the legal actions: probing reports them (engine/moves.py, `_try`).
    It is an ArithmeticError too, so every caller of the static evaluator that already
    reports an arithmetic failure as "cannot evaluate" (deck tools, printables) reports
    this one the same way.
    """

    def __init__(self, message: str, kind: str = "type") -> None:
        super().__init__(message)
        self.kind = kind


class ExpectationFailed(AssertionError):
    """A scenario's `expect` (or a step it asked for) did not hold, at `line`."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line
