"""What-if in `simulate`: --set and --compare play two versions on the same seeds, paired,
and report every difference with its interval; a bad override is a usage error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_simulate_impact import DUEL, duel

from cardsmith.app import load
from cardsmith.engine.whatif import OverrideError, apply_overrides


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardsmith", "simulate", *args, "--rules", "none"],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})


def test_a_stat_override_is_compared_paired_with_intervals(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    done = run(str(folder), "-n", "60", "--set", "Giant.power=12")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    headline = next(line for line in lines if line.startswith("  Giant power 3 → 12: "))
    assert "player1 win rate" in headline and "card impact of Giant " in headline and "(±" in headline
    data = json.loads(run(str(folder), "-n", "60", "--set", "Giant.power=12", "--format", "json").stdout)
    whatif = data["whatif"]
    assert whatif["changes"] == ["Giant power 3 → 12"] and whatif["pairs"] == 120
    giants = whatif["decks"]["giants"]
    assert giants["diff"] > 0 and giants["low"] > 0 and giants["significant"]
    assert whatif["decks"]["pebbles"]["diff"] == pytest.approx(-giants["diff"])
    assert whatif["cards"]["Giant"]["impact"]["low"] <= whatif["cards"]["Giant"]["impact"]["diff"]
    assert whatif["turns"]["diff"] < 0  # the giant ends matches sooner


def test_compare_with_a_changed_copy_equals_the_override(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    changed = duel(tmp_path / "changed", DUEL.replace('card "Giant" { type: Unit; power: 3 }',
                                                      'card "Giant" { type: Unit; power: 12 }'))
    by_folder = json.loads(run(str(folder), "-n", "30", "--compare", str(changed), "--format", "json").stdout)
    by_set = json.loads(run(str(folder), "-n", "30", "--set", "Giant.power=12", "--format", "json").stdout)
    assert by_folder["whatif"]["seats"] == by_set["whatif"]["seats"]
    assert by_folder["whatif"]["cards"] == by_set["whatif"]["cards"]


def test_a_keyword_number_is_overridden_in_a_copy_of_the_source(tmp_path: Path) -> None:
    game = load("combat_cards")
    changes, copy = apply_overrides("combat_cards", game.ir, ["Savage Strike.Damage high=60"], tmp_path)
    assert changes == ["Savage Strike Damage high 14 → 60"]
    text = (Path(copy) / "cards" / "fantasy.cards").read_text(encoding="utf-8")
    assert "keywords: Damage high Opponent 60\n" in text and "keywords: Damage low Opponent 5\n" in text
    changes, copy = apply_overrides("kingdom_cards", load("kingdom_cards").ir, ["Dragon Hoard.value=20"],
                                    tmp_path / "kc")
    assert changes == ["Dragon Hoard value 15 → 20"]  # the card type's default, now set on the card
    assert load(copy).ir.cards[[c.name for c in load(copy).ir.cards].index("Dragon Hoard")].stats["value"]


def test_combat_cards_what_if_shows_the_seat_swing(tmp_path: Path) -> None:
    done = run("combat_cards", "-n", "150", "--set", "Savage Strike.Damage high=60", "--format", "json")
    assert done.returncode == 0, done.stderr
    seat = json.loads(done.stdout)["whatif"]["seats"]["player1"]
    assert seat["diff"] > 0.15 and seat["significant"]


@pytest.mark.parametrize(("spec", "message", "hint"), [
    ("Savage Strik.damage=60", "names no card", "did you mean 'Savage Strike'"),
    ("Savage Strike.Damag=60", "has no stat, property or keyword 'Damag'", "did you mean 'Damage'"),
    ("Savage Strike.Damage=60", "matches several", "Damage high Opponent 14"),
    ("Savage Strike.Damage middle=60", "matches none", "Damage low Opponent 5"),
    ("Savage Strike 60", "cannot read the override", "Card Name.stat=value"),
    ("Savage Strike.Damage high=6 0", "not a number, a name or a quoted text", ""),
])
def test_a_bad_override_is_a_usage_error_with_a_hint(spec: str, message: str, hint: str) -> None:
    with pytest.raises(OverrideError) as caught:
        apply_overrides("combat_cards", load("combat_cards").ir, [spec], Path("/nonexistent"))
    assert message in caught.value.message and hint in (caught.value.hint or "")


def test_bad_what_if_options_exit_with_usage_or_input_errors(tmp_path: Path) -> None:
    folder = duel(tmp_path / "duel")
    done = run(str(folder), "-n", "2", "--set", "Gaint.power=12")
    assert done.returncode == 2 and "did you mean 'Giant'" in done.stderr and "internal error" not in done.stderr
    both = run(str(folder), "-n", "2", "--set", "Giant.power=12", "--compare", str(folder))
    assert both.returncode == 2 and "cannot be used together" in both.stderr
    wrong = run(str(folder), "-n", "2", "--set", "Giant.power=\"big\"")
    assert wrong.returncode == 1 and "internal error" not in wrong.stderr  # the changed copy does not check
