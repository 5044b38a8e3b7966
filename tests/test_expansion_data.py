"""Tests of the Alpine and Woodland Edge card data files.

The JSON files are read directly (no loader), checked against facts embedded here (so the test
runs on a clean clone) and, when ``../shared/reference/cards-expansions.json`` exists beside the
project, against that fact table card by card. The readings chosen where sources disagree are
in docs/expansion-data.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "forest_shuffle" / "cards" / "data"
#: ``../shared/reference`` beside the project root (absent on a clean clone).
REFERENCE = ROOT.parent / "shared" / "reference" / "cards-expansions.json"

MODULES = ("alpine", "woodland_edge")
FORMAT = "forest-shuffle card data 1"
SIDES = ("top", "bottom", "left", "right")
BASE_TREES = (
    "Linden", "Oak", "Silver Fir", "Birch", "Beech", "Sycamore", "Douglas Fir", "Horse Chestnut",
)
TREE_SYMBOLS = frozenset(BASE_TREES + ("European Larch", "Stone Pine"))
TAGS = frozenset({
    "tree", "bird", "bat", "pawed animal", "cloven-hoofed animal", "deer", "insect",
    "butterfly", "amphibian", "plant", "mushroom", "alps", "woodland edge", "shrub",
})
MODULE_TAG = {"alpine": "alps", "woodland_edge": "woodland edge"}

#: Effect vocabulary: op -> (required params, optional params).
EFFECT_OPS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "draw": (frozenset({"n"}), frozenset()),
    "draw_per_species": (frozenset({"species"}), frozenset()),
    "draw_per_tag": (frozenset({"tag"}), frozenset()),
    "extra_turn": (frozenset(), frozenset({"requires_tag"})),
    "draw_and_extra_turn": (frozenset({"n"}), frozenset()),
    "free_play": (frozenset({"count"}), frozenset({"tag", "species"})),
    "free_play_any": (frozenset({"tag"}), frozenset()),
    "free_play_each": (frozenset({"tags"}), frozenset()),
    "clearing_to_cave": (frozenset(), frozenset({"n", "tags"})),
    "take_from_clearing": (frozenset({"n"}), frozenset()),
    "clearing_to_hand": (frozenset({"tag"}), frozenset()),
    "clearing_removed": (frozenset(), frozenset()),
    "saplings_any": (frozenset(), frozenset()),
    "hand_to_cave_redraw": (frozenset(), frozenset()),
    "play_any_number_paying": (frozenset(), frozenset()),
    "draw_on_play": (frozenset({"trigger", "n"}), frozenset({"tag"})),
    "slot_sharing": (frozenset({"max_per_slot"}), frozenset()),
    "host_slot_sharing": (frozenset({"tag", "side", "max_per_slot"}), frozenset()),
    "tree_count_modifier": (frozenset({"plus"}), frozenset()),
}
TRIGGERS = frozenset({
    "tree card played", "pawed animal played", "card placed below a tree",
    "card placed atop a tree", "tag played",
})
#: Scoring vocabulary: rule -> required params (the flags below are optional everywhere).
POINT_RULES: dict[str, frozenset[str]] = {
    "none": frozenset(),
    "flat": frozenset({"points_each"}),
    "per_tag": frozenset({"points_per", "tag"}),
    "per_tags": frozenset({"points_per", "tags"}),
    "per_species": frozenset({"points_per", "species"}),
    "butterfly_sets": frozenset({"table"}),
    "bat_variety": frozenset({"points_each", "min_distinct_bat_species"}),
    "per_own_tree_symbol": frozenset({"points_per"}),
    "per_distinct_species": frozenset({"points_per", "tag"}),
    "distinct_species_table": frozenset({"tag", "table"}),
    "per_tree_symbols": frozenset({"points_per", "symbols"}),
    "per_cave_card": frozenset({"points_per"}),
    "on_host_kind": frozenset({"points_each", "host"}),
    "alone_on_host": frozenset({"points_each"}),
}
POINT_FLAGS = frozenset({"includes_self", "saplings_count", "vcb_counts", "trees_only"})

LR = ("left", "right")
#: name -> (kind, copies, cost, positions, tags), from the expansion card lists.
EXPECTED: dict[str, dict[str, tuple[str, int, int, tuple[str, ...], tuple[str, ...]]]] = {
    "alpine": {
        "European Larch": ("tree", 7, 1, ("tree",), ("tree", "alps")),
        "Stone Pine": ("tree", 7, 2, ("tree",), ("tree", "alps")),
        "Alpine Marmot": ("dweller", 4, 1, LR, ("pawed animal", "alps")),
        "Chamois": ("dweller", 3, 1, LR, ("cloven-hoofed animal", "alps")),
        "Capercaillie": ("dweller", 4, 1, LR, ("bird", "alps")),
        "Mountain Hare": ("dweller", 3, 0, LR, ("pawed animal", "alps")),
        "Steinbock": ("dweller", 3, 3, LR, ("cloven-hoofed animal", "alps")),
        "Savi's Pipistrelle": ("dweller", 3, 1, LR, ("bat", "alps")),
        "Phoebus Apollo": ("dweller", 4, 0, ("top",), ("butterfly", "insect", "alps")),
        "Golden Eagle": ("dweller", 3, 1, ("top",), ("bird", "alps")),
        "Bearded Vulture": ("dweller", 3, 1, ("top",), ("bird", "alps")),
        "Common Raven": ("dweller", 2, 1, ("top",), ("bird", "alps")),
        "Black Trumpet": ("dweller", 2, 2, ("bottom",), ("mushroom", "alps")),
        "Edelweiss": ("dweller", 2, 1, ("bottom",), ("plant", "alps")),
        "Blueberry": ("dweller", 2, 1, ("bottom",), ("plant", "alps")),
        "Alpine Newt": ("dweller", 3, 1, ("bottom",), ("amphibian", "alps")),
        "Gentian": ("dweller", 3, 0, ("bottom",), ("plant", "alps")),
    },
    "woodland_edge": {
        "Elderberry": ("shrub", 4, 2, ("shrub",), ("shrub", "woodland edge")),
        "Common Hazel": ("shrub", 4, 2, ("shrub",), ("shrub", "woodland edge")),
        "Blackthorn": ("shrub", 4, 2, ("shrub",), ("shrub", "woodland edge")),
        "Map Butterfly": ("dweller", 4, 0, ("top",), ("butterfly", "insect", "woodland edge")),
        "Eurasian Magpie": ("dweller", 3, 1, ("top",), ("bird", "woodland edge")),
        "Nightingale": ("dweller", 3, 1, ("top",), ("bird", "woodland edge")),
        "Barn Owl": ("dweller", 2, 2, ("top",), ("bird", "woodland edge")),
        "Digitalis": ("dweller", 4, 0, ("bottom",), ("plant", "woodland edge")),
        "Stinging Nettle": ("dweller", 3, 0, ("bottom",), ("plant", "woodland edge")),
        "Great Green Bush-Cricket": ("dweller", 3, 1, ("bottom",), ("insect", "woodland edge")),
        "Water Vole": ("dweller", 2, 2, ("bottom",), ("pawed animal", "woodland edge")),
        "Wild Boar (female)": ("dweller", 3, 2, LR, ("cloven-hoofed animal", "woodland edge")),
        "Bee Swarm": ("dweller", 3, 1, LR, ("insect", "woodland edge")),
        "European Bison": ("dweller", 3, 3, LR, ("cloven-hoofed animal", "woodland edge")),
        "European Wildcat": ("dweller", 3, 1, LR, ("pawed animal", "woodland edge")),
        "Common Pipistrelle": ("dweller", 3, 1, LR, ("bat", "woodland edge")),
        "Edge Squeaker": ("dweller", 3, 0, LR, ("cloven-hoofed animal", "woodland edge")),
        "Crane Fly": ("dweller", 3, 1, LR, ("insect", "woodland edge")),
        "European Polecat": ("dweller", 3, 2, LR, ("pawed animal", "woodland edge")),
    },
}
#: name -> (effect op, bonus op, permanent op, points rule); None where there is none.
BEHAVIOUR: dict[str, tuple[str | None, str | None, str | None, str]] = {
    "European Larch": (None, "free_play", None, "flat"),
    "Stone Pine": ("draw", "draw", None, "per_tag"),
    "Alpine Marmot": (None, None, None, "per_distinct_species"),
    "Chamois": (None, None, None, "per_own_tree_symbol"),
    "Capercaillie": ("free_play", None, None, "per_tag"),
    "Mountain Hare": (None, None, None, "per_species"),
    "Steinbock": ("extra_turn", None, None, "flat"),
    "Savi's Pipistrelle": (None, None, None, "bat_variety"),
    "Phoebus Apollo": (None, None, None, "butterfly_sets"),
    "Golden Eagle": (None, None, None, "per_tags"),
    "Bearded Vulture": ("clearing_to_cave", None, None, "per_cave_card"),
    "Common Raven": ("draw", None, None, "flat"),
    "Black Trumpet": (None, None, "draw_on_play", "none"),
    "Edelweiss": ("draw", "draw", None, "flat"),
    "Blueberry": ("free_play", None, None, "per_distinct_species"),
    "Alpine Newt": (None, "free_play_each", None, "per_tag"),
    "Gentian": ("free_play", None, None, "per_tag"),
    "Elderberry": (None, "free_play", "draw_on_play", "none"),
    "Common Hazel": (None, "free_play", "draw_on_play", "none"),
    "Blackthorn": (None, "free_play", "draw_on_play", "none"),
    "Map Butterfly": (None, None, None, "butterfly_sets"),
    "Eurasian Magpie": ("take_from_clearing", "clearing_to_cave", None, "flat"),
    "Nightingale": (None, "extra_turn", None, "on_host_kind"),
    "Barn Owl": ("extra_turn", None, None, "per_tag"),
    "Digitalis": (None, None, None, "distinct_species_table"),
    "Stinging Nettle": (None, None, "host_slot_sharing", "per_tag"),
    "Great Green Bush-Cricket": ("free_play", None, None, "per_tag"),
    "Water Vole": ("saplings_any", "extra_turn", None, "none"),
    "Wild Boar (female)": ("clearing_removed", "free_play", None, "per_species"),
    "Bee Swarm": ("clearing_to_cave", None, None, "per_tag"),
    "European Bison": ("extra_turn", None, None, "per_tree_symbols"),
    "European Wildcat": ("take_from_clearing", None, None, "per_tag"),
    "Common Pipistrelle": (None, None, None, "bat_variety"),
    "Edge Squeaker": (None, None, None, "flat"),
    "Crane Fly": ("free_play_any", "clearing_to_hand", None, "per_tag"),
    "European Polecat": (None, "extra_turn", None, "alone_on_host"),
}
#: Cards per module: id range and how many of each card kind (split cards by orientation).
COMPOSITION: dict[str, tuple[range, dict[str, int]]] = {
    "alpine": (range(162, 198), {"tree": 14, "left/right": 10, "top/bottom": 12}),
    "woodland_edge": (range(198, 234), {"shrub": 12, "left/right": 12, "top/bottom": 12}),
}
SHRUB_SYMBOLS = {
    "Elderberry": ["Birch", "Linden", "Oak", "Sycamore"],
    "Common Hazel": ["Beech", "Birch", "Horse Chestnut", "Oak"],
    "Blackthorn": ["Birch", "Douglas Fir", "Silver Fir", "Sycamore"],
}
#: The tree symbols printed on the halves of each dweller (sorted, one per half).
HALF_SYMBOLS: dict[str, str] = {
    "Alpine Marmot": "Beech, Birch, European Larch, Stone Pine",
    "Chamois": "Douglas Fir, European Larch, Stone Pine",
    "Capercaillie": "Beech, Douglas Fir, European Larch, Stone Pine",
    "Mountain Hare": "European Larch, Silver Fir, Stone Pine",
    "Steinbock": "Douglas Fir, European Larch, Stone Pine",
    "Savi's Pipistrelle": "European Larch, Silver Fir, Stone Pine",
    "Phoebus Apollo": "Douglas Fir, European Larch, Silver Fir, Stone Pine",
    "Black Trumpet": "European Larch, Stone Pine",
    "Edelweiss": "European Larch, Stone Pine",
    "Blueberry": "Birch, Stone Pine",
    "Alpine Newt": "Douglas Fir, Silver Fir, Stone Pine",
    "Golden Eagle": "Beech, European Larch, Silver Fir",
    "Bearded Vulture": "European Larch, Silver Fir, Stone Pine",
    "Gentian": "Beech, European Larch, Stone Pine",
    "Common Raven": "Douglas Fir, European Larch",
    "Map Butterfly": "Linden, Oak, Silver Fir, Sycamore",
    "Digitalis": "Birch, Douglas Fir, Oak, Sycamore",
    "Stinging Nettle": "Birch, Horse Chestnut, Sycamore",
    "Great Green Bush-Cricket": "Beech, Oak, Silver Fir",
    "Water Vole": "Beech, Sycamore",
    "Eurasian Magpie": "Beech, Birch, Silver Fir",
    "Nightingale": "Beech, Horse Chestnut, Oak",
    "Barn Owl": "Birch, Sycamore",
    "Wild Boar (female)": "Birch, Silver Fir, Sycamore",
    "Bee Swarm": "Beech, Birch, Sycamore",
    "European Bison": "Beech, Beech, Oak",
    "European Wildcat": "Horse Chestnut, Oak, Sycamore",
    "Common Pipistrelle": "Birch, Linden, Sycamore",
    "Edge Squeaker": "Douglas Fir, Horse Chestnut, Silver Fir",
    "Crane Fly": "Beech, Birch, Oak",
    "European Polecat": "Oak, Silver Fir, Sycamore",
}
BUTTERFLY_TABLE = {"1": 0, "2": 3, "3": 6, "4": 12, "5": 20, "6": 35, "7": 55, "8": 80}


def _read(module: str, name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / module / name).read_text(encoding="utf-8"))
    return doc


@pytest.fixture(scope="module", params=MODULES)
def module(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _species(module: str) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in _read(module, "species.json")["species"]}


def _cards(module: str) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = _read(module, "cards.json")["cards"]
    return cards


def _base_species_names() -> set[str]:
    for path in (DATA / "base" / "species.json", DATA / "species.json"):
        if path.is_file():
            doc = json.loads(path.read_text(encoding="utf-8"))
            return {s["name"] for s in doc["species"]}
    raise AssertionError("base species.json not found")


def _halves(card: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(position, species, tree symbol) of each half of a split card."""
    return [(side, card[side][0], card[side][1]) for side in SIDES if side in card]


