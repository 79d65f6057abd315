"""Conformance: `cardtype`, `card` and `keyword` declarations (docs/language.md §2, §5), played.

What a card prints (text, flavour, art, layout, size) is proven in test_printables.py.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_game

from cardsmith.compiler.api import check_game
from cardsmith.compiler.text import card_text
from cardsmith.engine.flow import PlayedMatch
from conformance.support import build, counter, covers, descriptions, diagnostics, emitted, take

TYPES = '''
game "Types" {
  id: types
  players: 2
  first_player: seat1
}
enum Colour {
  red { rank: 1 }
  green { rank: 0 }
}
counter seen per player { start: 0 }
counter power_sum per player { start: 0 }
counter tokens per player { start: 0 }
status awake
zone hand per player { visibility: owner }
zone den per player { visibility: hidden }
cardtype Mouse {
  plural: mice
  stats {
    power: number
    speed: number = 2
  }
  properties {
    colour: Colour = red
    nick: text = "squeak"
  }
  enters: den
  enters_with: awake
  token: card.colour == green
}
cardtype Cheese { stats { weight: number = 1 } }
card "Field Mouse" { type: Mouse; power: 1 }
card "Town Mouse" { type: Mouse; power: 3; speed: 5; nick: "Sir"; copies: 2 }
card "Ghost Mouse" { type: Mouse; power: 0; colour: green }
card "Brie" { type: Cheese }
setup {
  for each name in catalog() {
    create every copy of name in hand of player1 for player1
  }
}
action count_mice "Count the mice" {
  set seen to count(all mice in hand of you) * 10 + count(all cheeses in hand of you)
  set power_sum to sum(all mice in hand of you, power) * 100 + sum(all mice in hand of you, speed)
  set tokens to count(all token mice in hand of you)
}
action hide "Hide" {
  choose m from a mouse in your hand
  move m to your den
}
turn {
  stage main { actions: count_mice, hide }
}
'''


@covers("CardTypeDecl.name", "CardTypeDecl.singular", "CardTypeDecl.plural", "CardTypeDecl.stats",
        "CardTypeDecl.properties", "FieldDef.name", "FieldDef.type", "FieldDef.default",
        "CardDecl.name", "CardDecl.type", "CardDecl.stats", "CardDecl.properties", "CardDecl.copies")
def test_card_types_name_query_nouns_and_cards_give_their_stats(tmp_path: Path) -> None:
    game = build(tmp_path, "types", TYPES)
    match = game.new_match(seed=1)
    hand = match.zone("hand", match.players[0]).cards
    # copies: 2 creates two Town Mice
    assert [c.name for c in hand] == ["Field Mouse", "Town Mouse", "Town Mouse", "Ghost Mouse", "Brie"]
    assert {c.type for c in hand} == {"Mouse", "Cheese"}
    town = hand[1]
    # printed stats and properties; the type's defaults where the card gives none
    assert (match.effective(town, "power"), match.effective(town, "speed"), match.effective(town, "nick")) == (
        3, 5, "Sir")
    assert (match.effective(hand[0], "speed"), match.effective(hand[0], "nick")) == (2, "squeak")
    assert str(match.effective(hand[0], "colour")) == "red"
    take(match, "Count the mice")
    # the plural `mice` and the singular `cheese` + s name the types in queries
    assert counter(match, 0, "seen") == 41
    assert counter(match, 0, "power_sum") == 7 * 100 + 2 + 5 + 5 + 2
    assert "Hide: Field Mouse#1" in descriptions(match), "`a mouse`: the singular"
    # a stat without a default is required; a field's value must have its type
    missing = diagnostics(tmp_path, "missing", TYPES.replace('card "Field Mouse" { type: Mouse; power: 1 }',
                                                              'card "Field Mouse" { type: Mouse }'))
    assert missing == ["card 'Field Mouse' misses power"]
    typed = diagnostics(tmp_path, "typed", TYPES.replace("power: 1 }", 'power: "one" }'))
    assert len(typed) == 1 and "'power'" in typed[0] and "text" in typed[0], typed


@covers("CardTypeDecl.token")
def test_the_token_expression_says_which_cards_are_tokens(tmp_path: Path) -> None:
    match = build(tmp_path, "types", TYPES).new_match(seed=1)
    take(match, "Count the mice")
    assert counter(match, 0, "tokens") == 1, "only the green Ghost Mouse is a token"
    ghost = next(c for c in match.all_cards() if c.name == "Ghost Mouse")
    assert match.is_token(ghost) and not any(match.is_token(c) for c in match.all_cards() if c is not ghost)


@covers("CardTypeDecl.enters_with", "CardTypeDecl.enters")
def test_a_card_entering_its_types_zone_gets_the_enters_with_statuses(tmp_path: Path) -> None:
    match = build(tmp_path, "types", TYPES).new_match(seed=1)
    field = next(c for c in match.all_cards() if c.name == "Field Mouse")
    assert field.statuses == set(), "in hand: not yet entered"
    take(match, "Hide: Field Mouse#1")
    assert field.zone is not None and field.zone.name == "den" and field.statuses == {"awake"}


ENTERS = '''
game "Enters" {
  id: enters
  players: 2
  first_player: seat1
}
counter heard per player { start: 0 }
zone den per player { visibility: hidden }
zone vault per player { visibility: hidden }
zone field shared
cardtype Owl {
  stats { v: number = 0 }
  enters: den
}
card "Owl" {
  type: Owl
  on turn_started(p) where p == self.owner { increase self.owner.heard by 1 }
}
setup {
  let a = create("Owl", den of player1, player1)
  let b = create("Owl", vault of player1, player1)
  let c = create("Owl", field, player1)
}
action wait "Wait" { say "hoot" }
turn {
  stage main { actions: wait }
}
'''


@covers("CardTypeDecl.enters", "CardDecl.abilities")
def test_a_trigger_works_in_the_zone_its_type_enters_even_when_hidden(tmp_path: Path) -> None:
    rules = ENTERS
    match = build(tmp_path, "enters", rules).new_match(seed=1)
    # turn 1 started for player1: the Owl in the den (hidden, but its type enters there) and
    # the one in the public field heard it; the one in the hidden vault did not
    assert counter(match, 0, "heard") == 2
    without = build(tmp_path, "plain", rules.replace("  enters: den\n", "")).new_match(seed=1)
    assert counter(without, 0, "heard") == 1, "without `enters`, only the public field is in play"


KEYWORDS = '''
game "Keywords" {
  id: keywords
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
counter shots per player { start: 0 }
zone field shared
cardtype Unit { stats { power: number = 1 } }
keyword Rich(n: number) {
  reminder: "Gain {n} gold at the start of your turn."
  on turn_started(p) where p == self.owner { increase p.gold by n }
}
keyword Archer(range: number, volleys: number = 1) {
  reminder: "Shoots {volleys} times up to {range}."
  activate "Shoot" {
    increase you.shots by volleys * 10 + range
  }
}
keyword Plain {
  reminder: "Nothing special."
}
card "Baron" { type: Unit; keywords: Rich 3, Plain }
card "Bowman" { type: Unit; keywords: Archer 2 }
card "Longbow" { type: Unit; keywords: Archer 4 3 }
setup {
  let b = create("Baron", field, player1)
  let w = create("Bowman", field, player1)
  let l = create("Longbow", field, player1)
}
action wait "Wait" { say "wait" }
turn {
  stage main { actions: wait, activate }
}
'''


@covers("KeywordDecl.name", "KeywordDecl.params", "KeywordDecl.abilities", "KeywordDecl.reminder",
        "KeywordUse.name", "KeywordUse.args", "CardDecl.keywords", "Param.name", "Param.type", "Param.default")
def test_a_keyword_adds_its_abilities_with_its_arguments_bound(tmp_path: Path) -> None:
    game = build(tmp_path, "keywords", KEYWORDS)
    match = game.new_match(seed=1)
    assert counter(match, 0, "gold") == 3, "Rich 3: the trigger ran with n = 3"
    assert descriptions(match) == ["Wait", "Bowman: Shoot", "Longbow: Shoot", "pass"]
    take(match, "Bowman: Shoot")
    assert counter(match, 0, "shots") == 12, "Archer 2: range 2, volleys takes its default 1"
    take(match, "Longbow: Shoot")
    assert counter(match, 0, "shots") == 12 + 34
    # the reminder is printed with the argument in place of {n}
    cards = {c.name: c for c in game.ir.cards}
    assert card_text(game.ir, cards["Baron"]) == (
        "Rich 3 (Gain 3 gold at the start of your turn.) Plain (Nothing special.)")
    assert "Shoots 3 times up to 4." in card_text(game.ir, cards["Longbow"])
    # a keyword used with the wrong number of arguments, or one nobody declared, is an error
    assert diagnostics(tmp_path, "arity", KEYWORDS.replace("Archer 4 3", "Archer 4 3 9")) == [
        "keyword 'Archer' takes 1 to 2 argument(s), 3 given"]
    unknown = diagnostics(tmp_path, "unknown", KEYWORDS.replace("Rich 3, Plain", "Rich 3, Fancy"))
    assert "unknown keyword 'Fancy'" in unknown


PLAYING = '''
game "Playing" {
  id: playing
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
counter plays per player { start: 0 }
zone hand per player { visibility: owner }
zone table shared
cardtype Unit {
  stats { cost: number = 0 }
  enters: table
}
cardtype Aura {
  stats { cost: number = 0 }
  enters: table
}
card "Knight" { type: Unit }
card "Gated" { type: Unit; play: gold >= 3 }
card "Halo" { type: Aura }
on played(c, p) { increase p.plays by 1 }
setup {
  for each name in catalog() { let c = create(name, hand of player1, player1) }
}
action play_card "Play" {
  choose c from a card in your hand
  move c to table
}
action earn "Earn" { gain 3 gold }
turn {
  stage main { actions: play_card, earn }
}
'''


def playable(match: PlayedMatch) -> list[str]:
    """The cards the `Play` action is offered with."""
    return [d.removeprefix("Play: ") for d in descriptions(match) if d.startswith("Play: ")]


PLAY_MORE = '''
card "Proud" { type: Unit; cost: 4; play: you.gold >= self.cost and card.cost > 3 }
action spend "Spend" { set gold to 0 }
action take_back "Take back" {
  choose c from a card in table
  move c to hand of you
}
'''


@covers("CardDecl.play_condition")
def test_a_cards_play_condition_must_hold_to_play_it(tmp_path: Path) -> None:
    # `self` (or `card`) is the card, `you` the player playing it; a card is played when a
    # move takes it out of its chooser's hand — taking it back from the table is no play
    rules = PLAYING.replace("actions: play_card, earn", "actions: play_card, earn, spend, take_back") + PLAY_MORE
    match = build(tmp_path, "playing", rules).new_match(seed=1)
    assert playable(match) == ["Knight#1", "Halo#3"], \
        "gold is 0: neither Gated (gold >= 3) nor Proud (gold >= its cost, 4) may be played"
    take(match, "Earn")
    assert playable(match) == ["Knight#1", "Gated#2", "Halo#3"]
    take(match, "Play: Gated#2")
    take(match, "Earn")
    assert "Play: Proud#4" in descriptions(match), "6 gold: Proud's own cost is met"
    take(match, "Spend")
    assert "Take back: Gated#2" in descriptions(match), "no play: the condition is not asked"
    take(match, "Take back: Gated#2")
    assert match.cards_played == [(0, "Gated")]
    assert playable(match) == ["Knight#1", "Halo#3"], "Gated is back in hand, and gold is 0 again"
    # a play condition is a yes/no question
    bad = diagnostics(tmp_path, "bad", PLAYING.replace("play: gold >= 3", "play: gold + 3"))
    assert bad and "play condition" in bad[0], bad


ATTACHING = '''
action play_aura "Play attached" {
  choose c from an aura in your hand
  choose t from a unit in table
  move c to table
  attach c to t
}
'''


def test_attach_on_a_card_is_rejected_with_the_rule_that_replaces_it(tmp_path: Path) -> None:
    # `attach: query` on a card was never read (the card was played unattached): it is an
    # error at the property, whose hint says how the rules attach a card they play
    rules = PLAYING.replace('card "Halo" { type: Aura }', 'card "Halo" { type: Aura; attach: a unit in table }')
    folder = write_game(tmp_path / "attach", {"rules.cards": rules})
    found = check_game(str(folder)).diagnostics
    assert [(d.code, d.message) for d in found] == [
        ("CS0206", "'attach:' on a card is not part of the language any more")]
    assert found[0].span.line == rules.splitlines().index('card "Halo" { type: Aura; attach: a unit in table }') + 1
    assert found[0].hint is not None and "attach c to t" in found[0].hint
    # the hint's way, played: the host is chosen like any target, and only once one is in play
    rules = PLAYING.replace("actions: play_card, earn", "actions: play_card, play_aura, earn") + ATTACHING
    match = build(tmp_path, "attaching", rules).new_match(seed=1)
    assert not [d for d in descriptions(match) if d.startswith("Play attached")], "no unit in play to attach to"
    take(match, "Play: Knight#1")
    take(match, "Play attached: Halo#3, Knight#1")
    halo, knight = (next(c for c in match.all_cards() if c.name == n) for n in ("Halo", "Knight"))
    assert halo.host is knight and halo in knight.attached and halo.zone is knight.zone


@covers("prelude:played")
def test_playing_a_card_from_hand_emits_played(tmp_path: Path) -> None:
    match = build(tmp_path, "playing", PLAYING).new_match(seed=1)
    take(match, "Play: Knight#1")
    assert match.cards_played == [(0, "Knight")]
    assert emitted(match, "played") == [["Knight#1", "player1"]]
    assert counter(match, 0, "plays") == 1
