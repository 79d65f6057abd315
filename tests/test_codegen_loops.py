"""Issue 18: a function that is only a scan stopping at its first find (`any(all ...)`,
`first(all ...)`) is written as a loop that returns at its first find instead of a
generator resumed by `next` (compiler/codegen_loops.py): the same reads in the same order,
the same cards asked, the same answer. The played match is the truth: UNO (whose
`can_match`, `has_face` and `first_with_face` are such scans) and Kingdom Combat play the
same with the loops and with the generators."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import random_played

from cardsmith.compiler import codegen_loops
from cardsmith.compiler.api import load_game_ir
from cardsmith.engine.game import CompiledGame

ROOT = Path(__file__).resolve().parents[1]
UNO = str(ROOT / "benchmarks" / "games" / "uno")
KC = str(ROOT / "library" / "kingdom_combat")


def test_a_first_find_scan_is_a_loop() -> None:
    scan = "((_i1 := m.zones['z']), next((v_it for v_it in _i1.cards if (_i2 := v_it.id) > 3), None))[-1] is not None"
    assert codegen_loops.scan_as_loop(scan) == [
        "_i1 = m.zones['z']", "for v_it in _i1.cards:", "    if (_i2 := v_it.id) > 3:", "        return True",
        "return False"]
    assert codegen_loops.scan_as_loop("next((v_x for v_x in pool), None)") == [
        "for v_x in pool:", "    return v_x", "return None"]
    for other in ("next((v_it.id for v_it in pool), None)", "(a, next((v for v in p if c), None))[0]",
                  "next((v for v in p if c), 0)", "next((v for v in p for w in q), None)", "f(x) is not None"):
        assert codegen_loops.scan_as_loop(other) is None, other
    uno = CompiledGame(load_game_ir(UNO)).source
    for function in ("F_can_match", "F_has_face", "F_first_with_face"):
        body = uno.split(f"def {function}(")[1].split("\ndef ")[0]
        assert "next((" not in body and "    for v_it in " in body, function


@pytest.mark.parametrize(("path", "seeds", "actions"), [(UNO, range(1, 6), 400), (KC, range(1, 3), 300)])
def test_scans_as_loops_play_as_generators(monkeypatch: pytest.MonkeyPatch, path: str, seeds: range,
                                           actions: int) -> None:
    loops = CompiledGame(load_game_ir(path))
    with monkeypatch.context() as patch:
        patch.setattr(codegen_loops, "scan_as_loop", lambda value: None)
        generators = CompiledGame(load_game_ir(path))
    assert loops.source != generators.source
    for seed in seeds:
        assert random_played(loops, seed, actions) == random_played(generators, seed, actions)
