"""Two Kingdoms played through new_match / legal_actions / apply: the rules as written.

Issue 11 ("played matches run the rules as written") for this game:
- dusk, the end-of-turn stage where retreating units on their home edge escape, runs at
  the end of every turn, also after "End your turn" (`end the turn`; the stage is
  `always: yes`);
- once the armies stand behind the Fog of War, player 1 decides who moves first
  (`first_player: choose`, the rulebook's "the players decide themselves");
- deployment behind the Fog of War (`simultaneously { }`, on The Field and for the siege)
  is sealed: while it lasts a monarch's observation hides the other's placed pieces, their
  options do not depend on the other's placements, and everything shows when it ends;
- the victor of the first battle takes the first turn of the siege (`victor goes next`),
  also when the battle ended on the victor's own turn.

A random Two Kingdoms match runs for thousands of actions (7,000-19,000 in seeded runs)
and its first battle ends hundreds of turns in, so the turn-order tests use `Drill`, an
agent that follows a battle plan (see its docstring), to end the first battle within a
few hundred actions. The whole random match is a slow test.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
from conftest import decide

from cardsmith.app import load
from cardsmith.engine import runtime as rt
from cardsmith.engine.agents import RandomAgent, ask
from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame
from cardsmith.engine.moves import Action, ActionWindow

FIRST_TURN = "who takes the first turn"
# Small armies keep the matches fast (each is a legal field army of 10 pieces).
VANGUARD = ["Axe Soldier"] * 2 + ["Spear Soldier"] * 2 + ["Sword & Shield Soldier"] * 2 + ["Horse"] * 2 \
    + ["Ground Archer"] * 2
ARCHERS = ["Ground Archer"] * 6 + ["Axe Soldier"] * 4
# The last piece (an Axe Soldier) is the rear guard in the Drill plan.
REAR_GUARD = ["Spear Soldier"] * 2 + ["Sword & Shield Soldier"] * 2 + ["Horse"] * 2 + ["Ground Archer"] * 2 \
    + ["Axe Soldier"] * 2


def game() -> CompiledGame:
    return load("two_kingdoms")


def emitted(log: list[dict[str, Any]], name: str, arg: str | None = None) -> int:
    return sum(1 for e in log if e["event"] == "emit" and e["name"] == name and (arg is None or e["args"] == [arg]))


def turns(log: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The log cut into turns: each piece begins with its turn_started event."""
    out: list[list[dict[str, Any]]] = []
    for entry in log:
        if entry["event"] == "emit" and entry["name"] == "turn_started":
            out.append([])
        if out:
            out[-1].append(entry)
    return out


def deciding(match: PlayedMatch, label: str) -> bool:
    return isinstance(match.pending, rt.Choose) and match.pending.label == label


def field_views(match: PlayedMatch, viewer: int, zone: str = "field") -> list[dict[str, Any]]:
    return [c for z in match.observation(viewer)["zones"] if z["zone"] == zone for c in z["cards"]]


def pieces_of(match: PlayedMatch, seat: int, zone: str = "field") -> dict[int, tuple[int, int] | None]:
    """Where each piece of a seat stands on a board (the engine's state, not a view)."""
    board = match.zone(zone, None)
    return {c.id: c.position for c in board.cards if c.controller is match.players[seat]}


def unseen(match: PlayedMatch, viewer: int, zone: str = "field") -> int:
    """How many pieces on a board `viewer` cannot see (each shows as {"hidden": True})."""
    hidden = [v for v in field_views(match, viewer, zone) if "name" not in v]
    assert all(v.get("hidden") is True and "controller" not in v for v in hidden)
    return len(hidden)


def sealed_from(match: PlayedMatch, viewer: int, zone: str = "field") -> bool:
    """While a deployment is sealed, `viewer` sees none of the other seat's pieces on the
    board: each shows as {"hidden": True}, or is left out."""
    other = match.players[1 - viewer].name
    placed = pieces_of(match, 1 - viewer, zone)
    views = field_views(match, viewer, zone)
    return not any(v.get("controller") == other for v in views) and unseen(match, viewer, zone) <= len(placed)


def deploy_until_first_turn(match: PlayedMatch, agents: list[Any], max_actions: int = 600) -> None:
    for _ in range(max_actions):
        if deciding(match, FIRST_TURN) or match.is_over:
            return
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player], match, actions))
    raise AssertionError("the armies were not deployed within the action budget")


