"""Every conformance test is also a differential legality test: each legal-move
computation runs both the compiled legality predicate (compiler/legality.py), where the
action has one, and probing (engine/moves.py), and a difference fails the test
(moves.LegalityMismatch) — so every tiny game of the suite checks the predicates."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardsmith.engine.moves import MoveFinder


@pytest.fixture(autouse=True)
def legality_crosscheck(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(MoveFinder, "crosscheck", True)
    yield
