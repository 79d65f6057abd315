"""The deck tools around the checker: library decks, `deck new`, `deck show`, the CLI,
hostile input, and the static evaluator's deck-rule functions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import GAMES, LIBRARY, MINI_CARDS, MINI_RULES, write_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardsmith.compiler.static_eval import DeckValue, NotStatic, StaticEnv
from cardsmith.decks.build import build_deck, parse_advice
from cardsmith.decks.cli import deck_app
from cardsmith.decks.games import game_context
from cardsmith.decks.library import DeckError, library_deck_paths, library_decks, load_decklist
from cardsmith.decks.show import deck_summary, render_summary
from cardsmith.decks.validate import check_decklist
from cardsmith.dsl.diagnostics import render

runner = CliRunner()
DUAL = LIBRARY / "kingdom_combat" / "decks" / "dual_crown_and_horde.deck"


# ---- library decks


@pytest.mark.parametrize("game", GAMES)
def test_every_library_deck_is_legal(game: str) -> None:
    paths = library_deck_paths(game)
    assert paths, f"{game} has no ready decks"
    for path in paths:
        report = check_decklist(str(path), path.read_bytes(), game)
        assert report.ok, [(path.name, d.code, d.message) for d in report.diagnostics]


def test_kingdom_combat_starters_per_faction_and_dual() -> None:
    ctx = game_context("kingdom_combat")
    decks = library_decks("kingdom_combat")
    by_factions: dict[tuple[str, ...], int] = {}
    for deck in decks.values():
        factions = tuple(sorted(str(ctx.value(c, "faction")) for c in deck.section("Fortress")))
        by_factions[factions] = by_factions.get(factions, 0) + 1
    assert by_factions[("Valoria",)] >= 2 and by_factions[("Grimhold",)] >= 2
    assert by_factions[("Grimhold", "Valoria")] >= 1


def test_load_decklist_gives_the_cards_to_deal(tmp_path: Path) -> None:
    deck = load_decklist(LIBRARY / "two_kingdoms" / "decks" / "full_army.deck", "two_kingdoms")
    assert len(deck.card_names()) == 23 and deck.card_names().count("Ground Archer") == 6
    kc = load_decklist(DUAL, "kingdom_combat")
    assert len(kc.physical()) == 32  # 2 fortresses + 30: the Garrison is chosen from the deck
    assert [c.name for c in kc.section("Garrison")] == ["Footman", "Orc Grunt", "Skeleton Warrior"]
    bad = tmp_path / "bad.deck"
    bad.write_text("1 Castle Valoria\n4 Footman\n", encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_decklist(bad, "kingdom_combat")
    assert [d.code for d in info.value.report.errors] == ["CS1007"]


# ---- deck new


@pytest.mark.parametrize("factions", [["Valoria"], ["Grimhold"], ["valoria", "grimhold"]])
@pytest.mark.parametrize("seed", [1, 2, 3, 17])
def test_deck_new_is_legal_and_follows_the_advice(factions: list[str], seed: int) -> None:
    ctx = game_context("kingdom_combat")
    text, report = build_deck(ctx, [("faction", f) for f in factions], seed)
    assert report.ok
    assert check_decklist("again.deck", text, "kingdom_combat").ok
    data = deck_summary(report, ctx)
    assert data["size"] == 30
    assert 10 <= data["types"]["Unit"] <= 15  # a third to a half
    assert 7 <= data["types"]["Structure"] <= 8  # a quarter
    assert len(data["sections"]) == 3 and data["sections"]["Fortress"] == len(factions)
    assert data["sections"]["Garrison"] >= 1  # a starting hire the budget allows


def test_deck_new_is_reproducible_and_seeded() -> None:
    ctx = game_context("kingdom_combat")
    valoria = [("faction", "Valoria")]
    assert build_deck(ctx, valoria, 5)[0] == build_deck(ctx, valoria, 5)[0]
    assert build_deck(ctx, valoria, 5)[0] != build_deck(ctx, valoria, 6)[0]


@pytest.mark.parametrize(("game", "factions"), [("combat_cards", ["fantasy"]), ("combat_cards", ["horror"]),
                                                ("two_kingdoms", []), ("kingdom_cards", []),
                                                ("construct_and_combat", [])])
def test_deck_new_for_the_other_games(game: str, factions: list[str]) -> None:
    _text, report = build_deck(game_context(game), [("faction", f) for f in factions], 3)
    assert report.ok


def test_advice_parsing() -> None:
    advice = parse_advice("# x\nUnit: 1/3..1/2\nStructure: 25%\ncurve: cost\nnonsense\nBad: 1/0\n")
    assert advice.curve == "cost" and set(advice.shares) == {"Unit", "Structure"}


# ---- deck show


def test_show_combines_dual_fortresses_top_and_bottom() -> None:
    ctx = game_context("kingdom_combat")
    report = check_decklist(str(DUAL), DUAL.read_bytes(), ctx)
    data = deck_summary(report, ctx)
    # The Bone Citadel on top (7 gold, 2 per turn), Castle Valoria below (20 HP)
    assert data["summaries"]["Fortress"] == {"starting_gold": 7, "income": 2, "hp": 20}
    swapped = DUAL.read_text(encoding="utf-8").replace(
        "1 The Bone Citadel\n1 Castle Valoria", "1 Castle Valoria\n1 The Bone Citadel")
    data = deck_summary(check_decklist("s.deck", swapped.replace("1 Skeleton Warrior\n\nDeck", "\nDeck"), ctx), ctx)
    assert data["summaries"]["Fortress"] == {"starting_gold": 6, "income": 2, "hp": 18}
    text = render_summary(deck_summary(report, ctx))
    assert "Fortress: starting_gold 7, income 2, hp 20" in text
    assert "cost curve:" in text and "Unit" in text and "%" in text
    assert sum(data["curve"].values()) == 30 and sum(data["types"].values()) == 30


# ---- CLI


def test_cli_check_exit_codes_and_json(tmp_path: Path) -> None:
    good = LIBRARY / "kingdom_combat" / "decks" / "valoria_longbow.deck"
    result = runner.invoke(deck_app, ["check", str(good), "--game", "kingdom_combat"])
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad.deck"
    bad.write_text("Fortress:\n1 Castle Valoria\nDeck:\n5 Footman\n1 Fotman\n", encoding="utf-8")
    result = runner.invoke(deck_app, ["check", str(bad), "--game", "kingdom_combat"], env={"NO_COLOR": "1"})
    assert result.exit_code == 1
    assert f"{bad}:5:3: error[CS1001]" in result.output and "did you mean 'Footman'" in result.output
    assert "\x1b[" not in result.output
    result = runner.invoke(deck_app, ["check", str(bad), "--game", "kingdom_combat", "--format", "json"])
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert {d["code"] for d in found} == {"CS1001", "CS1007", "CS1008"}
    assert set(found[0]) == {"path", "line", "column", "end_line", "end_column", "severity", "code", "message",
                             "hint"}


@pytest.mark.parametrize("args", [["check", "/no/such.deck", "--game", "kingdom_combat"],
                                  ["check", "{lib}", "--game", "no_such_game"],
                                  ["check", "{lib}"],
                                  ["check", ".", "--game", "kingdom_combat"],
                                  ["new", "--game", "kingdom_combat", "--with", "faction=Elves"],
                                  ["new", "--game", "kingdom_combat", "--with", "colour=red"],
                                  ["new", "--game", "kingdom_combat", "--with", "faction"],
                                  ["new", "--game", "kingdom_combat", "--head", "Castle Elvenhome"],
                                  ["check", "{lib}", "--game", "kingdom_combat", "--format", "xml"]])
def test_cli_bad_usage_exits_2(args: list[str]) -> None:
    args = [str(DUAL) if a == "{lib}" else a for a in args]
    result = runner.invoke(deck_app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_cli_show_and_new(tmp_path: Path) -> None:
    result = runner.invoke(deck_app, ["show", str(DUAL), "--game", "kingdom_combat"])
    assert result.exit_code == 0 and "hp 20" in result.stdout
    result = runner.invoke(deck_app, ["show", str(DUAL), "--game", "kingdom_combat", "--format", "json"])
    assert json.loads(result.stdout)["summaries"]["Fortress"]["starting_gold"] == 7
    out = tmp_path / "mine.deck"
    result = runner.invoke(deck_app, ["new", "--game", "kingdom_combat", "--with", "faction=Grimhold", "--seed", "4",
                                      "--output", str(out)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(deck_app, ["check", str(out), "--game", "kingdom_combat"])
    assert result.exit_code == 0
    result = runner.invoke(deck_app, ["new", "--game", "kingdom_combat", "--with", "faction=Valoria"])
    assert result.exit_code == 0 and result.stdout.startswith("# A Kingdom Combat deck")
    # --head picks a head card by name: twice for a deck led by two cards
    result = runner.invoke(deck_app, ["new", "--game", "kingdom_combat", "--head", "castle valoria",
                                      "--head", "The Bone Citadel"])
    assert result.exit_code == 0, result.output
    assert "Fortress:\n1 Castle Valoria\n1 The Bone Citadel\n" in result.stdout


def test_games_outside_the_library(tmp_path: Path, mini_game: Path) -> None:
    deck = tmp_path / "m.deck"
    deck.write_text("2 knight\n", encoding="utf-8")
    result = runner.invoke(deck_app, ["check", str(deck), "--game", str(mini_game)])
    assert result.exit_code == 0, result.output
    rules = MINI_RULES[:MINI_RULES.index("deck {")]
    plain = write_game(tmp_path / "plain", {"rules.cards": rules, "cards.cards": MINI_CARDS})
    result = runner.invoke(deck_app, ["check", str(deck), "--game", str(plain)])
    assert result.exit_code == 2 and "no deck rules" in result.output
    broken = write_game(tmp_path / "broken", {"rules.cards": MINI_RULES + "\nzzz\n", "cards.cards": MINI_CARDS})
    result = runner.invoke(deck_app, ["check", str(deck), "--game", str(broken)])
    assert result.exit_code == 1 and "CS0205" in result.output


def test_deck_app_mounts_on_the_main_cli() -> None:
    import typer

    app = typer.Typer()
    app.add_typer(deck_app, name="deck")
    result = runner.invoke(app, ["deck", "check", str(DUAL), "--game", "kingdom_combat"])
    assert result.exit_code == 0, result.output


# ---- hostile input


@pytest.mark.parametrize("data", [b"\x00\x01\x02binary", b"\xff\xfe\x00garbage", b"4 Footman\n\xc3\x28\n",
                                  b"x" * 2_000_000, b"4 " + b"A" * 5000, b"Deck:\n\x07bell\n", b"",
                                  b"\n\n#only comments\n", b":\n::\n1\n-1 Footman\n1e9 Footman\n\t4\tFootman\n"])
def test_hostile_decklists_are_diagnostics(data: bytes) -> None:
    report = check_decklist("weird.deck", data, "kingdom_combat")
    assert not report.ok
    for d in report.diagnostics:
        render(d, report.sources)  # every diagnostic renders


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda s: s.encode("utf-8", "replace")))
def test_fuzzed_decklists_never_raise(data: bytes) -> None:
    report = check_decklist("fuzz.deck", data, "kingdom_combat")
    for d in report.diagnostics:
        render(d, report.sources)


def test_diagnostic_renders_like_the_compiler() -> None:
    text = "Fortress:\n1 Castle Valoria\nDeck:\n" + "\n".join(["4 Footman"] * 7) + "\n2 Militia Levy\n"
    report = check_decklist("deck.deck", text, "kingdom_combat")
    levy = next(d for d in report.errors if d.code == "CS1009")
    rendered = render(levy, report.sources)
    assert rendered.startswith("deck.deck:11:3: error[CS1009]: 'Militia Levy' can never be put")
    assert "11 | 2 Militia Levy" in rendered and "^^^^^^^^^^^^" in rendered and "= hint:" in rendered


# ---- the static evaluator's deck functions


def test_static_eval_deck_calls_and_queries() -> None:
    from cardsmith.dsl.exprparse import parse_words
    from cardsmith.dsl.source import SourceFile

    ctx = game_context("kingdom_combat")
    env: StaticEnv = ctx.env
    card = {c.name: c for c in ctx.game.cards}
    deck = DeckValue({"Fortress": [card["The Bone Citadel"], card["Castle Valoria"]],
                      "Garrison": [card["Footman"], card["Goblin Sneak"]]}, 30, [])

    def ev(text: str) -> object:
        source = SourceFile("<t>", "x: " + text)
        return env.eval(parse_words(source, 3, len(source.text), "cond_tail"), {"deck": deck})

    assert ev("count(deck.Garrison)") == 2 and ev("sum(deck.Garrison, cost)") == 2
    assert ev("first(deck.Fortress).starting_gold") == 7 and ev("last(deck.Fortress).hp") == 20
    assert ev("max(values(deck.Fortress, hp))") == 20 and ev("min(3, 5)") == 3
    assert ev("any(all units in deck.Garrison where it.cost == 0)") is True
    assert ev("count(all units in deck.Garrison where it.cost > 5)") == 0
    assert ev("deck.size") == 30 and ev("size(deck.Nothing)") == 0
    assert ev("first(deck.Nothing)") is None
    with pytest.raises(NotStatic):
        ev("first(deck.Nothing).hp")


def test_benchmark_runs_and_agrees_with_the_hand_written_baseline() -> None:
    """The benchmark's baseline doubles as an oracle: on random decklists the generic
    checker and the hand-written Kingdom Combat check must give the same verdicts."""
    import subprocess
    import sys

    from conftest import ROOT

    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_decks.py"), "--decks", "300",
                           "--repeat", "1", "--seed", "7"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "decks/s" in proc.stdout and "verdicts agree         300/300" in proc.stdout