# ---------------------------------------------------------------- dusk, every turn
def test_dusk_runs_at_the_end_of_every_turn_however_the_turn_ended() -> None:
    match = game().new_match(seed=3, decks=[VANGUARD, VANGUARD])
    agents = [RandomAgent(7), RandomAgent(8)]
    for _ in range(900):
        if match.is_over:
            break
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player], match, actions))
    finished = [t for t in turns(match.log) if any(e["event"] == "emit" and e["name"] == "turn_ended" for e in t)]
    assert len(finished) >= 20
    by_end_orders = by_pass = 0
    for turn in finished:
        events = [(e["event"], e.get("name"), tuple(e.get("args", ()))) for e in turn]
        assert events.count(("emit", "stage_started", ("dusk",))) == 1, turn[0]
        assert events.count(("emit", "stage_ended", ("dusk",))) == 1, turn[0]
        dusk = events.index(("emit", "stage_started", ("dusk",)))
        if any(e["event"] == "end_turn" for e in turn):
            by_end_orders += 1
            ended = next(i for i, e in enumerate(turn) if e["event"] == "end_turn")
            assert ended < dusk  # dusk came after "End your turn"
        else:
            by_pass += 1
    # both ways of ending a turn were taken, and dusk followed each
    assert by_end_orders > 0 and by_pass > 0
    log = match.log
    assert emitted(log, "stage_started", "dusk") == emitted(log, "stage_ended", "dusk") == len(finished)


# ---------------------------------------------------------------- who moves first
@pytest.mark.parametrize("chosen", [0, 1])
def test_player1_decides_who_moves_first_once_the_fog_lifts(chosen: int) -> None:
    match = game().new_match(seed=11, decks=[VANGUARD, VANGUARD])
    deploy_until_first_turn(match, [RandomAgent(1), RandomAgent(2)])
    # both armies stand on The Field and the Fog of War is lifted: nobody has had a turn yet
    assert any(e["event"] == "revealed" for e in match.log)
    assert len(pieces_of(match, 0)) == len(pieces_of(match, 1)) == len(VANGUARD)
    assert emitted(match.log, "turn_started") == 0
    assert not any(e["event"] == "first_player" for e in match.log)
    actions = match.legal_actions()
    assert {a.player for a in actions} == {0}  # player 1 decides
    assert [a.payload for a in actions] == match.players  # between the two monarchs
    match.apply(next(a for a in actions if a.payload is match.players[chosen]))
    name = f"player{chosen + 1}"
    assert [e for e in match.log if e["event"] == "first_player"] == [
        {"event": "first_player", "player": name, "rule": "choose"}]
    assert match.current is match.players[chosen]
    assert next(e["args"] for e in match.log if e["event"] == "emit" and e["name"] == "turn_started") == [name]
    assert {a.player for a in match.legal_actions()} == {chosen}  # the chosen monarch gives the first orders


# ---------------------------------------------------------------- deployment behind the Fog of War
def _deploy_recording(p1_seed: int) -> tuple[PlayedMatch, list[list[str]]]:
    """Deploy both armies (player 1 from `p1_seed`, player 2 always from the same seed),
    checking each seat's view while the other deploys; returns player 2's option lists."""
    match = game().new_match(seed=5, decks=[VANGUARD, VANGUARD])
    agents = [RandomAgent(p1_seed), RandomAgent(99)]
    p2_options: list[list[str]] = []
    seen_hidden = [0, 0]
    for _ in range(100):
        if deciding(match, FIRST_TURN):
            break
        actions = match.legal_actions()
        seat = actions[0].player
        other = 1 - seat
        assert match.open_seal is not None  # the whole deployment is one sealed block
        # the deciding seat sees none of the other's placed pieces
        placed = pieces_of(match, other)
        assert sealed_from(match, seat)
        seen_hidden[seat] = max(seen_hidden[seat], len(placed))
        if seat == 1:
            # player 2 chooses among the free spaces of its own camp (columns 17-21)
            own = set(pieces_of(match, 1).values())
            assert [a.payload for a in actions] == [(x, y) for x in range(17, 22) for y in range(20)
                                                    if (x, y) not in own]
            p2_options.append([a.description for a in actions])
        match.apply(ask(agents[seat], match, actions))
    assert deciding(match, FIRST_TURN)
    # one decision per piece; player 2 deployed while all of player 1's army stood hidden
    assert len(p2_options) == len(VANGUARD) and seen_hidden[1] == len(VANGUARD)
    return match, p2_options


def test_deployment_behind_the_fog_of_war_is_sealed_until_both_are_ready() -> None:
    one, options_one = _deploy_recording(p1_seed=21)
    two, options_two = _deploy_recording(p1_seed=22)
    # player 1 deployed differently in the two matches ...
    assert pieces_of(one, 0) != pieces_of(two, 0)
    # ... and player 2 was offered exactly the same choices, so deployed the same way
    assert options_one == options_two
    assert pieces_of(one, 1) == pieces_of(two, 1)
    # the fog is lifted: each monarch now sees every piece on The Field
    for match in (one, two):
        assert match.open_seal is None
        for viewer in (0, 1):
            views = field_views(match, viewer)
            assert len(views) == 2 * len(VANGUARD) and all("name" in v for v in views)