def _appearances(module: str) -> Counter[str]:
    """How many host cards or halves show each species."""
    seen: Counter[str] = Counter()
    for card in _cards(module):
        if card["kind"] in ("tree", "shrub"):
            seen[card["species"]] += 1
        else:
            seen.update(name for _side, name, _sym in _halves(card))
    return seen


# --- the files on their own -------------------------------------------------------------------


def test_headers(module: str) -> None:
    for name, key in (("species.json", "species"), ("cards.json", "cards")):
        doc = _read(module, name)
        assert set(doc) == {"format", "game", "module", key}
        assert (doc["format"], doc["game"], doc["module"]) == (FORMAT, "base", module)


def test_species_match_the_embedded_facts(module: str) -> None:
    species = _species(module)
    assert len(species) == len(_read(module, "species.json")["species"]), "a name is doubled"
    assert set(species) == set(EXPECTED[module])
    for name, (kind, copies, cost, positions, tags) in EXPECTED[module].items():
        s = species[name]
        assert (s["kind"], s["count"], s["cost"]) == (kind, copies, cost), name
        assert set(s["positions"]) == set(positions), name
        assert set(s["tags"]) == set(tags), name
        assert len(s["tags"]) == len(set(s["tags"])), name


def test_counts_equal_the_cards(module: str) -> None:
    species = _species(module)
    seen = _appearances(module)
    assert set(seen) == set(species), "a species has no card, or a card names no species"
    for name, s in species.items():
        assert s["count"] == seen[name], f"{name}: count {s['count']}, cards {seen[name]}"


