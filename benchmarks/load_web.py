"""Load check of the web server (a script, not a test).

Starts one ``forest-shuffle serve`` process on 127.0.0.1 (bot delay 0, a temporary SQLite
file unless ``--db``, the flood bounds of ``--limits`` off unless told otherwise: every
client here comes from one loopback address), then ``--clients`` simulated people in
threads. Each plays games against bots: it holds a WebSocket to its seat, and whenever the
state says it is to move it waits its think time (``--think S``: uniformly 0.5 S to 1.5 S,
so about one action every S seconds; 0: none) and sends a random legal action. Measured
per action: the **latency**, from sending it to the first state that includes it, and the
**turnaround**, from sending it to the first state in which the client is to move again
(or the game is over): the bots' answers included. ``--rest``: actions over
``POST .../actions`` (the latency is the request's time), waiting for bots by polling.
Bounded by ``--games`` per client and ``--seconds`` in all.

Also, at the same time:

- ``--spectators N``: N idle spectator sockets on one more game, played by one more
  person with the same think time (the watched game; when it ends the next one is
  watched). Its player's latency is reported apart, with how many spectators were let in
  and how many were refused (the server's bounds, see ``--limits``).
- ``--hard-games K``: K games of hard bots only, started again when over, so that
  searches keep the server's search slots busy while the clients play against their bots.

Reports actions per second (the clients' and all, bots' included), p50/p99 of latency
and turnaround, and the server's memory (resident set size from ``/proc``, at the start,
the peak and the end). Needs only what ``pip install .`` installs (the standard library's
HTTP client, ``websockets`` of ``uvicorn[standard]``).

Usage: ``python benchmarks/load_web.py [--clients 8] [--games 2] [--seconds 60]
[--players 2] [--level easy] [--think 0] [--spectators 0] [--hard-games 0] [--rest]
[--limits off] [--bot-processes N] [--serve-extra OPTS] [--src DIR] [--json]``
(``--src``: run the server from another source folder, such as ``git archive`` of an older
commit, to compare; ``--serve-extra``: more ``serve`` options, such as ``--workers 2
--pubsub redis://...`` with ``--db postgresql://...``, see ``load_scale.py``)
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import http.client
import json
import os
import random
import resource
import selectors
import shlex
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------- HTTP


class Http:
    """A keep-alive HTTP/1.1 client of one server on the standard library: JSON in and out,
    one connection, opened again when the server closed it."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.port = port
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """``(status, answer)``: the answer's JSON (its text if it is not JSON)."""
        data = None if body is None else json.dumps(body).encode()
        head = {"Content-Type": "application/json"} if data is not None else {}
        head.update(headers or {})
        for attempt in range(2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection("127.0.0.1", self.port,
                                                        timeout=self.timeout)
            conn = self._conn
            try:
                conn.request(method, path, body=data, headers=head)
                answer = conn.getresponse()
                raw = answer.read()
            except (http.client.HTTPException, OSError):
                self.close()  # a keep-alive connection the server closed: once more
                if attempt:
                    raise
                continue
            if answer.will_close:
                self.close()
            try:
                return answer.status, json.loads(raw) if raw else None
            except ValueError:
                return answer.status, raw.decode("utf-8", "replace")
        raise AssertionError("unreachable")

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        return self.request("GET", path, None, headers)

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None
             ) -> tuple[int, Any]:
        return self.request("POST", path, body, headers)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


