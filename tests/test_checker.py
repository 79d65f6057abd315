"""Semantic checks: every diagnostic code the checker can produce, with its hint."""

from __future__ import annotations

from pathlib import Path

from conftest import MINI_CARDS, MINI_RULES, write_game

from cardsmith.compiler.api import check_game
from cardsmith.dsl.diagnostics import Diagnostic, Severity


def run(tmp_path: Path, extra: str, rules: str = MINI_RULES, cards: str = MINI_CARDS) -> list[Diagnostic]:
    folder = write_game(tmp_path / "g", {"rules.cards": rules, "cards.cards": cards, "extra.cards": extra})
    return check_game(str(folder)).diagnostics


def errors(diags: list[Diagnostic]) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in diags if d.severity is Severity.ERROR]


def only_error(diags: list[Diagnostic]) -> Diagnostic:
    errs = [d for d in diags if d.severity is Severity.ERROR]
    assert len(errs) == 1, [(d.code, d.message) for d in errs]
    return errs[0]


def test_the_mini_game_is_clean(mini_game: Path) -> None:
    result = check_game(str(mini_game))
    assert result.ok, errors(result.diagnostics)
    assert result.game is not None and len(result.game.cards) == 2


def test_unknown_keyword_with_did_you_mean(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, 'card "X" { type: Unit; faction: Red; attack: 1; keywords: Chrage }'))
    assert d.code == "CS0501" and d.hint == "did you mean 'Charge'?"
    assert d.span.file.endswith("extra.cards") and d.span.line == 1


def test_keyword_arity(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, 'card "X" { type: Unit; faction: Red; attack: 1; keywords: Ranged }'))
    assert d.code == "CS0502" and "takes 1 argument" in d.message and d.hint == "write Ranged N"


def test_missing_stat_unknown_property_and_bad_enum_value_all_reported(tmp_path: Path) -> None:
    diags = run(tmp_path, 'card "X" { type: Unit; faction: Rde; attak: 2 }')
    got = errors(diags)
    assert [c for c, _ in got] == ["CS0402", "CS0202", "CS0203"]
    hints = {d.code: d.hint for d in diags if d.severity is Severity.ERROR}
    assert hints["CS0202"] == "did you mean 'Red'?" and hints["CS0203"] == "did you mean 'attack'?"


def test_unknown_card_type(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, 'card "X" { type: Unti; attack: 1 }'))
    assert d.code == "CS0202" and d.hint == "did you mean 'Unit'?"


def test_duplicate_card_names_are_case_insensitive(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, 'card "KNIGHT" { type: Unit; faction: Red; attack: 1 }'))
    assert d.code == "CS0201" and "first declared at" in (d.hint or "")


def test_unknown_phrase_and_near_miss(tmp_path: Path) -> None:
    extra = 'card "X" { type: Unit; faction: Red; attack: 1\n  effect { drw 2 } }'
    d = only_error(run(tmp_path, extra))
    assert d.code == "CS0601" and d.hint == "did you mean 'draw'?"


def test_phrase_that_starts_right_but_does_not_fit(tmp_path: Path) -> None:
    extra = 'card "X" { type: Unit; faction: Red; attack: 1\n  effect { deal 2 to self } }'
    d = only_error(run(tmp_path, extra))
    assert d.code == "CS0601" and "deal {amount} damage to {target}" in (d.hint or "")


def test_ambiguous_phrase(tmp_path: Path) -> None:
    extra = ('procedure boost(n: number) "boost {n}" { say "a" }\n'
             'procedure boost2(n: number) "boost {n}" { say "b" }\n'
             'card "X" { type: Unit; faction: Red; attack: 1\n  effect { boost 2 } }')
    d = only_error(run(tmp_path, extra))
    assert d.code == "CS0603"


def test_type_mismatch_in_phrase_argument(tmp_path: Path) -> None:
    extra = 'card "X" { type: Unit; faction: Red; attack: 1\n  effect { deal "lots" damage to self } }'
    d = only_error(run(tmp_path, extra))
    assert d.code == "CS0301" and "expects a number" in d.message


def test_unknown_field_on_a_card(tmp_path: Path) -> None:
    extra = 'card "X" { type: Unit; faction: Red; attack: 1\n  effect { increase self.damge by 1 } }'
    d = only_error(run(tmp_path, extra))
    assert d.code == "CS0202" and d.hint == "did you mean 'damage'?"


