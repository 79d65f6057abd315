"""Combat Cards played through new_match / legal_actions / apply: the simultaneous reveal.

Step 1 of the rulebook: "Each player picks 1 card from their hand and places it face down
on the table ... Once both players have chosen, the cards are turned face up". The game's
`play_cards` procedure makes both picks inside `simultaneously { }`, and each round of the
flow (a `round` with no `turn`: both players act together) is one Combat Cards turn of
steps 1-5 (library/combat_cards/rules.cards, "Readings of the rulebook").

Every match here is seeded and driven move by move by seeded random agents (step 1 is
reached every round, so no agent needs to favour it), or replayed with a chosen pick for
player 1 to compare what player 2 is offered and shown.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from typing import Any

import cardsmith
from cardsmith.engine.agents import RandomAgent, ask, make_agent
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action
from cardsmith.model.state import Card

STEPS = ["play_cards", "check_conditions", "return_resources", "determine_results", "return_and_discard"]
SEEDS = range(1, 21)
MAX_ACTIONS = 2000


@functools.cache
def game() -> Any:
    return cardsmith.load("combat_cards")


class WatchedMatch(PlayedMatch):
    """A played match that writes down what each seat sees on the two tables when step 2
    begins — right after the `simultaneously` block of step 1 has ended. (Nothing is asked
    of anyone between the block and step 2, so no decision point shows it.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # per round: {seat: [the table cards as that seat sees them]}
        self.step2_views: list[dict[int, list[dict[str, Any]]]] = []
        # per round: {seat: {engine id: that seat's number for the card}} (issue 17: an
        # observation names cards by the seat's own numbers)
        self.step2_numbers: list[dict[int, dict[int, int]]] = []
        super().__init__(*args, **kwargs)

    def emit_one(self, ctx: Any, event: str, value: Any, logged: Any) -> Any:
        """(The flow's own events — a stage starting among them — come through emit_one.)"""
        reactions = super().emit_one(ctx, event, value, logged)  # (logged by now; the reactions run later)
        if event == "stage_started" and value == "check_conditions":
            self.step2_views.append({seat: table_cards(self.observation(seat)) for seat in (0, 1)})
            self.step2_numbers.append({seat: dict(self.seat_names(seat).numbers) for seat in (0, 1)})
        return reactions


def table_cards(view: dict[str, Any], owner: str | None = None) -> list[dict[str, Any]]:
    """The cards on the tables (of one player, or both) in an observation."""
    return [c for z in view["zones"] if z["zone"] == "table" and owner in (None, z["owner"]) for c in z["cards"]]


def sealed_pick_of(match: PlayedMatch, seat: int) -> bool:
    """Is `seat` being asked for its step-1 card inside the open `simultaneously` block?"""
    actions = match.legal_actions()
    return match.open_seal is not None and bool(actions) and actions[0].player == seat


def picked(action: Action) -> Card:
    card = action.payload
    assert isinstance(card, Card)
    return card


def offered(match: PlayedMatch) -> list[tuple[int, int, str]]:
    return [(a.id, a.player, a.description) for a in match.legal_actions()]


def to_round(seed: int, round_number: int, seat: int = 0) -> tuple[WatchedMatch, list[int]]:
    """A match (seed `seed`, random agents) driven to `seat`'s sealed pick of step 1 in the
    first round from `round_number` on; also the action ids that led there."""
    match = WatchedMatch(game(), seed=seed, players=2)
    agents = [RandomAgent(seed), RandomAgent(seed + 100)]
    while not match.is_over and not (match.round_number >= round_number and sealed_pick_of(match, seat)):
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player], match, actions))
    assert not match.is_over, f"seed {seed} ended before round {round_number}"
    return match, list(match.history)


def replayed(seed: int, history: list[int]) -> WatchedMatch:
    match = WatchedMatch(game(), seed=seed, players=2)
    for action_id in history:
        match.apply(match.legal_actions()[action_id])
    return match


@functools.cache
def random_matches() -> list[WatchedMatch]:
    """20 seeded matches of random agents, played to their end."""
    out = []
    for seed in SEEDS:
        match = WatchedMatch(game(), seed=seed, players=2)
        agents = [RandomAgent(seed), RandomAgent(seed + 100)]
        for _ in range(MAX_ACTIONS):
            if match.is_over:
                break
            actions = match.legal_actions()
            match.apply(ask(agents[actions[0].player], match, actions))
        out.append(match)
    return out


def rounds_of(match: PlayedMatch) -> list[list[dict[str, Any]]]:
    """The log cut into rounds (from each `round_started`)."""
    rounds: list[list[dict[str, Any]]] = []
    for entry in match.log:
        if entry["event"] == "emit" and entry["name"] == "round_started":
            rounds.append([])
        if rounds:
            rounds[-1].append(entry)
    return rounds


