"""Forest JSON in the players' languages: species, trees, moors and symbols written in
German, French or Chinese are read as the English ones, and what the output echoes keeps the
document's language (``docs/forest-json.md``, "Names in four languages")."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from forest_shuffle.cards.names import LANGS, printed_name
from forest_shuffle.formats.forest_json import (
    ForestJsonError,
    read_table,
    render_result,
    result_to_json,
)
from forest_shuffle.games import make_game

ENGLISH: dict[str, Any] = {
    "game": "base+alpine+woodland_edge",
    "players": [
        {"name": "Ann", "cave": 3, "trees": [
            {"tree": "Oak", "top": ["Red Squirrel"], "bottom": ["Wild Strawberries"],
             "left": ["European Hare", "European Hare"], "right": ["Wolf"]},
            {"tree": "Linden", "top": ["Goshawk"], "left": ["Red Deer"],
             "right": [{"species": "Squeaker", "symbol": "Oak"}]},
            {"tree": "Stone Pine", "top": ["Golden Eagle"], "bottom": ["Edelweiss"]},
            {"tree": "Beech", "left": [{"species": "Fallow Deer", "symbol": "Birch"}]},
        ]},
        {"name": "Ben", "trees": [
            {"tree": "Linden", "top": ["Chaffinch"], "bottom": ["Blackberries"]},
            {"tree": "Linden", "right": ["Wild Boar"], "left": ["Red Fox"]},
            {"tree": "Elderberry", "top": ["Nightingale"], "bottom": ["Stinging Nettle"]},
        ]},
    ],
}

#: The same table written by a German player (as the German cards print the names).
GERMAN: dict[str, Any] = {
    "game": "base+alpine+woodland_edge",
    "players": [
        {"name": "Ann", "cave": 3, "trees": [
            {"tree": "Eiche", "top": ["Eichhörnchen"], "bottom": ["Walderdbeeren"],
             "left": ["Feldhase", "feldhase"], "right": ["Wolf"]},
            {"tree": "Linde", "top": ["Habicht"], "left": ["Rothirsch"],
             "right": [{"species": "Frischling", "symbol": "Eiche"}]},
            {"tree": "Zirbelkiefer", "top": ["Steinadler"], "bottom": ["Edelweiß"]},
            {"tree": "Buche", "left": [{"species": "Damhirsch", "symbol": "Birke"}]},
        ]},
        {"name": "Ben", "trees": [
            {"tree": "Linde", "top": ["Buchfink"], "bottom": ["Brombeeren"]},
            {"tree": "Linde", "right": ["Wildschwein"], "left": ["Fuchs"]},
            {"tree": "Holunder", "top": ["Nachtigall"], "bottom": ["Brennnessel"]},
        ]},
    ],
}

#: The same table in Simplified Chinese.
CHINESE: dict[str, Any] = {
    "game": "base+alpine+woodland_edge",
    "players": [
        {"name": "Ann", "cave": 3, "trees": [
            {"tree": "橡树", "top": ["红松鼠"], "bottom": ["野草莓"],
             "left": ["欧洲野兔", "欧洲野兔"], "right": ["狼"]},
            {"tree": "椴树", "top": ["苍鹰"], "left": ["马鹿"],
             "right": [{"species": "小野猪", "symbol": "橡树"}]},
            {"tree": "瑞士石松", "top": ["金雕"], "bottom": ["高山火绒草"]},
            {"tree": "山毛榉", "left": [{"species": "小鹿", "symbol": "桦树"}]},
        ]},
        {"name": "Ben", "trees": [
            {"tree": "椴树", "top": ["苍头燕雀"], "bottom": ["黑莓"]},
            {"tree": "椴树", "right": ["野猪"], "left": ["赤狐"]},
            {"tree": "接骨木", "top": ["夜莺"], "bottom": ["刺荨麻"]},
        ]},
    ],
}


def _score(doc: dict[str, Any]) -> dict[str, Any]:
    table = read_table(copy.deepcopy(doc))
    return result_to_json(table.names, table.game.score_table(table.forests), table)


def _without_names(result: dict[str, Any]) -> list[Any]:
    return [(p["name"], p["total"], p["lines"], [(c["where"], c["points"]) for c in p["cards"]])
            for p in result["players"]]


@pytest.mark.parametrize(("doc", "lang"), [(GERMAN, "de"), (CHINESE, "zh")])
def test_a_table_in_another_language_scores_as_the_english_one(doc: dict[str, Any],
                                                               lang: str) -> None:
    english = _score(ENGLISH)
    other = _score(doc)
    assert _without_names(other) == _without_names(english)
    assert other["winners"] == english["winners"]
    assert read_table(copy.deepcopy(doc)).lang == lang
    catalog = make_game(ENGLISH["game"]).catalog
    by_printed = {sp.printed: sp for sp in catalog.species.values()}
    for mine, theirs in zip(english["players"], other["players"], strict=True):
        # the output's species are in the document's language, card for card
        assert [printed_name(by_printed[c["species"]], lang) if c["species"] in by_printed
                else c["species"] for c in mine["cards"]] == [
            c["species"] for c in theirs["cards"]]
        assert any(c["species"] not in by_printed for c in theirs["cards"])  # not English


@pytest.mark.parametrize("lang", LANGS)
def test_every_species_of_the_table_in_each_language(lang: str) -> None:
    catalog = make_game(ENGLISH["game"]).catalog
    by_printed = {sp.printed: sp for sp in catalog.species.values()}
    doc = copy.deepcopy(ENGLISH)
    for player in doc["players"]:
        for tree in player["trees"]:
            tree["tree"] = printed_name(by_printed[tree["tree"]], lang)
            for side in ("top", "bottom", "left", "right"):
                tree[side] = [printed_name(by_printed[e], lang) if isinstance(e, str) else
                              {**e, "species": printed_name(by_printed[e["species"]], lang),
                               "symbol": printed_name(by_printed[e["symbol"]], lang)}
                              for e in tree.get(side, [])]
    assert _without_names(_score(doc)) == _without_names(_score(ENGLISH))


def test_an_english_document_reads_and_answers_as_before() -> None:
    table = read_table(copy.deepcopy(ENGLISH))
    assert table.lang == "en"
    result = _score(ENGLISH)
    plain = result_to_json(table.names, table.game.score_table(table.forests))
    assert result == plain  # English names are the scorer's own


def test_a_refusal_names_the_card_in_the_documents_language() -> None:
    doc = copy.deepcopy(GERMAN)
    doc["players"][0]["trees"][2]["left"] = ["Steinadler"]  # a bird on the left
    with pytest.raises(ForestJsonError) as err:
        read_table(doc)
    assert str(err.value) == ('player 1 "Ann", tree 3, left: Steinadler can\'t go on the left '
                              "(it goes top)")
    doc = copy.deepcopy(CHINESE)
    doc["players"][1]["trees"][0]["bottom"] = ["黑莓", "野草莓"]
    with pytest.raises(ForestJsonError,
                       match=r"two cards in a slot that holds one \(黑莓 and 野草莓\)"):
        read_table(doc)


def test_a_symbol_refusal_names_the_tree_in_the_documents_language() -> None:
    doc = {"players": [{"name": "A", "trees": [
        {"tree": "Tilleul", "left": [{"species": "Marcassin", "symbol": "Tilleul"}]}]}]}
    with pytest.raises(ForestJsonError, match=r"no Marcassin in the deck shows the Tilleul symbol"):
        read_table(doc)


def test_a_name_of_another_game_in_another_language_says_where_it_is() -> None:
    doc = {"players": [{"name": "A", "trees": [{"tree": "Zirbelkiefer"}]}]}
    with pytest.raises(ForestJsonError, match=r"it is in the alpine expansion, not in the game"):
        read_table(doc)
    doc = {"players": [{"name": "A", "trees": [{"tree": "Linde", "top": ["Klingonenvogel"]}]}]}
    with pytest.raises(ForestJsonError, match=r'unknown species "Klingonenvogel"'):
        read_table(doc)


def test_dartmoor_in_french() -> None:
    english = {"game": "dartmoor", "players": [
        {"name": "Ann", "cave": {"number": 4, "cards": 6}, "trees": [
            {"tree": "Crab Apple", "top": ["Wheatear"], "bottom": ["Beaver"],
             "left": [{"species": "Roe Deer", "symbol": "Ash"}], "right": ["Dartmoor Badger"]}],
         "moors": [{"moor": "Valley Mire", "top": ["Curlew"], "bottom": ["Heather", "Moor Frog"]},
                   {"moor": "universal", "top": ["Emerald Damselfly"]}]},
        {"name": "Ben", "trees": [{"tree": "Ash"}]}]}
    french = {"game": "dartmoor", "players": [
        {"name": "Ann", "cave": {"number": 4, "cards": 6}, "trees": [
            {"tree": "Pommier sauvage", "top": ["Traquet motteux"], "bottom": ["Castor d'Europe"],
             "left": [{"species": "Chevreuil", "symbol": "Frêne commun"}],
             "right": ["Blaireau du Dartmoor"]}],
         "moors": [{"moor": "Marécage tourbeux", "top": ["Courlis cendré"],
                    "bottom": ["Callune", "Grenouille des champs"]},
                   {"moor": "universal", "top": ["Leste fiancé"]}]},
        {"name": "Ben", "trees": [{"tree": "frene commun"}]}]}
    assert _without_names(_score(french)) == _without_names(_score(english))
    assert read_table(copy.deepcopy(french)).lang == "fr"
    french["players"][0]["moors"][0]["left"] = ["Chevreuil"]
    with pytest.raises(ForestJsonError, match="a moor has no left slot"):
        read_table(french)


def test_the_table_for_a_person_shows_the_documents_names() -> None:
    from rich.console import Console

    table = read_table(copy.deepcopy(GERMAN))
    console = Console(record=True, width=200)
    render_result(table.names, table.game.score_table(table.forests), console, table.game,
                  table.lang)
    text = console.export_text()
    assert "Eichhörnchen" in text and "Red Squirrel" not in text


def test_the_output_is_json_that_reads_back() -> None:
    result = _score(CHINESE)
    assert json.loads(json.dumps(result, ensure_ascii=False)) == result


def test_the_score_command_answers_a_german_table_in_german(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from forest_shuffle.cli.app import app

    path = tmp_path / "tisch.json"
    path.write_text(json.dumps(GERMAN, ensure_ascii=False), encoding="utf-8")
    res = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert res.exit_code == 0, res.output
    species = {c["species"] for p in json.loads(res.stdout)["players"] for c in p["cards"]}
    assert {"Eiche", "Eichhörnchen", "Frischling", "Holunder"} <= species
    bad = copy.deepcopy(GERMAN)
    bad["players"][0]["trees"][0]["top"] = ["Eichhörnchen", "Buchfink"]
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    res = CliRunner().invoke(app, ["score", str(path)])
    assert res.exit_code == 2
    assert "(Eichhörnchen and Buchfink)" in res.output