def test_unknown_query_noun_and_quality(tmp_path: Path) -> None:
    extra = ('card "X" { type: Unit; faction: Red; attack: 1\n'
             '  effect { for each u in all exausted unts in battlefield { say "x" } } }')
    got = errors(run(tmp_path, extra))
    assert [c for c, _ in got] == ["CS0202", "CS0202"]


def test_enum_values_must_agree(tmp_path: Path) -> None:
    got = errors(run(tmp_path, 'enum Size { small { w: 1 }\n big { h: 2 } }'))
    assert got == [("CS0304", "'Size.small' does not give h"), ("CS0304", "'Size.big' does not give w")]


def test_unsatisfiable_deck_rule(tmp_path: Path) -> None:
    rules = MINI_RULES.replace("section Deck { size: 2.. }", "section Deck { size: 40.. }").replace(
        "allow: card.faction in sides or card.faction == Mercenary", "allow: card.faction != Mercenary")
    d = only_error(run(tmp_path, "", rules=rules))
    assert d.code == "CS0801" and "at least 40" in d.message and "at most 8" in d.message


def test_empty_range_is_an_error(tmp_path: Path) -> None:
    rules = MINI_RULES.replace("section Deck { size: 2.. }", "section Deck { size: 9..3 }")
    d = only_error(run(tmp_path, "", rules=rules))
    assert d.code == "CS0301" and "empty" in d.message


def test_unused_definitions_are_warnings_not_errors(tmp_path: Path) -> None:
    diags = run(tmp_path, 'procedure never_called(n: number) "ponder {n}" { say "hm" }')
    assert not errors(diags)
    unused = [d for d in diags if d.code == "CS0901"]
    assert any("never_called" in d.message for d in unused)


def test_misplaced_and_unknown_top_level_entries(tmp_path: Path) -> None:
    got = errors(run(tmp_path, "cost: 3\ncrad \"X\" { }\n"))
    assert [c for c, _ in got] == ["CS0205", "CS0205"]


def test_errors_from_many_files_in_one_run(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {
        "rules.cards": MINI_RULES, "a.cards": 'card "A" { type: Unit; faction: Red }',
        "b.cards": 'card "B" { type: Unit; faction: Blu; attack: 1 }', "c.cards": "oops {",
    })
    files = sorted({d.span.file.rsplit("/", 1)[-1] for d in check_game(str(folder)).errors})
    assert files == ["a.cards", "b.cards", "c.cards"]


def test_missing_game_declaration(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {"cards.cards": 'enum X { a }'})
    d = only_error(check_game(str(folder)).diagnostics)
    assert d.code == "CS0204" and "no game declaration" in d.message


def test_constructs_added_for_the_library_games(tmp_path: Path) -> None:
    extra = '''
board field {
  size: 5 x 5
  region gate { cells: [0, 0] .. [1, 0]; hp: 55 }
}
zone grid shared { board: field }
scenario "new constructs" {
  setup {
    let k = create("Knight", battlefield, player1)
  }
  let best = if k.attack > 2 then k.attack else 2
  let rich = each opponent where it.gold > 0
  choose spot from cells(gate) where it.x == 0 and in_region(it, gate) by player1
  let total = best
      + gate.hp
      - spot.y
  expect total >= 2 and size(grid) == 0
  expect illegal play_unit by player2 choosing k
}
'''
    rules = MINI_RULES.replace("stage main { actions: play_unit }", "stage main { actions: play_unit, activate, pass }")
    diags = run(tmp_path, extra, rules=rules)
    assert not errors(diags)


def test_new_constructs_are_checked_too(tmp_path: Path) -> None:
    extra = '''
scenario "bad" {
  let rich = each opponent in battlefield where it.gol > 0
  expect illegal play_unt by player2
}
'''
    got = errors(run(tmp_path, extra))
    assert [c for c, _ in got] == ["CS0301", "CS0202", "CS0202"], got


def test_one_turn_block_per_game(tmp_path: Path) -> None:
    d = only_error(run(tmp_path, "turn {\n  stage other { say \"x\" }\n}"))
    assert d.code == "CS0201" and "second 'turn'" in d.message


