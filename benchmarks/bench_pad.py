"""The score pad's latency: one card changed at a 5-player table, scored and sent.

A 5-player table of end-of-game forests (random play of the base game, or of ``--game``,
written as Forest JSON with card ids) is opened in the pad's service over a SQLite file;
each round five long-poll waiters (the phones) wait on the table, one entry changes one
card (alternately removing a card and undoing that), and the time runs from the entry's
arrival until every waiter holds the new table's answer: the entry checked by the Forest
JSON reader, stored in one transaction, scored by the game's scorer with every card's
reason, and the answer built (once) and handed to the five. Medians with min and max,
in milliseconds, and the machine's load.

``--http``: the same through a real server (uvicorn in a thread, the app of ``serve``):
five HTTP clients in threads hold ``GET .../wait`` and a sixth posts the entry; timed from
the post until the five answers are read.

Usage: ``python benchmarks/bench_pad.py [--rounds 200] [--seed 7] [--game base] [--http]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from forest_shuffle.cards.forest import Forest
from forest_shuffle.formats.records import random_game
from forest_shuffle.server.pad import PadService
from forest_shuffle.server.store import Store

PHONES = 5


def document(game: str, forests: list[Forest]) -> dict[str, Any]:
    """Forest JSON of finished forests, every card by its id."""
    players = []
    for i, f in enumerate(forests):
        trees = []
        for h in f.trees:
            entry: dict[str, Any] = ({"tree": "sapling"} if h.is_sapling
                                     else {"card": h.card})
            for side, stack in h.slots.items():
                if stack:
                    entry[side] = [{"card": d.card} for d in stack]
            trees.append(entry)
        players.append({"name": f"Player {i + 1}", "cave": f.cave, "trees": trees})
    return {"game": game, "players": players}


async def rounds(svc: PadService, tid: str, token: str, n: int) -> list[float]:
    """``n`` timed rounds (seconds each)."""
    loop = asyncio.get_running_loop()
    forest = svc.document(tid)["players"][0]
    host, side = next((h, s) for h, t in enumerate(forest["trees"])
                      for s in ("top", "bottom", "left", "right") if t.get(s))
    ops = [{"op": "remove", "at": {"host": host, "side": side, "index": 0}}, {"op": "undo"}]
    out = []
    for i in range(n):
        since = svc.version(tid)
        phones = [asyncio.create_task(svc.wait(tid, since, 10.0)) for _ in range(PHONES)]
        await asyncio.sleep(0)  # every phone waits before the entry comes
        start = time.perf_counter()
        await loop.run_in_executor(None, svc.enter, tid, token, f"bench-{i}", None, None,
                                   ops[i % 2])
        answers = await asyncio.gather(*phones)
        out.append(time.perf_counter() - start)
        assert all(a is answers[0] for a in answers) and answers[0]
    return out


def http_rounds(doc: dict[str, Any], db: str, n: int) -> list[float]:
    """``n`` timed rounds through a real server (seconds each)."""
    import httpx
    import uvicorn

    from forest_shuffle.server.app import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(db, bot_delay=0.0), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    out: list[float] = []
    try:
        with httpx.Client(base_url=base, timeout=30) as poster:
            t = poster.post("/api/pad/import", json=doc).json()
            tid, token = t["id"], t["seats"][0]["token"]
            forest = doc["players"][0]
            host, side = next((h, s) for h, tr in enumerate(forest["trees"])
                              for s in ("top", "bottom", "left", "right") if tr.get(s))
            ops = [{"op": "remove", "at": {"host": host, "side": side, "index": 0}},
                   {"op": "undo"}]
            phones = [httpx.Client(base_url=base, timeout=30) for _ in range(PHONES)]
            for i in range(n):
                since = poster.get(f"/api/pad/tables/{tid}").json()["version"]
                done: list[float] = []
                lock = threading.Lock()

                def wait(c: httpx.Client, since: int = since, done: list[float] = done,
                         lock: threading.Lock = lock) -> None:
                    r = c.get(f"/api/pad/tables/{tid}/wait", params={"since": since,
                                                                       "timeout": 10})
                    assert r.json()["version"] > since
                    with lock:
                        done.append(time.perf_counter())

                threads = [threading.Thread(target=wait, args=(c,)) for c in phones]
                for th in threads:
                    th.start()
                time.sleep(0.02)  # the five are waiting
                start = time.perf_counter()
                r = poster.post(f"/api/pad/tables/{tid}/entries",
                                json={"entry_id": f"http-{i}", "op": ops[i % 2]},
                                headers={"X-Pad-Token": token})
                assert r.status_code == 200, r.text
                for th in threads:
                    th.join()
                out.append(max(done) - start)
            for c in phones:
                c.close()
    finally:
        server.should_exit = True
        thread.join(10)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--game", default="base")
    ap.add_argument("--http", action="store_true", help="through a real server")
    args = ap.parse_args()
    state = random_game(PHONES, args.seed, game=args.game)
    doc = document(args.game, list(state.forests))
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'pad.db'}"
        cards = sum(len(s) for p in doc["players"] for h in p["trees"]
                    for s in h.values() if isinstance(s, list)) + sum(
            len(p["trees"]) for p in doc["players"])
        if args.http:
            times = http_rounds(doc, db, args.rounds)
        else:
            store = Store(db)
            svc = PadService(store)
            t = svc.import_document(doc)
            times = asyncio.run(rounds(svc, t["id"], t["seats"][0]["token"], args.rounds))
            store.close()
    ms = [x * 1000 for x in times]
    print(f"{args.game}, {PHONES} players, {cards} cards on the table, {args.rounds} rounds"
          f"{' over HTTP' if args.http else ''}; "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"one card changed, scored and sent to {PHONES} phones: median "
          f"{statistics.median(ms):.2f} ms (min {min(ms):.2f}, max {max(ms):.2f})")


if __name__ == "__main__":
    main()
