"""Expansions (docs/expansions.md): an expansion folder's cards are its own wherever they
sit in it; `build`, `text`, `export` and `deck new` show the expansion, not the whole base
game; a keyword with reminder text that nothing plays or reads is a warning; the library's
example expansion checks, tests, builds, and its ready deck is checked and dealt."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import LIBRARY, write_game
from typer.testing import CliRunner

from cardsmith.cli import app
from cardsmith.compiler.api import check_game
from cardsmith.compiler.expansions import expansion_keywords
from cardsmith.decks.library import load_decklist, ready_deck_paths
from cardsmith.dsl.diagnostics import Severity
from cardsmith.printables.build import render
from cardsmith.printables.expansion import render_printables
from cardsmith.printables.imposition import CardsPdf, Options
from cardsmith.printables.sheets import keyword_rows

runner = CliRunner()
ASHEN = LIBRARY / "kingdom_combat_ashen_host"
ASHEN_CARDS = ["Ash Berserker", "Cinder Hound", "Pyre Chanter"]

EXPANSION = '''
expansion "Test Tide" {
  base: kingdom_combat
}

keyword Undertow(n: number) {
  reminder: "Pulls {n} units along."
}
'''

CARD = '''
card "Tide Runner" {
  type: Unit
  faction: Grimhold
  cost: 2
  attack: 1; defense: 1; armor: 1
  keywords: Undertow 2
}
'''


def small_expansion(tmp_path: Path, keyword: str = EXPANSION) -> Path:
    """An expansion of the library's Kingdom Combat: its block at the top, its card in a
    sub-folder (as a designer lays one out)."""
    return write_game(tmp_path / "tide", {"expansion.cards": keyword, "cards/runner.cards": CARD})


def warnings_of(folder: Path) -> list[str]:
    result = check_game(str(folder))
    assert result.ok, [d.message for d in result.errors]
    return [f"{d.code} {d.message} | {d.hint}" for d in result.diagnostics if d.severity is Severity.WARNING]


def test_a_card_in_a_sub_folder_of_an_expansion_belongs_to_it(tmp_path: Path) -> None:
    game = check_game(str(small_expansion(tmp_path))).game
    assert game is not None
    owners = {c.name: c.expansion for c in game.cards}
    assert owners["Tide Runner"] == "Test Tide"
    assert owners["Orc Grunt"] is None
    assert [k.name for k in expansion_keywords(game)] == ["Undertow"]


def test_a_keyword_with_reminder_text_only_is_a_warning_naming_its_cards(tmp_path: Path) -> None:
    found = warnings_of(small_expansion(tmp_path))
    assert len(found) == 1
    assert found[0].startswith("CS0903 keyword 'Undertow' has reminder text but no behaviour, and no rule reads it")
    assert "'Tide Runner' (" in found[0] and "runner.cards:2)" in found[0]
    assert "has_keyword(c, Undertow)" in found[0]


def test_a_keyword_with_behaviour_or_read_by_a_rule_or_excused_is_not_warned(tmp_path: Path) -> None:
    behaviour = EXPANSION.replace('  reminder: "Pulls {n} units along."\n', '''  reminder: "Gets +{n} Armor."
  static {
    target: self
    armor: +n
  }
''')
    assert warnings_of(small_expansion(tmp_path / "behaviour", behaviour)) == []
    read = EXPANSION + '''
function pulls(c: card) = has_keyword(c, Undertow)
card "Tide Caller" {
  type: DirtyTrick
  faction: Grimhold
  cost: 1
  effect {
    choose t from target unit where pulls(it)
    deal 1 damage to t from self
  }
}
'''
    assert [w for w in warnings_of(small_expansion(tmp_path / "read", read)) if w.startswith("CS0903")] == []
    excused = EXPANSION + 'coverage {\n  keyword Undertow: "printed reminder only: the tide is told apart by cost"\n}\n'
    assert warnings_of(small_expansion(tmp_path / "excused", excused)) == []


def test_the_library_games_and_the_example_expansion_have_no_reminder_only_keywords() -> None:
    for target in ("kingdom_combat", "two_kingdoms", str(ASHEN)):
        result = check_game(target)
        assert result.ok and not result.diagnostics, [d.message for d in result.diagnostics]


def test_build_prints_the_expansions_cards_and_its_new_keywords_only() -> None:
    game = check_game("kingdom_combat_ashen_host").game
    assert game is not None
    opts = Options()
    own = render_printables(game, opts)
    assert own.ok and own.cards is not None
    assert sorted(o.path.name for o in own.outputs) == ["action-sheets.pdf", "cards.pdf"]
    whole = render_printables(game, opts, with_base=True)
    assert whole.cards is not None
    base = render(check_game("kingdom_combat").game, opts)  # type: ignore[arg-type]
    assert base.cards is not None

    def fronts(cards: CardsPdf) -> list[str]:
        return [name for page in cards.pages if page.side == "front" for name, *_ in page.cards]

    assert sorted(set(fronts(own.cards))) == ASHEN_CARDS
    assert len(fronts(whole.cards)) == len(fronts(base.cards)) + len(fronts(own.cards))
    # the action sheets are one table of the new keywords: Frenzy, not the base game's Mounted
    assert own.outputs[-1].pages == 1
    assert [k.name for k in expansion_keywords(game)] == ["Frenzy"]
    assert [r.label for r in keyword_rows(expansion_keywords(game))] == ["Frenzy n"]


def test_build_cli_with_and_without_the_base_game(tmp_path: Path) -> None:
    out = tmp_path / "own"
    result = runner.invoke(app, ["build", "kingdom_combat_ashen_host", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output  # the example's cards fit the base game's layouts
    assert sorted(p.name for p in out.iterdir()) == ["action-sheets.pdf", "cards.pdf"]
    whole = tmp_path / "whole"
    result = runner.invoke(app, ["build", "kingdom_combat_ashen_host", "--with-base", "--out", str(whole)])
    assert result.exit_code == 0, result.output
    assert (whole / "unit-sheets.pdf").is_file()
    assert (whole / "cards.pdf").stat().st_size > (out / "cards.pdf").stat().st_size


def test_text_and_export_list_the_expansions_cards_unless_with_base() -> None:
    result = runner.invoke(app, ["text", "kingdom_combat_ashen_host"])
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ASHEN_CARDS
    assert "Frenzy 2 (Gets +2 Attack while attacking.)" in result.stdout
    whole = runner.invoke(app, ["text", "kingdom_combat_ashen_host", "--with-base"])
    assert "Orc Grunt:" in whole.stdout and "Ash Berserker:" in whole.stdout
    one = runner.invoke(app, ["text", "kingdom_combat_ashen_host", "Orc Grunt"])  # a named base card is found
    assert one.exit_code == 0 and one.stdout.startswith("Orc Grunt:")
    exported = json.loads(runner.invoke(app, ["export", "kingdom_combat_ashen_host"]).stdout)
    assert [c["name"] for c in exported["cards"]] == ASHEN_CARDS
    assert exported["game"]["expansions"] == [{"name": "Ashen Host", "version": "0.1", "base": "kingdom_combat"}]
    everything = json.loads(runner.invoke(app, ["export", "kingdom_combat_ashen_host", "--with-base"]).stdout)
    assert len(everything["cards"]) > len(exported["cards"])
    # a game without expansions is shown whole, with or without the option
    assert runner.invoke(app, ["text", "kingdom_combat"]).stdout == \
        runner.invoke(app, ["text", "kingdom_combat", "--with-base"]).stdout


def test_an_expansion_is_found_by_name_in_the_library() -> None:
    assert runner.invoke(app, ["check", "kingdom_combat_ashen_host"]).exit_code == 0
    wrong = runner.invoke(app, ["check", "kingdom_combat_ashen_hots"])
    assert wrong.exit_code == 2
    assert "did you mean 'kingdom_combat_ashen_host'?" in wrong.output


def test_the_example_expansions_scenarios_pass() -> None:
    result = runner.invoke(app, ["test", "kingdom_combat_ashen_host"])
    assert result.exit_code == 0, result.output
    for name in ("Frenzy: +N Attack while attacking", "Frenzy: the bonus ends with the attack",
                 "Pyre Chanter: other attacking Frenzy units get +1 Attack"):
        assert f"PASS  {name}" in result.output


def test_an_expansions_ready_deck_is_checked_against_the_base_games_rules(tmp_path: Path) -> None:
    game = check_game("kingdom_combat_ashen_host").game
    assert game is not None
    paths = ready_deck_paths(game)
    assert ASHEN / "decks" / "ashen_warband.deck" in paths
    assert LIBRARY / "kingdom_combat" / "decks" / "grimhold_warband.deck" in paths  # the base game's too
    deck = load_decklist(ASHEN / "decks" / "ashen_warband.deck", game)
    assert {"Ash Berserker", "Cinder Hound", "Pyre Chanter", "Orc Grunt"} <= set(deck.card_names())
    # the base game's deck rules hold for expansion cards: five copies is one too many
    text = (ASHEN / "decks" / "ashen_warband.deck").read_text(encoding="utf-8")
    bad = tmp_path / "five.deck"
    bad.write_text(text.replace("3 Ash Berserker", "5 Ash Berserker"), encoding="utf-8")
    result = runner.invoke(app, ["deck", "check", "-g", "kingdom_combat_ashen_host", str(bad)])
    assert result.exit_code == 1
    assert "Ash Berserker" in result.output


def test_play_deals_an_expansion_deck_and_hires_its_cards(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    result = runner.invoke(app, [
        "play", "kingdom_combat_ashen_host", "--deck", str(ASHEN / "decks" / "ashen_warband.deck"),
        "--deck", str(LIBRARY / "kingdom_combat" / "decks" / "valoria_longbow.deck"),
        "--max-actions", "300", "--log", str(log)])
    assert result.exit_code == 0, result.output
    text = log.read_text(encoding="utf-8")
    assert "Cinder Hound" in text and "Ash Berserker" in text  # its garrison, hired from the deck


def test_deck_new_features_the_expansions_cards() -> None:
    result = runner.invoke(app, ["deck", "new", "-g", "kingdom_combat_ashen_host", "--with", "faction=Grimhold"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for name in ASHEN_CARDS:
        assert f"4 {name}" in lines
    base = runner.invoke(app, ["deck", "new", "-g", "kingdom_combat_ashen_host", "--with", "faction=Grimhold",
                               "--with-base"])
    assert base.exit_code == 0, base.output
    assert sum(f"4 {name}" in base.stdout.splitlines() for name in ASHEN_CARDS) < 3


# ---------------------------------------------------------------- set codes and collector numbers

def test_cards_carry_their_sets_code_and_collector_number() -> None:
    exported = json.loads(runner.invoke(app, ["export", "kingdom_combat_ashen_host", "--with-base"]).stdout)
    numbered = {c["name"]: (c["set_code"], c["collector_number"]) for c in exported["cards"] if c["set_code"]}
    assert numbered == {"Ash Berserker": ("ASH", 1), "Cinder Hound": ("ASH", 2), "Pyre Chanter": ("ASH", 3)}
    # the base game declares no set code: its cards have none
    assert next(c for c in exported["cards"] if c["name"] == "Orc Grunt")["collector_number"] is None


def test_a_decklist_may_name_a_card_by_its_collector_number(tmp_path: Path) -> None:
    text = (ASHEN / "decks" / "ashen_warband.deck").read_text(encoding="utf-8")
    deck = tmp_path / "numbers.deck"
    deck.write_text(text.replace("3 Cinder Hound", "3 ASH 2").replace("2 Pyre Chanter", "2 ash 3/3"),
                    encoding="utf-8")
    game = check_game("kingdom_combat_ashen_host").game
    assert game is not None
    assert load_decklist(deck, game).card_names() == load_decklist(ASHEN / "decks" / "ashen_warband.deck",
                                                                   game).card_names()
    wrong = tmp_path / "wrong.deck"
    wrong.write_text(text.replace("3 Cinder Hound", "3 ASH 9"), encoding="utf-8")
    result = runner.invoke(app, ["deck", "check", "-g", "kingdom_combat_ashen_host", str(wrong)])
    assert result.exit_code == 1 and "no card named 'ASH 9'" in result.output


def test_default_layouts_print_the_collector_number(tmp_path: Path) -> None:
    from conftest import MINI_CARDS, MINI_RULES

    from cardsmith.printables.build import resolve_layouts
    from cardsmith.printables.cards import CardRenderer

    rules = MINI_RULES.replace("  players: 2\n}", '  players: 2\n  set_code: "MN"\n}', 1)
    folder = write_game(tmp_path / "mini", {"rules.cards": rules, "cards.cards": MINI_CARDS})
    game = check_game(str(folder)).game
    assert game is not None and game.game.set_code == "MN"
    layouts = resolve_layouts(game, "a4", [])
    renderer = CardRenderer(game, layouts, "home", folder)
    total = len(game.cards)
    assert all(layout.default for layout in layouts.values())
    for number, card in enumerate(game.cards, 1):
        assert f"MN {number}/{total}" in renderer.plan(card).texts
    bad = write_game(tmp_path / "bad", {"rules.cards": rules.replace('"MN"', '"mini set"'), "cards.cards": MINI_CARDS})
    messages = [d.message for d in check_game(str(bad)).errors]
    assert messages == ["a set code is 1 to 6 capital letters or digits, not \"mini set\""]
