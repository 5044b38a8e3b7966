"""Memory of the web server over a long run (a script, not a test).

Starts one ``forest-shuffle serve`` process as ``load_web.py`` does (bot delay 0, a
temporary SQLite file, flood bounds off), then ``--clients`` simulated people who play
game after game against bots over WebSockets, with no think time unless ``--think``, for
``--seconds``. Every ``--every`` seconds it samples the server's resident set size (from
``/proc/PID/status``; its bot worker processes apart) and prints the curve. At the end it
says whether memory levels off: the growth in the last third of the run against the first
third (levels off when the last third grew by at most 2 MB or a quarter of the first
third's growth), and the growth per 100 games in the last third.

The server keeps a finished game in memory for a minute after its last use
(``GameService.idle_over``), so memory rises during about the first minute and a half of a
run with fast clients; a run of 3 minutes or more shows whether it stays level after that.

Usage: ``python benchmarks/soak_web.py [--clients 40] [--seconds 600] [--every 5]
[--players 2] [--level easy] [--think 0] [--json]``
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from typing import Any

from load_web import Sampler, Tally, add_server_options, person, raise_file_limit, server


def verdict(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the RSS levels off over ``samples`` (see the module docstring)."""
    if len(samples) < 4:
        return {"levels_off": None, "why": "too few samples"}
    end = samples[-1]["t"]
    first = [s for s in samples if s["t"] <= end / 3]
    last = [s for s in samples if s["t"] >= 2 * end / 3]
    grew_first = first[-1]["rss_mb"] - first[0]["rss_mb"]
    grew_last = last[-1]["rss_mb"] - last[0]["rss_mb"]
    games_last = last[-1]["games"] - last[0]["games"]
    if games_last < 10:
        return {"levels_off": None, "why": "fewer than 10 games in the last third"}
    level = grew_last <= max(2.0, grew_first / 4)
    return {"levels_off": level,
            "first_third_mb": round(grew_first, 1), "last_third_mb": round(grew_last, 1),
            "last_third_games": games_last,
            "mb_per_100_games_last_third": round(100 * grew_last / games_last, 2)
            if games_last else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--clients", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--every", type=float, default=5.0, help="seconds between two samples")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", default="easy", help="the bots' level")
    ap.add_argument("--think", type=float, default=0.0,
                    help="a person's mean seconds before each action (0: none)")
    ap.add_argument("--seed", type=int, default=-1, help="deals (-1: the server's own)")
    ap.add_argument("--json", action="store_true")
    add_server_options(ap)
    args = ap.parse_args()
    args.rest = False
    if args.limits == "default":
        args.limits = None
    raise_file_limit()
    tallies = [Tally() for _ in range(args.clients)]

    def note() -> dict[str, Any]:
        return {"games": sum(t.games for t in tallies),
                "actions": sum(len(t.latencies) for t in tallies)}

    def show(row: dict[str, Any]) -> None:
        if not args.json:
            print(f"  {row['t']:7.1f} s  server {row['rss_mb']:7.1f} MB  (bot workers "
                  f"{row['workers_mb']:6.1f} MB)  games {row['games']:5d}  client actions "
                  f"{row['actions']:7d}", flush=True)

    if not args.json:
        print(f"soak: {args.clients} clients, {args.players}-player games against "
              f"{args.level} bots, {args.seconds:g} s, a sample every {args.every:g} s")
    with server(args) as (port, proc), Sampler(proc.pid, args.every, note, show) as sampler:
        start = time.monotonic()
        until = start + args.seconds
        threads = [threading.Thread(target=person, args=(k, port, args, t, until, 10**6))
                   for k, t in enumerate(tallies)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    judged = verdict(sampler.samples)
    errors = [e for t in tallies for e in t.errors]
    report = {"clients": args.clients, "seconds": args.seconds, "samples": sampler.samples,
              "memory_mb": sampler.summary(), **judged,
              "errors": len(errors), "first_errors": errors[:5]}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    m = report["memory_mb"]
    print(f"  server memory: {m['start']} MB at the start, peak {m['peak']} MB, {m['end']} MB "
          f"at the end; {note()['games']} games finished")
    if judged["levels_off"] is None:
        print(f"  levels off: cannot tell ({judged['why']})")
    else:
        print(f"  grew {judged['first_third_mb']} MB in the first third, "
              f"{judged['last_third_mb']} MB in the last ({judged['last_third_games']} games, "
              f"{judged['mb_per_100_games_last_third']} MB per 100 games): levels off "
              f"{'yes' if judged['levels_off'] else 'no'}")
    print(f"  errors {len(errors)} {errors[:5]}")


if __name__ == "__main__":
    main()
