"""Shared helpers of the conformance suite, and its registry of proven constructs.

Every module `tests/conformance/test_*.py` writes tiny games (a few lines of .cards),
drives a played match through `new_match` → `legal_actions` → `apply`, and tags each test
with `@covers(...)`: the constructs of docs/language.md whose documented effect the test
asserts. `test_enumeration.py` walks the IR (cardsmith/dsl/ir.py) and the core prelude and
fails on any construct that no test covers — so a construct cannot land without proof
that it runs — and on any registration naming a construct that does not exist.

Construct names:
- "ClassName.field"        an IR node field, e.g. "Choose.hidden", "StageDecl.skip";
- "ClassName.field=value"  one value of a Literal-typed field that selects behaviour,
                           e.g. "ActionDecl.speed=stack", "ChooseCount.mode=up_to";
- "prelude:NAME"           a procedure, function or event of cardsmith/prelude/core.cards.

Import as `from conformance.support import build, covers, take, ...` (tests/ is on
sys.path through pytest's rootdir insertion, and tests/conformance is a package).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from conftest import write_game

from cardsmith.compiler.api import check_game
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.moves import Action, ActionWindow

F = TypeVar("F", bound=Callable[..., Any])

# construct name -> the qualified names of the tests that prove it
REGISTRY: dict[str, set[str]] = defaultdict(set)


def covers(*constructs: str) -> Callable[[F], F]:
    """Record that the decorated test proves each construct's documented effect."""
    assert constructs, "covers() needs at least one construct"

    def mark(test: F) -> F:
        where = f"{test.__module__}.{test.__qualname__}"
        for name in constructs:
            REGISTRY[name].add(where)
        return test

    return mark


# ---------------------------------------------------------------- building games


# CS0903 (a keyword with reminder text only, that no rule reads): the fixture games print
# such keywords on purpose, and the cases read them from outside the game (probes).
IGNORED = {"CS0903"}


def _reported(folder: Path) -> tuple[Any, list[Any]]:
    result = check_game(str(folder))
    return result.game, [d for d in result.diagnostics if d.code not in IGNORED]


def build(tmp_path: Path, name: str, rules: str, extra: dict[str, str] | None = None) -> CompiledGame:
    """Compile a game from `rules` (rules.cards) plus optional other files; it must check
    clean (no errors and no warnings), so a case never passes on a half-rejected game."""
    folder = write_game(tmp_path / name, {"rules.cards": rules, **(extra or {})})
    game, reported = _reported(folder)
    assert game is not None and not reported, [f"{d.message} ({getattr(d, 'span', '')})" for d in reported]
    return CompiledGame(game)


def build_folder(tmp_path: Path, name: str, rules: str, extra: dict[str, str] | None = None) -> Path:
    """Write the game and check it clean; return its folder (for printables, decks,
    scenarios: back ends that take a folder or a checked game)."""
    folder = write_game(tmp_path / name, {"rules.cards": rules, **(extra or {})})
    game, reported = _reported(folder)
    assert game is not None and not reported, [d.message for d in reported]
    return folder


def diagnostics(tmp_path: Path, name: str, rules: str, extra: dict[str, str] | None = None) -> list[str]:
    """The checker's messages for a game (for cases that show a construct is rejected)."""
    folder = write_game(tmp_path / name, {"rules.cards": rules, **(extra or {})})
    return [d.message for d in _reported(folder)[1]]


# ---------------------------------------------------------------- driving a match


def offered(match: PlayedMatch) -> list[tuple[int, str]]:
    """The pending decision as (seat, description) pairs."""
    return [(a.player, a.description) for a in match.legal_actions()]


def descriptions(match: PlayedMatch) -> list[str]:
    """The pending decision's descriptions only."""
    return [a.description for a in match.legal_actions()]


def seat_of(match: PlayedMatch) -> int:
    """The 0-based seat the pending decision belongs to."""
    actions = match.legal_actions()
    assert actions, "no decision is pending"
    seats = {a.player for a in actions}
    assert len(seats) == 1, seats
    return seats.pop()


