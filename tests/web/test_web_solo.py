"""Dartmoor's solo mode over the API (docs/web.md, "Solo"): the challenges from the data, a
1-seat game created through ``POST /api/solo`` only, legal moves, the payload's ``solo``
(Anna's status and last turn in the narration's words), Anna's turns in the log, the result
at the end of a game driven there by legal actions, the rematch, and the 4xx paths."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webutil import client, head, hidden_from

from forest_shuffle.engine.state import GameState
from forest_shuffle.games.dartmoor_solo import (
    DartmoorSoloState,
    medal_for,
    solo_data,
    solo_result,
)
from forest_shuffle.server.service import narrate
from forest_shuffle.server.solo import before_anna
from forest_shuffle.text.narration import (
    CLEARING_DISCARDED,
    CLEARING_EMPTIED,
    anna_status_words,
    anna_words,
    challenge_words,
    solo_result_words,
)

MAX_ACTIONS = 600


def _create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/solo", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def _state(c: TestClient, gid: str) -> DartmoorSoloState:
    """The server-side state of a game (the engine's, not the payload's)."""
    state = c.app.state.service.game(gid).snap.state  # type: ignore[attr-defined]
    assert isinstance(state, DartmoorSoloState)
    return state


def _act(c: TestClient, gid: str, token: str, p: dict[str, Any], action: str) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/actions", json={"action": action, "version": p["version"]},
               headers=head(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def _pick(p: dict[str, Any], rng: random.Random) -> str:
    """A legal action: a draw when there is one (turns end soon, so Anna plays), else any."""
    legal = list(p["legal"])
    assert legal, p
    return "draw" if "draw" in legal and rng.random() < 0.7 else rng.choice(legal)


def test_the_challenges_come_from_the_data() -> None:
    with client() as c:
        r = c.get("/api/solo")
        assert r.status_code == 200
        doc = r.json()
    data = solo_data()
    assert doc["automa"] == data.automa_name == "Anna"
    assert doc["medals"] == ["bronze", "silver", "gold"]
    assert len(doc["challenges"]) == len(data.challenges) == 15
    for got, ch in zip(doc["challenges"], data.challenges, strict=True):
        assert got["number"] == ch.number
        assert got["id"] == f"dartmoor-solo-{ch.number}"
        assert got["title"] == ch.title
        assert got["thresholds"] == dict(ch.thresholds)
        assert got["words"] == challenge_words(ch.number, ch.title, ch.thresholds)
    assert doc["provisional"] == dict(data.provisional)


def test_a_solo_game_has_one_seat_and_the_solo_part() -> None:
    with client() as c:
        created = _create(c, challenge=4, medal="silver", name="Ada")
        assert created["hotseat"] is False
        assert [(s["kind"], s["name"]) for s in created["seats"]] == [("human", "Ada")]
        token = created["seats"][0]["token"]
        assert token and created["seats"][0]["link"].endswith(token)
        gid = created["game_id"]
        p = c.get(f"/api/games/{gid}", headers=head(token)).json()
        assert p["game"] == "dartmoor-solo-4" and p["you"] == 0 and len(p["seats"]) == 1
        assert p["to_move"] == 0 and p["legal"]
        s = p["solo"]
        ch = solo_data().challenges[3]
        assert (s["challenge"], s["title"], s["medal"]) == (4, ch.title, "silver")
        assert s["thresholds"] == dict(ch.thresholds)
        assert s["words"] == challenge_words(4, ch.title, ch.thresholds, "silver")
        view = _state(c, gid).view(0)
        assert s["status"] == anna_status_words(view.solo) == "Anna has 20 automa cards left."
        assert (s["automa_left"], s["anna_turns"], s["last"], s["result"]) == (20, 0, None, None)
        assert s["progress"]["need"] == ch.goal["min"] and s["progress"]["met"] is False
        texts = [e["text"] for e in p["log"]]
        assert texts[1] == challenge_words(4, ch.title, ch.thresholds)
        # a spectator sees the same solo facts, and no medal is needed
        spect = c.get(f"/api/games/{gid}").json()["solo"]
        assert spect == s
        plain = _create(c, challenge=1)
        q = c.get(f"/api/games/{plain['game_id']}",
                  headers=head(plain["seats"][0]["token"])).json()
        assert q["solo"]["medal"] == "" and "you play for" not in q["solo"]["words"]
        # other games have none
        other = c.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot"}],
                                           "game": "dartmoor"}).json()
        assert c.get(f"/api/games/{other['game_id']}").json()["solo"] is None


def test_moves_and_annas_turns_in_the_payload_and_the_log() -> None:
    rng = random.Random(3)
    with client() as c:
        created = _create(c, challenge=2, seed=77)
        gid, token = created["game_id"], created["seats"][0]["token"]
        p = c.get(f"/api/games/{gid}", headers=head(token)).json()
        log = list(p["log"])
        anna_seen = 0
        for _ in range(MAX_ACTIONS):
            if p["over"] or anna_seen >= 4:
                break
            before = p["solo"]["anna_turns"]
            p = _act(c, gid, token, p, _pick(p, rng))
            assert p["log_from"] == 0
            new = p["log"][len(log):]
            log = list(p["log"])
            state = _state(c, gid)
            s = p["solo"]
            assert s["anna_turns"] == state.anna_turns
            assert s["status"] == anna_status_words(state.view(0).solo)
            assert s["automa_left"] == len(state.automa)
            if s["anna_turns"] == before:
                assert not any(e["text"].startswith("Anna ") for e in new)
                continue
            anna_seen += 1
            assert state.anna_last is not None
            # what the page is told of her turn is public: cards of the clearing and the
            # discard pile, burnt cards only counted, and no card id in the solo words
            shown = p["view"]["solo"]["anna_last"]
            for viewer in (0, None):
                assert not (set(shown["added"]) | set(shown["removed"])) & hidden_from(
                    state, viewer)
            words = [s["words"], s["status"], s["last"], s["progress"]["words"]]
            assert not any(re.search(r"\bcard \d", w) for w in words), words
            line = anna_words(state.anna_last.to_dict(), state.game.catalog)
            assert s["last"] == line
            texts = [e["text"] for e in new]
            assert texts.count(line) == 1
            at = texts.index(line)
            assert new[at]["seat"] is None
            assert texts[0].startswith("Player 1 ")  # the player's action first, then Anna
            if not p["over"]:
                assert texts[-1].startswith("Turn ")  # then the next turn
                assert at == len(texts) - 2
        assert anna_seen >= 4, "Anna should have played a few turns"


def test_a_game_to_the_end_gives_the_result_in_words() -> None:
    rng = random.Random(11)
    with client() as c:
        created = _create(c, challenge=14, medal="bronze", seed=5)
        gid, token = created["game_id"], created["seats"][0]["token"]
        p = c.get(f"/api/games/{gid}", headers=head(token)).json()
        for _ in range(MAX_ACTIONS):
            if p["over"]:
                break
            p = _act(c, gid, token, p, rng.choice(p["legal"]))
        assert p["over"], "the game did not end"
        state = _state(c, gid)
        result = solo_result(state)
        r = p["solo"]["result"]
        assert r is not None
        assert r["words"] == solo_result_words(result, "bronze")
        assert r["score"] == result.score == p["scores"][0]["total"]
        assert (r["have"], r["need"], r["goal_met"]) == (result.have, 15, result.goal_met)
        assert r["medal"] == medal_for(result.score, result.goal_met, result.thresholds)
        assert r["won"] is (r["medal"] != "")
        assert p["legal"] == [] and p["winners"] == [0]
        end = p["log"][-1]["text"]
        assert end.startswith("The last winter card is out: the game is over.")
        assert " ".join(solo_result_words(result)) in end and "Winner" not in end
        # the rematch: the same challenge and medal, one seat, a new deal
        rr = c.post(f"/api/games/{gid}/rematch", headers=head(token))
        assert rr.status_code == 200, rr.text
        again = rr.json()
        assert len(again["seats"]) == 1 and again["seats"][0]["token"]
        q = c.get(f"/api/games/{again['game_id']}",
                  headers=head(again["seats"][0]["token"])).json()
        assert q["game"] == "dartmoor-solo-14" and q["solo"]["medal"] == "bronze"


@pytest.mark.parametrize(("body", "words"), [
    ({"challenge": 0}, "no solo challenge 0"),
    ({"challenge": 16}, "no solo challenge 16"),
    ({"challenge": "3"}, "challenge"),
    ({"challenge": True}, "challenge"),
    ({}, "challenge"),
    ({"challenge": 3, "medal": "platinum"}, "medal must be one of bronze, silver, gold"),
    ({"challenge": 3, "medal": 2}, "medal"),
    ({"challenge": 3, "seed": -1}, "seed"),
    ({"challenge": 3, "name": "a\u0000b"}, "name"),
])
def test_bad_solo_requests_get_one_line(body: dict[str, Any], words: str) -> None:
    with client() as c:
        r = c.post("/api/solo", json=body)
        assert r.status_code == 400, r.text
        line = r.json()["error"]
        assert words in line and "\n" not in line
        assert not c.app.state.service._games  # type: ignore[attr-defined]  # nothing made


def test_the_unlisted_ids_only_through_the_solo_path() -> None:
    with client() as c:
        for seats in ([{"kind": "human"}], [{"kind": "human"}, {"kind": "bot"}]):
            r = c.post("/api/games", json={"seats": seats, "game": "dartmoor-solo-1"})
            assert r.status_code == 400
            assert r.json()["error"] == ("dartmoor-solo-1 is a solo challenge: create it "
                                         "with POST /api/solo")
        r = c.post("/api/games", json={"seats": [{"kind": "human"}], "game": "dartmoor"})
        assert r.status_code == 400 and "2 to 5" in r.json()["error"]
        r = c.post("/api/games", json={"seats": [{"kind": "human"}], "game": "dartmoor-solo-99"})
        assert r.status_code == 400 and "unknown game" in r.json()["error"]
        assert not c.app.state.service._games  # type: ignore[attr-defined]
        offered = [g["id"] for g in c.get("/api/games-offered").json()]
        assert not any(g.startswith("dartmoor-solo") for g in offered)
        # the page draws a solo game's cards with its catalog
        assert c.get("/api/cards", params={"game": "dartmoor-solo-1"}).status_code == 200


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[int], list[int]]]:
    """The clearing and discard pile at the start of each of Anna's turns (the truth)."""
    seen: list[tuple[list[int], list[int]]] = []
    anna = DartmoorSoloState._anna_turn

    def spy(self: DartmoorSoloState) -> None:
        seen.append((list(self.clearing), list(self.discard)))
        anna(self)

    monkeypatch.setattr(DartmoorSoloState, "_anna_turn", spy)
    return seen


