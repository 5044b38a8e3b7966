"""Scoring of every Alpine and Woodland Edge species (docs/expansion-data.md gives the
readings), of the shrubs (hosts that are no trees but show a printed tree symbol), and of
the expansion rules in a whole forest. Each expected number is worked out in a comment."""

from __future__ import annotations

import pytest
from scenario import Picker, build, site

from forest_shuffle.cards.forest import SHRUB, Dweller, Forest, Host
from forest_shuffle.cards.model import SIDES
from forest_shuffle.games import make_game
from forest_shuffle.scoring.core import LINES, CardPoints, ForestScore, score_table, totals

ALL = "base+alpine+woodland_edge"
CAT = make_game(ALL).catalog

Slot = str | Dweller | list[str | Dweller] | None


def dw(name: str, symbol: str | None = None) -> Dweller:
    return Dweller(CAT.species[name], symbol)


def _fill(host: Host, top: Slot, bottom: Slot, left: Slot, right: Slot) -> Host:
    for side, raw in zip(SIDES, (top, bottom, left, right), strict=True):
        items = [] if raw is None else raw if isinstance(raw, list) else [raw]
        host.slots[side] = [dw(x) if isinstance(x, str) else x for x in items]
    return host


def T(tree: str | None, top: Slot = None, bottom: Slot = None, left: Slot = None,
      right: Slot = None) -> Host:
    """A tree (or a sapling with ``None``) with its slots; names become dwellers."""
    return _fill(Host(None if tree is None else CAT.species[tree],
                      kind="tree" if tree else "sapling"), top, bottom, left, right)


def S(shrub: str, symbol: str, top: Slot = None, bottom: Slot = None, left: Slot = None,
      right: Slot = None) -> Host:
    """A shrub showing the printed tree symbol ``symbol``, with its slots."""
    return _fill(Host(CAT.species[shrub], kind=SHRUB, symbol=symbol), top, bottom, left, right)


def F(*trees: Host, cave: int = 0) -> Forest:
    return Forest(list(trees), cave)


def check(*forests: Forest) -> list[ForestScore]:
    """Score a table and check that both paths, the lines and the cards agree."""
    scores = score_table(forests)
    assert totals(forests) == [s.total for s in scores]
    for s in scores:
        assert set(s.lines) == set(LINES)
        assert sum(s.lines.values()) == s.total
        assert sum(c.points for c in s.cards) == s.total
        assert all(c.why for c in s.cards)
    return scores


def _printed(species: str) -> str:
    """The name the scorer's cards give (printed: "Edge Squeaker" is "Squeaker")."""
    return CAT.species[species].printed if species in CAT.species else species


def pts(species: str, *forests: Forest, index: int = 0) -> int:
    """Points of every card printed with the name of ``species`` in forest ``index``."""
    name = _printed(species)
    return sum(c.points for c in check(*forests)[index].cards if c.species == name)


def cards(species: str, *forests: Forest, index: int = 0) -> list[CardPoints]:
    name = _printed(species)
    return [c for c in check(*forests)[index].cards if c.species == name]


def total(*forests: Forest, index: int = 0) -> int:
    return check(*forests)[index].total


# ============================================================================= Alpine


def test_european_larch_flat_three() -> None:
    assert pts("European Larch", F(T("European Larch"), T("European Larch"))) == 6  # 2 x 3


def test_expansion_trees_are_tree_species_for_the_oak() -> None:
    seven = ["Oak", "Linden", "Birch", "Beech", "Sycamore", "Douglas Fir", "Horse Chestnut"]
    # 7 tree species (no Silver Fir): the Oak scores 0; a Larch makes 8 species: 10
    assert pts("Oak", F(*(T(n) for n in seven))) == 0
    assert pts("Oak", F(*(T(n) for n in seven), T("European Larch"))) == 10
    assert pts("Oak", F(*(T(n) for n in seven), T("Stone Pine"))) == 10


def test_stone_pine_per_alps_card_itself_included() -> None:
    # Alps cards: the Stone Pine, a Mountain Hare, a Golden Eagle, a Larch = 4 (Lynx, Oak no)
    f = F(T("Stone Pine", left="Mountain Hare", top="Golden Eagle"), T("European Larch"),
          T("Oak", left="Lynx"))
    assert pts("Stone Pine", f) == 4
    # two Stone Pines and a Larch: 3 Alps cards, 3 points each = 6
    assert pts("Stone Pine", F(T("Stone Pine"), T("Stone Pine"), T("European Larch"))) == 6


