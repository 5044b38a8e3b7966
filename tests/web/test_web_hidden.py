"""Hidden information on the wire: every payload a seat or a spectator receives over a
whole game with bots shows no card its viewer may not see (derived from the server-side
state at that payload's version)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect
from webutil import check_payload, client, head, new_game, server, visibility

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.server.store import Store


def test_no_hidden_card_reaches_a_seat_or_a_spectator() -> None:
    rng = random.Random(5)
    with client() as c:
        game = new_game(c, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "medium"},
                            {"kind": "bot", "level": "easy"}, {"kind": "human", "name": "Dan"}],
                        seed=2024)
        gid = game["game_id"]
        tok0, tok3 = game["seats"][0]["token"], game["seats"][3]["token"]
        # one character off (a token starting with "x" made "x..." the real one, 1 in 64)
        wrong = ("y" if tok3[0] == "x" else "x") + tok3[1:]
        got: dict[int | None, list[dict[str, Any]]] = {0: [], 3: [], None: []}
        raw0: list[str] = []
        with c.websocket_connect(f"/api/games/{gid}/ws?token={tok0}") as ws0, \
                c.websocket_connect(f"/api/games/{gid}/ws") as spectator:
            acted = -1
            while True:
                text = ws0.receive_text()
                raw0.append(text)
                msg = json.loads(text)
                assert msg["type"] == "state", msg
                p = msg["payload"]
                got[0].append(p)
                if p["over"]:
                    break
                if p["to_move"] == 0 and p["version"] > acted:
                    acted = p["version"]
                    ws0.send_json({"type": "action", "action": rng.choice(p["legal"]),
                                   "version": p["version"]})
                elif p["to_move"] == 3:
                    p3 = c.get(f"/api/games/{gid}", headers=head(tok3)).json()
                    got[3].append(p3)
                    if p3["to_move"] == 3:
                        r = c.post(f"/api/games/{gid}/actions", headers=head(tok3),
                                   json={"action": rng.choice(p3["legal"]),
                                         "version": p3["version"]})
                        assert r.status_code in (200, 409), r.text
                        if r.status_code == 200:
                            got[3].append(r.json())
                if len(got[0]) % 25 == 0:  # a wrong token sees what a spectator sees
                    got[None].append(c.get(f"/api/games/{gid}",
                                           headers=head(wrong)).json())
            while True:
                p = spectator.receive_json()["payload"]
                got[None].append(p)
                if p["over"]:
                    break
        whole0 = c.get(f"/api/games/{gid}?log_from=0", headers=head(tok0)).json()["log"]
        service = c.app.state.service  # type: ignore[attr-defined]
        texts = service.actions(gid)
        state = service.game(gid).snap.state
    assert state.over and len(texts) > 100
    # the socket sends the log as increments: each entry once, so each is checked below
    assert [e for p in got[0] for e in p["log"]] == whole0
    for viewer, payloads in got.items():
        assert payloads
        hidden, seen = visibility(2024, 4, texts, viewer)
        for p in payloads:
            assert p["you"] == viewer
            check_payload(p, hidden, seen)
    # Seat 0 never receives another seat's token or the seed.
    assert all(tok3 not in t for t in raw0)
    # Its hand is the server's hand at that version.
    first = got[0][0]
    at = GameState.new(4, 2024)
    for text in texts[:first["version"]]:
        at.apply(Action.parse(text))
    assert sorted(first["view"]["hand"]) == sorted(at.hands[0])
    assert got[0][-1]["scores"] is not None and got[None][-1]["winners"]


def test_the_spectator_view_of_a_payload_hides_every_hand() -> None:
    with client() as c:
        game = new_game(c, [{"kind": "human"}, {"kind": "human"}], seed=9)
        gid = game["game_id"]
        spectator = c.get(f"/api/games/{gid}").json()
        seat0 = c.get(f"/api/games/{gid}", headers=head(game["seats"][0]["token"])).json()
    assert spectator["you"] is None and spectator["view"]["hand"] == []
    assert spectator["legal"] == [] and spectator["pay"] is None
    assert seat0["you"] == 0 and len(seat0["view"]["hand"]) == 6
    hidden, seen = visibility(9, 2, [], None)
    check_payload(spectator, hidden, seen)
    assert set(spectator["view"]) == set(seat0["view"])


def test_the_check_catches_a_leak() -> None:
    with client() as c:
        game = new_game(c, [{"kind": "human"}, {"kind": "human"}], seed=9)
        gid = game["game_id"]
        p = c.get(f"/api/games/{gid}", headers={"X-Seat-Token": game["seats"][0]["token"]}
                  ).json()
    hidden, seen = visibility(9, 2, [], 0)
    check_payload(p, hidden, seen)
    other = sorted(GameState.new(2, 9).hands[1])[0]
    leaky = json.loads(json.dumps(p))
    leaky["view"]["clearing"].append(other)
    with pytest.raises(AssertionError):
        check_payload(leaky, hidden, seen)
    leaky = json.loads(json.dumps(p))
    leaky["log"].append({"seat": 1, "text": f"Player 2 draws card {other}.", "cards": []})
    with pytest.raises(AssertionError):
        check_payload(leaky, hidden, seen)
    leaky = json.loads(json.dumps(p))
    leaky["log"].append({"seat": 1, "text": "Player 2 draws a card.", "cards": [other]})
    with pytest.raises(AssertionError):
        check_payload(leaky, hidden, seen)
    leaky = json.loads(json.dumps(p))
    leaky["legal"].append(f"take {other}")
    with pytest.raises(AssertionError):
        check_payload(leaky, hidden, seen)


def test_no_hidden_card_on_a_real_socket(tmp_path: Path) -> None:
    """The same check over TCP: uvicorn in its own process, a WebSocket client."""
    url = f"sqlite:///{tmp_path / 'wire.sqlite3'}"
    rng = random.Random(8)
    frames: list[str] = []
    with server(url) as (_proc, base):
        game = httpx.post(base + "/api/games", json={
            "seed": 31, "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"},
                                  {"kind": "bot", "level": "easy"}]}).json()
        gid, tok = game["game_id"], game["seats"][0]["token"]
        ws_url = base.replace("http", "ws", 1) + f"/api/games/{gid}/ws?token={tok}"
        with connect(ws_url, open_timeout=10, ping_interval=None, max_size=2**24) as ws:
            acted = -1
            while True:
                text = str(ws.recv(timeout=30))
                frames.append(text)
                p = json.loads(text)["payload"]
                if p["over"]:
                    break
                if p["to_move"] == 0 and p["version"] > acted:
                    acted = p["version"]
                    ws.send(json.dumps({"type": "action", "action": rng.choice(p["legal"]),
                                        "version": p["version"]}))
        whole = httpx.get(base + f"/api/games/{gid}", headers=head(tok)).json()["log"]
    # log increments: every entry came once, in one of the frames checked below
    assert [e for text in frames for e in json.loads(text)["payload"]["log"]] == whole
    row = Store(url).load(gid)
    assert row is not None and row.over
    hidden, seen = visibility(31, 3, list(row.actions), 0)
    for text in frames:
        check_payload(json.loads(text)["payload"], hidden, seen)
    assert len(frames) > 50
