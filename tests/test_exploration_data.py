"""The ``exploration`` data module: it loads with the base game and with every set of the
other expansions, its card ids are its own, and every fact agrees with the reference
(``shared/reference/cards-exploration.json``: counts, costs, sides, type and tree symbols,
pairings, points, caves), with a ``provisional`` mark exactly where the reference has a
single source or a conflict. The reference is read only when the shared folder is found
(beside the project, or ``FOREST_SHUFFLE_SHARED``); otherwise those tests skip.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.cards.model import (
    NAMED_CAVE_RULES,
    Card,
    CardDataError,
    Catalog,
    build_catalog,
    load_catalog,
)

#: ``../shared/reference`` beside the project root (``FOREST_SHUFFLE_SHARED`` names
#: another ``shared`` folder, for a worktree elsewhere), as tests/test_printed_names.py.
REFERENCE = Path(os.environ.get("FOREST_SHUFFLE_SHARED",
                                Path(__file__).resolve().parents[2] / "shared")) / "reference"
REF_FILE = REFERENCE / "cards-exploration.json"

SETS: tuple[tuple[str, ...], ...] = (
    ("base", "exploration"),
    ("base", "alpine", "exploration"),
    ("base", "woodland_edge", "exploration"),
    ("base", "alpine", "woodland_edge", "exploration"),
)
IDS = range(234, 249)
#: Species of other modules that Exploration adds one card of, and where they are defined.
MORE = {"Fire Salamander": "base", "Gnat": "base", "European Badger": "base",
        "Water Vole": "woodland_edge", "European Bison": "woodland_edge"}


def _exploration_cards(cat: Catalog) -> list[Card]:
    return [c for c in cat.cards if c is not None and c.module == "exploration"]


@pytest.mark.parametrize("modules", SETS, ids="+".join)
def test_the_module_loads_with_the_others_and_its_ids_are_its_own(
        modules: tuple[str, ...]) -> None:
    cat = load_catalog(modules)
    mine = _exploration_cards(cat)
    assert [c.id for c in mine] == list(IDS)
    assert sum(c.kind == "tree" for c in mine) == 4
    assert sum(c.kind == "split" for c in mine) == 11
    others = load_catalog(tuple(m for m in modules if m != "exploration"))
    assert not set(others.deck_ids) & set(IDS)  # no id of another module
    assert len(cat.deck_ids) == len(others.deck_ids) + 15


@pytest.mark.parametrize("modules", SETS, ids="+".join)
def test_a_species_of_another_module_gets_one_more_card(modules: tuple[str, ...]) -> None:
    cat = load_catalog(modules)
    without = load_catalog(tuple(m for m in modules if m != "exploration"))
    for name, home in MORE.items():
        sp = cat.species[name]
        if home in modules:
            assert sp.count == without.species[name].count + 1, name
            assert sp.module == home, name
        else:  # defined from its module's data, with Exploration's one card
            assert sp.count == 1 and sp.module == "exploration", name
            edge = load_catalog(("base", home)).species[name]
            assert (sp.cost, sp.tags, sp.effect, sp.bonus, sp.points) == (
                edge.cost, edge.tags, edge.effect, edge.bonus, edge.points), name


def test_tree_symbols_of_their_own() -> None:
    cat = load_catalog(("base", "exploration"))
    shown = {c.species.name: c.symbol for c in _exploration_cards(cat) if c.species}
    assert shown == {"Moor Birch": "Birch", "Palm Tree": "Golden Palm",
                     "O Christmas Tree": "Silver Fir", "Turkey Oak": "Oak"}
    assert {"Golden Palm", "Bamboo", "European Alder"} <= set(cat.tree_symbols)
    assert "Moor Birch" not in cat.tree_symbols and "Palm Tree" not in cat.tree_symbols
    assert load_catalog(("base",)).tree_symbols == cat.tree_symbols[:8]


def test_more_copies_of_a_species_no_module_defines_is_refused() -> None:
    species = {"module": "base", "species": [], "more_copies": [
        {"name": "Gnat", "from": "base", "count": 1}]}
    with pytest.raises(CardDataError, match="'Gnat': more copies of a species no module"):
        build_catalog(species, {"module": "base", "cards": []})


def test_the_five_named_caves() -> None:
    caves = load_catalog(("base", "exploration")).named_caves
    assert [c.name for c in caves] == ["Bat Cave", "Collectors' Cave", "Lonely Cave",
                                       "Smuggler's Cave", "Storage Cave"]
    assert all(c.points is not None and c.points.rule in NAMED_CAVE_RULES for c in caves)
    assert not load_catalog(("base", "exploration")).caves  # no Dartmoor numbered cave
    assert not load_catalog(("base",)).named_caves


# ------------------------------------------------------------ against the reference


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    """The reference facts, or a skip if the shared folder is absent."""
    if not REF_FILE.is_file():
        pytest.skip(f"reference card facts not found at {REF_FILE}")
    doc: dict[str, Any] = json.loads(REF_FILE.read_text(encoding="utf-8"))
    return doc


CAT = load_catalog(("base", "alpine", "woodland_edge", "exploration"))
ALONE = load_catalog(("base", "exploration"))


def _tag(word: str) -> str:
    return {"cloven_hoofed": "cloven-hoofed animal"}.get(word, word.replace("_", " "))


def _ints(text: str) -> set[int]:
    return {int(x) for x in re.findall(r"\d+", text)}


def _point_numbers(points: Any) -> set[int]:
    """The numbers a species' points rule is written with (tables: their positive values)."""
    out: set[int] = set()
    for key, value in points.params.items():
        if key.startswith("points") and isinstance(value, int):
            out.add(value)
        if key == "table":
            out |= {v for v in value.values() if v > 0}
    return out


