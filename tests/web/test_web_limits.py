"""Hostile input and floods: bad socket messages, request bodies, rates, socket counts, a
client that closes mid-send, and the bounds of ``serve --limits`` (docs/web.md, Limits)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from webutil import ROOT, TWO_HUMANS, free_port, head, new_game, one_line_error

from forest_shuffle.bots.registry import DIFFICULTIES
from forest_shuffle.engine.actions import Action
from forest_shuffle.server.app import Conn, Hub, create_app
from forest_shuffle.server.coach import CoachSettings
from forest_shuffle.server.limits import Limits, fit_to_files, parse_limits, raise_file_limit


@contextlib.contextmanager
def app_client(**limits: Any) -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", bot_delay=0.0, limits=Limits(**limits))) as c:
        yield c


def refused(ws: Any, code: int = 4429) -> tuple[dict[str, Any], str]:
    """The error a refused test socket gets, and the reason of its close (with ``code``)."""
    err = ws.receive_json()
    assert err["type"] == "error" and err["status"] == 429 and "\n" not in err["error"]
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == code
    return err, str(closed.value.reason)


# ---------------------------------------------------------------------------- bad input


def test_bad_socket_messages_get_one_line_and_the_socket_stays_open() -> None:
    with app_client() as c:
        game = new_game(c, TWO_HUMANS, seed=5)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        with c.websocket_connect(f"/api/games/{gid}/ws?token={t0}") as ws:
            first = ws.receive_json()["payload"]
            v = first["version"]

            def answer(text: str) -> dict[str, Any]:
                ws.send_text(text)
                reply = ws.receive_json()
                assert reply["type"] == "error" and "\n" not in reply["error"], reply
                assert len(reply["error"]) < 300, reply
                return dict(reply)

            assert answer("[" * 100_000)["status"] == 413
            assert "nested too deep" in answer("[" * 2000 + "]" * 2000)["error"]
            huge = '{"type": "action", "action": "draw", "version": %s}'
            assert answer(huge % ("9" * 5000))["status"] == 413
            assert answer(huge % ("9" * 4000))["status"] == 400  # parsed, out of range
            action = '{"type": "action", "action": "%s", "version": %d}'
            long = answer(action % ("take " + "1" * 300, v))
            assert long["status"] == 400 and "at most 200 characters" in long["error"]
            assert answer(action % ("take ²", v))["status"] == 400
            assert answer(action % ("take ٣٣٣", v))["status"] == 400
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "action", "action": first["legal"][0], "version": v})
            state = ws.receive_json()
            assert state["type"] == "state" and state["payload"]["version"] == v + 1


def test_a_non_ascii_digit_is_a_400_over_rest() -> None:
    with app_client() as c:
        game = new_game(c, TWO_HUMANS, seed=5)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        for text in ("take ²", "play ¹ left 1", "take ٣"):
            r = c.post(f"/api/games/{gid}/actions", headers=head(t0),
                       json={"action": text, "version": 0})
            assert one_line_error(r, 400)
        assert c.get(f"/api/games/{gid}").json()["version"] == 0


def test_any_failure_of_the_parser_is_a_400(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str) -> Any:
        raise ValueError(f"invalid literal for int(): {text!r}")

    with app_client() as c:
        game = new_game(c, TWO_HUMANS, seed=5)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        monkeypatch.setattr(Action, "parse", staticmethod(broken))
        r = c.post(f"/api/games/{gid}/actions", headers=head(t0),
                   json={"action": "take 1", "version": 0})
        assert "not an action" in one_line_error(r, 400)
        with c.websocket_connect(f"/api/games/{gid}/ws?token={t0}") as ws:
            ws.receive_json()
            ws.send_json({"type": "action", "action": "take 1", "version": 0})
            assert ws.receive_json()["status"] == 400
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}


def test_request_bodies_are_bounded() -> None:
    with app_client(body_bytes=1000) as c:
        seats = json.dumps({"seats": TWO_HUMANS, "x": "a" * 2000}).encode()
        r = c.post("/api/games", content=seats, headers={"content-type": "application/json"})
        assert "too large" in one_line_error(r, 413)

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            yield b'{"seats": [{"kind": "human"}, {"kind": "human"}], "x": "'
            for _ in range(50):
                yield b"a" * 100
            yield b'"}'

        r = c.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
        assert "too large" in one_line_error(r, 413)
        small = json.dumps({"seats": TWO_HUMANS}).encode()
        assert c.post("/api/games", content=small,
                      headers={"content-type": "application/json"}).status_code == 200


# ---------------------------------------------------------------------------- rates


def test_requests_a_second_per_address() -> None:
    with app_client(requests_per_second=1.0, request_burst=3) as c:
        for _ in range(3):
            assert c.get("/api/levels").status_code == 200
        r = c.get("/api/levels")
        assert "too many requests" in one_line_error(r, 429)
        assert int(r.headers["retry-after"]) >= 1
        with c.websocket_connect("/api/games/nosuch/ws") as ws:  # an opening counts too
            err, reason = refused(ws)
            assert err["retry_after"] >= 1 and "too many requests" in reason
        time.sleep(1.1)
        assert c.get("/api/levels").status_code == 200


def test_games_created_a_minute_per_address() -> None:
    with app_client(games_per_minute=2.0, games_burst=2) as c:
        new_game(c, TWO_HUMANS)
        new_game(c, TWO_HUMANS)
        r = c.post("/api/games", json={"seats": TWO_HUMANS})
        assert "too many new games" in one_line_error(r, 429)
        assert 1 <= int(r.headers["retry-after"]) <= 30
        assert c.get("/api/levels").status_code == 200  # other requests go on


def test_a_socket_sending_too_fast_is_read_slower() -> None:
    with app_client(messages_per_second=4.0, message_burst=2) as c:
        gid = new_game(c, TWO_HUMANS)["game_id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            start = time.monotonic()
            for _ in range(5):
                ws.send_json({"type": "ping"})
            for _ in range(5):  # none is dropped: two at once, then one each 0.25 s
                assert ws.receive_json() == {"type": "pong"}
            assert time.monotonic() - start >= 0.7


# ---------------------------------------------------------------------------- sockets


def test_spectators_are_bounded_and_players_always_get_in() -> None:
    with app_client(spectators_per_game=2, sockets_per_seat=2) as c:
        game = new_game(c, TWO_HUMANS)
        gid, t0 = game["game_id"], game["seats"][0]["token"]
        url = f"/api/games/{gid}/ws"
        with c.websocket_connect(url) as s1, c.websocket_connect(url) as s2:
            s1.receive_json()
            s2.receive_json()
            with c.websocket_connect(url) as s3:
                _, reason = refused(s3)
                assert "spectators" in reason
            with c.websocket_connect(f"{url}?token={t0}") as p1, \
                    c.websocket_connect(f"{url}?token={t0}") as p2:
                assert p1.receive_json()["payload"]["you"] == 0
                assert p2.receive_json()["payload"]["you"] == 0
                with c.websocket_connect(f"{url}?token={t0}") as p3:
                    _, reason = refused(p3)
                    assert "this seat has 2 sockets" in reason
            other = new_game(c, TWO_HUMANS)["game_id"]  # per game: another game has room
            with c.websocket_connect(f"/api/games/{other}/ws") as s4:
                assert s4.receive_json()["type"] == "state"
        with c.websocket_connect(url) as s5:  # closed sockets no longer count
            assert s5.receive_json()["type"] == "state"


def test_sockets_per_address_and_in_the_server() -> None:
    with app_client(sockets_per_address=2) as c:
        gid = new_game(c, TWO_HUMANS)["game_id"]
        url = f"/api/games/{gid}/ws"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            a.receive_json()
            b.receive_json()
            with c.websocket_connect(url) as d:
                assert "your address" in refused(d)[1]
    with app_client(sockets=3, spectators=1) as c:
        game = new_game(c, TWO_HUMANS)
        gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        url = f"/api/games/{gid}/ws"
        with c.websocket_connect(url) as a:
            a.receive_json()
            with c.websocket_connect(url) as b:  # spectators have their own, smaller room
                assert "spectators" in refused(b)[1]
            with c.websocket_connect(f"{url}?token={tokens[0]}") as p, \
                    c.websocket_connect(f"{url}?token={tokens[1]}") as q:
                p.receive_json()
                q.receive_json()
                with c.websocket_connect(f"{url}?token={tokens[0]}") as r:
                    assert "server is full" in refused(r)[1]


def test_players_are_woken_before_spectators() -> None:
    order: list[int | None] = []

    class Flag:
        def __init__(self, seat: int | None) -> None:
            self.seat = seat

        def set(self) -> None:
            order.append(self.seat)

    class NoService:
        listeners: list[Any] = []

    hub = Hub(NoService())  # type: ignore[arg-type]
    for seat in (None, 0, None, 1, None):
        hub.conns.setdefault("g", set()).add(Conn(None, seat, dirty=Flag(seat)))  # type: ignore[arg-type]
    hub._wake("g")
    assert sorted(order[:2]) == [0, 1] and order[2:] == [None, None, None]


def test_a_spectator_gets_states_at_a_bounded_pace() -> None:
    with app_client(spectator_interval=0.8) as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        with c.websocket_connect(f"/api/games/{gid}/ws") as spectator:
            spectator.receive_json()
            seen = time.monotonic()
            with c.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as player:
                p = player.receive_json()["payload"]
                for _ in range(3):  # the player's socket gets each state at once
                    q = c.get(f"/api/games/{gid}").json()
                    mover = tokens[q["to_move"]]
                    legal = c.get(f"/api/games/{gid}", headers=head(mover)).json()["legal"]
                    r = c.post(f"/api/games/{gid}/actions", headers=head(mover),
                               json={"action": legal[0], "version": q["version"]})
                    assert r.status_code == 200, r.text
                    while p["version"] < q["version"] + 1:
                        p = player.receive_json()["payload"]
                assert time.monotonic() - seen < 0.7
                # the spectator: nothing within the pause, then the newest state
                got = spectator.receive_json()["payload"]
                assert time.monotonic() - seen >= 0.7
                while got["version"] < 3:
                    got = spectator.receive_json()["payload"]


# ---------------------------------------------------------------------------- options


def test_limits_options() -> None:
    assert parse_limits("") == Limits()
    got = parse_limits("requests_per_second=200, spectators_per_game=off,body-bytes=1000")
    assert got.requests_per_second == 200.0 and got.spectators_per_game is None
    assert got.body_bytes == 1000 and got.sockets == Limits().sockets
    off = parse_limits("off,sockets=50")
    assert off.requests_per_second is None and off.sockets == 50
    for bad in ("nosuch=1", "sockets=many", "sockets=-1", "body_bytes=off", "sockets"):
        with pytest.raises(ValueError):
            parse_limits(bad)
    assert raise_file_limit() >= 64
    small = fit_to_files(Limits(), 1024)
    assert small.sockets is not None and small.spectators is not None
    assert 3 * small.sockets <= 1024 and small.spectators < small.sockets
    assert fit_to_files(Limits(), 100_000) == Limits()


def test_the_coachs_bounds_are_limits() -> None:
    """``--limits`` sets the coach's search budgets, the decisions a review checks and its
    queue; ``off`` leaves them; the app's coach takes them."""
    got = parse_limits("suggest_time=0.5,review_time=0.05,review_moves=6,coach_searches=1,"
                       "coach_queue=3,coach_wait=30")
    coach = CoachSettings.of_limits(got, processes=1)
    assert coach == CoachSettings(suggest_bot="mcts:time=0.5", review_bot="mcts:time=0.05",
                                  review_moves=6, slots=1, queue=3, wait=30.0, processes=1)
    assert CoachSettings.of_limits(Limits()) == CoachSettings()
    assert CoachSettings().suggest_bot == DIFFICULTIES["hard"]  # the hard bot, as shipped
    off = parse_limits("off")
    assert (off.suggest_time, off.review_moves) == (Limits().suggest_time, 12)
    for bad in ("review_moves=0", "coach_wait=off", "suggest_time=0", "coach_queue=1.5"):
        with pytest.raises(ValueError):
            parse_limits(bad)
    app = create_app("sqlite://", bot_delay=0.0, limits=got)
    with TestClient(app):
        assert app.state.coach.settings == CoachSettings.of_limits(got)


