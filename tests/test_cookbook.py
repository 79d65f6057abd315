"""docs/cookbook.md is executable: its page runs (every game checks clean and plays a
match to its end), and each recipe's tiny game does in a played match what the recipe
says it does — driven by hand through legal_actions / apply, as the conformance suite
drives its games (tests/conformance/support.py).

The games are read from the page itself (tests/docblocks.py), so a recipe that changes
on the page is the recipe tested here; a recipe added to the page without a test here
fails `test_every_recipe_on_the_page_has_a_test`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conformance.support import build, counter, emitted, events, offered, seat_of, stage_of, take, turn_order
from docblocks import run_page, steps

from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import MoveFinder

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cookbook.md"
RECIPES = 12

# recipe folder on the page -> the test below that proves it
TESTED = {
    "turn_order": "test_turn_order_reverse_skip_and_extra_turn",
    "shared_pile": "test_shared_pile_cards_act_for_the_player_who_drew_them",
    "simultaneous_reveal": "test_simultaneous_reveal_hides_a_pick_until_both_have_picked",
    "sealed_bids": "test_sealed_bids_are_unseen_until_all_have_bid_then_a_raise",
    "market_row": "test_market_row_offers_what_you_can_pay_and_refills",
    "enemy_deck": "test_enemy_deck_takes_its_turn_after_every_player",
    "stack": "test_a_response_resolves_before_the_spell_it_answers",
    "activated": "test_activated_abilities_of_cards_in_play",
    "grid": "test_grid_movement_to_free_neighbouring_cells",
    "hidden_deployment": "test_hidden_deployment_is_face_down_to_the_opponent",
    "coop": "test_coop_players_win_together_and_lose_together",
    "elimination": "test_an_eliminated_player_is_skipped_and_the_last_one_wins",
}


@pytest.fixture(autouse=True)
def legality_crosscheck(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the conformance suite: every legal-move computation runs both the compiled
    legality predicate and probing, and a difference fails the test."""
    monkeypatch.setattr(MoveFinder, "crosscheck", True)


def recipe_rules() -> dict[str, str]:
    """Each recipe's rules.cards as the page writes it, by its folder."""
    return {s.path.split("/")[0]: s.text for s in steps(PAGE) if s.path is not None}


def game(tmp_path: Path, recipe: str) -> Any:
    """The recipe's game, compiled (it must check with no error and no warning)."""
    return build(tmp_path, recipe, recipe_rules()[recipe])


def seats(match: PlayedMatch) -> list[int]:
    return [int(name.removeprefix("player")) for name in turn_order(match)]


def zone_view(match: PlayedMatch, viewer: int, zone: str, owner: str | None) -> list[dict[str, Any]]:
    view = match.observation(viewer)
    found: list[dict[str, Any]] = next(z["cards"] for z in view["zones"] if z["zone"] == zone and z["owner"] == owner)
    return found


def names(match: PlayedMatch, zone: str, seat: int | None) -> list[str]:
    return [c.name for c in match.zone(zone, None if seat is None else match.players[seat]).cards]


# ---------------------------------------------------------------- the page


