"""Dartmoor scoring: the rulebook's 127-point example, a test per species' point rule,
Blanket Bog, the moor majorities (ties, solo), caves, and the two paths agreeing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.cards.forest import Forest
from forest_shuffle.formats.forest_json import read_table
from forest_shuffle.scoring import core
from forest_shuffle.scoring.dartmoor import LINES, is_dartmoor, score_table, totals

DATA = Path(__file__).parent / "data/forest"
REFERENCE = Path(__file__).parents[2] / "shared/reference/cards-dartmoor.json"


def forests(*players: dict[str, Any]) -> list[Forest]:
    doc = {"game": "dartmoor", "players": [{"name": f"P{i}", **p} for i, p in enumerate(players)]}
    return read_table(doc).forests


def points_of(forest_list: list[Forest], species: str, player: int = 0) -> list[int]:
    return [c.points for c in score_table(forest_list)[player].cards if c.species == species]


def test_the_rulebook_scoring_example() -> None:
    doc = json.loads((DATA / "dartmoor-rulebook-example.json").read_text(encoding="utf-8"))
    table = read_table(doc)
    ann = score_table(table.forests)[0]
    assert ann.total == 127
    assert ann.lines == {"top": 24, "bottom": 31, "left_right": 37, "cave": 10, "moors": 16,
                         "trees": 9}
    got = {c.species: 0 for c in ann.cards}
    for c in ann.cards:
        got[c.species] += c.points
    dragonflies = sum(got[n] for n in ("Emerald Damselfly", "Keeled Skimmer",
                                       "Small Red Damselfly", "Southern Damselfly"))
    assert dragonflies == 15
    expected = {"Wheatear": 5, "Buzzard": 4, "Beaver": 10, "Heather": 5, "Blue Ground Beetle": 5,
                "Water Soldiers": 8, "Bog Asphodel": 3, "Common Pheasant": 3, "Wood Mouse": 2,
                "Shrew": 1, "Roe Deer": 15, "Dartmoor Black Rabbit": 4, "Dartmoor Badger": 12,
                "Valley Mire": 10, "Wet Woodland": 6, "Crab Apple": 8, "Moor Birch": 1}
    assert {k: got[k] for k in expected} == expected
    if REFERENCE.exists():
        ref = json.loads(REFERENCE.read_text(encoding="utf-8"))["scoring_example_from_rulebook"]
        assert ref["total"] == ann.total and ref["cave"] == ann.lines["cave"]
        assert sum(ref["moors"].values()) == ann.lines["moors"]
        assert sum(ref["trees"].values()) == ann.lines["trees"]


def test_the_two_paths_and_the_definition_dispatch_agree() -> None:
    from forest_shuffle.games.dartmoor import dartmoor_game

    doc = json.loads((DATA / "dartmoor-solo.json").read_text(encoding="utf-8"))
    fs = read_table(doc).forests
    assert is_dartmoor(fs) and totals(fs) == [s.total for s in score_table(fs)] == [97]
    g = dartmoor_game()
    assert g.totals(fs) == [97] and g.score_table(fs)[0].lines == score_table(fs)[0].lines
    with pytest.raises(ValueError):  # the base scorer knows no Dartmoor rule: no dispatch
        core.totals(fs)
    assert list(score_table(fs)[0].lines) == list(LINES)
    assert not is_dartmoor([Forest()])


# (species, forest of the first player, other players, points of each card of the species)
CASES: list[tuple[str, dict[str, Any], list[dict[str, Any]], list[int]]] = [
    ("Ash", {"trees": [{"tree": "Ash", "bottom": [{"species": "Heather", "symbol": "Black Alder"}]},
                       {"tree": "Black Alder"}]}, [], [1 + 2]),
    ("Goat Willow", {"trees": [{"tree": "Goat Willow"}],
                     "moors": [{"moor": "Tor"}, {"moor": "universal"}]}, [], [2]),
    ("Crab Apple", {"trees": [{"tree": "Crab Apple", "top": ["Barn Owl"], "bottom": ["Heather"],
                               "left": ["Shrew"], "right": ["Gnat"]}, {"tree": "Crab Apple"}]},
     [], [8, 0]),
    ("Black Alder", {"trees": [{"tree": "Black Alder"}]}, [], [5]),
    ("Moor Birch", {"trees": [{"tree": "Moor Birch"}]}, [], [1]),
    ("Sessile Oak", {"trees": [{"tree": "Sessile Oak"}, {"tree": "Elderberry"},
                               {"tree": "Ash"}]}, [], [3]),
    ("Common Hazel", {"trees": [{"tree": "Common Hazel"}]}, [], [0]),
    ("Elderberry", {"trees": [{"tree": "Elderberry"}]}, [], [0]),
    ("Tor", {"moors": [{"moor": "Tor"}]}, [], [0]),
    ("Fountainhead", {"moors": [{"moor": "Fountainhead"}]}, [], [0]),
    ("Valley Mire", {"moors": [{"moor": "Valley Mire", "top": ["Keeled Skimmer"],
                                "bottom": ["Blue Ground Beetle"]}]}, [], [4]),
    ("Wet Woodland", {"moors": [{"moor": "Wet Woodland"}, {"moor": "universal"}]}, [], [4]),
    ("Lowland Heath", {"moors": [{"moor": "Lowland Heath", "bottom": ["Adder", "Moor Frog"]}]},
     [], [4]),
    ("Warrens", {"moors": [{"moor": "Warrens", "bottom": ["Otter"]}],
                 "trees": [{"tree": "Ash", "left": ["Field Vole"]}]}, [], [4]),
    ("Rhôs Pasture", {"moors": [{"moor": "Rhôs Pasture"}],
                      "trees": [{"tree": "Ash", "left": ["Dartmoor Sheep"]}]}, [], [2]),
    ("Rivulet", {"moors": [{"moor": "Rivulet", "symbol": "Goat Willow"}],
                 "trees": [{"tree": "Goat Willow", "left": [{"species": "Gnat",
                                                             "symbol": "Goat Willow"}]}]},
     [], [6]),
    ("Blanket Bog", {"moors": [{"moor": "Blanket Bog"}]}, [], [0]),
    ("Barn Owl", {"trees": [{"tree": "Ash", "top": ["Barn Owl"], "left": ["Alcathoe Bat"],
                             "right": ["Brandt's Bat"]}]}, [], [6]),
    ("Black-Tailed Godwit", {"moors": [{"moor": "Tor", "top": ["Black-Tailed Godwit"]}]},
     [{"moors": [{"moor": "universal"}]}], [10]),
    ("Buzzard", {"trees": [{"tree": "Ash", "top": ["Buzzard"], "left": ["Shrew"]}]}, [], [2]),
    ("Common Moorhen", {"moors": [{"moor": "Tor", "top": ["Common Moorhen", "Keeled Skimmer"]}]},
     [], [2]),
    ("Cuckoo", {"trees": [{"tree": "Ash", "top": ["Barn Owl", "Cuckoo"]}]}, [], [7]),
    ("Curlew", {"moors": [{"moor": "Tor", "top": ["Curlew"]}]}, [], [3]),
    ("Grey Heron", {"moors": [{"moor": "Tor", "top": ["Grey Heron"]}]}, [], [8]),
    ("Meadow Pipit", {"trees": [{"tree": "Ash", "top": ["Meadow Pipit"], "left": ["Nuthatch"]},
                                {"tree": "Ash", "top": ["Meadow Pipit"]}]}, [], [3, 3]),
    ("Wheatear", {"moors": [{"moor": "universal", "top": ["Wheatear"]}],
                  "trees": [{"tree": "Ash", "top": ["Wheatear"]}]}, [], [0, 5]),
    ("Beautiful Demoiselle", {"moors": [{"moor": "Tor", "top": ["Beautiful Demoiselle",
                                                                "Keeled Skimmer"]}]}, [], [3]),
    ("Adder", {"trees": [{"tree": "Ash", "bottom": ["Adder"], "left": ["Wood Mouse"]}]}, [], [2]),
    ("Common Lizard", {"trees": [{"tree": "Ash", "bottom": ["Common Lizard"]}]}, [], [5]),
    ("Grass Snake", {"moors": [{"moor": "Tor", "bottom": ["Grass Snake"]}]}, [], [5]),
    ("Moor Frog", {"moors": [{"moor": "Tor", "bottom": ["Moor Frog"]}]}, [], [0]),
    ("Warty Newt", {"moors": [{"moor": "Tor", "bottom": ["Warty Newt", "Warty Newt"]}]},
     [], [8, 7]),
    ("Adder's Tongue", {"trees": [{"tree": "Ash", "bottom": ["Adder's Tongue"]}]}, [], [3]),
    ("Blueberry", {"trees": [{"tree": "Ash", "bottom": ["Blueberry"], "top": ["Buzzard"],
                              "left": ["Nuthatch"]}]}, [], [4]),
    ("Bog Asphodel", {"moors": [{"moor": "Tor", "bottom": ["Bog Asphodel"]},
                                {"moor": "universal"}]}, [], [2]),
    ("Greater Butterfly Orchid",
     {"trees": [{"tree": "Ash", "bottom": ["Greater Butterfly Orchid"]}]}, [], [3]),
    ("Heather", {"trees": [{"tree": "Ash", "bottom": ["Heather"], "left": ["Gnat"]}]}, [], [1]),
    ("Meadowsweet", {"moors": [{"moor": "Tor", "bottom": ["Meadowsweet"]}],
                     "trees": [{"tree": "Ash", "bottom": ["Meadowsweet"]}]}, [], [0, 5]),
    ("Royal Fern", {"trees": [{"tree": "Ash", "bottom": ["Royal Fern"]},
                              {"tree": "Ash", "bottom": ["Heather"]}]}, [], [4]),
    ("Water Soldiers", {"trees": [{"tree": "Ash", "bottom": ["Water Soldiers"],
                                   "top": ["Keeled Skimmer", "Keeled Skimmer"]}]}, [], [4]),
    ("Beaver", {"cave": {"number": 2, "cards": 4},
                "trees": [{"tree": "Ash", "bottom": ["Beaver"]}]}, [], [4]),
    ("Otter", {"trees": [{"tree": "Ash", "bottom": ["Otter"]},
                         {"tree": "Ash", "bottom": ["Common Lizard"]}],
               "moors": [{"moor": "Tor", "bottom": ["Adder"]}]}, [], [6]),
    ("Blue Ground Beetle", {"trees": [{"tree": "Ash", "bottom": ["Blue Ground Beetle"]}],
                            "moors": [{"moor": "Tor", "bottom": ["Heather", "Otter"]}]}, [], [3]),
    ("Alcathoe Bat", {"trees": [{"tree": "Ash", "left": ["Alcathoe Bat"],
                                 "right": ["Serotine Bat"]},
                                {"tree": "Ash", "left": ["Common Noctule"]}]}, [], [5]),
    ("Daubenton's Bat", {"trees": [{"tree": "Ash", "left": ["Daubenton's Bat"],
                                    "right": ["Serotine Bat"]}]}, [], [0]),
    ("Capercaillie", {"trees": [{"tree": "Ash", "left": ["Capercaillie"], "bottom": ["Heather"]}]},
     [], [1]),
    ("Common Pheasant", {"trees": [{"tree": "Ash", "left": ["Common Pheasant"]},
                                   {"tree": "Common Hazel"}]}, [], [2]),
    ("Nuthatch", {"trees": [{"tree": "Ash", "left": ["Nuthatch"], "right": ["Shrew"],
                             "top": ["Barn Owl"], "bottom": ["Heather"]},
                            {"tree": "Ash", "left": ["Nuthatch"]}]}, [], [10, 0]),
    ("Treecreeper", {"trees": [{"tree": "Ash", "left": ["Treecreeper"]}]}, [], [5]),
    ("Dartmoor Badger", {"trees": [{"tree": "Ash", "left": ["Dartmoor Badger"],
                                    "right": ["Field Vole"]}]}, [], [4]),
    ("Dartmoor Black Rabbit", {"trees": [{"tree": "Ash", "left": ["Dartmoor Badger"],
                                          "right": ["Dartmoor Black Rabbit"] * 3}]}, [],
     [3, 3, 3]),
    ("Field Vole", {"trees": [{"tree": "Ash", "left": ["Field Vole"], "right": ["Shrew"]}]},
     [], [2]),
    ("Shrew", {"trees": [{"tree": "Ash", "left": ["Shrew"]}]}, [], [1]),
    ("Wood Mouse", {"trees": [{"tree": "Ash", "left": ["Wood Mouse"], "right": ["Field Vole"]}]},
     [], [2]),
    ("Dartmoor Pony", {"trees": [{"tree": "Ash", "left": ["Dartmoor Pony"]}]},
     [{"moors": [{"moor": "universal"}]}], [5]),
    ("Dartmoor Sheep", {"trees": [{"tree": "Ash", "left": ["Dartmoor Sheep"],
                                   "right": [{"species": "Roe Deer", "symbol": "Ash"}]}]}, [], [4]),
    ("Roe Deer", {"trees": [{"tree": "Ash", "left": [{"species": "Roe Deer", "symbol": "Ash"}],
                             "right": [{"species": "Shrew", "symbol": "Ash"}]}]}, [], [9]),
    ("Gnat", {"trees": [{"tree": "Ash", "left": ["Gnat"], "right": ["Brandt's Bat"]}]}, [], [1]),
    ("Lake Fly", {"trees": [{"tree": "Ash", "left": ["Lake Fly"]}]}, [], [0]),
]


def test_every_species_has_a_case() -> None:
    from forest_shuffle.cards.model import load_catalog

    named = {c[0] for c in CASES}
    rules = {sp.points.rule for sp in load_catalog(("dartmoor",)).species.values()
             if sp.name in named}
    assert rules == {sp.points.rule for sp in load_catalog(("dartmoor",)).species.values()}
    dragon = {"Emerald Damselfly", "Keeled Skimmer", "Small Red Damselfly", "Southern Damselfly"}
    bats = {"Brandt's Bat", "Common Noctule", "Serotine Bat"}
    assert named | dragon | bats == set(load_catalog(("dartmoor",)).species)


@pytest.mark.parametrize(("species", "mine", "others", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_species_points(species: str, mine: dict[str, Any], others: list[dict[str, Any]],
                        expected: list[int]) -> None:
    fs = forests(mine, *others) if others else forests(mine, {})
    assert points_of(fs, species) == expected
    assert totals(fs) == [s.total for s in score_table(fs)]


# Cards whose text names trees, with shrubs as hosts (docs/rules.md, "Shrubs are no
# trees"): (species, forest, points of each card of the species).
SHRUB_CASES: list[tuple[str, dict[str, Any], list[int]]] = [
    # "per tree and per shrub": 1 tree + 2 shrubs = 3
    ("Sessile Oak", {"trees": [{"tree": "Sessile Oak"}, {"tree": "Elderberry"},
                               {"tree": "Common Hazel"}]}, [3]),
    ("Common Pheasant", {"trees": [{"tree": "Elderberry", "left": ["Common Pheasant"]},
                                   {"tree": "Common Hazel"}, {"tree": "Moor Birch"}]}, [3]),
    # "its tree or shrub is fully occupied"
    ("Nuthatch", {"trees": [{"tree": "Common Hazel", "left": ["Nuthatch"], "right": ["Shrew"],
                             "top": ["Barn Owl"], "bottom": ["Heather"]},
                            {"tree": "Elderberry", "left": ["Nuthatch"]}]}, [10, 0]),
    # "per card below a tree, shrub or moor": itself below a shrub + a Heather = 2
    ("Blue Ground Beetle", {"trees": [{"tree": "Elderberry", "bottom": ["Blue Ground Beetle"]},
                                      {"tree": "Common Hazel", "bottom": ["Heather"]}]}, [2]),
    ("Cuckoo", {"trees": [{"tree": "Common Hazel", "top": ["Barn Owl", "Cuckoo"]}]}, [7]),
    # "0 at a tree or shrub"
    ("Wheatear", {"trees": [{"tree": "Elderberry", "top": ["Wheatear"]}]}, [0]),
    ("Meadowsweet", {"trees": [{"tree": "Common Hazel", "bottom": ["Meadowsweet"]}]}, [0]),
    # sharing at "the tree, shrub or moor" of a Water Soldiers or a Dartmoor Badger
    ("Water Soldiers", {"trees": [{"tree": "Elderberry", "bottom": ["Water Soldiers"],
                                   "top": ["Keeled Skimmer", "Keeled Skimmer"]}]}, [4]),
    ("Dartmoor Black Rabbit", {"trees": [{"tree": "Common Hazel", "left": ["Dartmoor Badger"],
                                          "right": ["Dartmoor Black Rabbit"] * 2}]}, [2, 2]),
    # a tree symbol is a colour a shrub shows: the Elderberry, the Ash, the Roe Deer = 3 -> 9
    ("Roe Deer", {"trees": [{"tree": "Elderberry", "symbol": "Ash",
                             "left": [{"species": "Roe Deer", "symbol": "Ash"}]},
                            {"tree": "Ash"}]}, [9]),
]


@pytest.mark.parametrize(("species", "mine", "expected"), SHRUB_CASES,
                         ids=[c[0] for c in SHRUB_CASES])
def test_shrub_hosts(species: str, mine: dict[str, Any], expected: list[int]) -> None:
    fs = forests(mine, {})
    assert points_of(fs, species) == expected
    assert totals(fs) == [s.total for s in score_table(fs)]


def test_thresholds_met() -> None:
    insects = [{"tree": "Ash", "left": ["Gnat"], "right": ["Lake Fly"],
                "bottom": ["Blue Ground Beetle"]},
               {"tree": "Ash", "left": ["Gnat"], "right": ["Lake Fly"]}]
    fs = forests({"trees": insects, "moors": [{"moor": "Tor", "top": ["Curlew"]}]}, {})
    assert points_of(fs, "Curlew") == [10]
    moors = [{"moor": "universal"}] * 4 + [{"moor": "Tor", "bottom": ["Moor Frog"]}]
    assert points_of(forests({"moors": moors}, {}), "Moor Frog") == [8]
    plants = [{"tree": t, "bottom": [p]} for t, p in (
        ("Ash", "Greater Butterfly Orchid"), ("Ash", "Heather"), ("Ash", "Royal Fern"),
        ("Ash", "Blueberry"), ("Ash", "Adder's Tongue"))]
    assert points_of(forests({"trees": plants}, {}), "Greater Butterfly Orchid") == [15]
    lizards = [{"tree": "Ash", "bottom": [b]} for b in ("Common Lizard", "Adder")]
    snake = [{"moor": "Tor", "bottom": ["Grass Snake"]}]
    assert points_of(forests({"trees": lizards, "moors": snake}, {}), "Common Lizard") == [15]


def test_dragonfly_sets_layer() -> None:
    top = ["Keeled Skimmer", "Keeled Skimmer", "Emerald Damselfly", "Small Red Damselfly"]
    fs = forests({"trees": [{"tree": "Ash", "top": top, "bottom": ["Water Soldiers"]}]}, {})
    sets = [c.points for c in score_table(fs)[0].cards if c.species in set(top)]
    assert sum(sets) == 10 + 0  # one set of 3 different (10), one set of 1 (0)


def test_blanket_bog_doubles_the_plants_below_it() -> None:
    fs = forests({"moors": [{"moor": "Blanket Bog", "top": ["Grey Heron"],
                             "bottom": ["Meadowsweet", "Warty Newt"]}]}, {})
    assert points_of(fs, "Meadowsweet") == [10]  # 5 at a moor, doubled
    assert points_of(fs, "Warty Newt") == [5]  # not a plant
    assert points_of(fs, "Grey Heron") == [8]  # above, not below


def test_moor_majorities_ties_count_as_most() -> None:
    pony = {"trees": [{"tree": "Ash", "left": ["Dartmoor Pony"]}],
            "moors": [{"moor": "universal"}, {"moor": "Tor"}]}
    tie = {"moors": [{"moor": "universal"}, {"moor": "universal"}]}
    more = {"moors": [{"moor": "universal"}] * 3}
    assert points_of(forests(pony, tie), "Dartmoor Pony") == [15]
    assert points_of(forests(pony, more), "Dartmoor Pony") == [5]
    godwit = {"moors": [{"moor": "Tor", "top": ["Black-Tailed Godwit"]}]}
    assert points_of(forests(godwit, more), "Black-Tailed Godwit") == [0]


def test_solo_thresholds() -> None:
    five = [{"moor": "universal"}] * 4
    godwit: dict[str, Any] = {"moors": [{"moor": "Tor", "top": ["Black-Tailed Godwit"]}, *five]}
    assert points_of(forests(godwit), "Black-Tailed Godwit") == [0]  # 5 moors, 6 needed
    godwit["moors"] = [*godwit["moors"], {"moor": "universal"}]
    assert points_of(forests(godwit), "Black-Tailed Godwit") == [10]
    moors: list[dict[str, Any]] = [{"moor": "Tor"}] + five * 2
    pony: dict[str, Any] = {"trees": [{"tree": "Ash", "left": ["Dartmoor Pony"]}],
                            "moors": moors}
    assert len(moors) == 9
    assert points_of(forests(pony), "Dartmoor Pony") == [15]
    pony["moors"] = moors[:7]
    assert points_of(forests(pony), "Dartmoor Pony") == [5]


def test_caves() -> None:
    fs = forests({"cave": {"number": 4, "cards": 2}}, {"cave": {"number": 1, "cards": 2}})
    assert totals(fs) == [7, 2]
    assert score_table(fs)[0].lines["cave"] == 7
    assert forests({"cave": 3})[0].cave_number == 0
