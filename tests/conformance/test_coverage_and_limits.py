"""Conformance of the game's turn limit and of `coverage { }`, played through new_match →
legal_actions → apply.

- `turn_limit: N` in `game` (GameDecl.turn_limit): a match that has not ended after N
  turns stops without a winner, and says so;
- `coverage { KIND NAME: "reason" }` (Game.coverage, CoverageExclusion.rule / .reason):
  the dead-rule report of simulated matches lists the named rule as excused, with that
  reason, instead of as a rule that never happened.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from cardsmith.engine.coverage import Counts, CoverageReport, Tally, index_for
from cardsmith.engine.flow import PlayedMatch
from conformance.support import build, covers, emitted, take

STALL = '''
game "Stall" {
  id: stall
  players: 2
  first_player: seat1
  turn_limit: 3
}
counter moves per player { start: 0 }
action shuffle_feet "Shuffle your feet" { gain 1 moves }
action give_up "Give up" {
  condition: you.moves > 99
  you loses the game
}
turn {
  stage main { actions: shuffle_feet, give_up }
}
coverage {
  action give_up: "legal only after 99 moves: kept for the tournament variant"
}
'''


@covers("GameDecl.turn_limit")
def test_a_match_stops_without_a_winner_after_turn_limit_turns(tmp_path: Path) -> None:
    game = build(tmp_path, "stall", STALL)
    match = game.new_match(seed=1)
    for _ in range(3):  # each of the three turns: one move, then pass
        take(match, "Shuffle your feet")
        take(match, "pass")
    assert match.is_over and match.out_of_turns and match.winner is None and not match.winners
    assert match.result["error"] == "no winner after 3 turns"
    assert [args[0] for args in emitted(match, "turn_started")] == ["player1", "player2", "player1"]
    assert [p.counters["moves"] for p in match.players] == [2, 1]


@covers("CoverageExclusion.rule", "CoverageExclusion.reason")
def test_an_excluded_rule_is_excused_in_the_dead_rule_report(tmp_path: Path) -> None:
    game = build(tmp_path, "stall", STALL)
    assert [(e.rule, e.reason) for e in game.ir.coverage] == [
        ("action give_up", "legal only after 99 moves: kept for the tournament variant")]
    counts: Counts = Counter()
    for seed in (1, 2):
        tally = Tally(index_for(game))
        match = PlayedMatch(game, seed=seed, players=2, tally=tally)
        moved = False
        while not match.is_over:  # shuffle once a turn, then pass: the limit ends it
            actions = match.legal_actions()
            assert "Give up" not in [a.description for a in actions]
            match.apply(actions[-1] if moved else actions[0])
            moved = not moved
        counts.update(tally.counts)
    report = CoverageReport(game.ir, counts, 2)
    assert report.dead == []  # nothing unexcused never happened
    excused = {r.name: (r.excluded, r.verdict) for r in report.excused}
    reason = "legal only after 99 moves: kept for the tournament variant"
    assert excused == {"action give_up": (reason, "never offered")}
    shuffle = next(r for r in report.rules if r.name == "action shuffle_feet")
    assert shuffle.counts["taken"] > 0 and shuffle.excluded is None
