"""Kingdom Combat played by the rules as written (issue 11), through new_match / legal_actions / apply.

Every test plays seeded matches with agents and counts what happened: Dirty Tricks "at any
time, on any player's turn" (also in both combat steps, paid from gold left over from the
player's own turn), activated abilities offered to their controller in the windows their
timing allows, responses stacked on responses and resolved last in first out, a random
first player who skips the first draw, and Alert units never chosen by an opponent's trick.

Random agents spend their gold and exhaust their units on their own turn, so they seldom
act on the opponent's turn (in 8 random matches of 250 decisions, no Dirty Trick was
offered off-turn at all); the `Lurker` test agent below keeps tricks, instant abilities and some gold
for the other player's turn, uses them there, and always answers what waits on the stack.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from conftest import LIBRARY, decide

import cardsmith
from cardsmith.app import decks_for
from cardsmith.engine import offers
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.moves import Action, ActionWindow

DECKS = sorted((LIBRARY / "kingdom_combat" / "decks").glob("*.deck"))
TOKENS = {"Goblin Rabble", "Militia Levy", "Risen Skeleton"}
MAIN_STAGES = {"precombat", "postcombat"}

# Both seats play this deck in the Alert test: Alert units (printed, or given by Oath of
# Vigilance) and the tricks that may target an enemy unit, Volley of Arrows above all.
ALERT_DECK = (["Castle Valoria"] + ["Peasant Militia"] * 4 + ["Footman"] * 4 + ["Elven Outrider"] * 4
              + ["Royal Paladin"] * 2 + ["Oath of Vigilance"] * 4 + ["Volley of Arrows"] * 6 + ["Bribe"] * 3
              + ["Ambush"] * 3 + ["Farmstead"] * 4 + ["Market Town"] * 4)


@cache
def game() -> Any:
    return cardsmith.load("kingdom_combat")


def speed_of(match: PlayedMatch, move: tuple[Any, ...]) -> str:
    """The speed of an activated ability a window offers (move = ("activate", card, key))."""
    found = offers.find_activation(match, move[1], move[2])
    assert found is not None
    return found.ability.speed


def kind(action: Action) -> str | None:
    """What a window move is: an action's name, "ability:Ranged" (a keyword's ability) or
    "ability:<card name>"; None for a pass."""
    if not isinstance(action.payload, tuple):
        return None
    move = action.payload[0]
    if isinstance(move, str):
        return move
    _activate, card, key = move
    return f"ability:{key[1]}" if key[0] == "keyword" else f"ability:{card.name}"


def quick(match: PlayedMatch, action: Action) -> bool:
    """A Dirty Trick or an instant ability: a move usable on another player's turn."""
    if not isinstance(action.payload, tuple):
        return False
    move = action.payload[0]
    if isinstance(move, str):
        return move == "play_dirty_trick"
    return speed_of(match, move) == "instant"


class Lurker:
    """Test script (seeded; it reads the live match, so it is played through conftest's
    `decide`). With something waiting on the stack it always answers with a Dirty Trick
    or an instant ability when one is offered; off its turn it uses one when
    offered 40% of the time (so some are left for the combat steps and Post-Combat). On its
    own turn with an empty stack it never uses them, and half the time it keeps at least
    2 gold (no card or ability that would leave less); otherwise it moves at random like
    RandomAgent, passing one time in five."""

    EAGER = 0.4

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def script(self, match: PlayedMatch, actions: list[Action]) -> Action:
        if not isinstance(match.pending, ActionWindow):
            return actions[self.rng.randrange(len(actions))]
        seat = actions[0].player
        assert match.current is not None
        fast = [a for a in actions if quick(match, a)]
        if fast and (match.stack_programs or (seat != match.current.index and self.rng.random() < self.EAGER)):
            return self.rng.choice(fast)
        if seat != match.current.index:
            return next(a for a in actions if a.payload == "pass")
        saving = self.rng.random() < 0.5
        gold = match.players[seat].counters["gold"]
        calm = []
        for action in actions:
            if action.payload == "pass" or action in fast:
                continue
            move, choices = action.payload
            if saving and not isinstance(move, str):
                continue
            if saving and move.startswith("play_") and gold - choices[0].base.get("cost", 0) < 2:
                continue
            calm.append(action)
        passing = [a for a in actions if a.payload == "pass"]
        if calm and (not passing or self.rng.random() >= 0.2):
            return self.rng.choice(calm)
        return passing[0] if passing else actions[0]


