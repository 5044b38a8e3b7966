"""What the page's languages cost: the lobby drawn in each language, and the words' sizes.

A real server (uvicorn in a thread over a temporary SQLite file) and Debian's Chromium
(``/usr/bin/chromium``, headless, never a downloaded one): for each language a fresh
browser context with that locale opens ``/`` and the time runs until the lobby's Create
button is drawn (so a language other than English includes the fetch of its words,
``/static/words/<lang>.json``, before the page's modules run). Rounds alternate the
languages. Medians with min and max in milliseconds, the size of each words file, and the
machine's load.

Usage: ``python benchmarks/page_languages.py [--rounds 15]``
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from forest_shuffle.server.app import create_app

WORDS = Path(__file__).resolve().parents[1] / "src/forest_shuffle/server/static/words"
LOCALES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "zh": "zh-CN"}
CHROMIUM = os.environ.get("FOREST_SHUFFLE_CHROMIUM", "/usr/bin/chromium")


def serve(db: Path) -> tuple[str, uvicorn.Server]:
    """A server in a thread; its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    srv = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{db}", bot_delay=0.0),
                                        host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", srv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    times: dict[str, list[float]] = {lang: [] for lang in LOCALES}
    with tempfile.TemporaryDirectory() as tmp:
        base, srv = serve(Path(tmp) / "games.sqlite3")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            for locale in LOCALES.values():  # one unmeasured load each (caches warm)
                ctx = browser.new_context(locale=locale)
                ctx.new_page().goto(base + "/")
                ctx.close()
            for _ in range(args.rounds):
                for lang, locale in LOCALES.items():
                    ctx = browser.new_context(locale=locale)
                    page = ctx.new_page()
                    start = time.perf_counter()
                    page.goto(base + "/")
                    page.wait_for_selector("[data-testid=create-game]")
                    times[lang].append((time.perf_counter() - start) * 1000)
                    assert page.evaluate("document.documentElement.dataset.lang") == lang
                    ctx.close()
            browser.close()
        srv.should_exit = True
    print(f"lobby drawn, {args.rounds} rounds (ms: median [min, max]); words file bytes")
    for lang, ts in times.items():
        size = (WORDS / f"{lang}.json").stat().st_size
        print(f"  {lang}: {statistics.median(ts):7.1f} [{min(ts):6.1f}, {max(ts):6.1f}]"
              f"   {size:6d} B")
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