def test_alpine_marmot_per_different_plant_species() -> None:
    # plants: Moss, Moss, Edelweiss, Digitalis = 3 species -> 9; a sapling is no species
    trees = [T("Birch", bottom="Moss"), T("Beech", bottom="Edelweiss"),
             T(None, bottom="Digitalis")]
    assert pts("Alpine Marmot", F(T("Oak", left="Alpine Marmot", bottom="Moss"), *trees)) == 9
    two = F(T("Oak", left="Alpine Marmot", right="Alpine Marmot", bottom="Moss"), *trees)
    assert pts("Alpine Marmot", two) == 18  # 2 x 9
    assert pts("Alpine Marmot", F(T("Oak", left="Alpine Marmot"))) == 0


def test_chamois_per_card_with_its_symbol() -> None:
    # Douglas Fir symbol: 2 Douglas Fir trees, the Chamois, a Capercaillie, a Blackthorn
    # printed Douglas Fir, a Goshawk = 6 -> 18 (the Moss shows Linden)
    f = F(T("Douglas Fir", left=dw("Chamois", "Douglas Fir"),
            right=dw("Capercaillie", "Douglas Fir")),
          S("Blackthorn", "Douglas Fir"), T("Douglas Fir"),
          T("Birch", top=dw("Goshawk", "Douglas Fir"), bottom=dw("Moss", "Linden")))
    assert pts("Chamois", f) == 18
    # alone on a sapling: only itself -> 3; each Chamois counts its own symbol
    assert pts("Chamois", F(T(None, left=dw("Chamois", "Stone Pine")))) == 3
    two = F(T("Stone Pine", left=dw("Chamois", "Stone Pine"),
              right=dw("Chamois", "European Larch")), T("European Larch"), T("European Larch"))
    assert [c.points for c in cards("Chamois", two)] == [6, 9]  # 2 Stone Pine, 3 Larch


def test_capercaillie_per_plant() -> None:
    # 2 plants (Moss, Edelweiss): 2 each, 4 for two
    f = F(T("Oak", left="Capercaillie", right="Capercaillie", bottom="Moss"),
          T("Birch", bottom="Edelweiss"))
    assert pts("Capercaillie", f) == 4


def test_mountain_hare_counts_as_a_european_hare() -> None:
    # 2 European Hares + 1 Mountain Hare = 3 hares: each hare card scores 3 -> 6 + 3
    f = F(T("Oak", left=["European Hare", "European Hare"], right="Mountain Hare"))
    assert pts("European Hare", f) == 6
    assert pts("Mountain Hare", f) == 3
    assert pts("Mountain Hare", F(T("Oak", left="Mountain Hare"))) == 1
    # Red Fox: 2 per hare, the Mountain Hare included -> 2 hares: 4
    fox = F(T("Oak", left=["European Hare", "Mountain Hare"], right="Red Fox"))
    assert pts("Red Fox", fox) == 4
    assert total(fox) == 4 + 2 + 2


def test_steinbock_flat_ten() -> None:
    assert pts("Steinbock", F(T("Oak", left="Steinbock", right="Steinbock"))) == 20


BATS5 = ["Barbastelle Bat", "Bechstein's Bat", "Brown Long-Eared Bat", "Greater Horseshoe Bat",
         "Savi's Pipistrelle", "Common Pipistrelle"]


def test_savis_pipistrelle_is_a_bat_species_of_its_own() -> None:
    # Savi's + Barbastelle + Common Pipistrelle: 3 species, 3 bats x 5 = 15
    f = F(T("Oak", left="Savi's Pipistrelle", right="Barbastelle Bat"),
          T("Birch", left="Common Pipistrelle"))
    assert sum(pts(b, f) for b in BATS5) == 15 and pts("Savi's Pipistrelle", f) == 5
    # 2 Savi's and a Barbastelle: only 2 species -> 0
    two = F(T("Oak", left="Savi's Pipistrelle", right="Barbastelle Bat"),
            T("Birch", left="Savi's Pipistrelle"))
    assert sum(pts(b, two) for b in BATS5) == 0
    # Savi's x2 + Bechstein's + Common Pipistrelle: 4 bats x 5 = 20, Savi's 10
    four = F(T("Oak", left="Savi's Pipistrelle", right="Savi's Pipistrelle"),
             T("Birch", left="Bechstein's Bat", right="Common Pipistrelle"))
    assert sum(pts(b, four) for b in BATS5) == 20 and pts("Savi's Pipistrelle", four) == 10
    # all six bat species, one each: 30
    six = F(*(T("Birch", left=b) for b in BATS5))
    assert total(six) == 6 + 30  # 6 Birches


