"""Dartmoor card data: the species, the provisional deck and its method, caves, the new
vocabulary, hosts and slots, and the game definition (not registered)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.cards import dartmoor_deck
from forest_shuffle.cards.forest import MOOR, UNIVERSAL_MOOR, Dweller, Host
from forest_shuffle.cards.model import (
    EFFECT_OPS,
    POINT_RULES,
    CardDataError,
    build_catalog,
    load_catalog,
)
from forest_shuffle.engine.game import game_ids
from forest_shuffle.games.dartmoor import PAD_LINES, dartmoor_game
from forest_shuffle.scoring.dartmoor import LINES
from forest_shuffle.text import cardtext

DATA = Path(__file__).parents[1] / "src/forest_shuffle/cards/data/dartmoor"
REFERENCE = Path(__file__).parents[2] / "shared/reference/cards-dartmoor.json"
CAT = load_catalog(("dartmoor",))
SP = CAT.species


def _doc(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def test_the_box_contents() -> None:
    cards = [c for c in CAT.cards if c is not None]
    kinds = Counter(c.kind if c.kind != "split" else c.axis for c in cards)
    assert kinds == {"tree": 36, "shrub": 8, "moor": 27, "tb": 56, "lr": 45, "winter": 3}
    assert len(cards) + len(CAT.caves) == 180 and len(CAT.caves) == 5
    assert CAT.tree_symbols == ("Ash", "Goat Willow", "Crab Apple", "Black Alder",
                                "Moor Birch", "Sessile Oak")
    assert {sp.name for sp in SP.values() if sp.kind == "moor"} == {
        "Blanket Bog", "Tor", "Valley Mire", "Wet Woodland", "Fountainhead", "Lowland Heath",
        "Warrens", "Rhôs Pasture", "Rivulet"}
    # names shared with the base game belong to Dartmoor's own catalog
    base = load_catalog(("base",)).species
    assert SP["Roe Deer"] is not base["Roe Deer"] and SP["Roe Deer"].module == "dartmoor"


def test_types_a_dragonfly_is_an_insect_a_mouse_a_pawed_animal() -> None:
    for sp in SP.values():
        if "dragonfly" in sp.tags:
            assert "insect" in sp.tags, sp.name
        if "mouse" in sp.tags:
            assert "pawed animal" in sp.tags, sp.name
    for reptile in ("Adder", "Common Lizard", "Grass Snake"):
        assert SP[reptile].tags == {"amphibian"}


@pytest.mark.skipif(not REFERENCE.exists(), reason="the reference is beside the project only")
def test_species_match_the_reference() -> None:
    ref = json.loads(REFERENCE.read_text(encoding="utf-8"))["species"]
    seen = 0
    for group in ("trees", "shrubs", "moors", "dwellers_top", "dwellers_bottom",
                  "dwellers_left_right"):
        for entry in ref[group]:
            if not isinstance(entry["copies"], int):
                continue  # the universal moor: not a card
            sp = SP[entry["name"]]
            assert (sp.count, sp.cost) == (entry["copies"], entry["cost"]), sp.name
            seen += 1
    assert seen == len(SP)


def test_known_cards_are_kept_as_they_are() -> None:
    for cid, (axis, first, second) in dartmoor_deck.KNOWN_SPLITS.items():
        card = CAT.card(cid)
        assert card.printed == f"D{cid:03d}" and card.axis == axis
        halves = [h.species.name for h in card.halves.values()]
        assert halves == [first, second]
        assert "pairing" not in card.assumed
    assert CAT.card(5).species is SP["Moor Birch"]
    assert "bottom half" in CAT.card(138).assumed


def test_every_other_split_card_is_marked_provisional() -> None:
    for card in CAT.cards:
        if card is None or card.kind != "split":
            continue
        assert {f"{s} symbol" for s in card.halves} <= set(card.assumed), card.id
        if card.id not in dartmoor_deck.KNOWN_SPLITS:
            assert "pairing" in card.assumed and not card.printed
    assert CAT.provisional_deck.startswith("Provisional deck")


def test_the_deck_file_is_the_methods_output() -> None:
    deck = _doc("deck.json")
    if deck.get("method") != dartmoor_deck.METHOD:
        pytest.skip("the deck file was corrected from the real cards")
    cards_doc, deck_doc = dartmoor_deck.documents()
    assert deck_doc == deck and cards_doc == _doc("cards.json")


def test_the_methods_symbol_facts() -> None:
    halves = [(c.id, s, h) for c in CAT.cards if c is not None for s, h in c.halves.items()]
    roe = sorted((cid, h.symbol) for cid, _s, h in halves if h.species.name == "Roe Deer")
    assert [sym for _cid, sym in roe] == list(dartmoor_deck.ROE_DEER)
    for name in dartmoor_deck.CRAB_APPLE_SEEN:
        first = min((cid, h.symbol) for cid, _s, h in halves if h.species.name == name)
        assert first[1] == "Crab Apple"
    spread = Counter(h.symbol for _c, _s, h in halves)
    assert max(spread.values()) - min(spread.values()) <= 2
    assert all(len({h.species.name for h in c.halves.values()}) == 2
               for c in CAT.cards if c is not None and c.kind == "split")
    assert SP["Roe Deer"].deck_symbol == "" and SP["Heather"].deck_symbol == ""


def _build(species: Any, cards: Any, deck: Any) -> None:
    merged = {**cards, "cards": cards["cards"] + deck["cards"]}
    build_catalog(species, merged, caves_doc=_doc("caves.json"),
                  known_symbols=deck.get("known_symbols"))


def test_a_corrected_deck_is_checked_when_loaded() -> None:
    species, cards, deck = _doc("species.json"), _doc("cards.json"), _doc("deck.json")
    _build(species, cards, deck)
    swapped = copy.deepcopy(deck)
    card = next(c for c in swapped["cards"] if c.get("left", [""])[0] == "Roe Deer")
    card["left"][1] = "Goat Willow"
    with pytest.raises(CardDataError, match="Roe Deer.*known symbols"):
        _build(species, cards, swapped)
    lost = copy.deepcopy(deck)
    lost["cards"] = [c for c in lost["cards"] if c["id"] != 95]
    with pytest.raises(CardDataError, match="count says"):
        _build(species, cards, lost)
    odd = copy.deepcopy(deck)
    odd["cards"][0]["assumed"] = ["colour"]
    with pytest.raises(CardDataError, match="assumed"):
        _build(species, cards, odd)
    known = copy.deepcopy(deck)  # a person fixes one card: no code changes
    known["cards"][0]["assumed"] = []
    _build(species, cards, known)


def test_caves() -> None:
    caves = {c.number: c for c in CAT.caves}
    assert caves[3].effect is not None and caves[3].effect.op == "draw_then_discard"
    assert caves[3].effect.params == {"n": 3, "discard": 3} and not caves[3].provisional
    assert caves[4].effect is None and caves[4].points is not None
    assert caves[4].points.params["points"] == 5 and not caves[4].provisional
    assert all(caves[n].provisional and caves[n].effect is not None for n in (1, 2, 5))


def test_every_reading_is_marked_provisional() -> None:
    lost = {"Valley Mire", "Lowland Heath", "Warrens", "Buzzard", "Blueberry", "Bog Asphodel",
            "Greater Butterfly Orchid", "Meadowsweet", "Blue Ground Beetle", "Capercaillie",
            "Shrew", "Wood Mouse", "Gnat", "Grass Snake"}
    conflicts = {"Blanket Bog", "Beaver", "Cuckoo", "Wheatear", "Ash", "Rivulet"}
    assert {n for n, sp in SP.items() if sp.provisional} == lost | conflicts


def test_placement_rules() -> None:
    moor_only = {n for n, sp in SP.items() if sp.hosts == {"moor"}}
    assert moor_only == {"Black-Tailed Godwit", "Common Moorhen", "Curlew", "Grey Heron",
                         "Bog Asphodel", "Grass Snake", "Moor Frog", "Warty Newt"}
    cuckoo = SP["Cuckoo"]
    assert cuckoo.hosts == {"tree", "shrub"} and cuckoo.onto_tag == "bird"
    assert cuckoo.max_per_host == 1


def _host(name: str) -> Host:
    sp = SP[name]
    return Host(sp, kind=sp.kind, symbol=sp.name if sp.kind == "tree" else "")


def test_a_moor_has_two_top_and_two_bottom_slots() -> None:
    moor = _host("Tor")
    assert moor.kind == MOOR and moor.is_moor and not moor.is_tree
    assert (moor.capacity("top"), moor.capacity("left")) == (2, 0)
    assert not moor.accepts(SP["Roe Deer"], "left")
    for _ in range(2):
        assert moor.accepts(SP["Grey Heron"], "top")
        moor.slots["top"].append(Dweller(SP["Grey Heron"]))
    assert not moor.accepts(SP["Curlew"], "top") and moor.slots_used("top") == 2
    assert moor.accepts(SP["Heather"], "bottom")
    moor.slots["bottom"] += [Dweller(SP["Heather"]), Dweller(SP["Otter"])]
    assert moor.fully_occupied()
    universal = Host(None, kind=UNIVERSAL_MOOR)
    assert universal.name == "universal moor" and universal.accepts(SP["Curlew"], "top")


def test_moor_only_species_and_the_cuckoo() -> None:
    tree = _host("Ash")
    assert not tree.accepts(SP["Curlew"], "top") and not tree.accepts(SP["Moor Frog"], "bottom")
    assert not tree.accepts(SP["Cuckoo"], "top")  # needs a bird already there
    tree.slots["top"].append(Dweller(SP["Barn Owl"]))
    assert tree.accepts(SP["Cuckoo"], "top") and not tree.accepts(SP["Buzzard"], "top")
    tree.slots["top"].append(Dweller(SP["Cuckoo"]))
    assert not tree.accepts(SP["Cuckoo"], "top")  # one a tree
    moor = _host("Tor")
    moor.slots["top"].append(Dweller(SP["Curlew"]))
    assert not moor.accepts(SP["Cuckoo"], "top")


def test_dragonflies_share_above_water_soldiers() -> None:
    for name in ("Valley Mire", "Black Alder"):
        host = _host(name)
        host.slots["top"].append(Dweller(SP["Keeled Skimmer"]))
        assert not host.accepts(SP["Emerald Damselfly"], "top") or name == "Valley Mire"
        host.slots["bottom"].append(Dweller(SP["Water Soldiers"]))
        for _ in range(3):
            assert host.accepts(SP["Emerald Damselfly"], "top")
            host.slots["top"].append(Dweller(SP["Emerald Damselfly"]))
    moor = _host("Valley Mire")
    moor.slots["bottom"].append(Dweller(SP["Water Soldiers"]))
    moor.slots["top"] += [Dweller(SP["Keeled Skimmer"]), Dweller(SP["Curlew"])]
    assert moor.accepts(SP["Emerald Damselfly"], "top") and not moor.accepts(SP["Curlew"], "top")


def test_rabbits_join_side_slots_beside_a_badger() -> None:
    tree = _host("Ash")
    tree.slots["left"].append(Dweller(SP["Roe Deer"]))
    rabbit = SP["Dartmoor Black Rabbit"]
    assert not tree.accepts(rabbit, "left")
    tree.slots["right"].append(Dweller(SP["Dartmoor Badger"]))
    assert tree.accepts(rabbit, "left") and tree.accepts(rabbit, "right")
    tree.slots["left"].append(Dweller(rabbit))
    assert tree.accepts(rabbit, "left") and not tree.accepts(SP["Field Vole"], "left")


def test_new_vocabulary_has_words() -> None:
    used_ops = {e.op for sp in SP.values() for e in (sp.effect, sp.bonus, sp.permanent) if e}
    used_ops |= {c.effect.op for c in CAT.caves if c.effect is not None}
    assert used_ops <= set(EFFECT_OPS)
    assert {sp.points.rule for sp in SP.values()} <= set(POINT_RULES)
    for sp in SP.values():
        words = cardtext.describe_points(sp)
        assert words and "_" not in words, sp.name
        for eff in (sp.effect, sp.bonus, sp.permanent):
            if eff is not None:
                text = cardtext.describe_effect(eff)
                assert text != eff.op.replace("_", " ").capitalize(), (sp.name, eff.op)
    for cave in CAT.caves:
        assert cardtext.cave_words(cave).startswith(f"Cave {cave.number}: ")
        if cave.effect is not None:
            assert "_" not in cardtext.describe_effect(cave.effect)
    assert cardtext.describe_effect(SP["Fountainhead"].permanent).startswith(
        "Whenever another moor enters your forest")
    assert cardtext.describe_points(SP["Dartmoor Pony"]) == (
        "5 each, 15 each with the most moors (ties count; solo: 8+ moors)")


def test_the_game_definition() -> None:
    g = dartmoor_game()
    assert g.id == "dartmoor" and g.catalog is CAT and g.players == (2, 3, 4, 5)
    assert dict(g.removed_at_setup) == {1: 45, 2: 45, 3: 30, 4: 15, 5: 0}
    assert (g.hand_limit, g.clearing_limit, g.opening_hand, g.winter_to_end) == (10, 10, 6, 3)
    assert g.pad_lines == PAD_LINES == LINES
    assert len(g.deck_ids) == 172 and len(g.winter_ids) == 3
    assert [t.trigger for t in g.triggers][-1] == "moor placed"
    assert "dartmoor" in game_ids() and g.scorer == "dartmoor"
