"""The same store and service on PostgreSQL (``--db postgresql://...``), on a throwaway
cluster (``services.postgres``: skipped without PostgreSQL, except under CI)."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator

import pytest
from services import postgres

from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import SeatRow, StaleWrite, Store


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres() as url:
        yield url


def test_racing_writers_on_postgres(pg_url: str) -> None:
    stores = [Store(pg_url) for _ in range(2)]
    gid = f"race{os.getpid()}"
    seed = 2**127 + 12345  # a secret seed does not fit a BIGINT: it is kept as text
    stores[0].create_game(gid, seed, "keyed", {}, [SeatRow(0, "human", "A", None, "a"),
                                                   SeatRow(1, "bot", "B", "easy", None)],
                          False)
    barrier = threading.Barrier(6)
    results: list[str] = []

    def write(k: int) -> None:
        barrier.wait()
        try:
            stores[k % 2].append_action(gid, 0, f"take {k}", 0, over=False,
                                        bot_to_move=False)
            results.append("ok")
        except StaleWrite:
            results.append("stale")

    threads = [threading.Thread(target=write, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok"] + ["stale"] * 5
    row = stores[1].load(gid)
    assert row is not None and row.version == 1 and row.seed == seed
    assert row.deal == "keyed"
    for s in stores:
        s.close()


def test_a_game_on_postgres_replays_after_a_restart(pg_url: str) -> None:
    svc = GameService(Store(pg_url), bot_delay=0)
    made = svc.create([SeatSpec("human"), SeatSpec("human")], seed=4)
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    rng = random.Random(2)
    for _ in range(40):
        state = svc.game(gid).snap.state
        svc.act(gid, tokens[state.to_move or 0], str(rng.choice(state.legal_actions())),
                svc.game(gid).snap.version)
    saved = svc.game(gid).snap.state.to_dict()
    svc.close()
    again = GameService(Store(pg_url), bot_delay=0)
    assert again.game(gid).snap.state.to_dict() == saved
    with pytest.raises(ServiceError) as err:
        again.act(gid, tokens[0], "draw", 0)
    assert err.value.status == 409
    again.close()
