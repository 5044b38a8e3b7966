"""Load check of several server processes (a script, not a test): ``serve --workers N
--db postgresql://... --pubsub redis://...`` for each N of ``--workers`` (default 1, 2, 4),
each run with the same simulated people as ``load_web.py`` (``--clients`` people acting
about every ``--think`` seconds), on a throwaway PostgreSQL cluster and Redis server that
this script starts on this machine and removes (Debian's ``postgresql`` and
``redis-server``; ``pip install -e '.[scale]'``). Reports per N: actions per second, p50
and p99 latency, and the servers' memory; ``--json`` for the raw reports.

Usage: ``python benchmarks/load_scale.py [--workers 1,2,4] [--clients 300] [--think 1]
[--seconds 60] [--json]``. Everything runs on one machine: the clients share its cores
with the servers, PostgreSQL and Redis, so the figures say where this machine stops, not
what a cluster would do (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "web"))

import load_web  # noqa: E402
from services import postgres, redis_server  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", default="1,2,4", help="worker counts to run, e.g. 1,2,4")
    ap.add_argument("--clients", type=int, default=300)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    counts = [int(x) for x in opts.workers.split(",") if x.strip()]
    reports: list[dict[str, Any]] = []
    with postgres() as pg, redis_server() as redis_url:
        for n in counts:
            args = argparse.Namespace(
                clients=opts.clients, games=opts.games, seconds=opts.seconds, players=2,
                level="easy", think=opts.think, spectators=0, hard_games=0, seed=-1,
                rest=False, json=True, db=pg, limits="off", bot_processes=0, src=None,
                serve_extra=f"--workers {n} --pubsub {redis_url}")
            report = load_web.run(args)
            report["workers"] = n
            reports.append(report)
            lat = report["latency_ms"]
            print(f"{n} worker(s), {opts.clients} people every {opts.think:g} s: "
                  f"{report['client_actions_per_s']} client actions/s "
                  f"({report['all_actions_per_s']} with bots), latency p50 {lat['p50']} ms, "
                  f"p99 {lat['p99']} ms, errors {report['errors']}, "
                  f"memory {report['memory_mb']}", flush=True)
    if opts.json:
        print(json.dumps(reports, indent=1))


if __name__ == "__main__":
    main()
