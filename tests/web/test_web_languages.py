"""The server's words in the viewer's language (issue 41, docs/i18n.md "The server's
words"): ``?lang=`` (else ``Accept-Language``) makes the payload's prompt, its detail, the
pay words, the turn label and the score pad's lines, and ``GET /api/cards`` the card names,
in that language; English stays as it was, and what the viewer may see does not change."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from webutil import TWO_HUMANS, client, head, new_game

from forest_shuffle.cards.names import printed_name
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.text.narration import ask_words, detail_words, species_of, turn_label

#: The payload's parts that are data, not words: the same in every language.
DATA = ("view", "legal", "to_move", "decision", "version", "running", "card_points",
        "pick_from", "over", "scores", "winners", "turns")


def get(c: TestClient, gid: str, token: str | None, query: str = "",
        **headers: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}{query}", headers={**head(token), **headers})
    assert r.status_code == 200, r.text
    return dict(r.json())


def to_pay(c: TestClient, gid: str, tokens: dict[int, str]) -> tuple[int, dict[str, Any]]:
    """Random plays (a play whenever one is legal) until a seat must pay: that seat and
    its English payload."""
    rng = random.Random(7)
    for _ in range(400):
        p = get(c, gid, tokens[0])
        seat = p["to_move"]
        mine = get(c, gid, tokens[seat])
        if mine["decision"] == "pay":
            return seat, mine
        plays = [a for a in mine["legal"] if a.startswith("play ")]
        action = rng.choice(plays or mine["legal"])
        r = c.post(f"/api/games/{gid}/actions", headers=head(tokens[seat]),
                   json={"action": action, "version": mine["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("no payment came up")


def test_a_payload_in_german_has_a_german_prompt_and_german_card_names() -> None:
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        seat, en = to_pay(c, gid, tokens)
        de = get(c, gid, tokens[seat], "?lang=de")
        state = c.app.state.service.game(gid).snap.state  # type: ignore[attr-defined]
        pend = state.pending
        sp = species_of(pend.card, pend.side, state.game.catalog)
        german = printed_name(sp, "de")
        assert german != sp.printed  # a species whose German name differs
        assert de["prompt"].startswith(f"Bezahle {german} (Karte {pend.card}) mit ")
        assert en["prompt"].startswith(f"Pay for {sp.printed} (card {pend.card}) with ")
        assert de["prompt_detail"] != en["prompt_detail"]
        assert de["pay"]["words"] == de["prompt_detail"]
        assert de["turn_label"].startswith(f"Zug {state.turn}: ")
        assert dict(de["pad_lines"])["trees"] == "Bäume"
        # only the words differ: every fact the viewer may see is the same
        assert {k: de[k] for k in DATA} == {k: en[k] for k in DATA}
        assert {k: v for k, v in de["pay"].items() if "words" not in k} == {
            k: v for k, v in en["pay"].items() if "words" not in k}


def test_the_same_game_in_english_is_unchanged() -> None:
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        seat, plain = to_pay(c, gid, tokens)
        state = c.app.state.service.game(gid).snap.state  # type: ignore[attr-defined]
        view = state.view(seat)
        assert plain["prompt"] == ask_words(view)
        assert plain["prompt_detail"] == detail_words(view)
        assert plain["turn_label"] == turn_label(state.turn, "you")
        assert dict(plain["pad_lines"])["trees"] == "Trees"
        asked = get(c, gid, tokens[seat], "?lang=en", **{"Accept-Language": "de"})
        assert {k: v for k, v in asked.items() if k != "log"} == {
            k: v for k, v in plain.items() if k != "log"}


def test_the_language_comes_from_the_query_else_accept_language() -> None:
    """``?lang=`` wins over the header; an unknown one falls back to the header, then
    English; each language is its own cache entry of the same version."""
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        token = game["seats"][0]["token"]
        first = get(c, gid, token)["decision"]
        prompts = {lang: get(c, gid, token, f"?lang={lang}")["prompt"]
                   for lang in ("en", "fr", "de", "zh", "en")}
        assert len(set(prompts.values())) == 4, prompts
        assert get(c, gid, token, "", **{"Accept-Language": "fr-CA,fr;q=0.9"})[
            "prompt"] == prompts["fr"]
        assert get(c, gid, token, "?lang=xx", **{"Accept-Language": "zh"})[
            "prompt"] == prompts["zh"]
        assert get(c, gid, token, "?lang=zh-Hans")["prompt"] == prompts["zh"]
        assert get(c, gid, token, "?lang=de", **{"Accept-Language": "fr"})[
            "prompt"] == prompts["de"]
        state = c.app.state.service.game(gid).snap.state  # type: ignore[attr-defined]
        assert prompts["fr"] == ask_words(state.view(0), "fr") != prompts["en"]
        assert first in ("turn", "mulligan")


def test_the_socket_speaks_the_language_of_its_query() -> None:
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        token = game["seats"][0]["token"]
        want = get(c, gid, token, "?lang=zh")["prompt"]
        with c.websocket_connect(f"/api/games/{gid}/ws?token={token}&lang=zh") as ws:
            msg = ws.receive_json()
        assert msg["type"] == "state"
        assert msg["payload"]["prompt"] == want != get(c, gid, token)["prompt"]


def test_the_cards_are_named_as_printed_in_the_language_asked_for() -> None:
    catalog = game_by_id("base").catalog
    with client() as c:
        en = c.get("/api/cards?game=base").json()
        for lang in ("de", "fr", "zh"):
            got = c.get(f"/api/cards?game=base&lang={lang}").json()
            names = {key: sp["name"] for key, sp in got["species"].items()}
            assert names == {key: printed_name(catalog.species[key], lang) for key in names}
            assert sum(names[k] != en["species"][k]["name"] for k in names) > len(names) // 2
            assert got["cards"] == en["cards"]  # ids, halves by key: data
        assert c.get("/api/cards?game=base", headers={"Accept-Language": "de"}).json()[
            "species"]["Oak"]["name"] == printed_name(catalog.species["Oak"], "de")


def test_the_logs_turn_event_and_end_lines_are_said_in_the_language_asked_for() -> None:
    """A whole game: the lines a turn begins with, the winter cards and the end come in
    German for a German viewer (and the action lines), the same lines, cards and order as
    the English log's."""
    rng = random.Random(5)
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=4)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        for _ in range(3000):
            p = get(c, gid, tokens[0])
            if p["over"]:
                break
            mine = get(c, gid, tokens[p["to_move"]])
            r = c.post(f"/api/games/{gid}/actions", headers=head(tokens[p["to_move"]]),
                       json={"action": rng.choice(mine["legal"]), "version": mine["version"]})
            assert r.status_code == 200, r.text
        en = get(c, gid, tokens[0])["log"]
        de = get(c, gid, tokens[0], "?lang=de")["log"]
    assert len(de) == len(en) and [e["cards"] for e in de] == [e["cards"] for e in en]
    turns = [(a["text"], b["text"]) for a, b in zip(en, de, strict=True)
             if a["text"].startswith("Turn ")]
    assert turns and all(g == "Zug " + t[len("Turn "):] for t, g in turns)
    winters = [b["text"] for a, b in zip(en, de, strict=True)
               if a["text"].startswith("A winter card is revealed")]
    assert winters == [f"Eine Winterkarte wird aufgedeckt ({n}/3)." for n in (1, 2, 3)]
    assert de[-1]["text"].startswith("Die letzte Winterkarte ist aufgedeckt: Die Partie ist "
                                     "vorbei. ")
    assert en[-1]["text"].startswith("The last winter card is out: the game is over. Win")
    others = [(a, b) for a, b in zip(en, de, strict=True) if not (
        a["text"].startswith(("Turn ", "A winter card", "The last winter", "The clearing")))]
    # the action lines too (issue 41, the server's words): German, the same cards
    draws = [(a, b) for a, b in others if a["text"].endswith(" draws a card from the deck.")]
    assert draws and all(b["text"].endswith(" zieht eine Karte vom Stapel.") for _a, b in draws)
    assert all(a["text"] != b["text"] and a["cards"] == b["cards"] for a, b in others)