@dataclass
class TrickChoice:
    """A target chosen while a Dirty Trick resolves."""

    trick: str
    trick_owner: int
    chooser: int
    current: int
    options: set[int]  # card ids offered
    expected: set[int] | None  # what the printed text allows, Alert applied (None: not a trick aimed at enemies)
    shielded: int  # enemy units the printed filter would allow but Alert protects
    own_alert_offered: int  # the chooser's own Alert units among the options


ON_TABLE = ("fortress_zone", "structures_zone", "battlefield")
AIMED = ("Volley of Arrows", "Bribe", "Ambush")  # the tricks that may target an enemy unit


def printed_filter(match: PlayedMatch, trick: str, chooser: Any, card: Any) -> bool:
    """The target filter printed on the AIMED tricks, without Alert: the test's own reading
    of the card text."""
    enemy = card.controller is not chooser
    if trick == "Volley of Arrows":  # "target unit in the Battlefield"
        return bool(card.zone.name == "battlefield")
    if trick == "Bribe":  # "target enemy unit that costs 3 or less"
        return enemy and card.zone.name in ON_TABLE and match.effective(card, "cost") <= 3
    if trick == "Ambush":  # "target attacking enemy unit"
        return enemy and "attacking" in card.statuses
    raise AssertionError(trick)


@dataclass
class Record:
    """What one match offered and what was taken."""

    seed: int
    match: PlayedMatch
    actions: int = 0
    offered: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, own/off) -> decisions
    offered_in: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # (kind, stage, own/off)
    taken: Counter[tuple[str, str]] = field(default_factory=Counter)
    trick_stages: Counter[tuple[str, str]] = field(default_factory=Counter)  # (stage, own/off) of tricks taken
    off_turn_payments: list[tuple[int, int]] = field(default_factory=list)  # gold before, after paying
    trick_choices: list[TrickChoice] = field(default_factory=list)
    tokens_made: list[tuple[str, bool]] = field(default_factory=list)  # (maker, a new exhausted token)
    timing_faults: list[str] = field(default_factory=list)
    max_depth: int = 0


def has_alert(match: PlayedMatch, card: Any) -> bool:
    return any(name == "Alert" for name, _args in match.keywords_of(card))


def tokens_in(match: PlayedMatch, seat: int) -> set[int]:
    zone = match.zones[("fortress_zone", seat)]
    return {c.id for c in zone.cards if c.name in TOKENS and "exhausted" in c.statuses}


def check_offers(match: PlayedMatch, actions: list[Action], record: Record) -> None:
    """Every ability offered belongs to the seat deciding; a non-instant one only on its own
    turn, with the stack empty, in Pre- or Post-Combat; never the tucked lower Fortress's."""
    assert match.current is not None
    seat = actions[0].player
    for action in actions:
        if not isinstance(action.payload, tuple) or isinstance(action.payload[0], str):
            continue
        move = action.payload[0]
        card = move[1]
        if card.controller.index != seat:
            record.timing_faults.append(f"{action.description} offered to seat {seat}")
        if card.host is not None:
            record.timing_faults.append(f"{action.description}: the lower Fortress's ability")
        if speed_of(match, move) != "instant" and (
                seat != match.current.index or match.stack_programs or match.stage_name not in MAIN_STAGES):
            record.timing_faults.append(f"{action.description} offered in {match.stage_name}, "
                                        f"turn of {match.current.name}, to seat {seat}")


