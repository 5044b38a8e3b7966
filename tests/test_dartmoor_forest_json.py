"""Forest JSON, Dartmoor form (spec/forest-json.md): reading, every refusal, and `score`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forest_shuffle.cards.forest import UNIVERSAL_MOOR
from forest_shuffle.cli.app import app
from forest_shuffle.formats.forest_json import ForestJsonError, parse_table, read_table

DATA = Path(__file__).parent / "data/forest"


def doc(*players: dict[str, Any]) -> dict[str, Any]:
    return {"game": "dartmoor", "players": [{"name": f"P{i}", **p} for i, p in enumerate(players)]}


def refused(d: dict[str, Any]) -> str:
    with pytest.raises(ForestJsonError) as err:
        read_table(d)
    text = str(err.value)
    assert "\n" not in text
    return text


def test_the_spec_example_reads() -> None:
    spec = {"game": "dartmoor", "players": [{
        "name": "Ann", "cave": {"number": 4, "cards": 6},
        "trees": [{"tree": "Crab Apple", "top": ["Wheatear"], "bottom": ["Beaver"],
                   "left": [{"species": "Roe Deer", "symbol": "Ash"}],
                   "right": ["Dartmoor Badger"]},
                  {"tree": "Common Hazel", "left": [{"species": "Wood Mouse", "symbol": "Ash"}]}],
        "moors": [{"moor": "Valley Mire", "top": ["Curlew"], "bottom": ["Heather", "Moor Frog"]},
                  {"moor": "universal", "top": ["Emerald Damselfly"]}]}]}
    table = read_table(spec)
    f = table.forests[0]
    assert table.game.id == "dartmoor" and f.cave == 6 and f.cave_number == 4
    assert [t.kind for t in f.trees] == ["tree", "shrub", "moor", UNIVERSAL_MOOR]
    assert f.trees[0].symbol == "Crab Apple" and f.trees[1].symbol == ""
    assert read_table({**spec, "game": " Dartmoor "}).game.id == "dartmoor"


@pytest.mark.parametrize(("player", "message"), [
    ({"moors": [{"moor": "Tor", "left": ["Roe Deer"]}]}, "a moor has no left slot"),
    ({"trees": [{"tree": "Ash", "top": ["Curlew"]}]}, "Curlew goes only at a moor"),
    ({"trees": [{"tree": "Elderberry", "bottom": ["Warty Newt"]}]}, "goes only at a moor"),
    ({"moors": [{"moor": "Tor", "top": ["Curlew", "Grey Heron", "Wheatear"]}]},
     "more cards on the top of a moor than its two slots hold"),
    ({"moors": [{"moor": "Tor", "top": ["Cuckoo"]}]}, "Cuckoo goes only at a tree or shrub"),
    ({"trees": [{"tree": "Ash", "top": ["Cuckoo"]}]},
     "goes only into a top slot that holds a bird"),
    ({"trees": [{"tree": "Ash", "left": ["Roe Deer"]}]}, "give this Roe Deer's symbol"),
    ({"trees": [{"tree": "Ash", "left": [{"species": "Roe Deer", "symbol": "Goat Willow"}]}]},
     "no Roe Deer shows the Goat Willow symbol"),
    ({"trees": [{"tree": "Ash", "left": [{"species": "Roe Deer", "symbol": "Ash"}]},
                {"tree": "Ash", "left": [{"species": "Roe Deer", "symbol": "Ash"}]}]},
     "more Roe Deer cards showing the Ash symbol than the deck has (1)"),
    ({"trees": [{"tree": "Ash", "left": ["Shrew", "Shrew"]}]},
     "two cards in a slot that holds one"),
    ({"trees": [{"tree": "Ash", "top": ["Roe Deer"]}]}, "can't go on top"),
    ({"trees": [{"tree": "sapling"}]}, "Dartmoor has no saplings"),
    ({"trees": [{"tree": "Tor"}]}, "Tor is a moor: write it in \"moors\""),
    ({"trees": [{"tree": "Oak"}]}, "unknown tree \"Oak\""),
    ({"trees": [{"tree": "Ash", "top": ["Red Squirrel"]}]}, "unknown species \"Red Squirrel\""),
    ({"trees": [{"card": 5}]}, "Dartmoor cards have no ids"),
    ({"trees": [{"tree": "Ash", "top": [{"card": 95}]}]}, "Dartmoor cards have no ids"),
    ({"moors": [{"moor": "Bog"}]}, "unknown moor \"Bog\""),
    ({"moors": [{"moor": "universal", "symbol": "Ash"}]}, "shows no tree symbol"),
    ({"moors": [{"moor": "Tor"}] * 4}, "more Tor moor cards than the deck has (3)"),
    ({"trees": [{"tree": "Ash"}] * 7}, "more Ash tree cards than the deck has (6)"),
    ({"cave": {"number": 6, "cards": 1}}, "the cave number must be 1 to 5"),
    ({"cave": {"number": 0}}, "the cave number must be 1 to 5"),
    ({"cave": {"number": 2, "cards": -1}}, "must be a non-negative integer"),
    ({"cave": 1.5}, "must be a non-negative integer"),
    ({"forest": []}, "unknown key \"forest\""),
])
def test_refusals(player: dict[str, Any], message: str) -> None:
    assert message in refused(doc(player))


def test_a_cave_number_used_by_two_players_is_refused() -> None:
    text = refused(doc({"cave": {"number": 3, "cards": 1}}, {"cave": {"number": 3}}))
    assert text == 'player 2 "P1", cave: cave 3 is used twice (also player 1 "P0")'


def test_sharing_in_any_written_order() -> None:
    # the Water Soldiers below are written after the dragonflies above: still accepted
    table = read_table(doc({"moors": [{"moor": "Tor", "top": ["Keeled Skimmer"] * 3 + ["Curlew"],
                                       "bottom": ["Water Soldiers"]}]}))
    assert len(table.forests[0].trees[0].slots["top"]) == 4
    assert "more cards on the top" in refused(doc({"moors": [{"moor": "Tor", "top": [
        "Keeled Skimmer", "Curlew", "Grey Heron"], "bottom": ["Water Soldiers"]}]}))


def test_bad_json_is_one_line() -> None:
    with pytest.raises(ForestJsonError):
        parse_table('{"game": "dartmoor", "players": [')


def test_score_command_reads_dartmoor() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["score", str(DATA / "dartmoor-rulebook-example.json"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["players"][0]["total"] == 127 and out["winners"] == ["Ann"]
    assert list(out["players"][0]["lines"]) == ["top", "bottom", "left_right", "cave", "moors",
                                                "trees"]
    table = runner.invoke(app, ["score", str(DATA / "dartmoor-solo.json")])
    assert table.exit_code == 0 and "Moors" in table.stdout and "provisional" in table.stdout


@pytest.mark.parametrize("name", ["dartmoor-bad-moor-side.json", "dartmoor-bad-cave.json"])
def test_bad_files_exit_2_with_one_line(name: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "forest_shuffle", "score", str(DATA / name)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