# ---------------------------------------------------------------- the flow


def test_matches_end_and_each_round_is_one_turn_of_steps_1_to_5_taken_together() -> None:
    """20 seeded random matches end with a winner or a draw, without errors. seat1 is
    declared first player once; nothing changes the order; there are no per-seat turns:
    every round runs the five steps once, with both players picking in step 1 (player 1
    asked first, then player 2) and their picks revealed together once both are made."""
    stages: Counter[tuple[str, ...]] = Counter()
    pickers: Counter[str] = Counter()
    for match in random_matches():
        assert match.over and match.error is None, (match.seed, match.result)
        assert match.winner is not None or match.drawn
        events = Counter(e["event"] for e in match.log)
        firsts = [e for e in match.log if e["event"] == "first_player"]
        assert firsts == [{"event": "first_player", "player": "player1", "rule": "seat1"}]
        assert not events["next_player"] and not events["extra_turn"] and not events["turn_skipped"]
        assert not any(e["event"] == "emit" and e["name"] in ("turn_started", "turn_ended") for e in match.log)
        assert match.current is match.players[0]
        rounds = rounds_of(match)
        assert len(rounds) == match.round_number and len(rounds) >= 2
        for entries in rounds:
            started = [e["args"][0] for e in entries if e["event"] == "emit" and e["name"] == "stage_started"]
            stages[tuple(started)] += 1
            assert started == STEPS[:len(started)] and started
            # step 1: the picks, then the reveal, before anything of step 2
            first = entries.index({"event": "emit", "name": "stage_started", "args": ["play_cards"]})
            revealed = next(i for i, e in enumerate(entries) if e["event"] == "revealed")
            picks = [e["player"] for e in entries[first:revealed] if e["event"] == "action"]
            assert picks in (["player1", "player2"], ["player1"], ["player2"], [])  # a one-card hand is not asked
            pickers.update(picks)
            assert not any(e["event"] in ("counter", "status", "reveal") for e in entries[first:revealed])
            assert sum(1 for e in entries if e["event"] == "revealed") == 1
    # every round runs all five steps (a match's last one ends at step 5's win check)
    played = sum(len(rounds_of(m)) for m in random_matches())
    assert stages[tuple(STEPS)] == played and played >= 100
    assert pickers["player1"] >= played * 0.9 and pickers["player2"] >= played * 0.9


def test_player2_picks_without_knowing_player1s_card() -> None:
    """Player 1's pick is sealed while player 2 chooses: for every card player 1 could
    pick, player 2's observation never names it (its entry shows only `hidden`, the
    player 1 table holds one face-down card), everything else player 2 sees is the same,
    and player 2 is offered exactly the same moves. Player 1 still sees their own card."""
    compared = 0
    for seed, round_number in ((1, 1), (2, 1), (3, 2), (4, 3), (5, 4)):
        start, history = to_round(seed, round_number)
        options = start.legal_actions()
        assert len(options) >= 2 and all(a.player == 0 for a in options)
        seen_by_2: set[str] = set()
        offers: set[str] = set()
        for option in options:
            match = replayed(seed, history)
            card = picked(match.legal_actions()[option.id])
            match.apply(option.id)
            assert sealed_pick_of(match, 1), "player 2 is asked inside the same block"
            assert card.zone is match.zone("table", match.players[0]) and card.face_down
            view = match.observation(1)
            on_table = table_cards(view, "player1")
            assert on_table == [{"hidden": True}]  # no id either: an id seen before would name it
            assert all("name" not in c for z in view["zones"] if z["owner"] == "player1" for c in z["cards"])
            # player 2 holds no number for the card (one seen before would name it)
            assert card.id not in match.seat_names(1).numbers
            assert table_cards(match.observation(0), "player1")[0]["name"] == card.name
            seen_by_2.add(json.dumps(view, sort_keys=True))  # the whole view, ids of hidden cards absent
            offers.add(json.dumps(offered(match)))
            compared += 1
        assert len(seen_by_2) == 1, f"seed {seed}: player 2's view depends on player 1's pick"
        assert len(offers) == 1, f"seed {seed}: player 2's moves depend on player 1's pick"
    assert compared >= 15


