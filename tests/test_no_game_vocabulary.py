"""cardsmith knows no game: no library game's vocabulary in its code (issue 13).

Every game word (a faction, a fortress, gold) belongs in a game's own `.cards` files: a
deck rule that needs "the deck's factions" binds it with `let` in the game's deck block.
So the library's words may not appear in cardsmith's code — the Python sources under
cardsmith/ and the core prelude (cardsmith/prelude/*.cards).

The rule: the words may appear only where they are prose, not behaviour —
* in Python, inside comments and docstrings (any string that stands alone as a
  statement), where a library game is a useful example;
* in the prelude, inside `#` comments.
Everywhere else (names, string literals, f-strings: messages, help text, lookups of a
field by name) they are a failure, reported as file:line.

One exception: the Python name `construct` (cardsmith.util.fastmodel.construct, which
builds a model without validating it, after pydantic's `model_construct`) is a
programming term, not the game word; in strings `construct` is still flagged.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "cardsmith"

WORDS = re.compile(r"\b(factions?|fortress(?:es)?|garrisons?|gold|mercenar(?:y|ies)|kingdoms?|combat|"
                   r"constructs?)\b", re.IGNORECASE)
ALLOWED_NAMES = {"construct"}
_TEXT_TOKENS = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def _docstring_lines(text: str) -> set[int]:
    """Lines of strings that stand alone as statements (docstrings)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def python_hits(path: Path, base: Path = ROOT.parent) -> list[str]:
    """`file:line: 'word' in token` for each game word in the code of a Python file."""
    text = path.read_text(encoding="utf-8")
    prose = _docstring_lines(text)
    out: list[str] = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in _TEXT_TOKENS or tok.start[0] in prose:
            continue
        if tok.type == tokenize.NAME and tok.string in ALLOWED_NAMES:
            continue
        for match in WORDS.finditer(tok.string):
            out.append(f"{path.relative_to(base)}:{tok.start[0]}: '{match.group(0)}' in {tok.string[:60]}")
    return out


def cards_hits(path: Path, base: Path = ROOT.parent) -> list[str]:
    """The same for a .cards file, whose prose is its `#` comments."""
    out: list[str] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("#", 1)[0]  # (the prelude has no `#` inside its strings)
        for match in WORDS.finditer(code):
            out.append(f"{path.relative_to(base)}:{n}: '{match.group(0)}' in {line.strip()[:60]}")
    return out


def _words(hits: list[str]) -> list[str]:
    return [h.split(": ", 1)[1].split(" in ", 1)[0] for h in hits]


def test_the_scan_flags_game_words_in_code_but_not_in_prose(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Docs may say fortress."""\n# and comments: Gold\n'
                      'def f(faction: str) -> str:\n    """A Kingdom example."""\n'
                      '    return f"the {faction} of the garrison"\nconstruct = "construct"\n',
                      encoding="utf-8")
    hits = python_hits(sample, tmp_path)
    assert _words(hits) == ["'faction'", "'faction'", "'garrison'", "'construct'"]
    assert hits[0].startswith("sample.py:3: ")
    prelude = tmp_path / "p.cards"
    prelude.write_text("# gold here is prose\nzone gold_pile shared\ncounter Gold per player\n",
                       encoding="utf-8")
    assert cards_hits(prelude, tmp_path) == ["p.cards:3: 'Gold' in counter Gold per player"]


def test_cardsmith_code_has_no_library_game_vocabulary() -> None:
    hits: list[str] = []
    for path in sorted(ROOT.rglob("*.py")):
        hits += python_hits(path)
    for path in sorted((ROOT / "prelude").glob("*.cards")):
        hits += cards_hits(path)
    assert not hits, "game words in cardsmith's code (move them into the game's .cards):\n" + "\n".join(hits)
