"""The engine's legal moves equal a hand-written generator's, window by window (issue 18).

benchmarks/kc_oracle.py computes Kingdom Combat's legal moves in plain Python that knows
the game's rules; the engine finds them by probing the compiled rules. At every action
window an agent is asked about in two seeded random matches, both must offer the same
moves with the same descriptions, in the same order. One match plays the library's ready
decks; the other deals every card of the game to three seats, so that the cards the
ready decks leave out (Bone Crossbow granting Ranged, Dire Wolf, Goblin Sneak, ...) are
met too. (benchmarks/bench_legality.py runs the same comparison over many more
positions, and times both.)
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from cardsmith.app import decks_for, load
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import ActionWindow

ORACLE = Path(__file__).resolve().parents[1] / "benchmarks" / "kc_oracle.py"


def _oracle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kc_oracle", ORACLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compare(match: PlayedMatch, positions: int) -> tuple[list[str], Counter[str]]:
    """Play `match` with random agents until `positions` action windows were compared;
    the mismatches, and how often each kind of move was offered."""
    oracle = _oracle()
    agents = [RandomAgent(match.seed * 10 + i) for i in range(len(match.players))]
    mismatches: list[str] = []
    offered: Counter[str] = Counter()
    compared = 0
    while not match.is_over and compared < positions:
        actions = match.legal_actions()
        if isinstance(match.pending, ActionWindow):
            compared += 1
            engine = [a.description for a in actions]
            moves = [m.description for m in oracle.legal_moves(match)]
            if engine != moves:
                mismatches.append(f"turn {match.turn_number} {match.stage_name} {match.pending.player.name}: "
                                  f"engine {engine} / oracle {moves}")
            offered.update(d.split(": ")[0] if ": " in d else d for d in engine)
        match.apply(ask(agents[actions[0].player % len(agents)], match, actions))
    assert compared == positions, f"the match ended after {compared} windows"
    return mismatches, offered


def test_oracle_agrees_with_the_engine_on_the_ready_decks() -> None:
    game = load("kingdom_combat")
    match = PlayedMatch(game, seed=1, players=2, decks=decks_for(game, 2, None))
    mismatches, offered = _compare(match, 100)
    assert mismatches == []
    # the windows compared held real choices: units hired, units moved, abilities used
    assert offered["Hire a unit"] and offered["Move a unit to the Battlefield"]
    assert offered["Castle Valoria"] or offered["The Bone Citadel"]


def test_oracle_agrees_with_the_engine_with_every_card_dealt() -> None:
    game = load("kingdom_combat")
    every: list[Any] = [c.name for c in game.ir.cards
                        if c.type != "Fortress" and c.name not in ("Militia Levy", "Risen Skeleton", "Goblin Rabble")]
    fortresses = ["Castle Valoria", "The Bone Citadel", "Castle Valoria"]
    match = PlayedMatch(game, seed=3, players=3, decks=[[fortress, *every] for fortress in fortresses])
    mismatches, offered = _compare(match, 150)
    assert mismatches == []
    assert offered["Equip a unit"] and offered["Attach an Ability"] and offered["Play a Dirty Trick"]
