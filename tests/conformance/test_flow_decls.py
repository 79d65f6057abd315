"""Conformance: `setup`, `turn`/`round` blocks, stages, `action`, `check`, `scoring`,
`heuristic`, `event`, `procedure` and `function` declarations (docs/language.md §2), played.

The finer points of priority, stage properties and turn order are in test_flow.py.
"""

from __future__ import annotations

from pathlib import Path

from cardsmith.engine.agents import GreedyAgent, ask
from conformance.support import (
    build,
    counter,
    covers,
    descriptions,
    diagnostics,
    emitted,
    events,
    offered,
    seat_of,
    stage_of,
    take,
    turn_order,
)

SETUP = '''
game "Setup" {
  id: setup_game
  players: 3
  first_player: seat1
}
counter gold per player { start: 0 }
counter order shared { start: 0 }
zone hand per player { visibility: owner }
cardtype Chip { stats { v: number = 0 } }
card "Chip" { type: Chip }
setup {
  for each p in players {
    increase p.gold by p.seat * 10
    set order to order * 10 + p.seat
  }
}
setup {
  let c = create("Chip", hand of player2, player2)
}
action wait "Wait" { gain 1 gold }
turn {
  stage upkeep { gain 1 gold }
  stage main { actions: wait }
}
'''


@covers("SetupDecl.body", "FlowDecl.scope=turn", "FlowDecl.stages", "StageDecl.name", "StageDecl.body")
def test_setup_runs_once_then_each_player_takes_the_turns_stages_in_order(tmp_path: Path) -> None:
    game = build(tmp_path, "setup", SETUP)
    match = game.new_match(seed=1)
    # both setup blocks ran once, before the first turn; then player1's upkeep stage ran
    assert match.shared["order"] == 123
    assert [c.name for c in match.zone("hand", match.players[1]).cards] == ["Chip"]
    assert [counter(match, s, "gold") for s in range(3)] == [11, 20, 30]
    assert stage_of(match) == "main" and seat_of(match) == 0
    take(match, "Wait")
    take(match, "pass")
    take(match, "pass")
    take(match, "pass")
    # each player's turn ran upkeep then main; stages start and end in their order
    assert [counter(match, s, "gold") for s in range(3)] == [13, 21, 31]
    assert turn_order(match) == ["player1", "player2", "player3", "player1"]
    assert [a[0] for a in emitted(match, "stage_started")] == ["upkeep", "main"] * 4
    assert [a[0] for a in emitted(match, "stage_ended")] == ["upkeep", "main"] * 3 + ["upkeep"]
    assert len([e for e in match.log if e["event"] == "emit" and e["name"] == "game_started"]) == 1


ROUND_ONLY = '''
game "Rounds only" {
  id: rounds_only
  players: 2
  first_player: seat1
}
counter picks per player { start: 0 }
counter rounds shared { start: 0 }
action pick "Pick" {
  by: any
  gain 1 picks
}
round {
  stage count { increase rounds by 1 }
  stage choose { actions: pick; simultaneous: yes }
}
'''


@covers("FlowDecl.scope=round")
def test_a_game_with_only_a_round_block_repeats_rounds_where_everyone_acts(tmp_path: Path) -> None:
    match = build(tmp_path, "round_only", ROUND_ONLY).new_match(seed=1)
    assert match.shared["rounds"] == 1 and offered(match) == [(0, "Pick"), (0, "pass")]
    take(match, "Pick", 0)
    take(match, "Pick", 1)
    # both acted in round 1; round 2 began: no turns, each round is the game's turn
    assert [counter(match, s, "picks") for s in (0, 1)] == [1, 1]
    assert match.shared["rounds"] == 2 and match.round_number == 2 and match.turn_number == 2
    assert emitted(match, "turn_started") == [] and emitted(match, "round_started") == [[1], [2]]


ACTIONS = '''
game "Actions" {
  id: actions
  players: 2
  first_player: seat1
}
counter gold per player { start: 3 }
counter bought per player { start: 0 }
counter done per player { start: 0 }
zone shop shared
zone hand per player { visibility: owner }
cardtype Ware { stats { price: number = 0 } }
card "Apple" { type: Ware; price: 1 }
card "Bread" { type: Ware; price: 2 }
card "Crown" { type: Ware; price: 9 }
setup {
  for each name in catalog() { let c = create(name, shop, player1) }
}
action buy "Buy a ware" {
  choose w from a ware in shop
  let twice = w.price * 2
  condition: twice <= 4
  cost { pay w.price gold }
  move w to your hand
  gain 1 bought
}
action tidy "Tidy up" {
  limit: 1
  gain 1 done
}
turn {
  stage main { actions: buy, tidy }
}
'''


@covers("ActionDecl.name", "ActionDecl.label", "ActionDecl.condition", "ActionDecl.cost", "ActionDecl.body",
        "ActionDecl.limit")
