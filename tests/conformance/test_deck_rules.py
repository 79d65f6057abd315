"""Conformance: the `deck { }` construction rules (docs/language.md §2 "deck", §6b),
through the decklist validator (`cardsmith deck check`), `deck show`'s summaries, and
the dealing of a checked decklist into a played match."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_game

from cardsmith.app import decks_for
from cardsmith.compiler.api import check_game
from cardsmith.decks.games import game_context
from cardsmith.decks.model import DeckReport
from cardsmith.decks.show import deck_summary
from cardsmith.decks.validate import check_decklist
from cardsmith.dsl import ir
from cardsmith.engine.game import CompiledGame
from conformance.support import covers, diagnostics

RULES = '''
game "Decks" {
  id: decks
  players: 2
  first_player: seat1
}
enum Side { Sun; Moon; Free }
enum Border {
  gold  { copies: 1 }
  black { copies: 3 }
  green { copies: 0 }
}
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
cardtype Hero {
  stats { purse: number = 3; hp: number = 10 }
  properties { faction: Side }
}
cardtype Unit {
  stats { cost: number = 1 }
  properties { faction: Side; border: Border = black }
}
card "Sun King" { type: Hero; faction: Sun; purse: 4; hp: 12 }
card "Moon Queen" { type: Hero; faction: Moon; purse: 2; hp: 9 }
card "Sun Guard" { type: Unit; faction: Sun; cost: 2 }
card "Sun Lord" { type: Unit; faction: Sun; border: gold; cost: 3 }
card "Moon Guard" { type: Unit; faction: Moon }
card "Sun Scout" { type: Unit; faction: Sun }
card "Sellsword" { type: Unit; faction: Free }
card "Freeloader" { type: Unit; faction: Free; cost: 0 }
card "Sprite" { type: Unit; faction: Free; border: green }
deck {
  section Heroes { types: Hero; count: 1..2; counts_toward_size: no }
  section Reserve { types: Unit; optional; within: Main }
  section Main { size: 4..6 }
  copies: card.border.copies
  let sides = if count(deck.Heroes) > 0 then values(deck.Heroes, faction) else none
  allow: card.faction in sides or card.faction == Free
  excluded: card.border == green
  require "reserve within the purse": sum(deck.Reserve, cost) <= sum(deck.Heroes, purse)
  forbid "no free reserve units": any(all units in deck.Reserve where it.cost == 0)
  summary "Hero" {
    purse: first(deck.Heroes).purse
    hp: last(deck.Heroes).hp
    main: deck.size
  }
}
setup {
  for each p in players {
    repeat 2 times { move top of deck of p to hand of p }
  }
}
action wait "Wait" { say "wait" }
turn {
  stage main { actions: wait }
}
'''

GOOD = """\
Heroes:
1 Sun King
Main:
3 Sun Guard
1 Sun Lord
1 Sellsword
Reserve:
1 Sun Guard
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> ir.Game:
    folder = write_game(tmp_path_factory.mktemp("decks") / "decks", {"rules.cards": RULES})
    result = check_game(str(folder))
    assert result.game is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    return result.game


def check(game: ir.Game, text: str) -> DeckReport:
    return check_decklist("test.deck", text, game)


def codes(report: DeckReport) -> list[str]:
    return [d.code for d in report.errors]


@covers("DeckRules.sections", "DeckSection.name", "DeckSection.types", "DeckSection.count",
        "DeckSection.counts_toward_size", "DeckSection.optional", "DeckSection.within")
def test_sections_group_lines_and_are_counted(game: ir.Game) -> None:
    report = check(game, GOOD)
    assert report.ok, [(d.code, d.message) for d in report.diagnostics]
    # the Heroes do not count toward the size; the Reserve names cards already in Main
    assert report.decklist.section("Main") and len(report.decklist.physical()) == 6
    assert "Sun Guard" in [c.name for c in report.decklist.section("Reserve")]
    # count: 1..2 heroes
    assert "CS1006" in codes(check(game, GOOD.replace("1 Sun King", "")))
    assert "CS1006" in codes(check(game, GOOD.replace("1 Sun King", "2 Sun King\n1 Moon Queen")))
    # types: Hero only in Heroes
    assert codes(check(game, GOOD.replace("Heroes:\n1 Sun King", "Heroes:\n1 Sun King\n1 Sellsword"))) == [
        "CS1005"]
    # optional: a deck without a Reserve is legal
    assert check(game, GOOD.replace("Reserve:\n1 Sun Guard\n", "")).ok
    # within: a Reserve card must be one the Main section holds
    assert codes(check(game, GOOD.replace("Reserve:\n1 Sun Guard", "Reserve:\n1 Sun Scout"))) == [
        "CS1012"]
    # an unknown section header
    assert "CS1004" in codes(check(game, GOOD.replace("Main:", "Mane:")))


