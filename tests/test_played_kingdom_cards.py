"""Kingdom Cards played through new_match / legal_actions / apply: the rules as written.

* prepare is a window both battle players share (`responses: yes`): "both players can
  alter their kingdoms until the opponent attacks". The defender — not the player whose
  turn it is — is offered and takes arranging moves on the challenger's turn, and their
  attack ends the stage; nobody else acts there.
* the six `skip:` conditions of the turn are honoured: each stage of each turn is skipped
  exactly when its condition holds on the table the log describes, and runs otherwise.
* kingdoms completed at the same moment (the auto-complete after a battle builds both)
  share the win, whatever their treasures; the others are still ranked.

Every match is seeded, so every figure here is the same on every run.
"""

from __future__ import annotations

import itertools
import random
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from conftest import LIBRARY, decide

from cardsmith.app import load
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.moves import Action, ActionWindow

ARRANGING = ("form_group", "place_card", "add_treasure", "take_back")
ARRANGING_LABELS = ("Add a group to your kingdom", "Place a card in your kingdom", "Add a treasure to your kingdom",
                    "Return a card to your hand")
BATTLE_STAGES = ("prepare", "counterattack", "raise", "answer", "resolve")


# ---------------------------------------------------------------- agents

class BriskAgent(RandomAgent):
    """RandomAgent that passes in one window out of two where it may (RandomAgent: one in
    five), so that the long games (the grand deck) stay short. It favours no move."""

    PASS_CHANCE = 0.5


def _held(match: PlayedMatch, seat: int) -> list[Any]:
    return [*match.zones[("hand", seat)].cards, *match.zones[("kingdom", seat)].cards]


def _on_flag(card: Any, flag: tuple[str, ...]) -> bool:
    return bool(card.type == "Figure" and card.base["colour"].name == flag[(card.base["value"] - 1) % 3])


FLAGS = list(itertools.product(("red", "yellow", "blue"), repeat=3))


def _best_flag(match: PlayedMatch, seat: int) -> tuple[str, ...]:
    cards = _held(match, seat)
    return max(FLAGS, key=lambda flag: (sum(_on_flag(c, flag) for c in cards), flag))


