"""Species short names are data: every data file gives one, the loader checks them, the
terminal grid and ``GET /api/cards`` use them."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console

from forest_shuffle.cards.forest import Dweller, Forest, host_of_card
from forest_shuffle.cards.model import (
    MODULES,
    SHORT_NAME_MAX,
    CardDataError,
    build_catalog,
    normalize_name,
)
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.server.app import create_app
from forest_shuffle.terminal.line import forest_table

#: The base game's short names as the terminal and the page had them before they were
#: data (every other base species is shown by its name).
BASE_SHORT: dict[str, str] = {
    "Brown Long-Eared Bat": "Long-Eared Bat", "Greater Horseshoe Bat": "Horseshoe Bat",
    "European Fat Dormouse": "Fat Dormouse", "Violet Carpenter Bee": "Carpenter Bee",
    "Great Spotted Woodpecker": "Woodpecker", "Silver-Washed Fritillary": "Fritillary",
    "Large Tortoiseshell": "Tortoiseshell", "Camberwell Beauty": "Camberwell B.",
    "Peacock Butterfly": "Peacock", "Wild Strawberries": "Strawberries",
    "Parasol Mushroom": "Parasol", "Fire Salamander": "Salamander",
    "European Badger": "Badger", "European Hare": "Hare", "Eurasian Jay": "Jay",
    "Common Toad": "Toad",
}


def _raw(module: str) -> dict[str, Any]:
    folder = resources.files("forest_shuffle.cards") / "data" / module
    doc: dict[str, Any] = json.loads((folder / "species.json").read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("module", MODULES)
def test_every_species_of_the_data_has_a_short_name(module: str) -> None:
    for raw in _raw(module)["species"]:
        short = raw.get("short_name")
        assert isinstance(short, str) and short, raw["name"]
        assert short == short.strip() and len(short) <= SHORT_NAME_MAX, raw["name"]
        assert len(short) <= len(raw["name"]), raw["name"]


@pytest.mark.parametrize("gid", game_ids())
def test_short_names_are_unique_in_every_game(gid: str) -> None:
    """One short name a printed name (species printed alike, such as the base and the
    Woodland Edge Squeakers, share theirs), and none is another printed name."""
    species = make_game(gid).catalog.species
    short_of: dict[str, str] = {}
    for sp in species.values():
        assert short_of.setdefault(sp.printed, sp.short_name) == sp.short_name, sp.name
    folded = [normalize_name(short) for short in short_of.values()]
    assert len(set(folded)) == len(folded)
    names = {normalize_name(sp.printed): sp.printed for sp in species.values()}
    for sp in species.values():  # no short name is another species' printed name
        assert names.get(normalize_name(sp.short_name), sp.printed) == sp.printed


def test_base_short_names_are_unchanged() -> None:
    species = make_game("base").catalog.species
    assert {n: sp.short_name for n, sp in species.items() if sp.short_name != n} == BASE_SHORT


def test_a_name_has_one_short_name_in_every_game() -> None:
    """The page keeps one table of short names whatever game it draws."""
    seen: dict[str, tuple[str, str]] = {}
    for gid in game_ids():
        for sp in make_game(gid).catalog.species.values():
            first = seen.setdefault(sp.printed, (sp.short_name, gid))
            assert first[0] == sp.short_name, (sp.name, first[1], gid)


def _docs() -> tuple[dict[str, Any], dict[str, Any]]:
    folder = resources.files("forest_shuffle.cards") / "data" / "base"
    return (copy.deepcopy(_raw("base")),
            json.loads((folder / "cards.json").read_text(encoding="utf-8")))


def _named(doc: dict[str, Any], name: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(s for s in doc["species"] if s["name"] == name)
    return entry


@pytest.mark.parametrize(("name", "short", "words"), [
    ("European Hare", "Badger", "short name 'Badger' is also 'European Badger''s"),
    ("European Hare", "Red fox", "short name 'Red fox' is also 'Red Fox''s"),
    ("European Hare", "A Very Long Short Name", f"1 to {SHORT_NAME_MAX} characters"),
    ("European Hare", " Hare", "trimmed string"),
    ("European Hare", "", "trimmed string"),
    ("European Hare", 7, "trimmed string"),
])
def test_the_loader_refuses_bad_short_names(name: str, short: Any, words: str) -> None:
    species, cards = _docs()
    _named(species, name)["short_name"] = short
    with pytest.raises(CardDataError, match="^species '") as err:
        build_catalog(species, cards)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_species_without_a_short_name_is_shown_by_its_name() -> None:
    species, cards = _docs()
    del _named(species, "Great Spotted Woodpecker")["short_name"]
    catalog = build_catalog(species, cards)
    assert catalog.species["Great Spotted Woodpecker"].short_name == "Great Spotted Woodpecker"


def test_the_forest_grid_shows_short_names() -> None:
    catalog = make_game("base").catalog
    woodpecker = next(c.id for c in catalog.cards if c is not None and c.axis == "tb"
                      and c.halves["top"].species.name == "Great Spotted Woodpecker")
    tree = host_of_card(catalog, 1)
    tree.slots["top"].append(Dweller.of_card(catalog.card(woodpecker), "top"))
    forest = Forest([tree])
    console = Console(width=100, color_system=None, record=True)
    console.print(forest_table(forest, "Forest", catalog))
    text = console.export_text()
    assert "↑Woodpecker" in text and "Great Spotted" not in text


@pytest.mark.parametrize("gid", ["base", "base+alpine+woodland_edge", "dartmoor"])
def test_api_cards_sends_the_short_names(gid: str) -> None:
    catalog = make_game(gid).catalog
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        data = c.get("/api/cards", params={"game": gid}).json()
    assert {n: sp["short_name"] for n, sp in data["species"].items()} == {
        n: sp.short_name for n, sp in catalog.species.items()}
    if gid == "dartmoor":
        assert data["species"]["Dartmoor Black Rabbit"]["short_name"] == "Black Rabbit"
    else:
        assert data["species"]["Great Spotted Woodpecker"]["short_name"] == "Woodpecker"


#: Loads the page's cards.js in Node, builds a Catalog from GET /api/cards (in the
#: environment) and prints what shortName gives for every species, before and after.
PAGE_SCRIPT = """
const { Catalog, shortName } = await import(process.argv[1]);
const data = JSON.parse(process.env.CATALOG);
const names = Object.keys(data.species);
const before = Object.fromEntries(names.map((n) => [n, shortName(n)]));
new Catalog(data);
const after = Object.fromEntries(names.map((n) => [n, shortName(n)]));
console.log(JSON.stringify({ before, after }));
"""


def test_the_page_takes_its_short_names_from_the_catalog() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cards_js = (Path(__file__).resolve().parents[1] / "src" / "forest_shuffle" / "server"
                / "static" / "cards.js")
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        data = c.get("/api/cards", params={"game": "dartmoor"}).json()
    done = subprocess.run([node, "--input-type=module", "-e", PAGE_SCRIPT, str(cards_js)],
                          capture_output=True, text=True, timeout=60, check=True,
                          env={"CATALOG": json.dumps(data)})
    got = json.loads(done.stdout)
    assert got["before"] == {n: n for n in data["species"]}  # no table of its own
    assert got["after"] == {n: sp["short_name"] for n, sp in data["species"].items()}
    assert got["after"]["Dartmoor Black Rabbit"] == "Black Rabbit"
