"""The game log is sent as increments: each payload carries ``log_from``, ``log`` (the
entries from that index on, in its viewer's words) and ``log_total``; a socket is sent each
entry once, a reconnecting client catches up from the count it holds, REST and the action
answer take ``?log_from=N``, and the entries a client holds never change."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webutil import TWO_HUMANS, client, head, new_game, one_line_error

from forest_shuffle.server.service import LogEntry


def get(c: TestClient, gid: str, token: str | None, log_from: object = None) -> Any:
    q = "" if log_from is None else f"?log_from={log_from}"
    return c.get(f"/api/games/{gid}{q}", headers=head(token))


def full_log(c: TestClient, gid: str, token: str | None) -> list[dict[str, Any]]:
    r = get(c, gid, token, 0)
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["log_from"] == 0 and len(p["log"]) == p["log_total"]
    return list(p["log"])


def take(held: list[dict[str, Any]], p: dict[str, Any]) -> None:
    """Add a payload's increment to the entries a client holds, checking it is one."""
    assert p["log_from"] <= len(held), "a gap in the log"
    assert len(p["log"]) == p["log_total"] - p["log_from"]
    assert held[p["log_from"]:] == p["log"][:len(held) - p["log_from"]], "an entry changed"
    held.extend(p["log"][len(held) - p["log_from"]:])


