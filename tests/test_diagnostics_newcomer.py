"""Diagnostics found by a new designer (issue 12): what `check` accepts, `play` runs.

Each test writes a tiny game the way a newcomer would and asserts either that it checks
clean and plays (through new_match / legal_actions / apply), or that `check` reports one
located diagnostic — file, line, column, a hint — at the declaration that is wrong:

1. a zone named `deck`, shared or per player;
2. a name that reads as a die (`let d2 = 3`), or that a built-in hides (`zone players`);
3. one failed declaration, not one "unknown function" per use;
4. a word that cannot be hyphenated to fit its card box: a warning, never a silent
   mid-word break.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_game
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardsmith.app import DecksNotDealt, decks_for
from cardsmith.compiler.api import CheckResult, check_game, load_game_ir
from cardsmith.dsl.diagnostics import Diagnostic, Severity, render
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.printables.build import render as render_printables
from cardsmith.printables.fonts import REGULAR, width
from cardsmith.printables.imposition import Options
from cardsmith.printables.textfit import HYPHEN, break_points, fit, wrap_words

# ---------------------------------------------------------------- helpers


def checked(tmp_path: Path, name: str, files: dict[str, str]) -> CheckResult:
    return check_game(str(write_game(tmp_path / name, files)))


def clean(tmp_path: Path, name: str, files: dict[str, str]) -> CompiledGame:
    """Check a game that must have no diagnostic at all, and compile it."""
    result = checked(tmp_path, name, files)
    assert result.game is not None and not result.diagnostics, [render(d, result.sources)
                                                                for d in result.diagnostics]
    return CompiledGame(result.game)


def only_error(result: CheckResult) -> Diagnostic:
    """The one diagnostic of a result, which must be an error with a hint."""
    shown = [render(d, result.sources) for d in result.diagnostics]
    assert len(result.diagnostics) == 1, shown
    d = result.diagnostics[0]
    assert d.severity is Severity.ERROR and d.hint, shown
    return d


def at(d: Diagnostic, line: int, column: int, width_: int | None = None) -> None:
    """The diagnostic points at this line and column (and underlines that many characters)."""
    assert (d.span.line, d.span.column) == (line, column), d
    if width_ is not None:
        assert (d.span.end_line, d.span.end_column - d.span.column) == (line, width_), d


def line_col(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in `text`."""
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def take(match: PlayedMatch, description: str) -> None:
    for action in match.legal_actions():
        if action.description == description:
            match.apply(action)
            return
    raise AssertionError(f"{description!r} is not offered: {[a.description for a in match.legal_actions()]}")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "cardsmith.cli", *args], capture_output=True, text=True,
                          env=env, timeout=120)


# ---------------------------------------------------------------- 1. a zone named `deck`

SHARED_DECK = '''
game "Shared Deck" {
  id: shared_deck
  players: 2
  first_player: seat1
}
counter points per player { start: 0 }
cardtype Coin { stats { value: number = 1 } }
zone deck shared { ordered; visibility: hidden }
zone hand per player { visibility: owner }
card "Penny" { type: Coin }
setup {
  repeat 6 times { let c = create("Penny", deck, none) }
  shuffle deck
  for each p in players { move top of deck to hand of p }
}
turn { stage main { actions: draw_one } }
action draw_one "Draw" {
  condition: size(deck) > 0
  move top of deck to your hand
  increase you.points by 1
  if size(deck) == 0 { end the game }
}
'''


def test_a_shared_zone_named_deck_is_used_and_plays(tmp_path: Path) -> None:
    """It was "zone 'deck' is never used" plus a type error at each use ("found the deck"):
    `deck` was a built-in of the deck rules, visible everywhere."""
    game = clean(tmp_path, "shared", {"rules.cards": SHARED_DECK})
    match = game.new_match(seed=5)
    deck = match.zone("deck", None)
    assert len(deck.cards) == 4  # six made, one dealt to each player
    assert [len(match.zone("hand", p).cards) for p in match.players] == [1, 1]
    draws = 0
    while not match.over:
        take(match, "Draw")
        draws += 1
        assert len(deck.cards) == 4 - draws
    assert draws == 4
    assert sum(p.counters["points"] for p in match.players) == 4
    assert sum(len(match.zone("hand", p).cards) for p in match.players) == 6