@covers("DeckRules.size")
def test_the_main_sections_size_bounds_the_deck(game: ir.Game) -> None:
    small = GOOD.replace("3 Sun Guard", "1 Sun Guard").replace("Reserve:\n1 Sun Guard\n", "")
    report = check(game, small)
    assert codes(report) == ["CS1007"] and "holds 3 card(s); it must hold 4 to 6" in report.errors[0].message
    big = GOOD.replace("1 Sellsword", "3 Sellsword\n1 Moon Guard").replace("1 Moon Guard", "")
    assert codes(check(game, big)) == ["CS1007"]
    # the deck's own `size:` bounds it when the section gives none
    folder = write_game(Path(str(game.game.span.file)).parent.parent / "sized", {
        "rules.cards": RULES.replace("section Main { size: 4..6 }", "section Main { }\n  size: 5")})
    sized = check_game(str(folder)).game
    assert sized is not None
    assert check(sized, GOOD).ok and codes(check(sized, GOOD.replace("3 Sun Guard", "2 Sun Guard"))) == ["CS1007"]


@covers("DeckRules.copies")
def test_copies_limits_each_card(game: ir.Game) -> None:
    report = check(game, GOOD.replace("1 Sun Lord", "2 Sun Lord").replace("1 Sellsword", ""))
    assert codes(report) == ["CS1008"] and "at most 1" in report.errors[0].message
    assert codes(check(game, GOOD.replace("3 Sun Guard", "4 Sun Guard").replace("1 Sellsword", ""))) == ["CS1008"]


@covers("DeckRules.allow", "DeckRules.excluded")
def test_allow_reads_the_heroes_factions_and_excluded_cards_never_go_in(game: ir.Game) -> None:
    moon = check(game, GOOD.replace("1 Sellsword", "1 Moon Guard"))
    assert codes(moon) == ["CS1010"]
    both = GOOD.replace("1 Sun King", "1 Sun King\n1 Moon Queen").replace("1 Sellsword", "1 Moon Guard")
    assert check(game, both).ok, "a Moon hero allows Moon units"
    assert codes(check(game, GOOD.replace("1 Sellsword", "1 Sprite"))) == ["CS1009"]


@covers("DeckRules.requirements", "DeckRequirement.message", "DeckRequirement.condition",
        "DeckRequirement.forbid")
def test_require_and_forbid_state_deck_wide_rules(game: ir.Game) -> None:
    over = GOOD.replace("Reserve:\n1 Sun Guard", "Reserve:\n1 Sun Guard\n1 Sun Lord")
    report = check(game, over)
    assert codes(report) == ["CS1011"] and "reserve within the purse" in report.errors[0].message
    cheap = GOOD.replace("1 Sellsword", "1 Freeloader").replace("Reserve:\n1 Sun Guard", "Reserve:\n1 Freeloader")
    report = check(game, cheap)
    assert codes(report) == ["CS1011"] and "no free reserve units" in report.errors[0].message
    # the require holds exactly at the limit (2 + 3 = 5 > 4: over; 2 <= 4: fine)
    assert check(game, GOOD).ok


@covers("DeckRules.summaries", "DeckSummary.label", "DeckSummary.fields")
def test_summaries_name_values_derived_from_the_decklist(game: ir.Game) -> None:
    text = GOOD.replace("1 Sun King", "1 Sun King\n1 Moon Queen")
    report = check(game, text)
    assert report.ok
    shown = deck_summary(report, game_context(game))
    assert shown["summaries"] == {"Hero": {"purse": 4, "hp": 9, "main": 5}}