def test_cards_composition_and_ids(module: str) -> None:
    ids, kinds = COMPOSITION[module]
    cards = _cards(module)
    assert len(cards) == 36
    assert [c["id"] for c in cards] == list(ids)
    shape: Counter[str] = Counter()
    for card in cards:
        if card["kind"] == "split":
            sides = {side for side, _n, _s in _halves(card)}
            assert sides in ({"left", "right"}, {"top", "bottom"}), card["id"]
            assert set(card) == {"id", "kind"} | sides, card["id"]
            shape["left/right" if "left" in sides else "top/bottom"] += 1
        else:
            shape[card["kind"]] += 1
    assert dict(shape) == kinds


def test_cards_name_known_species_in_legal_places(module: str) -> None:
    species = _species(module)
    for card in _cards(module):
        cid = card["id"]
        if card["kind"] == "tree":
            assert set(card) == {"id", "kind", "species"}, cid
            assert species[card["species"]]["kind"] == "tree", cid
            assert card["species"] in TREE_SYMBOLS, cid
        elif card["kind"] == "shrub":
            assert set(card) == {"id", "kind", "species", "symbol"}, cid
            assert species[card["species"]]["kind"] == "shrub", cid
            assert card["symbol"] in BASE_TREES, cid
        else:
            assert card["kind"] == "split", cid
            for side, name, symbol in _halves(card):
                assert species[name]["kind"] == "dweller", (cid, name)
                assert side in species[name]["positions"], (cid, name, side)
                assert symbol in TREE_SYMBOLS, (cid, symbol)