# ---------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_file_limit() -> int:
    """This process's open-file limit raised to its hard limit (sockets are files)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return int(soft)


def start_server(db: str, port: int, limits: str | None = "off",
                 bot_processes: int | None = None,
                 src: Path | None = None,
                 extra: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """``forest-shuffle serve`` on 127.0.0.1:``port`` with bot delay 0, once it answers
    (``src``: the package from this source folder, default this tree's ``src``)."""
    env = dict(os.environ, PYTHONPATH=str(src or ROOT / "src"))
    cmd = [sys.executable, "-m", "forest_shuffle", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--db", db, "--bot-delay", "0"]
    if limits is not None:
        cmd += ["--limits", limits]
    if bot_processes is not None:
        cmd += ["--bot-processes", str(bot_processes)]
    cmd += list(extra)
    proc = subprocess.Popen(cmd, env=env)
    http = Http(port, timeout=1)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server ended with status {proc.returncode}")
        try:
            if http.get("/api/levels")[0] == 200:
                http.close()
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start in 30 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def server(args: argparse.Namespace) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A server for the run (``args.db``, ``args.limits``, ``args.bot_processes``)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        port = free_port()
        proc = start_server(db, port, args.limits, args.bot_processes, args.src,
                            shlex.split(getattr(args, "serve_extra", "") or ""))
        try:
            yield port, proc
        finally:
            stop_server(proc)


def rss_mb(pid: int) -> float | None:
    """The resident set size of process ``pid`` in MB (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (the server's bot worker processes), made by any of
    its threads."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):
            out.update(int(x) for x in (task / "children").read_text().split())
    return sorted(out)


class Sampler:
    """Samples the server's memory (and its workers') every ``every`` seconds."""

    def __init__(self, pid: int, every: float = 1.0,
                 note: Callable[[], dict[str, Any]] | None = None,
                 show: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.pid = pid
        self.every = every
        self.note = note
        self.show = show
        self.samples: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._start = time.monotonic()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> Sampler:
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if not self.samples or time.monotonic() - self._start - self.samples[-1]["t"] > 0.5:
            self.sample()  # the end, unless a sample was just taken

    def sample(self) -> None:
        rss = rss_mb(self.pid)
        if rss is None:
            return
        workers = sum(rss_mb(c) or 0.0 for c in children(self.pid))
        row: dict[str, Any] = {"t": round(time.monotonic() - self._start, 1),
                               "rss_mb": round(rss, 1), "workers_mb": round(workers, 1)}
        if self.note is not None:
            row.update(self.note())
        self.samples.append(row)
        if self.show is not None:
            self.show(row)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    def summary(self) -> dict[str, Any]:
        rss = [s["rss_mb"] for s in self.samples]
        if not rss:
            return {}
        return {"start": rss[0], "peak": max(rss), "end": rss[-1],
                "workers_end": self.samples[-1]["workers_mb"]}


# ---------------------------------------------------------------------------- people


@dataclass
class Tally:
    """What one simulated person did."""

    latencies: list[float] = field(default_factory=list)
    turnarounds: list[float] = field(default_factory=list)
    games: int = 0
    versions: int = 0  # actions applied in its finished games, bots' included
    errors: list[str] = field(default_factory=list)


def new_game(http: Http, players: int, level: str, seed: int | None = None,
             humans: int = 1) -> tuple[str, list[str]]:
    """A game of ``humans`` people and bots of ``level``: its id and the people's tokens."""
    seats = [{"kind": "human", "name": "load"}] * humans + [
        {"kind": "bot", "level": level}] * (players - humans)
    body: dict[str, Any] = {"seats": seats}
    if seed is not None:
        body["seed"] = seed
    status, answer = http.post("/api/games", body)
    if status != 200:
        raise RuntimeError(f"POST /api/games: {status} {answer}")
    return answer["game_id"], [s["token"] for s in answer["seats"] if s["token"]]


def _think(args: argparse.Namespace, rng: random.Random, until: float) -> None:
    if args.think > 0:
        time.sleep(max(0.0, min(rng.uniform(0.5, 1.5) * args.think,
                                until - time.monotonic())))


def play_ws(port: int, http: Http, args: argparse.Namespace, rng: random.Random,
            tally: Tally, until: float, seed: int | None,
            on_game: Callable[[str], None] | None = None,
            game: tuple[str, list[str]] | None = None) -> None:
    """One game over a WebSocket (``game``: this one, else a new one)."""
    gid, tokens = game or new_game(http, args.players, args.level, seed)
    if on_game is not None and game is None:
        on_game(gid)
    url = f"ws://127.0.0.1:{port}/api/games/{gid}/ws?token={tokens[0]}"
    with connect(url, open_timeout=30, max_size=2**24) as ws:
        sent_at: float | None = None  # the action waiting for its first state
        round_at: float | None = None  # the action waiting for the next decision
        sent_version = -1
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return
            try:
                msg = json.loads(ws.recv(timeout=min(30.0, left)))
            except TimeoutError:
                continue
            if msg["type"] == "error":
                tally.errors.append(msg["error"])
                sent_at = round_at = None
                continue
            if msg["type"] != "state":
                continue
            p = msg["payload"]
            now = time.perf_counter()
            if sent_at is not None and p["version"] > sent_version:
                tally.latencies.append(now - sent_at)
                sent_at = None
            mine = p["to_move"] == 0
            if round_at is not None and (mine or p["over"]) and p["version"] > sent_version:
                tally.turnarounds.append(now - round_at)
                round_at = None
            if p["over"]:
                tally.games += 1
                tally.versions += p["version"]
                return
            if mine and sent_at is None and p["version"] > sent_version:
                _think(args, rng, until)
                sent_version = p["version"]
                sent_at = round_at = time.perf_counter()
                ws.send(json.dumps({"type": "action", "action": rng.choice(p["legal"]),
                                    "version": p["version"]}))


def play_rest(http: Http, args: argparse.Namespace, rng: random.Random, tally: Tally,
              until: float, seed: int | None) -> None:
    """One game over REST, polling while bots move."""
    gid, tokens = new_game(http, args.players, args.level, seed)
    headers = {"X-Seat-Token": tokens[0]}
    path = f"/api/games/{gid}"
    _, p = http.get(path, headers)
    round_at: float | None = None
    while time.monotonic() < until:
        if (p["over"] or p["to_move"] == 0) and round_at is not None:
            tally.turnarounds.append(time.perf_counter() - round_at)
            round_at = None
        if p["over"]:
            tally.games += 1
            tally.versions += p["version"]
            return
        if p["to_move"] != 0:
            time.sleep(0.005)
            _, p = http.get(path, headers)
            continue
        _think(args, rng, until)
        start = time.perf_counter()
        status, answer = http.post(path + "/actions",
                                   {"action": rng.choice(p["legal"]), "version": p["version"]},
                                   headers)
        tally.latencies.append(time.perf_counter() - start)
        round_at = start
        if status != 200:
            tally.errors.append(str(answer.get("error", answer)
                                    if isinstance(answer, dict) else answer))
            round_at = None
            _, p = http.get(path, headers)
        else:
            p = answer


def person(k: int, port: int, args: argparse.Namespace, tally: Tally, until: float,
           games: int, on_game: Callable[[str], None] | None = None,
           first: tuple[str, list[str]] | None = None) -> None:
    """Simulated person ``k``: up to ``games`` games one after the other until ``until``
    (``first``: a game made for it already, then new ones, each told to ``on_game``)."""
    rng = random.Random(args.seed * 1000 + k)
    http = Http(port)
    try:
        for g in range(games):
            if time.monotonic() >= until:
                return
            seed = None if args.seed < 0 else (args.seed * 1000 + k * 50 + g) % 2**31
            try:
                if args.rest:
                    play_rest(http, args, rng, tally, until, seed)
                else:
                    play_ws(port, http, args, rng, tally, until, seed, on_game, first)
                    first = None
            except Exception as exc:  # report, go on with the next game
                tally.errors.append(f"{type(exc).__name__}: {exc}")
                time.sleep(0.1)
    finally:
        http.close()


# ---------------------------------------------------------------------------- spectators


def socks_of(obj: object) -> socket.socket:
    assert isinstance(obj, socket.socket)
    return obj


class Flood:
    """Idle spectator sockets on one game, on the standard library in one thread: the
    WebSocket handshake, then reading (and answering pings) until told to move to another
    game or to stop. Counts the sockets let in, refused (an error 429 or close code 4429)
    or failed, the close codes (with their reasons) of the sockets refused or closed,
    and the states received."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.count = count
        self.target: str | None = None
        self.opened = self.refused = self.failed = self.states = self.moves = 0
        self.closes: dict[str, int] = {}  # "code reason": sockets closed so (this game)
        self.open_now = 0  # sockets open (after the handshake) now
        self.ready = threading.Event()  # every socket of the first game was tried
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="flood", daemon=True)

    def watch(self, game_id: str) -> None:
        with self._lock:
            self.target = game_id

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _open(self, game_id: str) -> tuple[socket.socket, bytes] | None:
        """A socket after its handshake, with the bytes that came after the response's
        head (the first frames may come in the same read)."""
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        except OSError:
            self.failed += 1
            return None
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /api/games/{game_id}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}"
                   f"\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        try:
            while b"\r\n\r\n" not in head:
                chunk = s.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError:
            pass
        if not head.startswith(b"HTTP/1.1 101"):
            s.close()
            self.failed += 1
            return None
        s.setblocking(False)
        return s, head.partition(b"\r\n\r\n")[2]

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        socks: dict[socket.socket, list[Any]] = {}  # socket: [buffer, messages seen]
        current: str | None = None
        while not self._stop.is_set():
            with self._lock:
                target = self.target
            if target != current:
                for s in list(socks):
                    sel.unregister(s)
                    s.close()
                socks.clear()
                current = target
                self.opened = self.refused = self.failed = 0  # of the game watched now
                self.closes = {}
                self.moves += 1
                if target is not None:
                    for _ in range(self.count):
                        if self._stop.is_set():
                            break
                        opened = self._open(target)
                        if opened is not None:
                            s, rest = opened
                            socks[s] = [b"", 0, False]  # buffer, seen, refused
                            if rest and not self._frames(s, socks[s], rest):
                                s.close()
                                del socks[s]
                            else:
                                sel.register(s, selectors.EVENT_READ)
                        # read (and answer pings) while opening the others: opening
                        # 1,900 takes longer than the server's ping timeout
                        self._pump(sel, socks, 0)
                    self.ready.set()
            self._pump(sel, socks, 0.2)
        for s in socks:
            s.close()
        sel.close()

    def _pump(self, sel: selectors.BaseSelector, socks: dict[socket.socket, list[Any]],
              timeout: float) -> None:
        """Read what the open sockets have (waiting at most ``timeout``)."""
        for key, _ in sel.select(timeout=timeout):
            s = socks_of(key.fileobj)
            try:
                data = s.recv(1 << 16)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data and socks[s][1] == 0 and not socks[s][2]:
                why = "closed before any message or close frame"
                self.closes[why] = self.closes.get(why, 0) + 1
            if not data or not self._frames(s, socks[s], data):
                sel.unregister(s)
                s.close()
                del socks[s]
        self.open_now = len(socks)

    def _frames(self, s: socket.socket, entry: list[Any], data: bytes) -> bool:
        """Read the frames in the buffer; False once the socket is closed."""
        buf = entry[0] + data
        while len(buf) >= 2:
            fin, opcode, size, start = bool(buf[0] & 0x80), buf[0] & 0x0F, buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    break
                size, start = struct.unpack("!H", buf[2:4])[0], 4
            elif size == 127:
                if len(buf) < 10:
                    break
                size, start = struct.unpack("!Q", buf[2:10])[0], 10
            if len(buf) < start + size:
                break
            body, buf = buf[start:start + size], buf[start + size:]
            if opcode == 8:  # close
                code = struct.unpack("!H", body[:2])[0] if len(body) >= 2 else 1005
                why = f"{code} {body[2:].decode('utf-8', 'replace')}".strip()
                self.closes[why] = self.closes.get(why, 0) + 1
                if code == 4429 and entry[1] == 0 and not entry[2]:
                    self.refused += 1
                return False
            if opcode == 9 and size < 126:  # ping: pong, masked as a client must
                mask = os.urandom(4)
                masked = bytes(b ^ mask[i % 4] for i, b in enumerate(body))
                with contextlib.suppress(OSError):
                    s.setblocking(True)
                    s.sendall(bytes([0x8A, 0x80 | len(body)]) + mask + masked)
                    s.setblocking(False)
            elif opcode in (0, 1) and fin:
                if entry[1] == 0:
                    if b'"status":429' in body.replace(b" ", b""):
                        if not entry[2]:  # refused: read on to its close frame
                            self.refused += 1
                            entry[2] = True
                        continue
                    self.opened += 1
                else:
                    self.states += 1
                entry[1] += 1
        entry[0] = buf
        return True


# ---------------------------------------------------------------------------- hard games


def hard_games(port: int, args: argparse.Namespace, until: float, started: list[int]) -> None:
    """Keep ``args.hard_games`` games of hard bots only going until ``until``."""
    http = Http(port)
    games: list[str] = []
    try:
        while time.monotonic() < until:
            for i in range(args.hard_games):
                if i < len(games):
                    status, p = http.get(f"/api/games/{games[i]}")
                    if status == 200 and not p["over"]:
                        continue
                gid, _ = new_game(http, 2, "hard", humans=0)
                started[0] += 1
                if i < len(games):
                    games[i] = gid
                else:
                    games.append(gid)
            time.sleep(1.0)
    except Exception as exc:
        print(f"hard games stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
    finally:
        http.close()


# ---------------------------------------------------------------------------- the run


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> dict[str, float | None]:
    return {"n": len(values),
            "p50": round(pct(values, 0.50) * 1000, 1) if values else None,
            "p99": round(pct(values, 0.99) * 1000, 1) if values else None,
            "max": round(max(values) * 1000, 1) if values else None,
            "mean": round(statistics.fmean(values) * 1000, 1) if values else None}


def add_server_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    ap.add_argument("--limits", default="off",
                    help="the server's --limits (default off: every client here has one "
                         "address); 'default' for the bounds as shipped")
    ap.add_argument("--bot-processes", type=int, default=None,
                    help="the server's --bot-processes (default: its own, one per CPU)")
    ap.add_argument("--serve-extra", default="",
                    help="more options for serve, e.g. '--workers 2 --pubsub redis://...'")
    ap.add_argument("--src", type=Path, default=None,
                    help="run the server from this source folder (to compare versions; "
                         "default: this tree's src)")


def server_limits(args: argparse.Namespace) -> None:
    if args.limits == "default":
        args.limits = None


def run(args: argparse.Namespace) -> dict[str, Any]:
    raise_file_limit()
    server_limits(args)
    with server(args) as (port, proc), Sampler(proc.pid) as sampler:
        tallies = [Tally() for _ in range(args.clients)]
        watched = Tally()
        flood = Flood(port, args.spectators) if args.spectators else None
        first = None
        if flood is not None:  # the flood is in place before the run starts
            http = Http(port)
            first = new_game(http, args.players, args.level)
            http.close()
            flood.watch(first[0])
            flood.start()
            flood.ready.wait(300)
        hard_started = [0]
        start = time.monotonic()
        until = start + args.seconds
        threads = [threading.Thread(target=person, args=(k, port, args, t, until, args.games))
                   for k, t in enumerate(tallies)]
        if args.hard_games:
            threads.append(threading.Thread(target=hard_games,
                                            args=(port, args, until, hard_started)))
        if flood is not None:
            threads.append(threading.Thread(target=person, args=(
                args.clients, port, args, watched, until, 10**6, flood.watch, first)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        if flood is not None:
            open_at_end = flood.open_now
            flood.stop()
    lat = [x for t in tallies for x in t.latencies]
    turn = [x for t in tallies for x in t.turnarounds]
    versions = sum(t.versions for t in tallies)
    report: dict[str, Any] = {
        "mode": "rest" if args.rest else "websocket",
        "clients": args.clients, "players": args.players, "bots": args.level,
        "think_s": args.think, "limits": args.limits or "default",
        "seconds": round(elapsed, 2),
        "games_finished": sum(t.games for t in tallies),
        "client_actions": len(lat),
        "client_actions_per_s": round(len(lat) / elapsed, 1),
        "all_actions_per_s": round(versions / elapsed, 1) if versions else None,
        "latency_ms": ms(lat),
        "turnaround_ms": ms(turn),
        "memory_mb": sampler.summary(),
        "errors": sum(len(t.errors) for t in tallies),
        "first_errors": [e for t in tallies for e in t.errors][:5],
    }
    if flood is not None:
        report["spectators"] = {"asked": args.spectators, "let_in": flood.opened,
                                "refused": flood.refused, "failed": flood.failed,
                                "games_watched": flood.moves,
                                "close_codes": flood.closes,
                                "open_at_end": open_at_end,
                                "states_received": flood.states}
        report["watched_player"] = {"latency_ms": ms(watched.latencies),
                                    "turnaround_ms": ms(watched.turnarounds),
                                    "errors": watched.errors[:5]}
    if args.hard_games:
        report["hard_games"] = {"at_once": args.hard_games, "started": hard_started[0]}
    return report


def show(report: dict[str, Any]) -> None:
    def line(name: str, m: dict[str, Any]) -> str:
        return (f"  {name}: p50 {m['p50']} ms, p99 {m['p99']} ms, max {m['max']} ms "
                f"({m['n']} actions)")

    think = f", think {report['think_s']:g} s" if report["think_s"] else ", no think time"
    print(f"{report['mode']}: {report['clients']} clients{think}, {report['players']}-player "
          f"games against {report['bots']} bots, {report['seconds']} s, limits "
          f"{report['limits']}")
    print(f"  games finished {report['games_finished']}, client actions "
          f"{report['client_actions']} ({report['client_actions_per_s']}/s), all actions "
          f"{report['all_actions_per_s']}/s (bots included, finished games)")
    print(line("latency", report["latency_ms"]))
    print(line("turnaround (bots' answers included)", report["turnaround_ms"]))
    if "hard_games" in report:
        h = report["hard_games"]
        print(f"  hard games: {h['at_once']} at once, {h['started']} started")
    if "spectators" in report:
        s = report["spectators"]
        print(f"  spectators: {s['asked']} asked, {s['let_in']} let in, {s['refused']} "
              f"refused, {s['failed']} failed (on the last of {s['games_watched']} watched "
              f"games); {s['states_received']} states received, {s['open_at_end']} "
              f"sockets open at the end")
        if s["close_codes"]:
            print("  spectator sockets closed by the server: " + ", ".join(
                f"{n} × {why!r}" for why, n in sorted(s["close_codes"].items())))
        w = report["watched_player"]
        print(line("watched game's player, latency", w["latency_ms"]))
        print(line("watched game's player, turnaround", w["turnaround_ms"]))
    m = report["memory_mb"]
    if m:
        print(f"  server memory: {m['start']} MB at the start, peak {m['peak']} MB, "
              f"{m['end']} MB at the end (bot workers {m['workers_end']} MB)")
    print(f"  errors {report['errors']} {report['first_errors']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--games", type=int, default=2, help="games per client at most")
    ap.add_argument("--seconds", type=float, default=60.0, help="time bound of the run")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", default="easy", help="the bots' level")
    ap.add_argument("--think", type=float, default=0.0,
                    help="a person's mean seconds before each action (0: none)")
    ap.add_argument("--spectators", type=int, default=0,
                    help="idle spectator sockets on one more game, played by one more person")
    ap.add_argument("--hard-games", type=int, default=0,
                    help="games of hard bots only, going on all the time")
    ap.add_argument("--seed", type=int, default=1, help="deals (-1: the server's own)")
    ap.add_argument("--rest", action="store_true", help="act over REST instead of sockets")
    ap.add_argument("--json", action="store_true")
    add_server_options(ap)
    args = ap.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        show(report)


if __name__ == "__main__":
    main()
