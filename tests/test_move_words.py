"""Moves in the game's words (engine/movewords.py), read off played matches.

The words a person deciding reads — in the studio, at the terminal table — must name what
the designer named (the action's label, the card's name, a cell as `[x, y]`), never the
referee's record (`choose Dragon Swipe#25 (c)`), tell every move of a decision apart, and
say nothing the seat may not know: swapping every card hidden from the seat for another
hidden card leaves its words as they were.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import GAMES

from cardsmith.app import decks_for, load
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moveview import seen_by
from cardsmith.engine.movewords import decision_for
from cardsmith.engine.seatview import determinize, observe

UNO = str(Path(__file__).resolve().parent.parent / "benchmarks" / "games" / "uno")
RECORD = re.compile(r"^choose |\(\w+\)$|\w#\d+\b")  # the log's wording: `choose X (label)`, `Name#12`


def new_match(game_id: str, seed: int) -> PlayedMatch:
    game = load(game_id)
    players = max(2, game.ir.game.players_min)
    return PlayedMatch(game, seed=seed, players=players, decks=decks_for(game, players, None))


def decisions(match: PlayedMatch, rng: random.Random, steps: int):  # type: ignore[no-untyped-def]
    """Each decision of a random match: the deciding seat, after it has looked."""
    for _ in range(steps):
        if match.is_over:
            return
        actions = match.legal_actions()
        if not actions:
            return
        seat = actions[0].player
        observe(match, seat)
        yield seat
        match.apply(rng.choice(actions))


@pytest.mark.parametrize("game_id", [*GAMES, UNO])
def test_every_decision_reads_in_the_games_words_and_each_move_apart(game_id: str) -> None:
    seen_prompts: set[str] = set()
    checked = 0
    for seed in (1, 2):
        match = new_match(game_id, seed)
        for seat in decisions(match, random.Random(seed), 250):
            decision = decision_for(match, seat)
            assert decision is not None
            moves = [a for a in match.legal_actions() if a.player == seat]
            assert len(decision.moves) == len(moves)
            assert decision.prompt and decision.prompt[0].isupper()
            for words in decision.moves:
                assert words and not RECORD.search(words.split(" #")[0]), words
            repeated = {w for w in decision.moves if decision.moves.count(w) > 1}
            assert not repeated, f"{decision.prompt}: {sorted(repeated)[:3]} read the same"
            seen_prompts.add(decision.prompt)
            checked += 1
    assert checked > 50 and seen_prompts


def test_the_words_of_each_library_game_name_what_the_designer_named() -> None:
    found: dict[str, list[str]] = {}
    for game_id, seed, steps in (("two_kingdoms", 1, 60), ("combat_cards", 1, 40), (UNO, 1, 30),
                                 ("kingdom_combat", 3, 400)):
        match = new_match(game_id, seed)
        for seat in decisions(match, random.Random(seed), steps):
            decision = decision_for(match, seat)
            assert decision is not None
            found.setdefault(decision.prompt, decision.moves)
    prompts = list(found)
    # a cell of a board as the language writes it, the procedure that asks named by its name
    spot = next(p for p in prompts if p.startswith("Choose a spot"))
    assert spot == "Choose a spot — deploy" and all(re.fullmatch(r"\[\d+, \d+\]", w) for w in found[spot])
    assert "Choose who takes the first turn" in prompts
    # a blind pick shows places, a card choice the card's name, the procedure its description
    blind = next(p for p in prompts if "face down — discard cards" in p)
    assert found[blind][0] == f"Card 1 of {len(found[blind])} (face down)"
    pick = "Choose a card — both players pick a card face down"
    assert pick in prompts and all("#" not in w for w in found[pick])
    # an action by its label with its card by name, a pass as "Pass", an ability under its card
    uno = [m for p, moves in found.items() if p.startswith("Your turn — play") for m in moves]
    assert any(re.fullmatch(r"Play a card: (Red|Green|Blue|Yellow) \w+", m) for m in uno), uno[:5]
    kc = [m for p, moves in found.items() if p.startswith("Your turn") for m in moves]
    assert "Pass" in kc and any(": " in m and not m.startswith(("Play", "Move", "Attach")) for m in kc)


@pytest.mark.parametrize("game_id", ["combat_cards", "kingdom_cards", "kingdom_combat"])
def test_the_words_say_nothing_of_a_card_the_seat_cannot_see(game_id: str) -> None:
    """Every card hidden from the seat is swapped for another hidden one: the words the seat
    reads for its own moves, and for each move as another seat will read it, are unchanged."""
    match = new_match(game_id, 4)
    rng = random.Random(4)
    compared = 0
    for seat in decisions(match, random.Random(7), 400):
        actions = match.legal_actions()
        mine = [a for a in actions if a.player == seat]
        before = decision_for(match, seat)
        others = {v: [seen_by(match, v, a) for a in mine] for v in range(len(match.players)) if v != seat}
        snapshot = match.snapshot_state()
        determinize(match, seat, rng)
        after = decision_for(match, seat)
        match.restore_state(snapshot)
        assert after == before
        for viewer, words in others.items():
            snapshot = match.snapshot_state()  # (one snapshot, one restore: the journal starts anew)
            determinize(match, viewer, rng)
            assert [seen_by(match, viewer, a) for a in mine] == words
            match.restore_state(snapshot)
        compared += 1
    assert compared > 50


def test_a_choice_asked_on_a_line_of_two_declarations_has_no_context(tmp_path: Path) -> None:
    """The running choice carries only its line: a line that holds choices of two
    declarations (in two files) names neither, rather than the wrong one."""
    from conftest import write_game

    from cardsmith.compiler.api import check_game
    from cardsmith.engine.game import CompiledGame
    from cardsmith.engine.movewords import choice_contexts

    rules = ('game "Two" {\n  id: two\n  players: 2\n}\nzone hand per player { visibility: owner }\n'
             'card "A" { type: card }\ncardtype card { plural: cards }\n'
             'action first "First" {\n  choose c from a card in your hand\n}\n')
    more = 'action second "Second" {\n  choose d from a card in your hand\n}\n'
    folder = write_game(tmp_path / "two", {"rules.cards": rules, "more.cards": "\n" * 7 + more})
    result = check_game(str(folder))
    assert result.game is not None, result
    contexts = choice_contexts(CompiledGame(result.game))
    assert contexts.get(9) is None and 9 in contexts
