"""The same store and service on PostgreSQL (``--db postgresql://...``).

Uses ``FOREST_SHUFFLE_TEST_POSTGRES`` (a database URL) if set; else starts a throwaway
cluster when ``initdb`` and ``pg_ctl`` are installed (as the ``postgres`` user when run as
root); skipped without psycopg or PostgreSQL.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("psycopg")

from forest_shuffle.web.service import GameService, SeatSpec, ServiceError  # noqa: E402
from forest_shuffle.web.store import SeatRow, StaleWrite, Store  # noqa: E402


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    url = os.environ.get("FOREST_SHUFFLE_TEST_POSTGRES")
    if url:
        yield url
        return
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("no PostgreSQL (initdb, pg_ctl) on this machine")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser")
    folder = Path(tempfile.mkdtemp(prefix="forest-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres")
        data = folder / "data"
        subprocess.run(_as_postgres([initdb, "-N", "-D", str(data), "-A", "trust", "-U", "fs"]),
                       check=True, capture_output=True, timeout=120)
        port = 50000 + os.getpid() % 10000
        options = f"-k {folder} -p {port} -c listen_addresses='' -c fsync=off"
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-l", str(folder / "log"),
                                     "-o", options, "-w", "start"]),
                       check=True, capture_output=True, timeout=120)
    except (subprocess.SubprocessError, OSError, LookupError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"could not start PostgreSQL: {exc}")
    try:
        yield f"postgresql://fs@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


def test_racing_writers_on_postgres(pg_url: str) -> None:
    stores = [Store(pg_url) for _ in range(2)]
    gid = f"race{os.getpid()}"
    stores[0].create_game(gid, 2**62, {}, [SeatRow(0, "human", "A", None, "a"),
                                          SeatRow(1, "bot", "B", "easy", None)], False)
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
    assert row is not None and row.version == 1 and row.seed == 2**62
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
