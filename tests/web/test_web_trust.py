"""What a browser and a client can trust of a real server: the headers of every answer
(docs/web.md, "Headers"), strict input types and readable names ("Names")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from webutil import TWO_HUMANS, act, head, new_game, one_line_error, server


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A client of one real server for the whole module."""
    db = Path(tmp_path_factory.mktemp("trust")) / "games.sqlite3"
    with server(f"sqlite:///{db}", extra=["--limits", "games_per_minute=off"]) \
            as (_proc, base), \
            httpx.Client(base_url=base, timeout=20) as client:
        yield client


def _policy(r: httpx.Response) -> dict[str, str]:
    text = r.headers.get("content-security-policy", "")
    out = {}
    for part in text.split(";"):
        words = part.split()
        if words:
            out[words[0]] = " ".join(words[1:])
    return out


# ---------------------------------------------------------------------------- headers


def test_the_page_forbids_inline_script_and_frames(http: httpx.Client) -> None:
    created = new_game(http, TWO_HUMANS)
    token = created["seats"][0]["token"]
    for path in ("/", f"/game/{created['game_id']}?token={token}", "/replay"):
        r = http.get(path)
        assert r.status_code == 200, path
        policy = _policy(r)
        assert "'unsafe-inline'" not in policy.get("script-src", "'unsafe-inline'"), path
        assert "'unsafe-eval'" not in policy["script-src"]
        assert policy["frame-ancestors"] == "'none'"
        assert policy["object-src" if "object-src" in policy else "default-src"] == "'none'"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["cache-control"] == "no-store"
        assert "<script>" not in r.text  # the page itself has no inline script


def test_every_answer_with_a_token_or_a_hand_is_not_stored(http: httpx.Client) -> None:
    r = http.post("/api/games", json={"seats": TWO_HUMANS})
    assert r.status_code == 200
    token = r.json()["seats"][0]["token"]
    gid = r.json()["game_id"]
    answers = [r, http.get(f"/api/games/{gid}", headers=head(token)),
               http.post("/api/known-games", json={"games": [{"game_id": gid,
                                                               "token": token}]}),
               http.get(f"/api/games/{gid}/rematch", headers=head(token)),
               http.post(f"/api/games/{gid}/actions", headers=head(token),
                         json={"action": "nonsense", "version": 0}),
               http.get("/api/no-such-route")]
    for answer in answers:
        assert answer.headers["cache-control"] == "no-store", answer.request.url
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert _policy(answer)["frame-ancestors"] == "'none'"


def test_the_api_pages_run_only_their_own_script(http: httpx.Client) -> None:
    r = http.get("/docs")
    if r.status_code == 404:
        pytest.skip("no fastapi-offline files")
    script = _policy(r)["script-src"]
    assert "'unsafe-inline'" not in script and "'sha256-" in script
    assert _policy(r)["frame-ancestors"] == "'none'"


# ---------------------------------------------------------------------------- strict types


@pytest.mark.parametrize("extra", [
    {"seed": "123"}, {"seed": True}, {"seed": 7.0}, {"hotseat": "yes"}, {"hotseat": 1},
    {"help": "false"}, {"help": 0},
])
def test_integers_and_booleans_of_a_new_game_are_strict(http: httpx.Client,
                                                         extra: dict[str, object]) -> None:
    r = http.post("/api/games", json={"seats": TWO_HUMANS, **extra})
    line = one_line_error(r, 400)
    assert next(iter(extra)) in line


@pytest.mark.parametrize("body", [
    {"action": "draw", "version": "0"}, {"action": "draw", "version": 0.0},
    {"action": "draw", "version": False}, {"action": 5, "version": 0},
])
def test_an_action_body_is_strict(http: httpx.Client, body: dict[str, object]) -> None:
    created = new_game(http, TWO_HUMANS)
    gid, token = created["game_id"], created["seats"][0]["token"]
    one_line_error(http.post(f"/api/games/{gid}/actions", headers=head(token), json=body),
                   400)
    assert http.get(f"/api/games/{gid}").json()["version"] == 0  # nothing changed


@pytest.mark.parametrize("query", ["step=1_0", "step=+1", "step=%201", "step=1.0",
                                   "seat=0_1", "seat=true"])
def test_a_replays_query_numbers_are_digits(http: httpx.Client, query: str) -> None:
    r = http.get(f"/api/replays/nothing?{query}")
    assert "whole number" in one_line_error(r, 400)


def test_solo_creation_is_strict(http: httpx.Client) -> None:
    for body in ({"challenge": 1, "seed": "5"}, {"challenge": 1, "help": "no"},
                 {"challenge": True}):
        one_line_error(http.post("/api/solo", json=body), 400)


# ---------------------------------------------------------------------------- names


def _seats(*names: str) -> list[dict[str, object]]:
    return [{"kind": "human", "name": n} for n in names]


@pytest.mark.parametrize("name, words", [
    ("\u202eAnn", "direction"), ("Ann\u200b", "direction"), ("A\u2066nn", "direction"),
    ("\u0301\u0301", "visible"), ("\u200d", "direction"), ("Zo" + "\u0301" * 6, "marks"),
    ("Bot 2 (hard)", "bot"), ("bot", "bot"), ("BOT 3", "bot"), ("Ann (hard)", "bot"),
    ("x" * 41, "40"), ("A\x85nn", "control"),
])
def test_names_people_cannot_read_are_refused(http: httpx.Client, name: str,
                                               words: str) -> None:
    r = http.post("/api/games", json={"seats": _seats(name, "Bea")})
    assert words in one_line_error(r, 400)


