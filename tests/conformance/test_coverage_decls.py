"""Conformance: the `coverage { }` block — rules the dead-rule report may find never
happening, each with its reason (engine/coverage.py, `cardsmith simulate`). Played
through a tallied PlayedMatch, as `simulate` plays each match."""

from __future__ import annotations

from pathlib import Path

from cardsmith.engine.coverage import CoverageReport, Tally, index_for
from cardsmith.engine.flow import PlayedMatch
from conformance.support import build, covers, diagnostics, take

RULES = '''
game "Coverage" {
  id: coverage_game
  players: 2
  first_player: seat1
}
counter gold per player { start: 0 }
action earn "Earn" { gain 1 gold }
action hoard "Hoard" {
  condition: gold > 99
  gain 1 gold
}
coverage {
  action hoard: "gold never reaches 100 in a short match"
}
turn {
  stage main { actions: earn, hoard }
}
'''


def report(rules: str, tmp_path: Path, name: str, earn: bool = True) -> CoverageReport:
    game = build(tmp_path, name, rules)
    tally = Tally(index_for(game))
    match = PlayedMatch(game, seed=1, players=2, tally=tally)
    for _ in range(4):
        if earn:
            take(match, "Earn")
        take(match, "pass")
    return CoverageReport(game.ir, tally.counts, 1)


@covers("CoverageExclusion.rule", "CoverageExclusion.reason")
def test_a_listed_rule_that_never_happens_is_excused_with_its_reason(tmp_path: Path) -> None:
    listed = report(RULES, tmp_path, "listed")
    assert [r.name for r in listed.dead] == []
    assert [(r.name, r.excluded, r.verdict) for r in listed.excused] == [
        ("action hoard", "gold never reaches 100 in a short match", "never offered")]
    # without the line the same rule is reported dead
    bare = report(RULES.replace('  action hoard: "gold never reaches 100 in a short match"\n', ""), tmp_path, "bare")
    assert [r.name for r in bare.dead] == ["action hoard"] and not bare.excused
    # a listed rule that did happen is a stale exclusion
    stale = report(RULES.replace("coverage {\n", 'coverage {\n  action earn: "x"\n'), tmp_path, "stale")
    assert [r.name for r in stale.stale] == ["action earn"]
    # a line naming no rule of the game is an error
    typo = RULES.replace("action hoard:", "action hord:")
    assert "coverage names no rule of the game: 'action hord'" in diagnostics(tmp_path, "typo", typo)
