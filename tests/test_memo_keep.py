"""Issue 18: where the generated rules read a remembered answer in line (the memo per state
version, compiler/codegen_memo.py), a miss calls the function itself and files its answer
with rt.kept under the key already built — not rt.memo, which built the key and
looked it up again. The answer is filed as rt.memo files it (a list copied out) and the
same game plays the same with the memo read in line and through rt.memo only."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from conftest import random_logs

from cardsmith.app import load
from cardsmith.compiler import codegen_memo
from cardsmith.engine import memo as memo_module
from cardsmith.engine import runtime as rt
from cardsmith.engine.game import CompiledGame


def test_a_kept_answer_is_found_again_and_a_list_is_copied_out() -> None:
    m: Any = SimpleNamespace(memo={}, version=1, _in_statics=False)
    calls: list[int] = []

    def f(m: Any, ctx: Any, x: int) -> list[int]:
        calls.append(x)
        return [x, x]

    key = (m.version, m._in_statics, f, 3)
    given = rt.kept(m.memo, key, f(m, None, 3))
    assert given == [3, 3] and given is not m.memo[key]
    again = rt.memo(m, SimpleNamespace(you=None, self=None), f, False, 3)  # (found: not computed again)
    assert again == [3, 3] and calls == [3]


def test_the_memo_is_emptied_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo_module, "_MEMO_LIMIT", 2)
    m: Any = SimpleNamespace(memo={"a": 1, "b": 2})
    assert rt.kept(m.memo, "c", 3) == 3 and m.memo == {"c": 3}


def test_kingdom_cards_plays_the_same_with_the_memo_read_in_line_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    ir = load("kingdom_cards").ir
    in_line = CompiledGame(ir)
    assert "rt.kept(m.memo, _mk" in in_line.source
    logs = random_logs(in_line, range(1, 4), 400)
    with monkeypatch.context() as patch:
        patch.setattr(codegen_memo, "keyed", lambda *args: None)
        patch.setattr(codegen_memo, "_stored_in_line", lambda *args: None)
        called = CompiledGame(ir)
        assert "rt.kept(" not in called.source
        assert logs == random_logs(called, range(1, 4), 400)
