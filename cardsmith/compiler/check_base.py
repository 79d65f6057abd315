"""The state one check of a game shares across its parts.

Each part of the checker (expressions, statements, values, cards, rules,
printables) is a mixin over this base: the game and its symbols, the sink that
collects diagnostics, what has been used so far (for the unused report) and the
bookkeeping of expression depth. Keeping it in one place lets every part read it
without knowing about the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from cardsmith.compiler.check_types import Scope
from cardsmith.compiler.symbols import Symbols
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.source import Span


class CheckerBase:
    """The shared state, and the three things every part does: report, mark used, scope."""

    def __init__(self, game: ir.Game, sink: DiagnosticSink, core_file: str,
                 broken: Iterable[str] = ()) -> None:
        self.game = game
        self.in_scenario_body = False  # scenario statements (SCENARIO_STATEMENTS) are allowed
        self.sink = sink
        self.sym = Symbols.build(game)
        self.core_file = core_file
        # names whose declaration failed to build (already reported there): their uses
        # stay quiet rather than each saying "unknown ..., did you mean <something else>?"
        self.broken = frozenset(broken)
        self.used: set[tuple[str, str]] = set()
        # params whose value depends on itself (set by check_params), and folded constants
        self.cyclic: set[str] = set()
        self._constants: dict[str, Fraction | None] = {}
        self._depth = 0  # how deep infer() is in the expression being checked
        self._too_deep_reported = False
        self._outermost: ir.Expr | None = None

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.sink.error(span, code, message, hint)

    def use(self, kind: str, name: str) -> None:
        self.used.add((kind, name))

    def base_scope(self) -> Scope:
        return {}
