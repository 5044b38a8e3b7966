"""The solo companion's REST API (server/companion.py, docs/pad.md "The solo companion"): a
game at a physical table confirmed step by step to its end, Anna's deck the engine's for
the same seed, her secret kept until a card is turned, bad input refused in one line
without a change, a reload (a restarted server) finds the same game, and the result of
the forest entered in the linked score-pad table."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from padutil import entries_of, ok
from sqlalchemy import create_engine, func, select
from webutil import client, one_line_error

from forest_shuffle.cards.names import printed_name
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.forest_json import read_table
from forest_shuffle.games.dartmoor_solo import (
    DartmoorSoloState,
    result_of,
    setup_steps,
    solo_data,
    solo_game,
    solo_id,
)
from forest_shuffle.i18n import words
from forest_shuffle.server import companion
from forest_shuffle.server.companion_store import companion_games
from forest_shuffle.server.pad_store import pad_tables

DATA = Path(__file__).parents[1] / "data/forest"
SEED = 271828182845904523536028747135266249775  # fixed here; a server draws its own


def new(c: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    r = c.post("/api/companion", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def step(c: TestClient, g: dict[str, Any], do: str = "next") -> dict[str, Any]:
    r = c.post(f"/api/companion/{g['token']}/steps", json={"seq": g["seq"], "do": do})
    assert r.status_code == 200, r.text
    return dict(r.json())


def get(c: TestClient, token: str) -> dict[str, Any]:
    r = c.get(f"/api/companion/{token}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def engine_anna(seed: int, challenge: int, turns: int) -> list[int]:
    """The automa cards (numbers) the engine's Anna turns in a game of ``challenge`` dealt
    from ``seed``, played by random legal moves; her later turns (past the game's end)
    from the engine's own state, as if the game went on."""
    state = GameState.new(1, seed, game=solo_id(challenge))
    assert isinstance(state, DartmoorSoloState)
    rng = random.Random(5)
    seen: list[int] = []
    while not state.over and len(seen) < turns:
        before = state.anna_turns
        state.apply(rng.choice(state.legal_actions()))
        if state.anna_turns > before and state.anna_last is not None:
            seen.append(state.anna_last.automa + 1)
    while len(seen) < turns:  # the game ended: Anna's turns go on by the engine's rule
        state._anna_turn()
        assert state.anna_last is not None
        seen.append(state.anna_last.automa + 1)
    return seen


def play_to_setup_end(c: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    while g["phase"] == "setup":
        g = step(c, g)
    return g


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(companion, "new_seed", lambda: SEED)


def test_a_game_to_its_end_follows_the_engines_anna(c: TestClient, fixed_seed: None) -> None:
    g = new(c, {"challenge": 7, "medal": "silver", "name": "Ann"})
    assert g["phase"] == "setup" and g["challenge"]["number"] == 7 and g["medal"] == "silver"
    kinds = []
    while g["phase"] == "setup":  # the setup, as the engine deals it, one step at a time
        kinds.append(g["steps"][g["step"]]["kind"])
        g = step(c, g)
    assert kinds == [s.kind for s in setup_steps(7)]
    assert "start_card" in kinds  # challenge 7: an Adder in hand
    turned = []
    automa = solo_data().automa
    for turn in range(1, 46):  # past two reshuffles of Anna's 20 cards
        assert g["phase"] == "player" and g["turn"] == turn and g["card"] is None
        g = step(c, g)  # the player's turn is done: Anna's card is turned
        assert g["phase"] == "anna"
        card = g["card"]
        turned.append(card["number"])
        data = automa[card["number"] - 1]
        assert (card["add"], card["remove"], card["burn"]) == (data.add, data.remove,
                                                               data.burn)
        assert g["reshuffled"] == (turn in (21, 41))
        did = []
        while g["phase"] == "anna":
            s = g["steps"][g["step"]]
            did.append((s["kind"], s["cards"]))
            g = step(c, g)
        want = [(k, n) for k, n in (("add", data.add), ("remove", data.remove),
                                    ("burn", data.burn)) if n]
        assert did == [*want, ("clearing", solo_game(7).clearing_limit)]
    assert turned == engine_anna(SEED, 7, 45)
    assert g["turned"] == turned and g["anna_turns"] == 45
    g = step(c, g, "winter")  # the winter card came up in the player's turn
    assert g["phase"] == "over" and g["ended"] == "winter"
    assert g["result"]["entered"] is False and g["result"]["score"] == 0
    one_line_error(c.post(f"/api/companion/{g['token']}/steps",
                          json={"seq": g["seq"], "do": "next"}), 409)


def test_the_winter_card_may_come_up_while_anna_turns_deck_cards(
        c: TestClient, fixed_seed: None) -> None:
    g = play_to_setup_end(c, new(c, {"challenge": 1}))
    while True:
        g = step(c, g)
        while g["phase"] == "anna" and not g["steps"][g["step"]]["deck"]:
            g = step(c, g)
        if g["phase"] == "anna":
            break
    assert g["steps"][g["step"]]["kind"] in ("add", "burn")
    g = step(c, g, "winter")
    assert g["phase"] == "over" and g["result"] is not None


def test_no_answer_tells_a_card_before_it_is_turned(c: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = iter([SEED, SEED + 1])
    monkeypatch.setattr(companion, "new_seed", lambda: next(seeds))
    bodies: list[str] = []
    games = [new(c, {"challenge": 3}), new(c, {"challenge": 3})]
    firsts = []
    for n, g in enumerate(games):
        g = play_to_setup_end(c, g)
        bodies.append(json.dumps(g))
        before = {k: v for k, v in g.items() if k not in ("token", "pad")}
        games[n] = g
        firsts.append(before)
    # two games with different decks answer alike until a card is turned
    assert firsts[0] == firsts[1]
    turned = [step(c, g)["card"]["number"] for g in games]
    assert turned[0] != turned[1]  # so the decks differ: the sameness above tells nothing
    for g in games:
        g = get(c, g["token"])
        bodies.append(json.dumps(g))
        assert "seed" not in g and g["automa"] == solo_data().automa_name
    for text in bodies:
        assert str(SEED) not in text and str(SEED + 1) not in text
        assert f"{SEED:x}" not in text


def count(db: str, table: Any) -> int:
    engine = create_engine(db)
    with engine.connect() as conn:
        n = int(conn.execute(select(func.count()).select_from(table)).scalar_one())
    engine.dispose()
    return n


@pytest.mark.parametrize("body", [
    {"challenge": 0}, {"challenge": 16}, {"challenge": "7"}, {"challenge": True},
    {"challenge": 1.0}, {}, {"challenge": 1, "medal": "platinum"},
    {"challenge": 1, "medal": 3}, {"challenge": 1, "name": ""},
    {"challenge": 1, "name": "x" * 300}, [1, 2]])
def test_a_bad_new_game_is_one_line_and_stores_nothing(tmp_path: Path,
                                                       body: Any) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    with client(db) as c:
        one_line_error(c.post("/api/companion", json=body), 400)
    assert count(db, companion_games) == 0 and count(db, pad_tables) == 0


def test_bad_steps_are_one_line_and_change_nothing(c: TestClient) -> None:
    g = new(c, {"challenge": 2, "medal": "gold"})
    url = f"/api/companion/{g['token']}/steps"
    one_line_error(c.post(url, json={"seq": g["seq"], "do": "winter"}), 400)  # setup
    one_line_error(c.post(url, json={"seq": g["seq"] + 1, "do": "next"}), 409)
    one_line_error(c.post(url, json={"seq": g["seq"], "do": "jump"}), 400)
    one_line_error(c.post(url, json={"seq": "0", "do": "next"}), 400)
    one_line_error(c.post(url, json={"do": "next"}), 400)
    one_line_error(c.post(url, content=b"not json", headers={
        "Content-Type": "application/json"}), 400)
    one_line_error(c.post("/api/companion/no-such-token/steps",
                          json={"seq": 0, "do": "next"}), 404)
    one_line_error(c.get("/api/companion/no-such-token"), 404)
    one_line_error(c.get("/api/companion/" + "x" * 65), 400)
    assert get(c, g["token"]) == g
    step(c, g)  # the same step goes through once
    one_line_error(c.post(url, json={"seq": g["seq"], "do": "next"}), 409)  # a double tap


def test_a_reload_after_a_restart_finds_the_same_game(tmp_path: Path,
                                                      fixed_seed: None) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    with client(db) as c:
        g = play_to_setup_end(c, new(c, {"challenge": 5, "medal": "bronze"}))
        g = step(c, step(c, g))  # Anna's card turned, her first step done
        token = g["token"]
    with client(db) as c:  # the server restarted; the phone reloads its link
        again = get(c, token)
        assert again == g
        nxt = step(c, again)
        assert nxt["seq"] == g["seq"] + 1


def test_the_result_is_the_engines_for_the_forest_entered_in_the_pad(
        c: TestClient, fixed_seed: None) -> None:
    doc = json.loads((DATA / "dartmoor-rulebook-example.json").read_text(encoding="utf-8"))
    player = doc["players"][0]
    g = new(c, {"challenge": 2, "medal": "bronze", "name": "Ann"})
    pad = g["pad"]
    assert pad["link"] == f"/pad/{pad['table']}"
    table = c.get(f"/api/pad/tables/{pad['table']}").json()
    assert table["game"] == companion.PAD_GAME and [p["name"] for p in table["players"]] == [
        "Ann"]
    for op in entries_of(player):
        ok(c, pad["table"], pad["token"], op)
    g = play_to_setup_end(c, g)
    g = step(c, g, "winter")
    forest = read_table({"game": "dartmoor", "players": [{**player, "name": "Ann"}]}).forests[0]
    want = result_of(solo_game(2), forest, 2)
    got = g["result"]
    assert got["entered"] is True
    assert (got["score"], got["have"], got["need"], got["goal_met"], got["medal"]) == (
        want.score, want.have, want.need, want.goal_met, want.medal)
    assert got["won"] == want.reached("bronze")
    pad_total = c.get(f"/api/pad/tables/{pad['table']}").json()["players"][0]["total"]
    assert got["score"] == pad_total  # the pad's scorer and the result agree


def _sentences(data: Any) -> list[str]:
    """Every text of an answer that reads as an English sentence (an end's full stop)."""
    if isinstance(data, dict):
        return [s for v in data.values() for s in _sentences(v)]
    if isinstance(data, list):
        return [s for v in data for s in _sentences(v)]
    return [data] if isinstance(data, str) and " " in data and data.rstrip().endswith(
        ".") else []


def test_the_answers_are_data_the_page_words_in_its_language(
        c: TestClient, fixed_seed: None) -> None:
    """No sentence made on the server (docs/i18n.md, "The solo companion"): the challenge
    and the result are facts, the page words them; the cave's text is card data."""
    g = new(c, {"challenge": 2, "medal": "bronze"})
    assert "words" not in g["challenge"]
    g = step(c, play_to_setup_end(c, g), "winter")
    assert g["result"] is not None and "words" not in g["result"]
    cave = next(s.name for s in setup_steps(2) if s.kind == "cave")
    assert [s for s in _sentences(g) if s != cave] == []


@pytest.mark.parametrize(("query", "header", "lang"), [
    ("?lang=de", None, "de"), ("?lang=zh-Hans", "fr", "zh"), ("", "fr-CA,fr;q=0.9", "fr"),
    ("", "de;q=0, en", "en"), ("?lang=xx", None, "en"), ("", None, "en"),
])
def test_a_species_a_step_names_is_printed_in_the_language_asked_for(
        c: TestClient, fixed_seed: None, query: str, header: str | None, lang: str) -> None:
    """Challenge 7's start card: its name as printed in the edition of ``?lang=``, else of
    ``Accept-Language``, else English; an unknown language is no error."""
    headers = {"Accept-Language": header} if header else {}
    r = c.post(f"/api/companion{query}", json={"challenge": 7}, headers=headers)
    assert r.status_code == 200, r.text
    g = r.json()
    adder = solo_game(7).catalog.lookup("Adder")
    assert adder is not None
    want = printed_name(adder, lang)
    while g["steps"][g["step"]]["kind"] != "start_card":
        r = c.post(f"/api/companion/{g['token']}/steps{query}",
                   json={"seq": g["seq"], "do": "next"}, headers=headers)
        g = r.json()
    assert g["steps"][g["step"]]["name"] == want
    again = c.get(f"/api/companion/{g['token']}{query}", headers=headers).json()
    assert again["steps"][again["step"]]["name"] == want
    if lang == "de":
        assert want == "Kreuzotter"


def test_a_step_taken_back_restores_the_game_and_turns_the_same_card_again(
        c: TestClient, fixed_seed: None) -> None:
    g = new(c, {"challenge": 9})
    url = f"/api/companion/{g['token']}/steps"
    assert g["can_go_back"] is False
    one_line_error(c.post(url, json={"seq": g["seq"], "do": "back"}), 400)  # nothing yet
    assert get(c, g["token"]) == g
    g = play_to_setup_end(c, g)
    player = g
    turned = step(c, g)  # Anna's card turned
    back = step(c, turned, "back")
    strip = ("seq", "can_go_back")
    assert {k: v for k, v in back.items() if k not in strip} == {
        k: v for k, v in player.items() if k not in strip}
    again = step(c, back)
    assert again["card"] == turned["card"] and again["automa_left"] == turned["automa_left"]
    over = step(c, again, "winter")
    assert over["phase"] == "over"
    resumed = step(c, over, "back")  # a mistaken winter: taken back
    assert resumed["phase"] == "anna" and resumed["card"] == again["card"]


def test_the_challenges_and_a_games_title_in_the_language_asked_for(
        c: TestClient, fixed_seed: None) -> None:
    """``GET /api/companion`` offers every challenge of solo.json with its thresholds; the
    titles (and a game's) are the ``server`` catalog's in the language asked for."""
    data = solo_data()
    en = c.get("/api/companion").json()
    assert en["automa"] == data.automa_name and en["medals"] == ["bronze", "silver", "gold"]
    assert [(x["number"], x["title"], x["thresholds"]) for x in en["challenges"]] == [
        (ch.number, ch.title, dict(ch.thresholds)) for ch in data.challenges]
    w = words("server", "de")
    de = c.get("/api/companion?lang=de").json()
    assert [x["title"] for x in de["challenges"]] == [
        w.pgettext("solo challenge", ch.title) for ch in data.challenges]
    assert de["challenges"][4]["title"] == "mindestens 7 Fledermäuse"  # not the English
    zh = c.get("/api/companion", headers={"Accept-Language": "zh-CN"}).json()
    assert zh["challenges"][13]["title"] != data.challenges[13].title
    g = c.post("/api/companion?lang=fr", json={"challenge": 14}).json()
    assert g["challenge"]["title"] == "au moins 15 cartes dans votre grotte"
    assert get(c, g["token"])["challenge"]["title"] == data.challenges[13].title  # English


def test_a_bad_language_is_refused_in_one_line_or_skipped(c: TestClient) -> None:
    """``?lang=`` longer than a language tag is a one-line 400; an
    unknown tag or a strange header is skipped (English)."""
    before = c.get("/api/companion").json()
    one_line_error(c.post("/api/companion?lang=" + "x" * 40, json={"challenge": 1}), 400)
    assert c.get("/api/companion?lang=%00", headers={"Accept-Language": "@@, ;q=x"}).json(
    ) == before


def test_the_companions_refusals_are_said_in_the_language_asked_for(
        c: TestClient, fixed_seed: None) -> None:
    """A refusal of the companion's own is one line of the ``server`` catalog in the
    request's language, its numbers filled in; English without a language."""
    g = new(c, {"challenge": 3})
    url = f"/api/companion/{g['token']}/steps"
    step(c, g)
    de = words("server", "de")
    r = c.post(url + "?lang=de", json={"seq": g["seq"], "do": "next"})  # a double tap
    assert one_line_error(r, 409)
    assert r.json()["error"] == de("the game moved on since step {seq} (now {now}): look again",
                                   seq=g["seq"], now=g["seq"] + 1)
    assert r.json()["error"].startswith("die Partie ist seit Schritt")
    r = c.get("/api/companion/nosuchtoken", headers={"Accept-Language": "fr-FR"})
    assert one_line_error(r, 404)
    assert r.json()["error"] == words("server", "fr")("no such companion game (check the link)")
    assert r.json()["error"] != "no such companion game (check the link)"
    r = c.get("/api/companion/nosuchtoken")
    assert r.json()["error"] == "no such companion game (check the link)"
