"""Hostile input the checker must refuse with a located diagnostic (never a traceback,
never "ok" for a game that would then fail to play or build)."""

from __future__ import annotations

from pathlib import Path

from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.compiler.api import check_game
from cardsmith.dsl.diagnostics import Diagnostic, Severity


def run(tmp_path: Path, extra: str = "", rules: str = MINI_RULES, cards: str = MINI_CARDS) -> list[Diagnostic]:
    folder = write_game(tmp_path / "g", {"rules.cards": rules, "cards.cards": cards, "extra.cards": extra})
    return check_game(str(folder)).diagnostics


def errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity is Severity.ERROR]


def only_error(diags: list[Diagnostic]) -> Diagnostic:
    errs = errors(diags)
    assert len(errs) == 1, [(d.code, d.message) for d in errs]
    return errs[0]


def at(d: Diagnostic, file: str, line: int, column: int) -> bool:
    return d.span.file.endswith(file) and (d.span.line, d.span.column) == (line, column)


# ---------------------------------------------------------------- 1. huge numbers

def test_a_number_of_5000_digits_is_too_large_not_a_crash(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, "counter health per player { start: " + "9" * 5000 + " }\n"
                                 "function hp(p: player) = p.health\n"))
    assert "this number is too large" in d.message and d.hint and "15 digits" in d.hint
    assert at(d, "extra.cards", 1, 36)


def test_too_large_numbers_everywhere_are_located(tmp_path: Path) -> None:
    big = "1" + "0" * 20
    extra = (f"param big: number = {big}\n"
             f"card \"X\" {{ type: Unit; faction: Red; attack: 1; keywords: Ranged {big}; copies: {big} }}\n"
             f"function f() = {big}.5 + 2d{big}\n"
             "function g() = big\n")
    errs = errors(run(tmp_path, extra))
    assert errs and all("too large" in d.message for d in errs)
    assert {d.span.line for d in errs} == {1, 2, 3}
    assert not any("unknown name" in d.message for d in errs)  # the param is still declared


# ---------------------------------------------------------------- 2. params defined by themselves

def test_a_param_defined_by_itself_is_an_error_at_the_param(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, "param limit: number = limit + 1\nfunction f() = limit\n"))
    assert "param 'limit' is defined in terms of itself" in d.message
    assert at(d, "extra.cards", 1, 23)


def test_params_in_a_cycle_through_a_function_are_each_reported(tmp_path: Path) -> None:
    rules = MINI_RULES.replace("section Deck { size: 2.. }", "section Deck { size: xx.. }")
    diags = run(tmp_path, "param xx: number = yy\nparam yy: number = f()\nfunction f() = xx + 1\n", rules=rules)
    errs = errors(diags)
    assert sorted(d.message for d in errs) == ["param 'xx' is defined in terms of itself",
                                               "param 'yy' is defined in terms of itself"]
    assert "function f" in (errs[0].hint or "")


def test_a_function_parameter_named_like_a_param_is_no_cycle(tmp_path: Path) -> None:
    diags = run(tmp_path, "param limit: number = twice(3)\nfunction twice(limit: number) = limit * 2\n")
    assert not errors(diags)


# ---------------------------------------------------------------- 3. duplicate parameters

def test_duplicate_function_parameter_is_reported_at_the_second(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, "function pick(owner: player, owner: number) = owner\n"
                                 "function use() = pick(you, 1)\n"))
    assert d.code == "CS0201" and d.message == "duplicate parameter 'owner'"
    assert at(d, "extra.cards", 1, 30)


def test_duplicate_parameters_of_procedures_keywords_and_events(tmp_path: Path) -> None:
    extra = ('procedure heal(n: number, n: number) "heal {n}" { gain n gold }\n'
             'keyword Twice(n: number, n: number) { reminder: "Twice {n}." }\n'
             "event hit(c: card, c: card)\n")
    errs = errors(run(tmp_path, extra))
    assert [(d.message, d.span.line) for d in errs] == [
        ("duplicate parameter 'n'", 1), ("duplicate parameter 'n'", 2), ("duplicate parameter 'c'", 3)]


