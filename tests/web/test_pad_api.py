"""The score pad's REST API (server/pad.py, docs/pad.md): tables of every registered game,
entries checked by the Forest JSON reader and refused in its words, replays, undo, close,
history, statistics, Forest JSON in and out, the Dartmoor rulebook's example by entries."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from padutil import enter, entries_of, new_table, ok, scorer_answer, table
from webutil import one_line_error

from forest_shuffle.formats.forest_json import ForestJsonError
from forest_shuffle.games import game_ids

DATA = Path(__file__).parents[1] / "data/forest"
REFERENCE = Path(__file__).parents[3] / "shared/reference/cards-dartmoor.json"

#: The example of spec/forest-json.md (base game, card ids and symbols).
SPEC_EXAMPLE: dict[str, Any] = {"players": [
    {"name": "Ann", "cave": 4, "trees": [
        {"tree": "Oak", "top": ["Red Squirrel"], "bottom": [{"card": 131}],
         "left": ["European Hare", "European Hare"], "right": ["Wolf"]},
        {"tree": "sapling", "bottom": ["Common Toad", "Common Toad"]},
        {"card": 12}]},
    {"name": "Ben", "trees": [
        {"tree": "Beech", "top": [{"species": "Red Squirrel", "symbol": "Beech"}],
         "right": [{"card": 76}]}]}]}


def _first(catalog: dict[str, Any], side: str) -> dict[str, Any]:
    """A dweller of the catalog that goes to ``side`` of a tree and stacks with nothing."""
    return next(d for d in catalog["dwellers"]
                if side in d["sides"] and not d["stacks"]
                and (not d["hosts"] or "tree" in d["hosts"]))


@pytest.mark.parametrize("game", game_ids())
def test_every_game_entered_and_scored_as_the_scorer_scores(c: TestClient, game: str) -> None:
    cat = c.get("/api/pad/catalog", params={"game": game}).json()
    assert cat["game"] == game and cat["lines"]
    t = new_table(c, game, ["Ann", "Ben"])
    tid, ann = t["id"], t["seats"][0]["token"]
    tree = next(h for h in cat["hosts"] if h["kind"] == "tree")
    bird = _first(cat, "top")
    ok(c, tid, ann, {"op": "add_host", "host": tree["name"]})
    card = {"species": bird["name"], "symbol": bird["symbols"][0]} if bird["symbols"] \
        else bird["name"]
    ok(c, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "top"}, "card": card})
    named = cat["caves"]["named"]  # Exploration's caves, chosen by name
    ok(c, tid, ann, {"op": "set_cave", "cave": {"name": named[0]["name"], "cards": 3} if named
                     else 3 if game != "dartmoor" else {"number": 2, "cards": 3}})
    got = table(c, tid)
    doc = c.get(f"/api/pad/tables/{tid}/forest.json").json()
    want = scorer_answer(doc)
    assert [p["total"] for p in got["players"]] == [p["total"] for p in want["players"]]
    assert [p["lines"] for p in got["players"]] == [p["lines"] for p in want["players"]]
    assert got["players"][0]["cards"] == want["players"][0]["cards"]
    assert list(got["players"][0]["lines"]) == cat["lines"] == got["lines"]
    # a second card in the one-card slot: refused in the reader's words, nothing changes
    before = got["version"]
    msg = one_line_error(enter(c, tid, ann, {"op": "add_card", "at": {
        "host": 0, "side": "top"}, "card": card}), 400)
    assert "Ann" in msg and "top" in msg
    assert table(c, tid)["version"] == before


def test_the_dartmoor_rulebook_example_entered_by_entries_gives_its_total(
        c: TestClient) -> None:
    doc = json.loads((DATA / "dartmoor-rulebook-example.json").read_text(encoding="utf-8"))
    t = new_table(c, "dartmoor", [p["name"] for p in doc["players"]])
    for seat, player in enumerate(doc["players"]):
        for op in entries_of(player):
            ok(c, t["id"], t["seats"][seat]["token"], op)
    ann = table(c, t["id"])["players"][0]
    want = 127  # the rulebook's figure
    if REFERENCE.exists():
        want = json.loads(REFERENCE.read_text(encoding="utf-8"))[
            "scoring_example_from_rulebook"]["total"]
    assert ann["total"] == want
    assert ann["lines"]["cave"] == 10 and sum(ann["lines"].values()) == want


def test_the_spec_example_entered_card_by_card_and_by_the_host(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann", "Ben"])
    for seat, player in enumerate(SPEC_EXAMPLE["players"]):
        for op in entries_of(player):  # the host enters both forests
            ok(c, t["id"], t["host"], op, seat=seat)
    got = table(c, t["id"])
    want = scorer_answer(SPEC_EXAMPLE)
    assert [p["total"] for p in got["players"]] == [p["total"] for p in want["players"]]
    assert got["winners"] is None  # nobody is done yet
    for s in t["seats"]:
        ok(c, t["id"], s["token"], {"op": "done"})
    assert table(c, t["id"])["winners"] == want["winners"]


def _refusal(c: TestClient, game: str, setup: list[dict[str, Any]], bad: dict[str, Any],
             *words: str, players: tuple[str, ...] = ("Ann", "Ben")) -> str:
    t = new_table(c, game, list(players))
    for op in setup:
        ok(c, t["id"], t["seats"][0]["token"], op)
    before = table(c, t["id"])
    msg = one_line_error(enter(c, t["id"], t["seats"][0]["token"], bad), 400)
    for w in words:
        assert w.lower() in msg.lower(), msg
    assert "Traceback" not in msg and "{" not in msg
    assert table(c, t["id"]) == before  # a refused entry changes nothing
    return msg


OAK = {"op": "add_host", "host": "Oak"}


def _card(side: str, card: Any, host: int = 0, where: str = "trees") -> dict[str, Any]:
    return {"op": "add_card", "at": {"list": where, "host": host, "side": side}, "card": card}


def test_every_refusal_kind_is_said_in_words(c: TestClient) -> None:
    _refusal(c, "base", [OAK], _card("top", "Unicorn"), "unknown", "Unicorn")
    _refusal(c, "base", [OAK], _card("bottom", "Tawny Owl"), "Tawny Owl", "bottom")
    _refusal(c, "base", [OAK, _card("top", "Tawny Owl")], _card("top", "Red Squirrel"),
             "two cards", "holds one")
    toads = [OAK, _card("bottom", "Common Toad"), _card("bottom", "Common Toad")]
    _refusal(c, "base", toads, _card("bottom", "Common Toad"), "toad")
    _refusal(c, "base", [], {"op": "add_host", "host": "Stone Pine"}, "Stone Pine")
    _refusal(c, "base", [OAK], {"op": "set_cave", "cave": -1}, "cave")
    _refusal(c, "base", [OAK, {"op": "add_host", "host": "Beech"}, _card("bottom", {"card": 131})],
             _card("bottom", {"card": 131}, host=1), "131")
    _refusal(c, "base", [], {"op": "add_host", "host": {"card": 68}}, "winter")
    cat = c.get("/api/pad/catalog", params={"game": "base"}).json()
    linden = next(h for h in cat["hosts"] if h["name"] == "Linden")
    lindens = [{"op": "add_host", "host": "Linden"}] * linden["count"]
    _refusal(c, "base", lindens, {"op": "add_host", "host": "Linden"}, "Linden")
    _refusal(c, "dartmoor", [{"op": "add_moor", "moor": "Tor"}],
             _card("left", "Roe Deer", where="moors"), "left")
    _refusal(c, "dartmoor", [], {"op": "set_cave", "cave": {"number": 9, "cards": 1}},
             "cave")
    _refusal(c, "dartmoor", [], {"op": "add_moor", "moor": "Swamp"}, "moor")
    _refusal(c, "dartmoor", [], {"op": "add_host", "host": "sapling"}, "sapling")
    _refusal(c, "base", [], {"op": "add_moor", "moor": "Tor"}, "Dartmoor")
    _refusal(c, "base", [OAK], {"op": "remove", "at": {"host": 3}}, "no tree 3")
    _refusal(c, "base", [OAK], {"op": "fly"}, "unknown entry")
    _refusal(c, "base", [], {"op": "undo"}, "nothing to undo")


def test_a_cave_used_by_two_players_is_refused(c: TestClient) -> None:
    t = new_table(c, "dartmoor", ["Ann", "Ben"])
    ok(c, t["id"], t["seats"][0]["token"], {"op": "set_cave", "cave": {"number": 2, "cards": 1}})
    msg = one_line_error(enter(c, t["id"], t["seats"][1]["token"], {
        "op": "set_cave", "cave": {"number": 2, "cards": 4}}), 400)
    assert "cave" in msg


def test_tokens_versions_and_closed_tables_are_refused_in_words(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann", "Ben"])
    tid, ann, ben = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    assert "token" in one_line_error(enter(c, tid, "nobody", OAK), 403)
    assert "own forest" in one_line_error(enter(c, tid, ben, OAK, seat=0), 403)
    assert "seat" in one_line_error(enter(c, tid, t["host"], OAK), 400)
    assert "no such table" in one_line_error(
        c.get("/api/pad/tables/0000000000000000"), 404)
    ok(c, tid, ann, OAK, base=0)
    assert "changed since version 0" in one_line_error(enter(c, tid, ann, OAK, base=0), 409)
    assert "host" in one_line_error(
        c.post(f"/api/pad/tables/{tid}/close", headers={"X-Pad-Token": ann}), 403)
    assert "link" in one_line_error(c.post(f"/api/pad/tables/{tid}/players",
                                           json={"join": "wrong", "name": "Cy"}), 403)
    assert "taken" in one_line_error(c.post(f"/api/pad/tables/{tid}/players",
                                            json={"join": t["join"], "name": "Ben"}), 400)
    assert c.post(f"/api/pad/tables/{tid}/close",
                  headers={"X-Pad-Token": t["host"]}).status_code == 200
    assert "closed" in one_line_error(enter(c, tid, ann, OAK), 409)
    assert "closed" in one_line_error(c.post(f"/api/pad/tables/{tid}/players",
                                             json={"join": t["join"], "name": "Cy"}), 409)
    assert "game" in one_line_error(
        c.post("/api/pad/tables", json={"game": "chess", "players": ["A"]}), 400)


def test_a_replayed_entry_is_applied_once(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann"])
    tid, ann = t["id"], t["seats"][0]["token"]
    first = ok(c, tid, ann, OAK, entry_id="phone-1", base=0)
    again = ok(c, tid, ann, OAK, entry_id="phone-1", base=0)
    assert first["replayed"] is False and again["replayed"] is True
    assert again["version"] == first["version"] == 1
    assert len(table(c, tid)["players"][0]["forest"]["trees"]) == 1


def test_an_offline_queue_is_sent_later_and_again_without_harm(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann", "Ben"])
    tid, ann, ben = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    queue = [(f"q{i}", op) for i, op in enumerate(entries_of(SPEC_EXAMPLE["players"][0]))]
    ok(c, tid, ben, {"op": "add_host", "host": "Beech"})  # meanwhile, another phone
    for _ in range(2):  # sent when back online, then once more (the answers were lost)
        for base, (eid, op) in enumerate(queue):
            ok(c, tid, ann, op, entry_id=eid, base=base)
    got = table(c, tid)["players"][0]
    assert got["forest"] == {"name": "Ann", **{k: v for k, v in
                                               SPEC_EXAMPLE["players"][0].items()
                                               if k != "name"}}
    assert got["version"] == len(queue)


def test_remove_move_change_and_undo(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann"])
    tid, ann = t["id"], t["seats"][0]["token"]
    ok(c, tid, ann, OAK)
    ok(c, tid, ann, {"op": "add_host", "host": "Beech"})
    ok(c, tid, ann, _card("top", "Tawny Owl"))
    forest = lambda: table(c, tid)["players"][0]["forest"]  # noqa: E731
    ok(c, tid, ann, {"op": "move", "at": {"host": 0, "side": "top", "index": 0},
                     "to": {"host": 1, "side": "top"}})
    assert forest()["trees"] == [{"tree": "Oak"}, {"tree": "Beech", "top": ["Tawny Owl"]}]
    ok(c, tid, ann, {"op": "change", "at": {"host": 1, "side": "top", "index": 0},
                     "card": "Red Squirrel"})
    ok(c, tid, ann, {"op": "change", "at": {"host": 0}, "host": "Birch"})
    assert forest()["trees"] == [{"tree": "Birch"}, {"tree": "Beech", "top": ["Red Squirrel"]}]
    ok(c, tid, ann, {"op": "remove", "at": {"host": 1, "side": "top", "index": 0}})
    assert forest()["trees"][1] == {"tree": "Beech"}
    for want in ([{"tree": "Birch"}, {"tree": "Beech", "top": ["Red Squirrel"]}],
                 [{"tree": "Oak"}, {"tree": "Beech", "top": ["Red Squirrel"]}],
                 [{"tree": "Oak"}, {"tree": "Beech", "top": ["Tawny Owl"]}],
                 [{"tree": "Oak", "top": ["Tawny Owl"]}, {"tree": "Beech"}]):
        ok(c, tid, ann, {"op": "undo"})
        assert forest()["trees"] == want
    ok(c, tid, ann, {"op": "remove", "at": {"host": 0}})
    assert forest()["trees"] == [{"tree": "Beech"}]


def test_close_history_and_statistics_agree_with_the_tables(c: TestClient) -> None:
    totals: dict[str, list[int]] = {"Ann": [], "Ben": []}
    wins = {"Ann": 0, "Ben": 0}
    for doc in (SPEC_EXAMPLE, {"players": SPEC_EXAMPLE["players"][::-1]}):
        r = c.post("/api/pad/import", json=doc)
        assert r.status_code == 200, r.text
        t = r.json()
        closed = c.post(f"/api/pad/tables/{t['id']}/close",
                        headers={"X-Pad-Token": t["host"]}).json()
        assert closed["state"] == "closed" and closed["winners"]
        for p in closed["players"]:
            totals[p["name"]].append(p["total"])
            wins[p["name"]] += p["name"] in closed["winners"]
    history = c.get("/api/pad/history").json()
    assert len(history) == 2 and history[0]["closed"] >= history[1]["closed"]
    assert {p["name"] for h in history for p in h["players"]} == {"Ann", "Ben"}
    stats = {s["name"]: s for s in c.get("/api/pad/stats").json()}
    for name, ts in totals.items():
        assert stats[name]["games"] == 2 and stats[name]["wins"] == wins[name]
        assert stats[name]["best"] == max(ts)
        assert stats[name]["average"] == pytest.approx(sum(ts) / 2)
        assert sum(stats[name]["lines"].values()) == sum(ts)
        assert sum(stats[name]["species"].values()) <= sum(ts)  # the cave is no species
    assert [s["name"] for s in c.get("/api/pad/stats", params={"name": "Ben"}).json()] == [
        "Ben"]


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.json")
                                        if "bad" not in p.name))
def test_forest_json_opens_as_a_table_and_downloads_the_same(c: TestClient,
                                                             name: str) -> None:
    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    r = c.post("/api/pad/import", json=doc)
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    out = c.get(f"/api/pad/tables/{tid}/forest.json").json()
    assert [p["total"] for p in scorer_answer(out)["players"]] == [
        p["total"] for p in scorer_answer(doc)["players"]] == [
        p["total"] for p in table(c, tid)["players"]]


def test_a_refused_document_does_not_open(c: TestClient) -> None:
    doc = json.loads((DATA / "dartmoor-bad-moor-side.json").read_text(encoding="utf-8"))
    assert one_line_error(c.post("/api/pad/import", json=doc), 400)
    bad = copy.deepcopy(SPEC_EXAMPLE)
    bad["players"][0]["trees"][0]["top"].append("Tawny Owl")
    assert "holds one" in one_line_error(c.post("/api/pad/import", json=bad), 400)
    assert c.get("/api/pad/history").json() == []


def test_the_qr_code_is_an_svg_of_the_table_link(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann"])
    r = c.get(f"/api/pad/tables/{t['id']}/qr.svg", params={"join": t["join"]})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith(("<?xml", "<svg")) and "<path" in r.text
    assert "link" in one_line_error(
        c.get(f"/api/pad/tables/{t['id']}/qr.svg", params={"join": "x"}), 403)


def test_every_registered_game_is_offered(c: TestClient) -> None:
    assert [g["id"] for g in c.get("/api/pad/games").json()] == list(game_ids())


@pytest.mark.parametrize("game", game_ids())
def test_every_symbol_the_pad_asks_about_is_one_the_reader_takes(c: TestClient,
                                                                 game: str) -> None:
    cat = c.get("/api/pad/catalog", params={"game": game}).json()
    tree = next(h["name"] for h in cat["hosts"] if h["kind"] == "tree")
    asked = 0
    for d in cat["dwellers"]:
        moor = d["hosts"] == ["moor"]
        side = next((s for s in d["sides"] if not moor or s in ("top", "bottom")), None)
        if side is None:
            continue
        for symbol in d["ask"]:
            host = {"moor": "Tor"} if moor else {"tree": tree}
            player: dict[str, Any] = {"name": "Ann", "trees": [], **(
                {"moors": [{**host, side: [{"species": d["name"], "symbol": symbol}]}]}
                if moor else {"trees": [{**host, side: [{"species": d["name"],
                                                         "symbol": symbol}]}]})}
            try:
                scorer_answer({"game": game, "players": [player]})
            except ForestJsonError as exc:  # alone it may be refused, never for its symbol
                assert "symbol" not in str(exc), exc
            asked += 1
    assert asked


def test_tables_beyond_the_memory_bound_are_read_again_from_the_database(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from forest_shuffle.server import pad
    from forest_shuffle.server.store import Store

    monkeypatch.setattr(pad, "LIVE_MAX", 4)
    store = Store("sqlite://")
    svc = pad.PadService(store)
    made = [svc.create("base", ["Ann"]) for _ in range(9)]
    for i, t in enumerate(made):
        svc.enter(t["id"], t["seats"][0]["token"], f"e{i}", None, None, OAK)
        assert len(svc._live) <= 4  # the bound holds
    for t in made:  # and every table reads back whole from the database
        assert json.loads(svc.answer(t["id"]))["players"][0]["forest"]["trees"] == [
            {"tree": "Oak"}]
    store.close()


def test_two_server_processes_on_one_database_never_write_from_one_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from forest_shuffle.server import pad
    from forest_shuffle.server.store import Store

    url = f"sqlite:///{tmp_path / 'pad.db'}"
    one, two = Store(url), Store(url)
    a, b = pad.PadService(one), pad.PadService(two)  # two processes' services
    t = a.create("base", ["Ann", "Ben"])
    tid, ann, ben = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    assert json.loads(b.answer(tid))["version"] == 0  # b holds the table now
    a.enter(tid, ann, "a1", None, None, OAK)
    b.enter(tid, ben, "b1", None, None, {"op": "add_host", "host": "Beech"})  # b reads again
    got = json.loads(b.answer(tid))
    assert got["version"] == 2
    assert [p["forest"]["trees"] for p in got["players"]] == [[{"tree": "Oak"}],
                                                             [{"tree": "Beech"}]]
    # a write that raced past the check: refused, nothing written, then it goes through
    a.enter(tid, ann, "a2", None, None, {"op": "add_host", "host": "Birch"})
    monkeypatch.setattr(b.db, "version", lambda _tid: 2)  # b believes it is current
    with pytest.raises(pad.PadRefused, match="changed meanwhile") as refused:
        b.enter(tid, ben, "b2", None, None, {"op": "add_host", "host": "Linden"})
    assert refused.value.status == 409
    monkeypatch.undo()
    b.enter(tid, ben, "b2", None, None, {"op": "add_host", "host": "Linden"})
    final = json.loads(b.answer(tid))
    assert final["version"] == 4
    assert [len(p["forest"]["trees"]) for p in final["players"]] == [2, 2]
    one.close()
    two.close()


def test_an_exploration_table_offers_named_caves_the_new_species_and_the_cuckoo(
        c: TestClient) -> None:
    cat = c.get("/api/pad/catalog", params={"game": "base+woodland_edge+exploration"}).json()
    assert [x["name"] for x in cat["caves"]["named"]] == [
        "Bat Cave", "Collectors' Cave", "Lonely Cave", "Smuggler's Cave", "Storage Cave"]
    assert cat["caves"]["named"][3]["provisional"]  # the Smuggler's Cave's rule is unknown
    dwellers = {d["name"]: d for d in cat["dwellers"]}
    assert dwellers["Cuckoo"]["onto"] == "bird" and dwellers["Cuckoo"]["hosts"] == ["tree"]
    assert dwellers["Tawny Owl"]["onto"] == ""
    assert {"Palm Tree", "Turkey Oak"} <= {h["name"] for h in cat["hosts"]}
    assert cat["symbol_names"]["Golden Palm"] == "Golden Palm"
    t = new_table(c, "base+exploration+woodland_edge", ["Ann", "Ben"])
    assert t["game"] == "base+woodland_edge+exploration"
    tid, ann, ben = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    ok(c, tid, ann, {"op": "add_host", "host": {"tree": "Oak"}})
    r = enter(c, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "top"},
                            "card": "Cuckoo"})  # alone: refused
    assert "a Cuckoo goes only into the top slot of a tree" in one_line_error(r, 400)
    ok(c, tid, ann, {"op": "remove", "at": {"host": 0}})
    for op in entries_of({"trees": [
            {"tree": "Palm Tree", "top": ["Robin"], "left": ["Elk"]},
            {"tree": "Turkey Oak", "bottom": [{"card": 248}],
             "right": [{"species": "Troll", "symbol": "Douglas Fir"}]},
            {"tree": "Oak", "top": [{"species": "Tawny Owl", "symbol": "Beech"},
                                    "Cuckoo"]}]}):
        ok(c, tid, ann, op)
    ok(c, tid, ann, {"op": "set_cave", "cave": {"name": "bat cave", "cards": 3}})
    # the spec's example (28, tests/test_forest_json_v3.py) and an Oak (0 without 8 tree
    # species) with a Tawny Owl (5) and a Cuckoo (7), which add: 2 birds for the Palm Tree
    # (+2), a tree for the Troll (+1), the Cuckoo's Birch half for the Elk (+2): 45
    got = table(c, tid)
    assert got["players"][0]["total"] == 28 + 5 + 7 + 2 + 1 + 2
    assert got["players"][0]["lines"]["cave"] == 3
    why = {x["species"]: x["why"] for x in got["players"][0]["cards"]}
    assert "(provisional: " in why["Palm Tree"]
    doc = c.get(f"/api/pad/tables/{tid}/forest.json").json()
    assert doc["players"][0]["cave"] == {"name": "bat cave", "cards": 3}
    # refused in the reader's words, changing nothing
    r = enter(c, tid, ben, {"op": "set_cave", "cave": {"name": "Bat Cave", "cards": 1}})
    assert "the Bat Cave is used twice" in one_line_error(r, 400)
    r = enter(c, tid, ben, {"op": "set_cave", "cave": 2})
    assert "in a game with exploration the cave is named" in one_line_error(r, 400)
    ok(c, tid, ben, {"op": "add_host", "host": {"tree": "Beech"}})
    r = enter(c, tid, ben, {"op": "add_card", "at": {"host": 0, "side": "top"},
                            "card": "Cuckoo"})
    assert "more Cuckoo cards than the deck has (1)" in one_line_error(r, 400)
    assert table(c, tid)["players"][1]["total"] == 0