def note_trick_choice(match: PlayedMatch, request: rt.Choose, record: Record) -> None:
    stack = match.zones[("stack", -1)].cards
    resolving = [e for e in match.log if e["event"] in ("waiting", "resolve")][-1:]
    if not stack or stack[0].type != "DirtyTrick" or resolving[0] != {"event": "resolve",
                                                                        "action": "play_dirty_trick"}:
        return
    assert request.player is not None and match.current is not None
    chooser = request.player
    trick = stack[0]  # the top of the stack zone: the card resolving now
    units = [c for c in match.all_cards() if c.type == "Unit" and c.zone is not None]
    expected: set[int] | None = None
    shielded = 0
    if trick.name in AIMED:
        allowed = [c for c in units if printed_filter(match, trick.name, chooser, c)]
        protected = [c for c in allowed if c.controller is not chooser and has_alert(match, c)]
        expected = {c.id for c in allowed} - {c.id for c in protected}
        shielded = len(protected)
    offered = [c for c in request.options if getattr(c, "type", None) == "Unit"]
    record.trick_choices.append(TrickChoice(
        trick.name, trick.owner.index if trick.owner else -1, chooser.index, match.current.index,
        {c.id for c in request.options}, expected, shielded,
        sum(1 for c in offered if c.controller is chooser and has_alert(match, c))))


def play(seed: int, agents: list[Any], max_actions: int, decks: list[Any] | None = None) -> Record:
    """Drive one seeded match through legal_actions / apply, recording as it goes."""
    dealt = decks_for(game(), 2, list(decks)) if decks and isinstance(decks[0], Path) else decks
    match: PlayedMatch = game().new_match(seed=seed, decks=dealt)
    record = Record(seed, match)
    while not match.is_over and record.actions < max_actions:
        actions = match.legal_actions()
        if not actions:
            break
        seat = actions[0].player
        assert match.current is not None
        whose = "own" if seat == match.current.index else "off"
        stage = str(getattr(match, "stage_name", None))
        if isinstance(match.pending, ActionWindow):
            for k in {kind(a) for a in actions} - {None}:
                record.offered[(str(k), whose)] += 1
                record.offered_in[(str(k), stage, whose)] += 1
            check_offers(match, actions, record)
        elif isinstance(match.pending, rt.Choose):
            note_trick_choice(match, match.pending, record)
        chosen = decide(agents[seat], match, actions)
        taken = kind(chosen) if isinstance(match.pending, ActionWindow) else None
        gold = match.players[seat].counters["gold"]
        tokens = tokens_in(match, seat)
        logged = len(match.log)
        match.apply(chosen)
        record.actions += 1
        record.max_depth = max(record.max_depth, len(match.stack_programs))
        if taken is None:
            continue
        record.taken[(taken, whose)] += 1
        if taken == "play_dirty_trick":
            record.trick_stages[(stage, whose)] += 1
            if whose == "off":  # the first change of the player's gold after the move: the payment
                name = match.players[seat].name
                paid = next(e["value"] for e in match.log[logged:]
                            if e["event"] == "counter" and e["player"] == name and e["counter"] == "gold")
                record.off_turn_payments.append((int(gold), int(paid)))
        if taken in ("ability:The Bone Citadel", "ability:Castle Valoria", "ability:Necromancer"):
            record.tokens_made.append((taken, bool(tokens_in(match, seat) - tokens)))
    return record


