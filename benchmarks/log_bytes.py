"""Bytes a client receives for a whole game, with the log sent whole or as increments
(a script, not a test).

Plays one game in-process (a :class:`GameService` over an in-memory SQLite store, every
seat a person whose actions a medium bot chooses), and after every action builds the
``{"type": "state", "payload": ...}`` message a socket would send to seat 0 and to a
spectator, as compact JSON: once with the whole log (``log_from=0``, what every message
carried before the log was sent as increments) and once as the increment since the
previous message. A client that receives every version is the worst case: quick changes
sent as one message only lower both figures.

Usage: ``python benchmarks/log_bytes.py [--players 4] [--seed 2] [--level easy] [--json]``
"""

from __future__ import annotations

import argparse
import inspect
import json
import time
from typing import Any

from forest_shuffle.bots import make_bot
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store


def message_bytes(payload: dict[str, Any]) -> int:
    """The size of the socket message carrying ``payload`` (compact JSON, as the app)."""
    return len(json.dumps({"type": "state", "payload": payload},
                          separators=(",", ":")).encode())


def run(players: int, seed: int, level: str = "easy") -> dict[str, Any]:
    service = GameService(Store("sqlite://"), bot_delay=0)
    increments = "log_from" in inspect.signature(service.payload).parameters
    try:
        created = service.create([SeatSpec("human")] * players, seed=seed)
        gid = created["game_id"]
        tokens = [s["token"] for s in created["seats"]]
        bots = [make_bot(level, seed * 10 + i) for i in range(players)]
        viewers: dict[str, int | None] = {"seat 0": 0, "spectator": None}
        have = dict.fromkeys(viewers, 0)  # log entries each client holds
        full = dict.fromkeys(viewers, 0)
        incr = dict.fromkeys(viewers, 0)
        at_100: dict[str, int] = {}
        last: dict[str, int] = {}
        incr_100: dict[str, int] = {}
        incr_last: dict[str, int] = {}
        started = time.perf_counter()
        while True:
            for name, seat in viewers.items():
                whole = (service.payloads.payload(gid, seat, log_from=0) if increments
                         else service.payloads.payload(gid, seat))
                full[name] += message_bytes(whole)
                last[name] = message_bytes(whole)
                if increments:
                    part = service.payloads.payload(gid, seat, log_from=have[name])
                    have[name] = part["log_total"]
                    incr[name] += message_bytes(part)
                    incr_last[name] = message_bytes(part)
            snap = service.game(gid).snap
            state = snap.state
            if snap.version == 100:
                at_100, incr_100 = dict(last), dict(incr_last)
            if state.over:
                break
            p = state.to_move
            assert p is not None
            action = bots[p].choose(state.view(p))
            service.act(gid, tokens[p], str(action), snap.version)
        versions = service.game(gid).snap.version
        entries = len(service.game(gid).log)
        seconds = time.perf_counter() - started
    finally:
        service.close()
    return {"players": players, "seed": seed, "versions": versions, "log_entries": entries,
            "messages_per_client": versions + 1,
            "payload_at_version_100": at_100, "payload_at_end": last,
            "whole_log_bytes": full, "increment_bytes": incr if increments else None,
            "increment_at_version_100": incr_100, "increment_at_end": incr_last,
            "seconds": round(seconds, 1)}


def kb(n: int) -> str:
    return f"{n / 1000:,.1f} KB" if n < 10**6 else f"{n / 10**6:,.2f} MB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--level", default="easy", help="the bot level choosing the actions")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = run(args.players, args.seed, args.level)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['players']} players, seed {out['seed']}, {args.level} bots: "
          f"{out['versions']} actions, {out['log_entries']} log entries, "
          f"{out['messages_per_client']} messages a client")
    print(f"  {'viewer':9}  {'log':10} {'v100':>9} {'the end':>15} {'whole game':>11}"
          "   (one message at version 100, at the end; all messages)")
    for name in out["whole_log_bytes"]:
        rows = [("whole", out["payload_at_version_100"], out["payload_at_end"],
                 out["whole_log_bytes"])]
        if out["increment_bytes"] is not None:
            rows.append(("increments", out["increment_at_version_100"],
                         out["increment_at_end"], out["increment_bytes"]))
        for kind, v100, end, total in rows:
            print(f"  {name:9}  {kind:10} {kb(v100.get(name, 0)):>9} {kb(end[name]):>15} "
                  f"{kb(total[name]):>11}")

if __name__ == "__main__":
    main()
