"""Seeded logs are byte-identical across refactors (issues 13 and 18).

The architecture and speed work reshape the engine; behaviour may change only on
purpose. Each library game is played from fixed seeds by fixed agents, and the SHA-256
of its log — every line `cardsmith play --log` would write — is compared with the
digest recorded in tests/reference/seeded_logs.json. A change that alters any event,
card id, description or roll fails here, naming the game, seed and agents.

When a change is *meant* to alter play, regenerate the record and say why in the commit:
    .venv/bin/python tests/test_seeded_logs.py --update [GAME ...]
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from cardsmith.app import load
from cardsmith.engine.agents import make_agent, play_out
from cardsmith.engine.replay import log_lines

RECORD = Path(__file__).parent / "reference" / "seeded_logs.json"
GAMES = ["combat_cards", "construct_and_combat", "kingdom_cards", "kingdom_combat", "two_kingdoms"]
# (agents, seed, most actions): random play from two seeds, and one greedy match
RUNS = [("random", 1, 600), ("random", 2, 600), ("greedy", 3, 120)]


def digest(game_id: str, kind: str, seed: int, most: int) -> str:
    game = load(game_id)
    match = game.new_match(seed=seed)
    agents = [make_agent(kind, seed * 1000 + i) for i in range(len(match.players))]
    applied = play_out(match, agents, max_actions=most)
    text = "\n".join(log_lines(match, applied)) + "\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def key(game_id: str, kind: str, seed: int, most: int) -> str:
    return f"{game_id} {kind} seed {seed} ({most} actions)"


@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_logs_are_unchanged(game_id: str) -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    for kind, seed, most in RUNS:
        name = key(game_id, kind, seed, most)
        assert digest(game_id, kind, seed, most) == recorded[name], (
            f"{name}: the log differs from the recorded one. If the change is meant to alter play, "
            f"run `.venv/bin/python tests/test_seeded_logs.py --update` and say why in the commit")


if __name__ == "__main__" and sys.argv[1:2] == ["--update"]:
    # `--update [GAME ...]`: only the games named (all when none is), so a change meant to
    # alter one game cannot quietly re-record another's
    chosen = sys.argv[2:] or GAMES
    record = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    record.update({key(g, k, s, m): digest(g, k, s, m) for g in chosen for k, s, m in RUNS})
    RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(chosen) * len(RUNS)} digests of {', '.join(chosen)} to {RECORD}")
