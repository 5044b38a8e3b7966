"""Durability and races: one transaction per action, a killed server loses nothing and goes
on after a restart, and of actions racing for one turn exactly one is applied."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from webutil import client, head, kill9, new_game, server

from forest_shuffle.bots import Bot
from forest_shuffle.bots.base import Budget
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import SeatRow, StaleWrite, Store


def _db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def test_racing_writers_of_one_index_cannot_both_land(tmp_path: Path) -> None:
    url = _db(tmp_path)
    first, second = Store(url), Store(url)
    first.create_game("g", 1, "legacy", {}, [SeatRow(0, "human", "A", None, "t0"),
                                   SeatRow(1, "human", "B", None, "t1")], False)
    results: list[str] = []
    barrier = threading.Barrier(6)

    def write(store: Store, text: str) -> None:
        barrier.wait()
        try:
            store.append_action("g", 0, text, 0, over=False, bot_to_move=False)
            results.append(text)
        except StaleWrite:
            results.append("stale")

    threads = [threading.Thread(target=write, args=(s, f"take {k}"))
               for k, s in enumerate([first, second] * 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("stale") == 5
    row = first.load("g")
    assert row is not None and row.version == 1 and len(row.actions) == 1
    assert row.actions[0] in results
    first.close()
    second.close()


def test_a_new_service_replays_the_stored_game(tmp_path: Path) -> None:
    url = _db(tmp_path)
    svc = GameService(Store(url), bot_delay=0)
    made = svc.create([SeatSpec("human", "Ann"), SeatSpec("human", "Bob")], seed=8)
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    rng = random.Random(1)
    for _ in range(60):
        p = svc.payloads.payload(gid, svc.game(gid).snap.state.to_move)
        svc.act(gid, tokens[p["you"]], rng.choice(p["legal"]), p["version"])
    before = svc.game(gid).snap.state.to_dict()
    pay0 = svc.payloads.payload(gid, 0)
    svc.close()
    again = GameService(Store(url), bot_delay=0)
    assert again.game(gid).snap.state.to_dict() == before
    assert again.payloads.payload(gid, 0) == pay0
    with pytest.raises(ServiceError) as err:
        again.act(gid, tokens[0], "draw", 3)
    assert err.value.status == 409
    again.close()


def _wait_for(base: str, gid: str, token: str | None, test: Any, seconds: float = 15) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        p = httpx.get(f"{base}/api/games/{gid}", headers=head(token), timeout=5).json()
        if test(p):
            return p
        assert time.monotonic() < deadline, f"waited {seconds} s: version {p['version']}"
        time.sleep(0.02)


def _play(http: httpx.Client, gid: str, token: str, n: int, rng: random.Random) -> Any:
    """n actions of seat 0 (waiting for the bot between them); the last payload."""
    p: Any = None
    for _ in range(n):
        p = _wait_for(str(http.base_url).rstrip("/"), gid, token,
                      lambda q: q["over"] or q["to_move"] == 0)
        if p["over"]:
            break
        r = http.post(f"/api/games/{gid}/actions", headers=head(token),
                      json={"action": rng.choice(p["legal"]), "version": p["version"]})
        assert r.status_code == 200, r.text
        p = r.json()
    return p


def test_a_killed_server_goes_on_after_a_restart(tmp_path: Path) -> None:
    url = _db(tmp_path)
    rng = random.Random(3)
    with server(url) as (proc, base), httpx.Client(base_url=base, timeout=10) as http:
        game = new_game(http, [{"kind": "human", "name": "Ann"},
                               {"kind": "bot", "level": "easy"}], seed=77)
        gid, tok = game["game_id"], game["seats"][0]["token"]
        _play(http, gid, tok, 25, rng)
        before = _wait_for(base, gid, tok, lambda q: q["to_move"] == 0)
        kill9(proc)
    with server(url) as (proc, base), httpx.Client(base_url=base, timeout=10) as http:
        after = http.get(f"/api/games/{gid}", headers=head(tok)).json()
        for key in ("version", "view", "log", "to_move", "legal"):
            assert after[key] == before[key], key
        _play(http, gid, tok, 5, rng)
        moved = _wait_for(base, gid, tok, lambda q: q["to_move"] == 0)
        assert moved["version"] > before["version"]
        # now leave the bot to move and kill the server before it does
        kill9(proc)
    with server(url, bot_delay=60) as (proc, base), \
            httpx.Client(base_url=base, timeout=10) as http:
        p = _wait_for(base, gid, tok, lambda q: q["to_move"] == 0)
        r = http.post(f"/api/games/{gid}/actions", headers=head(tok),
                      json={"action": p["legal"][0], "version": p["version"]})
        assert r.status_code == 200
        waiting = r.json()
        while waiting["to_move"] == 0:  # the action may not end the turn
            r = http.post(f"/api/games/{gid}/actions", headers=head(tok),
                          json={"action": waiting["legal"][0], "version": waiting["version"]})
            waiting = r.json()
        assert waiting["to_move"] == 1
        kill9(proc)
    with server(url, bot_delay=0) as (proc, base):
        # nobody acts: the bot resumes by itself after the restart
        done = _wait_for(base, gid, tok, lambda q: q["version"] > waiting["version"])
        assert done["version"] > waiting["version"]


def _race(clients: list[httpx.Client], gid: str, token: str, legal: list[str],
          version: int) -> list[tuple[int, str]]:
    """Every client sends one of ``legal`` against ``version`` at the same moment; the
    statuses and error texts."""
    barrier = threading.Barrier(len(clients))
    out: list[tuple[int, str]] = []

    def send(k: int) -> None:
        barrier.wait()
        r = clients[k].post(f"/api/games/{gid}/actions", headers=head(token),
                            json={"action": legal[k % len(legal)], "version": version})
        out.append((r.status_code, "" if r.status_code == 200 else r.json()["error"]))

    threads = [threading.Thread(target=send, args=(k,)) for k in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_parallel_actions_for_one_turn_exactly_one_applied(tmp_path: Path) -> None:
    with server(_db(tmp_path)) as (_proc, base), httpx.Client(base_url=base) as http:
        game = new_game(http, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
                        seed=12)
        gid = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        clients = [httpx.Client(base_url=base, timeout=10) for _ in range(8)]
        try:
            for _round in range(4):
                seat = http.get(f"/api/games/{gid}").json()["to_move"]
                mine = http.get(f"/api/games/{gid}", headers=head(tokens[seat])).json()
                results = _race(clients, gid, tokens[seat], mine["legal"], mine["version"])
                assert sorted(code for code, _ in results) == [200] + [409] * 7, results
                assert all(text.startswith("stale") for code, text in results if code != 200)
                now = http.get(f"/api/games/{gid}").json()
                assert now["version"] == mine["version"] + 1
        finally:
            for h in clients:
                h.close()


class SlowBot(Bot):
    """Thinks for a while, then plays the first legal action."""

    name = "slow"

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        time.sleep(2.0)
        return view.legal_actions[0]


def test_a_thinking_bot_does_not_block_the_server() -> None:
    with client(bot_delay=0.2) as c:
        game = new_game(c, [{"kind": "bot"}, {"kind": "human"}], seed=6)
        gid = game["game_id"]
        service = c.app.state.service  # type: ignore[attr-defined]
        service.game(gid).bots[0] = SlowBot()
        time.sleep(0.4)  # the bot is thinking now
        start = time.monotonic()
        p = c.get(f"/api/games/{gid}").json()
        assert p["version"] == 0 and time.monotonic() - start < 1.0
        deadline = time.monotonic() + 10
        while c.get(f"/api/games/{gid}").json()["version"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_a_broken_record_is_a_one_line_error(tmp_path: Path) -> None:
    url = _db(tmp_path)
    store = Store(url)
    store.create_game("broken", 1, "legacy", {}, [SeatRow(0, "human", "A", None, "a"),
                                        SeatRow(1, "bot", "B", "easy", None)], True)
    store.append_action("broken", 0, "take 999", 1, over=False, bot_to_move=True)
    store.close()
    with client(url) as c:  # resuming the bots does not stop the server
        r = c.get("/api/games/broken")
        assert r.status_code == 500
        assert set(r.json()) == {"error"} and "cannot be replayed" in r.json()["error"]


def test_games_beyond_the_memory_limit_are_loaded_again(tmp_path: Path) -> None:
    svc = GameService(Store(_db(tmp_path)), bot_delay=0, max_games=2)
    games = [svc.create([SeatSpec("human"), SeatSpec("human")], seed=k) for k in range(4)]
    rng = random.Random(4)
    for _round in range(30):
        for made in games:
            gid = made["game_id"]
            held = svc.game(gid)
            p = svc.payloads.payload(gid, held.snap.state.to_move)
            svc.act(gid, made["seats"][p["you"]]["token"], rng.choice(p["legal"]),
                    p["version"])
            assert len(svc._games) <= 2
    for made in games:
        assert svc.game(made["game_id"]).snap.version == 30
    # an action that went to an evicted copy lands on the loaded one
    first = games[0]["game_id"]
    old = svc.game(first)
    for made in games[1:]:
        svc.game(made["game_id"])
    assert old.evicted
    state = old.snap.state
    svc._apply(old, state.to_move or 0, state.legal_actions()[0], 30)
    assert svc.game(first).snap.version == 31 and svc.game(first) is not old
    svc.close()
