"""Benchmark: how soon after a keystroke the editor shows the checker's diagnostics.

Starts `cardsmith lsp` over stdio like an editor does, opens a card file of Kingdom
Combat (a copy in a temporary folder) and types into it: each keystroke is a
`didChange`, and the time is taken until the server publishes diagnostics for that
version of the file. Keystrokes alternate between breaking a keyword (an error appears)
and mending it (the error clears), so every one really changes the result. Prints the
median and the worst of N keystrokes, with the server's debounce (the quiet it waits
for before checking) included and subtracted.

Usage: python benchmarks/bench_lsp.py [--keystrokes 20] [--debounce 200] [--game kingdom_combat]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import BaseLanguageClient

LIBRARY = Path(__file__).resolve().parents[1] / "library"


async def run(game: str, keystrokes: int, debounce_ms: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / game
        shutil.copytree(LIBRARY / game, root)
        path = max((root / "cards").glob("*.cards"), key=lambda p: p.stat().st_size)
        text = path.read_text(encoding="utf-8")
        uri = path.resolve().as_uri()
        client = BaseLanguageClient("bench", "1")
        published: asyncio.Queue[lsp.PublishDiagnosticsParams] = asyncio.Queue()

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            published.put_nowait(params)

        await client.start_io(sys.executable, "-m", "cardsmith", "lsp", "--debounce", str(debounce_ms))
        await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        client.initialized(lsp.InitializedParams())
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
            uri=uri, language_id="cards", version=1, text=text)))
        await _until(published, uri, 1)
        # the keystroke: one letter of the first keyword use swapped back and forth
        at = text.index("keywords: ") + len("keywords: ")
        broken = text[:at] + "Q" + text[at + 1:]
        times = []
        for version in range(2, keystrokes + 2):
            started = time.perf_counter()
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=broken if version % 2 else text)]))
            await _until(published, uri, version)
            times.append(time.perf_counter() - started)
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return times


async def _until(queue: asyncio.Queue[lsp.PublishDiagnosticsParams], uri: str, version: int) -> None:
    while True:
        params = await asyncio.wait_for(queue.get(), timeout=60)
        if params.uri == uri and params.version == version:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keystrokes", type=int, default=20)
    parser.add_argument("--debounce", type=int, default=200, help="the server's debounce, milliseconds")
    parser.add_argument("--game", default="kingdom_combat")
    args = parser.parse_args()
    times = asyncio.run(run(args.game, args.keystrokes, args.debounce))
    median, worst = statistics.median(times) * 1000, max(times) * 1000
    print(f"{args.game}: keystroke -> diagnostics, {len(times)} keystrokes, debounce {args.debounce} ms")
    print(f"  median {median:.0f} ms, worst {worst:.0f} ms (debounce included)")
    print(f"  median {median - args.debounce:.0f} ms, worst {worst - args.debounce:.0f} ms (after the debounce)")


if __name__ == "__main__":
    main()
