"""`cardsmith lsp` driven by a real LSP client over stdio (pytest-lsp).

One server for the module, on a copy of Kingdom Combat: break a card and see the
checker's diagnostic with its did-you-mean, fix it through the quick fix and see the
diagnostics clear; hover, jump, find references, complete, outline and format.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from cardsmith.dsl.diagnostics import DiagnosticSink  # noqa: E402
from cardsmith.dsl.format import format_source  # noqa: E402
from cardsmith.dsl.source import SourceFile  # noqa: E402

LIBRARY = Path(__file__).resolve().parent.parent / "library" / "kingdom_combat"
on_the_server = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lsp") / "kingdom_combat"
    shutil.copytree(LIBRARY, root)
    return root


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "cardsmith", "lsp", "--debounce", "50"]))
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


_versions: dict[str, int] = {}


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


async def _diagnostics(client: LanguageClient, uri: str, want: bool) -> list[lsp.Diagnostic]:
    """Wait until the server has published diagnostics for `uri` that are (want=True)
    or are not (want=False) empty."""
    async def until() -> list[lsp.Diagnostic]:
        while uri not in client.diagnostics or bool(client.diagnostics[uri]) != want:
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])
    return await asyncio.wait_for(until(), timeout=30)


def _open(client: LanguageClient, path: Path) -> str:
    uri = _uri(path)
    if uri not in _versions:
        _versions[uri] = 1
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
            uri=uri, language_id="cards", version=1, text=path.read_text(encoding="utf-8"))))
    return uri


def _change(client: LanguageClient, uri: str, text: str) -> None:
    _versions[uri] += 1
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=_versions[uri]),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))


def _where(path: Path, needle: str, offset: int = 0) -> lsp.Position:
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        if needle in line:
            return lsp.Position(line=n, character=line.index(needle) + offset)
    raise AssertionError(f"{needle!r} not in {path}")


def _doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


# (what the file says, a typo of it, the diagnostic's code, message and suggestion): errors
# of the checker's tests, made in a card file of the game
TYPOS = [
    ("keywords: Mounted, Charge", "keywords: Mounted, Chagre", "CS0501", "unknown keyword 'Chagre'", "Charge"),
    ("your fortress_zone", "your fortres_zone", "CS0202", "a player has no 'fortres_zone'", "fortress_zone"),
    ('create("Goblin Rabble"', 'create("Goblin Rabbel"', "CS0202", 'unknown card "Goblin Rabbel"', "Goblin Rabble"),
    ("type: Unit", "type: Unti", "CS0202", "unknown card type 'Unti'", "Unit"),
]


@on_the_server
@pytest.mark.parametrize(("right", "wrong", "code", "message", "fix"), TYPOS)
async def test_a_typo_is_diagnosed_fixed_by_the_quick_fix_and_cleared(
        client: LanguageClient, game: Path, right: str, wrong: str, code: str, message: str, fix: str) -> None:
    cards = game / "cards" / "grimhold.cards"
    uri = _open(client, cards)
    text = cards.read_text(encoding="utf-8")
    _change(client, uri, text)
    assert await _diagnostics(client, uri, want=False) == []
    broken = text.replace(right, wrong, 1)
    _change(client, uri, broken)
    (diagnostic,) = await _diagnostics(client, uri, want=True)
    assert diagnostic.code == code
    assert diagnostic.message == f"{message}\nhint: did you mean '{fix}'?"
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=_doc(uri), range=diagnostic.range, context=lsp.CodeActionContext(diagnostics=[diagnostic])))
    assert actions is not None
    (action,) = actions
    assert isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[uri]
    assert edit.new_text == fix
    lines = broken.split("\n")
    row, first, last = edit.range.start.line, edit.range.start.character, edit.range.end.character
    lines[row] = lines[row][:first] + edit.new_text + lines[row][last:]
    assert "\n".join(lines) == text
    _change(client, uri, "\n".join(lines))
    assert await _diagnostics(client, uri, want=False) == []


@on_the_server
async def test_an_edit_in_one_file_is_diagnosed_in_the_files_that_use_it(
        client: LanguageClient, game: Path) -> None:
    rules, cards = game / "rules.cards", game / "cards" / "grimhold.cards"
    uri = _open(client, rules)
    _open(client, cards)
    text = rules.read_text(encoding="utf-8")
    _change(client, uri, text.replace("keyword Charge {", "keyword Charging {"))
    found = await _diagnostics(client, _uri(cards), want=True)
    assert {d.code for d in found} == {"CS0501"}
    assert all("did you mean 'Charging'?" in d.message for d in found)
    _change(client, uri, text)
    assert await _diagnostics(client, _uri(cards), want=False) == []


@on_the_server
async def test_hover_tells_a_keyword_a_card_and_a_phrase(client: LanguageClient, game: Path) -> None:
    cards = game / "cards" / "grimhold.cards"
    uri = _open(client, cards)
    keyword = await client.text_document_hover_async(lsp.HoverParams(
        text_document=_doc(uri), position=_where(cards, "keywords: Mounted, Charge", 21)))
    assert keyword is not None and isinstance(keyword.contents, lsp.MarkupContent)
    assert "keyword Charge" in keyword.contents.value
    assert "deals its damage first" in keyword.contents.value
    card = await client.text_document_hover_async(lsp.HoverParams(
        text_document=_doc(uri), position=_where(cards, '"The Bone Citadel"', 3)))
    assert card is not None and isinstance(card.contents, lsp.MarkupContent)
    assert "*Fortress*" in card.contents.value and "hp 18" in card.contents.value
    assert "create a Goblin Rabble token" in card.contents.value
    phrase = await client.text_document_hover_async(lsp.HoverParams(
        text_document=_doc(uri), position=_where(cards, "deal 1 damage to t from self", 7)))
    assert phrase is not None and isinstance(phrase.contents, lsp.MarkupContent)
    assert "procedure deal_damage" in phrase.contents.value
    assert "`deal {amount} damage to {target}`" in phrase.contents.value


@on_the_server
async def test_definition_and_references_of_a_keyword(client: LanguageClient, game: Path) -> None:
    cards, rules = game / "cards" / "grimhold.cards", game / "rules.cards"
    uri = _open(client, cards)
    where = _where(cards, "keywords: Mounted, Charge", 21)
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=_doc(uri), position=where))
    assert isinstance(found, list)
    (target,) = found
    assert isinstance(target, lsp.Location)
    assert target.uri == _uri(rules) and target.range.start.line == _where(rules, "keyword Charge {").line
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=_doc(uri), position=where, context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None
    places = {(r.uri, r.range.start.line) for r in refs}
    assert (uri, where.line) in places and (uri, _where(cards, "keywords: Charge, Alert").line) in places
    assert (_uri(rules), target.range.start.line) in places


@on_the_server
async def test_completion_offers_names_and_phrase_templates(client: LanguageClient, game: Path) -> None:
    cards = game / "cards" / "grimhold.cards"
    uri = _open(client, cards)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=_doc(uri), position=_where(cards, "deal 1 damage to t from self")))
    assert isinstance(result, lsp.CompletionList)
    by_label = {item.label: item for item in result.items}
    template = by_label["deal {amount} damage to {target}"]
    assert template.insert_text == "deal ${1:amount} damage to ${2:target}"
    assert template.insert_text_format == lsp.InsertTextFormat.Snippet
    assert {"Charge", "fortress_zone", '"The Bone Citadel"'} <= set(by_label)


@on_the_server
async def test_outline_lists_cards_and_stages(client: LanguageClient, game: Path) -> None:
    rules = game / "rules.cards"
    uri = _open(client, rules)
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=_doc(uri)))
    assert found is not None
    symbols = {s.name: s for s in found if isinstance(s, lsp.DocumentSymbol)}
    assert {"Charge", "deal_damage", "combat"} <= set(symbols)
    assert [c.name for c in symbols["combat"].children or []] == ["declare", "defend", "resolve"]


@on_the_server
async def test_formatting_is_cardsmith_fmt(client: LanguageClient, game: Path) -> None:
    path = game / "messy.cards"
    messy = 'card "Test Dummy"   {\n    type:   Unit\n  cost: 1\n}\n'
    path.write_text(messy, encoding="utf-8")
    uri = _open(client, path)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=_doc(uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None
    (edit,) = edits
    expected = format_source(SourceFile(str(path), messy), DiagnosticSink())
    assert expected is not None and expected != messy
    assert edit.new_text == expected


def test_without_pygls_the_command_says_what_to_install() -> None:
    hide = "import sys; sys.modules['pygls'] = None; sys.argv = ['cardsmith', 'lsp']; " \
           "from cardsmith.cli import main; main()"
    run = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "pip install 'cardsmith[lsp]'" in run.stderr and "Traceback" not in run.stderr