def test_an_actions_parameters_condition_cost_effect_and_limit(tmp_path: Path) -> None:
    game = build(tmp_path, "actions", ACTIONS)
    match = game.new_match(seed=1)
    # one legal action per combination of its leading choose/let; `condition` reads them
    # (Crown: twice 18 > 4), shown with the action's label
    assert descriptions(match) == ["Buy a ware: Apple#1", "Buy a ware: Bread#2", "Tidy up", "pass"]
    take(match, "Buy a ware: Bread#2")
    # the cost was paid, then the effect ran
    assert counter(match, 0, "gold") == 1 and counter(match, 0, "bought") == 1
    assert [c.name for c in match.zone("hand", match.players[0]).cards] == ["Bread"]
    take(match, "Buy a ware: Apple#1")
    # with no gold left the cost cannot be paid: nothing to buy
    assert descriptions(match) == ["Tidy up", "pass"]
    take(match, "Tidy up")
    # limit: 1 — not offered again this turn; with only `pass` left the window passed by itself
    assert counter(match, 0, "done") == 1 and match.turn_number == 2
    take(match, "Tidy up")
    # player2 took theirs (the shop holds only the Crown: nothing else, so on to turn 3);
    # the limit is counted again from the start of every turn
    assert counter(match, 1, "done") == 1
    assert match.turn_number == 3 and descriptions(match) == ["Tidy up", "pass"]
    # an action no stage lists is an error
    unlisted = diagnostics(tmp_path, "unlisted", ACTIONS.replace("actions: buy, tidy", "actions: buy, tidyy"))
    assert "stage 'main' allows unknown action 'tidyy'" in unlisted and "action 'tidy' is never used" in unlisted


CHECKS = '''
game "Checks" {
  id: checks
  players: 2
  first_player: seat1
}
counter points per player { start: 0 }
counter chain shared { start: 0 }
procedure score_twice() "score twice" {
  gain 3 points
  gain 3 points
}
action score "Score" { score twice }
check "cascade" {
  if chain > 0 and chain < 3 { increase chain by 1 }
}
check "count" {
  for each p in players {
    if p.points == 3 { p wins the game }
    if p.points >= 6 and chain == 0 { set chain to 1 }
  }
}
turn {
  stage main { actions: score }
}
'''


@covers("CheckDecl.name", "CheckDecl.body")
def test_checks_run_after_each_action_never_inside_a_procedure_and_repeat(tmp_path: Path) -> None:
    match = build(tmp_path, "checks", CHECKS).new_match(seed=1)
    take(match, "Score")
    # the procedure gained 3 then 3: the check never saw 3 points (nobody won), and after
    # the action it ran repeatedly until nothing changed: 1 -> 2 -> 3
    assert not match.over and counter(match, 0, "points") == 6
    assert match.shared["chain"] == 3


SCORING = '''
game "Scoring" {
  id: scoring
  players: 3
  first_player: seat1
}
counter vp per player { start: 0 }
counter coins per player { start: 0 }
action big "Big" { gain 5 vp }
action small "Small" {
  gain 2 vp
  gain 1 coins
}
action finish "Finish" { end the game }
scoring {
  score: p.vp
  tiebreak: p.coins
}
turn {
  stage main { actions: big, small, finish }
}
'''


@covers("ScoringDecl.score", "ScoringDecl.tiebreak", "prelude:end_game", "prelude:rank")
def test_scoring_ranks_players_by_score_then_tiebreak_when_the_game_ends(tmp_path: Path) -> None:
    game = build(tmp_path, "scoring", SCORING)
    match = game.new_match(seed=1)
    take(match, "Big")      # player1: 5 vp
    take(match, "pass")
    for _ in range(2):
        take(match, "Small")  # player2: 4 vp, 2 coins
    take(match, "pass")
    take(match, "Small")    # player3: 2 vp, 1 coin
    take(match, "Small")    # 4 vp, 2 coins: tied with player2 on both
    take(match, "Finish")
    assert match.over and match.winner is match.players[0] and match.winners == [match.players[0]]
    ranking = events(match, "ranking")[0]["order"]
    assert ranking[0][0] == "player1" and [key for _n, key in ranking] == [[5, 0], [4, 2], [4, 2]]
    assert [match.rank_of(p) for p in match.players] == [1, 2, 2]
    # the game may end on anyone's turn: the highest score wins, whoever ends it
    again = game.new_match(seed=1)
    take(again, "Small")
    take(again, "pass")        # player1: 2 vp, 1 coin
    take(again, "Small")
    take(again, "Finish")      # player2: the same; player3 had no turn: 0
    assert again.winner is None and again.winners == again.players[:2]
    assert [again.rank_of(p) for p in again.players] == [1, 1, 3]


TIED = SCORING.replace("action big \"Big\" { gain 5 vp }", "action big \"Big\" { gain 4 vp }")


