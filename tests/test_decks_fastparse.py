"""The deck checker's fast paths agree with the references they stand in for.

`parse_decklist` remembers what each line means (cardsmith/decks/decklist.py); the
reference `parse_decklist_reference` reads every line afresh. `DeckPlan` compiles the
deck rules into closures (cardsmith/decks/plan.py); the reference is the static
evaluator. Both pairs must give the same entries, the same spans and the same
diagnostics (or values, or errors), well-formed input or not.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsmith.compiler.static_eval import DeckValue
from cardsmith.decks.decklist import ParsedDecklist, parse_decklist, parse_decklist_reference
from cardsmith.decks.games import game_context
from cardsmith.decks.plan import compile_expr, walk
from cardsmith.dsl import ir
from cardsmith.dsl.visitor import members
from tests.conftest import GAMES, LIBRARY

EXPRS = members(ir.Expr)
SECTIONS = [["Fortress", "Garrison", "Deck"], ["Deck"], [], ["Main Deck", "Side board"]]

MALFORMED = [
    "", "\n", "# only a comment\n", "// a comment\n", "Deck\n4 Footman\n", "4x Footman\n", "4 x Footman\n",
    "4\u00d7Footman\n", "4 \u00d7 Footman\n", "0 Footman\n", "1000 Footman\n", "12345678 Footman\n",
    "Fortress (top):\n1 Castle Valoria\n", "deck:\nfootman\n", "  Deck :  \n\t2  Foot   man  \n",
    "Sideboard:\n1 X\n", "4 Footman # four\n", "1 Foo\x01tman\n", "x" * 301 + "\n", "\r\n4 Footman\r\n",
    "4 Footman", "Garrison\n1 Footman\n", "3\n", "3 \n", "-1 Footman\n", "1 Valoria\u2019s Pride\n",
    "Fortress:\nDeck:\nGarrison:\n", "\ufeff4 Footman\n", "D\u00e9ck:\n1 Footman\n", "1 footman\n2 FOOTMAN\n",
    "main deck\n1 A\nSIDE BOARD\n2 B\n", "Deck: (30 cards)\n2 A\n", "4 A\n" * 3, "\u00a0\u20034 A\u3000\n",
    "1 A\rDeck:\r2 B", "Deck:\n\n\n1 A\n   \n",
]
MALFORMED_BYTES = [b"\xff\xfe4 Footman\n", b"4 Foot\x00man\n", b"4 Footman\n" * 3, b"\xef\xbb\xbf1 A\n",
                   b"1 A\n\xc3(\n", b"x" * 1_000_001]


def _shape(parsed: ParsedDecklist) -> Any:
    """Everything a parse gives, spans and diagnostics included, as plain data."""
    return (parsed.source.path, parsed.source.text, parsed.source.line_starts,
            [(e.line, e.count, e.name, e.key, e.header, e.span) for e in parsed.lines],
            [(h.name, h.line, h.span) for h in parsed.headers],
            [d.to_json() for d in parsed.diagnostics])


def _agree(text: str | bytes, sections: list[str]) -> None:
    reference = _shape(parse_decklist_reference("t.deck", text, sections))
    # twice: once as the lines are first met, once as they are remembered
    assert _shape(parse_decklist("t.deck", text, sections)) == reference
    assert _shape(parse_decklist("t.deck", text, sections)) == reference


def _library_decklists() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(LIBRARY.glob("*/decks/*.deck"))]


@pytest.mark.parametrize("sections", SECTIONS)
def test_fast_parse_agrees_on_library_and_malformed_decklists(sections: list[str]) -> None:
    texts: list[str | bytes] = [*_library_decklists(), *MALFORMED, *MALFORMED_BYTES]
    for text in texts:
        _agree(text, sections)


def test_fast_parse_agrees_on_mutated_decklists() -> None:
    rng = random.Random(18)
    decks = _library_decklists()
    extra = ["Deck:", "Fortress:", "Garrison:", "Sideboard:", "2x Footman", "0 A", "# c", "1 \x02", "  "]
    for _ in range(300):
        lines = rng.choice(decks).split("\n")
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(lines))
            op = rng.randrange(6)
            if op == 0:
                lines[k] = lines[k].upper()
            elif op == 1:
                lines.insert(k, rng.choice(extra))
            elif op == 2:
                lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
            elif op == 3:
                lines[k] = "  " + lines[k].replace(" ", "  ") + " # x"
            elif op == 4:
                lines[k] += ":"
            else:
                lines[k] = "9 " + lines[k]
        _agree("\n".join(lines), rng.choice(SECTIONS))


FRAGMENTS = ["1", "4", "0", "999", "1000", "x", "X", "\u00d7", " ", "  ", "\t", "Deck", "deck", "Garrison",
             ":", "#", "//", "(", ")", "Foot", "man", "'", "\u2019", "-", "\u00e9", "\x01", "\r", "\n", "\n\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.sampled_from(SECTIONS))
def test_fast_parse_agrees_on_generated_text(parts: list[str], sections: list[str]) -> None:
    _agree("".join(parts), sections)


def _outcome(fn: Any, scope: dict[str, Any]) -> Any:
    try:
        return ("value", repr(fn(scope)))
    except Exception as error:  # (the same error, of the same kind, either way)
        return ("error", type(error).__name__, str(error))


@pytest.mark.parametrize("game", GAMES)
def test_compiled_deck_rules_agree_with_the_evaluator(game: str) -> None:
    ctx = game_context(game)
    rules = ctx.rules
    env = ctx.env
    deck_wide = [b.value for b in rules.bindings] + [r.condition for r in rules.requirements]
    deck_wide += [side for e in list(deck_wide) for side in walk(e) if isinstance(side, EXPRS)]
    per_card = [e for e in (rules.allow, rules.excluded, rules.copies) if e is not None]
    per_card += [side for e in list(per_card) for side in walk(e) if isinstance(side, EXPRS)]
    rng = random.Random(game)
    cards = ctx.game.cards
    names = [s.name for s in rules.sections]
    checked = 0
    for _ in range(60):
        sections = {name: rng.sample(cards, min(len(cards), rng.choice([0, 1, 2, 3]))) for name in names}
        physical = [c for cs in sections.values() for c in cs]
        deck = DeckValue(sections, len(physical), physical)
        scope = {**ctx.bindings(deck), "deck": deck}
        for expr in deck_wide:
            assert _outcome(compile_expr(expr, env), scope) == _outcome(lambda s, e=expr: env.eval(e, s), scope)
            checked += 1
        for card in rng.sample(cards, min(len(cards), 5)):
            local = {**scope, "card": card}
            for expr in per_card:
                assert _outcome(compile_expr(expr, env), local) == _outcome(lambda s, e=expr: env.eval(e, s), local)
                checked += 1
    assert checked > 0