PER_PLAYER_DECK = '''
game "Own Decks" {
  id: own_decks
  players: 2
  first_player: seat1
}
counter points per player { start: 0 }
cardtype Coin { stats { value: number = 1 } }
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
card "Penny" { type: Coin }
setup {
  for each p in players {
    repeat 3 times { let c = create("Penny", deck of p, p) }
    shuffle deck of p
  }
}
turn { stage main { actions: draw_one } }
action draw_one "Draw" {
  condition: size(deck) > 0
  move top of deck to your hand
  increase you.points by 1
  if size(your deck) == 0 and size(deck of opponent) == 0 { end the game }
}
'''


def test_a_per_player_zone_named_deck_reads_bare_and_by_owner(tmp_path: Path) -> None:
    """Bare `deck` is the acting player's own deck, as for any per-player zone."""
    game = clean(tmp_path, "own", {"rules.cards": PER_PLAYER_DECK})
    match = game.new_match(seed=2)
    first, second = match.players
    take(match, "Draw")
    assert (len(match.zone("deck", first).cards), len(match.zone("hand", first).cards)) == (2, 1)
    assert len(match.zone("deck", second).cards) == 3
    while not match.over:
        take(match, "Draw")
    assert [len(match.zone("hand", p).cards) for p in match.players] == [3, 3]
    assert match.error is None


DECK_RULES = '''
deck {
  section Deck { size: 2.. }
  require "two pennies at least": deck.size >= 2
}
'''


def test_deck_rules_still_mean_the_decklist_and_decklists_fill_the_zone(tmp_path: Path) -> None:
    rules = PER_PLAYER_DECK.replace('    repeat 3 times { let c = create("Penny", deck of p, p) }\n', "")
    folder = write_game(tmp_path / "listed", {"rules.cards": rules + DECK_RULES,
                                              "lists/three.deck": "Deck:\n3 Penny\n"})
    result = check_game(str(folder))
    assert result.game is not None and not result.diagnostics, result.diagnostics
    game = CompiledGame(result.game)
    deck_file = folder / "lists" / "three.deck"
    assert decks_for(game, 2, [deck_file, deck_file]) == [["Penny"] * 3] * 2
    match = game.new_match(seed=1, decks=decks_for(game, 2, [deck_file, deck_file]))
    assert [len(match.zone("deck", p).cards) for p in match.players] == [3, 3]
    assert all(c.owner is p for p in match.players for c in match.zone("deck", p).cards)


def test_ready_decks_come_from_the_games_own_folder(tmp_path: Path) -> None:
    """A game copied from the library keeps its id: it must deal its own ready decks (or
    none), never the library's (whose cards it may not have: "there is no card named ...")."""
    rules = PER_PLAYER_DECK.replace('    repeat 3 times { let c = create("Penny", deck of p, p) }\n', "") \
        .replace("id: own_decks", "id: kingdom_combat")
    bare = clean(tmp_path, "copy", {"rules.cards": rules + DECK_RULES})
    assert decks_for(bare, 2, None) is None
    match = bare.new_match(seed=1)
    assert [len(match.zone("deck", p).cards) for p in match.players] == [0, 0]  # nothing dealt
    assert "no card named" not in (match.error or "")
    ready = clean(tmp_path, "ready", {"rules.cards": rules + DECK_RULES, "decks/pennies.deck": "Deck:\n2 Penny\n"})
    assert decks_for(ready, 2, None) == [["Penny", "Penny"]] * 2


def test_decklists_for_a_game_without_deck_rules_are_refused_clearly(tmp_path: Path) -> None:
    """It was "internal error: GameNotReady ... this is a bug in cardsmith"."""
    folder = write_game(tmp_path / "norules", {"rules.cards": PER_PLAYER_DECK, "p.deck": "Deck:\n2 Penny\n"})
    proc = cli("play", str(folder), "--deck", str(folder / "p.deck"), "--deck", str(folder / "p.deck"))
    assert proc.returncode == 2, proc.stderr
    assert "error: Own Decks has no deck rules to check a decklist against" in proc.stderr
    assert "= hint: declare them in a `deck { }` block, or leave out --deck" in proc.stderr
    assert "internal error" not in proc.stderr
    with_ready = clean(tmp_path, "readyonly", {"rules.cards": PER_PLAYER_DECK, "decks/p.deck": "Deck:\n2 Penny\n"})
    with pytest.raises(DecksNotDealt, match="ready decks in decks/ but no deck rules"):
        decks_for(with_ready, 2, None)