def test_the_menu_and_a_refused_move_are_said_in_the_language_asked_for() -> None:
    """``legal_words`` in German (the same actions as English's), and a refused move's
    400 and a move out of turn's 403 in the page's language (``?lang=``, else
    ``Accept-Language``); without either the English line, unchanged."""
    with client() as c:
        game = new_game(c, TWO_HUMANS, seed=3)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        p = get(c, gid, tokens[0])
        seat = p["to_move"]
        en = get(c, gid, tokens[seat])
        de = get(c, gid, tokens[seat], "?lang=de")
        assert de["legal"] == en["legal"] and len(de["legal_words"]) == len(en["legal_words"])
        assert any(w.endswith("diese Hand behalten") or "Schössling" in w
                   for w in de["legal_words"])
        assert all(a != b for a, b in zip(en["legal_words"], de["legal_words"], strict=True))
        bad = {"action": "pay 999", "version": en["version"]}
        url = f"/api/games/{gid}/actions"
        r_en = c.post(url, headers=head(tokens[seat]), json=bad)
        r_de = c.post(url + "?lang=de", headers=head(tokens[seat]), json=bad)
        r_zh = c.post(url, headers={**head(tokens[seat]), "Accept-Language": "zh-CN"},
                      json=bad)
        assert r_en.status_code == r_de.status_code == r_zh.status_code == 400
        assert r_en.json()["error"].startswith("not allowed: player ")
        assert r_de.json()["error"].startswith("nicht erlaubt: Spieler ")
        assert r_de.json()["error"].endswith("(pay 999)")
        assert r_zh.json()["error"].startswith("不允许：玩家 ")
        other = tokens[1 - seat]
        r = c.post(url + "?lang=fr", headers=head(other), json={
            "action": en["legal"][0], "version": en["version"]})
        assert r.status_code == 403
        assert r.json()["error"].startswith("ce n'est pas à vous de décider\u00a0: ")
        assert get(c, gid, tokens[seat])["version"] == en["version"]  # nothing changed


