"""Memory of a long-running server stays bounded: finished games leave memory once unused
(and come back from the store on their next use), and what a game leaves behind in the
server (sockets in the hub, its lock, its payloads) goes with it."""

from __future__ import annotations

import gc
import time
import tracemalloc
from pathlib import Path

from fastapi.testclient import TestClient

from forest_shuffle.server.app import create_app
from forest_shuffle.server.service import GameService, LiveGame, SeatSpec
from forest_shuffle.server.store import Store

BOTS = [SeatSpec("bot", "A", "easy"), SeatSpec("bot", "B", "easy")]


def _service(tmp_path: Path, **kw: float) -> GameService:
    return GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=0.0,
                       **kw)  # type: ignore[arg-type]


def _play(svc: GameService, seed: int) -> str:
    """One game of two easy bots to its end, watched as a seat's and a spectator's
    payloads (so the game holds what a served game holds)."""
    gid = str(svc.create(BOTS, seed=seed)["game_id"])
    deadline = time.monotonic() + 30
    while not svc.game(gid).snap.state.over:
        assert time.monotonic() < deadline, "the bots did not finish"
        svc.payloads.payload(gid, 0)
        time.sleep(0.002)
    svc.payloads.payload(gid, 0)
    svc.payloads.payload(gid, None)
    return gid


def test_finished_games_leave_memory_and_come_back(tmp_path: Path) -> None:
    svc = _service(tmp_path, idle_over=0.0)
    try:
        done = [_play(svc, seed) for seed in range(6)]
        # Each new game sweeps the finished ones out; only the newest is left in memory.
        assert set(svc._games) <= {done[-1]}
        again = svc.payloads.payload(done[0], None)  # loaded again from the store, unchanged
        assert again["over"] and again["version"] == len(svc.actions(done[0]))
    finally:
        svc.close()


def test_unfinished_idle_games_leave_memory_unless_a_bot_is_due(tmp_path: Path) -> None:
    svc = _service(tmp_path, idle_over=3600.0, idle_open=0.0)
    try:
        waiting = str(svc.create([SeatSpec("human"), SeatSpec("bot", "B", "easy")],
                                 seed=3)["game_id"])
        assert svc.game(waiting).snap.state.to_move == 0  # the human's decision
        finished = _play(svc, 4)
        svc.create([SeatSpec("human"), SeatSpec("human")], seed=5)
        assert waiting not in svc._games  # idle, waiting for a person: out
        assert finished in svc._games  # finished games stay an hour here
    finally:
        svc.close()


def test_memory_levels_off_over_many_finished_games(tmp_path: Path) -> None:
    """What 6 more finished games leave allocated is far below one game's worth, and no
    finished game is alive: nothing per game stays behind (before the fix every finished
    game stayed in memory, about 0.4 MB each with its payloads)."""
    svc = _service(tmp_path, idle_over=0.0)
    people = [SeatSpec("human"), SeatSpec("human")]
    try:
        for seed in range(4):  # warm: caches of the engine, the database, the log words
            _play(svc, seed)
        svc.create(people, seed=100)  # sweeps the last finished game out
        gc.collect()
        tracemalloc.start()
        played = []
        try:
            for seed in range(4, 10):
                played.append(_play(svc, seed))
            svc.create(people, seed=101)
            gc.collect()
            kept, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        # (other tests' services may still hold games of their own: only this one's count)
        alive = [o for o in gc.get_objects() if isinstance(o, LiveGame) and o.id in played]
        assert not [g.id for g in alive if g.snap.state.over]
    finally:
        svc.close()
    assert kept / 1e6 < 0.8, f"{kept / 1e6:.2f} MB kept after 6 finished games"


def test_closed_sockets_leave_nothing_in_the_hub(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=0.0)
    hub = app.state.hub
    with TestClient(app) as c:
        for k in range(5):
            made = c.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                              "seed": k}).json()
            gid = made["game_id"]
            with c.websocket_connect(f"/api/games/{gid}/ws") as ws, \
                    c.websocket_connect(f"/api/games/{gid}/ws?token="
                                        f"{made['seats'][0]['token']}") as ws2:
                assert ws.receive_json()["type"] == "state"
                assert ws2.receive_json()["type"] == "state"
                assert gid in hub.conns
        deadline = time.monotonic() + 5
        while hub.conns and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hub.conns == {}
