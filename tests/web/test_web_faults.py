"""Faults named, the rest served (docs/web.md, "Faults"): a stored game whose row cannot be
read is named at start-up and answers one clear line while every other game is served; a
database that cannot be written gives 503 in one line, one log line, and play resumes once
it can write again. Real servers, as a deployment runs them."""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text
from webutil import TWO_HUMANS, act, head, new_game, one_line_error, server

from forest_shuffle.engine.state import GameState
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store

BOT_FIRST = [SeatSpec("bot", None, "easy"), SeatSpec("human", "Ann")]


def _stored_games(url: str) -> list[str]:
    """Four unfinished games in a fresh database, each waiting for its bot. The deals are
    chosen so that the bot decides first (a random deal may ask the person first, for a
    mulligan: the good game's bot would then never move)."""
    seeds = [s for s in range(1000) if GameState.new(2, s).to_move == 0][:4]
    with GameService(Store(url), bot_delay=600) as svc:
        made = [svc.create(BOT_FIRST, seed=seed)["game_id"] for seed in seeds]
        assert all(svc.game(g).snap.state.to_move == 0 for g in made)  # the bots' turn
        return made


def test_a_broken_row_is_named_and_every_other_game_served(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    bad_json, bad_seed, bad_game, good = _stored_games(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("update games set settings = '{not json' where id = :g"),
                     {"g": bad_json})
        conn.execute(text("update games set deal_seed = 'keyed:zz' where id = :g"),
                     {"g": bad_seed})
        conn.execute(text("""update games set settings = '{"game": "chess"}' """
                          "where id = :g"), {"g": bad_game})
    engine.dispose()
    errors = tmp_path / "stderr.txt"
    with server(url, errors_to=errors) as (proc, base), \
            httpx.Client(base_url=base, timeout=20) as http:
        # the good game is served, its bot resumed
        deadline = time.monotonic() + 20
        while http.get(f"/api/games/{good}").json()["version"] == 0:
            assert time.monotonic() < deadline, "the good game's bot never moved"
            time.sleep(0.05)
        lines = errors.read_text().splitlines()
        for gid, why in ((bad_json, "not JSON"), (bad_seed, "deal seed"),
                         (bad_game, "chess")):
            named = [line for line in lines if gid in line]
            assert len(named) == 1 and why in named[0], lines
            answer = one_line_error(http.get(f"/api/games/{gid}"), 500)
            assert gid in answer and why in answer
        assert "Traceback" not in errors.read_text()
        assert proc.poll() is None
        # a new game is served as well
        created = new_game(http, TWO_HUMANS)
        assert http.get(f"/api/games/{created['game_id']}").status_code == 200


def _wal_size(db: Path) -> int:
    wal = Path(str(db) + "-wal")
    return wal.stat().st_size if wal.exists() else 0


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs prlimit (Linux)")
def test_a_database_that_cannot_write_gives_503_and_play_resumes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    errors = tmp_path / "stderr.txt"
    with server(f"sqlite:///{db}", bot_delay=1.0, errors_to=errors) as (proc, base), \
            httpx.Client(base_url=base, timeout=30) as http:
        human = new_game(http, TWO_HUMANS)
        hid, htok = human["game_id"], human["seats"][0]["token"]
        vs_bot = new_game(http, [{"kind": "human", "name": "Ann"},
                                 {"kind": "bot", "level": "easy"}])
        bid, btok = vs_bot["game_id"], vs_bot["seats"][0]["token"]
        # Ann moves; her bot answers a second later: by then the disk is "full" (no file
        # of the server may grow beyond what it holds now)
        p = http.get(f"/api/games/{bid}", headers=head(btok)).json()
        moved = p["version"]
        while True:
            r = act(http, bid, btok, p["legal"][0], p["version"])
            assert r.status_code == 200, r.text
            p = r.json()
            if p["to_move"] == 1:
                break
        moved = p["version"]
        limit = max(_wal_size(db), 1)
        soft, hard = resource.prlimit(proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (limit, hard))
        try:
            q = http.get(f"/api/games/{hid}", headers=head(htok)).json()
            for _ in range(3):
                r = act(http, hid, htok, q["legal"][0], q["version"])
                assert one_line_error(r, 503) == ("could not store the move: the database "
                                                  "is not writable")
            assert http.get(f"/api/games/{hid}").json()["version"] == q["version"]
            r = http.post("/api/games", json={"seats": TWO_HUMANS})
            assert "not writable" in one_line_error(r, 503)
            time.sleep(3.5)  # the bot tries again and again meanwhile
            assert http.get(f"/api/games/{bid}").json()["version"] == moved
            log = errors.read_text()
            assert log.count("not writable") == 1, log
            assert "Traceback" not in log, log
        finally:
            resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (soft, hard))
        # it can write again: the bot goes on by itself, people play again
        deadline = time.monotonic() + 20
        while http.get(f"/api/games/{bid}").json()["version"] == moved:
            assert time.monotonic() < deadline, "the bot did not go on"
            time.sleep(0.1)
        q = http.get(f"/api/games/{hid}", headers=head(htok)).json()
        assert act(http, hid, htok, q["legal"][0], q["version"]).status_code == 200
        assert "writable again" in errors.read_text()
        assert proc.poll() is None
    assert os.path.exists(db)
