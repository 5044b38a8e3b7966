"""Deals in the server: secret 128-bit seeds, chosen deals shown to every seat, games and
databases from before the keyed deal still loading."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from webutil import client, head

from forest_shuffle.engine.setup import KEYED, LEGACY, derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store

THREE_HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]


def _payloads(c: TestClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    tokens = [s["token"] for s in game["seats"]] + [None]
    out = []
    for tok in tokens:
        r = c.get(f"/api/games/{game['game_id']}", headers=head(tok))
        assert r.status_code == 200, r.text
        out.append(r.json())
    return out


def test_a_new_game_has_a_secret_128_bit_seed() -> None:
    svc = GameService(Store("sqlite://"), bot_delay=0)
    try:
        seeds = []
        for _ in range(8):
            gid = svc.create([SeatSpec("human"), SeatSpec("bot", level="easy")])["game_id"]
            row = svc.store.load(gid)
            assert row is not None and row.deal == KEYED
            seeds.append(row.seed)
            assert svc.game(gid).snap.state.deal == KEYED
        # Below 2**64 with probability 2**-64 each: no search of fewer seeds finds them.
        assert all(2**64 <= s < 2**128 for s in seeds) and len(set(seeds)) == 8
        # The bots' own randomness is a one-way function of the seed, not seed * 10 + seat.
        gid = svc.create([SeatSpec("human"), SeatSpec("bot", level="easy")])["game_id"]
        game = svc.game(gid)
        assert game.bots[1].seed == derive(game.seed, "bot 1")
    finally:
        svc.close()


def test_a_chosen_deal_is_flagged_on_every_seat_and_spectator() -> None:
    with client() as c:
        r = c.post("/api/games", json={"seats": THREE_HUMANS, "seed": 77})
        chosen = r.json()
        for p in _payloads(c, chosen):
            assert p["deal_chosen"] is True
        r = c.post("/api/games", json={"seats": THREE_HUMANS})
        secret = r.json()
        for p in _payloads(c, secret):
            assert p["deal_chosen"] is False
        # The same chosen seed deals the same cards (a known deal is reproducible).
        again = c.post("/api/games", json={"seats": THREE_HUMANS, "seed": 77}).json()
        hands = [p["view"]["hand"] for p in _payloads(c, chosen)[:3]]
        assert hands == [p["view"]["hand"] for p in _payloads(c, again)[:3]]
        assert sorted(hands[0]) == sorted(GameState.new(3, 77).hands[0])


def test_the_socket_payload_carries_the_flag() -> None:
    with client() as c:
        game = c.post("/api/games", json={"seats": THREE_HUMANS, "seed": 5}).json()
        tok = game["seats"][1]["token"]
        with c.websocket_connect(f"/api/games/{game['game_id']}/ws?token={tok}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "state" and msg["payload"]["deal_chosen"] is True


def test_a_rematch_of_a_chosen_deal_is_secret(tmp_path: Path) -> None:
    svc = GameService(Store(f"sqlite:///{tmp_path / 'g.db'}"), bot_delay=0)
    try:
        gid = svc.create([SeatSpec("human"), SeatSpec("human")], seed=3)["game_id"]
        game = svc.game(gid)
        assert game.settings["deal_chosen"] is True
        # Play the game to its end with the first legal action each time.
        while not game.snap.state.over:
            state = game.snap.state
            seat = state.to_move
            assert seat is not None
            svc.act(gid, game.seats[seat].token, str(state.legal_actions()[0]),
                    game.snap.version)
        new = svc.rematch(gid, game.seats[0].token)["game_id"]
        assert "deal_chosen" not in svc.game(new).settings
        assert svc.payloads.payload(new, 0)["deal_chosen"] is False
    finally:
        svc.close()


OLD_SCHEMA = """
CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, seed BIGINT NOT NULL, settings TEXT NOT NULL,
    version INTEGER NOT NULL, over BOOLEAN NOT NULL, bot_to_move BOOLEAN NOT NULL,
    rematch VARCHAR(32), created FLOAT NOT NULL);
CREATE TABLE seats (game_id VARCHAR(32) NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    token VARCHAR(64), kind VARCHAR(8) NOT NULL, name VARCHAR(64) NOT NULL,
    level VARCHAR(16), PRIMARY KEY (game_id, seat));
CREATE TABLE actions (game_id VARCHAR(32) NOT NULL REFERENCES games(id),
    "index" INTEGER NOT NULL, text VARCHAR(64) NOT NULL, seat INTEGER NOT NULL,
    time FLOAT NOT NULL, PRIMARY KEY (game_id, "index"));
"""


def test_a_database_from_before_the_keyed_deal_loads_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    seed = 123_456
    state = GameState.new(2, seed, deal=LEGACY)
    texts = []
    for _ in range(6):
        action = state.legal_actions()[-1]
        texts.append(str(action))
        state.apply(action)
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    settings = {"hotseat": False, "first_player": 0, "rules": {}}
    db.execute("INSERT INTO games VALUES ('old', ?, ?, ?, 0, 0, NULL, 0)",
               (seed, json.dumps(settings), len(texts)))
    db.executemany("INSERT INTO seats VALUES ('old', ?, ?, 'human', ?, NULL)",
                   [(0, "t0", "A"), (1, "t1", "B")])
    db.executemany('INSERT INTO actions VALUES (\'old\', ?, ?, 0, 0)', list(enumerate(texts)))
    db.commit()
    db.close()
    svc = GameService(Store(f"sqlite:///{path}"), bot_delay=0)
    try:
        game = svc.game("old")
        assert game.deal == LEGACY and game.snap.version == len(texts)
        assert game.snap.state.to_dict() == state.to_dict()
        assert svc.payloads.payload("old", 0)["deal_chosen"] is False
        # New games in the upgraded database get keyed secret deals.
        gid = svc.create([SeatSpec("human"), SeatSpec("human")])["game_id"]
        assert svc.store.load(gid).deal == KEYED  # type: ignore[union-attr]
    finally:
        svc.close()
