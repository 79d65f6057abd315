"""docs/language.md must say what each construct does in a played match, not only how it
parses (issue 20): a designer should never need the engine's source to learn it. Cheap
guards keep the page honest: every construct's section has its "In a played match"
paragraph, the log records the page names are records the engine writes, and the
page's own game (section 9) checks and passes its scenarios — which prove the least
obvious claims in played matches.
"""

from __future__ import annotations

import re
from pathlib import Path

from docblocks import run_page

from cardsmith.compiler.api import check_game
from cardsmith.engine.game import CompiledGame

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "language.md"
MARKER = "**In a played match.**"
# Sections that describe what is read, not what runs, or that another page owns.
EXEMPT = {
    "expansion",                 # an expansion is its base game's cards: its section is edited elsewhere
    "## 2. Declarations (top level)",  # only a title over the ### sections
    "## 6. Diagnostics",         # what `check` reports, before any match
    "## 6b. Decklists",          # the decklist format; what a match does with one is under `deck`
    "## 8. Layouts: style words",  # printables only
}


def _sections(text: str) -> dict[str, str]:
    """Each `##`/`###` heading outside code blocks -> the text up to the next heading."""
    out: dict[str, str] = {}
    heading: str | None = None
    body: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and re.match(r"^#{2,3} ", line):
            if heading is not None:
                out[heading] = "\n".join(body)
            heading = line[4:] if line.startswith("### ") else line
            body = []
            continue
        body.append(line)
    if heading is not None:
        out[heading] = "\n".join(body)
    return out


def test_every_construct_says_what_it_does_in_a_played_match() -> None:
    sections = _sections(PAGE.read_text(encoding="utf-8"))
    assert len(sections) >= 25, sections.keys()
    missing = [h for h, body in sections.items() if h not in EXEMPT and MARKER not in body]
    assert not missing, f"sections of docs/language.md without an {MARKER!r} paragraph: {missing}"


def test_the_page_says_how_to_read_it_before_section_1() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert "**How to read this page.**" in text[:text.index("## 1. Structure")]


def _engine_records() -> set[str]:
    """The names the engine writes as log records, and the events it emits (core prelude)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "cardsmith" / "engine").glob("*.py"))
    names = set(re.findall(r'record\(\s*"([a-z_]+)"', source))
    names |= set(re.findall(r'"event": "([a-z_]+)"', source))  # entries the hot paths append as written
    prelude = (ROOT / "cardsmith" / "prelude" / "core.cards").read_text(encoding="utf-8")
    return names | set(re.findall(r"^event (\w+)\(", prelude, re.MULTILINE))


def test_the_log_records_the_page_names_are_ones_the_engine_writes() -> None:
    text = PAGE.read_text(encoding="utf-8")
    named = set(re.findall(r"logged\s+`([a-z_]+)`", text))
    for pair in re.findall(r"logged\s+`([a-z_]+)`\s*/\s*`([a-z_]+)`", text):
        named.update(pair)
    assert len(named) >= 15, named
    unknown = sorted(named - _engine_records())
    assert not unknown, f"docs/language.md says `logged X` for records the engine never writes: {unknown}"


def test_the_pages_game_checks_and_its_scenarios_pass(tmp_path: Path) -> None:
    ran = run_page(PAGE, tmp_path)
    assert [step.args[0] for step, _ in ran] == ["check", "test"]
    assert "3 passed, 0 failed" in ran[-1][1]


def test_a_face_down_card_hides_its_cell_and_writes_nothing_to_the_log(tmp_path: Path) -> None:
    """Section 2 (zone and board) and section 7: played, not only said."""
    run_page(PAGE, tmp_path)
    checked = check_game(str(tmp_path / "probe")).game
    assert checked is not None
    game = CompiledGame(checked)
    match = game.new_match(seed=1)
    hide = next(a for a in match.legal_actions() if a.description.startswith("Hide a piece"))
    before = len(match.log)
    match.apply(hide)
    mine = next(z for z in match.observation(0)["zones"] if z["zone"] == "table")["cards"]
    theirs = next(z for z in match.observation(1)["zones"] if z["zone"] == "table")["cards"]
    assert mine[0]["name"] == "Rook" and mine[0]["position"] == [2, 2]
    assert theirs == [{"hidden": True}], "neither the name nor the cell"
    kinds = [record["event"] for record in match.log[before:]]
    assert "move" in kinds and not any("face" in k for k in kinds), kinds
