"""Typing a library file character by character never breaks the language server.

Every intermediate text goes through what the server does on a keystroke — check the
folder with the buffer overlaid, index the game, then hover, jump, complete, outline and
offer quick fixes at the cursor — in-process, for speed. Each text gets diagnostics or
none; nothing may raise. Prefixes are sampled (all of the first few hundred characters,
then a spread across the file) to keep the test within seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lsprotocol")
from lsprotocol import types as lsp

from cardsmith.compiler.loader import GameFiles
from cardsmith.dsl.source import SourceFile
from cardsmith.lsp import actions, complete, navigation, outline
from cardsmith.lsp.index import build_index
from cardsmith.lsp.workspace import analyse

LIBRARY = Path(__file__).resolve().parent.parent / "library"
EVERY_PREFIX_UP_TO = 200
SAMPLES = 300


def _prefixes(text: str) -> list[int]:
    """Every cut of the first characters, then SAMPLES cuts spread over the rest (an odd
    stride, so the cuts land at every position within a line, not only at line starts)."""
    cuts = list(range(min(EVERY_PREFIX_UP_TO, len(text))))
    rest = len(text) - EVERY_PREFIX_UP_TO
    if rest > 0:
        stride = max(1, rest // SAMPLES) | 1
        cuts += list(range(EVERY_PREFIX_UP_TO, len(text), stride))
    return [*cuts, len(text)]


def _type(path: Path, text: str, cut: int) -> None:
    prefix = text[:cut]
    analysis = analyse(GameFiles(path.parent, [path], []), {path: prefix})
    source = SourceFile(str(path), prefix)
    line, character = len(source.line_starts) - 1, len(prefix) - source.line_starts[-1]
    everything = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=line + 1, character=0))
    actions.quick_fixes(path.as_uri(), source, analysis.result.diagnostics, everything)
    if cut % 25 == 0:
        actions.format_edits(source)
    if analysis.game is None:
        return
    index = build_index(analysis.game)
    navigation.hover(analysis, index, path, prefix, line, character)
    navigation.definition(index, path, prefix, line, max(0, character - 1))
    navigation.references(analysis, index, path, prefix, line, max(0, character - 1), True)
    complete.completions(index, prefix, line, character)
    outline.document_symbols(index, str(path))


@pytest.mark.parametrize("name", ["kingdom_cards/layouts.cards", "combat_cards/rules.cards"])
def test_every_text_of_typing_a_library_file_gets_diagnostics_or_none(name: str, tmp_path: Path) -> None:
    whole = (LIBRARY / name).read_text(encoding="utf-8")
    start = max(0, whole.find("\ngame ") + 1)  # from the game's header on: past the opening comment
    text = whole[start:start + 4000]
    path = tmp_path / Path(name).name
    path.write_text("", encoding="utf-8")
    for cut in _prefixes(text):
        try:
            _type(path, text, cut)
        except Exception as exc:  # name the text that broke it, not only the traceback
            raise AssertionError(f"typing {name}: the text of its first {cut} characters raised {exc!r}") from exc
