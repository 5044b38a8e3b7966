"""The server bounds slow requests and connections per address itself (docs/web.md,
"Limits"): half-sent requests are closed, one address cannot hold every file, and every
other client is served meanwhile. A real server, as a deployment runs it."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from webutil import server

HALF = b"GET /api/levels HTTP/1.1\r\nHost: x\r\nX-Slow: "  # never finished


def _half_sent(port: int, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(HALF)
        out.append(s)
    return out


def _closed_by_server(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (or refused it) within the socket's timeout."""
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
            if b" 429 " in data.split(b"\r\n", 1)[0]:
                continue  # refused: the close follows
    except (TimeoutError, OSError) as exc:
        return isinstance(exc, ConnectionResetError)


@contextlib.contextmanager
def _slow_server(tmp_path: Path) -> Iterator[tuple[int, str]]:
    limits = "request_seconds=2,connections_per_address=20"
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}",
                extra=["--limits", limits]) as (_proc, base):
        yield int(base.rsplit(":", 1)[1]), base


def test_half_sent_requests_are_closed_and_others_served(tmp_path: Path) -> None:
    with _slow_server(tmp_path) as (port, base):
        held = _half_sent(port, 15)
        try:
            # another client is served while they hang
            with httpx.Client(base_url=base, timeout=20) as http:
                assert http.get("/api/levels").status_code == 200
            # ... and every half-sent request is closed by the server, none left for ever
            assert all(_closed_by_server(s) for s in held)
        finally:
            for s in held:
                s.close()


def test_one_address_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    with _slow_server(tmp_path) as (port, _base):
        held = _half_sent(port, 19)  # the fixture's own client may hold one more
        extra = _half_sent(port, 5)
        try:
            first = [s.recv(4096) for s in extra[-3:]]
            assert all(b" 429 " in line.split(b"\r\n", 1)[0] for line in first), first
            assert all(b"too many connections" in line for line in first)
        finally:
            for s in held + extra:
                s.close()


def test_reviews_being_searched_hold_no_request_thread(tmp_path: Path) -> None:
    """60 requests for one review that takes seconds, and meanwhile another player's
    requests: theirs are answered before any review (before, the reviews held the 40
    request threads and everybody waited for the search)."""
    limits = "review_time=1.0,review_moves=3,games_per_minute=off"
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}", extra=["--limits", limits]) \
            as (_proc, base), httpx.Client(base_url=base, timeout=120) as http:
        bots = [{"kind": "bot", "level": "easy"}] * 2
        gid = http.post("/api/games", json={"seats": bots}).json()["game_id"]
        deadline = time.monotonic() + 60
        while not http.get(f"/api/games/{gid}").json()["over"]:
            assert time.monotonic() < deadline, "the bots' game did not end"
            time.sleep(0.1)
        other = http.post("/api/games", json={"seats": [{"kind": "human", "name": "Ann"},
                                                        {"kind": "human"}]}).json()
        order: list[str] = []
        lock = threading.Lock()

        def review() -> None:
            with httpx.Client(base_url=base, timeout=120) as own:
                r = own.get(f"/api/games/{gid}/review")
            with lock:
                order.append(f"review {r.status_code}")

        threads = [threading.Thread(target=review) for _ in range(60)]
        for t in threads:
            t.start()
        time.sleep(1.0)  # every review request is in, its search running
        for _ in range(5):  # the other player plays on meanwhile
            r = http.get(f"/api/games/{other['game_id']}",
                         headers={"X-Seat-Token": other["seats"][0]["token"]})
            with lock:
                order.append(f"player {r.status_code}")
        for t in threads:
            t.join(120)
        assert order[:5] == ["player 200"] * 5, order[:8]
        assert order[5:] == ["review 200"] * 60, set(order[5:])


def test_one_address_asking_suggest_everywhere_leaves_room_for_others(
        tmp_path: Path) -> None:
    """One address asks Suggest in 12 games at once; a player at another address still
    gets their suggestion (before, one server-wide queue of 8 answered them 429)."""
    limits = "suggest_time=3.0,games_per_minute=off"
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}", extra=["--limits", limits]) \
            as (_proc, base):
        other = httpx.HTTPTransport(local_address="127.0.0.2")  # a second address
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}]
        with httpx.Client(base_url=base, timeout=120, transport=other) as attacker, \
                httpx.Client(base_url=base, timeout=120) as player:
            games = [attacker.post("/api/games", json={"seats": seats}).json()
                     for _ in range(12)]
            mine = player.post("/api/games", json={"seats": seats}).json()
            answers: list[httpx.Response] = []

            def to_move(client: httpx.Client, g: dict[str, Any]) -> str:
                """The token of the seat to move (a deal may ask Bea first, for a
                mulligan: Ann's Suggest was then refused, failing a CI run)."""
                tokens = {s["seat"]: s["token"] for s in g["seats"]}
                seen = client.get(f"/api/games/{g['game_id']}",
                                  headers={"X-Seat-Token": tokens[0]}).json()
                return str(tokens[seen["to_move"]])

            def ask(g: dict[str, Any]) -> None:
                with httpx.Client(base_url=base, timeout=120,
                                  transport=httpx.HTTPTransport(local_address="127.0.0.2")
                                  ) as own:
                    answers.append(own.post(f"/api/games/{g['game_id']}/suggest",
                                            headers={"X-Seat-Token": to_move(own, g)}))

            threads = [threading.Thread(target=ask, args=(g,)) for g in games]
            for t in threads:
                t.start()
            time.sleep(0.5)  # the attacker's searches are in
            r = player.post(f"/api/games/{mine['game_id']}/suggest",
                            headers={"X-Seat-Token": to_move(player, mine)})
            for t in threads:
                t.join(120)
        assert r.status_code == 200, r.text
        assert r.json()["actions"]
        refused = [a for a in answers if a.status_code == 429]
        assert refused and all("your address" in a.json()["error"] for a in refused)
        assert sum(a.status_code == 200 for a in answers) >= 2


