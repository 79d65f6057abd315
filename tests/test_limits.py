"""No one line of rules can hang or crash cardsmith (issue 17, "Crashes and hangs").

Each quantity that costs work in proportion to its size is bounded (cardsmith/model/values.py,
docs/language.md section 6 "Limits"): dice, range listing, number magnitude, copies and
decklist size. Where the value is written in the rules, `check` reports CS0301 at its
place; where it is computed, the played match stops with a rules error naming the .cards
line — never a Python exception, never a hang. The last test fuzzes one-line rules with
huge numbers through check and a few played steps.
"""

from __future__ import annotations

import shutil
import signal
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from conftest import LIBRARY, write_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsmith.compiler.api import check_game
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.model import values

GAME = '''
game "Limits" {
  id: limits
  players: 2
  first_player: seat1
}
counter score per player { start: 0 }
zone deck per player { ordered; visibility: hidden }
zone pile shared
cardtype Token {
  stats { power: number = 1 }
}
card "Pebble" {
  type: Token
  copies: COPIES
}
setup {
  SETUP
}
action go "Go" {
  ACTION
}
turn {
  stage main { actions: go }
}
'''
# line numbers in GAME: setup's statement is line 18, the action's first is line 21
SETUP_LINE, ACTION_LINE = 18, 21


def game_text(action: str = "gain 1 score", setup: str = "gain 0 score", copies: int = 1) -> str:
    return GAME.replace("COPIES", str(copies)).replace("SETUP", setup).replace("ACTION", action)


def diagnostics(tmp_path: Path, text: str) -> list[tuple[str, str, int, str | None]]:
    folder = write_game(tmp_path / "g", {"rules.cards": text})
    result = check_game(str(folder))
    return [(d.code, d.message, d.span.line, d.hint) for d in result.diagnostics if d.severity == "error"]


def compiled(tmp_path: Path, text: str) -> CompiledGame:
    folder = write_game(tmp_path / "g", {"rules.cards": text})
    result = check_game(str(folder))
    errors = [d.message for d in result.diagnostics if d.severity == "error"]
    assert result.game is not None and not errors, errors
    return CompiledGame(result.game)


def take_go(match: PlayedMatch) -> None:
    """Take the action `Go` (the rule under test) once."""
    go = [a for a in match.legal_actions() if a.description == "Go"]
    assert go, [a.description for a in match.legal_actions()]
    match.apply(go[0])


class TooSlow(Exception):
    pass


