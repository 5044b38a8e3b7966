"""The games of the family through the JSON API: the games offered, each game's cards, a game
of each id created with bots and invite links and played to the end with legal actions, the
game fields of the payloads, the new decisions (take from the clearing, clearing cards to
the cave, saplings), and a bad game id (a 400 with one line)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from webutil import TWO_HUMANS, act, head, new_game, one_line_error, payload, play_out

from forest_shuffle.engine.state import GameState
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.server import schemas
from forest_shuffle.server.app import create_app

ALL = "base+alpine+woodland_edge"
def test_games_offered_lists_every_game_the_default_first(c: TestClient) -> None:
    offered = c.get("/api/games-offered").json()
    assert [g["id"] for g in offered] == game_ids()
    assert offered[0]["id"] == "base"
    for g in offered:
        assert set(g) == {"id", "title", "words"} and g["title"] == make_game(g["id"]).title
    # each game's own words: the expansions' only where they are shuffled in
    words = {g["id"]: g["words"] for g in offered}
    assert "Alpine" not in words["base"] and "Woodland Edge" not in words["base"]
    assert "Alpine shuffles its cards" in words["base+alpine"]
    assert "Woodland Edge" not in words["base+alpine"]
    assert "Alpine and Woodland Edge shuffle" in words[ALL]
    assert "Alpine" not in words["dartmoor"] and "expansion" not in words["dartmoor"]
    assert "a game of its own" in words["dartmoor"] and "no saplings" in words["dartmoor"]
    assert "a game of its own" not in words["base"]
    for g in offered:
        low, high = make_game(g["id"]).players[0], make_game(g["id"]).players[-1]
        assert g["words"].startswith(f"{low} to {high} seats")
    with TestClient(create_app("sqlite://", bot_delay=0.0, game="base+woodland_edge")) as other:
        ids = [g["id"] for g in other.get("/api/games-offered").json()]
        assert ids[0] == "base+woodland_edge" and sorted(ids) == sorted(game_ids())
        # a creation that names no game gets the server's default
        gid = new_game(other, TWO_HUMANS)["game_id"]
        p = payload(other, gid, None)
        assert p["game"] == "base+woodland_edge"
        assert p["game_title"] == "Forest Shuffle + Woodland Edge"
        # and so do the cards asked for without a game
        shrubs = [k for k in other.get("/api/cards").json()["cards"].values()
                  if k["kind"] == "shrub"]
        assert len(shrubs) == 12


@pytest.mark.parametrize("gid", game_ids())
def test_cards_of_each_game(c: TestClient, gid: str) -> None:
    r = c.get("/api/cards", params={"game": gid})
    assert r.status_code == 200, r.text
    data = r.json()
    catalog = make_game(gid).catalog
    assert {int(k) for k in data["cards"]} == {k.id for k in catalog.cards if k is not None}
    assert set(data["species"]) == set(catalog.species)
    kinds = {k["kind"] for k in data["cards"].values()}
    assert ("shrub" in kinds) == ("woodland_edge" in gid or gid == "dartmoor")
    assert ("moor" in kinds) == (gid == "dartmoor")
    alpine = {"European Larch", "Stone Pine"}
    assert (alpine <= set(data["species"])) == ("alpine" in gid)
    for card in data["cards"].values():
        if card["kind"] == "shrub":  # a host with the tree symbol printed on it
            name = card["halves"]["tree"]
            assert data["species"][name]["kind"] == "shrub"
            assert data["species"][name]["positions"] == ["shrub"]
            assert card["symbol"] in catalog.tree_symbols and card["symbol"] != name
            assert card["symbols"] == {"tree": card["symbol"]}
    if "alpine" in gid:
        larch = data["species"]["European Larch"]
        assert larch["kind"] == "tree" and "alps" in larch["tags"]
    if "woodland_edge" in gid:
        assert "woodland edge" in data["species"]["Elderberry"]["tags"]


def test_cards_no_game_is_the_base_game_and_other_spellings_are_accepted(c: TestClient) -> None:
    assert c.get("/api/cards").json() == c.get("/api/cards", params={"game": "base"}).json()
    other = c.get("/api/cards", params={"game": "base+woodland_edge+alpine"})
    assert other.status_code == 200
    assert other.json() == c.get("/api/cards", params={"game": ALL}).json()


def test_a_bad_game_is_a_400_with_one_line(c: TestClient) -> None:
    for bad in ("base+promos", "alpine", "", "x" * 80, "base+alpine+alpine"):
        r = c.post("/api/games", json={"seats": TWO_HUMANS, "game": bad})
        assert "unknown game" in one_line_error(r, 400), bad
        assert "base+alpine+woodland_edge" in r.json()["error"]  # the known ids are named
        assert "unknown game" in one_line_error(c.get("/api/cards", params={"game": bad}), 400)
    assert one_line_error(c.post("/api/games", json={"seats": TWO_HUMANS, "game": 3}), 400)
    assert one_line_error(c.post("/api/games", json={"seats": TWO_HUMANS,
                                                     "game": "x" * 81}), 400)
    assert one_line_error(c.get("/api/cards", params={"game": "x" * 81}), 400)


def _check_mine(p: dict[str, Any], gid: str, cards: set[int]) -> None:
    """A seat's payload at its decision: the game fields, actions and words that match."""
    assert p["game"] == gid and p["view"]["game"] == gid
    assert p["game_title"] == make_game(gid).title
    assert p["legal"] and len(p["legal"]) == len(p["legal_words"]) and p["prompt"]
    assert p["decision"] == p["view"]["pending"]["kind"]
    view = p["view"]
    shown = set(view["hand"]) | set(view["clearing"]) | set(view["winter"])
    for forest in view["forests"]:
        for host in forest:
            shown |= {host["card"]} if host["card"] else set()
            for stack in host["slots"].values():
                shown |= set(stack)
    assert shown <= cards, shown - cards  # no card of another game
    hand, clearing = set(view["hand"]), set(view["clearing"])
    for text in p["legal"]:
        kind, *rest = text.split()
        if p["decision"] == "take":
            assert kind == "take" and int(rest[0]) in clearing
        elif p["decision"] == "clearing cave":
            assert kind == "cave" and int(rest[0]) in clearing
        elif p["decision"] == "saplings":
            assert text == "done" or (kind == "sapling" and int(rest[0]) in hand)