def test_positions_are_those_the_halves_show(module: str) -> None:
    shown: dict[str, set[str]] = {}
    for card in _cards(module):
        for side, name, _symbol in _halves(card):
            shown.setdefault(name, set()).add(side)
    for name, s in _species(module).items():
        if s["kind"] == "dweller":
            assert set(s["positions"]) == shown[name], name
            assert set(s["positions"]) <= set(SIDES), name
        else:
            assert s["positions"] == [s["kind"]], name


def test_shrub_symbols() -> None:
    found: dict[str, list[str]] = {}
    for card in _cards("woodland_edge"):
        if card["kind"] == "shrub":
            found.setdefault(card["species"], []).append(card["symbol"])
    assert {k: sorted(v) for k, v in found.items()} == SHRUB_SYMBOLS


def test_half_symbols() -> None:
    found: dict[str, list[str]] = {}
    for module in MODULES:
        for card in _cards(module):
            for _side, name, symbol in _halves(card):
                found.setdefault(name, []).append(symbol)
    assert {k: ", ".join(sorted(v)) for k, v in found.items()} == HALF_SYMBOLS


def test_edge_squeakers_are_their_own_species() -> None:
    names = {name for card in _cards("woodland_edge") for _s, name, _y in _halves(card)}
    assert "Squeaker" not in names and "Edge Squeaker" in names
    edge = _species("woodland_edge")["Edge Squeaker"]
    assert edge["counts_as"] == ["Squeaker"]
    assert edge["points"] == {"rule": "flat", "points_each": 1}
    hare = _species("alpine")["Mountain Hare"]
    assert hare["counts_as"] == ["European Hare"]
    assert hare["points"] == {"rule": "per_species", "points_per": 1, "species": "European Hare"}