@contextmanager
def time_guard(seconds: float) -> Iterator[None]:
    """Fail instead of hanging: a hang before the fix ends as TooSlow after `seconds`."""
    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise TooSlow(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------- 1. dice


@pytest.mark.parametrize("dice", ["999999999999999d6", "1001d6", "d1000001", "2d999999999999999"])
def test_a_dice_literal_beyond_the_limits_is_a_located_check_error(tmp_path: Path, dice: str) -> None:
    with time_guard(10):
        found = diagnostics(tmp_path, game_text(action=f"gain roll {dice} score"))
    assert [(code, line) for code, _m, line, _h in found] == [("CS0301", ACTION_LINE)]
    _code, message, _line, hint = found[0]
    assert "too many dice or sides" in message and hint is not None and "1,000 dice" in hint


def test_the_largest_roll_allowed_is_quick(tmp_path: Path) -> None:
    match = compiled(tmp_path, game_text(action="gain roll 1000d1000000 score")).new_match(seed=3)
    with time_guard(5):
        take_go(match)
    assert match.error is None
    assert 1000 <= match.players[0].counters["score"] <= 1000 * 1_000_000


def test_computed_sides_beyond_the_limit_stop_the_match_at_the_roll(tmp_path: Path) -> None:
    rule = "let sides = 999999999999999\n  gain roll sides score"
    match = compiled(tmp_path, game_text(action=rule)).new_match(seed=1)
    with time_guard(10):
        take_go(match)
    assert match.is_over and match.error is not None
    assert "cannot roll 1d999999999999999" in match.error and match.error.endswith(f"(line {ACTION_LINE + 1})")


def test_dice_beyond_the_limits_are_a_rules_error_not_a_python_exception() -> None:
    with pytest.raises(values.RulesError, match="at most 1,000 dice"):
        values.Dice(100_000_000, 6)
    assert values.Dice(values.MAX_DICE, values.MAX_SIDES).count == 1000


# ---------------------------------------------------------------- 2. ranges and numbers


def test_for_each_over_a_huge_range_is_a_rules_error_naming_the_line(tmp_path: Path) -> None:
    match = compiled(tmp_path, game_text(action="for each x in 1..999999999999999 { gain 1 score }")).new_match()
    with time_guard(10):
        take_go(match)
    assert match.error is not None and "999,999,999,999,999 numbers" in match.error
    assert match.error.endswith(f"(line {ACTION_LINE})")


def test_choose_from_a_huge_range_is_a_rules_error_naming_the_line(tmp_path: Path) -> None:
    text = game_text(setup="choose x from 1..999999999999999\n  gain x score")
    with time_guard(10):
        match = compiled(tmp_path, text).new_match()
        match.legal_actions()
    assert match.is_over and match.error is not None
    assert "at most 10,000 can be listed" in match.error and match.error.endswith(f"(line {SETUP_LINE})")


def test_a_huge_choice_inside_an_action_is_reported_not_silently_never_offered(tmp_path: Path) -> None:
    """Probing which moves are legal runs the action up to its payment: a limit it breaks
    there is a broken rule, so the match stops naming it (before, the move was simply
    never offered and nothing said why)."""
    text = game_text(action="choose x from 1..999999999999999\n  gain x score")
    with time_guard(10):
        match = compiled(tmp_path, text).new_match()
        match.legal_actions()
    assert match.is_over and match.error is not None
    assert "at most 10,000 can be listed" in match.error and match.error.endswith(f"(line {ACTION_LINE})")


def test_an_illegal_move_is_still_just_not_offered(tmp_path: Path) -> None:
    """Only limits are reported while probing: a move whose rule cannot run now (here a
    division by a score of 0) is left out as before."""
    match = PlayedMatch(compiled(tmp_path, game_text(action="condition: 1 / your score > 1\n  gain 1 score")),
                        stops=[0, 1])
    assert match.error is None and [a.description for a in match.legal_actions()] == ["pass"]


def test_a_range_of_ten_thousand_numbers_still_lists(tmp_path: Path) -> None:
    match = compiled(tmp_path, game_text(action="gain count(1..10000) score")).new_match()
    take_go(match)
    assert match.error is None and match.players[0].counters["score"] == 10_000
    with pytest.raises(values.OperationError, match="10,001 numbers"):
        list(values.Range(1, 10_001))
    assert 10**14 in values.Range(1, 999_999_999_999_999)  # membership lists nothing


def test_squaring_again_and_again_stops_with_number_too_large(tmp_path: Path) -> None:
    rule = "let x = 2\n  repeat 100 times { set x to x * x }\n  gain 1 score"
    match = compiled(tmp_path, game_text(action=rule)).new_match()
    with time_guard(10):
        take_go(match)
    assert match.error is not None and match.error.startswith("number too large")
    assert match.error.endswith(f"(line {ACTION_LINE + 1})")


def test_squaring_a_fraction_stops_with_fraction_too_fine(tmp_path: Path) -> None:
    rule = "let x = 1 / 3\n  repeat 100 times { set x to x * x }\n  gain 1 score"
    match = compiled(tmp_path, game_text(action=rule)).new_match()
    with time_guard(10):
        take_go(match)
    assert match.error is not None and match.error.startswith("fraction too fine")


def test_a_constant_product_beyond_the_limit_is_a_check_error(tmp_path: Path) -> None:
    found = diagnostics(tmp_path, game_text(action="gain 999999999999999 * 999999999999999 score"))
    assert [(c, m, line) for c, m, line, _h in found] == [("CS0301", "this number is too large", ACTION_LINE)]


def test_the_fast_path_bound_is_max_number() -> None:
    """add/sub/mul write MAX_NUMBER as a literal; both sides of it behave alike."""
    top = values.MAX_NUMBER
    assert values.add(top - 1, 1) == top and values.sub(-top + 1, 1) == -top and values.mul(top, 1) == top
    for op, a, b in ((values.add, top, 1), (values.sub, -top, 1), (values.mul, top, 2)):
        with pytest.raises(values.OperationError, match="number too large"):
            op(a, b)
    with pytest.raises(values.OperationError, match="number too large"):
        values.add(values.Fraction(1, 2), top)


# ---------------------------------------------------------------- 3. copies and decks


def test_copies_beyond_the_limit_are_an_error_at_the_copies_line(tmp_path: Path) -> None:
    for copies in (10_000_000, 999_999_999_999_999):
        found = diagnostics(tmp_path, game_text(copies=copies))
        assert [(c, line) for c, _m, line, _h in found] == [("CS0301", 15)], found
        assert "copies is too many" in found[0][1] and "at most 1,000 copies" in str(found[0][3])


def test_create_every_copy_at_the_limit_is_quick(tmp_path: Path) -> None:
    text = game_text(copies=values.MAX_COPIES, action='create every copy of "Pebble" in pile')
    match = compiled(tmp_path, text).new_match()
    with time_guard(10):
        take_go(match)
    assert match.error is None and len(match.zone("pile", None).cards) == values.MAX_COPIES


def test_a_decklist_too_large_is_a_clean_error(tmp_path: Path) -> None:
    game = compiled(tmp_path, game_text())
    with time_guard(10):
        match = game.new_match(decks=[["Pebble"] * 2_000_000, ["Pebble"]])
        match.legal_actions()
    assert match.is_over and match.error is not None and "2,000,000 cards is too large" in match.error
    fine = game.new_match(decks=[["Pebble"] * 3, ["Pebble"]])
    assert fine.error is None and len(fine.zone("deck", fine.players[0]).cards) == 3


# ---------------------------------------------------------------- 4. a typo on a deck's head card


def test_a_typo_on_a_fortress_card_is_a_located_did_you_mean(tmp_path: Path) -> None:
    folder = tmp_path / "kc"
    shutil.copytree(LIBRARY / "kingdom_combat", folder)
    cards = folder / "cards" / "grimhold.cards"
    text = cards.read_text(encoding="utf-8")
    head = text.index("type: Fortress")
    cards.write_text(text[:head] + text[head:].replace("faction: Grimhold", "faction: Grimhld", 1), encoding="utf-8")
    line = cards.read_text(encoding="utf-8").splitlines().index("  faction: Grimhld") + 1
    found = check_game(str(folder)).diagnostics  # raised NotStatic before the fix
    assert [(d.code, d.span.line, d.span.column, d.hint) for d in found] == [
        ("CS0202", line, 12, "did you mean 'Grimhold'?")]
    assert found[0].span.file.endswith("grimhold.cards")


# ---------------------------------------------------------------- 5. fuzz


HUGE = st.one_of(st.integers(0, 20), st.sampled_from([999, 1000, 1001, 10_000, 10_001, 1_000_000, 1_000_001]),
                 st.integers(0, 999_999_999_999_999))
TEMPLATES = [
    "gain roll {a}d{b} score", "gain roll d{a} score", "let s = {a}\n  gain roll s score",
    "for each x in {a}..{b} {{ gain 1 score }}", "gain count({a}..{b}) score", "gain sum({a}..{b}) score",
    "let x = {a}\n  repeat {c} times {{ set x to x * x }}", "gain {a} * {b} score", "gain {a} + {b} score",
    "gain {a} // ({b} + 1) score", "let x = {a} / ({b} + 1)\n  repeat {c} times {{ set x to x * x }}",
    "repeat {a} times {{ gain {b} score }}", "gain max(1..{a}) score", "gain -{a} - {b} score",
    "if {a} in 1..{b} {{ gain 1 score }}", "increase your score by {a}\n  increase your score by {b}",
]
TRIED: list[str] = []
OUTCOMES: Counter[str] = Counter()  # "check error", "rules error", "played": what the fuzz reached


@settings(max_examples=200, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(template=st.sampled_from(TEMPLATES), a=HUGE, b=HUGE, c=st.integers(0, 200),
       where=st.sampled_from(["action", "setup"]))
def test_fuzz_one_line_rules_with_huge_numbers(tmp_path: Path, template: str, a: int, b: int, c: int,
                                                where: str) -> None:
    rule = template.format(a=a, b=b, c=c)
    TRIED.append(rule)
    text = game_text(action=rule) if where == "action" else game_text(setup=rule)
    start = time.perf_counter()
    with time_guard(8):
        folder = write_game(tmp_path / f"f{len(TRIED)}", {"rules.cards": text})
        result = check_game(str(folder))  # only located diagnostics, never an exception
        for d in result.diagnostics:
            assert d.span is not None and d.span.line >= 1 and d.code.startswith("CS"), d
        if result.game is None or any(d.severity == "error" for d in result.diagnostics):
            OUTCOMES["check error"] += 1
            return
        match = CompiledGame(result.game).new_match(seed=a % 97)
        for _ in range(4):  # a few steps: the rule under test runs (RulesError ends the match cleanly)
            if match.is_over:
                break
            actions = match.legal_actions()
            chosen = next((x for x in actions if x.description == "Go"), actions[0])
            match.apply(chosen)
    assert time.perf_counter() - start < 8
    OUTCOMES["played" if match.error is None else "rules error"] += 1
    if match.error is not None:
        assert "(line " in match.error and "Traceback" not in match.error


def test_the_fuzz_tried_many_distinct_rules() -> None:
    """Runs after the fuzz target in file order: it tried every template's kind of rule."""
    if not TRIED:
        pytest.skip("run with the fuzz target")
    assert len(TRIED) >= 150 and len(set(TRIED)) >= 100
    assert min(OUTCOMES["check error"], OUTCOMES["rules error"], OUTCOMES["played"]) >= 10, OUTCOMES
    print(f"fuzz: {len(TRIED)} rules tried, {len(set(TRIED))} distinct, {dict(OUTCOMES)}")
