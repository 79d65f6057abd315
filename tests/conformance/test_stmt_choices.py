"""Conformance: decisions — `choose [N | up to N | any number of] x from expr [where cond]
[by player] [hidden] [optional]`, `choose one [by player] { option ... }` and
`simultaneously { }` (docs/language.md section 3).

A `say "begin"` before each choice makes it a decision inside the effect (asked after the
action is taken), not one of the action's parameters (which are offered with the action).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardsmith.engine.moves import MAX_COMBINATIONS
from conformance.support import build, covers, descriptions, events, offered, seat_of, take

GAME = '''
game "Choices" {
  id: choices
  players: 2
  first_player: seat1
}
counter out shared { start: 0 }
counter picked per player { start: 0 }
zone field shared
zone hand per player { visibility: owner }
zone table shared
cardtype Gem {
  stats { value: number = 1 }
}
card "Ruby" { type: Gem; value: 4 }
card "Jade" { type: Gem; value: 3 }
card "Opal" { type: Gem; value: 2 }
setup {
  let ruby = create("Ruby", field, player1)
  let jade = create("Jade", field, player1)
  let opal = create("Opal", field, player2)
}
heuristic { value: out + picked + count(hand) + count(table) }
DECLS
action go "Go" {
BODY
}
turn { stage main { actions: go } }
'''


def game_with(tmp_path: Path, body: str, decls: str = "", name: str = "choices") -> Any:
    return build(tmp_path, name, GAME.replace("DECLS", decls).replace("BODY", body))


def started(tmp_path: Path, body: str, decls: str = "") -> Any:
    """A match where player1 has taken Go and the effect now asks."""
    match = game_with(tmp_path, '  say "begin"\n' + body, decls).new_match(seed=1)
    take(match, "Go")
    assert match.error is None, match.error
    return match


# ---------------------------------------------------------------- choose

@covers("Choose.var", "Choose.source", "ChooseCount.mode=one")
def test_choose_one_card_from_a_query_binds_it(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose g from all gems in field\n  set out to g.value")
    assert offered(match) == [(0, "choose Ruby#1 (g)"), (0, "choose Jade#2 (g)"), (0, "choose Opal#3 (g)")]
    take(match, "choose Jade#2 (g)")
    assert match.shared["out"] == 3


@covers("Choose.source", "Choose.var")
def test_a_leading_choose_is_the_actions_parameter(tmp_path: Path) -> None:
    body = "  choose g from all gems in field where it.value > 2\n  set out to g.value"
    match = game_with(tmp_path, body).new_match(seed=1)
    assert descriptions(match) == ["Go: Ruby#1", "Go: Jade#2", "pass"]
    take(match, "Go: Ruby#1")
    assert match.shared["out"] == 4


@covers("Choose.condition")
def test_where_filters_a_list_source(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose n from [1, 2, 3, 4] where it % 2 == 0\n  set out to n")
    assert descriptions(match) == ["choose 2 (n)", "choose 4 (n)"]
    take(match, "choose 4 (n)")
    assert match.shared["out"] == 4


@covers("Choose.condition", "Choose.source")
def test_a_choice_with_one_option_is_not_asked_and_with_none_the_effect_fizzles(tmp_path: Path) -> None:
    body = ("  choose n from [1, 2, 3] where it > 2\n  set out to n\n"
            "  choose m from [1, 2, 3] where it > 5\n  set out to 99")
    match = started(tmp_path, body)
    # the only option is taken without asking; the empty choice stops the effect there
    assert match.shared["out"] == 3
    assert [e["label"] for e in events(match, "fizzled")] == ["m"]
    assert match.turn_number == 1 and descriptions(match) == ["Go", "pass"]


@covers("Choose.by")
def test_by_gives_the_decision_to_another_player(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose g from all gems in field by opponent\n  set out to g.value\n"
                              "  increase you.picked by 1")
    assert seat_of(match) == 1
    take(match, "choose Opal#3 (g)", 1)
    # the choice was player2's, the effect still player1's
    assert match.shared["out"] == 2 and match.players[0].counters["picked"] == 1


@covers("Choose.by", "Choose.condition")
def test_by_comes_after_where(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose n from [1, 2, 3] where it > 1 by player2\n  set out to n")
    assert offered(match) == [(1, "choose 2 (n)"), (1, "choose 3 (n)")]
    take(match, "choose 3 (n)")
    assert match.shared["out"] == 3


@covers("Choose.hidden")
def test_hidden_offers_places_not_cards(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose g from all gems in field hidden\n  move g to your hand")
    assert descriptions(match) == ["choose card 1 of 3 (g)", "choose card 2 of 3 (g)", "choose card 3 of 3 (g)"]
    take(match, "choose card 3 of 3 (g)")
    assert [c.name for c in match.zone("hand", match.players[0]).cards] == ["Opal"]


@covers("Choose.optional")
def test_optional_may_choose_nothing(tmp_path: Path) -> None:
    body = "  choose g from all gems in field optional\n  if g == none { set out to 50 } else { set out to g.value }"
    match = started(tmp_path, body)
    assert descriptions(match)[-1] == "choose nothing" and len(descriptions(match)) == 4
    take(match, "choose nothing")
    assert match.shared["out"] == 50
    again = started(tmp_path / "again", body)
    take(again, "choose Ruby#1 (g)")
    assert again.shared["out"] == 4


@covers("Choose.optional")
def test_an_optional_choice_with_nothing_to_choose_binds_none_and_goes_on(tmp_path: Path) -> None:
    body = "  choose g from all gems in hand optional\n  if g == none { set out to 50 }"
    match = started(tmp_path, body)
    assert match.shared["out"] == 50 and not events(match, "fizzled")


@covers("Choose.count", "ChooseCount.mode=exact", "ChooseCount.n")
def test_choose_n_binds_a_list_of_exactly_n(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose 2 gs from all gems in field\n  set out to count(gs) * 100 + sum(gs, value)")
    offers = descriptions(match)
    assert offers and all(d.count("#") == 2 for d in offers)
    assert "choose ['Jade#2', 'Opal#3'] (gs)" in offers
    take(match, "choose ['Jade#2', 'Opal#3'] (gs)")
    assert match.shared["out"] == 205


@covers("Choose.count", "ChooseCount.mode=up_to", "ChooseCount.n")
def test_choose_up_to_n_allows_fewer_even_none(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose up to 2 gs from all gems in field\n"
                              "  set out to 10 + count(gs) * 100 + sum(gs, value)")
    offers = descriptions(match)
    assert "choose [] (gs)" in offers and max(d.count("#") for d in offers) == 2
    assert any(d.count("#") == 1 for d in offers)
    take(match, "choose [] (gs)")
    assert match.shared["out"] == 10


@covers("Choose.count", "ChooseCount.mode=any")
def test_choose_any_number_of_allows_none_to_all(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose any number of gs from all gems in field\n"
                              "  set out to 10 + count(gs) * 100 + sum(gs, value)")
    offers = descriptions(match)
    assert "choose [] (gs)" in offers and "choose ['Ruby#1', 'Jade#2', 'Opal#3'] (gs)" in offers
    take(match, "choose ['Ruby#1', 'Jade#2', 'Opal#3'] (gs)")
    assert match.shared["out"] == 10 + 300 + 9


@covers("ChooseCount.mode=up_to", "ChooseCount.mode=any")
def test_choose_up_to_n_offers_every_combination(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose up to 2 gs from all gems in field\n  set out to count(gs)")
    assert {"choose ['Ruby#1'] (gs)", "choose ['Ruby#1', 'Opal#3'] (gs)"} <= set(descriptions(match))


@covers("ChooseCount.mode=exact", "ChooseCount.mode=any")
def test_picks_of_several_are_every_combination_in_order_and_bounded(tmp_path: Path) -> None:
    match = started(tmp_path, "  choose 2 gs from [1, 1, 2, 3]\n  set out to sum(gs)")
    assert descriptions(match) == ["choose [1, 1] (gs)", "choose [1, 2] (gs)", "choose [1, 3] (gs)",
                                   "choose [2, 3] (gs)"], "in the options' order, equal groups once"
    assert not match.offers_cut
    match = started(tmp_path, "  choose any number of gs from 1..12\n  set out to count(gs)")
    offers = descriptions(match)
    assert len(offers) == MAX_COMBINATIONS and offers[:2] == ["choose [] (gs)", "choose [1] (gs)"]
    assert sum(match.offers_cut.values()) == 1, "2^12 groups: the rest are cut, and the cut is counted"


@covers("ChooseCount.mode=exact")
def test_a_leading_pick_of_several_is_offered_with_each_combination(tmp_path: Path) -> None:
    match = game_with(tmp_path, "  choose 2 gs from all gems in field\n  set out to sum(gs, value)").new_match(seed=1)
    assert descriptions(match) == ["Go: ['Ruby#1', 'Jade#2']", "Go: ['Ruby#1', 'Opal#3']",
                                   "Go: ['Jade#2', 'Opal#3']", "pass"]
    take(match, "Go: ['Ruby#1', 'Opal#3']")
    assert match.shared["out"] == 6


# ---------------------------------------------------------------- choose one

CHOOSE_ONE = '''  choose one BY{
    option "Gain two" { set out to 2 }
    option "Gain three" {
      set out to 3
      increase you.picked by 1
    }
  }'''


@covers("ChooseOne.options", "Option.label", "Option.body")
@pytest.mark.parametrize(("label", "expected"), [("Gain two", (2, 0)), ("Gain three", (3, 1))])
def test_choose_one_runs_the_chosen_option(tmp_path: Path, label: str, expected: tuple[int, int]) -> None:
    match = started(tmp_path, CHOOSE_ONE.replace("BY", ""))
    assert offered(match) == [(0, "choose 'Gain two'"), (0, "choose 'Gain three'")]
    take(match, f"choose '{label}'")
    assert (match.shared["out"], match.players[0].counters["picked"]) == expected


@covers("ChooseOne.by")
def test_choose_one_by_another_player(tmp_path: Path) -> None:
    match = started(tmp_path, CHOOSE_ONE.replace("BY", "by opponent "))
    assert offered(match) == [(1, "choose 'Gain two'"), (1, "choose 'Gain three'")]
    take(match, "choose 'Gain three'")
    # player2 chose; `you` in the option is still the acting player1
    assert match.shared["out"] == 3 and match.players[0].counters["picked"] == 1


# ---------------------------------------------------------------- simultaneously

SIMULTANEOUS_DECLS = '''
setup {
  for each p in players {
    let r = create("Ruby", hand of p, p)
    let o = create("Opal", hand of p, p)
  }
}
'''

SIMULTANEOUS_BODY = '''  simultaneously {
    for each p in players {
      choose g from all gems in hand of p by p
      move g to table
      increase p.picked by g.value
    }
  }
  set out to count(table)'''


@covers("Simultaneously.body")
def test_simultaneously_seals_each_pick_until_the_block_ends(tmp_path: Path) -> None:
    rules = GAME.replace("DECLS", SIMULTANEOUS_DECLS).replace("BODY", SIMULTANEOUS_BODY)
    match = build(tmp_path, "simultaneously", rules).new_match(seed=1)
    take(match, "Go")
    assert offered(match) == [(0, "choose Ruby#4 (g)"), (0, "choose Opal#5 (g)")]
    take(match, "choose Opal#5 (g)")
    # player2 picks without seeing player1's pick: the move is sealed, the card hidden on the table
    assert offered(match) == [(1, "choose Ruby#6 (g)"), (1, "choose Opal#7 (g)")]
    pick = len(match.moves) - 1
    assert match.hidden_from(1, pick) and not match.hidden_from(0, pick)
    table = next(z for z in match.observation(1)["zones"] if z["zone"] == "table")
    assert table["cards"] == [{"hidden": True}]
    assert not events(match, "revealed")
    take(match, "choose Ruby#6 (g)")
    # the block ended: both picks revealed together
    assert len(events(match, "revealed")) == 1 and not match.hidden_from(1, pick)
    table = next(z for z in match.observation(1)["zones"] if z["zone"] == "table")
    assert [c["name"] for c in table["cards"]] == ["Opal", "Ruby"]
    assert [p.counters["picked"] for p in match.players] == [2, 4] and match.shared["out"] == 2