def play_to_end(c: TestClient, gid: str, game: str, tokens: dict[int, str],
                seed: int = 0, limit: float = 120.0) -> tuple[dict[str, Any], dict[str, int]]:
    """Random legal actions for the seats of ``tokens`` (the bots play the others) until
    the game is over; the last payload and the decisions the seats took."""
    cards = {k.id for k in make_game(game).catalog.cards if k is not None}
    decisions: dict[str, int] = {}

    def check(p: dict[str, Any]) -> None:
        _check_mine(p, game, cards)
        decisions[p["decision"]] = decisions.get(p["decision"], 0) + 1

    return play_out(c, gid, tokens, check, seed, limit), decisions


@pytest.mark.parametrize("gid", game_ids())
def test_a_game_of_each_id_with_bots_to_the_end(c: TestClient, gid: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy", "name": "Robin"},
             {"kind": "human", "name": "Cy"}, {"kind": "bot", "level": "medium", "name": "Wren"}]
    created = new_game(c, seats, seed=21, game=gid)
    game_id = created["game_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
    assert sorted(tokens) == [0, 2]  # invite links for the people only
    assert all(s["link"] for s in created["seats"] if s["token"])
    first = payload(c, game_id, None)
    assert first["game"] == gid and first["game_title"] == make_game(gid).title
    assert first["view"]["game"] == gid and not first["hotseat"]
    schemas.Payload.model_validate(first)
    last, decisions = play_to_end(c, game_id, gid, tokens, seed=21)
    assert last["over"] and last["game"] == gid
    schemas.Payload.model_validate(last)
    assert "turn" in decisions and "pay" in decisions
    scores = last["scores"]
    assert len(scores) == 4
    for s in scores:
        assert sum(s["lines"].values()) == s["total"]
        assert sum(cp["points"] for cp in s["cards"]) == s["total"]
    best = max(s["total"] for s in scores)
    assert last["winners"] == [s["seat"] for s in scores if s["total"] == best]
    # the server's state is a game of that id, and the scores are its own
    state = c.app.state.service.game(game_id).snap.state  # type: ignore[attr-defined]
    assert state.game.id == gid and state.over
    assert [s["total"] for s in scores] == state.scores()
    if "woodland_edge" in gid:
        hosts = [make_game(gid).catalog.card(h.card).kind for f in state.forests
                 for h in f.trees if h.card is not None and h.species is not None]
        assert set(hosts) <= {"tree", "shrub"}
    # a rematch is a game of the same id
    again = c.post(f"/api/games/{game_id}/rematch", headers=head(tokens[0])).json()
    assert payload(c, again["game_id"], None)["game"] == gid


@pytest.mark.parametrize("gid", ["base+alpine", "base+woodland_edge"])
def test_hot_seat_of_an_expansion_to_the_end(c: TestClient, gid: str) -> None:
    created = new_game(c, TWO_HUMANS, seed=3, hotseat=True, game=gid)
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    last, _ = play_to_end(c, created["game_id"], gid, tokens, seed=3)
    assert last["over"] and last["hotseat"] and last["game"] == gid


def _script(c: TestClient, seed: int, texts: list[str]) -> tuple[str, dict[int, str]]:
    """A hot-seat game of every expansion with a known deal, played to a point."""
    created = new_game(c, TWO_HUMANS, seed=seed, hotseat=True, game=ALL)
    gid = created["game_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    for text in texts:
        p = payload(c, gid, None)
        mine = payload(c, gid, tokens[p["to_move"]])
        assert text in mine["legal"], (text, mine["legal"])
        assert act(c, gid, tokens[p["to_move"]], text, mine["version"]).status_code == 200
    return gid, tokens


def _check_against_the_engine(c: TestClient, gid: str, p: dict[str, Any]) -> None:
    state: GameState = c.app.state.service.game(gid).snap.state  # type: ignore[attr-defined]
    assert p["decision"] == state.decision
    assert p["legal"] == [str(a) for a in state.legal_actions()]


def test_saplings_of_a_water_vole_on_a_shrub(c: TestClient) -> None:
    gid, tokens = _script(c, 5, ["play 199", "pay 150", "pay 158"] + ["draw"] * 6
                          + ["play 219 bottom 1", "pay 129", "pay 166", "yes"])
    p = payload(c, gid, tokens[0])
    _check_against_the_engine(c, gid, p)
    assert p["decision"] == "saplings"
    assert p["legal"] == ["sapling 193", "sapling 232", "done"]
    assert p["legal_words"][0] == "play card 193 (Common Raven/Blueberry) as a sapling"
    shrub = p["view"]["forests"][0][0]
    assert shrub["card"] == 199 and not shrub["sapling"]
    assert shrub["slots"]["bottom"] == [219]
    p = act(c, gid, tokens[0], "sapling 193", p["version"]).json()
    assert p["decision"] == "saplings" and p["legal"] == ["sapling 232", "done"]
    assert [h["sapling"] for h in p["view"]["forests"][0]] == [False, True]
    p = act(c, gid, tokens[0], "done", p["version"]).json()
    assert p["decision"] != "saplings"
    assert "sapling" in p["log"][-1]["text"] or any("sapling" in e["text"] for e in p["log"])


def test_clearing_cards_to_the_cave(c: TestClient) -> None:
    gid, tokens = _script(c, 20, ["keep", "play 209", "pay 136", "pay 151", "draw", "draw",
                                  "play 194 top 1", "pay 124", "yes"])
    p = payload(c, gid, tokens[0])
    _check_against_the_engine(c, gid, p)
    assert p["decision"] == "clearing cave" and p["legal"] == ["cave 124", "cave 136"]
    assert all("under your cave" in w for w in p["legal_words"])
    assert payload(c, gid, tokens[1])["legal"] == []  # not Bob's decision
    refused = act(c, gid, tokens[0], "cave 92", p["version"])  # a hand card, not the clearing's
    assert one_line_error(refused, 400)
    p = act(c, gid, tokens[0], "cave 124", p["version"]).json()
    assert p["legal"] == ["cave 136", "cave 151"]
    p = act(c, gid, tokens[0], "cave 151", p["version"]).json()
    assert p["view"]["cave_sizes"] == [2, 0] and p["view"]["clearing"] == [136]
    assert sorted(p["view"]["own_cave"]) == [124, 151]
    bob = payload(c, gid, tokens[1])
    assert bob["view"]["own_cave"] == [] and bob["view"]["cave_sizes"] == [2, 0]


def test_an_effect_takes_from_the_clearing(c: TestClient) -> None:
    gid, tokens = _script(c, 19, ["play 12", "pay 94", "pay 185", "draw", "draw",
                                  "play 216 top 1", "pay 82", "yes"])
    p = payload(c, gid, tokens[0])
    _check_against_the_engine(c, gid, p)
    assert p["decision"] == "take"
    assert p["legal"] == [f"take {k}" for k in p["view"]["clearing"]]
    assert all("from the clearing" in w for w in p["legal_words"])
    card = int(p["legal"][-1].split()[1])
    p = act(c, gid, tokens[0], p["legal"][-1], p["version"]).json()
    assert card not in p["view"]["clearing"]
    assert card in payload(c, gid, tokens[1])["view"]["known_hands"][0]  # everyone saw it
