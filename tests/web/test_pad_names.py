"""The score pad in the players' languages: entries by a species' French (German, Chinese)
name, refusals that name cards as the table writes them, the catalog's names by ``?lang=``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from padutil import enter, new_table, ok, scorer_answer, table
from webutil import one_line_error

from forest_shuffle.cards.names import LANGS, printed_name
from forest_shuffle.games import make_game


def test_an_entry_by_a_french_name_scores_as_the_english_one(c: TestClient) -> None:
    french = new_table(c, "base", ["Ann"])
    english = new_table(c, "base", ["Ann"])
    for t, tree, bird, pair in ((french, "Chêne", "Écureuil roux", "Crapaud commun"),
                                (english, "Oak", "Red Squirrel", "Common Toad")):
        tid, ann = t["id"], t["seats"][0]["token"]
        ok(c, tid, ann, {"op": "add_host", "host": tree})
        ok(c, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "top"}, "card": bird})
        for _ in range(2):
            ok(c, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "bottom"},
                             "card": pair})
    got, want = table(c, french["id"]), table(c, english["id"])
    assert [p["total"] for p in got["players"]] == [p["total"] for p in want["players"]]
    assert got["players"][0]["lines"] == want["players"][0]["lines"]
    assert got["players"][0]["total"] > 0
    doc = c.get(f"/api/pad/tables/{french['id']}/forest.json").json()
    assert doc["players"][0]["trees"][0]["tree"] == "Chêne"  # the entry as written
    assert [p["total"] for p in scorer_answer(doc)["players"]] == [
        p["total"] for p in got["players"]]


def test_a_refused_entry_names_the_card_in_the_tables_language(c: TestClient) -> None:
    t = new_table(c, "base", ["Ann"])
    tid, ann = t["id"], t["seats"][0]["token"]
    ok(c, tid, ann, {"op": "add_host", "host": "Hêtre"})
    ok(c, tid, ann, {"op": "add_card", "at": {"host": 0, "side": "top"}, "card": "Pinson"})
    before = table(c, tid)["version"]
    msg = one_line_error(enter(c, tid, ann, {"op": "add_card", "at": {
        "host": 0, "side": "top"}, "card": "Geai des chênes"}), 400)
    chaffinch = make_game("base").catalog.species["Chaffinch"]
    assert f"({printed_name(chaffinch, 'fr')} and Geai des chênes)" in msg
    assert table(c, tid)["version"] == before


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalog_gives_each_species_its_name_in_the_language(c: TestClient,
                                                                 lang: str) -> None:
    for game in ("base+alpine+woodland_edge", "dartmoor"):
        cat = c.get("/api/pad/catalog", params={"game": game, "lang": lang}).json()
        species = make_game(game).catalog.species
        assert cat["lang"] == lang
        for entry in cat["hosts"] + cat["dwellers"]:
            sp = species[entry["name"]]
            assert entry["printed"] == sp.printed  # the keys and English names stay
            assert entry["local"] == printed_name(sp, lang)
        assert cat["symbol_names"] == {s: printed_name(species[s], lang)
                                       for s in cat["tree_symbols"]}
    base = c.get("/api/pad/catalog", params={"lang": "zh"}).json()
    assert next(h["local"] for h in base["hosts"] if h["name"] == "Linden") == "椴树"


def test_the_catalog_refuses_an_unknown_language_in_one_line(c: TestClient) -> None:
    msg = one_line_error(c.get("/api/pad/catalog", params={"lang": "xx"}), 400)
    assert msg == "unknown language 'xx' (known: en, de, fr, zh)"
