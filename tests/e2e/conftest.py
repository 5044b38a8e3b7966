"""End-to-end fixtures: the real server in a thread (temp SQLite, bot delay 0) and Debian's
Chromium driven by Playwright. Nothing is downloaded: the browser is ``/usr/bin/chromium``."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright  # noqa: E402

from forest_shuffle.server.app import create_app  # noqa: E402

CHROMIUM = os.environ.get("FOREST_SHUFFLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: A laptop screen (the page's main target).
LAPTOP = {"width": 1366, "height": 768}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread) over a fresh SQLite file."""
    db = tmp_path_factory.mktemp("e2e") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0)
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, name="e2e-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the e2e server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def pw() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(pw: Playwright) -> Iterator[Browser]:
    exe = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
    yield b
    b.close()


class PageErrors:
    """JavaScript errors and failed console messages seen by the pages of one test, among
    them anything the Content-Security-Policy refused (docs/web.md, "Headers")."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("console", self._console)
        return page


    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.errors.append(f"refused by the policy: {message.text}")


@pytest.fixture
def page_errors() -> Iterator[PageErrors]:
    errors = PageErrors()
    yield errors
    assert errors.errors == [], errors.errors


@pytest.fixture
def desktop(browser: Browser, page_errors: PageErrors) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser: Browser, page_errors: PageErrors) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=1)
    page = page_errors.watch(context.new_page())
    page.set_default_timeout(15_000)
    yield page
    context.close()
