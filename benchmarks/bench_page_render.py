"""The table page's redraw in Chromium: how long ``render()`` takes (build and patch).

A two-seat game (seed 38) is played ``--moves`` actions over the API on a real server
(uvicorn in a thread, a temporary SQLite file); the first seat's page is opened at laptop
and phone size and its ``render()`` is called ``--renders`` times in a row (the first five
not counted); medians with min and max in milliseconds, and the machine's load. Run it
with ``PYTHONPATH`` naming another tree's ``src`` to compare two versions of the page.

Usage: ``python benchmarks/bench_page_render.py [--moves 30] [--renders 40]``
(needs the ``web`` extra, Playwright and ``/usr/bin/chromium``).
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

import httpx
import uvicorn
from playwright.sync_api import sync_playwright

from forest_shuffle.server.app import create_app

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
RENDERS = """n => { const g = window.forestShuffle, out = [];
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now(); g.render(); out.push(performance.now() - t0);
  }
  return out.slice(5); }"""


def _act(base: str, gid: str, tokens: list[str]) -> None:
    """The seat to move draws if it may, else takes its first legal action."""
    for token in tokens:
        p = httpx.get(f"{base}/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        if p["to_move"] == p["you"] and p["legal"]:
            action = "draw" if "draw" in p["legal"] else p["legal"][0]
            httpx.post(f"{base}/api/games/{gid}/actions", headers={"X-Seat-Token": token},
                       json={"action": action, "version": p["version"]})
            return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--renders", type=int, default=40)
    args = ap.parse_args()
    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{db}", bot_delay=0.0),
                                           host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    game = httpx.post(base + "/api/games", json={"seed": 38, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}]}).json()
    gid = game["game_id"]
    tokens = [s["token"] or httpx.post(f"{base}/api/games/{gid}/claim",
                                       json={"invite": s["invite"]}).json()["token"]
              for s in game["seats"]]
    for _ in range(args.moves):
        _act(base, gid, tokens)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--no-sandbox", "--disable-gpu"])
        for name, size in SIZES.items():
            context = browser.new_context(viewport=size, reduced_motion="reduce")
            page = context.new_page()
            page.goto(base + game["seats"][0]["link"])
            page.wait_for_function("document.body.dataset.status")
            page.wait_for_timeout(800)
            ms = page.evaluate(RENDERS, args.renders)
            print(f"{name}: render() median {statistics.median(ms):.1f} ms "
                  f"(min {min(ms):.1f}, max {max(ms):.1f}; {len(ms)} renders)")
            context.close()
        browser.close()
    server.should_exit = True
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