def test_a_checked_decklist_is_dealt_into_the_players_deck_zone(game: ir.Game, tmp_path: Path) -> None:
    (tmp_path / "good.deck").write_text(GOOD, encoding="utf-8")
    compiled = CompiledGame(game)
    match = compiled.new_match(seed=1, decks=decks_for(compiled, 2, [tmp_path / "good.deck", tmp_path / "good.deck"]))
    for seat in (0, 1):
        dealt = [c.name for z in ("deck", "hand") for c in match.zone(z, match.players[seat]).cards]
        # the six physical cards (the Reserve's Sun Guard is one of Main's three)
        assert sorted(dealt) == sorted(["Sun King", "Sun Guard", "Sun Guard", "Sun Guard", "Sun Lord", "Sellsword"])


def test_a_deck_rule_no_deck_can_satisfy_is_an_error(tmp_path: Path) -> None:
    impossible = RULES.replace("section Main { size: 4..6 }", "section Main { size: 40.. }")
    found = diagnostics(tmp_path, "impossible", impossible)
    assert any("no legal deck exists" in m for m in found), found


@covers("DeckRules.bindings", "DeckBinding.name", "DeckBinding.value")
def test_let_binds_a_value_of_the_deck_that_the_rules_read(game: ir.Game, tmp_path: Path) -> None:
    # `sides` is the heroes' factions: a Moon unit is refused beside the Sun King only,
    # and the hint shows the value the rule read
    moon = check(game, GOOD.replace("1 Sellsword", "1 Moon Guard"))
    assert codes(moon) == ["CS1010"]
    assert moon.errors[0].hint is not None and "the deck's sides: Sun" in moon.errors[0].hint
    # unknown (`none`) while the deck lists no hero: no card is judged by it then
    heroless = check(game, GOOD.replace("Heroes:\n1 Sun King\n", "").replace("Reserve:\n1 Sun Guard\n", "")
                     .replace("1 Sellsword", "1 Moon Guard"))
    assert codes(heroless) == ["CS1006"]
    # a `let` may read the ones before it, and require/forbid/summary read them too
    later = RULES.replace('  summary "Hero" {', '''  let main = deck.size
  let spare = 6 - main
  require "room for one more": spare >= 1
  summary "Room" { spare: spare }
  summary "Hero" {''')
    folder = write_game(tmp_path / "later", {"rules.cards": later})
    result = check_game(str(folder))
    assert result.game is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    assert check(result.game, GOOD).ok
    shown = deck_summary(check(result.game, GOOD), game_context(result.game))
    assert shown["summaries"]["Room"] == {"spare": 1}
    full = check(result.game, GOOD.replace("1 Sellsword", "2 Sellsword"))
    assert codes(full) == ["CS1011"] and full.errors[0].message == "room for one more"
    # the compile-time proof reads them for each hero alone: the Sun King allows the most
    # (7 Sun units and 6 Free ones), so 14 cards are never possible
    found = diagnostics(tmp_path, "narrow", RULES.replace("section Main { size: 4..6 }", "section Main { size: 14.. }"))
    assert any("at most 13 eligible" in m and "best case: Sun King" in m for m in found), found
    # a rule that reads a name never known is not decidable: nothing is proved
    unknown = RULES.replace("let sides = if", "let sides = if no and").replace(
        "section Main { size: 4..6 }", "section Main { size: 14.. }")
    assert not any("no legal deck exists" in m for m in diagnostics(tmp_path, "unknown", unknown))


def test_let_is_checked_like_any_deck_rule(tmp_path: Path) -> None:
    twice = RULES.replace("  allow:", "  let sides = 1\n  allow:")
    assert "'let sides' in the deck rules: bound twice" in diagnostics(tmp_path, "twice", twice)
    shadow = RULES.replace("  allow:", "  let card = 1\n  allow:")
    assert "'let card' in the deck rules: a name the deck rules already have" in diagnostics(
        tmp_path, "shadow", shadow)
    bad = RULES.replace("  allow:", "  let = 1\n  allow:")
    assert "write let name = expression" in diagnostics(tmp_path, "bad", bad)
    unknown = RULES.replace("  allow:", "  let n = cuont(deck.Main)\n  allow:")
    assert any("unknown function 'cuont'" in m for m in diagnostics(tmp_path, "unknown", unknown))