@covers("ScoringDecl.tiebreak")
def test_the_tiebreak_orders_players_with_the_same_score(tmp_path: Path) -> None:
    match = build(tmp_path, "tied", TIED).new_match(seed=1)
    take(match, "Big")         # player1: 4 vp, 0 coins
    take(match, "pass")
    take(match, "Small")
    take(match, "Small")       # player2: 4 vp, 2 coins
    take(match, "Finish")
    assert match.winner is match.players[1], "same score: more coins wins"
    # tied on score and tiebreak: the top players share the win
    shared = build(tmp_path, "shared", TIED.replace("tiebreak: p.coins", "tiebreak: 0")).new_match(seed=1)
    take(shared, "Big")
    take(shared, "pass")
    take(shared, "Small")
    take(shared, "Small")
    take(shared, "Finish")
    assert shared.winner is None and shared.winners == shared.players[:2]


HEURISTIC = '''
game "Heuristic" {
  id: heuristic
  players: 2
  first_player: seat1
}
counter vp per player { start: 0 }
action up "Up" { gain 1 vp }
action down "Down" { lose 1 vp }
action up_other "Gift" { increase opponent.vp by 2 }
heuristic {
  value: you.vp - opponent.vp
}
turn {
  stage main { actions: up, down, up_other }
}
'''


@covers("HeuristicDecl.value")
def test_the_greedy_agent_takes_the_move_the_heuristic_scores_best(tmp_path: Path) -> None:
    game = build(tmp_path, "heuristic", HEURISTIC)
    for seed in range(1, 6):
        match = game.new_match(seed=seed)
        chosen = ask(GreedyAgent(seed), match, match.legal_actions())
        assert chosen.description == "Up"
    # the value is read from the deciding player's seat: player2 prefers its own Up too
    match = game.new_match(seed=1)
    take(match, "pass")
    assert ask(GreedyAgent(1), match, match.legal_actions()).description == "Up"
    flipped = build(tmp_path, "flipped", HEURISTIC.replace("you.vp - opponent.vp", "opponent.vp - you.vp"))
    match = flipped.new_match(seed=1)
    assert ask(GreedyAgent(1), match, match.legal_actions()).description == "Gift"


PROCS = '''
game "Procedures" {
  id: procs
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
counter log shared { start: 0 }
event paid(who: player, amount: number)
procedure reward(amount: number, who: player = you, bonus: number = 0)
    "reward {amount} to {who}"
    "reward {amount}"
    "reward {amount} plus {bonus}" {
  increase who.gold by amount + bonus
  emit paid(who, amount + bonus)
}
function doubled(x: number) = x * 2
function clamp_to(x: number, top: number) {
  if x > top { return top }
  return x
}
on paid(p, n) { set log to log * 100 + n }
action a "A" { reward 3 to opponent }
action b "B" { reward doubled(2) }
action c "C" { reward 1 plus clamp_to(9, 5) }
action d "D" { reward(7) }
turn {
  stage main { actions: a, b, c, d }
}
'''


@covers("ProcedureDecl.name", "ProcedureDecl.params", "ProcedureDecl.patterns", "ProcedureDecl.body",
        "EventDecl.name", "EventDecl.params", "FunctionDecl.name", "FunctionDecl.params", "FunctionDecl.expr",
        "FunctionDecl.body")
def test_procedures_are_called_by_their_phrases_and_functions_compute_values(tmp_path: Path) -> None:
    game = build(tmp_path, "procs", PROCS)
    match = game.new_match(seed=1)
    take(match, "A")
    assert (counter(match, 0, "gold"), counter(match, 1, "gold")) == (0, 3), "{who} bound to opponent"
    take(match, "B")
    assert counter(match, 0, "gold") == 4, "`who` takes its default: you; doubled(2) = 4"
    take(match, "C")
    assert counter(match, 0, "gold") == 10, "the pattern naming {bonus}; clamp_to(9, 5) = 5"
    take(match, "D")
    assert counter(match, 0, "gold") == 17, "called by name"
    # the event carried its parameters to the trigger, in order
    assert emitted(match, "paid") == [["player2", 3], ["player1", 4], ["player1", 6], ["player1", 7]]
    assert match.shared["log"] == 3040607
    # a phrase matching no pattern is an error
    nomatch = diagnostics(tmp_path, "nomatch", PROCS.replace("reward doubled(2)", "reward doubled(2) twice"))
    assert "'reward ...' does not fit any phrase that starts with 'reward'" in nomatch


@covers("ProcedureDecl.native", "FunctionDecl.native")
def test_only_the_core_prelude_declares_natives(tmp_path: Path) -> None:
    # the prelude's natives run (shuffle, gain: see test_prelude_natives*), a game's may not
    game = build(tmp_path, "procs", PROCS)
    natives = {p.name for p in game.ir.procedures if p.native} | {f.name for f in game.ir.functions if f.native}
    assert {"shuffle", "gain", "count", "cell"} <= natives
    assert not [p for p in game.ir.procedures if p.native and p.span.file.endswith("rules.cards")]
    native = PROCS + 'native frob(x: number) "frob {x}"\n'
    assert "only the core prelude declares native procedures" in diagnostics(tmp_path, "native", native)
    bodiless = PROCS + "function frob(x: number)\n"
    assert any("needs '= expression' or a body" in m for m in diagnostics(tmp_path, "bodiless", bodiless))