class Kingmaker:
    """A test helper that steers two players towards completing their kingdoms in the
    same battle, which random play almost never does (0 of 40 random matches).

    It peeks at the whole table (it is no fair player): when it bids, it gives away the
    card its opponents' best flags need most and its own best flag needs least, so the
    two players feed each other's kingdoms and often complete them in one exchange. In
    windows it lays every treasure into its kingdom (so completers differ in treasures)
    and otherwise passes; every other choice is random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def script(self, match: PlayedMatch, actions: list[Action]) -> Action:
        request = match.pending
        if isinstance(request, ActionWindow):
            treasures = [a for a in actions if isinstance(a.payload, tuple) and a.payload[0] == "add_treasure"]
            return treasures[0] if treasures else next(a for a in actions if a.payload == "pass")
        if isinstance(request, rt.Choose) and all(hasattr(a.payload, "base") for a in actions):
            me = actions[0].player
            others = [p.index for p in match.players if p.index != me]

            def worth(card: Any) -> int:
                return sum(_on_flag(card, _best_flag(match, o)) for o in others) - 2 * _on_flag(
                    card, _best_flag(match, me))

            best = max(worth(a.payload) for a in actions)
            return self.rng.choice([a for a in actions if worth(a.payload) == best])
        return actions[self.rng.randrange(len(actions))]


# ---------------------------------------------------------------- driving and reading matches

@dataclass(frozen=True)
class Decision:
    """One decision of a played match: in which window (None: a choice inside a rule), by
    whom, on whose turn, who was defending, what was offered and what was taken."""

    stage: str | None
    player: int
    current: int
    defender: int | None
    offered: tuple[str, ...]
    taken: str


def _kind(action: Action) -> str:
    if action.payload == "pass":
        return "pass"
    if isinstance(action.payload, tuple) and isinstance(action.payload[0], str):
        return action.payload[0]
    return "choice"


def drive(match: PlayedMatch, agents: list[Any], max_actions: int = 20_000) -> list[Decision]:
    """Play the match to its end with one agent per seat; every decision, recorded."""
    decisions: list[Decision] = []
    while not match.is_over and len(decisions) < max_actions:
        actions = match.legal_actions()
        assert actions, "a match that is not over must offer a move"
        seat = actions[0].player
        chosen = decide(agents[seat], match, actions)
        window = match.pending if isinstance(match.pending, ActionWindow) else None
        current = match.current
        assert current is not None
        defending = [p.index for p in match.players if p.counters["defending"] == 1]
        decisions.append(Decision(window.stage.name if window is not None else None, seat, current.index,
                                  defending[0] if defending else None,
                                  tuple(_kind(a) for a in actions) if window is not None else (), _kind(chosen)))
        match.apply(chosen)
    assert match.is_over, f"seed {match.seed}: not over after {max_actions} actions"
    assert match.error is None, match.error
    return decisions


@dataclass(frozen=True)
class Played:
    match: PlayedMatch
    decisions: list[Decision]


def play(game: CompiledGame, seed: int, players: int, mode: str | None = None,
         agent: Callable[[int], Any] = RandomAgent) -> Played:
    match = game.new_match(seed=seed, players=players, mode=mode)
    agents = [agent(seed * 10 + seat) for seat in range(players)]
    return Played(match, drive(match, agents))


@cache
def classic_two() -> list[Played]:
    """Three seeded matches of the classic game, two players, random agents."""
    return [play(load("kingdom_cards"), seed, 2) for seed in range(3)]


@cache
def classic_three() -> list[Played]:
    """Four seeded matches of the classic game, three players, random agents."""
    return [play(load("kingdom_cards"), seed, 3) for seed in range(4)]


@dataclass(frozen=True)
class LoggedAction:
    stage: str | None
    current: str
    player: str
    description: str


def logged_actions(log: list[dict[str, Any]]) -> list[LoggedAction]:
    """Every applied decision, with the stage it was taken in and whose turn it was."""
    stage: str | None = None
    current = ""
    out: list[LoggedAction] = []
    for entry in log:
        if entry["event"] == "emit" and entry["name"] == "turn_started":
            current = entry["args"][0]
        elif entry["event"] == "emit" and entry["name"] == "stage_started":
            stage = entry["args"][0]
        elif entry["event"] == "emit" and entry["name"] == "stage_ended":
            stage = None
        elif entry["event"] == "action":
            out.append(LoggedAction(stage, current, entry["player"], entry["description"]))
    return out


@dataclass(frozen=True)
class StageBegin:
    """A stage about to begin: whether it ran or was skipped, and the size of every zone
    at that moment (read from the log: cards created into, entering and leaving zones)."""

    stage: str
    ran: bool
    current: str
    sizes: dict[str, int]
    index: int  # its place in the log


def stage_begins(log: list[dict[str, Any]]) -> Iterator[StageBegin]:
    sizes: Counter[str] = Counter()
    current = ""
    for index, entry in enumerate(log):
        event = entry["event"]
        if event == "create":
            sizes[entry["zone"]] += 1
        elif event == "emit" and entry["name"] == "left":
            sizes[entry["args"][1]] -= 1
        elif event == "emit" and entry["name"] == "entered":
            sizes[entry["args"][1]] += 1
        elif event == "emit" and entry["name"] == "turn_started":
            current = entry["args"][0]
        elif event == "emit" and entry["name"] == "stage_started":
            yield StageBegin(entry["args"][0], True, current, dict(sizes), index)
        elif event == "stage_skipped":
            yield StageBegin(entry["stage"], False, current, dict(sizes), index)


# What each `skip:` of library/kingdom_cards/rules.cards means, on the table.
SKIP_WHEN: dict[str, Callable[[dict[str, int]], bool]] = {
    "challenge": lambda z: z.get("source", 0) == 0,             # the source is exhausted: last turns
    "prepare": lambda z: z.get("centre", 0) == 0,               # nothing to fight for
    "counterattack": lambda z: z.get("centre", 0) == 0,
    "raise": lambda z: z.get("centre", 0) == 0,
    "answer": lambda z: not any(n > 0 for zone, n in z.items() if zone.startswith("second_bid")),  # no raise
    "resolve": lambda z: z.get("centre", 0) == 0,
}


def check_skips(matches: list[PlayedMatch]) -> tuple[Counter[str], Counter[str]]:
    """Every stage with a `skip:` ran exactly when its condition did not hold; the
    stage_skipped events per stage name, and the stages that ran, are returned."""
    skipped: Counter[str] = Counter()
    ran: Counter[str] = Counter()
    for match in matches:
        logged_skips = Counter(e["stage"] for e in match.log if e["event"] == "stage_skipped")
        seen: Counter[str] = Counter()
        for begin in stage_begins(match.log):
            if begin.stage not in SKIP_WHEN:
                assert begin.ran, f"seed {match.seed}: {begin.stage} has no skip: but was skipped"
                continue
            assert begin.ran != SKIP_WHEN[begin.stage](begin.sizes), (
                f"seed {match.seed}: {begin.stage} {'ran' if begin.ran else 'was skipped'} with {begin.sizes}")
            (ran if begin.ran else seen)[begin.stage] += 1
        assert seen == logged_skips, (seen, logged_skips)
        skipped.update(seen)
    return skipped, ran


# ---------------------------------------------------------------- prepare: both battle players act

def test_the_defender_arranges_and_attacks_in_prepare_on_the_challengers_turn() -> None:
    played = classic_two()
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for one in played:
        for d in one.decisions:
            if d.stage != "prepare" or d.player == d.current:
                continue
            # off-turn in prepare: only ever the defender, on the challenger's turn
            assert d.player == d.defender, d
            offered.update(set(d.offered))
            taken[d.taken] += 1
    for name in (*ARRANGING, "attack"):
        assert offered[name] > 0, f"the defender was never offered {name}: {offered}"
    assert sum(taken[name] for name in ARRANGING) > 0 and taken["attack"] > 0, taken

    # The log says the same: arranging actions by the player whose turn it is not.
    off_turn = [a for one in played for a in logged_actions(one.match.log)
                if a.stage == "prepare" and a.player != a.current]
    assert any(a.description.startswith(ARRANGING_LABELS) for a in off_turn)
    assert all(a.description.startswith((*ARRANGING_LABELS, "Attack", "pass")) for a in off_turn), off_turn


def test_the_attack_ends_prepare_and_is_the_defenders_bid() -> None:
    attacks = 0
    for one in classic_two():
        actions = logged_actions(one.match.log)
        for i, action in enumerate(actions):
            if not action.description.startswith("Attack: bid your first card"):
                continue
            attacks += 1
            assert action.stage == "prepare" and action.player != action.current
            following = actions[i + 1] if i + 1 < len(actions) else None
            # the stage is over at once; the next decision is the challenger's counter-bid
            # (or a later one), never a second bid asked of the defender
            assert following is None or following.stage != "prepare", following
            if following is not None and following.stage == "counterattack":
                assert following.player == following.current, following
    assert attacks > 0


def test_only_the_two_battle_players_act_in_prepare() -> None:
    """Three players: the third is never asked anything while the other two battle."""
    by_role: Counter[str] = Counter()
    for one in classic_three():
        for d in one.decisions:
            if d.stage == "prepare":
                assert d.player in (d.current, d.defender), d
                by_role["challenger" if d.player == d.current else "defender"] += 1
    assert by_role["challenger"] > 0 and by_role["defender"] > 0, by_role


def test_without_responses_nobody_else_acts_in_arrange() -> None:
    for one in [*classic_two(), *classic_three()]:
        assert all(d.player == d.current for d in one.decisions if d.stage == "arrange")


def empty_hands_game(tmp_path: Path) -> CompiledGame:
    """The library's own rules with one mode added that deals no cards (hand_size 0)."""
    folder = tmp_path / "kingdom_cards"
    shutil.copytree(LIBRARY / "kingdom_cards", folder)
    with (folder / "rules.cards").open("a", encoding="utf-8") as rules:
        rules.write('\nmode empty_hands "No cards dealt" {\n  players: 2..3\n  hand_size: 0\n}\n')
    return load(str(folder))