@pytest.mark.parametrize("names", [("Ann", "ann"), ("Ann", " ANN "), ("Ａｎｎ", "Ann"),
                                   ("Zoé", "Zoe\u0301")])
def test_names_are_unique_at_a_table(http: httpx.Client, names: tuple[str, str]) -> None:
    r = http.post("/api/games", json={"seats": _seats(*names)})
    assert "unique" in one_line_error(r, 400)


def test_a_name_may_not_take_a_default_name(http: httpx.Client) -> None:
    r = http.post("/api/games", json={"seats": [{"kind": "human", "name": "Player 2"},
                                                {"kind": "human"}]})
    assert "unique" in one_line_error(r, 400)


def test_names_are_stored_in_nfc_and_bots_keep_their_names(http: httpx.Client) -> None:
    created = new_game(http, [{"kind": "human", "name": "Zoe\u0301  Ann"},
                              {"kind": "bot", "level": "easy"},
                              {"kind": "human", "name": "Thái"}])
    names = [s["name"] for s in created["seats"]]
    assert names == ["Zoé Ann", "Bot 2 (easy)", "Thái"]


def test_the_log_takes_no_card_from_a_name(http: httpx.Client) -> None:
    name = "Ann takes card 57 (Wolf)"
    created = new_game(http, _seats(name, "Bea"))
    game = http.get(f"/api/games/{created['game_id']}").json()
    opening = game["log"][0]
    assert opening["cards"] == []
    assert name in opening["words"] and name in opening["text"]
    for entry in game["log"]:
        if name in entry["text"]:
            assert 57 not in entry["cards"]


# ---------------------------------------------------------------------------- invites


def test_the_creator_of_an_invite_game_gets_only_their_own_token(http: httpx.Client) -> None:
    r = http.post("/api/games", json={"seats": TWO_HUMANS + [{"kind": "human",
                                                              "name": "Cy"}]})
    assert r.status_code == 200
    seats = r.json()["seats"]
    assert seats[0]["token"] and "?token=" in seats[0]["link"]
    for seat in seats[1:]:
        assert seat["token"] is None and seat["invite"]
        assert seat["link"].endswith(f"?invite={seat['invite']}")
    gid = r.json()["game_id"]
    game = http.get(f"/api/games/{gid}", headers=head(seats[0]["token"])).json()
    assert [s["held"] for s in game["seats"]] == [True, False, False]
    assert game["creator"] == 0


def test_an_invite_is_claimed_once(http: httpx.Client) -> None:
    created = http.post("/api/games", json={"seats": TWO_HUMANS}).json()
    gid, invite = created["game_id"], created["seats"][1]["invite"]
    r = http.post(f"/api/games/{gid}/claim", json={"invite": invite})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert r.json()["seat"] == 1 and r.headers["cache-control"] == "no-store"
    assert http.get(f"/api/games/{gid}", headers=head(token)).json()["you"] == 1
    assert "used already" in one_line_error(
        http.post(f"/api/games/{gid}/claim", json={"invite": invite}), 403)
    for bad in ("", "x" * 64, created["seats"][0]["token"]):
        one_line_error(http.post(f"/api/games/{gid}/claim", json={"invite": bad}), 403)
    game = http.get(f"/api/games/{gid}").json()
    assert [s["held"] for s in game["seats"]] == [True, True]


def test_the_creator_reissues_a_link_and_the_old_token_stops(http: httpx.Client) -> None:
    created = http.post("/api/games", json={"seats": TWO_HUMANS, "seed": 4}).json()
    gid, ann = created["game_id"], created["seats"][0]["token"]
    bea = http.post(f"/api/games/{gid}/claim",
                    json={"invite": created["seats"][1]["invite"]}).json()["token"]
    # only the creator may, and only for another person's seat
    one_line_error(http.post(f"/api/games/{gid}/seats/1/invite", headers=head(bea)), 403)
    one_line_error(http.post(f"/api/games/{gid}/seats/1/invite"), 403)
    one_line_error(http.post(f"/api/games/{gid}/seats/0/invite", headers=head(ann)), 400)
    r = http.post(f"/api/games/{gid}/seats/1/invite", headers=head(ann))
    assert r.status_code == 200, r.text
    fresh = r.json()["invite"]
    assert http.get(f"/api/games/{gid}", headers=head(bea)).json()["you"] is None
    p = http.get(f"/api/games/{gid}", headers=head(ann)).json()
    assert p["seats"][1]["held"] is False
    # Bea's old token can no longer act, not even when it is her seat's turn
    one_line_error(act(http, gid, bea, "draw", p["version"]), 403)
    one_line_error(http.post(f"/api/games/{gid}/claim",
                             json={"invite": created["seats"][1]["invite"]}), 403)
    again = http.post(f"/api/games/{gid}/claim", json={"invite": fresh}).json()
    assert http.get(f"/api/games/{gid}", headers=head(again["token"])).json()["you"] == 1


def test_hot_seat_keeps_every_token_in_one_answer(http: httpx.Client) -> None:
    created = http.post("/api/games", json={"seats": TWO_HUMANS, "hotseat": True}).json()
    assert all(s["token"] and "invite" not in s for s in created["seats"])
    one_line_error(http.post(f"/api/games/{created['game_id']}/seats/1/invite",
                             headers=head(created["seats"][0]["token"])), 403)
