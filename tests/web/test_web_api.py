"""The JSON API: creation, payloads, actions and their refusals, rematch, cards, the page."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from webutil import (
    CATALOG,
    TWO_HUMANS,
    act,
    check_payload,
    head,
    new_game,
    one_line_error,
    payload,
    play_out,
    visibility,
)

from forest_shuffle.server import schemas
from forest_shuffle.text.narration import bonus_symbol, card_of


def test_cards_and_levels(c: TestClient) -> None:
    cards = c.get("/api/cards").json()
    assert len(cards["cards"]) == 161
    split = cards["cards"]["71"]
    assert split["kind"] == "split" and set(split["symbols"]) == set(split["halves"])
    assert cards["cards"]["1"]["symbols"] == {"tree": cards["cards"]["1"]["symbol"]}
    assert {c.kind for c in CATALOG.cards if c is not None} == {
        v["kind"] for v in cards["cards"].values()}
    red_fox = cards["species"]["Red Fox"]
    assert red_fox["cost"] >= 0 and red_fox["text"] and red_fox["short"]
    assert red_fox["points_short"] and red_fox["points_short"] in red_fox["short"]
    levels = c.get("/api/levels").json()
    assert [lv["level"] for lv in levels] == ["easy", "medium", "hard", "expert"]
    assert all(lv["words"].startswith(lv["level"]) for lv in levels)


def test_create_returns_human_tokens_only(c: TestClient) -> None:
    game = new_game(c, [{"kind": "human", "name": "  Ann  Lee "}, {"kind": "bot",
                                                                  "level": "hard"}])
    ann, bot = game["seats"]
    assert ann["name"] == "Ann Lee" and len(ann["token"]) == 32
    assert ann["link"] == f"/game/{game['game_id']}?token={ann['token']}"
    assert bot["token"] is None and bot["link"] is None and bot["level"] == "hard"
    assert game["spectate"] == f"/game/{game['game_id']}"


@pytest.mark.parametrize(("seats", "words"), [
    ([{"kind": "human"}], "2 to 5 seats"),
    ([{"kind": "human"}] * 6, "2 to 5 seats"),
    ([], "2 to 5 seats"),
    ([{"kind": "human"}, {"kind": "bot", "level": "grandmaster"}], "unknown level"),
    ([{"kind": "human"}, {"kind": "robot"}], "kind"),
    ([{"kind": "human", "level": "easy"}, {"kind": "bot"}], "no level"),
    ([{"kind": "human", "name": "x" * 41}, {"kind": "bot"}], "at most 40"),
    ("two", "seats"),
])
def test_bad_seat_configurations(c: TestClient, seats: Any, words: str) -> None:
    r = c.post("/api/games", json={"seats": seats})
    assert words in one_line_error(r, 400)


def test_bad_bodies(c: TestClient) -> None:
    assert "seed" in one_line_error(
        c.post("/api/games", json={"seats": TWO_HUMANS, "seed": -1}), 400)
    assert "JSON" in one_line_error(
        c.post("/api/games", content=b"{", headers={"content-type": "application/json"}), 400)
    assert one_line_error(c.post("/api/games", content=b"[]",
                                 headers={"content-type": "application/json"}), 400)


def test_refusals_change_nothing(c: TestClient) -> None:
    game = new_game(c, TWO_HUMANS + [{"kind": "human"}], seed=3)
    gid = game["game_id"]
    t0, t1 = game["seats"][0]["token"], game["seats"][1]["token"]
    before = payload(c, gid, t0)
    assert before["to_move"] == 0 and before["legal"]
    v = before["version"]
    assert "no game" in one_line_error(act(c, "nosuchgame", t0, "draw", 0), 404)
    assert one_line_error(c.get("/api/games/nosuchgame"), 404)
    assert "not an action" in one_line_error(act(c, gid, t0, "dance 3", v), 400)
    assert "not an action" in one_line_error(act(c, gid, t0, "take x", v), 400)
    assert one_line_error(act(c, gid, t0, 17, v), 400)
    assert one_line_error(act(c, gid, t0, "draw", "seven"), 400)
    assert one_line_error(act(c, gid, t0, "draw", True), 400)
    assert one_line_error(act(c, gid, t0, "draw", 1.5), 400)
    assert one_line_error(act(c, gid, t0, "x" * 500, v), 400)
    assert len(one_line_error(c.get("/api/games/" + "x" * 5000), 404)) < 80
    assert "spectator" in one_line_error(act(c, gid, None, "draw", v), 403)
    assert "spectator" in one_line_error(act(c, gid, "not-a-token", "draw", v), 403)
    assert "not your decision" in one_line_error(act(c, gid, t1, "draw", v), 403)
    assert "stale" in one_line_error(act(c, gid, t0, "draw", v + 1), 409)
    assert "not in the clearing" in one_line_error(act(c, gid, t0, "take 5", v), 400)
    # a card of the other hand: the reason names only that it is not in this hand
    other = payload(c, gid, t1)["view"]["hand"][0]
    msg = one_line_error(act(c, gid, t0, f"play {other}", v), 400)
    assert "not in" in msg
    after = payload(c, gid, t0)
    assert after == before
    # the token may also come in the query
    ok = c.post(f"/api/games/{gid}/actions?token={t0}",
                json={"action": before["legal"][0], "version": v})
    assert ok.status_code == 200 and ok.json()["version"] == v + 1
    assert "stale" in one_line_error(act(c, gid, t0, before["legal"][0], v), 409)


def play_to_end(c: TestClient, gid: str, tokens: dict[int, str],
                seed: int = 0) -> tuple[dict[str, Any], int]:
    """Random legal actions for the human seats until the game is over; the last payload
    and how many pay hints were checked."""
    pays = 0

    def check(p: dict[str, Any]) -> None:
        nonlocal pays
        assert len(p["legal"]) == len(p["legal_words"]) and p["prompt"]
        if p["decision"] == "pay":
            hint = p["pay"]
            pend = p["view"]["pending"]
            assert hint is not None and hint["card"] == pend["card"]
            paying = [int(a.split()[1]) for a in p["legal"]]
            assert set(paying) <= set(hint["payable"]) <= set(p["view"]["hand"])
            assert set(hint["keeps_bonus"]) <= set(hint["payable"])
            if hint["bonus_possible"]:
                assert all(hint["symbol"] in card_of(k, CATALOG).symbols
                           for k in hint["keeps_bonus"])
                assert all(hint["symbol"] in card_of(k, CATALOG).symbols for k in pend["paid"])
            else:
                assert hint["keeps_bonus"] == []
            if pays == 0:
                schemas.Payload.model_validate(p)
            pays += 1
        else:
            assert p["pay"] is None

    last = play_out(c, gid, tokens, check, seed)
    schemas.Payload.model_validate(last)
    return last, pays


def test_hotseat_game_to_the_end_then_rematch(c: TestClient) -> None:
    game = new_game(c, TWO_HUMANS, seed=11, hotseat=True)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    last, pays = play_to_end(c, gid, tokens)
    assert pays > 0
    assert last["over"] and last["hotseat"] and last["rematch"] is None
    scores = last["scores"]
    assert [s["seat"] for s in scores] == [0, 1]
    for s in scores:
        assert set(s["lines"]) == {"trees", "top_bottom", "left_right", "cave"}
        assert sum(s["lines"].values()) == s["total"]
        assert sum(cp["points"] for cp in s["cards"]) == s["total"]
        assert all(cp["why"] for cp in s["cards"])
    best = max(s["total"] for s in scores)
    assert last["winners"] == [s["seat"] for s in scores if s["total"] == best]
    assert "game is over" in last["log"][-1]["text"]
    named = [line for line in last["log"] if line["cards"]]
    assert named and all(f"card {k}" in line["text"] for line in named for k in line["cards"])
    hidden, seen = visibility(11, 2, c.app.state.service.actions(gid), last["you"])  # type: ignore
    check_payload(last, hidden, seen)
    assert "over" in one_line_error(act(c, gid, tokens[0], "draw", last["version"]), 400)
    # rematch: spectators may not, seats may; asking twice gives the same game
    assert one_line_error(c.post(f"/api/games/{gid}/rematch"), 403)
    assert one_line_error(c.get(f"/api/games/{gid}/rematch", headers=head(tokens[0])), 404)
    r1 = c.post(f"/api/games/{gid}/rematch", headers=head(tokens[1])).json()
    r2 = c.post(f"/api/games/{gid}/rematch", headers=head(tokens[0])).json()
    assert r1["game_id"] == r2["game_id"] != gid
    assert all(s["token"] for s in r1["seats"])  # hot-seat: every human token
    assert [s["name"] for s in r1["seats"]] == ["Ann", "Bob"]
    assert payload(c, gid, None)["rematch"] == r1["game_id"]
    mine = c.get(f"/api/games/{gid}/rematch", headers=head(tokens[1])).json()
    assert mine["seat"] == 1 and mine["token"] == r1["seats"][1]["token"]
    fresh = payload(c, r1["game_id"], mine["token"])
    assert fresh["you"] == 1 and not fresh["over"]
    assert fresh["view"]["current"] == 1  # the next seat starts the rematch


def test_rematch_of_an_invite_game_gives_only_your_token(c: TestClient) -> None:
    game = new_game(c, [{"kind": "human"}, {"kind": "bot", "level": "medium"}], seed=4)
    gid = game["game_id"]
    tok = game["seats"][0]["token"]
    assert "not over" in one_line_error(c.post(f"/api/games/{gid}/rematch",
                                               headers=head(tok)), 400)
    last, _ = play_to_end(c, gid, {0: tok}, seed=4)
    assert last["seats"][1]["connected"] is True  # bots count as connected
    new = c.post(f"/api/games/{gid}/rematch", headers=head(tok)).json()
    assert new["seats"][0]["token"] and new["seats"][1]["token"] is None
    assert new["seats"][1]["level"] == "medium"


def test_websocket_actions_and_errors(c: TestClient) -> None:
    game = new_game(c, TWO_HUMANS, seed=5)
    gid = game["game_id"]
    t0 = game["seats"][0]["token"]
    with c.websocket_connect(f"/api/games/{gid}/ws?token={t0}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["payload"]["you"] == 0
        assert first["payload"]["seats"][0]["connected"] is True
        assert first["payload"]["seats"][1]["connected"] is False
        v = first["payload"]["version"]
        ws.send_text("not json")
        assert ws.receive_json() == {"type": "error", "error": "the message is not valid JSON",
                                     "status": 400}
        ws.send_json({"type": "action", "action": "draw", "version": v + 5})
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 409
        ws.send_json({"type": "action", "action": "fly", "version": v})
        assert ws.receive_json()["status"] == 400
        ws.send_bytes(b"\xff")
        assert ws.receive_json()["status"] == 400
        ws.send_json([1, 2])
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "action", "action": first["payload"]["legal"][0], "version": v})
        nxt = ws.receive_json()
        assert nxt["type"] == "state" and nxt["payload"]["version"] == v + 1
    with c.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        p = spectator.receive_json()["payload"]
        assert p["you"] is None and p["version"] == v + 1
        spectator.send_json({"type": "action", "action": "draw", "version": v + 1})
        assert spectator.receive_json()["status"] == 403
    with c.websocket_connect("/api/games/nosuch/ws") as ws:
        assert ws.receive_json()["status"] == 404


def test_answers_match_their_documented_models(c: TestClient) -> None:
    schemas.Catalog.model_validate(c.get("/api/cards").json())
    game = new_game(c, [{"kind": "human"}, {"kind": "bot"}], seed=2)
    schemas.Created.model_validate(game)
    for token in (game["seats"][0]["token"], None):
        p = payload(c, game["game_id"], token)
        assert set(p) == set(schemas.Payload.model_fields)
        schemas.Payload.model_validate(p)
    schemas.ErrorOut.model_validate(c.get("/api/games/nosuch").json())


def test_openapi_and_the_page(c: TestClient) -> None:
    spec = c.get("/openapi.json").json()
    assert "422" not in str(spec["paths"])
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions",
                 "/api/games/{game_id}/rematch", "/api/cards", "/api/levels"):
        assert path in spec["paths"]
    assert c.get("/docs").status_code == 200
    for path in ("/", "/game/abc123"):
        r = c.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert one_line_error(c.get("/api/no/such/route"), 404)


def test_pay_hint_names_the_bonus_symbol() -> None:
    from forest_shuffle.engine.view import PendingView

    # the hint's symbol is the one the terminal uses
    pend = PendingView(kind="pay", player=0, card=71, side="left")
    assert bonus_symbol(pend, CATALOG) == card_of(71, CATALOG).halves["left"].symbol
