"""Issue 18, UNO and Kingdom Combat: `any(all ...)`, `first(all ...)` and `count(all ...) > 0`
read only the first card a query finds, so the compiler asks the query for one
(q.query's `one`) and it stops there; and `x.zone == z` of a variable holding a card is
an identity test, as rt.same is for cards, players and zones. The seeded logs of the five
games (tests/test_seeded_logs.py) and UNO's (tests/test_uno*.py) show the matches play the
same; here: where the query stops, and that the generated rules ask so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardsmith.app import decks_for, load
from cardsmith.compiler.api import load_game_ir
from cardsmith.compiler.codegen import generate
from cardsmith.engine import queries as q
from cardsmith.engine import runtime as rt
from cardsmith.engine.flow import PlayedMatch

ROOT = Path(__file__).resolve().parent.parent
UNO = str(ROOT / "benchmarks" / "games" / "uno")
KC = str(ROOT / "library" / "kingdom_combat")


def _uno_match() -> PlayedMatch:
    game = load(UNO)
    return PlayedMatch(game, seed=3, players=2, decks=decks_for(game, 2, None))


def test_a_query_for_one_stops_at_the_first_card_found() -> None:
    m = _uno_match()
    you = rt.player(m, 1)
    ctx = rt.Ctx(you, None)
    hand = m.zones[("hand", you.index)]
    asked: list[Any] = []

    def even_face(card: Any) -> bool:
        asked.append(card)
        return card.base["face"] % 2 == 0

    every = q.query(m, ctx, "cards", [], hand, even_face)
    assert every and hand.cards.index(every[0]) == 1, "seed 3 deals player 1 an even face second"
    asked.clear()
    assert q.query(m, ctx, "cards", [], hand, even_face, one=True) == every[:1]
    assert asked == hand.cards[:hand.cards.index(every[0]) + 1]  # no card after it was asked
    assert q.query(m, ctx, "cards", [], hand, lambda card: False, one=True) == []
    # over every zone, with the condition split by zone (queryplan): the same first card
    split = q.query(m, ctx, "cards", [], None, even_face, lambda card: card.zone is hand, even_face)
    asked.clear()
    assert q.query(m, ctx, "cards", [], None, even_face, lambda card: card.zone is hand, even_face,
                   one=True) == split[:1] == every[:1]
    assert len(asked) == len(hand.cards[:hand.cards.index(every[0]) + 1])


def test_the_rules_ask_their_queries_for_one_and_compare_entities_by_identity() -> None:
    uno = generate(load_game_ir(UNO), "test")
    for function in ("F_can_match", "F_has_face", "F_first_with_face", "F_first_of_name"):
        body = uno.split(f"def {function}(")[1].split("\ndef ")[0]
        # q.query(..., one=True), or a scan in line (codegen_scan.py) that is `next(...)`, or such a
        # scan as a whole function's body, a loop that returns at its first find (codegen_loops.py):
        # all stop at the first
        assert "one=True" in body or "next((" in body or "\n            return " in body, function
    kc = generate(load_game_ir(KC), "test")
    can_move_to = kc.split("def F_can_move_to(")[1].split("\ndef ")[0]
    assert "v_u.zone is v_z if type(v_u) is rt.Card" in can_move_to
    declare = kc.split("def F_can_declare_attack(")[1].split("\ndef ")[0]
    # count(all ...) > 0: q.query(..., one=True), or its planned comprehension as a generator (codegen_planned.py)
    assert ("one=True" in declare or "next((v_it for _z in" in declare) and "fn.fn_count" not in declare