# ---------------------------------------------------------------- 4. values out of range

def test_players_zero_negative_and_huge_are_refused(tmp_path: Path) -> None:
    for written in ("0", "-2", "99999999999999", "4..2", "0..3"):
        rules = MINI_RULES.replace("  players: 2\n", f"  players: {written}\n", 1)
        d = only_error(run(tmp_path / written.replace(".", "_"), rules=rules))
        assert d.message == f"a game is played by 1 to 16 players, not {written}"
        assert at(d, "rules.cards", 4, 12)


def test_mode_players_are_checked_too(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, 'param p: number = 1\nmode big "Big" { players: 40; p: 2 }\n'))
    assert "1 to 16 players, not 40" in d.message and at(d, "extra.cards", 2, 27)


def test_counter_min_above_max_and_start_outside(tmp_path: Path) -> None:
    extra = ("counter a per player { start: 5; min: 3; max: 1 }\n"
             "counter b per player { start: 9; min: 0; max: 4 }\n"
             "counter c per player { min: 2 }\n"
             "function f(p: player) = p.a + p.b + p.c\n")
    errs = errors(run(tmp_path, extra))
    assert [(d.message, d.span.line, d.span.column) for d in errs] == [
        ("counter 'a' has max 1 below its min 3", 1, 47),
        ("counter 'b' starts at 9, outside its bounds 0..4", 2, 31),
        ("counter 'c' starts at 0 (the default), outside its bounds 2..", 3, 1),
    ]


def test_a_card_giving_a_property_twice(tmp_path: Path) -> None:
    cards = MINI_CARDS.replace("  faction: Red\n", "  faction: Red\n  faction: Blue\n", 1)
    d = only_error(run(tmp_path, cards=cards))
    assert d.code == "CS0201" and d.message == "card 'Knight' gives 'faction' twice"
    assert at(d, "cards.cards", 5, 3)


def test_keywords_may_be_given_on_several_lines(tmp_path: Path) -> None:
    cards = MINI_CARDS.replace("  keywords: Charge\n", "  keywords: Charge\n  keywords: Ranged 1\n", 1)
    assert not errors(run(tmp_path, cards=cards))


LAYOUT = '''
layout unit {
  size: SIZE
  region name { x: 4mm; y: 4mm; w: 45mm; h: 7mm; text: card.name; font: FONT }
}
'''


def layout_rules(size: str = "poker", font: str = "bold 10pt") -> str:
    rules = MINI_RULES.replace("  enters: battlefield\n", "  enters: battlefield\n  layout: unit\n", 1)
    return rules + LAYOUT.replace("SIZE", size).replace("FONT", font)


def test_an_unknown_layout_size(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, rules=layout_rules(size="nope")))
    assert d.message == "unknown card size 'nope'" and "poker" in (d.hint or "")
    assert not errors(run(tmp_path / "ok", rules=layout_rules(size='"63mmx88mm"')))


def test_font_sizes_zero_negative_and_absurd(tmp_path: Path) -> None:
    cases = {"bold 0pt": "a font size must be more than 0pt, not 0pt",
             "bold -10pt": "a font size cannot be negative",
             "bold 99999pt": "a font size of 99999pt is too large",
             "bold 10mm": "a font size is given in pt, not mm",
             "bold 10": "a font size needs its unit"}
    for i, (font, message) in enumerate(cases.items()):
        rules = layout_rules(font=font)
        d = only_error(run(tmp_path / str(i), rules=rules))
        assert d.message == message and d.hint
        line = next(n for n, text in enumerate(rules.splitlines(), 1) if "region name" in text)
        column = rules.splitlines()[line - 1].index(font) + len("bold ") + 1
        assert (d.span.line, d.span.column) == (line, column)
    assert not errors(run(tmp_path / "ok", rules=layout_rules(font="italic 200pt")))


def test_a_param_dividing_by_zero(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, "param zero: number = 0\nparam q: number = (1 + 2) // zero\n"
                                 "function f() = q\n"))
    assert d.message == "this divides by zero" and at(d, "extra.cards", 2, 30)


