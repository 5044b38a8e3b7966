"""Timings of the coach's endpoints (a script, not a test): Suggest, the review, replays.

In one process (FastAPI's test client, an in-memory database, bot delay 0):

- **suggest**: ``POST /api/games/{id}/suggest`` with the default hard bot, at the first
  turn decision of ``--runs`` fresh 2-player games (each a new search: nothing cached);
- **others**: while one suggestion searches, the latency of ``GET /api/games/{id}`` of
  another game (a thread asking every 20 ms), against the same with the coach idle: what a
  search in the coach's threads costs the rest of the server (``--processes N``: the
  searches in N worker processes instead);
- **review**: ``GET /api/games/{id}/review`` of a finished 2-player game (random legal
  play), the first time (computed) and the second (kept);
- **frame**: ``GET /api/games/{id}/replay?step=K&seat=0`` at a middle step.

Reports median, min and max of each in milliseconds. Usage: ``python
benchmarks/bench_coach.py [--runs 5] [--processes 0] [--json]``; under a minute.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time
from typing import Any

from fastapi.testclient import TestClient

from forest_shuffle.server.app import create_app
from forest_shuffle.server.coach import CoachSettings

PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def _stats(xs: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(xs), 1), "min": round(min(xs), 1),
            "max": round(max(xs), 1), "n": len(xs)}


def _game(c: TestClient, seed: int) -> tuple[str, dict[int, str]]:
    g = c.post("/api/games", json={"seats": PEOPLE, "seed": seed, "hotseat": True}).json()
    return g["game_id"], {s["seat"]: s["token"] for s in g["seats"]}


def _to_turn(c: TestClient, gid: str, tokens: dict[int, str]) -> int:
    """Keep the opening hands; the seat at its first turn decision."""
    svc = c.app.state.service  # type: ignore[attr-defined]
    live = svc.game(gid)
    while live.snap.state.decision != "turn":
        svc.act(gid, tokens[live.snap.state.to_move], "keep", live.snap.version)
    return int(live.snap.state.to_move)


def _latencies(c: TestClient, gid: str, stop: threading.Event) -> list[float]:
    out: list[float] = []
    while not stop.is_set():
        t = time.perf_counter()
        c.get(f"/api/games/{gid}")
        out.append((time.perf_counter() - t) * 1000)
        stop.wait(0.02)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--processes", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    settings = CoachSettings(processes=args.processes)
    out: dict[str, Any] = {"settings": {"suggest_bot": settings.suggest_bot,
                                        "review_bot": settings.review_bot,
                                        "review_moves": settings.review_moves,
                                        "processes": args.processes}}
    with TestClient(create_app("sqlite://", bot_delay=0.0, coach=settings)) as c:
        other, _ = _game(c, 999)
        stop = threading.Event()
        idle: list[float] = []
        t = threading.Thread(target=lambda ev=stop: idle.extend(_latencies(c, other, ev)))
        t.start()
        time.sleep(1.0)
        stop.set()
        t.join()
        suggest: list[float] = []
        busy: list[float] = []
        for run in range(args.runs):
            gid, tokens = _game(c, run + 1)
            seat = _to_turn(c, gid, tokens)
            stop = threading.Event()
            t = threading.Thread(target=lambda ev=stop: busy.extend(_latencies(c, other, ev)))
            t.start()
            start = time.perf_counter()
            r = c.post(f"/api/games/{gid}/suggest", headers={"X-Seat-Token": tokens[seat]})
            suggest.append((time.perf_counter() - start) * 1000)
            stop.set()
            t.join()
            assert r.status_code == 200, r.text
        out["suggest_ms"] = _stats(suggest)
        out["others_idle_ms"] = _stats(idle)
        out["others_during_suggest_ms"] = _stats(busy)
        # a finished game: its review, twice, and a replay frame
        gid, tokens = _game(c, 77)
        svc = c.app.state.service  # type: ignore[attr-defined]
        live = svc.game(gid)
        rng = random.Random(77)
        while not live.snap.state.over:
            st = live.snap.state
            svc.act(gid, tokens[st.to_move], str(rng.choice(st.legal_actions())),
                    live.snap.version)
        start = time.perf_counter()
        rv = c.get(f"/api/games/{gid}/review").json()
        first = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        c.get(f"/api/games/{gid}/review")
        out["review_ms"] = {"first": round(first, 1),
                            "again": round((time.perf_counter() - start) * 1000, 1),
                            "checked": rv["checked"], "listed": len(rv["moves"]),
                            "actions": len(live.snap.state.history)}
        mid = len(live.snap.state.history) // 2
        frames = []
        for k in range(args.runs * 4):
            start = time.perf_counter()
            c.get(f"/api/games/{gid}/replay", params={"step": mid + k, "seat": 0})
            frames.append((time.perf_counter() - start) * 1000)
        out["frame_ms"] = _stats(frames)
    if args.json:
        print(json.dumps(out))
        return
    for key, value in out.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
