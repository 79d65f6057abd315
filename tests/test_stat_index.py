"""A zone's cards by one stat's value (engine/statindex.py) answer as the scan they replace.

The generated rules look `all figures in kingdom of p where it.value == v` up in a table
made once per state version (compiler/codegen_index.py); the table must give the scan's
cards in the scan's order, or None where it cannot answer (then the rules scan). And the
answers queries.narrow keeps for an enum word per card (while no card's base changes)
must follow a card's base when it does change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardsmith.app import load
from cardsmith.engine import queries as q
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.model.state import EnumValue


def _scan(match: PlayedMatch, zone: Any, type_name: str, stat: str, value: Any) -> list[Any]:
    return [c for c in zone.cards if c.type == type_name and rt.same(rt.card_stat(match, c, stat), value)]


def test_the_table_answers_as_the_scan_over_random_kingdom_cards_positions() -> None:
    game = load("kingdom_cards")
    match = PlayedMatch(game, seed=7, players=2)
    agents = [RandomAgent(70), RandomAgent(71)]
    asked = answered = 0
    for _ in range(400):
        if match.is_over:
            break
        for zone in match.zones.values():
            for stat in ("value", "group"):
                values = {rt.card_stat(match, c, stat) for c in zone.cards if c.type == "Figure"}
                for value in [*values, 99, "people", None]:
                    found = match.stat_cards(zone, "Figure", stat, value)
                    asked += 1
                    if found is not None:
                        answered += 1
                        assert list(found) == _scan(match, zone, "Figure", stat, value), (zone.title, stat, value)
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player], match, actions))
    assert answered > asked // 2  # (most asks answered: ints and enum values of one kind)


def test_a_stat_of_another_kind_or_a_value_of_another_kind_leaves_it_to_the_scan() -> None:
    game = load("kingdom_cards")
    match = PlayedMatch(game, seed=3, players=2)
    hand = next(z for z in match.zones.values() if sum(c.type == "Figure" for c in z.cards) >= 2)
    figure = next(c for c in hand.cards if c.type == "Figure")
    value = rt.card_stat(match, figure, "value")
    assert match.stat_cards(hand, "Figure", "value", value) is not None
    assert match.stat_cards(hand, "Figure", "value", str(value)) is None  # (a text: values.equal's rules)
    assert match.stat_cards([figure], "Figure", "value", value) is None  # (not a zone)
    match.set_base(figure, "value", str(value))  # a text among ints: the table cannot answer
    assert match.stat_cards(hand, "Figure", "value", value) is None
    assert match.stat_cards(hand, "Nothing", "value", value) == ()  # (no card of the type: none)


def _has(card: Any, word: str) -> bool:
    return any(type(v) is EnumValue and v.name == word for v in card.base.values())


def test_an_enum_word_follows_a_card_whose_base_changes() -> None:
    game = load("combat_cards")
    match = PlayedMatch(game, seed=1, players=2)
    match.legal_actions()  # (the table set up: hands dealt)
    zone = max(match.zones.values(), key=lambda z: sum(c.type == "Combat" for c in z.cards))
    cards = [c for c in zone.cards if c.type == "Combat"]
    ctx = rt.Ctx(zone.owner, None)
    # a card and a field holding its only enum value of that name (`kind: normal`)
    card, field, word = next((c, f, v) for c in cards for f, v in sorted(c.base.items()) if type(v) is EnumValue
                             and [w for w in c.base.values() if type(w) is EnumValue and w.name == v.name] == [v])
    enum = next(e for e in game.ir.enums if e.name == word.enum)
    other = EnumValue(word.enum, next(v.name for v in enum.values if v.name != word.name))
    assert card in q.narrow(match, ctx, word.name, cards)
    match.set_base(card, field, other)  # (the card's only value of that name replaced)
    after = q.narrow(match, ctx, word.name, cards)
    assert card not in after and after == [c for c in cards if _has(c, word.name)]


BY_VALUE = '''
game "Tallies" {
  id: tallies
  players: 2
}
zone pile shared
cardtype Chip {
  stats { value: number = 1 }
}
card "Low" { type: Chip; value: 2 }
function mine(v: number) = count(all friendly chips in pile where it.value == v)
function any_of(v: number) = count(all chips in pile where it.value == v)
turn {
  stage main { actions: pass }
}
action pass "Pass" {
  end the turn
}
'''


def test_a_query_with_an_adjective_is_not_looked_up_by_value_alone(tmp_path: Path) -> None:
    """The table answers only a query whose whole test is the stat's value: one that is
    also `friendly` (written in line since the adjectives scan) must keep its adjective."""
    from conftest import compiled_rules, function_source

    game = compiled_rules(tmp_path / "g", BY_VALUE)
    mine, any_of = function_source(game, "F_mine"), function_source(game, "F_any_of")
    assert "m.stat_cards(" in any_of and "m.stat_cards(" not in mine
    assert "v_it.controller is ctx.you" in mine or "q.query(" in mine