def test_a_param_of_the_wrong_type(tmp_path: Path) -> None:
    extra = ('param n: number = "six"\nparam b: bool = 3\nparam u = "anything"\n'
             'mode m "M" { n: yes }\nfunction f() = n\nfunction g() = b\nfunction h() = u\n')
    errs = errors(run(tmp_path, extra))
    assert [(d.message, d.span.line) for d in errs] == [
        ("param 'n' is text, but it is declared number", 1),
        ("param 'b' is a number, but it is declared bool", 2),
        ("mode 'm' sets 'n' to yes/no, but it is declared number", 4),
    ]


def test_let_may_rebind_a_name_in_a_scenario(tmp_path: Path) -> None:
    # docs/language.md: `let x = expr` binds a name for the rest of the block; binding
    # it again is how loops work, so a second `let` of one name is not an error.
    scenario = ('scenario "s" {\n  players: 2\n  setup {\n'
                '    let k = create("Knight", battlefield, player1)\n'
                '    let k = create("Archer", battlefield, player1)\n  }\n'
                '  expect k.attack == 1 "the second binding wins"\n}\n')
    assert not errors(run(tmp_path, scenario))


# ---------------------------------------------------------------- 5. an empty file

def test_an_empty_file_is_reported_at_its_own_first_line(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {"empty.cards": ""})
    d = only_error(check_game(str(folder / "empty.cards")).diagnostics)
    assert d.code == "CS0204" and "no game declaration" in d.message
    assert at(d, "empty.cards", 1, 1)


# ---------------------------------------------------------------- 6. reminder placeholders

def test_reminder_with_unknown_and_broken_placeholders(tmp_path: Path) -> None:
    extra = 'keyword Hurt(whom: player, n: number) {\n  reminder: "Hurt ({nope}) {n {"\n}\n'
    errs = errors(run(tmp_path, extra))
    assert [(d.code, d.message) for d in errs] == [
        ("CS0202", "reminder of 'Hurt' names '{nope}', which is not a parameter"),
        ("CS0301", "reminder of 'Hurt' has a stray '{' or '}'"),
    ]
    assert all(at(d, "extra.cards", 2, 13) for d in errs)
    assert errs[0].hint == "its parameters are {whom}, {n}"


# ---------------------------------------------------------------- scenarios

def test_a_scenario_with_a_player_count_or_mode_the_game_does_not_have_is_refused(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, 'scenario "crowd" {\n  players: 7\n  expect 1 == 1\n}\n'))
    assert "has 7 players; the game is played by 2" in d.message and at(d, "extra.cards", 1, 1)
    d = only_error(run(tmp_path, 'scenario "odd" {\n  mode: nope\n  expect 1 == 1\n}\n'))
    assert "unknown mode 'nope'" in d.message
    assert errors(run(tmp_path, 'scenario "fine" {\n  players: 2\n  expect 1 == 1\n}\n')) == []


def test_an_expression_nested_thousands_deep_is_a_located_error(tmp_path: Path) -> None:
    """It used to exhaust Python's stack in the checker: 'nested too deeply', no location."""
    d = only_error(run(tmp_path, "function total() = " + "+".join(["1"] * 5000) + "\n"))
    assert "nested more than 200 levels deep" in d.message and at(d, "extra.cards", 1, 20)
    d = only_error(run(tmp_path, "function never() = " + "not " * 3000 + "yes\n"))
    assert "nested more than 200 levels deep" in d.message and at(d, "extra.cards", 1, 20)  # at the first `not`
    assert errors(run(tmp_path, "function fine() = " + "+".join(["1"] * 150) + "\n")) == []


def test_a_card_created_in_setup_without_an_owner_is_warned_about(tmp_path: Path) -> None:
    rules = MINI_RULES.replace("setup {\n", 'setup {\n  let stray = create("Knight", battlefield)\n'
                                            '  let kept = create("Knight", battlefield, none)\n')
    diags = run(tmp_path, rules=rules)
    warned = [d for d in diags if d.code == "CS0902"]
    assert len(warned) == 1 and warned[0].severity is Severity.WARNING and "first player" in warned[0].message
    assert errors(diags) == []