BASE_BUTTERFLIES = ["Camberwell Beauty", "Large Tortoiseshell", "Peacock Butterfly",
                    "Purple Emperor", "Silver-Washed Fritillary"]
BUTTERFLIES = [*BASE_BUTTERFLIES, "Phoebus Apollo", "Map Butterfly"]


def butterflies(f: Forest) -> int:
    return sum(pts(b, f) for b in BUTTERFLIES)


def test_phoebus_apollo_sixth_butterfly_set_of_six_scores_35() -> None:
    # the 5 base butterflies (listed first, with their short table) and an Apollo: 35
    six = F(T("Oak", top=[*(dw(b) for b in BASE_BUTTERFLIES), dw("Phoebus Apollo")],
              bottom="Stinging Nettle"))
    assert butterflies(six) == 35
    assert butterflies(F(*(T("Birch", top=b) for b in [*BASE_BUTTERFLIES,
                                                        "Phoebus Apollo"]))) == 35
    # without the Apollo: 5 species -> 20 (the long and short tables agree there)
    assert butterflies(F(*(T("Birch", top=b) for b in BASE_BUTTERFLIES))) == 20


def test_seven_butterfly_species_score_55_and_sets_layer() -> None:
    assert butterflies(F(*(T("Birch", top=b) for b in BUTTERFLIES))) == 55
    # Apollo x2, Map x2, Peacock: sets {Apollo, Map, Peacock} = 6 and {Apollo, Map} = 3
    tops = ["Phoebus Apollo", "Phoebus Apollo", "Map Butterfly", "Map Butterfly",
            "Peacock Butterfly"]
    assert butterflies(F(*(T("Birch", top=b) for b in tops))) == 9
    # all 7 and a second Apollo: 55 + a set of one (0)
    assert butterflies(F(*(T("Birch", top=b) for b in [*BUTTERFLIES, "Phoebus Apollo"]))) == 55


def test_map_butterfly_is_a_butterfly_species_of_its_own() -> None:
    # Map + 4 base butterflies: a set of 5 -> 20
    f = F(*(T("Birch", top=b) for b in ["Map Butterfly", *BASE_BUTTERFLIES[:4]]))
    assert butterflies(f) == 20
    assert butterflies(F(T("Birch", top="Map Butterfly"))) == 0


def test_golden_eagle_per_pawed_animal_and_amphibian() -> None:
    # pawed: Lynx, Mountain Hare; amphibians: Common Toad, Alpine Newt -> 4 (Chamois no)
    f = F(T("Oak", top="Golden Eagle", left="Lynx", right="Mountain Hare", bottom="Common Toad"),
          T("Birch", bottom="Alpine Newt", left="Chamois"))
    assert pts("Golden Eagle", f) == 4


def test_bearded_vulture_per_cave_card() -> None:
    # 4 cards under the cave: the Vulture 4 on top of the cave's own 4
    s = check(F(T("Oak", top="Bearded Vulture"), cave=4))[0]
    assert s.lines == {"trees": 0, "top_bottom": 4, "left_right": 0, "cave": 4}
    # two Vultures, 3 cave cards: 3 + 3 + 3 = 9
    assert total(F(T("Oak", top="Bearded Vulture"), T(None, top="Bearded Vulture"),
                   cave=3)) == 9
    assert pts("Bearded Vulture", F(T("Oak", top="Bearded Vulture"))) == 0


@pytest.mark.parametrize(("species", "each"), [
    ("Common Raven", 5), ("Edelweiss", 3), ("Black Trumpet", 0), ("Eurasian Magpie", 3),
    ("Edge Squeaker", 1), ("Water Vole", 0),
])
def test_flat_points(species: str, each: int) -> None:
    side = CAT.species[species].positions[0]
    f = F(T("Oak", **{side: species}), T("Birch", **{side: species}))
    assert pts(species, f) == 2 * each


