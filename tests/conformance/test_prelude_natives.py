"""Conformance: the native procedures of the core prelude (cardsmith/prelude/core.cards,
docs/language.md section 7): moving, shuffling, attaching, revealing, creating and
resetting cards; gaining, losing and paying counters; saying things. Each phrase is
written as a game would write it, in one action of a tiny played match.

(Turn flow and the end of the game: test_prelude_natives_flow.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, descriptions, emitted, events, take

GAME = '''
game "Natives" {
  id: natives
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter gold per player { start: 3 }
counter pool shared { start: 10 }
counter wear per card { start: 0 }
status tired
zone stock per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone field shared
zone pile shared { ordered }
zone bin shared { ordered }
board grid {
  size: 3 x 3
}
zone table shared { board: grid }
cardtype Gem {
  stats { value: number = 1 }
}
card "Ace" { type: Gem; value: 1 }
card "Two" { type: Gem; value: 2 }
card "Three" { type: Gem; value: 3 }
card "Ruby" { type: Gem; value: 4; copies: 2 }
setup {
  put (create("Ace", pile, player1)) on the bottom of pile
  put (create("Two", pile, player1)) on the bottom of pile
  put (create("Three", pile, player1)) on the bottom of pile
}
heuristic { value: out + gold + pool + count(all tired gems) + count(all gems where it.wear > 0)
  + count(stock) + count(hand) + count(field) + count(bin) + count(table) }
DECLS
action go "Go" {
  by: any
BODY
}
turn { stage main { actions: go; responses: yes } }
'''


def played(tmp_path: Path, body: str, decls: str = "", seat: int = 0, name: str = "natives") -> Any:
    match = build(tmp_path, name, GAME.replace("DECLS", decls).replace("BODY", body)).new_match(seed=1)
    assert names(match, "pile") == ["Ace", "Two", "Three"]
    if seat == 1:
        take(match, "pass", 0)
    take(match, "Go", seat)
    assert match.error is None, match.error
    return match


def names(match: Any, zone: str, seat: int | None = None) -> list[str]:
    owner = None if seat is None else match.players[seat]
    return [c.name for c in match.zone(zone, owner).cards]


def card(match: Any, name: str) -> Any:
    return next(c for c in match.all_cards() if c.name == name)


# ---------------------------------------------------------------- moving cards

@covers("prelude:move_cards")
def test_move_puts_cards_in_a_zone_and_raises_left_and_entered(tmp_path: Path) -> None:
    match = played(tmp_path, "  move top of pile to field\n  move all gems in pile to your hand")
    assert names(match, "field") == ["Ace"] and names(match, "hand", 0) == ["Two", "Three"]
    assert names(match, "pile") == []
    assert emitted(match, "left")[:1] == [["Ace#1", "pile"]]
    assert emitted(match, "entered")[:1] == [["Ace#1", "field"]]


@covers("prelude:move_cards")
def test_move_to_an_ordered_zone_puts_the_card_on_top(tmp_path: Path) -> None:
    match = played(tmp_path, "  move bottom of pile to bin\n  move top of pile to bin")
    assert names(match, "bin") == ["Ace", "Three"]


@covers("prelude:put_on_top", "prelude:put_on_bottom")
def test_put_on_top_and_on_the_bottom(tmp_path: Path) -> None:
    match = played(tmp_path, "  put (top of pile) on the bottom of pile\n  put (bottom of pile) on the bottom of bin\n"
                             "  put (top of pile) on top of bin")
    assert names(match, "pile") == ["Three"] and names(match, "bin") == ["Two", "Ace"]


@covers("prelude:shuffle")
def test_shuffle_reorders_a_zone_with_the_seeded_rng_and_logs_the_order(tmp_path: Path) -> None:
    orders = set()
    for seed in range(1, 7):
        rules = GAME.replace("DECLS", "").replace("BODY", "  shuffle pile")
        match = build(tmp_path / str(seed), "shuffle", rules).new_match(seed=seed)
        take(match, "Go")
        (logged,) = events(match, "shuffle")
        assert logged["zone"] == "pile" and logged["order"] == [c.id for c in match.zone("pile", None).cards]
        assert sorted(names(match, "pile")) == ["Ace", "Three", "Two"]
        orders.add(tuple(logged["order"]))
    assert len(orders) > 1


@covers("prelude:shuffle_into")
def test_shuffle_into_moves_then_shuffles(tmp_path: Path) -> None:
    match = played(tmp_path, "  move all gems in pile to field\n  shuffle all gems in field into bin")
    assert names(match, "field") == [] and sorted(names(match, "bin")) == ["Ace", "Three", "Two"]
    assert [e["zone"] for e in events(match, "shuffle")] == ["bin"]


@covers("prelude:place", "prelude:move_to_cell")
def test_place_and_move_to_cell_on_a_board(tmp_path: Path) -> None:
    body = ("  let ace = top of pile\n  place ace in table at cell(1, 2)\n"
            "  set out to position(ace).x * 10 + position(ace).y\n"
            "  move ace to cell cell(2, 0)\n  set pool to position(ace).x * 10 + position(ace).y")
    match = played(tmp_path, body)
    assert names(match, "table") == ["Ace"]
    assert (match.shared["out"], match.shared["pool"]) == (12, 20)
    assert card(match, "Ace").position == (2, 0)


@covers("prelude:attach", "prelude:detach")
def test_attach_and_detach(tmp_path: Path) -> None:
    body = ("  let ace = top of pile\n  let two = bottom of pile\n  move two to field\n"
            "  attach ace to two\n  if ace.host == two and ace in two.attached and ace.zone == field { set out to 1 }\n"
            "  detach ace\n  if ace.host == none and count(two.attached) == 0 { increase out by 10 }")
    match = played(tmp_path, body)
    assert match.shared["out"] == 11
    assert [(e["card"], e["host"]) for e in events(match, "attach")] == [("Ace#1", "Three#3")]


@covers("prelude:give_control")
def test_give_control_changes_the_controller_not_the_owner(tmp_path: Path) -> None:
    body = "  let ace = top of pile\n  give control of ace to player2\n  set out to count(all friendly gems)"
    match = played(tmp_path, body)
    ace = card(match, "Ace")
    assert ace.controller is match.players[1] and ace.owner is match.players[0]
    assert match.shared["out"] == 2


@covers("prelude:turn_face_down", "prelude:turn_face_up")
def test_turn_face_down_hides_a_card_from_the_other_players(tmp_path: Path) -> None:
    match = played(tmp_path, "  move all gems in pile to field\n  turn all gems in field where it.value > 1 face down")
    field = next(z for z in match.observation(1)["zones"] if z["zone"] == "field")
    assert [c.get("name") for c in field["cards"]] == ["Ace", None, None]
    own = next(z for z in match.observation(0)["zones"] if z["zone"] == "field")
    assert [c.get("name") for c in own["cards"]] == ["Ace", "Two", "Three"], "its controller still sees it"
    again = played(tmp_path / "up", "  move all gems in pile to field\n  turn all gems in field face down\n"
                                    "  turn top of pile face up\n  turn (first(all gems in field)) face up")
    field = next(z for z in again.observation(1)["zones"] if z["zone"] == "field")
    assert [c.get("name") for c in field["cards"]] == ["Ace", None, None]


@covers("prelude:reveal")
def test_reveal_logs_the_cards_shown(tmp_path: Path) -> None:
    match = played(tmp_path, "  reveal top 2 of pile\n  reveal top of pile to player2")
    assert [(e["cards"], e["to"]) for e in events(match, "reveal")] == [(["Ace#1", "Two#2"], None),
                                                                      (["Ace#1"], "player2")]


@covers("prelude:remove_from_game")
def test_remove_from_the_game_takes_a_card_out_of_every_zone(tmp_path: Path) -> None:
    match = played(tmp_path, "  let ace = top of pile\n  remove ace from the game\n"
                             "  if ace.zone == none { set out to count(all gems) }")
    assert names(match, "pile") == ["Two", "Three"] and match.shared["out"] == 2
    assert [e["card"] for e in events(match, "removed")] == ["Ace#1"]


@covers("prelude:reset_cards")
def test_reset_makes_a_card_the_printed_card_again(tmp_path: Path) -> None:
    body = ("  let two = top 2 of pile\n  let ace = first(two)\n  set ace.value to 9\n  increase ace.wear by 2\n"
            "  set ace.tired to yes\n  give control of ace to player2\n  increase ace.value by 5 until end of turn\n"
            "  reset two\n  set out to ace.value * 100 + ace.wear * 10 + count(all tired gems)")
    match = played(tmp_path, body)
    ace = card(match, "Ace")
    assert match.shared["out"] == 100
    assert ace.controller is ace.owner is match.players[0] and not ace.modifiers and not ace.statuses


@covers("prelude:create_copies")
def test_create_every_copy_makes_as_many_as_the_card_has_copies(tmp_path: Path) -> None:
    body = '  create every copy of "Ruby" in field\n  create every copy of "Ruby" in hand of player2 for player2'
    match = played(tmp_path, body)
    rubies = [c for c in match.all_cards() if c.name == "Ruby"]
    assert len(rubies) == 4 and names(match, "field") == ["Ruby", "Ruby"] and names(match, "hand", 1) == ["Ruby"] * 2
    assert [c.owner for c in match.zone("field", None).cards] == [None, None], "made in a shared zone: nobody's"
    assert all(c.owner is match.players[1] for c in match.zone("hand", match.players[1]).cards)


@covers("prelude:perform_effect")
def test_resolve_the_effect_of_runs_the_cards_effect(tmp_path: Path) -> None:
    decls = 'card "Spark" {\n  type: Gem\n  effect { increase you.gold by 4 }\n}\n'
    body = '  let spark = create("Spark", field, player1)\n  resolve the effect of spark'
    match = played(tmp_path, body, decls, seat=1)
    assert [p.counters["gold"] for p in match.players] == [3, 7], "for the player resolving it"


# ---------------------------------------------------------------- counters

@covers("prelude:gain", "prelude:lose")
@pytest.mark.parametrize(("body", "gold", "pool"), [
    ("  gain 2 gold", [5, 3], 10),
    ("  lose 2 gold", [1, 3], 10),
    ("  player2 gains 4 gold", [3, 7], 10),
    ("  player2 loses 1 gold", [3, 2], 10),
    ("  gain 5 pool", [3, 3], 15),            # a shared counter
    ("  lose 5 pool", [3, 3], 5),
])
def test_gain_and_lose(tmp_path: Path, body: str, gold: list[int], pool: int) -> None:
    match = played(tmp_path, body)
    assert [p.counters["gold"] for p in match.players] == gold and match.shared["pool"] == pool


@covers("prelude:pay")
def test_pay_takes_what_can_be_paid_and_a_cost_that_cannot_makes_the_action_illegal(tmp_path: Path) -> None:
    decls = ('action buy "Buy" {\n  by: any\n  choose n from [2, 3, 4]\n  cost { pay n gold }\n'
             '  increase out by n\n}\naction tithe "Tithe" {\n  by: any\n  player2 pays 3 gold\n}\n')
    rules = GAME.replace("DECLS", decls).replace("BODY", '  say "go"').replace("actions: go", "actions: go, buy, tithe")
    match = build(tmp_path, "pay", rules).new_match(seed=1)
    assert [d for d in descriptions(match) if d.startswith("Buy")] == ["Buy: 2", "Buy: 3"], "4 gold cannot be paid"
    take(match, "Buy: 3")
    assert match.players[0].counters["gold"] == 0 and match.shared["out"] == 3
    assert not any(d.startswith("Buy") for d in descriptions(match))
    take(match, "Tithe")
    assert match.players[1].counters["gold"] == 0


@covers("prelude:say")
def test_say_logs_a_message(tmp_path: Path) -> None:
    match = played(tmp_path, '  say "hello"\n  say "gold: " ')
    assert [e["message"] for e in events(match, "say")] == ["hello", "gold: "]