def test_tags(module: str) -> None:
    for name, s in _species(module).items():
        tags = set(s["tags"])
        assert tags <= TAGS, name
        assert MODULE_TAG[module] in tags, name
        assert ("tree" in tags) == (s["kind"] == "tree"), name
        assert ("shrub" in tags) == (s["kind"] == "shrub"), name
        if "butterfly" in tags:
            assert "insect" in tags, name


def _check_effect(eff: Any, where: str) -> None:
    assert isinstance(eff, dict) and eff.get("op") in EFFECT_OPS, where
    need, optional = EFFECT_OPS[eff["op"]]
    params = set(eff) - {"op"}
    assert need <= params <= need | optional, (where, params)
    for tag in [eff.get("tag"), eff.get("requires_tag"), *eff.get("tags", [])]:
        assert tag is None or tag in TAGS, (where, tag)
    if eff["op"] == "free_play":
        assert ("tag" in eff) != ("species" in eff), where
    if eff["op"] == "clearing_to_cave":
        assert not ("n" in eff and "tags" in eff), where
    if eff["op"] == "draw_on_play":
        assert eff["trigger"] in TRIGGERS, where
        assert (eff["trigger"] == "tag played") == ("tag" in eff), where
    if eff["op"] == "host_slot_sharing":
        assert eff["side"] in SIDES, where