def test_a_reserved_word_used_as_a_name_says_so(tmp_path: Path) -> None:
    extra = ('card "X" { type: Unit; faction: Red; attack: 1\n'
             '  effect {\n    let a = 2\n    deal 1 damage to a\n  }\n}')
    got = errors(run(tmp_path, extra))
    assert got == [("CS0601", "'a' is a reserved word and cannot name a value here")]


def test_a_value_is_spelled_yes_or_no_and_true_or_false_say_which(tmp_path: Path) -> None:
    """yes/no is the one spelling of a value as of a flag: `true`/`false` in a param, a
    condition (the fast reader's ground) or a phrase argument are CS0301 at the word, whose
    message names the word meant."""
    assert errors(run(tmp_path / "ok", 'param p: bool = yes\ncheck "c" { if p and not no { draw 1 } }')) == []
    hint = "yes/no is the one way to write a flag or a value"
    cases = [
        ("param p = true", "write yes, not true in param 'p'", (1, 11, 15)),
        ("param p: bool = true", "write yes, not true in param 'p'", (1, 17, 21)),  # one error, not two
        ('check "c" {\n  if 1 == 1 and false { draw 1 }\n}', "write no, not false in 'if'", (2, 17, 22)),
        ('check "c" {\n  draw 1\n  deal_damage(true, self)\n}', "write yes, not true", (3, 15, 19)),
    ]
    for i, (extra, message, (line, column, end)) in enumerate(cases):
        d = only_error(run(tmp_path / str(i), extra))
        assert (d.code, d.message, d.hint) == ("CS0301", message, hint)
        assert d.span.file.endswith("extra.cards") and (d.span.line, d.span.column, d.span.end_column) == (
            line, column, end)


def test_a_type_mismatch_names_the_type_expected(tmp_path: Path) -> None:
    """The expectation names the type the designer must write, never "anything" (which
    the checker allows only so that an unknown value passes)."""
    cases = {
        'card "X" { type: Unit; faction: Red; attack: "high" }': "'attack' must be a number, found text",
        'check "c" { if 1 or yes { say "x" } }': "each side of 'or' must be yes/no, found a number",
        'check "c" { repeat "twice" times { say "x" } }': "a repeat count must be a number, found text",
        'check "c" { if not 3 { say "x" } }': "the operand of 'not' must be yes/no, found a number",
    }
    for i, (extra, message) in enumerate(cases.items()):
        got = errors(run(tmp_path / str(i), extra))
        assert ("CS0301", message) in got, got


def test_a_card_name_argument_must_be_a_name(tmp_path: Path) -> None:
    """`create every copy of every card in ZONE` passed check and failed at play time
    ("there is no card named []"): a card name parameter takes text, not cards."""
    extra = ('card "X" { type: Unit; faction: Red; attack: 1\n  effect {\n    let cs = every card in hand of you\n'
             '    create every copy of cs in discard of you\n  }\n}')
    d = only_error(run(tmp_path, extra))
    assert d.code == "CS0301" and "expects a card name" in d.message and d.message.endswith("found cards")
    assert 'catalog("TYPE")' in (d.hint or "")


def test_a_flag_is_spelled_yes_or_no_and_other_spellings_say_which(tmp_path: Path) -> None:
    """One spelling of a flag (docs/language.md, "Flags"): `true`, `on`, `Yes` are errors
    located at the value, whose hint is the word meant."""
    assert errors(run(tmp_path / "ok", "zone pile shared {\n  ordered: yes\n}")) == []
    for written, meant in (("true", "yes"), ("on", "yes"), ("Yes", "yes"), ("off", "no"), ("false", "no")):
        d = only_error(run(tmp_path / written, f"zone pile shared {{\n  ordered: {written}\n}}"))
        assert (d.code, d.message) == ("CS0301", f"'ordered' is written yes or no, not '{written}'")
        assert d.hint == f"write ordered: {meant}"
        assert d.span.file.endswith("extra.cards") and (d.span.line, d.span.column) == (2, 12)
    d = only_error(run(tmp_path / "bad", "zone pile shared {\n  ordered: maybe\n}"))
    assert (d.code, d.message) == ("CS0301", "'ordered' must be yes or no")
