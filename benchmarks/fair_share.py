"""One client must not starve the others (a script, not a test): a real ``forest-shuffle
serve`` under one attack from one address (127.0.0.2) while another player (127.0.0.1)
reads their game ten times a second; prints the player's latencies (median, p99, max) and
how many of their requests failed. Run it against any source tree to compare:

    python benchmarks/fair_share.py --attack review [--seconds 10] [--src DIR]

The server runs with ``--limits games_per_minute=off,review_time=0.5`` (a review's search
lasts several seconds, as a busy machine makes it). Attacks: ``review`` (60 parallel
``GET /review`` of one finished game, asked again as each returns), ``slow`` (1,000
half-sent requests held open), ``suggest`` (Suggest asked again and again in 12 games; the
player asks Suggest once and its answer time is printed too), ``hardbots`` (20 games of
hard bots only, the server run with ``bot_games_per_address=20`` so the address gets them
all, as before that bound; the player plays a game against a hard bot, acting once a second,
and the bot's answer times are printed: from the player's action to their next turn, the
bot delay 0); ``replays`` (8 threads upload one 4-player record again and again, as fast
as the server answers, and step through its last frames: the limit's 429s count as
answers). ``--warm`` starts the server with ``--warm-workers``; ``--after S`` lets the
attack run S seconds before the player starts (0.3: a server that just started).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}]
HARD = {"kind": "bot", "level": "hard"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(src: Path, db: Path, files: int, limits: str = "games_per_minute=off,"
           "review_time=0.5", more: tuple[str, ...] = ()) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(src))

    def limit_files() -> None:  # the usual 1,024 open files of a server
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    proc = subprocess.Popen(
        [sys.executable, "-m", "forest_shuffle", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-delay", "0", "--limits", limits, *more],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=limit_files)  # noqa: PLW1509 (a fresh process, no threads to fear)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def _attacker(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=120,
                        transport=httpx.HTTPTransport(local_address="127.0.0.2"))


def _finished_game(base: str) -> str:
    with _attacker(base) as c:
        gid = c.post("/api/games", json={"seats": [{"kind": "bot"}] * 2}).json()["game_id"]
        while not c.get(f"/api/games/{gid}").json()["over"]:
            time.sleep(0.1)
    return str(gid)


def _play_against_hard_bot(player: httpx.Client, mine: dict[str, Any], token: str,
                           end: float, times: list[float]) -> list[float]:
    """Play seat 0 against the hard bot until ``end``: one action a second (the first
    legal one), reading the game ten times a second meanwhile (each read's time goes to
    ``times``); the seconds from each action to the player's next turn."""
    gid, head = mine["game_id"], {"X-Seat-Token": token}
    answers: list[float] = []
    acted: float | None = None
    last = 0.0
    while time.monotonic() < end:
        start = time.perf_counter()
        p = player.get(f"/api/games/{gid}", headers=head).json()
        times.append(time.perf_counter() - start)
        if p["over"]:
            break
        if p["to_move"] == 0 and p["legal"]:
            if acted is not None and p["version"] > last + 1:  # the bot has answered
                answers.append(time.perf_counter() - acted)
                acted = None
            if acted is None:  # a new turn of the player: once a second
                time.sleep(1.0)
            r = player.post(f"/api/games/{gid}/actions", headers=head,
                            json={"action": p["legal"][0], "version": p["version"]})
            if r.status_code == 200:  # (the turn may go on: then it acts again at once)
                acted = time.perf_counter()
                last = int(p["version"])
            continue
        time.sleep(max(0.0, 0.1 - times[-1]))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attack", choices=["review", "slow", "suggest", "hardbots", "replays"],
                        required=True)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--files", type=int, default=1024,
                        help="the server's open-file limit (soft and hard)")
    parser.add_argument("--warm", action="store_true",
                        help="serve --warm-workers: the worker processes start with the "
                             "server")
    parser.add_argument("--after", type=float, default=0.3,
                        help="seconds the attack runs before the player starts (and asks "
                             "Suggest): 0.3 catches a server that just started, a few "
                             "seconds one whose workers are up")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        limits = "games_per_minute=off,review_time=0.5"
        if args.attack == "hardbots":
            limits += ",bot_games_per_address=20"
        proc, base = _serve(args.src, Path(tmp) / "g.sqlite3", args.files, limits,
                            ("--warm-workers",) if args.warm else ())
        stop = threading.Event()
        threads: list[threading.Thread] = []
        held: list[socket.socket] = []
        seats = SEATS if args.attack != "hardbots" else [SEATS[0], HARD]
        with httpx.Client(base_url=base, timeout=30) as player:  # before the attack
            mine = player.post("/api/games", json={"seats": seats}).json()
        token = mine["seats"][0]["token"]
        try:
            if args.attack == "review":
                gid = _finished_game(base)

                def review() -> None:
                    with _attacker(base) as c, contextlib.suppress(httpx.HTTPError):
                        while not stop.is_set():
                            c.get(f"/api/games/{gid}/review")
                threads = [threading.Thread(target=review, daemon=True) for _ in range(60)]
            elif args.attack == "suggest":
                with _attacker(base) as c:
                    games = [c.post("/api/games", json={"seats": SEATS}).json()
                             for _ in range(12)]

                def suggest(g: dict[str, object]) -> None:
                    token = g["seats"][0]["token"]  # type: ignore[index]
                    with _attacker(base) as c, contextlib.suppress(httpx.HTTPError):
                        while not stop.is_set():
                            c.post(f"/api/games/{g['game_id']}/suggest",
                                   headers={"X-Seat-Token": str(token)})
                threads = [threading.Thread(target=suggest, args=(g,), daemon=True)
                           for g in games]
            elif args.attack == "replays":
                from forest_shuffle.formats.records import random_game, record_of

                record = record_of(random_game(4, 3))
                text, steps = json.dumps(record), len(record["actions"])

                def replays() -> None:
                    with _attacker(base) as c, contextlib.suppress(httpx.HTTPError):
                        while not stop.is_set():
                            r = c.post("/api/replays", json={"text": text})
                            if r.status_code != 200:
                                continue
                            rid = r.json()["replay_id"]
                            for step in range(max(0, steps - 5), steps + 1):
                                c.get(f"/api/replays/{rid}", params={"step": step, "seat": 0})
                threads = [threading.Thread(target=replays, daemon=True) for _ in range(8)]
            elif args.attack == "hardbots":
                with _attacker(base) as c:
                    made = [c.post("/api/games", json={"seats": [HARD] * 4})
                            for _ in range(20)]
                print(f"the attacker's games of hard bots: "
                      f"{sum(r.status_code == 200 for r in made)} of 20 started")
            else:
                port = int(base.rsplit(":", 1)[1])
                for _ in range(1000):
                    try:
                        s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                                     source_address=("127.0.0.2", 0))
                        s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                        held.append(s)
                    except OSError:
                        break
            for t in threads:
                t.start()
            time.sleep(args.after)  # the attack is under way (a review's search: seconds)
            with httpx.Client(base_url=base, timeout=30) as player:
                suggest_s = None
                if args.attack == "suggest":
                    start = time.perf_counter()
                    r = player.post(f"/api/games/{mine['game_id']}/suggest",
                                    headers={"X-Seat-Token": token})
                    suggest_s = (time.perf_counter() - start, r.status_code)
                times, failed = [], 0
                end = time.monotonic() + args.seconds
                if args.attack == "hardbots":
                    answers = _play_against_hard_bot(player, mine, token, end, times)
                while args.attack != "hardbots" and time.monotonic() < end:
                    start = time.perf_counter()
                    try:
                        r = player.get(f"/api/games/{mine['game_id']}",
                                       headers={"X-Seat-Token": token})
                        failed += r.status_code != 200
                    except httpx.HTTPError:
                        failed += 1
                    times.append(time.perf_counter() - start)
                    time.sleep(max(0.0, 0.1 - times[-1]))
        finally:
            stop.set()
            for s in held:
                s.close()
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"attack {args.attack}, src {args.src}: {len(times)} player requests, "
          f"{failed} failed; median {statistics.median(times) * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")
    if args.attack == "hardbots":
        answers.sort()
        if answers:
            print(f"the hard bot's answers: {len(answers)}, median "
                  f"{statistics.median(answers):.2f} s, min {answers[0]:.2f} s, max "
                  f"{answers[-1]:.2f} s")
    if suggest_s is not None:
        print(f"the player's Suggest: {suggest_s[1]} in {suggest_s[0]:.2f} s")


if __name__ == "__main__":
    main()