def test_effects_and_points_use_the_vocabulary(module: str) -> None:
    for name, s in _species(module).items():
        for key in ("effect", "bonus", "permanent"):
            if s[key] is not None:
                _check_effect(s[key], f"{name} {key}")
        pts = s["points"]
        assert pts.get("rule") in POINT_RULES, name
        params = set(pts) - {"rule"}
        assert POINT_RULES[pts["rule"]] <= params <= POINT_RULES[pts["rule"]] | POINT_FLAGS, name
        for tag in [pts.get("tag"), *pts.get("tags", [])]:
            assert tag is None or tag in TAGS, (name, tag)
        for symbol in pts.get("symbols", []):
            assert symbol in TREE_SYMBOLS, (name, symbol)


def test_behaviour_matches_the_embedded_facts(module: str) -> None:
    for name, s in _species(module).items():
        ops = tuple(None if s[k] is None else s[k]["op"] for k in ("effect", "bonus", "permanent"))
        assert (*ops, s["points"]["rule"]) == BEHAVIOUR[name], name


def test_key_parameters() -> None:
    alp, edge = _species("alpine"), _species("woodland_edge")
    for s in (alp["Phoebus Apollo"], edge["Map Butterfly"]):
        assert s["points"]["table"] == BUTTERFLY_TABLE
    assert edge["Digitalis"]["points"]["table"] == {"1": 1, "2": 3, "3": 6, "4": 10, "5+": 15}
    assert sorted(edge["European Bison"]["points"]["symbols"]) == ["Beech", "Oak"]
    assert edge["Wild Boar (female)"]["points"]["points_per"] == 10
    assert edge["Wild Boar (female)"]["bonus"] == {"op": "free_play", "species": "Squeaker",
                                                   "count": 1}
    assert alp["Alpine Newt"]["bonus"]["tags"] == ["alps", "insect"]
    assert alp["Bearded Vulture"]["effect"] == {"op": "clearing_to_cave", "n": 2}
    assert edge["Bee Swarm"]["effect"]["tags"] == ["plant", "shrub", "tree"]
    assert edge["Barn Owl"]["effect"] == {"op": "extra_turn", "requires_tag": "bat"}
    assert edge["Crane Fly"]["bonus"] == {"op": "clearing_to_hand", "tag": "bat"}
    assert edge["Stinging Nettle"]["permanent"] == {
        "op": "host_slot_sharing", "tag": "butterfly", "side": "top", "max_per_slot": None}
    assert alp["Chamois"]["points"]["points_per"] == 3
    for shrub, tag in (("Elderberry", "plant"), ("Common Hazel", "bat"),
                       ("Blackthorn", "butterfly")):
        s = edge[shrub]
        assert s["effect"] is None
        assert s["permanent"] == {"op": "draw_on_play", "trigger": "tag played", "tag": tag,
                                  "n": 1}
        assert s["bonus"] == {"op": "free_play", "tag": tag, "count": 1}
    trumpet = alp["Black Trumpet"]["permanent"]
    assert (trumpet["trigger"], trumpet["tag"], trumpet["n"]) == ("tag played", "alps", 1)


def test_text_is_there_for_every_part(module: str) -> None:
    for name, s in _species(module).items():
        text = s["text"]
        wanted = {"points"} | {k for k in ("effect", "bonus", "permanent") if s[k] is not None}
        assert set(text) == wanted, name
        assert all(isinstance(v, str) and v.strip() for v in text.values()), name


def test_provisional_readings() -> None:
    alp, edge = _species("alpine"), _species("woodland_edge")
    for s in (alp["Gentian"], edge["Crane Fly"]):
        assert isinstance(s.get("provisional"), str) and s["provisional"].strip()
    for s in (*alp.values(), *edge.values()):
        if "provisional" in s:
            assert isinstance(s["provisional"], str) and "\n" not in s["provisional"]


def test_names_referred_to_exist() -> None:
    known = _base_species_names() | set(_species("alpine")) | set(_species("woodland_edge"))
    for module in MODULES:
        for name, s in _species(module).items():
            refs = list(s.get("counts_as", []))
            refs += [e["species"] for e in (s["effect"], s["bonus"], s["permanent"])
                     if e is not None and "species" in e]
            if "species" in s["points"]:
                refs.append(s["points"]["species"])
            for ref in refs:
                assert ref in known, (name, ref)
    assert not (_base_species_names() & (set(_species("alpine")) | set(_species("woodland_edge"))))


