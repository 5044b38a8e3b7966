"""Scoring of Exploration's cards and caves (docs/exploration.md gives the readings), by the
scorer of a catalog with the ``exploration`` module. Each expected number is worked out in
a comment from the card texts of ``shared/reference/cards-exploration.json``; both scoring
paths, the lines and the cards' points must agree."""

from __future__ import annotations

import pytest

from forest_shuffle.cards.forest import Dweller, Forest, Host
from forest_shuffle.cards.model import SIDES, load_catalog
from forest_shuffle.games.base import REMOVED_AT_SETUP, removed_at_setup
from forest_shuffle.scoring.core import LINES, ForestScore, Scorer, scorer_for

CAT = load_catalog(("base", "exploration"))
SCORER = scorer_for(CAT)

Slot = str | Dweller | list[str | Dweller] | None


def dw(name: str, symbol: str | None = None) -> Dweller:
    return Dweller(CAT.species[name], symbol)


def T(tree: str | None, top: Slot = None, bottom: Slot = None, left: Slot = None,
      right: Slot = None) -> Host:
    """A tree (or a sapling with ``None``) with its slots; names become dwellers."""
    host = Host(None if tree is None else CAT.species[tree],
                kind="tree" if tree else "sapling")
    for side, raw in zip(SIDES, (top, bottom, left, right), strict=True):
        items = [] if raw is None else raw if isinstance(raw, list) else [raw]
        host.slots[side] = [dw(x) if isinstance(x, str) else x for x in items]
    return host


def F(*trees: Host, cave: int = 0, named: int = 0) -> Forest:
    return Forest(list(trees), cave, named)


def check(*forests: Forest, scorer: Scorer = SCORER) -> list[ForestScore]:
    """Score a table and check that both paths, the lines and the cards agree."""
    scores = scorer.score_table(forests)
    assert scorer.totals(forests) == [s.total for s in scores]
    for s in scores:
        assert set(s.lines) == set(LINES)
        assert sum(s.lines.values()) == s.total
        assert sum(c.points for c in s.cards) == s.total
        assert all(c.why for c in s.cards)
    return scores


def points_of(score: ForestScore, species: str) -> list[int]:
    return [c.points for c in score.cards if c.species == species]


# ------------------------------------------------------------------- Marsh Cinquefoil


@pytest.mark.parametrize(("trees", "expected"), [(1, 15), (5, 15), (6, 7), (10, 7), (11, 3),
                                                 (13, 3)])
def test_the_marsh_cinquefoil_scores_by_the_band_of_the_number_of_trees(
        trees: int, expected: int) -> None:
    # "15 / 7 / 3 points with 0-5 / 6-10 / 11+ trees"; saplings count as trees and
    # score nothing themselves, so the forest's total is the Cinquefoil's band
    forest = F(T(None, bottom="Marsh Cinquefoil"), *[T(None) for _ in range(trees - 1)])
    (score,) = check(forest)
    assert score.total == expected
    assert points_of(score, "Marsh Cinquefoil") == [expected]


# ------------------------------------------------------------------- the Elk, tree symbols


def test_the_elk_scores_per_sapling_and_per_birch_or_douglas_fir_symbol() -> None:
    # Birch 1 + Moor Birch 1 (flat) + Douglas Fir 5 + a sapling 0; the Elk, on a half
    # showing the Birch: 2 per sapling (1) and per card showing Birch (the Birch, the Moor
    # Birch, which shows the Birch, and the Elk's own half: 3) or Douglas Fir (1): 2 * 5 = 10
    forest = F(T("Birch", left=dw("Elk", "Birch")), T("Moor Birch"), T("Douglas Fir"),
               T(None))
    (score,) = check(forest)
    assert points_of(score, "Elk") == [10]
    assert score.total == 1 + 1 + 5 + 0 + 10