@pytest.mark.parametrize(("declaration", "name", "builtin"), [
    ("zone players shared { visibility: public }", "players", "every player"),
    ("zone current shared { visibility: public }", "current", "a player"),
    ("counter seat per player { start: 0 }", "seat", "a player's seat"),
    ("counter round_number shared { start: 0 }", "round_number", "a number"),
    ("status owner", "owner", "a card's owner"),
])
def test_a_name_a_builtin_hides_is_refused_at_its_declaration(tmp_path: Path, declaration: str, name: str,
                                                                builtin: str) -> None:
    rules = SHARED_DECK.replace("zone hand per player", f"{declaration}\nzone hand per player")
    d = only_error(checked(tmp_path, "shadow", {"rules.cards": rules}))
    assert d.code == "CS0201" and f"'{name}' is named like the built-in '{name}' ({builtin})" in d.message
    line, column = line_col(rules, declaration)
    at(d, line, column + declaration.index(f" {name}") + 1, len(name))
    assert d.hint == "pick another name"


# ---------------------------------------------------------------- 2. names that read as dice

DICE_BASE = '''
game "Dice Names" {
  id: dice_names
  players: 2
  first_player: seat1
}
counter points per player { start: 0 }
cardtype Coin { stats { value: number = 1 } }
zone hand per player { visibility: owner }
card "Penny" { type: Coin }
event scored(amount: number)
setup { for each p in players { let c = create("Penny", hand of p, p) } }
turn { stage main { actions: score } }
action score "Score" {
  increase you.points by 1
  emit scored(1)
  if you.points >= 3 { you wins the game }
}
'''


@pytest.mark.parametrize(("declaration", "name", "where", "what"), [
    ("let d2 = 3\n  increase you.points by d2", "d2", "  increase you.points by 1\n", "variable"),
    ("param d6: number = 4", "d6", "counter points", "param"),
    ("function double(d4: number) = d4 * 2", "d4", "counter points", "parameter"),
    ("for each d3 in players { increase you.points by 0 }", "d3", "  increase you.points by 1\n", "loop variable"),
    ("choose d10 from a coin in your hand", "d10", "  increase you.points by 1\n", "chosen value"),
    ("counter d20 per player { start: 0 }", "d20", "counter points", "counter"),
    ("on scored(d12) { increase you.points by 0 }", "d12", "turn {", "event value"),
])
def test_a_name_that_reads_as_a_die_is_refused_where_it_is_declared(tmp_path: Path, declaration: str, name: str,
                                                                      where: str, what: str) -> None:
    """`let d2 = 3` passed check and then `d2 + d6` stopped the match ("cannot compute"):
    in an expression `d2` is always the die. Now the declaration is the one error."""
    rules = DICE_BASE.replace(where, f"{declaration}\n{where}" if not where.startswith("  ")
                              else f"  {declaration}\n{where}", 1)
    if "double(" in declaration:
        rules = rules.replace("by 1\n  emit", "by double(1)\n  emit")
    result = checked(tmp_path, "dice", {"rules.cards": rules})
    d = only_error(result)  # no "never used", no error at the uses
    assert d.code == "CS0201"
    assert d.message == f"{what} '{name}' reads as a die ({name[1:]} sides); pick another name"
    assert d.hint is not None and f"'roll {name}'" in d.hint and f"'{name}_value'" in d.hint
    line, column = line_col(rules, declaration)
    at(d, line, column + declaration.index(name), len(name))
    assert d.span.file.endswith("rules.cards")


def test_a_stat_that_reads_as_a_die_is_refused_and_play_never_starts(tmp_path: Path) -> None:
    rules = DICE_BASE.replace("stats { value: number = 1 }", "stats { value: number = 1; d8: number = 2 }")
    folder = write_game(tmp_path / "stat", {"rules.cards": rules})
    d = only_error(check_game(str(folder)))
    assert d.message == "card field 'd8' reads as a die (8 sides); pick another name"
    line, column = line_col(rules, "d8: number")
    at(d, line, column, 2)
    proc = cli("play", str(folder))
    assert proc.returncode == 1
    assert f"rules.cards:{line}:{column}: error[CS0201]" in proc.stderr
    assert '"error"' not in proc.stdout  # no match ran into a run-time surprise


def test_names_that_only_look_like_dice_are_ordinary_names(tmp_path: Path) -> None:
    rules = DICE_BASE.replace("counter points", "param d6_bonus: number = 2\ncounter points") \
        .replace("  increase you.points by 1\n", "  let die2 = 1\n  let D6 = 0\n  increase you.points by die2 + D6\n"
                 "  increase you.points by d6_bonus\n")
    game = clean(tmp_path, "lookalike", {"rules.cards": rules})
    match = game.new_match(seed=1)
    take(match, "Score")
    assert match.players[0].counters["points"] == 3  # 1 + 0 + 2: the variables, no die rolled
    assert match.over and match.error is None


