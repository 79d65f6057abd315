"""A loop over a few literal numbers (`for each dx in -1..1`, codegen_stmts.SHORT_LOOP)
counts one step before it, not one each time round: it cannot go on without end, and
Two Kingdoms' path search runs such loops ~100 times an action. A longer or computed
range still counts a step each time round (the guard against rules that loop without end).
A loop over the players counts one step before it too: the seats at the table, a few."""

from __future__ import annotations

from pathlib import Path

from test_inlining import GAME, _compiled, _played

LOOP_GAME = GAME.replace(
    "action pass \"Pass\" {\n",
    """action pass "Pass" {
  for each dx in -1..1 {
    for each dy in -1..1 {
      if dx == dy and dx == 1 { increase score by 1 }
    }
  }
  for each k in 1..40 { if k == 40 { increase score by 1 } }
  for each j in 1..target { if j > 5 { increase score by 1 } }
  for each q in players { if q == you { increase score by 1 } }
""")

_LIMIT = "if m.steps > rt.MAX_STEPS: m.step("


def test_a_short_literal_loop_counts_one_step_before_it(tmp_path: Path) -> None:
    game = _compiled(tmp_path, LOOP_GAME, "loops")
    rules = game.source[game.source.index("def A_pass"):]
    lines = [line.strip() for line in rules[:rules.index("\n\n\n")].splitlines()]
    outer = lines.index("for v_dx in range(-1, 2):")
    # (a step is two lines: `m.steps += 1; m.last_line = N`, then the test against the limit)
    assert lines[outer - 2].startswith("m.steps += 1") and lines[outer - 1].startswith(_LIMIT)  # one, before it
    assert lines[outer + 1].startswith("m.steps += 1")  # ... and the inner loop's, before it
    assert lines[outer + 3] == "for v_dy in range(-1, 2):"
    assert not lines[outer + 4].startswith("m.steps += 1")
    long = lines.index("for v_k in range(1, 41):")  # 40 numbers: a step each time round
    assert lines[long + 1].startswith("m.steps += 1") and not lines[long - 1].startswith(_LIMIT)
    computed = next(i for i, line in enumerate(lines) if line.startswith("for v_j in "))
    assert lines[computed + 1].startswith("m.steps += 1")
    seats = lines.index("for v_q in rt.players(m):")  # the players: one step, before the loop
    assert lines[seats - 2].startswith("m.steps += 1") and not lines[seats + 1].startswith("m.steps += 1")
    log, error = _played(game, 1)
    assert error in (None, "no winner after 40 turns")
    assert any(e.get("description") == "pass" for e in log)  # (the loops ran)
