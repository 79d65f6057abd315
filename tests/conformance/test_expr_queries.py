"""Conformance: queries and `top/bottom N of zone` (docs/language.md section 4, "queries":
`DET [N | up to N] [adjectives] noun [in zone] [where cond]`).

The table: player1 controls Ruby (4, Red, tired) and Jade (3, Blue) on the field,
player2 controls Opal (2, Blue) on the field; a Penny (a coin) lies in player1's hand;
the shared ordered pile holds Ace, Two, Three from top to bottom.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.support import build, covers, descriptions, events, take

GAME = '''
game "Queries" {
  id: queries
  players: 2
  first_player: seat1
}
enum Colour { Red; Blue }
counter out shared { start: 0 }
counter wealth per player { start: 0 }
status tired
zone field shared
zone pile shared { ordered }
zone hand per player { visibility: owner }
cardtype Gem {
  stats { value: number = 1 }
  properties { colour: Colour = Red }
  enters: field
}
cardtype Coin {
  plural: coinage
  stats { worth: number = 1 }
}
cardtype Number {
  stats { rank: number = 0 }
}
card "Ruby" { type: Gem; value: 4 }
card "Jade" { type: Gem; value: 3; colour: Blue }
card "Opal" { type: Gem; value: 2; colour: Blue }
card "Penny" { type: Coin }
card "Ace" { type: Number; rank: 1 }
card "Two" { type: Number; rank: 2 }
card "Three" { type: Number; rank: 3 }
setup {
  let ruby = create("Ruby", field, player1)
  let jade = create("Jade", field, player1)
  let opal = create("Opal", field, player2)
  let penny = create("Penny", hand of player1, player1)
  set ruby.tired to yes
  let ace = create("Ace", pile, player1)
  put (create("Two", pile, player1)) on the bottom of pile
  put (create("Three", pile, player1)) on the bottom of pile
  set player2.wealth to 5
}
heuristic { value: out + wealth + count(all tired coinage) + sum(all coinage, worth) }
DECLS
action go "Go" {
BODY
}
turn { stage main { actions: go } }
'''


def game_with(tmp_path: Path, body: str, decls: str = "") -> Any:
    return build(tmp_path, "queries", GAME.replace("DECLS", decls).replace("BODY", body))


def read(tmp_path: Path, expr: str, decls: str = "") -> Any:
    match = game_with(tmp_path, f"  set out to {expr}", decls).new_match(seed=1)
    assert [c.name for c in match.zone("pile", None).cards] == ["Ace", "Two", "Three"]
    take(match, "Go")
    assert match.error is None, match.error
    return match.shared["out"]


# ---------------------------------------------------------------- all matches

@covers("Query.det", "Query.noun")
@pytest.mark.parametrize(("expr", "expected"), [
    ("count(each gem)", 3),
    ("count(every gem)", 3),
    ("count(all gems)", 3),
    ("count(all coinage)", 1),     # a declared plural
    ("count(all cards)", 7),       # every card of every type
    ("count(each card)", 7),
    ("count(each coin)", 1),
    ("count(all numbers)", 3),
])
def test_each_every_all_name_every_match_of_the_noun(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, expr) == expected


@covers("Query.zone")
@pytest.mark.parametrize(("expr", "expected"), [
    ("count(all cards in field)", 3),
    ("count(all cards in hand of player1)", 1),
    ("count(all cards in your hand)", 1),
    ("count(all cards in hand of player2)", 0),
    ("count(all gems in pile)", 0),
    ("count(all cards from pile)", 3),
])
def test_in_zone_limits_a_query_to_one_zone(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, expr) == expected


@covers("Query.where")
@pytest.mark.parametrize(("expr", "expected"), [
    ("count(all gems where it.value >= 3)", 2),
    ("count(all gems in field where it.colour == Blue and it.value < 3)", 1),
    ("sum(all numbers where it.rank != 2, rank)", 4),
])
def test_where_keeps_the_matches_for_which_it_holds(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, expr) == expected


@covers("Query.adjectives")
@pytest.mark.parametrize(("expr", "expected"), [
    ("count(all Blue gems)", 2),            # an enum value
    ("count(all tired gems)", 1),           # a status
    ("count(all friendly gems)", 2),        # controlled by you (player1)
    ("count(all enemy gems)", 1),
    ("count(all friendly Blue gems)", 1),   # each adjective narrows
    ("count(all tired Blue gems)", 0),
])
def test_adjectives_narrow_the_matches(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, expr) == expected


@covers("Query.adjectives", "Query.det")
def test_other_and_another_leave_out_the_card_whose_ability_runs(tmp_path: Path) -> None:
    decls = '''card "Lens" {
  type: Gem
  activate "Count" { set out to count(all other gems) * 10 + count(all gems) }
  activate "Pick" {
    let g = another gem
    set out to g.value
  }
}
setup { let lens = create("Lens", field, player1) }'''
    rules = GAME.replace("DECLS", decls).replace("BODY", '  say "go"').replace("actions: go", "actions: go, activate")
    match = build(tmp_path, "other", rules).new_match(seed=1)
    assert "Lens: Pick: Lens#8" not in descriptions(match)
    assert [d for d in descriptions(match) if d.startswith("Lens: Pick")] == [
        "Lens: Pick: Ruby#1", "Lens: Pick: Jade#2", "Lens: Pick: Opal#3"]
    take(match, "Lens: Count")
    assert match.shared["out"] == 34


@covers("Query.det", "Choose.source")
def test_choose_from_another_leaves_out_the_card_itself(tmp_path: Path) -> None:
    decls = '''card "Lens" {
  type: Gem
  activate "Pick" {
    choose g from another gem
    set out to g.value
  }
}
setup { let lens = create("Lens", field, player1) }'''
    rules = GAME.replace("DECLS", decls).replace("BODY", '  say "go"').replace("actions: go", "actions: go, activate")
    match = build(tmp_path, "another", rules).new_match(seed=1)
    assert [d for d in descriptions(match) if d.startswith("Lens: Pick")] == [
        "Lens: Pick: Ruby#1", "Lens: Pick: Jade#2", "Lens: Pick: Opal#3"]


@covers("Query.noun")
@pytest.mark.parametrize(("expr", "expected"), [
    ("count(each player)", 2),
    ("count(all players)", 2),
    ("count(each opponent)", 1),
    ("count(all opponents where it.wealth > 0)", 1),
    ("count(all players where it.wealth > 9)", 0),
])
def test_player_nouns_select_players(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, expr) == expected


# ---------------------------------------------------------------- choices

@covers("Query.noun", "Query.det", "Query.where")
def test_a_player_where_asks_for_a_player(tmp_path: Path) -> None:
    match = game_with(tmp_path, "  let p = a player where it.wealth > 0\n  set out to p.seat").new_match(seed=1)
    assert descriptions(match) == ["Go: player2", "pass"]
    take(match, "Go: player2")
    assert match.shared["out"] == 2


@covers("Query.det")
@pytest.mark.parametrize("det", ["target", "a", "any"])
def test_target_a_any_ask_the_acting_player_to_pick_one(tmp_path: Path, det: str) -> None:
    body = f"  let g = {det} gem where it.value > 2\n  set out to g.value"
    match = game_with(tmp_path, body).new_match(seed=1)
    # a leading pick is the action's parameter: one offer per legal match
    assert descriptions(match) == ["Go: Ruby#1", "Go: Jade#2", "pass"]
    take(match, "Go: Jade#2")
    assert match.shared["out"] == 3


@covers("Query.det")
def test_an_inside_an_effect_asks_after_the_action_is_taken(tmp_path: Path) -> None:
    body = '  say "first"\n  let g = an gem where it.colour == Blue\n  set out to g.value'
    match = game_with(tmp_path, body).new_match(seed=1)
    take(match, "Go")
    assert descriptions(match) == ["choose Jade#2 (gem)", "choose Opal#3 (gem)"]
    take(match, "choose Opal#3 (gem)")
    assert match.shared["out"] == 2


@covers("Query.det")
def test_random_picks_a_match_with_the_seeded_rng_and_logs_it(tmp_path: Path) -> None:
    picks = set()
    for seed in range(1, 9):
        match = game_with(tmp_path / str(seed), "  let g = random gem\n  set out to g.value").new_match(seed=seed)
        take(match, "Go")
        (logged,) = events(match, "random")
        card = next(c for c in match.all_cards() if f"{c.name}#{c.id}" == logged["picked"])
        assert match.shared["out"] == card.base["value"]
        picks.add(logged["picked"])
    assert picks == {"Ruby#1", "Jade#2", "Opal#3"}


@covers("Query.count")
def test_random_n_picks_that_many_distinct_matches(tmp_path: Path) -> None:
    body = "  let gs = random 2 gems\n  set out to count(gs) * 100 + sum(gs, value)"
    match = game_with(tmp_path, body).new_match(seed=3)
    take(match, "Go")
    (logged,) = events(match, "random")
    assert len(set(logged["picked"])) == 2
    values = {"Ruby#1": 4, "Jade#2": 3, "Opal#3": 2}
    assert match.shared["out"] == 200 + sum(values[p] for p in logged["picked"])


@covers("Query.count")
def test_a_n_asks_for_exactly_n_matches(tmp_path: Path) -> None:
    body = '  say "first"\n  let gs = a 2 gems\n  set out to count(gs) * 100 + sum(gs, value)'
    match = game_with(tmp_path, body).new_match(seed=1)
    take(match, "Go")
    offers = descriptions(match)
    assert offers and all(d.startswith("choose [") and d.count("#") == 2 for d in offers)
    take(match, offers[-1])
    assert match.shared["out"] == 200 + 3 + 2


@covers("Query.count", "Query.up_to")
def test_up_to_n_allows_fewer_and_none(tmp_path: Path) -> None:
    body = '  say "first"\n  let gs = any up to 2 gems\n  set out to 10 + count(gs) * 100 + sum(gs, value)'
    match = game_with(tmp_path, body).new_match(seed=1)
    take(match, "Go")
    offers = descriptions(match)
    assert "choose [] (gems)" in offers and all(d.count("#") <= 2 for d in offers)
    assert any(d.count("#") == 1 for d in offers) and any(d.count("#") == 2 for d in offers)
    take(match, "choose [] (gems)")
    assert match.shared["out"] == 10


@covers("Query.count", "ChooseCount.mode=exact")
def test_a_n_offers_every_combination(tmp_path: Path) -> None:
    body = '  say "first"\n  let gs = a 2 gems\n  set out to sum(gs, value)'
    match = game_with(tmp_path, body).new_match(seed=1)
    take(match, "Go")
    assert sorted(descriptions(match)) == sorted([
        "choose ['Ruby#1', 'Jade#2'] (gems)", "choose ['Ruby#1', 'Opal#3'] (gems)",
        "choose ['Jade#2', 'Opal#3'] (gems)"])


@covers("Query.count", "Query.up_to")
def test_a_leading_pick_of_several_cards_offers_each_combination(tmp_path: Path) -> None:
    body = "  let gs = any up to 2 gems\n  set out to sum(gs, value)"
    match = game_with(tmp_path, body).new_match(seed=1)
    offers = [d for d in descriptions(match) if d != "pass"]
    assert "Go: []" in offers or "Go" in offers
    assert "Go: ['Ruby#1', 'Opal#3']" in offers and "Go: ['Opal#3']" in offers


# ---------------------------------------------------------------- top / bottom of a zone

@covers("TopOf.zone", "TopOf.count", "TopOf.bottom")
@pytest.mark.parametrize(("expr", "expected"), [
    ("(top of pile).rank", 1),
    ("(bottom of pile).rank", 3),
    ("sum(top 2 of pile, rank)", 3),
    ("sum(bottom 2 of pile, rank)", 5),
    ("count(top 5 of pile)", 3),          # no more than the zone holds
    ("count(top 0 of pile)", 0),
])
def test_top_and_bottom_of_an_ordered_zone(tmp_path: Path, expr: str, expected: int) -> None:
    assert read(tmp_path, expr) == expected


@covers("TopOf.zone", "TopOf.count")
def test_top_n_takes_a_computed_count_and_an_empty_zone_has_no_top(tmp_path: Path) -> None:
    body = ("  let n = 2\n  move top n of pile to hand of player2\n"
            "  if top of hand of player1 != none and top of (hand of player2) != none { set out to 1 }\n"
            "  move all cards in pile to hand of player2\n  if top of pile == none { increase out by 10 }")
    match = game_with(tmp_path, body).new_match(seed=1)
    take(match, "Go")
    assert [c.name for c in match.zone("hand", match.players[1]).cards] == ["Ace", "Two", "Three"]
    assert match.shared["out"] == 11