def play(c: TestClient, gid: str, tokens: dict[int, str], steps: int, rng: random.Random,
         held: dict[int, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """``steps`` random actions over REST by whoever is to move; with ``held``, each action
    answer is asked for the increment after the entries its seat holds."""
    p: dict[str, Any] = {}
    for _ in range(steps):
        p = get(c, gid, tokens[0]).json()
        if p["over"]:
            break
        seat = p["to_move"]
        mine = get(c, gid, tokens[seat]).json()
        q = "" if held is None else f"?log_from={len(held[seat])}"
        r = c.post(f"/api/games/{gid}/actions{q}", headers=head(tokens[seat]),
                   json={"action": rng.choice(mine["legal"]), "version": mine["version"]})
        assert r.status_code == 200, r.text
        p = r.json()
        if held is not None:
            take(held[seat], p)
    return p


def test_a_socket_is_sent_each_log_entry_once_over_a_whole_game() -> None:
    rng = random.Random(4)
    with client() as c:
        game = new_game(c, [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                            {"kind": "bot"}, {"kind": "bot", "level": "medium"}], seed=2)
        gid, tok = game["game_id"], game["seats"][0]["token"]
        frames: dict[int | None, list[str]] = {0: [], None: []}
        with c.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws, \
                c.websocket_connect(f"/api/games/{gid}/ws") as spectator:
            acted = -1
            while True:
                text = ws.receive_text()
                frames[0].append(text)
                p = json.loads(text)["payload"]
                if p["over"]:
                    break
                if p["to_move"] == 0 and p["version"] > acted:  # over REST: the socket
                    acted = p["version"]  # only listens
                    r = c.post(f"/api/games/{gid}/actions", headers=head(tok),
                               json={"action": rng.choice(p["legal"]),
                                     "version": p["version"]})
                    assert r.status_code == 200, r.text
            while True:
                text = spectator.receive_text()
                frames[None].append(text)
                if json.loads(text)["payload"]["over"]:
                    break
        whole = {viewer: full_log(c, gid, tok if viewer == 0 else None) for viewer in frames}
    assert len(whole[0]) > 300 and len(frames[0]) > 50
    for viewer, texts in frames.items():
        held: list[dict[str, Any]] = []
        sent = 0  # bytes of the messages as sent
        old = 0  # bytes had every message carried the whole log
        entry_bytes = 0
        for text in texts:
            p = json.loads(text)["payload"]
            # only new entries: each message starts where the one before ended
            assert p["log_from"] == len(held), (viewer, p["version"])
            take(held, p)
            sent += len(text.encode())
            log_bytes = len(json.dumps(p["log"], separators=(",", ":")).encode())
            whole_bytes = len(json.dumps(held, separators=(",", ":")).encode())
            old += len(text.encode()) - log_bytes + whole_bytes
            entry_bytes += sum(len(json.dumps(e, separators=(",", ":"))) for e in p["log"])
        assert held == whole[viewer]
        # linear in the log: every entry crossed the wire exactly once
        assert entry_bytes == sum(len(json.dumps(e, separators=(",", ":")))
                                  for e in whole[viewer])
        if viewer == 0:  # (a spectator's socket may be paced: fewer, bigger messages)
            assert sent * 3 < old, (viewer, sent, old)


def test_a_reconnecting_socket_gets_exactly_the_missing_entries() -> None:
    rng = random.Random(1)
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        with c.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
            first = ws.receive_json()["payload"]
        assert first["log_from"] == 0 and len(first["log"]) == first["log_total"] > 0
        held = list(first["log"])
        play(c, gid, tokens, 12, rng)
        whole = full_log(c, gid, tokens[0])
        assert len(whole) > len(held)
        url = f"/api/games/{gid}/ws?token={tokens[0]}&log_from={len(held)}"
        with c.websocket_connect(url) as ws:
            p = ws.receive_json()["payload"]
            assert p["log_from"] == len(held) and p["log_total"] == len(whole)
            assert p["log"] == whole[len(held):]
            take(held, p)
            assert held == whole
            # and from then on only what is new
            other = get(c, gid, tokens[p["to_move"]]).json()
            r = c.post(f"/api/games/{gid}/actions", headers=head(tokens[p["to_move"]]),
                       json={"action": other["legal"][0], "version": other["version"]})
            assert r.status_code == 200, r.text
            nxt = ws.receive_json()["payload"]
            while nxt["version"] < r.json()["version"]:
                take(held, nxt)
                nxt = ws.receive_json()["payload"]
            assert nxt["log_from"] == len(held)
            take(held, nxt)
        assert held == full_log(c, gid, tokens[0])
        # a client holding everything gets an empty log
        with c.websocket_connect(f"/api/games/{gid}/ws?log_from={len(held)}") as ws:
            p = ws.receive_json()["payload"]
        assert p["log"] == [] and p["log_from"] == p["log_total"] == len(held)


def test_increments_add_up_to_each_viewers_own_log() -> None:
    rng = random.Random(6)
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=8)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        viewers: dict[int | None, str | None] = {0: tokens[0], 1: tokens[1], None: None}
        held: dict[Any, list[dict[str, Any]]] = {v: [] for v in viewers}
        for _ in range(8):
            play(c, gid, tokens, 5, rng, held)
            for viewer, tok in viewers.items():  # REST polling from the count held
                r = get(c, gid, tok, len(held[viewer]))
                assert r.status_code == 200, r.text
                take(held[viewer], r.json())
        whole = {v: full_log(c, gid, tok) for v, tok in viewers.items()}
    for viewer in viewers:
        assert held[viewer] == whole[viewer], viewer
    # per viewer: the same entries, a seat's own ones in its private words
    assert len(whole[0]) == len(whole[1]) == len(whole[None])
    assert whole[0] != whole[None] and whole[1] != whole[None]
    assert [e["seat"] for e in whole[0]] == [e["seat"] for e in whole[None]]


def test_rest_log_from_and_its_refusals() -> None:
    rng = random.Random(2)
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=5)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        play(c, gid, tokens, 6, rng)
        whole = full_log(c, gid, tokens[0])
        total = len(whole)
        default = get(c, gid, tokens[0]).json()  # no log_from: the whole log
        assert default["log_from"] == 0 and default["log"] == whole
        for n in (0, 1, 3, total - 1, total):
            p = get(c, gid, tokens[0], n).json()
            assert (p["log_from"], p["log_total"], p["log"]) == (n, total, whole[n:])
        for bad in ("-1", "abc", "1.5", "1e3", "", "+1", " 1", "%C2%B2", "%D9%A1",
                    "9" * 30, str(total + 1), "99999999"):
            msg = one_line_error(get(c, gid, tokens[0], bad), 400)
            assert "log_from" in msg, (bad, msg)
        one_line_error(get(c, "nosuch", None, 4), 404)  # the game is checked first
        # the action answer: the increment after the count given; a bad count changes nothing
        p = get(c, gid, tokens[0]).json()
        seat = p["to_move"]
        mine = get(c, gid, tokens[seat]).json()
        body = {"action": mine["legal"][0], "version": mine["version"]}
        for bad in ("-1", "x", str(total + 1)):
            r = c.post(f"/api/games/{gid}/actions?log_from={bad}", headers=head(tokens[seat]),
                       json=body)
            assert "log_from" in one_line_error(r, 400)
        assert get(c, gid, None).json()["version"] == mine["version"]
        r = c.post(f"/api/games/{gid}/actions?log_from={total}", headers=head(tokens[seat]),
                   json=body)
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["log_from"] == total and answer["log"] == full_log(
            c, gid, tokens[seat])[total:] != []
        # a socket with a bad count gets one error line and is closed (4400)
        for bad in ("-2", "x", str(answer["log_total"] + 1)):
            with c.websocket_connect(f"/api/games/{gid}/ws?log_from={bad}") as ws:
                err = ws.receive_json()
                assert err["type"] == "error" and err["status"] == 400
                assert "log_from" in err["error"] and "\n" not in err["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4400


def test_entries_held_by_a_client_never_change(tmp_path: Path) -> None:
    """Entries are frozen and only appended; a game loaded again (a restart, or taken out of
    memory) narrates the very same entries, so an increment fits what a client holds."""
    entry = LogEntry(0, "Ann draws a card.", "Ann draws card 5 (Oak).")
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.text = "changed"  # type: ignore[misc]
    url = f"sqlite:///{tmp_path / 'log.sqlite3'}"
    rng = random.Random(9)
    with client(url) as c:
        game = new_game(c, TWO_HUMANS, seed=12)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        play(c, gid, tokens, 15, rng)
        viewers = {0: tokens[0], 1: tokens[1], None: None}
        before = {v: full_log(c, gid, tok) for v, tok in viewers.items()}
        tail = len(before[0])
        play(c, gid, tokens, 10, rng)
        grown = full_log(c, gid, tokens[0])
        assert grown[:tail] == before[0] and len(grown) > tail
    with client(url) as c:  # the server starts again: the game is replayed
        for v, held in before.items():
            assert full_log(c, gid, viewers[v])[:len(held)] == held, v
        p = get(c, gid, tokens[0], tail).json()
        assert p["log"] == grown[tail:]