# ---------------------------------------------------------------- 3. one failed declaration, one error

CASCADE = '''
game "Cascade" {
  id: cascade
  players: 2
  first_player: seat1
}
counter points per player { start: 0 }
cardtype Coin { stats { value: number = 1 } }
zone hand per player { visibility: owner }
card "Penny" { type: Coin; keywords: Shiny 1 }
card "Dime" { type: Coin; keywords: Shiny 2 }
keyword Shiny(n: number) { reminder: "shines {n}" }
event scored(amount: number)
function bonus(n: number) = n * 2
procedure score(n: number) "score {n}" "bank {n} points" {
  increase you.points by n
  emit scored(n)
}
on scored(amount) where amount > 5 { increase you.points by 0 }
turn { stage main { actions: play } }
action play "Play" {
  score bonus(1)
  bank 2 points
  score(bonus(2))
  increase you.points by bonus(you.points)
  if has_keyword(first(all coins in your hand), Shiny) { score 1 }
  if you.points >= 30 { you wins the game }
}
'''


@pytest.mark.parametrize(("broken", "fixed", "what"), [
    ("function bonus(n: number) = n * * 2", "function bonus(n: number) = n * 2", "function 'bonus'"),
    ('procedure score(n: number = ) "score {n}" "bank {n} points" {',
     'procedure score(n: number) "score {n}" "bank {n} points" {', "procedure 'score'"),
    ('keyword Shiny(n: number = ) { reminder: "shines {n}" }', 'keyword Shiny(n: number) { reminder: "shines {n}" }',
     "keyword 'Shiny'"),
    ("event scored(amount: number = )", "event scored(amount: number)", "event 'scored'"),
    ("counter points per player per { start: 0 }", "counter points per player { start: 0 }", "counter 'points'"),
])
def test_a_declaration_that_fails_to_parse_is_one_error_and_its_uses_stay_quiet(
        tmp_path: Path, broken: str, fixed: str, what: str) -> None:
    """It was one "unknown function 'bonus'" (or "unknown statement 'score'", "unknown
    keyword 'Shiny'") per use, each with a did-you-mean naming something unrelated."""
    clean(tmp_path, "whole", {"rules.cards": CASCADE})  # the game is clean when the line is right
    rules = CASCADE.replace(fixed, broken)
    assert rules != CASCADE
    d = only_error(checked(tmp_path, "cascade", {"rules.cards": rules}))
    assert d.code == "CS0101"
    line, _ = line_col(rules, broken)
    assert d.span.line == line and d.span.file.endswith("rules.cards")
    assert d.hint is not None and (f"{what} is left out until this is fixed" in d.hint or "expected" in d.hint)


def test_a_declaration_that_fails_to_check_is_reported_once(tmp_path: Path) -> None:
    rules = CASCADE.replace("function bonus(n: number) = n * 2", "function bonus(n: number) = n * \"two\"")
    result = checked(tmp_path, "typed", {"rules.cards": rules})
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("CS0301", line_col(rules, "function bonus")[0])]


def test_a_real_unknown_name_is_still_reported_beside_a_broken_one(tmp_path: Path) -> None:
    """Only the broken declaration's own name is quiet: a misspelt call still errors."""
    rules = CASCADE.replace("function bonus(n: number) = n * 2", "function bonus(n: number) = n * * 2") \
        .replace("increase you.points by bonus(you.points)", "increase you.points by bonsu(you.points)")
    result = checked(tmp_path, "both", {"rules.cards": rules})
    assert [d.code for d in result.diagnostics] == ["CS0101", "CS0202"]
    assert result.diagnostics[1].message == "unknown function 'bonsu'"


# ---------------------------------------------------------------- 4. words too wide for their box

LONG = "a" * 40  # no hyphenation point at all
REAL = "Pneumonoultramicroscopicsilicovolcanoconiosis"


def test_an_unhyphenatable_word_is_cut_with_a_hyphen_and_listed() -> None:
    fitted = fit(f"Gain {LONG} now.", REGULAR, 9.0, 40.0, 400.0)
    assert fitted.fits and fitted.unbreakable == (LONG,)
    pieces = [line for line in fitted.lines if line.startswith("a")]
    assert len(pieces) > 1 and all(p.endswith(HYPHEN) for p in pieces[:-1])
    assert "".join(p.removesuffix(HYPHEN) for p in pieces) == LONG


