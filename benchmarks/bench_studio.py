"""Benchmark: the studio's cards pages.

Prints, from one run on this machine:
  (a) per library game: time to render every card face (cold: nothing cached; warm
      from disk: a new process' memory, the disk cache filled; warm: in memory)
  (b) opening the Kingdom Combat gallery to every card image loaded (Playwright with
      the system Chromium; a cold server and cache, then a new browser context on the
      warm server, then a new server on the warm disk cache)
  (c) saving a .cards file to the page showing the change: a card's stat edited (the
      card's new face loaded in the gallery) and an error added (its diagnostic shown)

Usage: python benchmarks/bench_studio.py [--quick] [--repeat N] [--no-browser]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = ["kingdom_combat", "combat_cards", "kingdom_cards", "construct_and_combat", "two_kingdoms"]
ALL_LOADED = """() => {
  const images = Array.from(document.querySelectorAll('#gallery img'));
  return images.length > 0 && images.every(i => i.complete && i.naturalWidth > 0);
}"""
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def use_cache(folder: Path) -> None:
    os.environ["CARDSMITH_CACHE_DIR"] = str(folder)


def faces(repeat: int) -> None:
    from cardsmith.studio.cards import FaceCache
    from cardsmith.studio.project import Project

    print(f"(a) every card face rendered (best of {repeat})")
    print(f"    {'game':22} {'faces':>5} {'cold':>8} {'disk':>8} {'memory':>8}")
    for name in GAMES:
        snapshot = Project(name).snapshot
        game = snapshot.game
        assert game is not None
        cold, disk, memory = [], [], []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                cache = FaceCache(Path(tmp))
                start = time.perf_counter()
                for card in game.cards:
                    cache.face(snapshot, card)
                cold.append(time.perf_counter() - start)
                start = time.perf_counter()
                for card in game.cards:
                    cache.face(snapshot, card)
                memory.append(time.perf_counter() - start)
                again = FaceCache(Path(tmp))
                start = time.perf_counter()
                for card in game.cards:
                    again.face(snapshot, card)
                disk.append(time.perf_counter() - start)
        print(f"    {name:22} {len(game.cards):5} {min(cold):7.3f}s {min(disk):7.3f}s {min(memory):7.3f}s")


class Live:
    """A studio served by uvicorn in a thread."""

    def __init__(self, target: str, watch: bool) -> None:
        import uvicorn

        from cardsmith.studio.project import Project
        from cardsmith.studio.server import create_app

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(Project(target), watch=watch), host="127.0.0.1",
                                                    port=port, log_level="warning", access_log=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def chromium() -> str | None:
    for candidate in (os.environ.get("CARDSMITH_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def open_gallery(browser: Any, url: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(url + "/cards")
        page.wait_for_function(ALL_LOADED, timeout=60_000)
        return time.perf_counter() - start
    finally:
        context.close()


def gallery(browser: Any, repeat: int, scratch: Path) -> None:
    print(f"(b) Kingdom Combat gallery: open to all cards shown (median of {repeat})")
    cold, warm, disk = [], [], []
    for i in range(repeat):
        use_cache(scratch / f"gallery-{i}")
        live = Live("kingdom_combat", watch=False)
        cold.append(open_gallery(browser, live.url))
        warm.append(open_gallery(browser, live.url))
        live.stop()
        live = Live("kingdom_combat", watch=False)
        disk.append(open_gallery(browser, live.url))
        live.stop()
    print(f"    cold server and cache: {statistics.median(cold):.2f} s")
    print(f"    warm server (memory):  {statistics.median(warm):.2f} s")
    print(f"    new server, disk cache: {statistics.median(disk):.2f} s")


def save_loop(browser: Any, repeat: int, scratch: Path) -> None:
    print(f"(c) save a .cards file to the page updated (median of {repeat})")
    use_cache(scratch / "save")
    folder = scratch / "combat_cards"
    shutil.copytree(ROOT / "library" / "combat_cards", folder)
    source = folder / "cards" / "fantasy.cards"
    original = source.read_text()
    live = Live(str(folder), watch=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(live.url + "/cards")
    page.wait_for_function(ALL_LOADED, timeout=60_000)
    time.sleep(0.5)
    faces, diagnostics = [], []
    selector = "#gallery li[data-name=\"Savage Strike\"] img"
    for i in range(repeat):
        old = page.get_attribute(selector, "src")
        start = time.perf_counter()
        source.write_text(original.replace("Damage high Opponent 14", f"Damage high Opponent {20 + i}", 1))
        page.wait_for_function(
            "(old) => { const img = document.querySelector('" + selector.replace("'", "\\'") + "');"
            " return img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0; }",
            arg=old, timeout=20_000)
        faces.append(time.perf_counter() - start)
        time.sleep(0.3)
        start = time.perf_counter()
        source.write_text(original + '\ncard "Broken" { nonsense }\n')
        page.wait_for_selector("#problems pre.diagnostic", timeout=20_000)
        diagnostics.append(time.perf_counter() - start)
        time.sleep(0.3)
        source.write_text(original)
        page.wait_for_selector("#problems pre.diagnostic", state="detached", timeout=20_000)
        time.sleep(0.3)
    context.close()
    live.stop()
    print(f"    stat edited -> new face shown:  {statistics.median(faces):.2f} s (max {max(faces):.2f})")
    print(f"    error added -> diagnostic shown: {statistics.median(diagnostics):.2f} s (max {max(diagnostics):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one repetition of each")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true", help="only (a)")
    args = parser.parse_args()
    repeat = 1 if args.quick else max(1, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        use_cache(scratch / "cache")
        faces(repeat)
        if args.no_browser:
            return
        path = chromium()
        if path is None:
            print("(b), (c): no Chromium found (set CARDSMITH_CHROMIUM)")
            return
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=path, args=FLAGS)
            try:
                gallery(browser, repeat, scratch)
                save_loop(browser, repeat, scratch)
            finally:
                browser.close()


if __name__ == "__main__":
    main()
