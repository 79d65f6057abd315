"""The language server: protocol messages in, answers from the latest check out.

Changes are debounced (a check starts once typing pauses) and a check runs in a worker
thread, so the server keeps answering hover and completion while it checks. A check
whose folder was edited again before it finished is dropped, not published: only the
newest text's diagnostics reach the editor. Navigation answers from the newest check
that produced a game, so a half-typed line does not blank out hover and jump.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from cardsmith import __version__
from cardsmith.dsl.source import SourceFile
from cardsmith.lsp import actions, complete, navigation, outline
from cardsmith.lsp.convert import to_diagnostic, uri_of
from cardsmith.lsp.index import Index, build_index
from cardsmith.lsp.workspace import Analysis, analyse, game_files, game_root

DEBOUNCE_SECONDS = 0.2
log = logging.getLogger(__name__)


def check_folder(path: Path, overlays: dict[Path, str]) -> Analysis:
    """Check the game `path` belongs to, with the open buffers' texts."""
    return analyse(game_files(path), overlays)


class CardsServer(LanguageServer):
    def __init__(self, debounce: float = DEBOUNCE_SECONDS) -> None:
        super().__init__("cardsmith", __version__)
        self.debounce = debounce
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardsmith-check")
        self.analyses: dict[Path, Analysis] = {}
        # per game folder: the newest check that gave a game, and its index once asked for
        self.indexed: dict[Path, tuple[Analysis, Index | None]] = {}
        self.pending: dict[Path, asyncio.Task[None]] = {}
        self.generation: dict[Path, int] = {}
        self.published: dict[Path, set[str]] = {}

    # ------------------------------------------------------------ documents and checks

    def overlays(self) -> dict[Path, str]:
        return {Path(p).resolve(): doc.source for uri, doc in self.workspace.text_documents.items()
                if (p := to_fs_path(uri)) is not None}

    def schedule(self, uri: str, delay: float) -> None:
        path = _path(uri)
        if path is None:
            return
        root = game_root(path)
        previous = self.pending.get(root)
        if previous is not None:
            previous.cancel()
        self.pending[root] = asyncio.get_running_loop().create_task(self._check_later(root, path, delay))

    async def _check_later(self, root: Path, path: Path, delay: float) -> None:
        await asyncio.sleep(delay)
        generation = self.generation.get(root, 0) + 1
        self.generation[root] = generation
        overlays = self.overlays()
        try:
            analysis = await asyncio.get_running_loop().run_in_executor(
                self.worker, check_folder, path, overlays)
        except Exception:  # a checker bug must not take the editor's server down with it
            log.exception("checking %s failed", root)
            return
        if self.generation.get(root) != generation:
            return  # the folder changed while this check ran: a newer one is coming
        self.store(root, analysis)
        self.publish(root, analysis)

    def store(self, root: Path, analysis: Analysis) -> None:
        self.analyses[root] = analysis
        if analysis.game is not None:
            self.indexed[root] = (analysis, None)  # indexed when navigation first needs it

    def index(self, root: Path) -> Index | None:
        """The index of the newest check of the folder that gave a game (built on first
        use: a keystroke pays for the check only, not for an index nobody asked for)."""
        entry = self.indexed.get(root)
        if entry is None:
            return None
        analysis, index = entry
        if index is None and analysis.game is not None:
            index = build_index(analysis.game)
            self.indexed[root] = (analysis, index)
        return index

    def publish(self, root: Path, analysis: Analysis) -> None:
        by_uri: dict[str, list[lsp.Diagnostic]] = {uri_of(Path(f)): [] for f in analysis.texts}
        for d in analysis.result.diagnostics:
            if d.span.file in analysis.texts:
                by_uri[uri_of(Path(d.span.file))].append(to_diagnostic(d))
        for uri in self.published.get(root, set()) - set(by_uri):
            by_uri[uri] = []
        self.published[root] = {uri for uri, items in by_uri.items() if items}
        for uri, items in by_uri.items():
            doc = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=items, version=doc.version if doc is not None else None))

    def state(self, uri: str) -> tuple[Path, str, Analysis, Index] | None:
        """The file, its text, and the latest check and index of its game (checked now
        if the game was never checked)."""
        path = _path(uri)
        if path is None:
            return None
        root = game_root(path)
        if root not in self.analyses:
            # on the checking thread, so two checks never run at once
            self.store(root, self.worker.submit(check_folder, path, self.overlays()).result())
        index = self.index(root)
        if index is None:
            return None
        return path, self.workspace.get_text_document(uri).source, self.analyses[root], index


def _path(uri: str) -> Path | None:
    path = to_fs_path(uri)
    return Path(path).resolve() if path is not None and uri.startswith("file:") else None


def build_server(debounce: float = DEBOUNCE_SECONDS) -> CardsServer:
    server = CardsServer(debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CardsServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CardsServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CardsServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CardsServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0.0)  # the file on disk counts again

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: CardsServer, params: lsp.HoverParams) -> lsp.Hover | None:
        state = ls.state(params.text_document.uri)
        if state is None:
            return None
        path, text, analysis, index = state
        return navigation.hover(analysis, index, path, text, params.position.line, params.position.character)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: CardsServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        state = ls.state(params.text_document.uri)
        if state is None:
            return None
        path, text, _, index = state
        return navigation.definition(index, path, text, params.position.line, params.position.character) or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: CardsServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        state = ls.state(params.text_document.uri)
        if state is None:
            return None
        path, text, analysis, index = state
        return navigation.references(analysis, index, path, text, params.position.line,
                                     params.position.character, params.context.include_declaration) or None

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"']))
    def completion(ls: CardsServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        state = ls.state(params.text_document.uri)
        if state is None:
            return None
        _, text, _, index = state
        items = complete.completions(index, text, params.position.line, params.position.character)
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: CardsServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        state = ls.state(params.text_document.uri)
        if state is None:
            return None
        path, _, _, index = state
        return outline.document_symbols(index, str(path))

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: CardsServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        path = _path(params.text_document.uri)
        if path is None:
            return None
        text = ls.workspace.get_text_document(params.text_document.uri).source
        return actions.format_edits(SourceFile(str(path), text))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: CardsServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        path = _path(params.text_document.uri)
        analysis = ls.analyses.get(game_root(path)) if path is not None else None
        if path is None or analysis is None:
            return None
        text = ls.workspace.get_text_document(params.text_document.uri).source
        mine = [d for d in analysis.result.diagnostics if d.span.file == str(path)]
        return actions.quick_fixes(params.text_document.uri, SourceFile(str(path), text), mine, params.range)

    return server


def serve(debounce: float = DEBOUNCE_SECONDS) -> None:
    """Run the server on stdin/stdout until the editor ends the session."""
    build_server(debounce).start_io()
