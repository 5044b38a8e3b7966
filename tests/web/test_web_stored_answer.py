"""An action that was stored is never answered with an error (issue "Counted right, refused
for the right reason", item 6): when the answer's payload (its live score pad, ...) cannot be
built, the sender is told what was stored and the new version, and the server logs one line."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient
from webutil import TWO_HUMANS, act, new_game, payload

from forest_shuffle.server.app import create_app
from forest_shuffle.server.payloads import Payloads
from forest_shuffle.server.service import GameService


def test_a_stored_action_whose_answer_fails_is_answered_with_what_was_stored(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0),
                    raise_server_exceptions=False) as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        before = payload(c, gid, None)
        seat = before["to_move"]
        mine = payload(c, gid, tokens[seat])
        action = mine["legal"][0]

        def broken(*_args: object, **_kw: object) -> object:
            raise IndexError("the score pad failed")

        monkeypatch.setattr(Payloads, "_base_payload", broken)
        with caplog.at_level(logging.ERROR):
            r = act(c, gid, tokens[seat], action, before["version"])
        assert r.status_code == 200, r.text
        assert r.json() == {"game_id": gid, "stored": action, "version": before["version"] + 1,
                            "payload": None}
        lines = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
        assert len(lines) == 1 and "\n" not in lines[0].getMessage()
        assert gid in lines[0].getMessage() and lines[0].exc_info is None
        monkeypatch.undo()
        after = payload(c, gid, None)
        assert after["version"] == before["version"] + 1
        # The same action again is stale: it was stored once.
        assert act(c, gid, tokens[seat], action, before["version"]).status_code == 409


def test_a_stored_action_whose_news_fails_is_answered_with_its_payload(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0),
                    raise_server_exceptions=False) as c:
        game = new_game(c, TWO_HUMANS, seed=4)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        before = payload(c, gid, None)
        seat = before["to_move"]
        action = payload(c, gid, tokens[seat])["legal"][0]

        def broken(*_args: object, **_kw: object) -> None:
            raise ConnectionError("the bus is down")

        monkeypatch.setattr(GameService, "_changed", broken)
        with caplog.at_level(logging.ERROR):
            r = act(c, gid, tokens[seat], action, before["version"])
        assert r.status_code == 200, r.text
        assert r.json()["version"] == before["version"] + 1
        lines = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
        assert len(lines) == 1 and gid in lines[0] and "the bus is down" in lines[0]