def test_the_table_before_annas_turn_is_what_the_engine_had(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The log tells the player's part of an action from the table before Anna's turn,
    rebuilt from the state after it: it is the engine's own, also when she filled the
    clearing and it went to the discard pile."""
    seen = _spy(monkeypatch)
    turns = cleared = emptied = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GameState.new(1, seed, game=f"dartmoor-solo-{seed % 15 + 1}")
        while not state.over:
            before = state.clone()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            mid = before_anna(before, state)
            assert isinstance(state, DartmoorSoloState)
            if mid is state:
                continue
            turns += 1
            assert state.anna_last is not None
            cleared += state.anna_last.cleared
            clearing, discard = seen[-1]
            assert list(mid.clearing) == clearing, (seed, state.anna_last)
            if not state.anna_last.cleared:
                assert list(mid.discard) == discard
            assert list(mid.winter) == list(before.winter)
            # the log: the player's events (from that table), then Anna's line
            texts = [e.text for e in narrate(before, state, 0, action, ["Ada"])]
            anna = anna_words(state.anna_last.to_dict(), state.game.catalog)
            assert texts.count(anna) == 1
            player_emptied = bool(before.clearing) and not clearing and action.kind != "take"
            if player_emptied:  # told as narration tells it, from the engine's table
                emptied += 1
                grew = len(discard) > len(before.discard)
                said = CLEARING_DISCARDED if grew else CLEARING_EMPTIED
                assert texts.index(said) < texts.index(anna)
            else:  # a clearing full after her turn is told in her line
                assert CLEARING_DISCARDED not in texts and CLEARING_EMPTIED not in texts
    assert turns > 100 and cleared > 0 and emptied > 0