def test_a_tree_counts_for_the_symbol_it_shows_not_its_name() -> None:
    # European Bison (half showing the Beech): 2 per Oak or Beech symbol: the Turkey Oak
    # shows the Oak (1) and the Bison's own half the Beech (1): 4. Turkey Oak: 1 per
    # cloven-hoofed animal, the Bison: 1. Palm Tree shows the Golden Palm, no Oak: 1 per
    # bird, none: 0. Total 4 + 1 + 0 = 5.
    forest = F(T("Turkey Oak", left=dw("European Bison", "Beech")), T("Palm Tree"))
    (score,) = check(forest)
    assert points_of(score, "European Bison") == [4]
    assert points_of(score, "Turkey Oak") == [1]
    assert score.total == 5


# ------------------------------------------------------------------- 8 tree species

_SEVEN = ("Linden", "Silver Fir", "Birch", "Beech", "Sycamore", "Douglas Fir")


def test_a_moor_birch_beside_a_birch_is_no_eighth_tree_species() -> None:
    # Oak + 6 others + Moor Birch: the Moor Birch is a Birch, so 7 species: Oak 0.
    # Linden 3 (no other forest has more), Silver Fir 0 (no cards), Birch 1, Moor Birch 1,
    # Beech 0 (one, 4 needed), Sycamore 1 per tree (8), Douglas Fir 5: 18
    (score,) = check(F(T("Oak"), *[T(n) for n in _SEVEN], T("Moor Birch")))
    assert points_of(score, "Oak") == [0]
    assert score.total == 3 + 0 + 1 + 1 + 0 + 8 + 5


def test_a_turkey_oak_is_an_oak_and_a_palm_tree_a_species_of_its_own() -> None:
    # Oak, Turkey Oak (an Oak), 6 others, Palm Tree (the Golden Palm): 8 species: Oak 10;
    # Turkey Oak 0 (no cloven-hoofed animal), Palm Tree 0 (no bird), Linden 3, Silver Fir
    # 0, Birch 1, Beech 0, Sycamore 9 (9 trees), Douglas Fir 5: 28
    (score,) = check(F(T("Oak"), T("Turkey Oak"), *[T(n) for n in _SEVEN], T("Palm Tree")))
    assert points_of(score, "Oak") == [10]
    assert score.total == 10 + 0 + 0 + 3 + 0 + 1 + 0 + 9 + 5
    # without the Palm Tree: Oak, Turkey Oak and the six others are 7 species
    (score,) = check(F(T("Oak"), T("Turkey Oak"), *[T(n) for n in _SEVEN]))
    assert points_of(score, "Oak") == [0]


# ------------------------------------------------------------------- sets with more copies


def test_says_firefly_joins_the_fireflies_set() -> None:
    # Douglas Fir 5; 2 Fireflies + Say's Firefly (counts as Fireflies): a set of 3, 15;
    # the Say's Firefly's own share 0 (the set scores it)
    (score,) = check(F(T("Douglas Fir", top="Fireflies", bottom="Fireflies",
                         left="Say's Firefly")))
    assert score.total == 5 + 15
    assert points_of(score, "Say's Firefly") == [0]
    assert sum(points_of(score, "Fireflies")) == 15
    # 4 Fireflies + Say's Firefly: 5 cards, the set caps at 20
    (score,) = check(F(T("Douglas Fir", top="Fireflies", bottom="Fireflies",
                         left="Fireflies", right=["Fireflies", "Say's Firefly"])))
    assert score.total == 5 + 20
    # Say's Firefly alone: a set of 1, 0
    (score,) = check(F(T("Douglas Fir", left="Say's Firefly")))
    assert score.total == 5


def test_a_fourth_fire_salamander_still_caps_at_25() -> None:
    # 4 Fire Salamanders (Exploration adds one): the table 5/15/25 stops at 3; 4 score 25
    (score,) = check(F(T("Douglas Fir", top="Fire Salamander", bottom="Fire Salamander",
                         left="Fire Salamander", right="Fire Salamander")))
    assert score.total == 5 + 25