def test_a_long_word_is_hyphenated_at_legal_points_without_a_warning() -> None:
    fitted = fit(REAL, REGULAR, 9.0, 40.0, 400.0)
    assert fitted.fits and fitted.unbreakable == () and fitted.size == 9.0
    assert len(fitted.lines) > 1 and all(line.endswith(HYPHEN) for line in fitted.lines[:-1])
    legal = {i for i, hyphen in break_points(REAL) if hyphen}
    cut = 0
    for line in fitted.lines[:-1]:
        cut += len(line) - 1
        assert cut in legal
    assert "".join(line.removesuffix(HYPHEN) for line in fitted.lines) == REAL


def test_shrinking_is_preferred_to_an_arbitrary_cut() -> None:
    """A word that fits whole at a smaller size is printed whole, smaller."""
    word = "Bbbbbbbbbbbbbbb"
    at_nine = width(word, REGULAR, 9.0)
    fitted = fit(word, REGULAR, 9.0, at_nine * 0.8, 100.0)
    assert fitted.lines == (word,) and fitted.size < 9.0 and fitted.unbreakable == ()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=50), min_size=1,
                max_size=6), st.floats(min_value=8.0, max_value=120.0))
def test_wrapping_never_cuts_a_word_without_a_hyphen(words: list[str], box: float) -> None:
    """Every line fits the box (but a lone character), no character is lost, and every
    break inside a word ends its line with a hyphen — added, or the word's own."""
    text = " ".join(words)
    lines, _ = wrap_words(text, REGULAR, 9.0, box)
    for line in lines:
        assert width(line, REGULAR, 9.0) <= box + 1e-6 or len(line) <= 2, (line, box)
    # Read the lines back against the text. A final hyphen is either the word's own or one
    # the wrap added (both readings are followed); a line may end inside a word only with one.
    positions = {0}
    for line in lines:
        after: set[int] = set()
        for pos in positions:
            while pos < len(text) and text[pos] == " ":
                pos += 1
            readings = [line] + ([line[:-1]] if line.endswith(HYPHEN) else [])
            for reading in readings:
                if not text.startswith(reading, pos):
                    continue
                end = pos + len(reading)
                inside_a_word = 0 < end < len(text) and text[end] != " " and text[end - 1] != " "
                if not inside_a_word or line.endswith(HYPHEN):
                    after.add(end)
        assert after, (line, lines, text)
        positions = after
    assert len(text) in positions, (lines, text)


WORDS_RULES = '''
game "Words" {
  id: words
  players: 2
}
zone table shared { visibility: public }
cardtype Spell {
  stats { cost: number = 0 }
  enters: table
  layout: narrow
}
layout narrow {
  size: poker
  background: "#FFFFFF"
  region name { x: 4mm; y: 4mm; w: 55mm; h: 7mm; text: card.name; font: bold 10pt }
  region text { x: 4mm; y: 20mm; w: 14mm; h: 40mm; text: card.rules_text; font: 9pt }
}
'''
WORDS_CARDS = f'''card "Long Word" {{
  type: Spell
  text: "Gain {LONG} now."
}}
card "Real Word" {{
  type: Spell
  text: "{REAL} spreads."
}}
'''


def test_build_warns_at_the_word_and_prints_no_silent_mid_word_break(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "words", {"rules.cards": WORDS_RULES, "cards.cards": WORDS_CARDS})
    result = render_printables(load_game_ir(str(folder)), Options())
    assert result.ok
    warnings = [d for d in result.diagnostics if d.code == "CS2008"]
    assert len(warnings) == 1, result.diagnostics
    d = warnings[0]
    assert d.severity is Severity.WARNING
    assert d.message.startswith(f"card 'Long Word': the word '{LONG}' is wider than box 'text'")
    assert d.hint is not None and "widen region 'text' (14 mm)" in d.hint
    line, column = line_col(WORDS_CARDS, LONG)
    assert d.span.file.endswith("cards.cards")
    at(d, line, column, len(LONG))
    page = PdfReader(io.BytesIO(result.files["cards.pdf"])).pages[0].extract_text()
    long_lines = [x.strip() for x in page.splitlines() if x.strip().startswith("aaa")]
    assert len(long_lines) > 1 and all(x.endswith(HYPHEN) for x in long_lines[:-1])
    assert "".join(x.removesuffix(HYPHEN) for x in long_lines) == LONG
    real_lines = [x.strip() for x in page.splitlines() if x.strip() and x.strip()[0].islower() and
                  not x.strip().startswith("aaa") and x.strip() not in ("now.", "spreads.")]
    assert all(x.endswith(HYPHEN) for x in real_lines[:-1])
