"""Conformance: `zone` and `board` declarations (docs/language.md §2), played."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conftest import write_game

from cardsmith.compiler.api import check_game
from cardsmith.engine.flow import PlayedMatch
from conformance.support import build, covers, diagnostics, panel, screen, take

ZONES = '''
game "Zones" {
  id: zones
  players: 2
  first_player: seat1
}
zone pile per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone table per player { visibility: public }
zone bag shared
zone tray shared { ordered; visibility: public; capacity: 2 }
cardtype Chip { stats { v: number = 0 } }
card "Ace" { type: Chip; v: 1 }
card "Bee" { type: Chip; v: 2 }
card "Cat" { type: Chip; v: 3 }
setup {
  for each p in players {
    for each name in catalog() { let c = create(name, pile of p, p) }
  }
  for each name in catalog() { let c = create(name, bag, player1) }
}
action draw "Draw" { move top of your pile to your hand }
action show "Show" {
  choose c from a chip in your hand
  move c to your table
}
action stash "Stash" {
  choose c from a chip in your table
  put c on the bottom of your pile
}
action fill "Fill" {
  choose c from a chip in bag
  move c to tray
}
turn {
  stage main { actions: draw, show, stash, fill }
}
'''


def view(match: PlayedMatch, viewer: int, zone: str, owner: str | None) -> dict[str, Any]:
    return next(z for z in match.observation(viewer)["zones"] if z["zone"] == zone and z["owner"] == owner)


def names(match: PlayedMatch, zone: str, seat: int | None) -> list[str]:
    return [c.name for c in match.zone(zone, match.players[seat] if seat is not None else None).cards]


@covers("ZoneDecl.name", "ZoneDecl.scope=player", "ZoneDecl.scope=shared", "ZoneDecl.ordered")
def test_per_player_and_shared_zones_and_the_top_of_an_ordered_zone(tmp_path: Path) -> None:
    game = build(tmp_path, "zones", ZONES)
    match = game.new_match(seed=1)
    # one pile per player, one shared bag
    pile = names(match, "pile", 0)
    assert sorted(pile) == ["Ace", "Bee", "Cat"] and names(match, "pile", 1) == pile
    assert sorted(names(match, "bag", None)) == ["Ace", "Bee", "Cat"]
    assert match.zone("pile", match.players[0]) is not match.zone("pile", match.players[1])
    take(match, "Draw")
    top, second, third = pile
    assert names(match, "hand", 0) == [top] and names(match, "pile", 1) == pile, "the top card, of your own pile"
    card = match.zone("hand", match.players[0]).cards[0]
    take(match, f"Show: {top}#{card.id}")
    take(match, f"Stash: {top}#{card.id}")
    # put on the bottom of an ordered zone: the next card is on top now
    assert names(match, "pile", 0) == [second, third, top]
    take(match, "Draw")
    assert names(match, "hand", 0) == [second]
    # a card moved to an ordered zone goes on top
    bag = {c.name: c.id for c in match.zone("bag", None).cards}
    take(match, f"Fill: Cat#{bag['Cat']}")
    take(match, f"Fill: Ace#{bag['Ace']}")
    assert names(match, "tray", None) == ["Ace", "Cat"]


@covers("ZoneDecl.visibility=hidden", "ZoneDecl.visibility=owner", "ZoneDecl.visibility=public")
def test_visibility_decides_who_sees_the_cards(tmp_path: Path) -> None:
    game = build(tmp_path, "zones", ZONES)
    match = game.new_match(seed=1)
    take(match, "Draw")
    take(match, "Draw")
    shown, kept = match.zone("hand", match.players[0]).cards
    take(match, f"Show: {shown.name}#{shown.id}")
    # hidden: nobody sees the faces, not even the owner — only how many
    for viewer in (0, 1):
        pile = view(match, viewer, "pile", "player1")
        assert pile["size"] == 1 and pile["cards"] == []
    # owner: only the owner sees their hand
    assert [c["name"] for c in view(match, 0, "hand", "player1")["cards"]] == [kept.name]
    assert view(match, 1, "hand", "player1") == {"zone": "hand", "owner": "player1", "size": 1, "cards": []}
    # public (also the default, for the bag): everyone
    for viewer in (0, 1):
        assert [c["name"] for c in view(match, viewer, "table", "player1")["cards"]] == [shown.name]
        assert sorted(c["name"] for c in view(match, viewer, "bag", None)["cards"]) == ["Ace", "Bee", "Cat"]


@covers("ZoneDecl.capacity")
def test_a_full_zone_takes_no_more_cards(tmp_path: Path) -> None:
    game = build(tmp_path, "zones", ZONES)
    match = game.new_match(seed=1)
    take(match, "Fill: Ace#7")
    take(match, "Fill: Bee#8")
    take(match, "Fill: Cat#9")
    assert match.error is None, "a full zone is a game situation, not a broken rule"
    assert names(match, "tray", None) == ["Bee", "Ace"] and names(match, "bag", None) == ["Cat"]
    assert [(e["card"], e["zone"]) for e in match.log if e["event"] == "zone_full"] == [("Cat#9", "tray")]
    assert not [e for e in match.log if e["event"] == "emit" and e["args"][:1] == ["Cat#9"]], "Cat never moved"


@covers("ZoneDecl.capacity")
def test_a_card_made_in_a_full_zone_stays_out_of_the_game(tmp_path: Path) -> None:
    rules = ZONES.replace("capacity: 2", "capacity: size(bag) - 2").replace(
        "  for each name in catalog() { let c = create(name, bag, player1) }",
        "  for each name in catalog() { let c = create(name, bag, player1) }\n"
        "  for each name in catalog() { let t = create(name, tray, player1) }")
    match = build(tmp_path, "made", rules).new_match(seed=1)
    assert names(match, "tray", None) == ["Ace"], "the capacity is an expression, read as a card goes in"
    assert [e["card"] for e in match.log if e["event"] == "zone_full"] == ["Bee#11", "Cat#12"]
    assert match.removed_cards == 2 and match.error is None


@covers("ZoneDecl.label")
def test_a_zones_label_is_the_name_shown_to_players(tmp_path: Path) -> None:
    rules = ZONES.replace("zone bag shared", 'zone bag shared { label: "Bag of Holding" }')
    rules = rules.replace("zone hand per player { visibility: owner }",
                          'zone hand per player { visibility: owner; label: "Hand" }')
    match = build(tmp_path, "labelled", rules).new_match(seed=1)
    shown = screen(match)
    # zones are panels under their labels; cards by name and the seat's own numbers (issue
    # 17), not the engine's ids
    bag = panel(shown, "Bag of Holding")
    assert [re.sub(r"\s+v \d+$", "", line) for line in bag] == ["Ace #1", "Bee #2", "Cat #3"]
    assert panel(shown, "Hand — player1 (yours)") == ["empty"] and panel(shown, "Hand — player2") == ["empty"]
    assert panel(shown, "pile — player1 (yours)") == ["3 card(s), hidden"], "an unlabelled zone: its identifier"


STACKED = '''
game "Stacked" {
  id: stacked
  players: 2
  first_player: seat1
}
counter tricks per player { start: 0 }
zone pending shared { ordered; visibility: public }
action trick "Trick" {
  by: any
  speed: stack
  gain 1 tricks
  move all cards in pending to pending
}
turn {
  stage main { actions: trick; responses: yes }
}
'''


def test_a_zone_marked_stack_is_rejected_the_engine_keeps_its_own_stack(tmp_path: Path) -> None:
    # `stack` on a zone was read by nothing but "at most one per game": it is an error
    # at the word, and the hint says where waiting effects are
    line = "zone pending shared { ordered; stack; visibility: public }"
    flagged = STACKED.replace("zone pending shared { ordered; visibility: public }", line)
    found = check_game(str(write_game(tmp_path / "flagged", {"rules.cards": flagged}))).diagnostics
    assert [(d.code, d.message) for d in found] == [
        ("CS0206", "'stack' on a zone is not part of the language any more")]
    assert (found[0].span.line, found[0].span.column) == (flagged.splitlines().index(line) + 1, line.index("stack") + 1)
    assert found[0].hint is not None and found[0].hint.startswith("remove it")
    # effects waiting to resolve are the engine's: the observation and the play screen show them
    match = build(tmp_path, "stacked", STACKED).new_match(seed=1)
    take(match, "Trick", player=0)
    take(match, "Trick", player=1)
    assert [(w["effect"], w["player"]) for w in match.observation(0)["waiting"]] == [
        ("trick", "player1"), ("trick", "player2")]
    shown = screen(match)
    assert panel(shown, "waiting on the stack") == ["trick (player1)", "trick (player2)"]
    assert view(match, 0, "pending", None)["size"] == 0, "no zone holds them"


# ---------------------------------------------------------------- boards

BOARD = '''
game "Board" {
  id: board
  players: 2
  first_player: seat1
}
board grid {
  size: 5 x 4
  region west { cells: [0, 0] .. [1, 3]; hp: 7; blocks: "movement" }
  region posts { cells: [4, 0], [4, 3] }
}
zone field shared { board: grid }
zone bag shared
counter found shared { start: 0 }
counter west_cells shared { start: 0 }
cardtype Pawn { stats { v: number = 0 } }
card "Pawn" { type: Pawn; copies: 2 }
setup {
  create every copy of "Pawn" in bag
  set west_cells to count(cells(west)) * 100 + west.hp
}
action put "Put" {
  choose p from a pawn in bag
  choose x from [0, 4]
  choose y from [0, 3]
  place p in field at cell(x, y)
}
action step "Step east" {
  choose p from a pawn in field
  move p to cell cell(position(p).x + 1, position(p).y)
}
action look "Look" {
  set found to 0
  for each c in cells(posts) {
    if card_at(field, c) != none { increase found by 1 }
  }
  for each p in all pawns in field {
    if in_region(p, west) { increase found by 10 }
  }
}
turn {
  stage main { actions: put, step, look }
}
'''


@covers("BoardDecl.name", "ZoneDecl.board", "BoardDecl.regions", "RegionDecl.name", "RegionDecl.cells",
        "RegionDecl.properties", "CellRect.start", "CellRect.end", "Cell.x", "Cell.y")
def test_a_board_zone_places_cards_on_cells_and_regions_name_cells(tmp_path: Path) -> None:
    game = build(tmp_path, "board", BOARD)
    match = game.new_match(seed=1)
    # the region [0,0]..[1,3] holds 2 x 4 cells; its free-form property is read by name
    assert match.shared["west_cells"] == 807
    take(match, "Put: Pawn#1, 4, 3")
    take(match, "Put: Pawn#2, 0, 0")
    pawn1, pawn2 = match.zone("field", None).cards
    assert (pawn1.position, pawn2.position) == ((4, 3), (0, 0))
    assert next(c for c in match.observation(1)["zones"] if c["zone"] == "field")["cards"][0]["position"] == [4, 3]
    take(match, "Look")
    assert match.shared["found"] == 11, "one pawn on a post (a single-cell list), one in the west"
    take(match, "Step east: Pawn#2")
    take(match, "Step east: Pawn#2")
    assert pawn2.position == (2, 0)
    take(match, "Look")
    assert match.shared["found"] == 1, "the pawn left the west region"


@covers("BoardDecl.width", "BoardDecl.height")
def test_a_board_has_its_declared_size(tmp_path: Path) -> None:
    # a region reaching outside the 5 x 4 board is an error at the cell, with the board's range
    outside = BOARD.replace("region posts { cells: [4, 0], [4, 3] }", "region posts { cells: [4, 0], [9, 9] }")
    folder = write_game(tmp_path / "outside", {"rules.cards": outside})
    found = check_game(str(folder)).diagnostics
    assert [d.message for d in found] == ["cell [9, 9] of region 'posts' is outside board 'grid' (5 x 4)"]
    assert found[0].span.line == outside.splitlines().index("  region posts { cells: [4, 0], [9, 9] }") + 1
    assert found[0].hint is not None and "[0, 0] to [4, 3]" in found[0].hint
    far_corner = BOARD.replace("[0, 0] .. [1, 3]", "[0, 0] .. [1, 4]")
    assert diagnostics(tmp_path, "corner", far_corner) == [
        "cell [1, 4] of region 'west' is outside board 'grid' (5 x 4)"]
    # the last cell, [4, 3], is on the board; x = 5 (or 7) is not: placing there is a rules error
    match = build(tmp_path, "board", BOARD.replace("choose x from [0, 4]", "choose x from [0, 4, 5, 7]")).new_match(
        seed=1)
    take(match, "Put: Pawn#1, 4, 3")
    assert match.error is None and match.zone("field", None).cards[0].position == (4, 3)
    take(match, "Put: Pawn#2, 7, 0")
    assert match.error is not None and "cell [7, 0] is outside board 'grid'" in match.error
    # stepping east off the board is one too
    stepper = build(tmp_path, "step", BOARD).new_match(seed=1)
    take(stepper, "Put: Pawn#1, 4, 3")
    take(stepper, "Step east: Pawn#1")
    assert stepper.error is not None and "cell [5, 3] is outside board 'grid'" in stepper.error
