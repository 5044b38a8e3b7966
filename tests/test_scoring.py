"""Scoring of every base-game species and tree, the appendix examples and the score pad."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import CATALOG

from forest_shuffle.cards.forest import Dweller, Forest, Host
from forest_shuffle.cards.model import SIDES
from forest_shuffle.scoring.core import (
    LINES,
    CardPoints,
    ForestScore,
    score_table,
    totals,
    winners,
)

Slot = str | Dweller | list[str | Dweller] | None


def dw(name: str, symbol: str | None = None) -> Dweller:
    return Dweller(CATALOG.species[name], symbol)


def T(tree: str | None, top: Slot = None, bottom: Slot = None, left: Slot = None,
      right: Slot = None) -> Host:
    """A tree (or sapling with ``None``) with its slots; names become dwellers."""
    site = Host(None if tree is None else CATALOG.species[tree])
    for side, raw in zip(SIDES, (top, bottom, left, right), strict=True):
        items = [] if raw is None else raw if isinstance(raw, list) else [raw]
        site.slots[side] = [dw(x) if isinstance(x, str) else x for x in items]
    return site


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


def pts(species: str, *forests: Forest, index: int = 0) -> int:
    """Points of every card of ``species`` in forest ``index`` of the table."""
    return sum(c.points for c in check(*forests)[index].cards if c.species == species)


def cards(species: str, *forests: Forest, index: int = 0) -> list[CardPoints]:
    return [c for c in check(*forests)[index].cards if c.species == species]


ALL8 = ["Linden", "Oak", "Silver Fir", "Birch", "Beech", "Sycamore", "Douglas Fir",
        "Horse Chestnut"]


# ----------------------------------------------------------------------------- trees


def test_birch_flat() -> None:  # appendix: 3 Birches score 3
    assert pts("Birch", F(T("Birch"), T("Birch"), T("Birch"))) == 3


def test_douglas_fir_flat() -> None:  # appendix: 3 Douglas Firs score 15
    assert pts("Douglas Fir", F(*(T("Douglas Fir") for _ in range(3)))) == 15


@pytest.mark.parametrize("n,expected", [(1, 0), (2, 0), (3, 0), (4, 20), (5, 25), (6, 30),
                                        (7, 35), (8, 40), (9, 45), (10, 50)])
def test_beech_table(n: int, expected: int) -> None:
    assert pts("Beech", F(*(T("Beech") for _ in range(n)))) == expected


def test_beech_with_bees() -> None:
    # appendix: 2 Beeches with 2 bees at them -> 10; 3 Beeches with 1 bee -> 15
    two = F(T("Beech", left="Violet Carpenter Bee"), T("Beech", right="Violet Carpenter Bee"))
    assert pts("Beech", two) == 10
    assert pts("Violet Carpenter Bee", two) == 0
    three = F(T("Beech", left="Violet Carpenter Bee"), T("Beech"), T("Beech"))
    assert pts("Beech", three) == 15
    # a bee at another tree or at a sapling does not count as a Beech
    elsewhere = F(T("Beech"), T("Beech"), T("Beech"), T("Oak", left="Violet Carpenter Bee"),
                  T(None, right="Violet Carpenter Bee"))
    assert pts("Beech", elsewhere) == 0


@pytest.mark.parametrize("n,expected", [(1, 1), (2, 4), (3, 9), (4, 16), (5, 25), (6, 36),
                                        (7, 49), (8, 49), (11, 49)])
def test_horse_chestnut_set(n: int, expected: int) -> None:
    assert pts("Horse Chestnut", F(*(T("Horse Chestnut") for _ in range(n)))) == expected


def test_horse_chestnut_bees() -> None:  # appendix: 2 Horse Chestnuts + 2 bees -> 16
    f = F(T("Horse Chestnut", left="Violet Carpenter Bee"),
          T("Horse Chestnut", right="Violet Carpenter Bee"))
    assert pts("Horse Chestnut", f) == 16
    # saplings are no Horse Chestnut, and a bee at a sapling adds no Horse Chestnut
    assert pts("Horse Chestnut", F(T("Horse Chestnut"), T(None, left="Violet Carpenter Bee"))) == 1


def test_linden_majority_appendix() -> None:
    # Anna 3 Lindens, Boris 2, Caro 2 with 2 bees: Anna 3, Boris 2, Caro 6
    anna = F(T("Linden"), T("Linden"), T("Linden"))
    boris = F(T("Linden"), T("Linden"))
    caro = F(T("Linden", left="Violet Carpenter Bee"), T("Linden", right="Violet Carpenter Bee"))
    assert [pts("Linden", anna, boris, caro, index=i) for i in range(3)] == [3, 2, 6]


def test_linden_ties_and_alone() -> None:
    three = F(T("Linden"), T("Linden"), T("Linden"))
    assert pts("Linden", three) == 9  # appendix: nobody has more -> 9
    assert pts("Linden", three, F(T("Linden"), T("Linden"), T("Linden"))) == 9  # tie
    assert pts("Linden", three, F(*(T("Linden") for _ in range(4)))) == 3
    # saplings are no Lindens
    assert pts("Linden", three, F(T(None), T(None), T(None), T(None))) == 9


def test_oak_all_species() -> None:
    # appendix: 2 Oaks and all species but Silver Fir -> 0; with all 8 -> 20
    missing = F(T("Oak"), *(T(n) for n in ALL8 if n != "Silver Fir"), T(None))
    assert pts("Oak", missing) == 0
    assert pts("Oak", F(T("Oak"), *(T(n) for n in ALL8))) == 20
    # counter example of the bee: 3 Oaks, a bee at one, all species -> 30
    bee = F(T("Oak", left="Violet Carpenter Bee"), T("Oak"), *(T(n) for n in ALL8))
    assert pts("Oak", bee) == 30


def test_silver_fir_own_slots() -> None:
    # appendix: one Silver Fir with 5 cards, one with 3 -> 10 + 6
    five = T("Silver Fir", top="Eurasian Jay", bottom=["Common Toad", "Common Toad"],
             left=["European Hare", "European Hare"])
    three = T("Silver Fir", top="Tawny Owl", left="Lynx", right="Wolf")
    c = cards("Silver Fir", F(five, three))
    assert [x.points for x in c] == [10, 6]
    assert pts("Silver Fir", F(T("Silver Fir"))) == 0
    # more than 8 with stacks
    nine = T("Silver Fir", top="Eurasian Jay", bottom=["Common Toad", "Common Toad"],
             left=["European Hare"] * 3, right="Wolf")
    assert pts("Silver Fir", F(nine)) == 14


def test_sycamore_counts_trees_and_saplings() -> None:
    # appendix: 2 Sycamores, 7 other trees and 1 sapling -> 10 each, 20
    f = F(T("Sycamore"), T("Sycamore"), *(T("Birch") for _ in range(7)), T(None))
    assert pts("Sycamore", f) == 20
    # a bee does not help a Sycamore
    assert pts("Sycamore", F(T("Sycamore", left="Violet Carpenter Bee"))) == 1


def test_sapling_scores_nothing_itself() -> None:
    s = check(F(T(None), T(None)))[0]
    assert s.total == 0
    assert [c.species for c in s.cards] == ["sapling", "sapling"]


# ----------------------------------------------------------------------------- bats


BATS = ["Barbastelle Bat", "Bechstein's Bat", "Brown Long-Eared Bat", "Greater Horseshoe Bat"]


@pytest.mark.parametrize("double", BATS)
def test_bats_appendix(double: str) -> None:
    # 2 of one bat and one each of two others -> 4 bats x 5 = 20
    others = [b for b in BATS if b != double][:2]
    f = F(T("Oak", left=double, right=double), T("Birch", left=others[0], right=others[1]))
    assert sum(pts(b, f) for b in BATS) == 20
    assert pts(double, f) == 10


def test_bats_need_three_species() -> None:
    f = F(T("Oak", left=BATS[0], right=BATS[0]), T("Birch", left=BATS[1]))
    assert sum(pts(b, f) for b in BATS) == 0
    every = F(T("Oak", left=BATS[0], right=BATS[1]), T("Birch", left=BATS[2], right=BATS[3]))
    assert sum(pts(b, every) for b in BATS) == 20
    assert "4 bats of 4 species" in cards(BATS[0], every)[0].why


# ----------------------------------------------------------------------------- left/right


def test_beech_marten_fully_occupied() -> None:
    # appendix: 2 Beech Martens and 3 fully occupied trees -> 30 (a sapling counts)
    full1 = T("Oak", top="Eurasian Jay", bottom="Moss", left="Beech Marten", right="Squeaker")
    full2 = T("Birch", top="Eurasian Jay", bottom="Moss", left="Beech Marten", right="Squeaker")
    full3 = T(None, top="Tawny Owl", bottom="Fireflies", left="Lynx", right="Wolf")
    partial = T("Beech", top="Tawny Owl", left="Lynx", right="Wolf")
    assert pts("Beech Marten", F(full1, full2, full3, partial)) == 30


def test_brown_bear_and_raccoon_score_cave_only() -> None:
    # appendix: 11 cards under the cave -> 11 points; the bear and raccoon score 0
    s = check(F(T("Oak", left="Brown Bear", right="Raccoon"), cave=11))[0]
    assert s.lines["cave"] == 11
    assert pts("Brown Bear", F(T("Oak", left="Brown Bear"))) == 0
    assert pts("Raccoon", F(T("Oak", left="Raccoon"))) == 0
    assert pts("cave", F(T("Oak"), cave=5)) == 5


def test_badger() -> None:  # appendix: 2 Badgers -> 4
    assert pts("European Badger", F(T("Oak", left="European Badger",
                                        right="European Badger"))) == 4


def test_dormouse_opposite_bat() -> None:
    # appendix: one with a bat opposite scores 15, one with a Roe Deer scores 0
    f = F(T("Oak", left="European Fat Dormouse", right="Barbastelle Bat"),
          T("Birch", left=dw("Roe Deer", "Birch"), right="European Fat Dormouse"))
    assert [c.points for c in cards("European Fat Dormouse", f)] == [15, 0]
    # a bat at another tree or on top/bottom does not help
    f2 = F(T("Oak", left="European Fat Dormouse"), T("Birch", right="Barbastelle Bat"))
    assert pts("European Fat Dormouse", f2) == 0


@pytest.mark.parametrize("n", range(1, 12))
def test_hares_square(n: int) -> None:
    f = F(T("Oak", left=["European Hare"] * (n // 2), right=["European Hare"] * (n - n // 2)))
    assert pts("European Hare", f) == n * n


def test_fallow_deer() -> None:  # appendix: 2 Fallow Deer + 2 other cloven-hoofed -> 24
    f = F(T("Oak", left="Fallow Deer", right="Fallow Deer"),
          T("Birch", left="Wild Boar", right="Squeaker"))
    assert pts("Fallow Deer", f) == 24


def test_gnat_per_bat() -> None:  # appendix: 2 Gnats and 4 bats -> 8
    f = F(T("Oak", left="Gnat", right="Gnat"), T("Birch", left=BATS[0], right=BATS[0]),
          T("Beech", left=BATS[1], right=BATS[1]))
    assert pts("Gnat", f) == 8


def test_lynx_needs_roe_deer() -> None:  # appendix: 3 Lynxes and 1 Roe Deer -> 30
    f = F(T("Oak", left="Lynx", right="Lynx"), T("Birch", left="Lynx",
                                                   right=dw("Roe Deer", "Birch")))
    assert pts("Lynx", f) == 30
    assert pts("Lynx", F(T("Oak", left="Lynx"))) == 0


def test_red_deer_trees_and_plants() -> None:
    # appendix: 2 Red Deer, 7 trees, 4 plants -> 11 each; saplings count, bees do not
    f = F(T("Oak", left="Red Deer", right="Red Deer", bottom="Moss"),
          T("Birch", bottom="Blackberries"), T("Beech", bottom="Tree Ferns"),
          T("Linden", bottom="Wild Strawberries"), T("Sycamore"), T("Douglas Fir"),
          T(None, left="Violet Carpenter Bee"))
    assert pts("Red Deer", f) == 22


def test_red_fox_per_hare() -> None:  # appendix: 2 Red Foxes and 3 hares -> 12
    f = F(T("Oak", left="Red Fox", right="Red Fox"),
          T("Birch", left=["European Hare"] * 3))
    assert pts("Red Fox", f) == 12


def test_roe_deer_symbol() -> None:
    # appendix: the Beech Roe Deer and 4 other cards showing Beech -> 15
    f = F(T("Beech", left=dw("Roe Deer", "Beech"), right=dw("Lynx", "Beech"),
            top=dw("Tawny Owl", "Beech")),
          T(None, bottom=dw("Hedgehog", "Beech"), left=dw("Wolf", "Silver Fir")),
          T("Oak", top=dw("Chaffinch", "Birch")))
    assert pts("Roe Deer", f) == 15
    # saplings have no symbol; tree cards of another species do not count
    assert pts("Roe Deer", F(T(None, left=dw("Roe Deer", "Beech")), T("Oak"))) == 3
    # each Roe Deer counts its own symbol
    two = F(T("Birch", left=dw("Roe Deer", "Birch"), right=dw("Roe Deer", "Linden")),
            T("Birch"), T("Linden"))
    assert [c.points for c in cards("Roe Deer", two)] == [9, 6]


def test_squeaker_and_wild_boar() -> None:
    # appendix: 2 Squeakers -> 2; 2 Wild Boar and 1 Squeaker -> 20
    assert pts("Squeaker", F(T("Oak", left="Squeaker", right="Squeaker"))) == 2
    f = F(T("Oak", left="Wild Boar", right="Wild Boar"), T("Birch", left="Squeaker"))
    assert pts("Wild Boar", f) == 20
    assert pts("Wild Boar", F(T("Oak", left="Wild Boar"))) == 0


def test_violet_carpenter_bee_scores_zero() -> None:
    c = cards("Violet Carpenter Bee", F(T("Beech", left="Violet Carpenter Bee"),
                                        T(None, right="Violet Carpenter Bee")))
    assert [x.points for x in c] == [0, 0]
    assert "+1 Beech" in c[0].why and "sapling" in c[1].why


def test_wolf_per_deer() -> None:  # appendix: 2 Wolves and 3 deer -> 30
    f = F(T("Oak", left="Wolf", right="Wolf"),
          T("Birch", left="Red Deer", right="Fallow Deer"),
          T("Beech", left=dw("Roe Deer", "Beech")))
    assert pts("Wolf", f) == 30


# ----------------------------------------------------------------------------- top


BUTTERFLIES = ["Camberwell Beauty", "Large Tortoiseshell", "Peacock Butterfly",
               "Purple Emperor", "Silver-Washed Fritillary"]


@pytest.mark.parametrize("double", BUTTERFLIES)
def test_butterflies_appendix(double: str) -> None:
    # 5 butterflies: sets of 3 and 2 -> 6 + 3 = 9
    other = [b for b in BUTTERFLIES if b != double]
    tops = [double, double, other[0], other[0], other[1]]
    f = F(*(T("Birch", top=b) for b in tops))
    assert sum(pts(b, f) for b in BUTTERFLIES) == 9


@pytest.mark.parametrize("k,expected", [(1, 0), (2, 3), (3, 6), (4, 12), (5, 20)])
def test_butterfly_set_values(k: int, expected: int) -> None:
    f = F(*(T("Birch", top=b) for b in BUTTERFLIES[:k]))
    assert sum(pts(b, f) for b in BUTTERFLIES) == expected


@cache
def _best_sets(counts: tuple[int, ...]) -> int:
    """Brute force: the best way to split butterflies into sets of different species."""
    table = (0, 0, 3, 6, 12, 20)
    present = [i for i, n in enumerate(counts) if n]
    best = 0
    for size in range(1, len(present) + 1):
        for group in combinations(present, size):
            rest = list(counts)
            for i in group:
                rest[i] -= 1
            best = max(best, table[size] + _best_sets(tuple(rest)))
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=5, max_size=5))
def test_butterfly_layers_are_optimal(counts: list[int]) -> None:
    tops = [b for b, n in zip(BUTTERFLIES, counts, strict=True) for _ in range(n)]
    f = F(*(T("Birch", top=b) for b in tops))
    assert sum(pts(b, f) for b in BUTTERFLIES) == _best_sets(tuple(counts))


def test_bullfinch_per_insect() -> None:
    # appendix: 2 Bullfinches and 3 insects -> 12 (butterflies are insects)
    f = F(T("Oak", top="Bullfinch", bottom="Fireflies"), T("Birch", top="Bullfinch",
                                                         left="Gnat"),
          T("Beech", top="Purple Emperor"))
    assert pts("Bullfinch", f) == 12


def test_chaffinch_atop_beech() -> None:  # appendix: 3 Chaffinches, 2 atop Beeches -> 10
    f = F(T("Beech", top="Chaffinch"), T("Beech", top="Chaffinch"), T("Oak", top="Chaffinch"))
    assert pts("Chaffinch", f) == 10
    c = cards("Chaffinch", f)
    assert c[0].why == "atop a Beech" and c[2].points == 0
    assert pts("Chaffinch", F(T(None, top="Chaffinch"))) == 0  # a sapling is no Beech


def test_eurasian_jay_and_tawny_owl() -> None:
    f = F(*(T("Birch", top="Eurasian Jay") for _ in range(3)))
    assert pts("Eurasian Jay", f) == 9  # appendix: 3 Jays -> 9
    assert pts("Tawny Owl", F(T("Birch", top="Tawny Owl"), T("Oak", top="Tawny Owl"))) == 10


def test_goshawk_per_bird() -> None:  # appendix: 2 Goshawks and 2 other birds -> 24
    f = F(T("Oak", top="Goshawk"), T("Birch", top="Goshawk"), T("Beech", top="Chaffinch"),
          T("Linden", top="Tawny Owl"))
    assert pts("Goshawk", f) == 24


def test_woodpecker_most_trees_appendix() -> None:
    # 2 Woodpeckers and 10 trees; the others have 9 and 10 -> 20 (tie counts as most)
    mine = F(T("Oak", top="Great Spotted Woodpecker"),
             T("Birch", top="Great Spotted Woodpecker"), *(T("Beech") for _ in range(7)), T(None))
    nine = F(*(T("Birch") for _ in range(9)))
    ten = F(*(T("Linden") for _ in range(10)))
    assert pts("Great Spotted Woodpecker", mine, nine, ten) == 20
    eleven = F(*(T("Linden") for _ in range(11)))
    assert pts("Great Spotted Woodpecker", mine, eleven) == 0
    # a bee raises the number of trees, even at a sapling
    bee = F(T(None, top="Great Spotted Woodpecker", left="Violet Carpenter Bee"))
    assert pts("Great Spotted Woodpecker", bee, F(T("Oak"), T("Birch"))) == 10
    assert pts("Great Spotted Woodpecker", bee, F(T("Oak"), T("Birch"), T("Beech"))) == 0


def test_red_squirrel_atop_oak() -> None:  # appendix: 3 squirrels, 2 atop Oaks -> 10
    f = F(T("Oak", top="Red Squirrel"), T("Oak", top="Red Squirrel"),
          T("Beech", top="Red Squirrel"))
    assert pts("Red Squirrel", f) == 10


# ----------------------------------------------------------------------------- bottom


def test_blackberries_per_plant() -> None:  # appendix: 2 Blackberries + 2 plants -> 16
    f = F(T("Oak", bottom="Blackberries"), T("Birch", bottom="Blackberries"),
          T("Beech", bottom="Moss"), T("Linden", bottom="Tree Ferns"))
    assert pts("Blackberries", f) == 16


@pytest.mark.parametrize("name", ["Chanterelle", "Fly Agaric", "Parasol Mushroom", "Penny Bun",
                                  "Mole"])
def test_zero_point_bottom_cards(name: str) -> None:
    c = cards(name, F(T("Oak", bottom=name), T("Birch", bottom=name)))
    assert [x.points for x in c] == [0, 0]
    assert c[0].why == "scores no points"


def test_common_toads_pair() -> None:  # appendix: 3 toads, 2 sharing a slot -> 10
    f = F(T("Oak", bottom=["Common Toad", "Common Toad"]), T("Birch", bottom="Common Toad"))
    assert pts("Common Toad", f) == 10
    assert [c.points for c in cards("Common Toad", f)] == [5, 5, 0]


@pytest.mark.parametrize("n,expected", [(1, 0), (2, 10), (3, 15), (4, 20)])
def test_fireflies(n: int, expected: int) -> None:  # appendix: 3 -> 15
    assert pts("Fireflies", F(*(T("Oak", bottom="Fireflies") for _ in range(n)))) == expected


@pytest.mark.parametrize("n,expected", [(1, 5), (2, 15), (3, 25)])
def test_fire_salamander(n: int, expected: int) -> None:  # appendix: 3 -> 25
    f = F(*(T("Oak", bottom="Fire Salamander") for _ in range(n)))
    assert pts("Fire Salamander", f) == expected


def test_hedgehog_per_butterfly() -> None:  # appendix: 2 Hedgehogs and 3 butterflies -> 12
    f = F(T("Oak", bottom="Hedgehog", top="Purple Emperor"),
          T("Birch", bottom="Hedgehog", top="Purple Emperor"), T("Beech", top="Peacock Butterfly"))
    assert pts("Hedgehog", f) == 12


def test_moss_ten_trees() -> None:
    # appendix: 2 Mosses, 9 trees and 1 sapling -> 20
    f = F(T("Oak", bottom="Moss"), T("Birch", bottom="Moss"), *(T("Beech") for _ in range(7)),
          T(None))
    assert pts("Moss", f) == 20
    nine = F(T("Oak", bottom="Moss"), *(T("Beech") for _ in range(8)))
    assert pts("Moss", nine) == 0
    nine_and_bee = F(T("Oak", bottom="Moss", left="Violet Carpenter Bee"),
                     *(T("Beech") for _ in range(8)))
    assert pts("Moss", nine_and_bee) == 10


def test_pond_turtle() -> None:  # appendix: 2 -> 10
    assert pts("Pond Turtle", F(T("Oak", bottom="Pond Turtle"),
                                T("Birch", bottom="Pond Turtle"))) == 10


def test_stag_beetle_per_pawed_animal() -> None:  # appendix: 2 Stag Beetles, 7 pawed -> 14
    f = F(T("Oak", bottom="Stag Beetle", left="Lynx", right="Wolf", top="Red Squirrel"),
          T("Birch", bottom="Stag Beetle", left=["European Hare", "European Hare"],
            right="Brown Bear"),
          T("Beech", bottom="Hedgehog"))
    assert pts("Stag Beetle", f) == 14


def test_tree_ferns_per_amphibian() -> None:  # appendix: 2 Tree Ferns, 3 amphibians -> 36
    f = F(T("Oak", bottom="Tree Ferns"), T("Birch", bottom="Tree Ferns"),
          T("Beech", bottom=["Common Toad", "Common Toad"]), T("Linden", bottom="Pond Turtle"))
    assert pts("Tree Ferns", f) == 36


def test_tree_frog_per_gnat() -> None:  # appendix: 2 Tree Frogs and 2 Gnats -> 20
    f = F(T("Oak", bottom="Tree Frog", left="Gnat"), T("Birch", bottom="Tree Frog",
                                                       right="Gnat"))
    assert pts("Tree Frog", f) == 20


def test_wild_strawberries_all_species() -> None:  # appendix: 2 and all 8 species -> 20
    f = F(T("Oak", bottom="Wild Strawberries"), T("Birch", bottom="Wild Strawberries"),
          *(T(n) for n in ALL8))
    assert pts("Wild Strawberries", f) == 20
    saplings = F(T("Oak", bottom="Wild Strawberries"), *(T(n) for n in ALL8[:7]), T(None))
    assert pts("Wild Strawberries", saplings) == 0


def test_wood_ant_per_bottom_card() -> None:
    # appendix: 2 Wood Ants and 5 other bottom cards -> 28 (paired toads count)
    f = F(T("Oak", bottom="Wood Ant"), T("Birch", bottom="Wood Ant"),
          T("Beech", bottom=["Common Toad", "Common Toad"]), T("Linden", bottom="Moss"),
          T(None, bottom="Fireflies"), T("Sycamore", bottom="Mole"), T("Douglas Fir", top="Gnat"))
    assert pts("Wood Ant", f) == 28


# ----------------------------------------------------------------------------- coverage


def test_every_species_has_a_test() -> None:
    """Every species of the catalog is named in this module (tree tests or dweller tests)."""
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    missing = [n for n in CATALOG.species if f'"{n}"' not in source]
    assert missing == []


# ----------------------------------------------------------------------------- the pad


def test_lines_sum_to_total() -> None:
    f = F(T("Oak", top="Red Squirrel", bottom=["Common Toad", "Common Toad"],
            left=["European Hare", "European Hare"], right="Wolf"),
          T("Douglas Fir", left="Squeaker", right="Wild Boar"), cave=4)
    s = check(f)[0]
    assert s.lines == {"trees": 5, "top_bottom": 15, "left_right": 4 + 1 + 10, "cave": 4}
    assert s.total == 39
    assert [c.where for c in s.cards][:3] == ["tree 1", "tree 1 top", "tree 1 bottom"]
    assert s.cards[-1] == CardPoints("cave", "cave", 4, "4 cards under the cave")


def test_empty_table_and_forest() -> None:
    assert totals([]) == [] and score_table([]) == []
    s = check(F())[0]
    assert s.total == 0 and s.cards == ()


def test_winners() -> None:
    assert winners([10, 30, 30, 5]) == [1, 2]
    assert winners([7]) == [0]
    assert winners([]) == []


def test_unknown_symbols() -> None:
    # Mole copies show Oak and Sycamore: without a symbol it counts for neither
    f = F(T("Birch", left=dw("Roe Deer", "Birch")), T("Oak", bottom="Mole"))
    assert pts("Roe Deer", f) == 6  # the Birch tree and the Roe Deer itself
    unknown = F(T("Oak", left=dw("Roe Deer")))
    c = cards("Roe Deer", unknown)
    assert c[0].points == 0 and "not known" in c[0].why


# ----------------------------------------------------------------------------- random tables


def random_forests(rng: random.Random, players: int) -> list[Forest]:
    deck = [c for c in CATALOG.cards if c is not None and not c.is_winter]
    rng.shuffle(deck)
    trees = [c for c in deck if c.is_tree]
    splits = [c for c in deck if c.kind == "split"]
    out = []
    for _ in range(players):
        f = Forest(cave=rng.randint(0, 10))
        for _ in range(rng.randint(0, 12)):
            if not trees or not splits:
                break
            if rng.random() < 0.15:
                f.trees.append(Host(None, splits.pop().id))
            else:
                c = trees.pop()
                f.trees.append(Host(c.species, c.id))
        for _ in range(rng.randint(0, 30)):
            if not f.trees or not splits:
                break
            c = splits.pop()
            side = rng.choice(list(c.halves))
            spots = [t for t in f.trees if t.accepts(c.halves[side].species, side)]
            if spots:
                rng.choice(spots).slots[side].append(Dweller.of_card(c, side))
        out.append(f)
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 5))
def test_fast_and_explained_paths_agree(seed: int, players: int) -> None:
    forests = random_forests(random.Random(seed), players)
    scores = check(*forests)
    for s in scores:
        tree_pts = sum(c.points for c in s.cards if c.where.count(" ") == 1
                       and c.where.startswith("tree"))
        assert tree_pts == s.lines["trees"]


def test_rules_come_from_the_data() -> None:
    """A species outside the catalog scores by its own rule and params."""
    from dataclasses import replace

    from forest_shuffle.cards.model import Points

    base = CATALOG.species["Tawny Owl"]
    owl = replace(base, name="Test Owl", points=Points("per_tag", {"points_per": 4,
                                                                   "tag": "bird"}))
    toad = replace(CATALOG.species["Common Toad"], name="Test Toad",
                   points=Points("paired_in_slot", {"points_each": 7}))
    f = F(T("Oak", top=Dweller(owl), bottom=[Dweller(toad), Dweller(toad)]),
          T("Birch", top="Goshawk"))
    assert pts("Test Owl", f) == 8
    assert pts("Test Toad", f) == 14
    assert pts("Goshawk", f) == 6
