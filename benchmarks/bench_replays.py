"""Timings of replays on the server (a script, not a test): a record uploaded again and
again, and frames stepped through late in a game (docs/web.md, "The coach, the review and
replays"). The figures are for one client in-process (FastAPI's test client): what each
request costs the server's main process.

    python benchmarks/bench_replays.py [--rounds 30] [--players 4] [--seed 3]

Prints per measure the median, min and max in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from fastapi.testclient import TestClient

from forest_shuffle.formats.records import random_game, record_of
from forest_shuffle.server.app import create_app
from forest_shuffle.server.limits import Limits


def _ms(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1000:.2f} ms "
            f"(min {min(samples) * 1000:.2f}, max {max(samples) * 1000:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    record = record_of(random_game(args.players, args.seed))
    text = json.dumps(record)
    steps = len(record["actions"])
    with TestClient(create_app("sqlite://", bot_delay=0.0, limits=Limits.off())) as c:
        first = c.post("/api/replays", json={"text": text})
        assert first.status_code == 200, first.text
        rid = first.json()["replay_id"]
        uploads, frames = [], []
        for k in range(args.rounds):
            start = time.perf_counter()
            assert c.post("/api/replays", json={"text": text}).status_code == 200
            uploads.append(time.perf_counter() - start)
            step = steps - 1 - (k * 7) % max(1, steps // 4)  # late in the game
            start = time.perf_counter()
            assert c.get(f"/api/replays/{rid}", params={"step": step, "seat": 0}
                         ).status_code == 200
            frames.append(time.perf_counter() - start)
    print(f"{args.players} players, {steps} actions, {args.rounds} rounds")
    print(f"upload of the same record: {_ms(uploads)}")
    print(f"frame late in the game:    {_ms(frames)}")


if __name__ == "__main__":
    main()
