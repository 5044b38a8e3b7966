"""Tests of the card database against the reference facts and of its validator."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from scenario import CATALOG

from forest_shuffle.cards import model as cards
from forest_shuffle.cards.model import SIDES, CardDataError, build_catalog

#: ``../shared/reference`` beside the project root (the same layout locally and in CI).
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "cards-base.json"

#: Copies in the deck (tree cards, or card halves for dwellers), from the rulebook appendix.
EXPECTED_COPIES: dict[str, int] = {
    "Linden": 9, "Oak": 7, "Silver Fir": 6, "Birch": 10, "Beech": 10, "Sycamore": 6,
    "Douglas Fir": 7, "Horse Chestnut": 11,
    "Barbastelle Bat": 3, "Bechstein's Bat": 3, "Brown Long-Eared Bat": 3,
    "Greater Horseshoe Bat": 3, "Beech Marten": 5, "Brown Bear": 3, "European Badger": 4,
    "European Fat Dormouse": 4, "European Hare": 11, "Fallow Deer": 4, "Gnat": 3, "Lynx": 6,
    "Raccoon": 4, "Red Deer": 5, "Red Fox": 5, "Roe Deer": 5, "Squeaker": 4,
    "Violet Carpenter Bee": 4, "Wild Boar": 5, "Wolf": 4,
    "Bullfinch": 4, "Camberwell Beauty": 4, "Chaffinch": 4, "Eurasian Jay": 4, "Goshawk": 4,
    "Great Spotted Woodpecker": 4, "Large Tortoiseshell": 4, "Peacock Butterfly": 4,
    "Purple Emperor": 4, "Red Squirrel": 4, "Silver-Washed Fritillary": 4, "Tawny Owl": 4,
    "Blackberries": 3, "Chanterelle": 2, "Common Toad": 6, "Fireflies": 4, "Fire Salamander": 3,
    "Fly Agaric": 2, "Hedgehog": 3, "Mole": 2, "Moss": 3, "Parasol Mushroom": 2, "Penny Bun": 2,
    "Pond Turtle": 2, "Stag Beetle": 2, "Tree Ferns": 3, "Tree Frog": 3, "Wild Strawberries": 3,
    "Wood Ant": 3,
}


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    """The reference card facts, or a skip if the shared folder is absent."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference card facts not found at {REFERENCE}")
    doc: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return doc