def test_the_brimstone_makes_a_sixth_butterfly_species() -> None:
    # the 5 base butterflies and the Brimstone: one set of 6 species, 35 by the 8-entry
    # table (the base one stops at 5 species: 20)
    names = ["Camberwell Beauty", "Large Tortoiseshell", "Peacock Butterfly",
             "Purple Emperor", "Silver-Washed Fritillary"]
    (score,) = check(F(T(None, top=names[:2], bottom=names[2:], left="Brimstone")))
    assert score.total == 35
    (score,) = check(F(T(None, top=names[:2], bottom=names[2:])))
    assert score.total == 20


# ------------------------------------------------------------------- named caves


@pytest.mark.parametrize(("cave", "cards", "expected"), [
    (2, 3, 6),  # Collectors' Cave: 2 per card
    (3, 0, 5),  # Lonely Cave, empty: 5
    (3, 2, 2),  # Lonely Cave, 2 cards: 1 per card
    (4, 3, 3),  # Smuggler's Cave: 1 per card
    (5, 4, 4),  # Storage Cave: 1 per card
])
def test_a_named_cave_replaces_the_base_caves_point_per_card(
        cave: int, cards: int, expected: int) -> None:
    (score,) = check(F(T(None), cave=cards, named=cave))  # a sapling scores 0
    assert score.lines["cave"] == score.total == expected
    assert [c.species for c in score.cards if c.where == "cave"] == \
        [CAT.named_caves[cave - 1].name]


def test_the_bat_cave_scores_its_cards_and_every_bat_in_the_forest() -> None:
    # 3 cards in it: 3; 2 Barbastelle Bats and a Bechstein's Bat: 3 * 3 = 9; the bats
    # themselves score 0 (2 species, 3 needed): 12
    forest = F(T(None, top="Barbastelle Bat", bottom="Barbastelle Bat",
                 left="Bechstein's Bat"), cave=3, named=1)
    (score,) = check(forest)
    assert score.lines["cave"] == score.total == 12


def test_a_base_familys_scorer_without_named_caves_scores_1_per_card() -> None:
    forest = F(T(None), cave=3, named=2)
    (score,) = check(forest, scorer=Scorer())
    assert score.lines["cave"] == 3
    assert score.total == 3


def test_a_cave_number_beyond_the_named_caves_is_refused() -> None:
    with pytest.raises(ValueError, match="cave 6"):
        SCORER.totals([F(T(None), named=6)])


# ------------------------------------------------------------------- setup: the box


@pytest.mark.parametrize("modules", [("exploration",), ("alpine", "exploration"),
                                     ("alpine", "woodland_edge", "exploration")])
def test_each_rare_card_sends_one_more_card_to_the_box(modules: tuple[str, ...]) -> None:
    cat = load_catalog(("base", *modules))
    without = load_catalog(("base", *modules[:-1]))
    rare = len(cat.deck_ids) - len(without.deck_ids)
    assert rare == 15  # the 15 rare cards (4 trees, 11 split cards)
    table = removed_at_setup(cat, modules)
    assert table == {p: n + 15 for p, n in REMOVED_AT_SETUP[len(modules) - 1].items()}
    # so the deck dealt from keeps the size it has without the rare cards
    for p in table:
        assert (len(cat.deck_ids) - table[p]
                == len(without.deck_ids) - removed_at_setup(without, modules[:-1])[p])


def test_every_exploration_card_and_cave_scores_through_both_paths() -> None:
    # one forest holding every Exploration species (trees as hosts, dwellers in stacks):
    # each has a plan, both paths agree card by card (check), and every cave scores
    trees = [s for s in CAT.species.values() if s.module == "exploration" and s.is_tree]
    dwellers = [s for s in CAT.species.values()
                if s.module == "exploration" and not s.is_tree]
    hosts = [T(s.name) for s in trees] + [T(None)]
    for i, sp in enumerate(dwellers):
        hosts[i % len(hosts)].slots[SIDES[i // len(hosts) % 4]].append(Dweller(sp, "Birch"))
    for number in range(len(CAT.named_caves) + 1):
        (score,) = check(F(*hosts, cave=2, named=number))
        assert {c.species for c in score.cards} >= {s.printed for s in trees + dwellers}
