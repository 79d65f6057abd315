"""Take the studio screenshots shown in the README: the Kingdom Combat gallery, a Combat
Cards match in play, and a Balance page after a small simulation.

Usage: .venv/bin/python scripts/studio_screenshots.py [--out docs/images]
Needs the studio extra and Chromium (apt-get install chromium).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from cardsmith.studio.project import Project
from cardsmith.studio.server import create_app

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def serve(target: str) -> tuple[uvicorn.Server, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(Project(target), watch=False), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        server, url = serve("kingdom_combat")
        page.goto(url + "/cards")
        page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        page.screenshot(path=str(args.out / "studio-gallery.png"))
        server.should_exit = True
        server, url = serve("combat_cards")
        page.goto(url + "/play")
        page.fill("input[name=seed]", "3")
        page.select_option("select[name=seat1]", "person")
        page.select_option("select[name=seat2]", "greedy")
        with page.expect_navigation():
            page.click("#start")
        for _ in range(10):
            with page.expect_navigation():
                page.locator("#moves button.move").first.click()
        page.locator("#moves button.move").first.hover()
        page.wait_for_function("Array.from(document.images).every(i => i.complete)")
        page.screenshot(path=str(args.out / "studio-match.png"))
        page.goto(url + "/balance")
        page.fill("input[name=matches]", "60")
        page.click("#balance-start")
        page.wait_for_selector("#balance-histogram", timeout=120_000)
        page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        page.screenshot(path=str(args.out / "studio-balance.png"), full_page=False)
        server.should_exit = True
        browser.close()
    for name in ("studio-gallery.png", "studio-match.png", "studio-balance.png"):
        print(args.out / name)


if __name__ == "__main__":
    main()