# --- against the shared reference facts, when present ------------------------------------------

REF_TAGS = {"pawed_animal": "pawed animal", "cloven_hoofed": "cloven-hoofed animal",
            "woodland_edge": "woodland edge"}


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    if not REFERENCE.is_file():
        pytest.skip(f"reference facts not found at {REFERENCE}")
    doc: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return doc


def _ref_name(module: str, name: str) -> str:
    return "Edge Squeaker" if module == "woodland_edge" and name == "Squeaker" else name


def test_reference_species(ref: dict[str, Any], module: str) -> None:
    species = _species(module)
    shown: dict[str, Counter[tuple[str, str]]] = {}
    for card in _cards(module):
        if card["kind"] in ("tree", "shrub"):
            symbol = card.get("symbol", card["species"])
            shown.setdefault(card["species"], Counter())[("tree", symbol)] += 1
        for side, name, symbol in _halves(card):
            shown.setdefault(name, Counter())[(side, symbol)] += 1
    ref_species = ref["expansions"][module]["species"]
    assert {_ref_name(module, r["name"]) for r in ref_species} == set(species)
    for r in ref_species:
        name = _ref_name(module, r["name"])
        s = species[name]
        assert s["count"] == r["copies"], name
        assert s["cost"] == r["cost"], name
        assert set(s["tags"]) == {REF_TAGS.get(t, t) for t in r["type_symbols"]}, name
        copies = Counter((c["position"], c["tree_symbol"])
                         for c in r["copies_by_position_and_tree_symbol"])
        assert shown[name] == copies, name
        _check_points_against(r["scoring_rule"], s["points"], name)


def _check_points_against(rule: dict[str, Any], points: dict[str, Any], name: str) -> None:
    """Cross-check our points against the reference's scoring_rule where it is mechanical."""
    if rule.get("points") == 0 and len(rule) == 1:
        assert points == {"rule": "none"}, name
    elif set(rule) == {"per_copy", "points"}:
        assert points == {"rule": "flat", "points_each": rule["points"]}, name
    elif str(rule.get("per", "")).startswith("type:"):
        tags = [REF_TAGS.get(t, t) for t in rule["per"][5:].split("|")]
        if len(tags) == 1:
            assert (points["rule"], points["tag"]) == ("per_tag", tags[0]), name
        else:
            assert (points["rule"], set(points["tags"])) == ("per_tags", set(tags)), name
        assert points["points_per"] == rule["points"], name
    elif "by_distinct" in rule:
        assert points["tag"] == rule["by_distinct"], name
        if "table" in rule:
            assert points["rule"] == "distinct_species_table", name
            assert list(points["table"].values()) == list(rule["table"].values()), name
        else:
            assert points == {"rule": "per_distinct_species", "points_per": rule["points_each"],
                              "tag": rule["by_distinct"]}, name
    elif "table_by_set_size" in rule:
        assert points == {"rule": "butterfly_sets", "table": rule["table_by_set_size"]}, name
    elif "points_each_bat" in rule:
        assert points["rule"] == "bat_variety", name
        assert points["points_each"] == rule["points_each_bat"], name


def test_reference_physical_cards(ref: dict[str, Any], module: str) -> None:
    ours = {c["id"]: c for c in _cards(module)}
    physical = ref["expansions"][module]["physical_cards"]
    assert sorted(ours) == sorted(c["bga_id"] for c in physical)
    for r in physical:
        card = ours[r["bga_id"]]
        if r["kind"] in ("tree", "shrub"):
            assert card["kind"] == r["kind"], r["bga_id"]
            assert card["species"] == r["species"], r["bga_id"]
            assert card.get("symbol", card["species"]) == r["tree_symbol"], r["bga_id"]
        else:
            assert card["kind"] == "split", r["bga_id"]
            want = sorted((h["position"], _ref_name(module, h["species"]), h["tree_symbol"])
                          for h in r["halves"])
            assert sorted(_halves(card)) == want, r["bga_id"]


def test_reference_conflicts_are_marked(ref: dict[str, Any]) -> None:
    notes = " ".join(ref["unknown_or_uncertain"])
    species = {**_species("alpine"), **_species("woodland_edge")}
    for name in ("Gentian", "Crane Fly"):
        assert name in notes
        assert species[name].get("provisional"), name
