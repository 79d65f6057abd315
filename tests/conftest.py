"""Shared test fixtures.

Slow soak tests are marked `@pytest.mark.slow` and run only with `--runslow`; CI runs a
bounded version of each through the normal suite.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardsmith.engine.agents import ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "library"
GAMES = ["kingdom_combat", "combat_cards", "kingdom_cards", "construct_and_combat", "two_kingdoms"]


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """After each test module, what is still alive is frozen out of the collector's sight:
    a long session's heap (compiled games, studio apps, matches kept by fixtures) otherwise
    makes every later full collection walk it all — the suite's late, allocation-heavy
    match tests ran about four times slower than on their own. Cyclic garbage among frozen objects is
    never freed; a test session can afford that."""
    following = item.nextitem
    if following is None or following.module is not item.module:
        gc.collect()
        gc.freeze()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run slow soak tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow soak test: use --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test gets its own result cache, so no test sees another's entries."""
    old = os.environ.get("CARDSMITH_CACHE_DIR")
    os.environ["CARDSMITH_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("CARDSMITH_CACHE_DIR", None)
        else:
            os.environ["CARDSMITH_CACHE_DIR"] = old


def decide(player: Any, match: PlayedMatch, actions: list[Action]) -> Action:
    """The move of `player`: a test script (a `script` method) reads the live match on
    purpose; a real agent is asked through its seat's view (`ask`), as play_out does."""
    script = getattr(player, "script", None)
    return script(match, actions) if script is not None else ask(player, match, actions)


def play_scripted(match: PlayedMatch, players: list[Any], max_actions: int = 20_000,
                  on_move: Callable[[PlayedMatch, Action], None] | None = None) -> int:
    """play_out, for tests that steer a match into a position: a player with a `script`
    method is a test script, handed the live match on purpose (it reads what no seat could,
    to set a scene up); any other is a real agent, asked through its seat's view (`ask`).
    Returns the number of actions applied."""
    applied = 0
    while not match.is_over and applied < max_actions:
        actions = match.legal_actions()
        if not actions:
            break
        chosen = decide(players[actions[0].player % len(players)], match, actions)
        if on_move is not None:
            on_move(match, chosen)
        match.apply(chosen)
        applied += 1
    return applied


def write_game(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def compiled_rules(folder: Path, rules: str) -> Any:
    """A one-file game written into `folder`, checked (no error allowed) and compiled."""
    from cardsmith.compiler.api import check_game
    from cardsmith.engine.game import CompiledGame

    result = check_game(str(write_game(folder, {"rules.cards": rules})))
    errors = [d.message for d in result.diagnostics if d.severity == "error"]
    assert result.game is not None and not errors, errors
    return CompiledGame(result.game)


def random_played(game: Any, seed: int, max_actions: int) -> tuple[list[dict[str, Any]], str | None]:
    """A two-seat match of `game` between seeded random agents: its log and error. The
    compiler's play-alike tests compare these with a specialisation on and off."""
    from cardsmith.engine.agents import RandomAgent, play_out

    match = PlayedMatch(game, seed=seed, players=2)
    play_out(match, [RandomAgent(seed * 10), RandomAgent(seed * 10 + 1)], max_actions=max_actions)
    return match.log, match.error


def random_logs(game: Any, seeds: range, max_actions: int) -> list[str]:
    """random_played's logs of several seeds, each as its JSON text."""
    import json

    return [json.dumps(random_played(game, seed, max_actions)[0], sort_keys=True, default=str) for seed in seeds]


def function_source(game: Any, name: str) -> str:
    """One generated function of a compiled game (`def NAME(` to the blank lines after it)."""
    source: str = game.source[game.source.index(f"def {name}("):]
    return source[:source.index("\n\n\n")]


MINI_RULES = '''
game "Mini" {
  id: mini
  players: 2
}
enum Faction { Red; Blue; Mercenary }
enum Border {
  gold { copies: 1; colour: "#C9A227" }
  black { copies: 4; colour: "#111111" }
}
counter gold per player { start: 0; min: 0; reset: start of turn }
counter damage per card { start: 0; min: 0 }
status exhausted
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone discard per player { ordered }
zone battlefield shared
event damaged(card: card, amount: number)
cardtype Unit {
  stats { cost: number = 0; attack: number; hp: number = 1 }
  properties { faction: Faction; border: Border = black }
  enters: battlefield
}
keyword Charge {
  reminder: "Strikes first."
}
keyword Ranged(n: number) {
  reminder: "Deals {n} damage at range."
}
procedure draw(n: number = 1) "draw {n}" "draw a card" {
  repeat n times { move top of your deck to your hand }
}
procedure deal_damage(amount: number, target: card) "deal {amount} damage to {target}" {
  increase target.damage by amount
  emit damaged(target, amount)
}
setup {
  for each p in players { shuffle deck of p }
}
turn {
  stage main { actions: play_unit }
}
action play_unit "Play a unit" {
  choose c from a unit in your hand where it.cost <= gold
  cost { pay c.cost gold }
  move c to battlefield
  set c.exhausted to yes
}
deck {
  section Deck { size: 2.. }
  copies: card.border.copies
  let sides = if count(deck.Deck) > 0 then values(deck.Deck, faction) else none
  allow: card.faction in sides or card.faction == Mercenary
}
'''

MINI_CARDS = '''
card "Knight" {
  type: Unit
  faction: Red
  attack: 3
  keywords: Charge
  effect {
    deal 2 damage to target unit in battlefield
    draw 1
  }
}
card "Archer" {
  type: Unit
  faction: Blue
  attack: 1
  keywords: Ranged 2
  on damaged(c, n) where c == self { gain 1 gold }
}
'''


@pytest.fixture
def mini_game(tmp_path: Path) -> Path:
    return write_game(tmp_path / "mini", {"rules.cards": MINI_RULES, "cards.cards": MINI_CARDS})