def test_one_address_cannot_take_every_game_of_bots(tmp_path: Path) -> None:
    """An address that starts games of bots only gets a few; another address may still
    start one (before, one address took all 20 the server holds)."""
    bots = [{"kind": "bot", "level": "easy"}] * 2
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_delay=60,
                extra=["--limits", "games_per_minute=off"]) as (_proc, base), \
            httpx.Client(base_url=base, timeout=30,
                         transport=httpx.HTTPTransport(local_address="127.0.0.2")) as one, \
            httpx.Client(base_url=base, timeout=30) as other:
        answers = [one.post("/api/games", json={"seats": bots}) for _ in range(6)]
        made = [a for a in answers if a.status_code == 200]
        refused = [a for a in answers if a.status_code == 429]
        assert len(made) == 2 and len(refused) == 4, [a.status_code for a in answers]
        assert all("your address" in a.json()["error"] for a in refused)
        assert other.post("/api/games", json={"seats": bots}).status_code == 200
        # a game with a person in it is never counted
        people = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
        assert one.post("/api/games", json={"seats": people}).status_code == 200


def _bot_first_seeds(n: int) -> list[int]:
    """``n`` seeds whose two-player deal asks seat 0 first (a hand with no tree is offered a
    mulligan: a deal where only seat 1's hand has none asks seat 1 first)."""
    from forest_shuffle.engine.state import GameState
    return [s for s in range(1000) if GameState.new(2, s).to_move == 0][:n]


def test_one_address_with_many_searching_bots_does_not_starve_another(
        tmp_path: Path) -> None:
    """One address starts 6 games whose hard bot moves first, then another address one:
    with one search slot, the other's bot moves long before the first address's last
    (before, the bots' searches ran first come, first served: the other waited for all
    6); and all six move. The deals are chosen so that the bot decides first (a random
    deal may ask the person first, for a mulligan: the test once waited for a bot that was
    not to move, which looked like a lost decision)."""
    first = [{"kind": "bot", "level": "hard"}, {"kind": "human", "name": "Ann"}]
    seeds = _bot_first_seeds(7)
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}",
                extra=["--bot-processes", "1", "--limits",
                       "games_per_minute=off,requests_per_second=off"]
                ) as (_proc, base), \
            httpx.Client(base_url=base, timeout=30,
                         transport=httpx.HTTPTransport(local_address="127.0.0.2")) as one, \
            httpx.Client(base_url=base, timeout=30) as other:
        many = [one.post("/api/games", json={"seats": first, "seed": seed}).json()["game_id"]
                for seed in seeds[:6]]
        mine = other.post("/api/games",
                          json={"seats": first, "seed": seeds[6]}).json()["game_id"]

        def moved(gid: str) -> bool:
            r = other.get(f"/api/games/{gid}")
            assert r.status_code == 200, r.text
            return bool(r.json()["version"] > 0)

        for _ in range(1200):  # until the other address's bot has moved
            if moved(mine):
                break
            time.sleep(0.05)
        assert moved(mine)
        done = sum(moved(g) for g in many)
        # its decision waited behind at most the one running and the one first in line
        assert done <= 3, done
        for _ in range(900):  # and every decision of the first address is made after it
            if all(moved(g) for g in many):
                break
            time.sleep(0.2)
        assert [moved(g) for g in many] == [True] * 6


def test_one_address_loads_a_bounded_number_of_records(tmp_path: Path) -> None:
    """Records loaded a minute per address (each new one is replayed): beyond the burst
    a 429 in one line, while another address may still load one (before, an address
    could load records at its whole rate of requests)."""
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}",
                extra=["--limits", "replays_per_minute=1,replays_burst=2"]
                ) as (_proc, base), \
            httpx.Client(base_url=base, timeout=30,
                         transport=httpx.HTTPTransport(local_address="127.0.0.2")) as one, \
            httpx.Client(base_url=base, timeout=30) as other:
        answers = [one.post("/api/replays", json={"text": "not a record"}) for _ in range(4)]
        assert [a.status_code for a in answers] == [400, 400, 429, 429]
        assert "records loaded from your address" in answers[2].json()["error"]
        assert other.post("/api/replays", json={"text": "x"}).status_code == 400