def test_serve_refuses_bad_limits_in_one_line() -> None:
    out = subprocess.run([sys.executable, "-m", "forest_shuffle", "serve", "--limits",
                          "sockets=many"], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr


# ---------------------------------------------------------------------------- a real server


@contextlib.contextmanager
def serve(tmp_path: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    """``forest-shuffle serve`` on a free loopback port with ``args``; its standard error
    goes to a file (a pipe nobody reads would block the server once full)."""
    port = free_port()
    errors = tmp_path / "stderr.txt"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with errors.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "forest_shuffle", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}", "--bot-delay", "0",
             "--bot-processes", "0", *args], env=env, stdout=subprocess.DEVNULL, stderr=err)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, errors.read_text()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not start in 20 s"
            time.sleep(0.05)
        yield proc, base, errors
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(10)


def test_a_client_closing_mid_send_logs_no_traceback(tmp_path: Path) -> None:
    with serve(tmp_path, "--limits", "spectator_interval=0,bot_games_per_address=off"
               ) as (proc, base, errors):
        http = httpx.Client(base_url=base)
        games = [http.post("/api/games", json={"seats": [{"kind": "bot"}] * 3}).json()["game_id"]
                 for _ in range(3)]
        url = base.replace("http://", "ws://")
        closed = 0
        until = time.monotonic() + 3
        while time.monotonic() < until:
            for gid in games:  # watch a running bots' game and drop the connection (reset)
                with connect(f"{url}/api/games/{gid}/ws", max_size=2**24) as ws:
                    ws.recv(timeout=10)
                    ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                         struct.pack("ii", 1, 0))
                    ws.socket.close()
                    closed += 1
        time.sleep(0.5)
        assert http.get("/api/levels").status_code == 200
        http.close()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        text = errors.read_text()
        assert closed > 20
        assert "Traceback" not in text, text[:3000]


