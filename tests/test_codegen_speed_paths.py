"""Issue 18, Kingdom Cards and Combat Cards: the code the generator writes for their common
shapes, and the interned enum values it relies on. Two values of one kind compared by
Python's == (an enum value is one object per (enum, name)); `count(f(x))` of a remembered
list read off the memo in line; `f(x) == none or f(x) == y` asking f once; `%` and `//` of
plain ints in line; a keyword's parameters read off its context; a counter's change made
by its setter; a player's counter read in line; a query with no condition taken from its
pool, a pool read off a zone whose cards are all of the noun's type, a card's type tested
in the comprehension that asks the condition, every player scanned in line. The played match is
the truth: the same game compiled with and without these paths plays the same seeded
matches, log for log."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import pytest
from conftest import compiled_rules, random_played

from cardsmith.compiler import codegen, codegen_compare, codegen_exprs, codegen_memo, codegen_scan, codegen_stmts
from cardsmith.dsl import ir
from cardsmith.engine.game import CompiledGame
from cardsmith.model import values
from cardsmith.model.state import EnumValue

GAME = '''
game "Speedy" {
  id: speedy
  players: 2
  first_player: seat1
  turn_limit: 24
}
enum Suit { sun; moon; star }
enum Side { Left; Right }
counter score per player { start: 0 }
counter heat per player { start: 0; min: 0; max: 9 }
counter charge per card { start: 0; min: 0 }
zone deck per player { ordered; visibility: hidden }
zone hand per player { visibility: owner }
zone table per player { visibility: public }
cardtype Gem {
  singular: gem
  plural: gems
  stats { value: number = 1 }
  properties { suit: Suit = sun }
}
cardtype Rock {
  singular: rock
  plural: rocks
}
event flared(side: Side)
keyword Burn(side: Side, n: number) {
  reminder: "Burn {n} on {side}."
  on flared(s) where s == side {
    increase self.owner.heat by n
    increase self.charge by n % 4
  }
}
card "Ruby" { type: Gem; value: 2; suit: sun; keywords: Burn Left 3 }
card "Opal" { type: Gem; value: 5; suit: moon; keywords: Burn Right 6 }
card "Jade" { type: Gem; value: 7; suit: star }
card "Onyx" { type: Gem; value: 4; suit: moon; keywords: Burn Left 1, Burn Right 2 }
card "Flint" { type: Rock }
function suited(p: player, s: Suit) = all gems in table of p where it.suit == s
function best(p: player, s: Suit) {
  for each g in all gems in table of p where it.suit == s and it.value > 3 {
    return g.value
  }
  return none
}
function slot(c: card) = (c.value - 1) % 3 + 1 + c.value // 4
function fits(p: player, c: card) = best(p, c.suit) == none or best(p, c.suit) == c.value
setup {
  for each p in players {
    for each name in ["Ruby", "Opal", "Jade", "Onyx", "Flint", "Ruby", "Opal", "Onyx"] {
      let made = create(name, deck of p, p)
    }
    shuffle deck of p
    repeat 3 times { move top of deck of p to hand of p }
  }
}
action play "Play" {
  choose c from a gem in your hand where count(suited(you, it.suit)) < 2 or fits(you, it)
  move c to your table
  increase score by slot(c)
  if count(suited(you, c.suit)) == 2 { increase score by 3 }
}
action rest "Rest" {
  for each r in all cards in your hand {
    if r is Rock { move r to your table }
  }
  repeat size(your hand) // 2 + 1 times {
    if size(your deck) > 0 { move top of your deck to your hand }
  }
  emit flared(Left)
  emit flared(Right)
  for each p in players {
    set p.heat to p.heat - 1
    for each g in all gems in table of p {
      decrease g.charge by 1
    }
  }
  if next_player(you).heat > 5 { increase score by 1 }
  if any(all players where it.score > 10) { increase score by 1 }
}
turn {
  stage main { actions: play, rest }
}
'''


def test_an_enum_value_is_one_object_however_it_is_made() -> None:
    sun = EnumValue("Suit", "sun")
    assert EnumValue("Suit", "sun") is sun and sun == EnumValue("Suit", "sun")
    assert pickle.loads(pickle.dumps(sun)) is sun
    assert copy.copy(sun) is sun and copy.deepcopy([sun])[0] is sun
    assert EnumValue("Suit", "moon") != sun and EnumValue("Side", "sun") != sun
    assert hash(sun) == hash(EnumValue("Suit", "sun")) and len({sun, EnumValue("Suit", "sun")}) == 1
    assert values.equal(sun, "sun") and not values.equal(sun, EnumValue("Suit", "moon"))
    assert repr(sun) == "EnumValue(enum='Suit', name='sun')" and str(sun) == "sun"
    with pytest.raises(AttributeError):
        sun.name = "moon"  # type: ignore[misc]


def _generic(patch: pytest.MonkeyPatch) -> None:
    """Every shape above written the general way: through rt.same, rt.mod, rt.memo and
    fn_count, rt.keyword_arg, rt.change_field, rt.attr and rt.query_pool."""
    patch.setattr(codegen_exprs.ExprWriter, "int_guard", lambda *args: None)
    patch.setattr(codegen_exprs.ExprWriter, "attr_in_line", lambda *args: None)
    patch.setattr(codegen_memo, "counted_in_line", lambda *args: None)
    patch.setattr(codegen_compare, "_remember", lambda w, e, code, scope: code)
    patch.setattr(codegen_stmts.BodyWriter, "counter_change", lambda self, obj, field, op, value: self.line(
        f"rt.change_field(m, {obj}, {field!r}, {op!r}, {value}, None, None)"))
    scans = codegen_scan.scans
    patch.setattr(codegen_scan, "scans", lambda game, e, adjectives, plan: (
        e.where is not None and e.noun.lower() not in ir.PLAYER_NOUNS and scans(game, e, adjectives, plan)))
    patch.setattr(codegen_scan, "pool", lambda game, noun, zone: f"rt.query_pool(m, {noun.lower()!r}, {zone})")
    patch.setattr(codegen_scan, "scan", lambda game, noun, zone, condition, before: codegen_scan.Scan(
        f"rt.query_pool(m, {noun.lower()!r}, {zone})", condition, before))
    patch.setattr(codegen.CodeGenerator, "keyword_preamble", lambda self, k: [
        f"{codegen_exprs.ident(q.name)} = rt.keyword_arg(m, ctx, {k.name!r}, {i!r})" for i, q in enumerate(k.params)])


def _played(game: CompiledGame, seed: int) -> tuple[list[dict[str, Any]], str | None]:
    return random_played(game, seed, 200)


FAST_PATHS = ("in rt.EQ_BY_PYTHON", "(len(_mm", "% 3 if type(", "// 4 if type(", "_kargs[1] if 1 < _given",
              "m.set_counter(", "m.set_card_counter(", ".counters['heat'] if type(", "list((", "is None) or (",
              ".types['Gem'] == len(", "v_it.type == 'Gem' and (", "in rt.players(m) if")


def test_the_fast_paths_are_written(tmp_path: Path) -> None:
    source = compiled_rules(tmp_path / "g", GAME).source
    for path in FAST_PATHS:
        assert path in source, path
    fits = source[source.index("def F_fits"):]
    # (one lookup: the key, the helper's call for a list found, and the call on a miss)
    assert fits[:fits.index("\n\n\n")].count("F_best") == 3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_and_generic_code_play_the_same_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   seed: int) -> None:
    fast = _played(compiled_rules(tmp_path / "fast", GAME), seed)
    with monkeypatch.context() as patch:
        _generic(patch)
        generic_game = compiled_rules(tmp_path / "generic", GAME)
        assert not any(path in generic_game.source for path in FAST_PATHS)
        generic = _played(generic_game, seed)
    assert fast == generic
    assert fast[1] in (None, "no winner after 24 turns"), fast[1]
    entries = [e for e in fast[0] if e.get("event") == "counter"]
    assert {e["counter"] for e in entries} >= {"score", "heat", "charge"}
    assert sum(1 for e in fast[0] if str(e.get("description", "")).startswith("Play")) > 3