def _single(field: Any) -> bool:
    return isinstance(field, dict) and len(field.get("sources", [])) == 1


def _doubted(entry: dict[str, Any]) -> bool:
    """The reference doubts a fact of this species: a conflict, a confidence below full,
    sources that do not agree, or an icon lost in the appendix."""
    for value in entry.values():
        if isinstance(value, dict) and ("conflict" in value or "confidence" in value
                                        or value.get("agree") is False
                                        or "icon lost" in str(value.get("text", ""))):
            return True
    return False


def test_every_species_agrees_with_the_reference(ref: dict[str, Any]) -> None:
    for entry in ref["species"]:
        name = entry["name"]
        sp = CAT.species[name]
        assert sp.cost == entry["cost"]["value"], name
        tags = {_tag(t) for t in entry["type_symbols"]["value"]}
        if entry["type_symbols"].get("agree") is False:
            assert set(sp.tags) < tags and sp.provisional, name  # a symbol left out, said so
        else:
            assert set(sp.tags) == tags, name
        slot = entry["slot"]["value"]
        if slot == "tree":
            assert sp.kind == "tree", name
        else:
            assert entry["side"]["value"] in sp.positions, name
        nums = _point_numbers(sp.points)
        text = entry["points"]["text"]
        if sp.points.rule == "butterfly_sets":
            assert len(sp.points.params["table"]) in _ints(text), name
        else:
            assert nums <= _ints(text), (name, nums, text)
        if "scoring_tree_symbols" in entry:
            assert list(sp.points.params["symbols"]) == entry["scoring_tree_symbols"]["value"]
        if "counts_as" in entry:
            assert entry["counts_as"].split(" (")[0] in sp.counts_as, name
        if name in MORE:
            assert sp.count == load_catalog(
                ("base", "alpine", "woodland_edge")).species[name].count + 1, name
        else:
            assert sp.module == "exploration" and sp.count == entry["copies_added"]["value"]


def test_every_card_agrees_with_the_reference(ref: dict[str, Any]) -> None:
    by_printed = {c.printed: c for c in _exploration_cards(CAT) if c.printed}
    for entry in ref["physical_split_cards"]:
        card = by_printed.pop(entry["promo_number"])
        got = {side: (h.species.name, h.symbol) for side, h in card.halves.items()}
        assert got == {h["side"]: (h["species"], h["tree_symbol"]) for h in entry["halves"]}
    trees = {s["name"]: s for s in ref["species"] if s["slot"]["value"] == "tree"}
    for entry in ref["physical_trees"]:
        number = entry["promo_number"]
        card = (by_printed.pop(number) if number else
                next(c for c in _exploration_cards(CAT) if c.species is not None
                     and c.species.name == entry["species"]))
        assert card.species is not None and card.species.name == entry["species"]
        assert card.symbol == entry["tree_symbol"]
        assert trees[entry["species"]]["tree_symbol"]["value"].startswith(card.symbol)
    assert not by_printed  # no card the reference does not list


def test_provisional_marks_are_where_the_reference_has_one_source(
        ref: dict[str, Any]) -> None:
    by_printed = {c.printed: c for c in _exploration_cards(CAT) if c.printed}
    for entry in ref["physical_split_cards"]:
        single = (len(entry["pairing_sources"]) == 1 or len(entry["tree_symbol_sources"]) == 1
                  or len(entry["side_sources"]) == 1)
        assert bool(by_printed[entry["promo_number"]].provisional) == single, entry
    for entry in ref["species"]:
        sp = CAT.species[entry["name"]]
        if sp.kind == "tree":
            card = next(c for c in _exploration_cards(CAT) if c.species is sp)
            assert bool(card.provisional) == _single(entry["tree_symbol"]), sp.name
        if sp.module == "exploration":
            assert bool(sp.provisional) == _doubted(entry), sp.name


def test_the_caves_agree_with_the_reference(ref: dict[str, Any]) -> None:
    caves = {c.name: c for c in ALONE.named_caves}
    assert set(caves) == {c["name"] for c in ref["caves"]}
    for entry in ref["caves"]:
        cave = caves[entry["name"]]
        assert cave.points is not None
        assert _point_numbers(cave.points) <= _ints(entry["scoring"]), entry["name"]
        # a cave that scores as a base cave has a rule of its own no source gives
        assert bool(cave.provisional) == (entry["special_rule"] != "unknown"), entry["name"]
