"""A move nothing can hear (no rule, card or keyword reacts to `left` or `entered`, no
dead-rule tally counting) is made at once by natives._move_quietly instead of by a
generator the rules run: the same moves, in the same order, with the same log entries.
The library's games play the same seeded matches either way, log for log."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import random_logs

from cardsmith.app import load


def _logs(name: str, quiet: bool) -> list[str]:
    game: Any = load(name, fresh=True)
    if not quiet:
        game.hears_moves = True  # every move through the generator, as before
    return random_logs(game, range(1, 5), 300)


@pytest.mark.parametrize("name", ["combat_cards", "kingdom_cards"])
def test_quiet_moves_play_as_heard_ones(name: str) -> None:
    assert not load(name).hears_moves
    assert _logs(name, quiet=True) == _logs(name, quiet=False)