def test_unnamed_seats_and_game_titles_in_the_creators_language() -> None:
    """A seat created without a name is named in the creator's language (``?lang=``);
    the lobby's game titles are the editions' own (Mischwald); English unchanged."""
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}], "seed": 3}
    with client() as c:
        de = c.post("/api/games?lang=de", json=body).json()["seats"]
        en = c.post("/api/games", json=body).json()["seats"]
        titles = {g["id"]: g["title"] for g in c.get("/api/games-offered?lang=de").json()}
        english = {g["id"]: g["title"] for g in c.get("/api/games-offered").json()}
    assert [s["name"] for s in en] == ["Player 1", "Bot 2 (easy)"]
    assert [s["name"] for s in de] == ["Spieler 1", "Bot 2 (easy)"]
    assert english["base"] == "Forest Shuffle" and titles["base"] == "Mischwald"
    assert titles["base+alpine"] == "Mischwald + Alpin"


def test_the_card_texts_tags_and_symbols_come_in_the_language_asked_for() -> None:
    """``GET /api/cards``: each species' texts, short phrases and points in the language
    (the ``cards`` domain), its tags' nouns and the tree symbols' names; English unchanged
    (no ``tag_words`` nor ``symbols``, its phrases the English ones)."""
    from forest_shuffle.text import cardtext

    catalog = game_by_id("base").catalog
    with client() as c:
        en = c.get("/api/cards?game=base").json()
        assert "symbols" not in en and "tag_words" not in en["species"]["Tawny Owl"]
        assert en["species"]["Tawny Owl"]["points_short"] == cardtext.describe_points(
            catalog.species["Tawny Owl"])
        for lang in ("de", "fr", "zh"):
            got = c.get(f"/api/cards?game=base&lang={lang}").json()
            owl = got["species"]["Tawny Owl"]
            sp = catalog.species["Tawny Owl"]
            assert owl["text"]["bonus"] == cardtext.short_text(sp, "bonus", lang)
            assert owl["text"]["bonus"] != en["species"]["Tawny Owl"]["text"]["bonus"]
            assert owl["points_short"] == cardtext.describe_points(sp, lang)
            assert owl["short"].startswith("Bonus: ") or "Bonus: " in owl["short"]
            assert owl["tag_words"] == {"bird": cardtext.tag_word("bird", 1, lang)}
            assert owl["tag_words"]["bird"] != "bird"
            assert got["symbols"]["Oak"] == printed_name(catalog.species["Oak"], lang)
