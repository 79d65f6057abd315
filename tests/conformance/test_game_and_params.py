"""Conformance: the `game`, `expansion`, `param` and `mode` declarations (docs/language.md §2).

Play-time effects are shown in played matches; the game's printed size and its
descriptive fields through the back ends that read them (printables, JSON export).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import write_game
from pypdf import PdfReader

from cardsmith.compiler.api import check_game
from cardsmith.compiler.export import export_game
from cardsmith.compiler.loader import LoadError
from cardsmith.dsl import ir
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.setup import default_players, match_problems
from cardsmith.printables.build import render
from cardsmith.printables.geometry import MM
from cardsmith.printables.imposition import Options
from conformance.support import build, counter, covers, diagnostics, screen, take, turn_order

TINY = '''
game "Tiny Game" {
  id: tiny_game
  players: 2..3
  first_player: seat1
  version: "2.5"
  description: "A game of waiting."
}
counter waits per player { start: 0 }
action wait "Wait" { gain 1 waits }
turn {
  stage main { actions: wait }
}
'''


@covers("GameDecl.id", "GameDecl.name")
def test_the_game_id_names_the_match_and_the_name_titles_the_printables(tmp_path: Path) -> None:
    game = build(tmp_path, "tiny", TINY + 'cardtype Chip { stats { v: number = 0 } }\ncard "Chip" { type: Chip }\n')
    match = game.new_match(seed=3)
    assert match.log[0]["event"] == "match" and match.log[0]["game"] == "tiny_game"
    assert match.snapshot()["game"] == "tiny_game"
    cards = render(game.ir, Options())
    metadata = PdfReader(io.BytesIO(cards.files["cards.pdf"])).metadata
    assert metadata is not None and metadata.title is not None and metadata.title.startswith("Tiny Game")
    assert export_game(game.ir).game.name == "Tiny Game"


@covers("GameDecl.players_min", "GameDecl.players_max")
def test_players_gives_the_range_of_seats(tmp_path: Path) -> None:
    game = build(tmp_path, "tiny", TINY)
    assert match_problems(game, 2, None) == [] and match_problems(game, 3, None) == []
    assert match_problems(game, 1, None) and match_problems(game, 4, None)
    assert "2 to 3" in match_problems(game, 4, None)[0]
    # a three-player match seats three players, each taking a turn of the round
    match = game.new_match(seed=1, players=3)
    assert [p.name for p in match.players] == ["player1", "player2", "player3"]
    for _ in range(3):
        take(match, "Wait")
        take(match, "pass")
    assert turn_order(match)[:4] == ["player1", "player2", "player3", "player1"]
    assert [counter(match, s, "waits") for s in range(3)] == [1, 1, 1]
    # players: 3..4: a match started without a count has the fewest players the game allows
    more = build(tmp_path, "more", TINY.replace("players: 2..3", "players: 3..4"))
    assert len(more.new_match(seed=1).players) == 3
    exact = build(tmp_path, "exact", TINY.replace("players: 2..3", "players: 2"))
    assert match_problems(exact, 3, None) and ir.seat_range(exact.ir, None) == (2, 2)
    # a game is played by 1 to 16 players
    for bad in ("2..17", "0..3", "3..2"):
        assert diagnostics(tmp_path, f"bad{bad}", TINY.replace("players: 2..3", f"players: {bad}")) == [
            f"a game is played by 1 to 16 players, not {bad}"]


# bridge is 2.25 in x 3.5 in: one table of sizes (dsl/units.py) for the game and its layouts
@pytest.mark.parametrize(("size", "mm"), [("bridge", (57.15, 88.9)), ("mini", (44.0, 63.0)),
                                          ("50mm x 70mm", (50.0, 70.0))])
@covers("GameDecl.card_size", "GameDecl.card_width_mm", "GameDecl.card_height_mm")
def test_card_size_is_the_printed_size_of_every_card(tmp_path: Path, size: str, mm: tuple[float, float]) -> None:
    rules = TINY.replace('  version: "2.5"', f'  card_size: {size}\n  version: "2.5"')
    rules += 'cardtype Chip { stats { v: number = 0 } }\ncard "Chip" { type: Chip }\n'
    game = build(tmp_path, "sized", rules)
    assert (game.ir.game.card_width_mm, game.ir.game.card_height_mm) == mm
    pages = render(game.ir, Options()).cards
    assert pages is not None
    printed = [c for page in pages.pages if page.side == "front" for c in page.cards]
    assert printed and all((round(w / MM, 2), round(h / MM, 2)) == mm for _n, _x, _y, w, h in printed)
    exported = export_game(game.ir).game
    named = size if "mm" not in size else "custom"
    assert (exported.card_size, exported.card_width_mm, exported.card_height_mm) == (named, *mm)


@covers("GameDecl.version", "GameDecl.description")
def test_version_and_description_are_exported(tmp_path: Path) -> None:
    game = build(tmp_path, "tiny", TINY)
    exported = json.loads(export_game(game.ir).model_dump_json())["game"]
    assert exported["version"] == "2.5" and exported["description"] == "A game of waiting."


# ---------------------------------------------------------------- expansion

BASE = '''
game "Base" {
  id: basegame
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
zone hand per player { visibility: owner }
cardtype Coin { stats { value: number = 1 } }
card "Penny" { type: Coin }
setup {
  for each p in players {
    for each name in catalog() { let c = create(name, hand of p, p) }
  }
}
action spend "Spend" {
  choose c from a coin in your hand
  move c to hand of opponent
  gain c.value gold
}
turn {
  stage main { actions: spend }
}
'''

EXPANSION = '''
expansion "Golden Age" {
  base: basegame
  version: "0.3"
}
card "Crown" { type: Coin; value: 5 }
'''


def expansion_folder(tmp_path: Path) -> Path:
    write_game(tmp_path / "basegame", {"rules.cards": BASE})
    return write_game(tmp_path / "golden", {"cards.cards": EXPANSION})


@covers("ExpansionDecl.name", "ExpansionDecl.base", "CardDecl.expansion")
def test_an_expansion_adds_its_cards_to_its_base_game(tmp_path: Path) -> None:
    result = check_game(str(expansion_folder(tmp_path)))
    assert result.game is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    game = CompiledGame(result.game)
    assert {c.name: c.expansion for c in game.ir.cards} == {"Penny": None, "Crown": "Golden Age"}
    exported = export_game(game.ir)
    assert [e.name for e in exported.game.expansions] == ["Golden Age"]
    assert {c.name: c.expansion for c in exported.cards} == {"Penny": None, "Crown": "Golden Age"}
    # the expansion's card is played with the base game's rules
    match = game.new_match(seed=1)
    take(match, "Spend: Crown#2")
    assert counter(match, 0, "gold") == 5
    # the base game alone knows no Crown
    alone = check_game(str(tmp_path / "basegame"))
    assert alone.game is not None and [c.name for c in alone.game.cards] == ["Penny"]


@covers("ExpansionDecl.base")
def test_an_expansion_of_an_unknown_base_or_redeclaring_a_base_name_is_refused(tmp_path: Path) -> None:
    write_game(tmp_path / "orphan", {"cards.cards": EXPANSION.replace("base: basegame", "base: nogame")})
    with pytest.raises(LoadError, match="unknown base game 'nogame'"):
        check_game(str(tmp_path / "orphan"))
    write_game(tmp_path / "basegame", {"rules.cards": BASE})
    clash = write_game(tmp_path / "clash", {"cards.cards": EXPANSION + 'card "Penny" { type: Coin }\n'})
    codes = [d.code for d in check_game(str(clash)).diagnostics]
    assert "CS0201" in codes


@covers("ExpansionDecl.version")
def test_an_expansions_version_is_exported(tmp_path: Path) -> None:
    result = check_game(str(expansion_folder(tmp_path)))
    assert result.game is not None
    exported = json.loads(export_game(result.game).model_dump_json())["game"]
    assert exported["expansions"] == [{"name": "Golden Age", "version": "0.3", "base": "basegame"}]
    # without a version the expansion is exported as the language's default, 0.1
    write_game(tmp_path / "unversioned", {"cards.cards": EXPANSION.replace('  version: "0.3"\n', "")})
    bare = check_game(str(tmp_path / "unversioned"))
    assert bare.game is not None and not bare.diagnostics, [d.message for d in bare.diagnostics]
    assert export_game(bare.game).game.expansions[0].version == "0.1"


# ---------------------------------------------------------------- param and mode

PARAMS = '''
game "Params" {
  id: params
  players: 1..4
  first_player: seat1
}
param start_gold: number = 3
param bonus_on: bool = yes
param greeting: text = "hello"
counter gold per player { start: 0 }
counter bonus per player { start: 0 }
mode rich "Rich start" {
  players: 2..3
  start_gold: 10
}
mode solo "Solo" {
  players: 1
  bonus_on: no
}
setup {
  for each p in players {
    increase p.gold by start_gold
    if bonus_on { increase p.bonus by 1 }
  }
}
action wait "Wait" { say greeting }
turn {
  stage main { actions: wait }
}
'''


@covers("ParamDecl.name", "ParamDecl.value", "ParamDecl.type")
def test_rules_read_a_param_by_name(tmp_path: Path) -> None:
    game = build(tmp_path, "params", PARAMS)
    match = game.new_match(seed=1, players=4, mode=None)
    assert [counter(match, s, "gold") for s in range(4)] == [3, 3, 3, 3]
    assert [counter(match, s, "bonus") for s in range(4)] == [1, 1, 1, 1]
    take(match, "Wait")
    assert [e["message"] for e in match.log if e["event"] == "say"] == ["hello"]
    # the declared type is checked against the value
    bad = diagnostics(tmp_path, "bad", PARAMS.replace('param start_gold: number = 3', 'param start_gold: number = "x"'))
    assert bad == ["param 'start_gold' is text, but it is declared number"]


@covers("ModeDecl.name", "ModeDecl.overrides", "ModeDecl.players_min", "ModeDecl.players_max")
def test_a_mode_overrides_params_and_the_player_range(tmp_path: Path) -> None:
    game = build(tmp_path, "params", PARAMS)
    rich = game.new_match(seed=1, players=2, mode="rich")
    assert [counter(rich, s, "gold") for s in range(2)] == [10, 10]
    assert [counter(rich, s, "bonus") for s in range(2)] == [1, 1]
    solo = game.new_match(seed=1, players=1, mode="solo")
    assert counter(solo, 0, "gold") == 3 and counter(solo, 0, "bonus") == 0
    # a mode's `players` replaces the game's range
    assert ir.seat_range(game.ir, "rich") == (2, 3) and ir.seat_range(game.ir, "solo") == (1, 1)
    assert match_problems(game, 4, "rich") and match_problems(game, 2, "solo")
    assert not match_problems(game, 3, "rich") and not match_problems(game, 1, "solo")
    assert match_problems(game, 1, "nosuch")
    # an unknown param name in a mode is an error
    bad = diagnostics(tmp_path, "bad", PARAMS.replace("start_gold: 10", "start_golde: 10"))
    assert bad == ["mode 'rich' sets unknown param 'start_golde'"]


@covers("ModeDecl.overrides")
def test_the_first_declared_mode_is_the_default(tmp_path: Path) -> None:
    game = build(tmp_path, "params", PARAMS)
    match = game.new_match(seed=1, players=2)
    assert counter(match, 0, "gold") == 10, "mode rich, declared first, is the default"
    assert match.mode == "rich" and match.log[0]["mode"] == "rich", "the log names the mode played"
    # the first declared mode that allows the number of players: solo for one player
    alone = game.new_match(seed=1, players=1)
    assert alone.mode == "solo" and counter(alone, 0, "gold") == 3 and counter(alone, 0, "bonus") == 0
    # no mode allows four: the params' own values
    four = game.new_match(seed=1, players=4)
    assert four.mode is None and counter(four, 3, "gold") == 3 and counter(four, 3, "bonus") == 1
    # without --players, a match has as many as the default mode allows at least
    assert default_players(game, None) == 2 and default_players(game, "solo") == 1
    # a replay of the log, or a restored snapshot, is the same match
    again = game.restore_match(match.snapshot())
    assert again.mode == "rich" and counter(again, 1, "gold") == 10


@covers("ModeDecl.label")
def test_a_modes_label_is_shown(tmp_path: Path) -> None:
    game = build(tmp_path, "params", PARAMS)
    # in the list of modes a bad --mode gets, and on the play screen of a match in that mode
    assert match_problems(game, 2, "nosuch") == [
        "Params has no mode 'nosuch' (its modes: rich (Rich start), solo (Solo))"]
    assert "· mode Rich start ·" in screen(game.new_match(seed=1, players=2, mode="rich"))
    assert "· mode Solo ·" in screen(game.new_match(seed=1, players=1)), "the default mode too"
    assert "· mode" not in screen(game.new_match(seed=1, players=4)), "no mode allows 4 players: none is shown"



@covers("GameDecl.turn_limit")
def test_a_match_stops_at_the_games_turn_limit(tmp_path: Path) -> None:
    game = build(tmp_path, "limited", TINY.replace("  first_player: seat1", "  first_player: seat1\n  turn_limit: 4"))
    match = game.new_match(seed=1)
    while not match.is_over:
        take(match, "pass")
    assert match.over and match.out_of_turns and match.winner is None
    assert match.error is not None and "4 turns" in match.error
    assert len(turn_order(match)) == 4
    # without it, the default limit applies
    assert build(tmp_path, "tiny", TINY).ir.game.turn_limit == ir.DEFAULT_TURN_LIMIT