class LayoutAgent:
    """A test helper that lays every card it can into its kingdom and never takes one
    back or attacks in prepare (it passes instead); other choices are random. With few
    cards in hand, its defenders often hold no card when the battle begins."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def script(self, match: PlayedMatch, actions: list[Action]) -> Action:
        if isinstance(match.pending, ActionWindow):
            lay = [a for a in actions if _kind(a) in ("form_group", "place_card", "add_treasure")]
            return self.rng.choice(lay) if lay else next(a for a in actions if a.payload == "pass")
        return actions[self.rng.randrange(len(actions))]


def test_a_defender_who_laid_out_their_whole_hand_bids_from_their_incomplete_groups(tmp_path: Path) -> None:
    """The defender may arrange in prepare, so they can lay their whole hand out and pass:
    when the battle begins (counterattack) the kingdoms lock first — the incomplete
    groups of both come home — and the defender bids one of those cards."""
    game = empty_hands_game(tmp_path)
    late = 0
    for seed, players in ((0, 2), (1, 3)):
        log = play(game, seed, players, "empty_hands", LayoutAgent).match.log
        for begin in stage_begins(log):
            if begin.stage != "counterattack" or not begin.ran:
                continue
            defender = next(e["player"] for e in reversed(log[:begin.index]) if e["event"] == "counter"
                            and e.get("counter") == "defending" and e.get("value") == 1)
            if begin.sizes.get(f"hand of {defender}", 0) > 0 or begin.sizes.get(f"kingdom of {defender}", 0) == 0:
                continue
            end = next(i for i in range(begin.index, len(log)) if log[i]["event"] == "emit"
                       and log[i]["name"] == "stage_ended" and log[i]["args"] == ["counterattack"])
            left = [e["args"][1] for e in log[begin.index:end] if e["event"] == "emit" and e["name"] == "left"]
            bids = [e["args"][1] for e in log[begin.index:end] if e["event"] == "emit" and e["name"] == "entered"
                    and e["args"][1].startswith("first_bid of")]
            if f"kingdom of {defender}" not in left:
                # only complete groups and treasures: nothing comes home, nothing to bid
                assert f"first_bid of {defender}" not in bids
                continue
            late += 1
            # the defender's incomplete groups came home before any bid, then they bid first
            assert left[0] == f"kingdom of {defender}", left[:3]
            assert bids[0] == f"first_bid of {defender}", bids[:2]
    assert late > 0


# ---------------------------------------------------------------- skip:

def test_every_skip_holds_exactly_when_its_condition_does(tmp_path: Path) -> None:
    """Classic matches reach the last turns (challenge to resolve skipped) and battles
    without a raise (answer skipped); an unopposed challenge — the opponent holds no card,
    so the challenger takes the source card and the battle stages are skipped — needs an
    empty hand, which the 9-card deal almost never gives. So the library's own rules are
    also played with a mode added that deals no cards (hand_size 0): the first challenge
    of every such match is unopposed."""
    empty = empty_hands_game(tmp_path)
    empty_played = [play(empty, seed, players, "empty_hands", BriskAgent) for seed, players in ((0, 2), (1, 3))]

    matches = [one.match for one in [*classic_two(), *classic_three(), *empty_played]]
    skipped, ran = check_skips(matches)
    for stage in SKIP_WHEN:
        assert skipped[stage] > 0 and ran[stage] > 0, (stage, skipped, ran)

    # The last turns: once the source is exhausted every player takes one more turn,
    # with nothing to draw (challenge skipped), unless a kingdom is completed first.
    for match in matches:
        last_turns = sum(1 for e in match.log if e["event"] == "stage_skipped" and e["stage"] == "challenge")
        crowned = any(p.counters["crowned"] == 1 for p in match.players)
        assert last_turns <= len(match.players) if crowned else last_turns == len(match.players), match.seed

    # An unopposed challenge: the challenge ran, the battle stages were skipped, and the
    # card from the centre went to the challenger's hand.
    unopposed = 0
    for one in empty_played:
        begins = list(stage_begins(one.match.log))
        for i, begin in enumerate(begins):
            if begin.stage == "challenge" and begin.ran and i + 1 < len(begins) and not begins[i + 1].ran:
                battle = begins[i + 1:i + 6]
                assert [(b.stage, b.ran) for b in battle] == [(s, False) for s in BATTLE_STAGES]
                assert battle[0].sizes.get(f"hand of {begin.current}", 0) == begin.sizes.get(
                    f"hand of {begin.current}", 0) + 1
                unopposed += 1
    assert unopposed >= len(empty_played)


# ---------------------------------------------------------------- endings

@cache
def steered() -> list[Played]:
    """Twelve seeded two-player matches between Kingmakers: two of them (seeds 4 and 9)
    end in a simultaneous completion — about one match in ten does."""
    return [play(load("kingdom_cards"), seed, 2, agent=Kingmaker) for seed in range(12)]


def test_kingdoms_completed_at_the_same_moment_share_the_win_whatever_their_treasures() -> None:
    shared = 0
    unequal_treasures = 0
    for one in steered():
        match = one.match
        crowned = [p for p in match.players if p.counters["crowned"] == 1]
        if len(crowned) < 2:
            continue
        shared += 1
        assert match.winners == crowned and match.winner is None
        assert [match.rank_of(p) for p in crowned] == [1, 1]
        assert {"event": "win", "players": [p.name for p in crowned]} in match.log
        # the game's scoring ranks them equal first too, and ranks everyone
        ranking = next(e["order"] for e in match.log if e["event"] == "ranking")
        keys = {name: key for name, key in ranking}
        assert keys[crowned[0].name] == keys[crowned[1].name] and len(keys) == len(match.players), ranking
        # completed at the same moment: both crowned by one run of the check, after the
        # last battle's auto-complete, with no decision in between
        last_action = max(i for i, e in enumerate(match.log) if e["event"] == "action")
        crowning = [e["player"] for e in match.log[last_action:]
                    if e["event"] == "counter" and e.get("counter") == "crowned" and e.get("value") == 1]
        assert sorted(crowning) == [p.name for p in crowned]
        treasures = [sum(1 for c in match.zones[("kingdom", p.index)].cards if c.type == "Treasure") for p in crowned]
        if treasures[0] != treasures[1]:
            unequal_treasures += 1
    assert shared > 0, "no simultaneous completion in the steered matches"
    assert unequal_treasures > 0, "no simultaneous completion with different treasures"


def test_a_single_completer_wins_alone() -> None:
    alone = 0
    for one in steered():
        crowned = [p for p in one.match.players if p.counters["crowned"] == 1]
        if len(crowned) == 1:
            alone += 1
            assert one.match.winners == crowned and one.match.winner is crowned[0]
    assert alone > 0


def test_matches_end_without_errors_in_every_mode() -> None:
    """Besides the matches above: the grand deck (4 and 5 players) and kingdoms built by
    hand (no auto-complete), one seeded match each, quick agents."""
    game = load("kingdom_cards")
    for seed, players, mode in ((1, 4, "grand"), (2, 5, "grand"), (3, 2, "manual")):
        one = play(game, seed, players, mode, BriskAgent)
        assert one.match.is_over and one.match.error is None
        assert any(d.stage == "prepare" and d.player != d.current for d in one.decisions)