def test_blueberry_per_different_bird_species() -> None:
    # birds: Golden Eagle x2, Goshawk, Capercaillie = 3 species -> 6
    f = F(T("Oak", bottom="Blueberry", top="Golden Eagle"), T("Birch", top="Golden Eagle"),
          T("Beech", top="Goshawk", left="Capercaillie"))
    assert pts("Blueberry", f) == 6


def test_alpine_newt_per_insect() -> None:
    # insects: Phoebus Apollo, Gnat, Great Green Bush-Cricket = 3 -> 6
    f = F(T("Oak", bottom="Alpine Newt", top="Phoebus Apollo", left="Gnat"),
          T("Birch", bottom="Great Green Bush-Cricket"))
    assert pts("Alpine Newt", f) == 6


def test_gentian_per_butterfly() -> None:
    # butterflies: Phoebus Apollo, Peacock, Map = 3 -> 9
    f = F(T("Oak", bottom="Gentian", top="Phoebus Apollo"), T("Birch", top="Peacock Butterfly"),
          T("Beech", top="Map Butterfly"))
    assert pts("Gentian", f) == 9


# ============================================================================= shrubs


@pytest.mark.parametrize("shrub", ["Elderberry", "Common Hazel", "Blackthorn"])
def test_shrub_scores_nothing_on_the_tree_line(shrub: str) -> None:
    s = check(F(S(shrub, "Birch", top="Goshawk")))[0]
    assert [(c.where, c.species, c.points) for c in s.cards] == [
        ("tree 1", shrub, 0), ("tree 1 top", "Goshawk", 3)]  # Goshawk: 3 per bird, itself
    assert s.total == 3 and s.lines["top_bottom"] == 3


def test_shrub_is_no_tree_for_sycamore_and_red_deer() -> None:
    # trees: Sycamore, Birch, a sapling = 3 (the Elderberry is none)
    f = F(T("Sycamore"), T("Birch"), S("Elderberry", "Sycamore"), T(None))
    assert pts("Sycamore", f) == 3
    # Red Deer: 1 tree + 1 plant = 2
    assert pts("Red Deer", F(T("Oak", left="Red Deer", bottom="Moss"),
                             S("Elderberry", "Oak"))) == 2


def test_shrub_is_no_tree_species_for_oak_and_wild_strawberries() -> None:
    seven = ["Oak", "Linden", "Birch", "Beech", "Sycamore", "Douglas Fir", "Horse Chestnut"]
    f = F(*(T(n) for n in seven), S("Blackthorn", "Silver Fir", bottom="Wild Strawberries"))
    assert pts("Oak", f) == 0 and pts("Wild Strawberries", f) == 0


def test_shrub_is_no_tree_for_the_woodpecker() -> None:
    # 2 trees and 2 shrubs against 3 trees: no Woodpecker points; against 2 trees: a tie, 10
    a = F(T("Oak", top="Great Spotted Woodpecker"), T("Birch"), S("Elderberry", "Oak"),
          S("Blackthorn", "Birch"))
    assert pts("Great Spotted Woodpecker", a, F(T("Oak"), T("Birch"), T("Beech"))) == 0
    assert pts("Great Spotted Woodpecker", a, F(T("Oak"), T("Birch"))) == 10


def test_fully_occupied_shrub_is_no_tree_for_the_beech_marten() -> None:
    f = F(S("Common Hazel", "Oak", top="Golden Eagle", bottom="Moss", left="Beech Marten",
            right="Lynx"),
          T("Birch", top="Goshawk", bottom="Moss", left="Lynx", right="Lynx"))
    assert pts("Beech Marten", f) == 5  # only the Birch is a fully occupied tree


def test_shrub_is_no_tree_for_the_moss() -> None:
    nine = [T("Birch") for _ in range(8)]
    f = F(T("Oak", bottom="Moss"), *nine, S("Elderberry", "Oak"))
    assert pts("Moss", f) == 0  # 9 trees
    assert pts("Moss", F(T("Oak", bottom="Moss"), *nine, T(None))) == 10  # 10 with a sapling