def test_after_the_block_both_cards_are_face_up_for_both_players() -> None:
    """When step 2 begins, each table holds its player's pick face up and both seats see
    both names; the picks made were the cards that turned up."""
    shown = 0
    for match in random_matches():
        assert len(match.step2_views) == len(rounds_of(match))
        for views in match.step2_views:
            for seat in (0, 1):
                cards = views[seat]
                assert len(cards) == 2 and all("name" in c and "hidden" not in c for c in cards), cards
                # the same cards, each seat naming them by numbers of its own
                assert [{k: v for k, v in c.items() if k != "id"} for c in views[0]] == \
                    [{k: v for k, v in c.items() if k != "id"} for c in views[1]]
                shown += 1
    assert shown >= 40
    # and in a replayed round: the card player 1 picked is the one both see at step 2
    start, history = to_round(6, 2)
    for option in start.legal_actions()[:3]:
        match = replayed(6, history)
        card = picked(option)
        match.apply(option.id)
        before = len(match.step2_views)
        match.apply(match.legal_actions()[0])
        for seat in (0, 1):
            number = match.step2_numbers[before][seat][card.id]
            seen = match.step2_views[before][seat]
            assert {"id": number, "name": card.name} in [{"id": c["id"], "name": c["name"]} for c in seen]


# ---------------------------------------------------------------- agents that search


def test_a_replica_for_player2_guesses_player1s_sealed_pick_again() -> None:
    """PlayedMatch.replica(viewer=1, rng) — the search agent's copy — does not copy player
    1's sealed pick: it picks again at random, so across rng seeds the copy's face-down
    card differs from the real one, while player 2's own hand and moves are the same.
    Without a viewer the replica is the real match (the pick is copied)."""
    differing = guessed_names = 0
    for seed, round_number in ((1, 1), (2, 2), (3, 3), (7, 1), (8, 2)):
        match, _history = to_round(seed, round_number)
        options = match.legal_actions()
        match.apply(options[random.Random(seed).randrange(len(options))])
        assert sealed_pick_of(match, 1)
        real = match.zone("table", match.players[0]).cards[0]
        exact = match.replica()
        assert exact.zone("table", exact.players[0]).cards[0].id == real.id
        names = set()
        for k in range(12):
            copy = match.replica(viewer=1, rng=random.Random(k))
            guess = copy.zone("table", copy.players[0]).cards
            assert len(guess) == 1 and guess[0].face_down
            names.add(guess[0].name)
            differing += guess[0].id != real.id
            assert offered(copy) == offered(match)
            assert [c.id for c in copy.zone("hand", copy.players[1]).cards] == \
                [c.id for c in match.zone("hand", match.players[1]).cards]
        assert len(names) >= 2, f"seed {seed}: the guess never varies"
        guessed_names += len(names)
    assert differing >= 20 and guessed_names >= 10


def test_the_search_agent_in_seat_2_never_receives_player1s_pick() -> None:
    """make_agent("search:20", seed) in seat 2, asked in step 1 after player 1 picked:
    every copy it searches is made with viewer=1 (so player 1's sealed pick is guessed
    again), and its decision is the same whatever card player 1 actually picked."""
    for seed, round_number in ((1, 1), (2, 2), (3, 1)):
        start, history = to_round(seed, round_number)
        options = start.legal_actions()
        chosen: set[int] = set()
        for option in (options[0], options[-1]):
            match = replayed(seed, history)
            match.apply(option.id)
            calls: list[tuple[int | None, bool]] = []
            real_replica = match.replica

            def spy(viewer: int | None = None, rng: Any = None, _real: Any = real_replica,
                    _calls: list[tuple[int | None, bool]] = calls) -> PlayedMatch:
                _calls.append((viewer, rng is not None))
                copy: PlayedMatch = _real(viewer, rng)
                return copy

            match.replica = spy  # type: ignore[method-assign]
            agent = make_agent("search:20", seed)
            action = ask(agent, match, match.legal_actions())
            assert action.player == 1
            assert len(calls) == 20 and set(calls) == {(1, True)}
            chosen.add(action.id)
        assert len(chosen) == 1, f"seed {seed}: the search agent's pick depends on player 1's"


# ---------------------------------------------------------------- what the engine still leaks


def test_player2_cannot_identify_player1s_face_down_card_from_what_it_was_shown() -> None:
    """Everything player 2 is shown (its observations and the moves it is offered) never
    lets it name player 1's face-down card while player 1's pick is sealed."""
    identified = asked = 0
    for seed in range(1, 6):
        match = PlayedMatch(game(), seed=seed, players=2)
        agents = [RandomAgent(seed), RandomAgent(seed + 100)]
        known: dict[int, str] = {}
        while not match.is_over:
            actions = match.legal_actions()
            if actions[0].player == 1:
                view = match.observation(1)
                if match.open_seal is not None:
                    asked += 1
                    identified += any(c.get("id") in known for c in table_cards(view, "player1"))
                for c in (c for z in view["zones"] for c in z["cards"] if "name" in c):
                    known[c["id"]] = c["name"]
                for description in view["legal_actions"]:
                    known.update((int(i), n) for n, i in re.findall(r"([A-Z][\w' ]+)#(\d+)", description))
            match.apply(ask(agents[actions[0].player], match, actions))
    assert asked > 0
    assert identified == 0, f"player 2 could name player 1's face-down card in {identified} of {asked} picks"