def test_a_search_agent_guesses_the_hidden_deployment_again() -> None:
    """A replica for player 2 made while player 2 deploys re-picks player 1's sealed
    placements (engine/replica.py); a replica for player 1 keeps them. Each piece is one
    decision, so every guess leaves the replica at player 2's decision, as the match is."""
    match = game().new_match(seed=5, decks=[VANGUARD, VANGUARD])
    agents = [RandomAgent(21), RandomAgent(99)]
    while match.legal_actions()[0].player == 0:
        match.apply(ask(agents[0], match, match.legal_actions()))
    live = [(a.player, a.description) for a in match.legal_actions()]
    for seed in range(4):
        guessed = match.replica(viewer=1, rng=random.Random(seed))
        assert pieces_of(guessed, 0).keys() == pieces_of(match, 0).keys()
        assert pieces_of(guessed, 0) != pieces_of(match, 0)
        assert [(a.player, a.description) for a in guessed.legal_actions()] == live
    kept = match.replica(viewer=0, rng=random.Random(4))
    assert pieces_of(kept, 0) == pieces_of(match, 0)


# ---------------------------------------------------------------- the victor goes next
class Drill:
    """A test script (it reads the live match) that follows a battle plan, to reach the
    end of the first battle fast.

    On The Field it deploys its pieces, in deck order, on the given columns (the last one
    repeats) and rows; who moves first goes to `first`. The `retreat` side sounds the
    retreat as soon as it may (the start of its 7th turn) and otherwise only ends its
    turns. The `hunt` side walks its Ground Archers east along their rows up to column 10 (the piece is the move;
    its column and row are chosen as it moves),
    attacks only once the enemy has sounded the retreat, and otherwise ends its turns.
    Every other decision (the siege deployment) is random.
    """

    def __init__(self, seat: int, seed: int, columns: list[int], rows: list[int], retreat: bool = False,
                 hunt: bool = False, first: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.columns = columns
        self.rows = rows
        self.retreat = retreat
        self.hunt = hunt
        self.first = first
        self.placed = 0
        self.walking: Any = None  # the archer whose destination is being chosen

    def script(self, match: PlayedMatch, actions: list[Action]) -> Action:
        request = match.pending
        on_field = match.shared["battle"] == 1
        if deciding(match, FIRST_TURN) and self.first is not None:
            return next(a for a in actions if a.payload is match.players[self.first])
        if isinstance(request, rt.Choose) and on_field and request.label == "spot":
            spot = (self.columns[min(self.placed, len(self.columns) - 1)], self.rows[self.placed])
            self.placed += 1
            return next(a for a in actions if a.payload == spot)
        if isinstance(request, rt.Choose) and self.walking is not None and request.label in ("x", "y"):
            # where the archer that moves goes: east, up to column 10, along its row
            if request.label == "x":
                ahead = [a for a in actions if isinstance(a.payload, int) and a.payload <= 10]
                return max(ahead, key=lambda a: int(a.payload)) if ahead else actions[0]
            row = self.walking.position[1]
            self.walking = None
            return next((a for a in actions if a.payload == row), actions[0])
        if not isinstance(request, ActionWindow):
            return actions[self.rng.randrange(len(actions))]
        moves: dict[str, list[Action]] = defaultdict(list)
        for action in actions:
            moves[action.payload[0] if isinstance(action.payload, tuple) else action.payload].append(action)
        if self.retreat and moves["call_retreat"]:
            return moves["call_retreat"][0]
        if moves["fight_on"]:
            return moves["fight_on"][0]
        if self.hunt:
            if match.players[1 - self.seat].counters["retreat_called"] and moves["attack"]:
                return moves["attack"][0]
            forward = [a for a in moves["move_unit"] if a.payload[1][0].name == "Ground Archer"
                       and a.payload[1][0].position[0] < 10]
            if forward:
                self.walking = forward[0].payload[1][0]
                return forward[0]
        return (moves["end_orders"] or moves["pass"])[0]


def _to_the_siege(rear_guard: bool, p1_siege_seed: int = 1) -> tuple[PlayedMatch, list[list[Any]]]:
    """Play the Drill plan until the siege's first window. Player 2 sounds the retreat on
    its 7th turn; its pieces on its home edge escape at once. With a rear guard left on
    The Field, player 1's archers shoot it down on player 1's own turn.

    While the defender (player 2) deploys for the siege, checks that the attacker's pieces
    placed in the block are hidden from it; returns the defender's option lists."""
    if rear_guard:
        decks, columns = [ARCHERS, REAR_GUARD], [21] * 9 + [17]
    else:
        decks, columns = [ARCHERS, VANGUARD], [21]
    match = game().new_match(seed=5, decks=decks)
    agents = [Drill(0, p1_siege_seed, [4], list(range(5, 20)), hunt=True, first=1),
              Drill(1, 2, columns, list(range(20)), retreat=True)]
    defender_options: list[list[Any]] = []
    for _ in range(600):
        if match.is_over or (match.shared["battle"] == 2 and isinstance(match.pending, ActionWindow)):
            break
        actions = match.legal_actions()
        if match.shared["battle"] == 2 and actions[0].player == 1:
            assert match.open_seal is not None
            placed = pieces_of(match, 0, "castle")
            assert len(placed) > 0 and sealed_from(match, 1, "castle")
            # the defender sets up anywhere but the attackers' camp (columns 0-4)
            assert all(5 <= a.payload[0] <= 21 for a in actions)
            defender_options.append([a.payload for a in actions])
        match.apply(decide(agents[actions[0].player], match, actions))
    assert match.error is None and not match.is_over
    assert match.shared["battle"] == 2 and match.shared["fighting"] == 1  # the siege is on
    return match, defender_options


@pytest.mark.parametrize("rear_guard", [True, False])
def test_the_victor_of_the_first_battle_takes_the_first_turn_of_the_siege(rear_guard: bool) -> None:
    """With a rear guard, the battle ends on the victor's (player 1's) turn and `victor
    goes next` gives the victor the next turn too (without it, play would pass to player
    2). Without one, the battle ends on player 2's turn and the victor simply goes next."""
    match, defender_options = _to_the_siege(rear_guard)
    player1, player2 = match.players
    assert player1.counters["besieging"] == 1 and player2.counters["retreat_called"] == 1
    log = match.log
    goes_next = [i for i, e in enumerate(log) if e["event"] == "next_player"]
    assert len(goes_next) == 1 and log[goes_next[0]]["player"] == "player1"
    starts = [(i, e["args"][0]) for i, e in enumerate(log) if e["event"] == "emit" and e["name"] == "turn_started"]
    ended_on = [who for i, who in starts if i < goes_next[0]][-1]
    assert [who for i, who in starts if i > goes_next[0]] == ["player1"]  # the siege opens with the victor
    assert match.current is player1 and {a.player for a in match.legal_actions()} == {0}
    # the last order of the first battle (the siege deployment's choices came after it)
    last_action = [e for e in log[:goes_next[0]] if e["event"] == "action"
                   and not e["description"].startswith("choose")][-1]
    if rear_guard:
        # the battle ended on player 1's own turn, by player 1's attack, and player 1 went again
        assert ended_on == "player1"
        assert last_action["player"] == "player1" and last_action["description"].startswith("Attack:")
    else:
        assert ended_on == "player2" and last_action["description"] == "Sound the retreat"
    # the defender deployed, one decision per piece, without seeing the attacker's pieces
    assert len(defender_options) == len(pieces_of(match, 1, "castle")) - 3  # not the gate and the ballistas
    # the fog lifts when both are ready, except over the castle: the defenders inside
    # stand face down for the attacker
    assert all("name" in v for v in field_views(match, 1, "castle"))
    castle = match.zone("castle", None).cards
    assert unseen(match, 1, "castle") == 0
    inside = [c for c in castle if c.controller is player2 and c.face_down]
    assert inside and unseen(match, 0, "castle") == len(inside)


def test_the_siege_deployment_is_sealed_too() -> None:
    """The attacker deploys differently in two matches; the defender, deploying after it
    in the same block, is offered the same choices in both."""
    one, options_one = _to_the_siege(rear_guard=True, p1_siege_seed=1)
    two, options_two = _to_the_siege(rear_guard=True, p1_siege_seed=3)
    assert pieces_of(one, 0, "castle") != pieces_of(two, 0, "castle")
    assert options_one == options_two and len(options_one) > 10
    assert pieces_of(one, 1, "castle") == pieces_of(two, 1, "castle")


@pytest.mark.slow
def test_a_whole_random_war_keeps_dusk_and_the_turn_order() -> None:
    """A seeded random match of the library decks, played to its end (thousands of actions):
    dusk ends every turn but the last (the game ends in it), the first battle ends and the
    victor takes the next turn."""
    match = game().new_match(seed=1)
    agents = [RandomAgent(3), RandomAgent(4)]
    for _ in range(20_000):
        if match.is_over:
            break
        actions = match.legal_actions()
        match.apply(ask(agents[actions[0].player], match, actions))
    assert match.is_over and match.error is None and match.winner is not None
    log = match.log
    played = turns(log)
    assert all(emitted(turn, "stage_started", "dusk") == 1 for turn in played[:-1])
    assert emitted(log, "stage_started", "dusk") == len(played) - 1
    goes_next = next(i for i, e in enumerate(log) if e["event"] == "next_player")
    victor = log[goes_next]["player"]
    assert next(e["args"] for e in log[goes_next:] if e["event"] == "emit" and e["name"] == "turn_started") == [victor]
