"""`simulate` plays `variety` unless told otherwise: random play over kinds of move ends the
matches of a game where one action offers hundreds of ways (Kingdom Combat), where plain
`random` never presses an attack home; and where every option is a kind of its own (Combat
Cards: no action windows) the two agents play the same matches move for move."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def simulate(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args, "--rules", "none", "--json"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_the_default_agent_ends_matches_that_random_play_never_ends() -> None:
    default = simulate("kingdom_combat", "-n", "2", "--max-actions", "5000")
    assert set(default["agents"]) == {"variety"}
    assert default["ended"] == default["matches"] == 4 and default["outcomes"]["capped"] == 0
    random = simulate("kingdom_combat", "-n", "1", "--max-actions", "5000", "--agents", "random")
    assert set(random["agents"]) == {"random"}
    assert random["outcomes"]["capped"] == random["matches"] == 2  # still wandering at 5,000 actions


def test_without_action_windows_variety_and_random_play_the_same_matches() -> None:
    default = simulate("combat_cards", "-n", "12")
    random = simulate("combat_cards", "-n", "12", "--agents", "random")
    assert set(default["agents"]) == {"variety"} and set(random["agents"]) == {"random"}
    default.pop("agents")
    random.pop("agents")
    assert default == random
