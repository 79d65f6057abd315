"""docs/tutorial.md is run, not just read: every file it shows is written and every
command it marks is run (tests/docblocks.py), so a change to the language or the CLI
that breaks a newcomer's first game fails here, at the page's line.

Also the clean first run: `cardsmith build --warnings-to FILE` keeps layout warnings
out of the terminal (scripts/main.sh uses it) and says in one line where they went.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from docblocks import run_page, steps
from typer.testing import CliRunner

PAGE = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"
_STEP_HEADING = re.compile(r"^## Step (\d+):", re.MULTILINE)


def _invoke(args: list[str]) -> tuple[int, str]:
    from cardsmith.cli import app

    result = CliRunner().invoke(app, args, env={"NO_COLOR": "1"})
    return result.exit_code, result.output


def _shown_outputs(page: Path) -> dict[int, list[str]]:
    """The output the page shows right after a run marker (a block opening with
    `$ cardsmith ARGS`), by the marker's line: what a reader is told to expect."""
    lines = page.read_text(encoding="utf-8").splitlines()
    shown: dict[int, list[str]] = {}
    for step in steps(page):
        if step.path is not None:
            continue
        j = step.line  # the line after the marker (0-based index)
        while j < len(lines) and lines[j].startswith("<!--"):
            j += 1
        if j + 1 < len(lines) and lines[j].startswith("```") and lines[j + 1] == "$ cardsmith " + " ".join(step.args):
            k = j + 2
            while lines[k] != "```":
                k += 1
            shown[step.line] = lines[j + 2:k]
    return shown


def _log_excerpts(page: Path) -> list[list[str]]:
    """The match-log lines the page quotes: fenced blocks made only of JSON objects."""
    blocks = re.findall(r"^```\n(.*?)^```$", page.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    lines = [block.splitlines() for block in blocks]
    return [b for b in lines if b and all(x.startswith('{"') for x in b)]


def _result(output: str) -> dict[str, object]:
    line = next(x for x in output.splitlines() if x.startswith("{"))
    parsed: dict[str, object] = json.loads(line)
    return parsed


def test_the_tutorial_runs_from_an_empty_folder(tmp_path: Path) -> None:
    ran = run_page(PAGE, tmp_path)
    text = PAGE.read_text(encoding="utf-8")
    numbers = [int(n) for n in _STEP_HEADING.findall(text)]
    assert numbers == list(range(1, len(numbers) + 1)) and 8 <= len(numbers) <= 10, numbers
    assert any(step.expect == 1 and step.args[0] == "check" for step, _ in ran), "a step shows a diagnostic"

    # What the page shows a reader is what the commands print (lines elided with "...").
    outputs = {step.line: out for step, out in ran}
    shown = _shown_outputs(PAGE)
    assert len(shown) >= 6
    for line, expected in shown.items():
        actual = [x.rstrip() for x in outputs[line].splitlines()]
        for want in (x.rstrip() for x in expected if x.strip() != "..."):
            assert want in actual, f"tutorial.md:{line}: the page shows {want!r}; the command printed:\n{outputs[line]}"

    # Each quoted stretch of a match log is, line for line, in a log the page wrote.
    logs = ["\n".join(p.read_text(encoding="utf-8").splitlines()) for p in tmp_path.glob("*.jsonl")]
    excerpts = _log_excerpts(PAGE)
    assert len(excerpts) >= 2 and logs
    for excerpt in excerpts:
        assert any("\n".join(excerpt) in log for log in logs), excerpt

    # The finished game: no warnings, its scenarios pass, a seeded match has a winner.
    from cardsmith.compiler.api import check_game

    checked = check_game(str(tmp_path / "lanterns"))
    assert checked.ok and not checked.diagnostics, [d.message for d in checked.diagnostics]
    code, out = _invoke(["test", str(tmp_path / "lanterns")])
    assert code == 0 and "0 failed" in out, out
    code, out = _invoke(["play", str(tmp_path / "lanterns"), "--seed", "1"])
    assert code == 0 and _result(out)["winner"] in ("player1", "player2"), out
    assert (tmp_path / "print" / "cards.pdf").stat().st_size > 0
    assert (tmp_path / "print" / "warnings.txt").read_text(encoding="utf-8") == ""  # none: an empty file


def _game_with_long_text(tmp_path: Path) -> Path:
    """The tutorial's finished game, with a card whose text must shrink to fit its box."""
    files: dict[str, str] = {}
    for step in steps(PAGE):
        if step.path is not None and step.path.startswith("lanterns/"):
            files[step.path] = step.text
    cards = files["lanterns/cards/lanterns.cards"]
    long = "A stub of wax that burns and gutters and flares again, " * 8
    files["lanterns/cards/lanterns.cards"] = cards.replace("A stub of wax. It burns, a little.", long)
    for path, body in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body, encoding="utf-8")
    return tmp_path / "lanterns"


def test_build_warnings_to_a_file_leave_one_line(tmp_path: Path) -> None:
    game = _game_with_long_text(tmp_path)
    code, loud = _invoke(["build", str(game), "--out", str(tmp_path / "loud")])
    assert code == 0 and "warning[CS2001]" in loud and "|" in loud, loud

    report = tmp_path / "quiet" / "warnings.txt"
    code, quiet = _invoke(["build", str(game), "--out", str(tmp_path / "quiet"), "--warnings-to", str(report)])
    assert code == 0, quiet
    written = report.read_text(encoding="utf-8")
    count = written.count(": warning[")
    assert count >= 1 and "warning[CS2001]" in written and "Candle Stub" in written
    lines = quiet.splitlines()
    assert [x for x in lines if not x.startswith("wrote ")] == [f"{count} layout warning(s) written to {report}"]
    assert (tmp_path / "quiet" / "cards.pdf").exists()


def test_build_warnings_to_a_folder_is_bad_usage(tmp_path: Path) -> None:
    game = _game_with_long_text(tmp_path)
    (tmp_path / "taken").mkdir()
    code, out = _invoke(["build", str(game), "--out", str(tmp_path / "o"), "--warnings-to", str(tmp_path / "taken")])
    assert code == 2 and "cannot write" in out and "Traceback" not in out, out