def test_violet_carpenter_bee_at_a_shrub_adds_no_tree() -> None:
    nine = [T("Oak", bottom="Moss"), *(T("Birch") for _ in range(8))]
    bee = "Violet Carpenter Bee"
    # 9 trees and a bee at one of them: 10 for the Moss (the shrub beside adds nothing)
    assert pts("Moss", F(*nine[:-1], T("Birch", left=bee), S("Elderberry", "Oak"))) == 10
    # 9 trees and the bee at a shrub: 9 trees -> 0
    at_shrub = F(*nine, S("Elderberry", "Oak", left=bee))
    assert pts("Moss", at_shrub) == 0
    assert "shrub" in cards(bee, at_shrub)[0].why
    # the Woodpecker: 1 tree (+ a bee at a shrub) against 2 trees -> 0
    a = F(T("Oak", top="Great Spotted Woodpecker"), S("Elderberry", "Oak", left=bee))
    assert pts("Great Spotted Woodpecker", a, F(T("Oak"), T("Birch"))) == 0


def test_shrub_printed_linden_is_no_linden_tree() -> None:
    a = F(T("Linden"), S("Elderberry", "Linden"))
    b = F(T("Linden"), T("Linden"))
    assert pts("Linden", a, b, index=0) == 1  # 1 Linden, another forest has 2
    assert pts("Linden", a, b, index=1) == 6  # most: 3 each


def test_shrub_shows_its_printed_symbol_for_the_roe_deer() -> None:
    # Birch symbol: the shrub, the Birch tree, the Roe Deer = 3 -> 9
    f = F(S("Elderberry", "Birch", left=dw("Roe Deer", "Birch")), T("Birch"))
    assert pts("Roe Deer", f) == 9
    # the shrub's own name is no tree symbol, its printed one is
    assert pts("Roe Deer", F(S("Elderberry", "Oak", left=dw("Roe Deer", "Birch")))) == 3


def test_wood_ant_counts_the_cards_below_trees_not_below_shrubs() -> None:
    # below trees: the Wood Ant and a Moss below a sapling = 2 -> 4 (the Moss below the
    # Elderberry is below no tree)
    f = F(T("Oak", bottom="Wood Ant"), S("Elderberry", "Oak", bottom="Moss"),
          T(None, bottom="Moss"))
    assert pts("Wood Ant", f) == 4
    assert "2 cards" in cards("Wood Ant", f)[0].why
    # two Wood Ants below trees and two cards below a shrub: 2 below trees, 4 each -> 8
    two = F(T("Birch", bottom="Wood Ant"), T("Beech", bottom="Wood Ant"),
            S("Blackthorn", "Beech", bottom=["Common Toad", "Common Toad"]))
    assert pts("Wood Ant", two) == 8


def test_wood_ant_below_a_shrub_does_not_count_itself() -> None:
    # the Ant sits below a Blackthorn: only the Moss below the Birch counts -> 2
    f = F(S("Blackthorn", "Birch", bottom="Wood Ant"), T("Birch", bottom="Moss"))
    assert pts("Wood Ant", f) == 2
    # alone below a shrub: nothing below a tree -> 0
    assert pts("Wood Ant", F(S("Common Hazel", "Oak", bottom="Wood Ant"))) == 0


def test_fat_dormouse_with_a_bat_scores_at_a_tree_or_sapling_not_at_a_shrub() -> None:
    dormouse = "European Fat Dormouse"
    f = F(S("Common Hazel", "Linden", left=dormouse, right="Barbastelle Bat"),
          T("Birch", left="Brown Long-Eared Bat", right=dormouse),
          T(None, left=dormouse, right="Greater Horseshoe Bat"))
    assert [c.points for c in cards(dormouse, f)] == [0, 15, 15]
    assert "shrub" in cards(dormouse, f)[0].why


def test_shrub_printed_beech_or_oak_is_no_host_tree_for_chaffinch_and_squirrel() -> None:
    f = F(S("Elderberry", "Beech", top="Chaffinch"), T("Beech", top="Chaffinch"),
          S("Blackthorn", "Oak", top="Red Squirrel"), T("Oak", top="Red Squirrel"))
    assert [c.points for c in cards("Chaffinch", f)] == [0, 5]
    assert [c.points for c in cards("Red Squirrel", f)] == [0, 5]


