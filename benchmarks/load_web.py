"""Load check of the web server (a script, not a test).

Starts one ``forest-shuffle serve`` process on 127.0.0.1 (bot delay 0, a temporary SQLite
file unless ``--db``), then ``--clients`` simulated people in threads. Each plays games
against bots: it holds a WebSocket to its seat, and whenever the state says it is to move
it sends a random legal action; the latency of an action is the time from sending it to
the first state that includes it (``--rest``: the time of the ``POST .../actions``
request, waiting for bots by polling). Bounded by ``--games`` per client and ``--seconds``
in all. Reports actions per second (the clients' and all, bots' included) and p50/p99
latency.

Usage: ``python benchmarks/load_web.py [--clients 8] [--games 2] [--seconds 60]
[--players 2] [--level easy] [--rest] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Tally:
    """What one client did."""

    latencies: list[float] = field(default_factory=list)
    games: int = 0
    versions: int = 0  # actions applied in its games, bots' included
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "forest_shuffle", "serve", "--host",
                             "127.0.0.1", "--port", str(port), "--db", db,
                             "--bot-delay", "0"], env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start in 30 s")


def new_game(http: httpx.Client, players: int, level: str, seed: int) -> tuple[str, str]:
    seats = [{"kind": "human", "name": "load"}] + [{"kind": "bot", "level": level}] * (
        players - 1)
    r = http.post("/api/games", json={"seats": seats, "seed": seed})
    r.raise_for_status()
    body = r.json()
    return body["game_id"], body["seats"][0]["token"]


def play_ws(base: str, http: httpx.Client, args: argparse.Namespace, rng: random.Random,
            tally: Tally, until: float, seed: int) -> None:
    """One game over a WebSocket."""
    gid, token = new_game(http, args.players, args.level, seed)
    url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={token}"
    with connect(url, open_timeout=10, max_size=2**24) as ws:
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < until:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "error":
                tally.errors.append(msg["error"])
                sent_at = None
                continue
            if msg["type"] != "state":
                continue
            p = msg["payload"]
            if sent_at is not None and p["version"] > sent_version:
                tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if p["over"]:
                tally.games += 1
                tally.versions += p["version"]
                return
            if p["to_move"] == 0 and sent_at is None and p["version"] > sent_version:
                sent_version = p["version"]
                sent_at = time.perf_counter()
                ws.send(json.dumps({"type": "action", "action": rng.choice(p["legal"]),
                                    "version": p["version"]}))


def play_rest(http: httpx.Client, args: argparse.Namespace, rng: random.Random,
              tally: Tally, until: float, seed: int) -> None:
    """One game over REST, polling while bots move."""
    gid, token = new_game(http, args.players, args.level, seed)
    headers = {"X-Seat-Token": token}
    p = http.get(f"/api/games/{gid}", headers=headers).json()
    while time.monotonic() < until:
        if p["over"]:
            tally.games += 1
            tally.versions += p["version"]
            return
        if p["to_move"] != 0:
            time.sleep(0.005)
            p = http.get(f"/api/games/{gid}", headers=headers).json()
            continue
        start = time.perf_counter()
        r = http.post(f"/api/games/{gid}/actions", headers=headers,
                      json={"action": rng.choice(p["legal"]), "version": p["version"]})
        tally.latencies.append(time.perf_counter() - start)
        if r.status_code != 200:
            tally.errors.append(r.json().get("error", r.text))
            p = http.get(f"/api/games/{gid}", headers=headers).json()
        else:
            p = r.json()


def client(k: int, base: str, args: argparse.Namespace, tally: Tally, until: float) -> None:
    rng = random.Random(args.seed * 1000 + k)
    with httpx.Client(base_url=base, timeout=30) as http:
        for g in range(args.games):
            if time.monotonic() >= until:
                return
            try:
                if args.rest:
                    play_rest(http, args, rng, tally, until, args.seed * 1000 + k * 50 + g)
                else:
                    play_ws(base, http, args, rng, tally, until, args.seed * 1000 + k * 50 + g)
            except Exception as exc:  # report, go on with the next game
                tally.errors.append(f"{type(exc).__name__}: {exc}")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=2, help="games per client at most")
    ap.add_argument("--seconds", type=float, default=60.0, help="time bound of the run")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", default="easy", help="the bots' level")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    ap.add_argument("--rest", action="store_true", help="act over REST instead of sockets")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        port = free_port()
        proc = start_server(db, port)
        base = f"http://127.0.0.1:{port}"
        try:
            tallies = [Tally() for _ in range(args.clients)]
            start = time.monotonic()
            until = start + args.seconds
            threads = [threading.Thread(target=client, args=(k, base, args, t, until))
                       for k, t in enumerate(tallies)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.monotonic() - start
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = [x for t in tallies for x in t.latencies]
    versions = sum(t.versions for t in tallies)
    report: dict[str, Any] = {
        "mode": "rest" if args.rest else "websocket",
        "clients": args.clients, "players": args.players, "bots": args.level,
        "seconds": round(elapsed, 2),
        "games_finished": sum(t.games for t in tallies),
        "client_actions": len(lat),
        "client_actions_per_s": round(len(lat) / elapsed, 1),
        "all_actions_per_s": round(versions / elapsed, 1) if versions else None,
        "latency_ms": {"p50": round(pct(lat, 0.50) * 1000, 2),
                       "p99": round(pct(lat, 0.99) * 1000, 2),
                       "mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
                       "max": round(max(lat) * 1000, 2) if lat else None},
        "errors": sum(len(t.errors) for t in tallies),
        "first_errors": [e for t in tallies for e in t.errors][:5],
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['mode']}: {args.clients} clients, {args.players}-player games against "
          f"{args.level} bots, {report['seconds']} s")
    print(f"  games finished {report['games_finished']}, client actions "
          f"{report['client_actions']} ({report['client_actions_per_s']}/s), all actions "
          f"{report['all_actions_per_s']}/s (bots included, finished games)")
    ms = report["latency_ms"]
    print(f"  latency p50 {ms['p50']} ms, p99 {ms['p99']} ms, mean {ms['mean']} ms, "
          f"max {ms['max']} ms")
    print(f"  errors {report['errors']} {report['first_errors']}")


if __name__ == "__main__":
    main()