@cache
def lurker_matches() -> tuple[Record, ...]:
    """20 seeded matches of Lurkers, 250 decisions each, over pairs of the library's decks."""
    out = []
    for seed in range(20):
        pair = [DECKS[seed % len(DECKS)], DECKS[(seed + 1 + seed // len(DECKS)) % len(DECKS)]]
        out.append(play(seed, [Lurker(100 + seed), Lurker(200 + seed)], 250, decks=pair))
    return tuple(out)


@cache
def random_matches() -> tuple[Record, ...]:
    """8 seeded matches of RandomAgents, 250 decisions each, over pairs of the library's decks."""
    out = []
    for seed in range(8):
        pair = [DECKS[(seed + 2) % len(DECKS)], DECKS[seed % len(DECKS)]]
        out.append(play(seed, [RandomAgent(300 + seed), RandomAgent(400 + seed)], 250, decks=pair))
    return tuple(out)


def total(records: tuple[Record, ...], what: str) -> Counter[Any]:
    counts: Counter[Any] = Counter()
    for r in records:
        counts.update(getattr(r, what))
    return counts


# ---------------------------------------------------------------- Dirty Tricks and Ranged, any turn


def test_dirty_tricks_are_played_on_the_opponents_turn_and_ranged_shots_resolve() -> None:
    records = lurker_matches()
    assert all(r.match.error is None for r in records), [r.match.error for r in records]
    taken = total(records, "taken")
    offered = total(records, "offered")
    assert taken[("play_dirty_trick", "off")] >= 5, taken
    assert sum(1 for r in records if r.taken[("play_dirty_trick", "off")]) >= 5
    assert offered[("ability:Ranged", "off")] > 0 and taken[("ability:Ranged", "off")] > 0, taken
    # every trick the log shows waiting on another player's turn was put there by that player
    off_turn_waits = 0
    for r in records:
        current = None
        for entry in r.match.log:
            if entry["event"] == "emit" and entry["name"] == "turn_started":
                current = entry["args"][0]
            elif entry["event"] == "waiting" and entry["effect"] == "play_dirty_trick" and entry["player"] != current:
                off_turn_waits += 1
    assert off_turn_waits == taken[("play_dirty_trick", "off")]
    shots = [e for r in records for e in r.match.log
             if e["event"] == "resolve" and str(e["action"]).endswith(": Ranged shot")]
    assert len(shots) >= 5


def test_leftover_gold_pays_for_tricks_on_the_opponents_turn() -> None:
    """Gold resets only at the start of its owner's turn: what is left pays off-turn."""
    payments = [p for r in lurker_matches() for p in r.off_turn_payments]
    assert payments and all(before > after for before, after in payments), payments


def test_tricks_are_played_on_the_opponents_turn_in_every_stage_with_a_window() -> None:
    """Pre-Combat, both combat steps (after the attack is declared, after the defender's
    choice) and Post-Combat."""
    stages = total(lurker_matches() + alert_matches(), "trick_stages")
    off_stages = {stage for (stage, whose) in stages if whose == "off"}
    assert off_stages == {"precombat", "declare", "defend", "postcombat"}, stages


# ---------------------------------------------------------------- the stack


def test_responses_stack_and_resolve_last_in_first_out() -> None:
    records = lurker_matches() + random_matches()
    assert max(r.max_depth for r in records) >= 2
    answered_by_other = 0
    checked = 0
    for r in records:
        waiting: list[tuple[str, str, str | None]] = []  # (effect, player, card put on the stack)
        expected: str | None = None
        last_to_stack: str | None = None
        for entry in r.match.log:
            event = entry["event"]
            if event == "move" and entry["to"] == "stack":
                last_to_stack = entry["card"]
            elif event == "waiting":
                card = last_to_stack if entry["effect"] in ("play_dirty_trick", "play_event") else None
                if waiting and waiting[-1][1] != entry["player"]:
                    answered_by_other += 1
                waiting.append((entry["effect"], entry["player"], card))
                last_to_stack = None
            elif event == "resolve":
                assert waiting, f"seed {r.seed}: a resolve with nothing waiting"
                effect, _player, card = waiting.pop()
                assert entry["action"] == effect, f"seed {r.seed}: resolved {entry['action']}, top was {effect}"
                expected = card
            elif event == "emit" and entry["name"] == "resolved":
                assert entry["args"][0] == expected, f"seed {r.seed}: {entry['args'][0]} resolved, not {expected}"
                checked += 1
                expected = None
    assert checked >= 20 and answered_by_other >= 5, (checked, answered_by_other)


# ---------------------------------------------------------------- activated abilities


def test_activated_abilities_follow_their_timing() -> None:
    records = lurker_matches() + random_matches()
    faults = [f for r in records for f in r.timing_faults]
    assert not faults, faults[:5]
    offered = total(records, "offered")
    taken = total(records, "taken")
    # token makers: offered on the controller's own turn, taken, and a token appears, exhausted
    makers = [k for k in offered if k[0] in ("ability:The Bone Citadel", "ability:Castle Valoria",
                                             "ability:Necromancer")]
    assert makers and all(whose == "own" for _k, whose in makers), makers
    made = [m for r in records for m in r.tokens_made]
    assert len(made) >= 5 and all(new for _maker, new in made), made
    assert {maker for maker, _new in made} >= {"ability:The Bone Citadel", "ability:Castle Valoria"}
    # the other abilities of the library's decks are offered and used too
    for ability in ("ability:Ranged", "ability:Banshee", "ability:Watchtower", "ability:Battle Cleric"):
        assert offered[(ability, "own")] + offered[(ability, "off")] > 0, ability
    assert taken[("ability:Ranged", "own")] > 0 and taken[("ability:Banshee", "own")] > 0


def test_the_lower_fortress_of_a_dual_deck_offers_no_ability() -> None:
    dual = next(d for d in DECKS if d.name.startswith("dual"))
    record = play(5, [RandomAgent(7), RandomAgent(8)], 120, decks=[dual, dual])
    lower = [c for c in record.match.zones[("fortress_zone", 0)].cards if c.type == "Fortress" and c.host is not None]
    assert lower, "the dual deck tucks one fortress under the other"
    assert not record.timing_faults, record.timing_faults
    upper = lower[0].host
    assert upper is not None and record.offered[(f"ability:{upper.name}", "own")] > 0


# ---------------------------------------------------------------- the first player


def test_the_first_player_is_random_and_skips_the_first_draw() -> None:
    firsts = []
    for seed in range(10):
        match: PlayedMatch = game().new_match(seed=seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 50)]
        while match.turn_number < 3 and not match.is_over:
            actions = match.legal_actions()
            match.apply(ask(agents[actions[0].player], match, actions))
        first = next(e["player"] for e in match.log if e["event"] == "first_player")
        firsts.append(first)
        draws: list[tuple[str, int]] = []  # per turn: whose, cards drawn in the beginning stage
        in_beginning = False
        for entry in match.log:
            if entry["event"] != "emit":
                continue
            if entry["name"] == "turn_started":
                draws.append((entry["args"][0], 0))
            elif entry["name"] in ("stage_started", "stage_ended") and entry["args"] == ["beginning"]:
                in_beginning = entry["name"] == "stage_started"
            elif entry["name"] == "entered" and in_beginning and entry["args"][1] == f"hand of {draws[-1][0]}":
                draws[-1] = (draws[-1][0], draws[-1][1] + 1)
        assert draws[0] == (first, 0), f"seed {seed}: the first player drew on turn 1: {draws}"
        assert draws[1][0] != first and draws[1][1] == 1, f"seed {seed}: the second player's first draw: {draws}"
    assert set(firsts) == {"player1", "player2"}, firsts


# ---------------------------------------------------------------- Alert


@cache
def alert_matches() -> tuple[Record, ...]:
    return tuple(play(seed, [Lurker(500 + seed), Lurker(600 + seed)], 250, decks=[ALERT_DECK, ALERT_DECK])
                 for seed in range(8))


def test_alert_units_are_never_targets_of_an_opponents_trick() -> None:
    choices = [c for r in alert_matches() for c in r.trick_choices]
    aimed = [c for c in choices if c.expected is not None]
    assert len(aimed) >= 10, len(aimed)
    for c in choices:
        assert c.chooser == c.trick_owner, f"{c.trick}: chosen by seat {c.chooser}, played by {c.trick_owner}"
    for c in aimed:
        assert c.options == c.expected, c
    # the filter did real work: enemy Alert units the printed text would allow were left
    # out, on both players' turns; the chooser's own Alert units were offered
    assert sum(c.shielded for c in aimed) >= 3
    assert sum(c.own_alert_offered for c in choices) > 0
    assert any(c.chooser != c.current for c in aimed), "a trick resolved on the opponent's turn"