def test_violet_carpenter_bee_at_a_shrub_adds_no_beech_or_horse_chestnut() -> None:
    bee = "Violet Carpenter Bee"
    beeches = [T("Beech"), T("Beech"), T("Beech")]
    # 3 Beeches and a bee at a shrub printed Beech: 3, 4 needed -> 0; at a Beech: 4 -> 15
    assert pts("Beech", F(*beeches, S("Elderberry", "Beech", left=bee))) == 0
    assert pts("Beech", F(*beeches[:2], T("Beech", left=bee))) == 15
    # 2 Horse Chestnuts and a bee at a shrub printed Horse Chestnut: 2 -> 4; at one: 3 -> 9
    chestnuts = [T("Horse Chestnut"), T("Horse Chestnut")]
    assert pts("Horse Chestnut", F(*chestnuts, S("Blackthorn", "Horse Chestnut", right=bee))) == 4
    assert pts("Horse Chestnut", F(T("Horse Chestnut"), T("Horse Chestnut", right=bee))) == 9


def test_polecat_alone_at_a_shrub_scores() -> None:
    # "its tree or shrub": alone at a shrub 10; beside another card at a shrub 0
    f = F(S("Elderberry", "Birch", left="European Polecat"),
          S("Blackthorn", "Birch", left="European Polecat", bottom="Moss"))
    assert [c.points for c in cards("European Polecat", f)] == [10, 0]


# ============================================================================= Woodland Edge


def test_nightingale_five_on_a_shrub_only() -> None:
    f = F(S("Blackthorn", "Birch", top="Nightingale"), T("Oak", top="Nightingale"),
          T(None, top="Nightingale"))
    assert [c.points for c in cards("Nightingale", f)] == [5, 0, 0]


def test_barn_owl_per_bat() -> None:
    # 3 bats -> 9; the bats (3 species) 15
    f = F(T("Oak", top="Barn Owl", left="Barbastelle Bat", right="Common Pipistrelle"),
          T("Birch", left="Savi's Pipistrelle"))
    assert pts("Barn Owl", f) == 9
    assert total(f) == 9 + 15 + 1 + 0  # Birch 1, Oak 0 (not all tree species)


@pytest.mark.parametrize(("plants", "each"), [
    ([], 1),  # only Digitalis: 1 species -> 1
    (["Moss"], 3),
    (["Moss", "Edelweiss"], 6),
    (["Moss", "Edelweiss", "Stinging Nettle"], 10),
    (["Moss", "Edelweiss", "Stinging Nettle", "Blueberry"], 15),
    (["Moss", "Edelweiss", "Stinging Nettle", "Blueberry", "Gentian"], 15),  # 6: the cap
])
def test_digitalis_table_by_different_plant_species(plants: list[str], each: int) -> None:
    f = F(T("Oak", bottom="Digitalis"), T("Birch", bottom="Digitalis"),
          *(T(None, bottom=p) for p in plants))
    assert [c.points for c in cards("Digitalis", f)] == [each, each]


def test_stinging_nettle_per_butterfly_stacked_ones_included() -> None:
    # 4 butterflies (3 stacked atop the Nettle's tree): Nettle 8, butterflies 4 species 12
    f = F(T("Oak", bottom="Stinging Nettle", top=["Peacock Butterfly", "Phoebus Apollo",
                                                  "Map Butterfly"]),
          T("Birch", top="Purple Emperor"))
    assert pts("Stinging Nettle", f) == 8
    assert butterflies(f) == 12
    assert total(f) == 8 + 12 + 1  # and the Birch


def test_great_green_bush_cricket_per_insect_itself_included() -> None:
    # insects: the Bush-Cricket, a Gnat, a Map Butterfly = 3
    f = F(T("Oak", bottom="Great Green Bush-Cricket", left="Gnat", top="Map Butterfly"))
    assert pts("Great Green Bush-Cricket", f) == 3