def take(match: PlayedMatch, description: str, player: int | None = None) -> Action:
    """Apply the pending action with this description (and seat, when given)."""
    for action in match.legal_actions():
        if action.description == description and (player is None or action.player == player):
            match.apply(action)
            return action
    raise AssertionError(f"{description!r} is not offered: {offered(match)}")


def take_first(match: PlayedMatch, prefix: str, player: int | None = None) -> Action:
    """Apply the first pending action whose description starts with `prefix`."""
    for action in match.legal_actions():
        if action.description.startswith(prefix) and (player is None or action.player == player):
            match.apply(action)
            return action
    raise AssertionError(f"nothing starting {prefix!r} is offered: {offered(match)}")


def pass_until(match: PlayedMatch, done: Callable[[PlayedMatch], bool], limit: int = 200) -> None:
    """Take `pass` (or the only offered action) until `done` holds; fail after `limit` steps."""
    for _ in range(limit):
        if done(match) or match.is_over:
            return
        actions = match.legal_actions()
        assert actions, "no decision is pending"
        chosen = next((a for a in actions if a.description == "pass"), actions[0] if len(actions) == 1 else None)
        assert chosen is not None, f"more than one choice and no pass: {offered(match)}"
        match.apply(chosen)
    raise AssertionError(f"not done after {limit} steps")


def play_until_over(match: PlayedMatch, limit: int = 500) -> None:
    """Always take the first legal action until the game ends (deterministic)."""
    for _ in range(limit):
        if match.is_over:
            return
        actions = match.legal_actions()
        assert actions, "no decision is pending in an unfinished match"
        match.apply(actions[0])
    raise AssertionError(f"the game did not end in {limit} steps")


def events(match: PlayedMatch, kind: str) -> list[dict[str, Any]]:
    """The log entries of one kind ("action", "resolve", "counter", "emit", ...)."""
    return [e for e in match.log if e["event"] == kind]


def emitted(match: PlayedMatch, name: str) -> list[list[Any]]:
    """The arguments of each emission of the named event, in order."""
    return [e["args"] for e in match.log if e["event"] == "emit" and e["name"] == name]


def turn_order(match: PlayedMatch) -> list[str]:
    """The players whose turns started, in order."""
    return [args[0] for args in emitted(match, "turn_started")]


def counter(match: PlayedMatch, seat: int, name: str) -> Any:
    """A per-player counter's value."""
    return match.players[seat].counters[name]


def stage_of(match: PlayedMatch) -> str | None:
    """The stage whose window is asking (None: a choice inside an effect, or nothing)."""
    pending = match.pending
    return pending.stage.name if isinstance(pending, ActionWindow) else None


def panel(shown: str, title: str) -> list[str]:
    """The lines of the table's panel titled `title` (a zone, the stack) on a screen."""
    lines = shown.splitlines()
    for i, line in enumerate(lines):
        start = line.find(f"╭─ {title} ─")
        if start < 0:
            continue
        end = line.index("╮", start)
        body = []
        for below in lines[i + 1:]:
            cell = below[start:end + 1]
            if cell.startswith("╰"):
                return body
            body.append(cell.strip("│ "))
    raise AssertionError(f"no panel {title!r} on the screen:\n{shown}")


def screen(match: PlayedMatch) -> str:
    """What `cardsmith play --human` shows the player holding the pending decision (the
    terminal table, engine/table.py, without colour), without taking any move: where
    display names must appear."""
    import io

    from rich.console import Console

    from cardsmith.engine.agents import ask
    from cardsmith.engine.table import TablePlayer

    shown: list[str] = []

    def show(renderable: Any) -> None:
        out = io.StringIO()
        Console(file=out, width=200, no_color=True).print(renderable)
        shown.append(out.getvalue())
    ask(TablePlayer(show, lambda _prompt: "0", match.game), match, match.legal_actions())
    return "\n".join(shown)