@pytest.fixture(scope="module")
def ref_species(ref: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Reference trees and dwellers by name."""
    return {entry["name"]: entry for entry in ref["trees"] + ref["dwellers"]}


def _packaged(name: str) -> dict[str, Any]:
    folder = resources.files("forest_shuffle.cards") / "data" / "base"
    text = (folder / name).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


@pytest.fixture()
def docs() -> tuple[dict[str, Any], dict[str, Any]]:
    """Fresh, modifiable copies of the packaged species and cards documents."""
    return copy.deepcopy(_packaged("species.json")), copy.deepcopy(_packaged("cards.json"))


# --- the deck -------------------------------------------------------------------------------


def test_deck_has_161_cards_with_ids_1_to_161() -> None:
    assert CATALOG.deck_ids == tuple(range(1, 162))


@pytest.mark.parametrize(("first", "last", "kind", "axis"), [
    (1, 66, "tree", ""),
    (67, 69, "winter", ""),
    (70, 113, "split", "lr"),
    (114, 161, "split", "tb"),
])
def test_id_ranges(first: int, last: int, kind: str, axis: str) -> None:
    for cid in range(first, last + 1):
        card = CATALOG.card(cid)
        assert (card.id, card.kind, card.axis) == (cid, kind, axis)


def test_unknown_card_id_raises_key_error() -> None:
    for bad in (0, 162, -1):
        with pytest.raises(KeyError, match=str(bad)):
            CATALOG.card(bad)


def test_8_tree_species_and_49_dwellers() -> None:
    trees = [sp.name for sp in CATALOG.species.values() if sp.is_tree]
    dwellers = [sp.name for sp in CATALOG.species.values() if not sp.is_tree]
    assert sorted(trees) == sorted(CATALOG.tree_symbols)
    assert len(dwellers) == 49
    assert len(CATALOG.species) == 57


def test_copies_per_species() -> None:
    assert {name: sp.count for name, sp in CATALOG.species.items()} == EXPECTED_COPIES
    shown: Counter[str] = Counter()
    for card in CATALOG.cards:
        if card is None:
            continue
        if card.species is not None:
            shown[card.species.name] += 1
        shown.update(h.species.name for h in card.halves.values())
    assert dict(shown) == EXPECTED_COPIES


def test_half_totals_per_side() -> None:
    sides = Counter(side for c in CATALOG.cards if c is not None for side in c.halves)
    assert sides == {"left": 44, "right": 44, "top": 48, "bottom": 48}
    assert sum(1 for c in CATALOG.cards if c is not None and c.is_tree) == 66
    assert sum(1 for c in CATALOG.cards if c is not None and c.is_winter) == 3


def test_split_cards_show_two_different_species_on_allowed_sides() -> None:
    for card in CATALOG.cards:
        if card is None or card.kind != "split":
            continue
        species = [h.species for h in card.halves.values()]
        assert len(species) == 2 and species[0] is not species[1], card.id
        for side, half in card.halves.items():
            assert side in half.species.positions, (card.id, side)
        assert card.symbols == {h.symbol for h in card.halves.values()}


def test_tree_cards_show_their_own_symbol() -> None:
    for card in CATALOG.cards:
        if card is not None and card.species is not None:
            assert card.symbols == {card.species.name}


def test_the_five_roe_deer_show_five_different_symbols() -> None:
    symbols = [h.symbol for c in CATALOG.cards if c is not None
               for h in c.halves.values() if h.species.name == "Roe Deer"]
    assert sorted(symbols) == ["Beech", "Birch", "Horse Chestnut", "Linden", "Silver Fir"]


def test_lookup_ignores_case_spacing_and_apostrophes() -> None:
    bat = CATALOG.species["Bechstein's Bat"]
    for spelling in ("bechstein’s bat", "BECHSTEIN'S  BAT", "bechstein`s-bat"):
        assert CATALOG.lookup(spelling) is bat
    assert CATALOG.lookup("silver_washed fritillary") is CATALOG.species[
        "Silver-Washed Fritillary"]
    assert CATALOG.lookup("Unicorn") is None


# --- against the reference facts -------------------------------------------------------------


def test_every_card_matches_the_reference(ref: dict[str, Any]) -> None:
    assert len(ref["cards"]) == 161
    for rc in ref["cards"]:
        card = CATALOG.card(rc["id"])
        kind = rc["kind"]
        if kind == "tree":
            assert card.species is not None and card.species.name == rc["tree"], rc
            assert card.symbols == {rc["tree_symbol"]}, rc
        elif kind == "winter":
            assert card.is_winter, rc
        else:
            pair = ("left", "right") if kind == "split_left_right" else ("top", "bottom")
            assert sorted(card.halves) == sorted(pair), rc
            for side in pair:
                half = card.halves[side]
                got = {"species": half.species.name, "tree_symbol": half.symbol}
                assert got == rc[side], (rc["id"], side)


def test_same_species_as_reference(ref_species: dict[str, dict[str, Any]]) -> None:
    assert set(CATALOG.species) == set(ref_species)


def test_costs_tags_positions_counts_match_reference(
    ref_species: dict[str, dict[str, Any]],
) -> None:
    for name, sp in CATALOG.species.items():
        r = ref_species[name]
        assert sp.cost == r["cost"], name
        assert sp.tags == frozenset(r["tags"]), name
        assert sp.positions == tuple(r.get("positions", ["tree"])), name
        assert sp.count == r.get("halves_in_deck", r.get("count")), name
        assert [c.id for c in CATALOG.cards if c is not None and (
            c.species is sp or any(h.species is sp for h in c.halves.values()))] == sorted(
            r["card_ids"]), name


def test_symbols_by_position_match_reference(ref_species: dict[str, dict[str, Any]]) -> None:
    for name, r in ref_species.items():
        if "tree_symbols_by_position" not in r:
            continue
        got: dict[str, Counter[str]] = {}
        for card in CATALOG.cards:
            for side, half in (card.halves.items() if card is not None else ()):
                if half.species.name == name:
                    got.setdefault(side, Counter())[half.symbol] += 1
        assert got == {side: Counter(per) for side, per in r["tree_symbols_by_position"].items()}


def _without_text(raw: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    if raw is None:
        return None
    return {(key if k == "type" else k): v for k, v in raw.items() if k != "text"}


def test_effects_and_scoring_match_reference(ref_species: dict[str, dict[str, Any]]) -> None:
    for name, sp in CATALOG.species.items():
        r = ref_species[name]
        for ours, theirs in ((sp.effect, "effect"), (sp.bonus, "bonus"),
                             (sp.permanent, "permanent_effect")):
            mine = None if ours is None else {"op": ours.op, **ours.params}
            assert mine == _without_text(r.get(theirs), "op"), (name, theirs)
        points = {"rule": sp.points.rule, **sp.points.params}
        # Our readings the reference's rule data does not spell (docs/rules.md, "Shrubs are
        # no trees, card by card"): the flag goes with the reference's own rule.
        points.pop("trees_only", None)
        assert points == _without_text(r["scoring"], "rule"), name


# --- the validator ----------------------------------------------------------------------------

Docs = tuple[dict[str, Any], dict[str, Any]]


def _card(doc: dict[str, Any], cid: int) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in doc["cards"] if c.get("id") == cid)
    return found


def _species(doc: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in doc["species"] if s["name"] == name)
    return found


def test_packaged_documents_build(docs: Docs) -> None:
    catalog = build_catalog(*docs)
    assert catalog.deck_ids == CATALOG.deck_ids
    assert list(catalog.species) == list(CATALOG.species)


def _unknown_species_on_card(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _card(cd, 70)["left"][0] = "Unicorn"


def _unknown_tree_on_card(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _card(cd, 5)["species"] = "Palm"


def _unknown_symbol(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _card(cd, 120)["bottom"][1] = "Palm"


def _half_on_wrong_side(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    card = _card(cd, 114)
    card["top"], card["bottom"] = card["bottom"], card["top"]


def _mixed_axes(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    card = _card(cd, 75)
    card["top"] = card.pop("left")


def _half_not_a_pair(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _card(cd, 130)["top"] = "Goshawk"


def _missing_id(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    gone = _card(cd, 100)
    cd["cards"].remove(gone)
    # keep the species counts right so that the gap is the first problem found
    for side in ("left", "right"):
        _species(sp, gone[side][0])["count"] -= 1


def _duplicate_id(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _card(cd, 67)["id"] = 68


def _no_id(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    del _card(cd, 90)["id"]


def _bad_kind(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _card(cd, 150)["kind"] = "joker"


def _bad_count(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Lynx")["count"] = 7


def _negative_cost(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Wolf")["cost"] = -3


def _count_not_int(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Mole")["count"] = "two"


def _unknown_op(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Birch")["effect"] = {"op": "teleport"}


def _missing_param(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    del _species(sp, "Tawny Owl")["bonus"]["n"]


def _unknown_rule(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Squeaker")["points"] = {"rule": "guess"}


def _unknown_tag(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Gnat")["tags"] = ["dragon"]


def _unknown_trigger(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Penny Bun")["permanent"]["trigger"] = "full moon"


def _unknown_permanent_start(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Penny Bun")["permanent"]["from"] = "tomorrow"


def _names_unknown_species(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Red Fox")["effect"]["species"] = "Rabbit"


def _points_name_unknown_species(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Lynx")["points"]["species"] = "Tiger"


def _dweller_position_tree(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Moss")["positions"] = ["tree"]


def _species_twice(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    sp["species"].append(copy.deepcopy(_species(sp, "Hedgehog")))


def _no_points_text(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Wood Ant")["text"] = {}


def _trees_only_not_a_flag(sp: dict[str, Any], cd: dict[str, Any]) -> None:
    _species(sp, "Wood Ant")["points"]["trees_only"] = "yes"


@pytest.mark.parametrize(("breakage", "message"), [
    (_unknown_species_on_card, r"card 70\b.*'Unicorn'"),
    (_unknown_tree_on_card, r"card 5\b.*'Palm'"),
    (_unknown_symbol, r"card 120\b.*'Palm'"),
    (_half_on_wrong_side, r"card 114\b.*Moss.*top"),
    (_mixed_axes, r"card 75\b"),
    (_half_not_a_pair, r"card 130\b.*top"),
    (_missing_id, r"card 100\b.*missing"),
    (_duplicate_id, r"card 68\b.*twice"),
    (_no_id, r"card entry without .*id"),
    (_bad_kind, r"card 150\b.*kind"),
    (_bad_count, r"species 'Lynx'.*count says 7.*6"),
    (_negative_cost, r"species 'Wolf'.*cost"),
    (_count_not_int, r"species 'Mole'.*count"),
    (_unknown_op, r"species 'Birch' effect.*'teleport'"),
    (_missing_param, r"species 'Tawny Owl' bonus.*'n'"),
    (_unknown_rule, r"species 'Squeaker' points.*'guess'"),
    (_unknown_tag, r"species 'Gnat'.*tags"),
    (_unknown_trigger, r"species 'Penny Bun' permanent effect.*'full moon'"),
    (_unknown_permanent_start, r"species 'Penny Bun' permanent effect.*'from'.*'now'"),
    (_names_unknown_species, r"species 'Red Fox'.*'Rabbit'"),
    (_points_name_unknown_species, r"species 'Lynx'.*'Tiger'"),
    (_dweller_position_tree, r"species 'Moss'.*positions"),
    (_species_twice, r"species 'Hedgehog'.*twice"),
    (_no_points_text, r"species 'Wood Ant'.*text"),
    (_trees_only_not_a_flag, r"species 'Wood Ant' points.*trees_only"),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_broken_data_raises_card_data_error_naming_the_culprit(
    docs: Docs, breakage: Callable[[dict[str, Any], dict[str, Any]], None], message: str,
) -> None:
    species_doc, cards_doc = docs
    breakage(species_doc, cards_doc)
    with pytest.raises(CardDataError, match=message):
        build_catalog(species_doc, cards_doc)


@pytest.mark.parametrize("bad", [None, [], {"species": []}, {"cards": {}}])
def test_documents_of_the_wrong_shape_are_rejected(docs: Docs, bad: Any) -> None:
    with pytest.raises(CardDataError):
        build_catalog(bad, docs[1])
    with pytest.raises(CardDataError):
        build_catalog(docs[0], bad)


def test_card_data_error_is_a_value_error() -> None:
    assert issubclass(CardDataError, ValueError)


def test_dartmoor_data_is_a_game_of_its_own() -> None:
    with pytest.raises(CardDataError, match="no card data module 'exmoor'"):
        cards.load_catalog(("exmoor",))
    with pytest.raises(CardDataError, match="merges with no other module"):
        cards.load_catalog(("base", "dartmoor"))
    assert cards.load_catalog(("dartmoor",)).modules == ("dartmoor",)
    assert cards.load_catalog(("base", "alpine")).modules == ("base", "alpine")


def test_sides_are_the_four_slots() -> None:
    assert set(SIDES) == {"top", "bottom", "left", "right"}