def test_a_real_server_refuses_with_close_codes_and_413(tmp_path: Path) -> None:
    with serve(tmp_path, "--limits", "spectators_per_game=2") as (_proc, base, errors):
        http = httpx.Client(base_url=base)
        gid = new_game(http, TWO_HUMANS)["game_id"]
        url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        with connect(url) as a, connect(url) as b:
            a.recv(timeout=10)
            b.recv(timeout=10)
            with connect(url) as c:
                assert json.loads(c.recv(timeout=10))["status"] == 429
                with pytest.raises(ConnectionClosed) as gone:
                    c.recv(timeout=10)
                assert gone.value.rcvd is not None and gone.value.rcvd.code == 4429
                assert "spectators" in gone.value.rcvd.reason
            b.send("x" * 5000)  # over the message bound: an error, the socket stays
            assert json.loads(b.recv(timeout=10))["status"] == 413
            b.send(json.dumps({"type": "ping"}))
            assert json.loads(b.recv(timeout=10)) == {"type": "pong"}
            b.send("x" * 100_000)  # a frame over the body bound: closed by the server
            with pytest.raises(ConnectionClosed) as gone:
                b.recv(timeout=10)
            assert gone.value.rcvd is not None and gone.value.rcvd.code == 1009
        big = json.dumps({"seats": TWO_HUMANS, "x": "a" * 10_000_000})
        r = http.post("/api/games", content=big, headers={"content-type": "application/json"})
        assert "too large" in one_line_error(r, 413)
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                        b"application/json\r\nContent-Length: 200000000\r\n\r\n")
            answer = b""
            while b"}" not in answer:  # the answer comes although no body was sent
                chunk = raw.recv(4096)
                assert chunk, answer
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 413")
        http.close()
        assert "Traceback" not in errors.read_text()
