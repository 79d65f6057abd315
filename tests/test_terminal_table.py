"""The terminal table (`cardsmith play --human N`), driven in a pseudo-terminal as a person
would: the board as the seat sees it, the moves numbered in the game's words, `? NAME` for
a card's text, `log`, `undo`, and the match's result on stdout at the end."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from cardsmith.cli import app

PROMPT = "your choice: "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # styles: NO_COLOR drops colours, not bold or dim


def new_duel(tmp_path: Path) -> Path:
    folder = tmp_path / "duel"
    result = CliRunner().invoke(app, ["new", str(folder), "--template", "duel"])
    assert result.exit_code == 0, result.output
    return folder


def spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "110", "LINES": "60", "TERM": "xterm"}
    return pexpect.spawn(sys.executable, ["-m", "cardsmith.cli", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=60, dimensions=(60, 110))


def screen(child: pexpect.spawn) -> str:
    """Everything shown up to the next question."""
    child.expect_exact(PROMPT)
    return ANSI.sub("", str(child.before)).replace("\r\n", "\n")


def moves_of(text: str) -> list[str]:
    return re.findall(r"^\s*\[\s*\d+\] (.+?)\s*$", text, re.MULTILINE)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_person_plays_a_whole_match_at_the_terminal_table(tmp_path: Path) -> None:
    folder = new_duel(tmp_path)
    child = spawn(["play", str(folder), "--human", "1", "--seed", "3"], tmp_path)
    first = screen(child)
    # the table as seat 1 sees it: whose turn, counters by name, zones as panels
    assert "you are player1" in first and "player1 (you)" in first
    assert re.search(r"(?i)hand — player2 ─+╮ *\n.*\d+ card\(s\), hidden", first)  # the other hand: its size only
    moves = moves_of(first)
    assert moves and not any(re.search(r"#\d+|^choose |\(\w+\)$", m) for m in moves), moves
    # a card's full text, by a name read off the screen (or a close spelling's hint)
    name = re.search(r"│ ([A-Z][\w' ]+?) #\d+", re.split("(?i)hand — player1", first)[1])
    assert name is not None
    child.sendline(f"? {name.group(1)}")
    text = screen(child)
    assert name.group(1) in text and "╭" in text
    child.sendline("? No Such Card")
    assert "no card is named" in screen(child)
    child.sendline("nonsense")
    assert "please answer a number" in screen(child)
    # play on: the first move each time, until the match ends or enough has been seen
    chosen = 0
    undone = False
    while True:
        child.sendline("0")
        chosen += 1
        index = child.expect_exact([PROMPT, pexpect.EOF])
        if index == 1:
            break
        shown = ANSI.sub("", str(child.before))
        if chosen == 4 and not undone:
            child.sendline("log")
            log = screen(child)
            assert re.search(r"^(you|player2): ", log, re.MULTILINE), log
            child.sendline("undo")
            back = screen(child)
            assert "took back your move" in back and moves_of(back)
            undone = True
        assert chosen < 400, shown
    output = str(child.before)
    result = json.loads(output.strip().splitlines()[-1])
    assert result["over"] and result["winner"] in ("player1", "player2") and not result["error"]
    child.close()
    assert child.exitstatus == 0


def test_the_end_of_input_stops_the_table_cleanly(tmp_path: Path) -> None:
    folder = new_duel(tmp_path)
    child = spawn(["play", str(folder), "--human", "2", "--seed", "1"], tmp_path)
    screen(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert "stopped: the input ended before the match did" in str(child.before)
    assert "Traceback" not in str(child.before)
    child.close()
    assert child.exitstatus == 1