def test_wild_boar_female_ten_per_squeaker_edge_squeakers_included() -> None:
    # a Squeaker and an Edge Squeaker: 2 x 10 = 20; plus 1 + 1 for the Squeakers
    f = F(T("Oak", left="Wild Boar (female)", right="Squeaker"), T("Birch", left="Edge Squeaker"))
    assert pts("Wild Boar (female)", f) == 20
    assert [(c.where, c.points) for c in cards("Edge Squeaker", f)] == [
        ("tree 1 right", 1), ("tree 2 left", 1)]  # both printed "Squeaker"
    assert total(f) == 20 + 1 + 1 + 1  # and the Birch
    two = F(T("Oak", left="Wild Boar (female)", right="Wild Boar (female)"),
            T("Birch", left="Edge Squeaker"))
    assert pts("Wild Boar (female)", two) == 20  # 2 Boars x 1 Squeaker x 10
    assert pts("Wild Boar (female)", F(T("Oak", left="Wild Boar (female)"))) == 0


def test_edge_squeaker_counts_for_the_base_wild_boar() -> None:
    assert pts("Wild Boar", F(T("Oak", left="Wild Boar", right="Edge Squeaker"))) == 10
    assert pts("Wild Boar", F(T("Oak", left="Wild Boar", right="Bee Swarm"))) == 0


def test_bee_swarm_per_plant() -> None:
    f = F(T("Oak", left="Bee Swarm", bottom="Moss"), T("Birch", bottom="Digitalis"))
    assert pts("Bee Swarm", f) == 2


def test_european_bison_per_oak_or_beech_symbol() -> None:
    # Oak: the Oak tree, the Bison, an Elderberry printed Oak = 3; Beech: the Beech tree and
    # a Chaffinch = 2 -> 5 x 2 = 10 (the Goshawk shows Birch)
    f = F(T("Oak", left=dw("European Bison", "Oak"), top=dw("Chaffinch", "Beech")), T("Beech"),
          S("Elderberry", "Oak"), T("Birch", top=dw("Goshawk", "Birch")))
    assert pts("European Bison", f) == 10
    # a Bison showing Beech alone on a sapling: itself -> 2
    assert pts("European Bison", F(T(None, left=dw("European Bison", "Beech")))) == 2


def test_european_wildcat_per_woodland_edge_card_itself_included() -> None:
    # the Wildcat, a Map Butterfly, a Common Hazel = 3
    f = F(T("Oak", left="European Wildcat", top="Map Butterfly"), S("Common Hazel", "Oak"),
          T("Birch", left="Lynx"))
    assert pts("European Wildcat", f) == 3


def test_crane_fly_per_bat() -> None:
    f = F(T("Oak", left="Crane Fly", right="Barbastelle Bat"),
          T("Birch", left="Common Pipistrelle"))  # 2 bats
    assert pts("Crane Fly", f) == 2


def test_european_polecat_ten_if_alone_at_its_host() -> None:
    f = F(T("Oak", left="European Polecat"), S("Elderberry", "Oak", right="European Polecat"),
          T(None, left="European Polecat"), T("Birch", left="European Polecat", top="Goshawk"),
          T("Beech", left="European Polecat", right="European Polecat"))
    assert [c.points for c in cards("European Polecat", f)] == [10, 10, 10, 0, 0, 0]


# ============================================================================= real cards


def test_engine_scores_a_forest_of_real_expansion_cards() -> None:
    pk = Picker(ALL)
    oak = pk.tree("Oak")
    elder = next(c for c in (pk.tree("Elderberry") for _ in range(4))
                 if CAT.card(c).symbol == "Oak")
    bison = pk.half("European Bison", "left", symbol_is="Oak")[0]  # 223: Wild Boar (f) hidden
    bison2 = pk.half("European Bison", "right", symbol_is="Beech")[0]  # 230 right
    night = pk.half("Nightingale", "top", symbol_is="Horse Chestnut")[0]  # 219, not Beech
    polecat = pk.half("European Polecat", "left")[0]
    s = build([[], []], pk.fillers(2), game=ALL, caves=[[], []],
              forests=[[site(oak, left=[bison], right=[bison2]),
                        site(elder, top=[night]), site(pk.tree("Birch"), left=[polecat])], []])
    # Bisons: Oak symbols = Oak tree, Bison, Elderberry (3); Beech = the second Bison (1):
    # 4 x 2 = 8 each -> 16; Nightingale atop a shrub 5; Polecat alone 10; Birch 1; Oak 0
    assert s.scores() == [16 + 5 + 10 + 1, 0]
    score = score_table(s.forests)[0]
    assert score.lines == {"trees": 1, "top_bottom": 5, "left_right": 26, "cave": 0}