def test_every_recipe_on_the_page_has_a_test() -> None:
    rules = recipe_rules()
    headings = [line for line in PAGE.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    assert len(rules) == len(headings) == RECIPES
    assert set(rules) == set(TESTED)
    assert all(name in globals() for name in TESTED.values())


def test_the_page_runs_every_game_checks_clean_and_plays_to_the_end(tmp_path: Path) -> None:
    ran = run_page(PAGE, tmp_path)
    checks = [(s, out) for s, out in ran if s.args[0] == "check"]
    plays = [(s, out) for s, out in ran if s.args[0] == "play"]
    assert len(checks) == len(plays) == RECIPES
    for step, out in checks:
        assert out.strip() == f"{step.args[1]}: ok", (step.line, out)  # no warning either
    for step, out in plays:
        result = json.loads(out.strip().splitlines()[0])
        assert result["over"] and result["error"] is None, (step.line, result)
        assert result["winners"], (step.line, result)


def anchors(page: Path) -> set[str]:
    """The anchors Markdown viewers give the page's headings (GitHub's rule), outside code."""
    heads, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if line.startswith("#") and not fenced:
            heads.append(line.lstrip("#").strip())
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def test_every_link_names_a_section_that_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    language = anchors(PAGE.parent / "language.md")
    to_language = re.findall(r"\(language\.md#([^)]+)\)", text)
    assert len(set(to_language)) >= 10 and set(to_language) <= language, set(to_language) - language
    inside = re.findall(r"\(#([^)]+)\)", text)
    assert len(inside) == RECIPES and set(inside) <= anchors(PAGE), set(inside) - anchors(PAGE)


# ---------------------------------------------------------------- 1. turn order


def test_turn_order_reverse_skip_and_extra_turn(tmp_path: Path) -> None:
    match = game(tmp_path, "turn_order").new_match(seed=1)
    assert len(match.players) == 3 and offered(match) == [
        (0, "Reverse"), (0, "Skip the next player"), (0, "Extra turn"), (0, "pass")]
    plan = {1: "Reverse", 4: "Skip the next player", 5: "Extra turn"}
    while match.turn_number < 7:
        move = plan.pop(match.turn_number, None)
        take(match, move or "pass")
    # reversed after player1: 3, 2; player1 skips the next player in that direction (player3);
    # player2 takes an extra turn, then play resumes with player1
    assert seats(match)[:7] == [1, 3, 2, 1, 2, 2, 1]
    assert [e["direction"] for e in events(match, "reverse_order")] == [-1]
    assert [e["player"] for e in events(match, "turn_skipped")] == ["player3"]
    assert [e["player"] for e in events(match, "extra_turn")] == ["player2"]
    # player1 spent 2 of 3 tricks: the extra turn (2) can no longer be paid, so it is not offered
    assert counter(match, 0, "tricks") == 1 and seat_of(match) == 0
    assert "Extra turn" not in [d for _s, d in offered(match)]


# ---------------------------------------------------------------- 2. shared draw pile


def test_shared_pile_cards_act_for_the_player_who_drew_them(tmp_path: Path) -> None:
    match = game(tmp_path, "shared_pile").new_match(seed=1)
    assert all(c.owner is None for c in match.all_cards()), "a shared pile's cards belong to nobody"
    gain = {"Coin": 1, "Treasure": 2, "Thief": 1}
    expected = [0, 0]
    kinds = set()
    while not match.is_over:
        me = match.current.index
        hand = match.zone("hand", match.current).cards
        assert len(hand) == 1, "the draw stage gave the current player the top card"
        card = hand[0]
        kinds.add(card.name)
        take(match, f"Play: {card.name}#{card.id}", me)
        expected[me] += gain[card.name]
        if card.name == "Thief":
            expected[1 - me] = max(0, expected[1 - me] - 1)
        assert [counter(match, s, "coins") for s in (0, 1)] == expected, card.name
    assert kinds == set(gain)
    assert events(match, "end_game") and events(match, "ranking")
    best = max(expected)
    assert match.result["winners"] == [f"player{s + 1}" for s in (0, 1) if expected[s] == best]


# ---------------------------------------------------------------- 3. simultaneous reveal


def test_simultaneous_reveal_hides_a_pick_until_both_have_picked(tmp_path: Path) -> None:
    match = game(tmp_path, "simultaneous_reveal").new_match(seed=1)
    assert offered(match) == [(0, "choose Rock#1 (c)"), (0, "choose Paper#2 (c)"), (0, "choose Scissors#3 (c)")]
    take(match, "choose Rock#1 (c)")
    # player1's card is on the table, but player2 is asked without seeing it
    assert seat_of(match) == 1 and names(match, "shown", 0) == ["Rock"]
    assert zone_view(match, 1, "shown", "player1") == [{"hidden": True}]
    assert zone_view(match, 0, "shown", "player1")[0]["name"] == "Rock"
    assert not events(match, "revealed")
    take(match, "choose Scissors#6 (c)")
    # revealed together; rock beats scissors; both cards went back to their hands
    assert len(events(match, "revealed")) == 1
    assert [counter(match, s, "points") for s in (0, 1)] == [1, 0]
    assert len(names(match, "hand", 0)) == len(names(match, "hand", 1)) == 3
    # three wins end the match
    for _round in range(2):
        take(match, "choose Paper#2 (c)")
        take(match, "choose Rock#4 (c)")
    assert match.is_over and match.result["winner"] == "player1"


# ---------------------------------------------------------------- 4. sealed bids and raises


def test_sealed_bids_are_unseen_until_all_have_bid_then_a_raise(tmp_path: Path) -> None:
    match = game(tmp_path, "sealed_bids").new_match(seed=1)
    assert stage_of(match) == "bidding"
    assert offered(match) == [(0, "Bid: 1"), (0, "Bid: 2"), (0, "Bid: 3"), (0, "pass")]
    take(match, "Bid: 3", 0)
    # sealed: not carried out, and player2 sees player1 as before
    assert seat_of(match) == 1 and match.hidden_from(1, len(match.moves) - 1)
    seen = match.observation(1)["players"][0]["counters"]
    assert (seen["bid"], seen["coins"]) == (0, 8)
    take(match, "Bid: 1", 1)
    assert events(match, "revealed")
    assert [(counter(match, s, "bid"), counter(match, s, "coins")) for s in (0, 1)] == [(3, 5), (1, 7)]
    # raising: player1 is ahead (no Raise for them, and their pass went by itself); player2 may raise once
    assert stage_of(match) == "raising" and offered(match) == [(1, "Raise"), (1, "pass")]
    take(match, "Raise", 1)
    bids = [(e["player"], e["value"]) for e in events(match, "counter") if e["counter"] == "bid" and e["value"]]
    assert bids == [("player1", 3), ("player2", 1), ("player2", 2)] and counter(match, 1, "coins") == 6
    # the window closed by itself (nobody had anything but pass); player1's 3 beat 2: the top prize
    assert names(match, "won", 0) == ["Gold Cup"] and counter(match, 0, "points") == 2
    assert names(match, "won", 1) == [] and names(match, "prizes", None) == ["Crown", "Silver Cup"]
    assert match.turn_number == 2 and stage_of(match) == "bidding"


# ---------------------------------------------------------------- 5. market row


def test_market_row_offers_what_you_can_pay_and_refills(tmp_path: Path) -> None:
    match = game(tmp_path, "market_row").new_match(seed=1)
    market = match.zone("market", None)
    assert len(market.cards) == 3 and counter(match, 0, "gold") == 2
    affordable = [f"Buy: {c.name}#{c.id}" for c in market.cards if c.base["cost"] <= 2]
    assert [d for _s, d in offered(match)] == [*affordable, "pass"]
    bought = next(c for c in market.cards if c.base["cost"] <= 2)
    take(match, f"Buy: {bought.name}#{bought.id}")
    assert bought.zone is match.zone("bought", match.players[0]) and len(market.cards) == 2
    assert counter(match, 0, "points") == bought.base["points"]
    assert counter(match, 0, "gold") == 2 - bought.base["cost"]
    take(match, "pass", 0)
    # the next turn began with the row dealt back to three
    assert match.current is match.players[1] and len(market.cards) == 3


# ---------------------------------------------------------------- 6. enemy deck


def test_enemy_deck_takes_its_turn_after_every_player(tmp_path: Path) -> None:
    compiled = game(tmp_path, "enemy_deck")
    solo = compiled.new_match(seed=1, players=1)
    assert len(solo.players) == 1 and offered(solo) == [(0, "Strike"), (0, "pass")]
    take(solo, "Strike")
    assert solo.shared["enemy_hp"] == 7
    # the round is over: the enemy stage flipped a card and it acted, then round 2 began
    assert len(solo.zone("enemy_discard", None).cards) == 1 and len(solo.zone("enemy_deck", None).cards) == 7
    marks = [e["args"][0] for e in solo.log if e["event"] == "emit" and e["name"] in (
        "turn_ended", "stage_started", "round_ended")]
    assert marks[:5] == ["main", "player1", "enemy", 1, "main"]
    hit = counter(solo, 0, "health") < 6 or solo.shared["enemy_hp"] > 7
    assert hit, "the flipped card did something"
    # two players: the enemy acts once a round, after both turns; beating it is a shared win
    duo = compiled.new_match(seed=1, players=2)
    take(duo, "Strike", 0)
    assert len(duo.zone("enemy_discard", None).cards) == 0, "not before every player has had a turn"
    while not duo.is_over:
        take(duo, "Strike" if "Strike" in [d for _s, d in offered(duo)] else "pass")
    assert duo.result["winners"] == ["player1", "player2"] and duo.shared["enemy_hp"] == 0


# ---------------------------------------------------------------- 7. response windows and a stack


def test_a_response_resolves_before_the_spell_it_answers(tmp_path: Path) -> None:
    match = game(tmp_path, "stack").new_match(seed=1)
    assert offered(match) == [(0, "Bolt: player2"), (0, "pass")]
    take(match, "Bolt: player2")
    assert [e["effect"] for e in events(match, "waiting")] == ["bolt"] and counter(match, 0, "mana") == 1
    # player2 may answer while the Bolt waits
    assert offered(match) == [(1, "Ward"), (1, "pass")]
    take(match, "Ward")
    # player1 may not Bolt again with the stack busy (by: current), only answer or pass
    assert offered(match) == [(0, "Ward"), (0, "pass")]
    take(match, "pass")
    # player2, their Ward used, could only pass: that went by itself, and both had passed in a row
    assert [e["action"] for e in events(match, "resolve")] == ["ward", "bolt"]
    assert counter(match, 1, "health") == 6 and counter(match, 1, "shield") == 0, "the shield took the bolt"
    # priority is back with player1, the stack empty; a second bolt finds no shield
    assert offered(match) == [(0, "Bolt: player2"), (0, "pass")] and not match.stack_programs
    take(match, "Bolt: player2")
    assert offered(match) == [(0, "Ward"), (0, "pass")], "player2 has used their Ward: their pass went by itself"
    take(match, "pass")
    assert counter(match, 1, "health") == 3


# ---------------------------------------------------------------- 8. activated abilities


def test_activated_abilities_of_cards_in_play(tmp_path: Path) -> None:
    match = game(tmp_path, "activated").new_match(seed=1)
    assert offered(match) == [(0, "Mine: Dig"), (0, "pass")]
    mine = match.zone("field", match.players[0]).cards[0]
    take(match, "Mine: Dig")
    assert counter(match, 0, "gold") == 1
    assert [(e["card"], e["on"]) for e in events(match, "status")] == [("Mine#1", True)], "its cost exhausted it"
    # exhausted, so only pass was left: it went by itself, and player2's turn readied every card
    assert match.current is match.players[1] and offered(match) == [(1, "Mine: Dig"), (1, "pass")]
    assert mine.statuses == set()
    take(match, "pass")
    for move in ("Mine: Dig", "pass", "Mine: Dig"):  # turns 3, 4, 5
        take(match, move)
    assert counter(match, 0, "gold") == 3
    assert offered(match) == [(0, "Build a Deep Mine"), (0, "pass")]
    take(match, "Build a Deep Mine")
    # the new card is in play and ready: its keyword's ability is offered at once
    assert offered(match) == [(0, "Deep Mine: Dig"), (0, "pass")]
    take(match, "Deep Mine: Dig")
    assert counter(match, 0, "gold") == 2


# ---------------------------------------------------------------- 9. grids and movement


def test_grid_movement_to_free_neighbouring_cells(tmp_path: Path) -> None:
    match = game(tmp_path, "grid").new_match(seed=1)
    west, east = match.zone("field", None).cards
    assert (west.position, east.position) == ((0, 2), (4, 2))

    def steps_offered() -> set[tuple[int, int]]:
        found = (re.fullmatch(r"Step: Pawn#\d+, \((\d), (\d)\)", d) for _s, d in offered(match))
        return {(int(m[1]), int(m[2])) for m in found if m}

    # king moves to free cells on the board
    assert steps_offered() == {(0, 1), (0, 3), (1, 1), (1, 2), (1, 3)}
    path = [(1, 2), (1, 1), (2, 0), (3, 1), (4, 1)]
    for cell in path:
        if cell == (1, 1):
            assert steps_offered() == {(0, 1), (0, 2), (0, 3), (1, 1), (1, 3)}, "never into the bog"
        take(match, f"Step: Pawn#{west.id}, {cell}", 0)
        assert west.position == cell
        if not match.is_over:
            take(match, "pass", 1)
    cells = [e["cell"] for e in events(match, "move") if e.get("card") == f"Pawn#{west.id}" and "cell" in e]
    assert cells[-1] == (4, 1)
    assert match.is_over and match.result["winner"] == "player1"


# ---------------------------------------------------------------- 10. hidden deployment


def test_hidden_deployment_is_face_down_to_the_opponent(tmp_path: Path) -> None:
    match = game(tmp_path, "hidden_deployment").new_match(seed=1)
    assert "pass" not in [d for _s, d in offered(match)], "pass: no"
    take(match, "Deploy: Knight#3, 0")
    mine = zone_view(match, 0, "field", None)
    assert mine[0]["name"] == "Knight" and mine[0]["position"] == [0, 0]
    assert zone_view(match, 1, "field", None) == [{"hidden": True}], "neither name nor cell"
    for move in ("Deploy: Scout#4, 0", "Deploy: Guard#2, 1", "Deploy: Knight#6, 1", "Deploy: Scout#1, 2"):
        take(match, move)
    assert len(events(match, "stage_skipped")) == 5 and not match.is_over
    take(match, "Deploy: Guard#5, 2")
    # all six down: flipped, each lane judged (3 > 1 for player1; 3 > 2 and 2 > 1 for player2)
    assert all(not c.face_down for c in match.zone("field", None).cards)
    assert [counter(match, s, "lanes_won") for s in (0, 1)] == [1, 2]
    assert match.is_over and match.result["winner"] == "player2"


# ---------------------------------------------------------------- 11. co-operative


def test_coop_players_win_together_and_lose_together(tmp_path: Path) -> None:
    compiled = game(tmp_path, "coop")
    won = compiled.new_match(seed=1)
    assert offered(won) == [(0, "Tend the lamp"), (0, "Pass oil along"), (0, "pass")]
    take(won, "Pass oil along")
    assert counter(won, 1, "oil") == 2 and counter(won, 0, "oil") == 1
    while not won.is_over:
        take(won, "Tend the lamp" if "Tend the lamp" in [d for _s, d in offered(won)] else "pass")
    assert won.shared["light"] == 8 and won.shared["storm"] < 6
    assert won.result["winners"] == ["player1", "player2"] and won.result["winner"] is None
    assert [e["players"] for e in events(won, "win")] == [["player1", "player2"]]
    lost = compiled.new_match(seed=1)
    while not lost.is_over:
        take(lost, "pass")
    # six rounds of storm: every player lost in the same check, and nobody wins
    assert lost.round_number == 6 and lost.shared["storm"] == 6
    assert lost.result["winners"] == [] and all(p.eliminated for p in lost.players)
    assert len(events(lost, "everyone_lost")) == 1


# ---------------------------------------------------------------- 12. elimination


def test_an_eliminated_player_is_skipped_and_the_last_one_wins(tmp_path: Path) -> None:
    match = game(tmp_path, "elimination").new_match(seed=1)
    assert len(match.players) == 3 and offered(match) == [(0, "Hit: player2"), (0, "Hit: player3")]
    for move in ("Hit: player2", "Hit: player1", "Hit: player2", "Hit: player2"):
        take(match, move)
    assert match.players[1].eliminated and [e["player"] for e in events(match, "lose")] == ["player2"]
    # player2 is out: their turn is passed over and they are no longer a target
    assert match.current is match.players[2] and offered(match) == [(2, "Hit: player1")]
    for move in ("Hit: player1", "Hit: player3", "Hit: player1"):
        take(match, move)
    assert seats(match)[:7] == [1, 2, 3, 1, 3, 1, 3]
    assert match.is_over and match.result["winner"] == "player3"
    assert emitted(match, "turn_started")[-1] == ["player3"]
