"""Fixtures for the studio's tests: a game copied to play with, a live server, a browser.

The browser is the system's Chromium driven by Playwright (its own browser download is
not available here). Without Chromium the browser tests skip and say why — except under
CI (CI=true), where they must run, so a missing browser fails them.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LIBRARY

fastapi = pytest.importorskip("fastapi", reason="the studio extra is not installed: pip install -e '.[studio]'")

from cardsmith.studio.project import Project  # noqa: E402
from cardsmith.studio.server import create_app  # noqa: E402

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CARDSMITH_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium",
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def copy_game(name: str, into: Path) -> Path:
    """A library game copied to `into/name`, to edit without touching the library."""
    target = into / name
    shutil.copytree(LIBRARY / name, target)
    return target


def broken_project(tmp_path: Path) -> Project:
    """A copy of Combat Cards with an error saved into it, re-checked: the studio's view
    of a game that stopped checking."""
    folder = copy_game("combat_cards", tmp_path)
    project = Project(str(folder))
    source = folder / "cards" / "fantasy.cards"
    source.write_text(source.read_text() + "\ncard \"Broken\" { nonsense }\n")
    project.reload()
    return project


class LiveStudio:
    """A studio served by uvicorn in a thread, for the browser."""

    def __init__(self, project: Project, watch: bool = True) -> None:
        import uvicorn

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.project = project
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(project, watch=watch), host="127.0.0.1", port=self.port,
                                log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the studio did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_studio() -> Iterator[Any]:
    """Start studios on demand (`live_studio(project)`); all are stopped after the test."""
    started: list[LiveStudio] = []

    def start(project: Project, watch: bool = True) -> LiveStudio:
        studio = LiveStudio(project, watch)
        started.append(studio)
        return studio

    yield start
    for studio in started:
        studio.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One Chromium for the studio's tests. Package-scoped, not session-scoped: Playwright's
    sync API keeps an event loop running in this thread while it is open, and the tests
    after this package (the language server's) start loops of their own."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed, and CI must run the browser tests (scripts/test.sh installs it)")
        pytest.skip("Chromium is not installed (apt-get install chromium); the browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    try:
        yield opened
    finally:
        context.close()
