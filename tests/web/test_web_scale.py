"""Several server processes on one PostgreSQL database and one Redis (``serve --pubsub``):
players on different processes share a game, racing actions through different processes
apply once, a ``kill -9`` of a process loses no acknowledged action and its bots are taken
over, and no process lets a hidden card out. Real servers: throwaway PostgreSQL and Redis
(``services.py``; skipped without them, except under CI)."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from services import postgres, redis_server
from websockets.sync.client import connect
from webutil import check_payload, claim_all, free_port, head, kill9, server, visibility

from forest_shuffle.server.store import Store

pytest.importorskip("redis")

LEASE = "1.5"


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with postgres() as url:
        yield url


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@contextlib.contextmanager
def servers(pg: str, redis_url: str, n: int, bot_delays: list[float] | None = None
            ) -> Iterator[list[tuple[Any, str]]]:
    """``n`` server processes on the same database and Redis."""
    delays = bot_delays or [0.0] * n
    with contextlib.ExitStack() as stack:
        procs = [stack.enter_context(server(
            pg, bot_delay=delays[i],
            extra=["--pubsub", redis_url, "--bot-processes", "0", "--limits", "off",
                   "--bot-lease", LEASE])) for i in range(n)]
        yield procs


def create(base: str, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    r = httpx.post(base + "/api/games", json={"seats": seats, "seed": seed}, timeout=10)
    assert r.status_code == 200, r.text
    with httpx.Client(base_url=base, timeout=10) as client:
        return claim_all(client, dict(r.json()))  # each invited person claims their seat


def get(base: str, gid: str, token: str | None) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{gid}", headers=head(token), timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def post(base: str, gid: str, token: str | None, action: str, version: int) -> httpx.Response:
    return httpx.post(f"{base}/api/games/{gid}/actions", headers=head(token),
                      json={"action": action, "version": version}, timeout=10)


def ws_url(base: str, gid: str, token: str | None, log_from: int = 0) -> str:
    q = f"?log_from={log_from}" + (f"&token={token}" if token else "")
    return base.replace("http", "ws", 1) + f"/api/games/{gid}/ws{q}"


def test_serve_refuses_a_redis_it_cannot_reach(pg: str) -> None:
    out = subprocess.run([sys.executable, "-m", "forest_shuffle", "serve", "--db", pg,
                          "--pubsub", f"redis://127.0.0.1:{free_port()}/0"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Redis" in out.stderr, out.stderr


def _running(pid: int) -> bool:
    """Is process ``pid`` alive (not gone, not a zombie)?"""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_serve_workers_share_one_port(pg: str, redis_url: str) -> None:
    with server(pg, extra=["--pubsub", redis_url, "--workers", "2", "--bot-processes", "0",
                           "--limits", "off"]) as (proc, base):
        game = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=45)
        gid, tok = game["game_id"], game["seats"][0]["token"]
        rng = random.Random(5)
        for _ in range(20):  # new connections each time: both workers answer some
            p = get(base, gid, tok)
            if p["to_move"] != 0:
                time.sleep(0.02)
                continue
            r = post(base, gid, tok, rng.choice(p["legal"]), p["version"])
            assert r.status_code in (200, 409), r.text
        workers = [int(x) for x in subprocess.run(
            ["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()]
        assert len(workers) >= 2, workers
    # The supervisor was killed (SIGKILL) on leaving: its workers do not outlive it.
    deadline = time.monotonic() + 15
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [w for w in workers if _running(w)]
    assert not alive, f"workers {alive} outlived their supervisor"
    row = Store(pg).load(gid)
    assert row is not None and row.version >= 10


def test_a_reissued_link_revokes_the_token_in_every_process(pg: str, redis_url: str) -> None:
    with servers(pg, redis_url, 2) as procs:
        (_p0, one), (_p1, two) = procs
        r = httpx.post(one + "/api/games", json={"seats": [{"kind": "human"},
                                                           {"kind": "human"}]}, timeout=10)
        created = r.json()
        gid, ann = created["game_id"], created["seats"][0]["token"]
        # Bea claims on the second process, which then holds the game in memory
        bea = httpx.post(f"{two}/api/games/{gid}/claim", timeout=10,
                         json={"invite": created["seats"][1]["invite"]}).json()["token"]
        assert get(two, gid, bea)["you"] == 1 and get(one, gid, bea)["you"] == 1
        r = httpx.post(f"{one}/api/games/{gid}/seats/1/invite", headers=head(ann), timeout=10)
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 5
        while get(two, gid, bea)["you"] is not None:  # the bus tells the second process
            assert time.monotonic() < deadline, "the revoked token still holds its seat"
            time.sleep(0.02)
        fresh = httpx.post(f"{two}/api/games/{gid}/claim", timeout=10,
                           json={"invite": r.json()["invite"]})
        assert fresh.status_code == 200, fresh.text
        assert get(one, gid, fresh.json()["token"])["you"] == 1


def test_players_on_two_processes_play_a_game_to_the_end(pg: str, redis_url: str) -> None:
    rng = random.Random(1)
    with servers(pg, redis_url, 2) as procs:
        bases = [b for _p, b in procs]
        game = create(bases[0], [{"kind": "human"}, {"kind": "human"}], seed=41)
        gid = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        delays: list[float] = []
        # Seat 0 plays on process 0, seat 1 on process 1; seat 1 also watches a socket on
        # process 1, which must hear of seat 0's actions (applied by process 0).
        with connect(ws_url(bases[1], gid, tokens[1]), open_timeout=10, ping_interval=None,
                     max_size=2**24) as ws:
            first = json.loads(ws.recv(timeout=10))["payload"]
            version = first["version"]
            while True:
                deadline = time.monotonic() + 5
                while True:  # process 0 hears of process 1's last action within moments
                    p = get(bases[0], gid, tokens[0])
                    if p["version"] >= version:
                        break
                    assert time.monotonic() < deadline, (p["version"], version)
                    time.sleep(0.01)
                assert p["version"] == version
                if p["over"]:
                    break
                seat = p["to_move"]
                mine = get(bases[seat], gid, tokens[seat])
                assert mine["version"] == p["version"]
                sent = time.monotonic()
                r = post(bases[seat], gid, tokens[seat], rng.choice(mine["legal"]),
                         mine["version"])
                assert r.status_code == 200, r.text
                version = r.json()["version"]
                while True:  # process 1's socket reaches that version
                    msg = json.loads(ws.recv(timeout=10))
                    if msg["type"] == "state" and msg["payload"]["version"] >= version:
                        break
                if seat == 0:
                    delays.append(time.monotonic() - sent)
        ends = [get(b, gid, tokens[0]) for b in bases]
    assert ends[0]["over"] and ends[0]["scores"] == ends[1]["scores"]
    assert ends[0]["version"] == ends[1]["version"] > 100
    delays.sort()
    # an action on one process reaches a socket of another well within a second
    assert delays[len(delays) // 2] < 0.5, delays[len(delays) // 2]


def test_racing_actions_through_three_processes_apply_once(pg: str, redis_url: str) -> None:
    with servers(pg, redis_url, 3) as procs:
        bases = [b for _p, b in procs]
        game = create(bases[0], [{"kind": "human"}, {"kind": "human"}], seed=42)
        gid = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        for _turn in range(12):
            p = get(bases[0], gid, tokens[0])
            seat = p["to_move"]
            mine = get(bases[0], gid, tokens[seat])
            codes: list[int] = []
            barrier = threading.Barrier(6)

            def send(k: int, mine: dict[str, Any] = mine, seat: int = seat,
                     codes: list[int] = codes, barrier: threading.Barrier = barrier) -> None:
                action = mine["legal"][k % len(mine["legal"])]
                barrier.wait()
                codes.append(post(bases[k % 3], gid, tokens[seat], action,
                                  mine["version"]).status_code)

            threads = [threading.Thread(target=send, args=(k,)) for k in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(codes) == [200] + [409] * 5, codes
            after = [get(b, gid, tokens[0])["version"] for b in bases]
            assert after == [mine["version"] + 1] * 3, after
    row = Store(pg).load(gid)
    assert row is not None and row.version == 12 and len(row.actions) == 12


def test_a_killed_process_loses_nothing_and_its_bots_are_taken_over(
        pg: str, redis_url: str) -> None:
    rng = random.Random(3)
    # Process 0 waits 3 s before a bot moves, so its bot is still due when it is killed.
    with servers(pg, redis_url, 3, bot_delays=[3.0, 0.0, 0.0]) as procs:
        bases = [b for _p, b in procs]
        game = create(bases[1], [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
                      seed=43)
        gid, tok = game["game_id"], game["seats"][0]["token"]
        acked: list[tuple[int, str]] = []
        # A few turns through process 1 (its bot answers at once there).
        while len(acked) < 6:
            p = get(bases[1], gid, tok)
            if p["to_move"] != 0:
                time.sleep(0.05)
                continue
            action = rng.choice(p["legal"])
            r = post(bases[1], gid, tok, action, p["version"])
            assert r.status_code == 200, r.text
            acked.append((p["version"], action))
        # Now through process 0, whose socket the player also holds, until the bot is due
        # there; then process 0 is killed.
        held = 0
        with connect(ws_url(bases[0], gid, tok), open_timeout=10, ping_interval=None,
                     max_size=2**24) as sock:
            while True:
                p = get(bases[0], gid, tok)
                if p["to_move"] != 0:
                    time.sleep(0.05)
                    continue
                action = rng.choice(p["legal"])
                r = post(bases[0], gid, tok, action, p["version"])
                assert r.status_code == 200, r.text
                acked.append((p["version"], action))
                if r.json()["to_move"] == 1:  # process 0 now drives the bot, 3 s from now
                    held = r.json()["version"]
                    break
            kill9(procs[0][0])
            with pytest.raises(Exception):  # noqa: B017 (the socket's server is gone)
                for _ in range(100):
                    sock.recv(timeout=5)
        # The bot is taken over by another process within the lease and moves.
        deadline = time.monotonic() + 15
        while True:
            p = get(bases[2], gid, tok)
            if p["version"] > held:
                break
            assert time.monotonic() < deadline, "the killed process's bot was not taken over"
            time.sleep(0.1)
        # The player's socket reconnects to another process and catches up from its count.
        with connect(ws_url(bases[2], gid, tok, log_from=1), open_timeout=10, ping_interval=None,
                     max_size=2**24) as ws2:
            msg = json.loads(ws2.recv(timeout=10))
            assert msg["type"] == "state" and msg["payload"]["version"] >= held
            assert msg["payload"]["log_from"] == 1
        # Play on to the end through the two processes left.
        while True:
            base = bases[1 + len(acked) % 2]
            p = get(base, gid, tok)
            if p["over"]:
                break
            if p["to_move"] != 0:
                time.sleep(0.02)
                continue
            action = rng.choice(p["legal"])
            r = post(base, gid, tok, action, p["version"])
            if r.status_code == 200:
                acked.append((p["version"], action))
            else:
                assert r.status_code == 409, r.text
    row = Store(pg).load(gid)
    assert row is not None and row.over
    for index, text in acked:  # every acknowledged action is stored where it was sent
        assert row.actions[index] == text


def test_no_process_lets_a_hidden_card_out(pg: str, redis_url: str) -> None:
    rng = random.Random(4)
    got: list[dict[str, Any]] = []
    spectated: list[dict[str, Any]] = []
    with servers(pg, redis_url, 3) as procs:
        bases = [b for _p, b in procs]
        game = create(bases[0], [{"kind": "human"}, {"kind": "bot", "level": "medium"},
                                 {"kind": "bot", "level": "easy"}], seed=44)
        gid, tok = game["game_id"], game["seats"][0]["token"]
        with contextlib.ExitStack() as stack:
            socks = [stack.enter_context(connect(ws_url(b, gid, tok), open_timeout=10,
                                                 ping_interval=None, max_size=2**24))
                     for b in bases]
            watchers = [stack.enter_context(connect(ws_url(b, gid, None), open_timeout=10,
                                                    ping_interval=None, max_size=2**24))
                        for b in bases]
            turn = 0
            while True:
                p = get(bases[turn % 3], gid, tok)
                got.append(p)
                if p["over"]:
                    break
                if p["to_move"] != 0:
                    time.sleep(0.02)
                    continue
                r = post(bases[turn % 3], gid, tok, rng.choice(p["legal"]), p["version"])
                assert r.status_code in (200, 409), r.text
                turn += 1
            time.sleep(0.5)
            for ws in socks + watchers:
                with contextlib.suppress(TimeoutError):
                    while True:
                        msg = json.loads(ws.recv(timeout=0.5))
                        if msg["type"] == "state":
                            (got if ws in socks else spectated).append(msg["payload"])
    row = Store(pg).load(gid)
    assert row is not None and row.over and len(got) > 50 and spectated
    hidden, seen = visibility(44, 3, list(row.actions), 0)
    for payload in got:
        check_payload(payload, hidden, seen)
    hidden, seen = visibility(44, 3, list(row.actions), None)
    for payload in spectated:
        check_payload(payload, hidden, seen)


def test_processes_share_the_bounds_of_an_address(pg: str, redis_url: str) -> None:
    """Two processes on one Redis: an address's requests a second are counted once (a
    burst of 10 in all), not once per process (before: 10 in each, 20 in all)."""
    limits = "requests_per_second=0.001,request_burst=10"
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(server(
            pg, extra=["--pubsub", redis_url, "--bot-processes", "0", "--limits", limits]))[1]
            for _ in range(2)]
        answers = []
        for i in range(20):  # from an address of its own, to each process in turn
            with httpx.Client(base_url=bases[i % 2], timeout=10, transport=httpx.HTTPTransport(
                    local_address="127.0.0.5")) as client:
                answers.append(client.get("/api/levels").status_code)
        assert answers.count(200) == 10, answers
        assert answers.count(429) == 10, answers


def test_workers_bound_slow_requests_and_connections_of_an_address(
        pg: str, redis_url: str) -> None:
    """``--workers 2``: half-sent requests are closed after ``request_seconds`` and one
    address holds at most ``connections_per_address`` connections in all (before, neither
    bound was applied with --workers: every half-sent request was held for ever)."""
    limits = "request_seconds=1,connections_per_address=20"
    with server(pg, extra=["--pubsub", redis_url, "--workers", "2", "--bot-processes", "0",
                           "--limits", limits]) as (_proc, base):
        port = int(base.rsplit(":", 1)[1])
        held = []
        for _ in range(24):
            s = socket.create_connection(("127.0.0.1", port), timeout=8,
                                         source_address=("127.0.0.6", 0))
            s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            held.append(s)
        try:
            answers = []
            for s in held:  # each is answered 429 at once or closed after a second
                data = b""
                try:
                    while chunk := s.recv(4096):
                        data += chunk
                except TimeoutError:
                    raise AssertionError(f"a half-sent request held open: {data!r}") from None
                except OSError:  # reset by the server
                    pass
                answers.append(data)
            refused = [a for a in answers if b"too many connections" in a]
            assert len(refused) >= 4, answers
            assert all(a == b"" or a in refused for a in answers), answers
        finally:
            for s in held:
                s.close()


def test_processes_share_the_games_of_bots_of_an_address(pg: str, redis_url: str) -> None:
    """Two processes on one Redis: an address's unfinished games of bots only are counted
    once over both (2 in all), not once per process (before: 2 on each, 4 in all)."""
    bots = [{"kind": "bot", "level": "easy"}] * 2
    limits = "games_per_minute=off,requests_per_second=off,bot_games_per_address=2"
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(server(
            pg, bot_delay=60, extra=["--pubsub", redis_url, "--bot-processes", "0",
                                     "--limits", limits]))[1]
            for _ in range(2)]
        answers = []
        for i in range(6):  # from an address of its own, to each process in turn
            with httpx.Client(base_url=bases[i % 2], timeout=10, transport=httpx.HTTPTransport(
                    local_address="127.0.0.6")) as client:
                answers.append(client.post("/api/games", json={"seats": bots}))
        codes = [a.status_code for a in answers]
        assert codes.count(200) == 2 and codes.count(429) == 4, codes
        assert all("your address" in a.json()["error"] for a in answers if a.status_code == 429)


def _socket_from(address: str, url: str) -> Any:
    """A WebSocket to ``url`` from the local ``address``: the first message, or the
    refusal (its close)."""
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect((host, int(port)))
    return connect(url, sock=sock, open_timeout=10, ping_interval=None)


def test_processes_share_the_sockets_of_an_address(pg: str, redis_url: str) -> None:
    """Two processes on one Redis, ``sockets_per_address=2``: a third socket of one address
    is refused whichever process it opens on (before: 2 in each process, 4 in all)."""
    limits = "requests_per_second=off,sockets_per_address=2"
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(server(
            pg, extra=["--pubsub", redis_url, "--bot-processes", "0", "--limits", limits]))[1]
            for _ in range(2)]
        games = [create(bases[0], [{"kind": "human"}, {"kind": "human"}], seed=60 + i)
                 for i in range(2)]
        gid = games[0]["game_id"]
        first = []
        for i in range(3):
            ws = stack.enter_context(_socket_from("127.0.0.7", ws_url(bases[i % 2], gid, None)))
            first.append(json.loads(ws.recv(timeout=10)))
        assert [m["type"] for m in first] == ["state", "state", "error"], first
        assert "your address" in first[2]["error"]


def test_processes_share_the_coach_searches_of_an_address(pg: str, redis_url: str) -> None:
    """Two processes on one Redis, ``coach_per_address=1``: two suggestions asked at once
    from one address (each search takes 4 s), one on each process: one is refused (before:
    both searched, the bound once in each process)."""
    limits = "requests_per_second=off,coach_per_address=1,suggest_time=4"
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(server(
            pg, extra=["--pubsub", redis_url, "--bot-processes", "0", "--limits", limits]))[1]
            for _ in range(2)]
        games = [create(bases[0], [{"kind": "human"}, {"kind": "human"}], seed=60 + i)
                 for i in range(2)]
        tokens = []
        for k, game in enumerate(games):
            to_move = get(bases[k], game["game_id"], None)["to_move"]
            tokens.append(game["seats"][to_move]["token"])
        asked: list[httpx.Response] = []
        ready = threading.Barrier(2)

        def suggest(k: int) -> None:
            with httpx.Client(base_url=bases[k], timeout=30, transport=httpx.HTTPTransport(
                    local_address="127.0.0.8")) as client:
                ready.wait(10)
                asked.append(client.post(f"/api/games/{games[k]['game_id']}/suggest",
                                         headers=head(tokens[k])))

        both = [threading.Thread(target=suggest, args=(k,)) for k in range(2)]
        for t in both:
            t.start()
        for t in both:
            t.join(60)
        codes = sorted(a.status_code for a in asked)
        assert codes == [200, 429], [a.text for a in asked]
        assert "your address" in next(a for a in asked if a.status_code == 429).json()["error"]


def _opened(address: str, url: str, stack: contextlib.ExitStack) -> dict[str, Any]:
    """Open a socket from ``address`` and keep it open: its first message (a state, or the
    error that refused it)."""
    ws = stack.enter_context(_socket_from(address, url))
    return dict(json.loads(ws.recv(timeout=10)))


def test_processes_share_the_sockets_of_a_seat_and_a_dead_share_expires(
        pg: str, redis_url: str) -> None:
    """Two processes on one Redis, ``sockets_per_seat=2``: a third socket with one seat's
    token is refused whichever process it opens on (before: 2 in each process, 4 in all);
    once the process holding one of them is killed, its share expires (10 s) and the seat
    may open one more."""
    limits = "requests_per_second=off,sockets_per_seat=2"
    with contextlib.ExitStack() as stack:
        procs = [stack.enter_context(server(
            pg, extra=["--pubsub", redis_url, "--bot-processes", "0", "--limits", limits]))
            for _ in range(2)]
        bases = [b for _, b in procs]
        game = create(bases[0], [{"kind": "human"}, {"kind": "human"}], seed=70)
        gid, token = game["game_id"], game["seats"][0]["token"]
        got = [_opened("127.0.0.9", ws_url(bases[i % 2], gid, token), stack) for i in range(3)]
        assert [m["type"] for m in got] == ["state", "state", "error"], got
        assert "this seat has 2 sockets" in got[2]["error"]
        kill9(procs[1][0])  # it held one of the two; its share lives until it expires
        url = ws_url(bases[0], gid, token)
        assert _opened("127.0.0.9", url, stack)["type"] == "error"
        deadline = time.monotonic() + 30
        while _opened("127.0.0.9", url, stack)["type"] != "state":
            assert time.monotonic() < deadline, "a dead process's sockets still count"
            time.sleep(0.5)


def test_processes_share_the_spectators_of_a_game(pg: str, redis_url: str) -> None:
    """Two processes on one Redis, ``spectators_per_game=2``: a third spectator of one game
    is refused whichever process it opens on (before: 2 in each process, 4 in all), while
    another game still takes spectators."""
    limits = "requests_per_second=off,spectators_per_game=2"
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(server(
            pg, extra=["--pubsub", redis_url, "--bot-processes", "0", "--limits", limits]))[1]
            for _ in range(2)]
        games = [create(bases[0], [{"kind": "human"}, {"kind": "human"}], seed=71 + i)
                 for i in range(2)]
        gid = games[0]["game_id"]
        got = [_opened(f"127.0.1.{i + 1}", ws_url(bases[i % 2], gid, None), stack)
               for i in range(3)]
        assert [m["type"] for m in got] == ["state", "state", "error"], got
        assert "this game has its 2 spectators" in got[2]["error"]
        other = ws_url(bases[1], games[1]["game_id"], None)
        assert _opened("127.0.1.9", other, stack)["type"] == "state"


def test_redis_down_counts_the_sockets_of_a_seat_in_each_process(
        pg: str, tmp_path: Path) -> None:
    """Redis stops under a running ``serve --pubsub``: the sockets of a seat are counted by
    the process alone (2 admitted, the third refused: it refuses nobody more than before)
    and it says so in one log line, once."""
    limits = "requests_per_second=off,sockets_per_seat=2"
    errors = tmp_path / "errors.log"
    own = redis_server()
    url = own.__enter__()
    try:
        with contextlib.ExitStack() as stack:
            base = stack.enter_context(server(
                pg, errors_to=errors,
                extra=["--pubsub", url, "--bot-processes", "0", "--limits", limits]))[1]
            game = create(base, [{"kind": "human"}, {"kind": "human"}], seed=73)
            own.__exit__(None, None, None)  # Redis goes away
            own = None
            sock = ws_url(base, game["game_id"], game["seats"][0]["token"])
            got = [_opened("127.0.0.10", sock, stack) for _ in range(3)]
            assert [m["type"] for m in got] == ["state", "state", "error"], got
            time.sleep(4)  # a renewal of the counts runs and fails too
            text = errors.read_text(errors="replace")
            lines = [x for x in text.splitlines()
                     if "count seat_sockets kept in this process only" in x]
            assert len(lines) == 1, text[-2000:]
    finally:
        if own is not None:
            own.__exit__(None, None, None)
