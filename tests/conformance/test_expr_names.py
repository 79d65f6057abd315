"""Conformance: names, fields and calls (docs/language.md section 4: "names", `you`,
`opponent`, `self`, `it`, `players`, `current`, `turn_number`, `round_number`, "fields",
"calls").

A three-player match where each case's action stores what it read in a shared counter;
the same action taken by the player whose turn it is and by another player (`by: any`,
`responses: yes`) shows which names follow the acting player and which the turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, diagnostics, take

GAME = '''
game "Names" {
  id: names
  players: 3
  first_player: seat1
}
param bonus: number = 3
enum Colour {
  Red { weight: 5 }
  Blue { weight: 7 }
}
counter out shared { start: 0 }
counter gold per player { start: 2 }
counter wear per card { start: 0 }
status tired
zone field shared
zone hand per player { visibility: owner }
cardtype Gem {
  stats { value: number = 1 }
  properties { colour: Colour = Red }
  enters: field
}
card "Ruby" { type: Gem; value: 4 }
card "Opal" { type: Gem; colour: Blue }
heuristic { value: out + bonus + gold + count(all tired gems in hand) + count(all gems in field where it.wear > 0) }
DECLS
action go "Go" {
  by: any
BODY
}
turn { stage main { actions: go; responses: yes } }
'''


def build_game(tmp_path: Path, body: str, decls: str = "", name: str = "names") -> Any:
    rules = GAME.replace("DECLS", decls).replace("BODY", body)
    return build(tmp_path, name, rules)


def read(tmp_path: Path, body: str, decls: str = "") -> Any:
    """The counter `out` after the current player (player1) takes Go on turn 1."""
    match = build_game(tmp_path, body, decls).new_match(seed=1)
    take(match, "Go", 0)
    assert match.error is None, match.error
    return match.shared["out"]


@covers("Ref.name")
def test_params_counters_and_zones_by_name(tmp_path: Path) -> None:
    # a param; a per-player counter named bare is the acting player's; a player's zone
    # named bare is the acting player's
    body = ('  let mine = create("Ruby", hand, you)\n'
            '  set out to bonus * 1000 + gold * 100 + count(hand) * 10 + count(field)')
    assert read(tmp_path, body) == 3000 + 200 + 10 + 0


@covers("Ref.name", "Let.name", "Let.value")
def test_a_local_shadows_nothing_and_lives_for_the_rest_of_the_block(tmp_path: Path) -> None:
    assert read(tmp_path, "  let x = 4\n  let y = x * x\n  set out to y + x") == 20


@covers("Ref.name")
def test_you_opponent_current_follow_the_acting_player_and_the_turn(tmp_path: Path) -> None:
    body = "  set out to you.seat * 1000 + opponent.seat * 100 + current.seat * 10 + turn_number"
    match = build_game(tmp_path, body).new_match(seed=1)
    take(match, "Go", 0)
    assert match.shared["out"] == 1211  # player1 acts on their turn: opponent is the next player
    take(match, "pass", 0)
    take(match, "Go", 1)  # player2 acts on player1's turn
    assert match.shared["out"] == 2311
    take(match, "pass", 1)
    take(match, "Go", 2)  # player3: the next player after them is player1
    assert match.shared["out"] == 3111


@covers("Ref.name")
def test_turn_number_and_round_number_count_up(tmp_path: Path) -> None:
    body = "  set out to round_number * 100 + turn_number"
    match = build_game(tmp_path, body).new_match(seed=1)
    for seat, expected in [(0, 101), (1, 102), (2, 103), (0, 204)]:
        while match.current is not match.players[seat] or match.legal_actions()[0].player != seat:
            take(match, "pass")
        take(match, "Go", seat)
        assert match.shared["out"] == expected


@covers("Ref.name")
def test_players_and_player_n(tmp_path: Path) -> None:
    body = "  set out to count(players) * 100 + player3.seat * 10 + player1.seat"
    assert read(tmp_path, body) == 331


@covers("Ref.name")
def test_game_over_winner_and_drawn_while_the_game_runs(tmp_path: Path) -> None:
    assert read(tmp_path, "  if not game_over and winner == none and not drawn { set out to 1 }") == 1


@covers("Ref.name", "Attr.obj", "Attr.name")
def test_self_and_it(tmp_path: Path) -> None:
    decls = '''card "Lens" {
  type: Gem
  value: 6
  activate "Look" {
    set out to self.value * 10 + count(all gems where it.value > self.value)
  }
}
setup {
  let lens = create("Lens", field, player1)
  let ruby = create("Ruby", field, player2)
}'''
    rules = GAME.replace("DECLS", decls).replace("BODY", '  say "go"')
    rules = rules.replace("actions: go;", "actions: go, activate;")
    match = build(tmp_path, "self", rules).new_match(seed=1)
    take(match, "Lens: Look", 0)
    assert match.shared["out"] == 60
    assert not any(c.name == "Opal" for c in match.all_cards())


CARD_FIELDS = '''
  let r = create("Ruby", field, player2)
  let o = create("Opal", hand of player1, player1)
  increase r.wear by 2
  set r.tired to yes
  attach o to r
'''


@covers("Attr.obj", "Attr.name")
@pytest.mark.parametrize(("condition"), [
    "r.value == 4",                      # a stat
    "r.colour == Red and o.colour == Blue",  # a property (an enum value)
    "r.colour.weight == 5",              # an enum value's property
    "Blue.weight == 7",
    "r.wear == 2 and o.wear == 0",       # a card counter
    "r.tired and not o.tired",           # a status
    'r.name == "Ruby"',
    "r.type == Gem",
    "r.owner == player2 and o.owner == player1",
    "r.controller == player2",
    "r.zone == field",
    "o.host == r and r.host == none",    # attached
    "o in r.attached and count(r.attached) == 1",
    "player2.gold == 2 and you.gold == 2",   # a player counter
    "count(player1.hand) == 0",          # a player's zone (o left it when attached)
    "player2.seat == 2",
])
def test_fields_of_cards_players_and_enum_values(tmp_path: Path, condition: str) -> None:
    body = CARD_FIELDS + f"  if {condition} {{ set out to 1 }} else {{ set out to 2 }}"
    assert read(tmp_path, body) == 1


@covers("Attr.obj", "Attr.name")
def test_cells_and_regions(tmp_path: Path) -> None:
    decls = '''board grid {
  size: 4 x 4
  region corner { cells: [0, 0] .. [1, 1]; hp: 9 }
}
zone table shared { board: grid }'''
    body = ('  let r = create("Ruby", table, player1)\n  place r in table at cell(1, 2)\n'
            '  set out to position(r).x * 1000 + position(r).y * 100 + corner.hp')
    assert read(tmp_path, body, decls) == 1209


FUNCTIONS = '''
function twice(x: number) = x * 2
function larger(x: number, y: number) {
  if x > y { return x }
  return y
}
function plus(x: number, y: number = 10) = x + y
check "every function is used" {
  if twice(1) + larger(1, 2) + plus(1, 2) < 0 { say "never" }
}
'''


@covers("Call.func", "Call.args")
@pytest.mark.parametrize(("expr", "expected"), [
    ("twice(21)", 42),                   # a function written as an expression
    ("larger(3, 8) + larger(9, 2)", 17),  # a function written with a body and `return`
    ("twice(larger(1, 2))", 4),
    ("max(3, 9) + min(3, 9)", 12),       # builtins of the core prelude
])
def test_function_calls(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, f"  set out to {expr}", FUNCTIONS) == expected


@covers("Call.kwargs")
def test_a_function_call_may_name_its_arguments(tmp_path: Path) -> None:
    assert read(tmp_path, "  set out to plus(1, y = 5)", FUNCTIONS) == 6


@covers("Call.args")
def test_a_function_parameter_takes_its_default(tmp_path: Path) -> None:
    assert read(tmp_path, "  set out to plus(1)", FUNCTIONS) == 11


@covers("Call.kwargs")
@pytest.mark.parametrize(("expr", "expected"), [
    ("plus(y = 5, x = 2)", 7),            # named arguments in any order
    ("plus(x = 4)", 14),                  # a named argument, the rest by default
    ("larger(y = 8, x = 3)", 8),          # a function written with a body
    ("sum(all gems, field = value)", 5),  # an engine function: a name parameter given by name
    ("min(3, b = 1) + count(items = all gems)", 3),
])
def test_named_arguments_go_to_their_parameters(tmp_path: Path, expr: str, expected: int) -> None:
    gems = '  let ruby = create("Ruby", field)\n  let opal = create(card = "Opal", zone = field)\n'
    assert read(tmp_path, f"{gems}  set out to {expr}", FUNCTIONS) == expected


@covers("Call.kwargs")
@pytest.mark.parametrize(("expr", "message"), [
    ("plus(y = 5)", "'plus' is given no value for 'x'"),
    ("plus(1, x = 2)", "'plus' is given 'x' twice"),
    ("plus(1, z = 2)", "'plus' has no parameter 'z'"),
])
def test_the_checker_rejects_arguments_that_do_not_fit(tmp_path: Path, expr: str, message: str) -> None:
    rules = GAME.replace("DECLS", FUNCTIONS).replace("BODY", f"  set out to {expr}")
    assert message in diagnostics(tmp_path, "bad_call", rules)
