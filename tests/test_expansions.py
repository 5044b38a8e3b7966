"""The Alpine and Woodland Edge expansions in play: one or more tests per expansion species
with an effect, a bonus or a permanent effect (docs/expansion-data.md gives the readings),
the shrubs as hosts, the setup of the four games, and random play across the family
(two games side by side in one process, save and load, the invariants of every game)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from scenario import Picker, act, build, legal, site

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import GameState, bottom_pile_size
from forest_shuffle.games import make_game

BASE = "base"
ALPINE = "base+alpine"
EDGE = "base+woodland_edge"
ALL = "base+alpine+woodland_edge"
GAMES = (BASE, ALPINE, EDGE, ALL)
CAT = make_game(ALL).catalog

Step = tuple[str, str]  # (effect/bonus/mushroom, species)


def sym(cid: int, side: str = "") -> str:
    """The tree symbol of a host card or of one half of a split card."""
    c = CAT.card(cid)
    return c.halves[side].symbol if side else c.symbol


def play(species: str, *, match: bool, side: str | None = None, pk: Picker | None = None,
         hand: Sequence[int] = (), trees: Sequence[dict[str, Any]] = (),
         clearing: Sequence[int] = (), deck_n: int = 8, host: str = "Horse Chestnut",
         tree: int = 1, game: str = ALL,
         rules: Rules | None = None) -> tuple[GameState, int, str, list[int]]:
    """Player 1 plays ``species`` (into tree ``tree`` for a dweller), paying with cards
    that all show its symbol (``match``) or none of them. Returns the state, the card, its
    side and the deck (top last)."""
    pk = pk or Picker(game)
    forest = [site(pk.tree(host)), *trees]
    sp = CAT.species[species]
    if sp.is_host:
        cid, s = pk.tree(species), ""
    else:
        cid, s = pk.half(species, side)
    symbol = sym(cid, s)
    pay = pk.with_symbol(symbol, sp.cost) if match else pk.fillers(sp.cost,
                                                                   avoid_symbol=symbol)
    deck = pk.fillers(deck_n)
    state = build([[cid, *pay, *hand], []], deck, clearing=clearing, forests=[forest, []],
                  game=game, rules=rules)
    act(state, f"play {cid}" if not s else f"play {cid} {s} {tree}",
        *(f"pay {c}" for c in sorted(pay)))
    return state, cid, s, deck


def offered(state: GameState) -> Step | None:
    pend = state.pending
    if pend is None or pend.step is None:
        return None
    return pend.step[0], pend.step[3]


def answer_all(state: GameState, answer: str = "yes") -> list[Step]:
    """Answer every yes/no offer with ``answer``; return the offers in order."""
    seen: list[Step] = []
    while state.decision == "option":
        step = offered(state)
        assert step is not None
        seen.append(step)
        act(state, answer)
    return seen


def plays_of(state: GameState, cid: int, side: str = "") -> list[str]:
    """The legal plays of card ``cid`` (of its ``side`` half if given)."""
    head = f"play {cid} {side}".rstrip()
    return [a for a in legal(state) if a == head or a.startswith(head + " ")]


# ----------------------------------------------------------------------------- no effect


@pytest.mark.parametrize("species", [
    "Alpine Marmot", "Chamois", "Mountain Hare", "Savi's Pipistrelle", "Phoebus Apollo",
    "Golden Eagle", "Map Butterfly", "Digitalis", "Stinging Nettle", "Common Pipistrelle",
    "Edge Squeaker",
])
def test_expansion_dwellers_without_effect_or_bonus(species: str) -> None:
    s, cid, side, deck = play(species, match=True)
    assert s.to_move == 1 and s.decision == "turn"
    assert cid in s.forests[0].card_ids()
    assert s.deck == deck  # a dweller turns no card into the clearing


# ----------------------------------------------------------------------------- draws


@pytest.mark.parametrize("species", ["Common Raven", "Edelweiss"])
def test_draw_one_effect(species: str) -> None:
    s, cid, side, deck = play(species, match=False)
    assert answer_all(s) == [("effect", species)]
    assert s.hands[0] == [deck[-1]] and s.to_move == 1


def test_common_raven_has_no_bonus() -> None:
    s, *_ = play("Common Raven", match=True)
    assert answer_all(s, "no") == [("effect", "Common Raven")]


def test_edelweiss_effect_and_bonus_draw_two() -> None:
    s, cid, side, deck = play("Edelweiss", match=True)
    assert answer_all(s) == [("effect", "Edelweiss"), ("bonus", "Edelweiss")]
    assert s.hands[0] == [deck[-1], deck[-2]]


def test_stone_pine_draws_one_and_one_more_as_bonus() -> None:
    s, cid, side, deck = play("Stone Pine", match=True)
    # the tree turns deck[-1] into the clearing, then draws deck[-2] and deck[-3]
    assert s.clearing[-1] == deck[-1]
    assert answer_all(s) == [("effect", "Stone Pine"), ("bonus", "Stone Pine")]
    assert s.hands[0] == [deck[-2], deck[-3]]
    s2, *_ = play("Stone Pine", match=False)
    assert answer_all(s2) == [("effect", "Stone Pine")]


# ----------------------------------------------------------------------------- extra turns


@pytest.mark.parametrize("species", ["Steinbock", "European Bison"])
def test_extra_turn_effect(species: str) -> None:
    s, *_ = play(species, match=False)
    assert answer_all(s) == [("effect", species)]
    assert s.to_move == 0 and s.decision == "turn"
    act(s, "draw", "draw")
    assert s.to_move == 1


@pytest.mark.parametrize("species", ["Nightingale", "European Polecat"])
def test_extra_turn_bonus(species: str) -> None:
    s, *_ = play(species, match=True)
    assert answer_all(s) == [("bonus", species)]
    assert s.to_move == 0
    s2, *_ = play(species, match=False)
    assert answer_all(s2) == [] and s2.to_move == 1


def test_barn_owl_extra_turn_only_with_a_bat() -> None:
    s, *_ = play("Barn Owl", match=False)
    assert answer_all(s) == []  # no bat in the forest: skipped unasked
    assert s.to_move == 1
    pk = Picker(ALL)
    bat, bside = pk.half("Barbastelle Bat", "left")
    s2, *_ = play("Barn Owl", match=False, pk=pk, trees=[site(pk.tree("Birch"), left=[bat])])
    assert answer_all(s2) == [("effect", "Barn Owl")]
    assert s2.to_move == 0


# ----------------------------------------------------------------------------- free plays


def test_european_larch_bonus_plays_an_alps_card_free() -> None:
    pk = Picker(ALL)
    hare, _ = pk.half("Mountain Hare", "left")  # alps, cost 0
    eagle, _ = pk.half("Golden Eagle", "top", symbol_is="Beech")  # alps, cost 1
    lynx, _ = pk.half("Lynx", "left")  # no alps symbol
    pine, birch = pk.tree("Stone Pine"), pk.tree("Birch")  # an Alps tree and another
    assert CAT.card(eagle).halves["bottom"].species.name == "Black Trumpet"  # alps too
    s, cid, _, deck = play("European Larch", match=True, pk=pk,
                           hand=[hare, eagle, lynx, pine, birch])
    assert offered(s) == ("bonus", "European Larch")
    act(s, "yes")
    assert s.decision == "free"
    assert plays_of(s, lynx) == [] and plays_of(s, birch) == []
    assert plays_of(s, pine) == [f"play {pine}"]
    # the Larch is tree 2; either Alps half may go to either tree
    assert sorted(plays_of(s, eagle)) == sorted(
        f"play {eagle} {side} {t}" for side in ("top", "bottom") for t in (1, 2))
    clearing = s.clearing[:]
    act(s, f"play {eagle} top 2")
    assert s.clearing == clearing  # nothing paid
    assert s.to_move == 1 and sorted(s.hands[0]) == sorted([hare, lynx, pine, birch])
    s2, *_ = play("European Larch", match=False)
    assert answer_all(s2) == []


def test_capercaillie_effect_plays_a_plant_free() -> None:
    pk = Picker(ALL)
    moss, _ = pk.half("Moss", "bottom")
    lynx, _ = pk.half("Lynx", "left")
    s, *_ = play("Capercaillie", match=False, pk=pk, hand=[moss, lynx])
    assert offered(s) == ("effect", "Capercaillie")
    act(s, "yes")
    assert plays_of(s, lynx) == [] and plays_of(s, moss) == [f"play {moss} bottom 1"]
    act(s, f"play {moss} bottom 1")
    assert s.hands[0] == [lynx] and s.to_move == 1


def test_blueberry_effect_plays_an_amphibian_free() -> None:
    pk = Picker(ALL)
    toad, _ = pk.half("Common Toad", "bottom")
    moss, _ = pk.half("Moss", "bottom")
    s, *_ = play("Blueberry", match=False, pk=pk, hand=[toad, moss],
                 trees=[site(pk.tree("Birch"))])
    assert offered(s) == ("effect", "Blueberry")
    act(s, "yes")
    # the Blueberry took the bottom of tree 1 (a toad may join only a toad)
    assert plays_of(s, toad) == [f"play {toad} bottom 2"] and plays_of(s, moss) == []
    act(s, f"play {toad} bottom 2")
    assert s.to_move == 1 and s.hands[0] == [moss]


def test_gentian_effect_plays_a_butterfly_free() -> None:
    pk = Picker(ALL)
    peacock, _ = pk.half("Peacock Butterfly", "top")
    goshawk, _ = pk.half("Goshawk", "top")
    s, cid, _, _ = play("Gentian", match=False, pk=pk, hand=[peacock, goshawk])
    assert s.clearing == []  # Gentian costs 0 (the reading chosen)
    assert answer_all(s) == [("effect", "Gentian")]
    assert plays_of(s, goshawk) == []
    act(s, f"play {peacock} top 1")
    assert s.to_move == 1 and s.hands[0] == [goshawk]


def test_great_green_bush_cricket_effect_plays_a_bird_free() -> None:
    pk = Picker(ALL)
    goshawk, _ = pk.half("Goshawk", "top")  # costs 2
    lynx, _ = pk.half("Lynx", "left")
    s, *_ = play("Great Green Bush-Cricket", match=False, pk=pk, hand=[goshawk, lynx])
    assert answer_all(s) == [("effect", "Great Green Bush-Cricket")]
    assert plays_of(s, lynx) == []
    clearing = s.clearing[:]
    act(s, f"play {goshawk} top 1")
    assert s.clearing == clearing and s.hands[0] == [lynx] and s.to_move == 1


def test_alpine_newt_bonus_an_alps_card_then_an_insect() -> None:
    pk = Picker(ALL)
    hare, _ = pk.half("Mountain Hare", "left")  # alps only
    gnat, _ = pk.half("Gnat", "right")  # insect only
    apollo, _ = pk.half("Phoebus Apollo", "top")  # alps and insect
    s, *_ = play("Alpine Newt", match=True, pk=pk, hand=[hare, gnat, apollo])
    assert offered(s) == ("bonus", "Alpine Newt")
    act(s, "yes")
    assert s.decision == "free" and s.pending is not None and s.pending.tag == "alps"
    assert plays_of(s, gnat) == []
    assert plays_of(s, hare) and plays_of(s, apollo)
    act(s, f"play {hare} left 1")
    assert s.decision == "free" and s.pending is not None and s.pending.tag == "insect"
    assert plays_of(s, hare) == [] and plays_of(s, gnat) and plays_of(s, apollo)
    act(s, f"play {gnat} right 1")
    assert s.to_move == 1 and s.hands[0] == [apollo]


def test_alpine_newt_one_card_with_both_symbols_fills_one_play() -> None:
    pk = Picker(ALL)
    gnat, _ = pk.half("Gnat", "right")
    apollo, _ = pk.half("Phoebus Apollo", "top")
    s, *_ = play("Alpine Newt", match=True, pk=pk, hand=[gnat, apollo])
    act(s, "yes", f"play {apollo} top 1")
    assert s.decision == "free" and s.pending is not None and s.pending.tag == "insect"
    act(s, f"play {gnat} right 1")
    assert s.to_move == 1 and s.hands[0] == []
    # declining the Alps play still offers the insect play
    pk2 = Picker(ALL)
    gnat2, _ = pk2.half("Gnat", "right")
    s2, *_ = play("Alpine Newt", match=True, pk=pk2, hand=[gnat2])
    act(s2, "yes")
    assert s2.pending is not None and s2.pending.tag == "insect"  # no Alps card: skipped
    act(s2, f"play {gnat2} right 1")
    assert s2.to_move == 1
    # no insect left after the Alps play: the insect play is skipped unasked
    pk3 = Picker(ALL)
    hare3, _ = pk3.half("Mountain Hare", "left")
    s3, *_ = play("Alpine Newt", match=True, pk=pk3, hand=[hare3])
    act(s3, "yes", f"play {hare3} left 1")
    assert s3.to_move == 1 and s3.decision == "turn"


def test_alpine_newt_without_matching_payment_has_no_bonus() -> None:
    pk = Picker(ALL)
    hare, _ = pk.half("Mountain Hare", "left")
    s, *_ = play("Alpine Newt", match=False, pk=pk, hand=[hare])
    assert answer_all(s) == [] and s.to_move == 1


def test_wild_boar_female_bonus_plays_a_squeaker_or_an_edge_squeaker() -> None:
    pk = Picker(ALL)
    squeaker, _ = pk.half("Squeaker", "right")
    edge, _ = pk.half("Edge Squeaker", "right")
    lynx, _ = pk.half("Lynx", "left")
    s, *_ = play("Wild Boar (female)", match=True, side="left", pk=pk,
                 hand=[squeaker, edge, lynx])
    assert offered(s) == ("effect", "Wild Boar (female)")
    act(s, "no")
    assert offered(s) == ("bonus", "Wild Boar (female)")
    act(s, "yes")
    assert plays_of(s, squeaker) == [f"play {squeaker} right 1"]
    assert plays_of(s, edge) == [f"play {edge} right 1"]
    assert plays_of(s, lynx) == []
    act(s, f"play {edge} right 1")
    assert s.to_move == 1 and sorted(s.hands[0]) == sorted([squeaker, lynx])


def test_crane_fly_effect_places_any_number_of_bats_free() -> None:
    pk = Picker(ALL)
    bat1, _ = pk.half("Savi's Pipistrelle", "left")
    bat2, _ = pk.half("Common Pipistrelle", "left")
    s, *_ = play("Crane Fly", match=False, side="right", pk=pk, hand=[bat1, bat2],
                 trees=[site(pk.tree("Birch")), site(pk.tree("Beech"))])
    assert answer_all(s) == [("effect", "Crane Fly")]
    act(s, f"play {bat1} left 1", f"play {bat2} left 2")
    assert s.to_move == 1 and s.hands[0] == []


def test_water_vole_plays_saplings_free_then_bonus_extra_turn() -> None:
    pk = Picker(ALL)
    extra = pk.fillers(3)
    s, cid, _, deck = play("Water Vole", match=True, pk=pk, hand=extra)
    paid = s.clearing[:]
    assert offered(s) == ("effect", "Water Vole")
    act(s, "yes")
    assert s.decision == "saplings"
    assert sorted(legal(s)) == sorted([f"sapling {c}" for c in extra] + ["done"])
    act(s, f"sapling {extra[0]}", f"sapling {extra[2]}", "done")
    trees = s.forests[0].trees
    assert [t.card for t in trees[1:]] == [extra[0], extra[2]]
    assert all(t.is_sapling for t in trees[1:])
    # each sapling turns a deck card into the clearing (the base sapling rule)
    assert s.clearing == [*paid, deck[-1], deck[-2]]
    assert offered(s) == ("bonus", "Water Vole")
    act(s, "yes")
    assert s.to_move == 0 and s.hands[0] == [extra[1]]


def test_water_vole_saplings_end_with_the_hand() -> None:
    pk = Picker(ALL)
    extra = pk.fillers(1)
    s, *_ = play("Water Vole", match=False, pk=pk, hand=extra)
    act(s, "yes", f"sapling {extra[0]}")
    assert s.to_move == 1 and s.hands[0] == []


# ----------------------------------------------------------------------------- clearing


def test_bearded_vulture_puts_two_chosen_clearing_cards_under_the_cave() -> None:
    pk = Picker(ALL)
    clearing = pk.fillers(3)
    s, *_ = play("Bearded Vulture", match=False, pk=pk, clearing=clearing)
    assert len(s.clearing) == 4  # the payment joined the clearing
    pool = sorted(s.clearing)
    assert offered(s) == ("effect", "Bearded Vulture")
    act(s, "yes")
    assert s.decision == "clearing cave"
    # ascending order: the largest card cannot come first (one more is needed after it)
    assert legal(s) == [f"cave {c}" for c in pool[:3]]
    act(s, f"cave {pool[1]}")
    assert legal(s) == [f"cave {c}" for c in pool[2:]]
    act(s, f"cave {pool[3]}")
    assert s.caves[0] == [pool[1], pool[3]] and s.forests[0].cave == 2
    assert sorted(s.clearing) == [pool[0], pool[2]]
    assert s.to_move == 1


def test_bearded_vulture_with_one_clearing_card_takes_it() -> None:
    s, *_ = play("Bearded Vulture", match=False)
    (paid,) = s.clearing
    act(s, "yes")
    assert legal(s) == [f"cave {paid}"]
    act(s, f"cave {paid}")
    assert s.caves[0] == [paid] and s.clearing == [] and s.to_move == 1


@pytest.mark.parametrize("species", ["Eurasian Magpie", "European Wildcat"])
def test_take_one_clearing_card_into_the_hand(species: str) -> None:
    pk = Picker(ALL)
    clearing = pk.fillers(3)
    s, *_ = play(species, match=False, pk=pk, clearing=clearing)
    assert offered(s) == ("effect", species)
    act(s, "yes")
    assert s.decision == "take"
    assert sorted(legal(s)) == sorted(f"take {c}" for c in s.clearing)
    act(s, f"take {clearing[1]}")
    assert s.hands[0] == [clearing[1]] and clearing[1] in s.known[0]
    assert s.to_move == 1 and len(s.clearing) == 3


def test_eurasian_magpie_bonus_two_clearing_cards_to_the_cave() -> None:
    pk = Picker(ALL)
    clearing = pk.fillers(3)
    s, *_ = play("Eurasian Magpie", match=True, pk=pk, clearing=clearing)
    act(s, "yes", f"take {clearing[0]}")
    assert offered(s) == ("bonus", "Eurasian Magpie")
    act(s, "yes")
    rest = sorted(s.clearing)
    assert len(rest) == 3
    act(s, f"cave {rest[0]}", f"cave {rest[1]}")
    assert s.caves[0] == rest[:2] and s.clearing == [rest[2]]
    assert s.hands[0] == [clearing[0]] and s.to_move == 1


def test_wild_boar_female_removes_the_clearing_from_the_game() -> None:
    pk = Picker(ALL)
    clearing = pk.fillers(3)
    s, *_ = play("Wild Boar (female)", match=False, side="left", pk=pk, clearing=clearing)
    gone = s.clearing[:]
    assert len(gone) == 5  # 3 there before and the 2 cards just paid
    box = s.box[:]
    assert answer_all(s) == [("effect", "Wild Boar (female)")]
    assert s.clearing == [] and s.caves[0] == [] and s.hands[0] == []
    assert s.box == box + gone  # into the box, not under a cave


def test_bee_swarm_caves_the_plant_shrub_and_tree_cards_of_the_clearing() -> None:
    pk = Picker(ALL)
    birch = pk.tree("Birch")  # tree tag
    elder = pk.tree("Elderberry")  # shrub tag
    larch = pk.tree("European Larch")  # a tree of the expansion
    moss = pk.half("Moss", "bottom")[0]  # Goshawk / Moss: a plant half
    fern = pk.half("Tree Ferns", "bottom")[0]  # the plant on the bottom half
    toad = pk.half("Common Toad", "bottom", symbol_is="Beech")[0]  # Peacock / Toad: no plant
    lynx = pk.half("Lynx", "left")[0]  # no plant
    clearing = [birch, moss, toad, elder, lynx, larch, fern]
    s, *_ = play("Bee Swarm", match=False, side="right", pk=pk, clearing=clearing)
    (paid,) = s.clearing[7:]
    assert answer_all(s) == [("effect", "Bee Swarm")]
    assert s.caves[0] == [birch, moss, elder, larch, fern]
    assert s.clearing == [toad, lynx, paid] and s.forests[0].cave == 5


def test_crane_fly_bonus_takes_every_bat_of_the_clearing() -> None:
    pk = Picker(ALL)
    bat1 = pk.half("Barbastelle Bat", "left")[0]
    bat2 = pk.half("Bechstein's Bat", "left")[0]
    lynx = pk.half("Lynx", "left", symbol_not="Beech")[0]
    s, cid, side, _ = play("Crane Fly", match=True, side="right", pk=pk,
                           clearing=[bat1, lynx, bat2])
    assert sym(cid, side) == "Beech"
    (paid,) = s.clearing[3:]
    assert answer_all(s) == [("bonus", "Crane Fly")]  # no bat in hand: effect skipped
    assert sorted(s.hands[0]) == sorted([bat1, bat2])
    assert s.known[0] == {bat1, bat2}
    assert s.clearing == [lynx, paid]


def test_crane_fly_bonus_stops_at_the_hand_limit_and_the_player_chooses() -> None:
    pk = Picker(ALL)
    bats = [pk.half(b, "left")[0] for b in ("Barbastelle Bat", "Bechstein's Bat",
                                            "Brown Long-Eared Bat")]
    hand = pk.fillers(8, avoid_symbol="Beech")
    s, cid, side, _ = play("Crane Fly", match=True, side="right", pk=pk, hand=hand,
                           clearing=bats)
    assert len(s.hands[0]) == 8  # 10 in hand, the Crane Fly and its payment left it
    if offered(s) == ("effect", "Crane Fly"):  # a bat among the fillers
        act(s, "no")
    assert offered(s) == ("bonus", "Crane Fly")
    act(s, "yes")
    # room for 2 of the 3 bats: the player picks them one at a time
    assert s.decision == "take"
    assert sorted(legal(s)) == sorted(f"take {b}" for b in bats)
    act(s, f"take {bats[2]}")
    assert sorted(legal(s)) == sorted(f"take {b}" for b in bats[:2])
    act(s, f"take {bats[0]}")
    assert len(s.hands[0]) == 10 and bats[1] in s.clearing and s.to_move == 1


# ----------------------------------------------------------------------------- slots


def test_mountain_hare_joins_a_hare_stack_by_the_rules_switch() -> None:
    for joins in (True, False):
        pk = Picker(ALL)
        hare = pk.half("European Hare", "left")[0]
        mhare = pk.half("Mountain Hare", "left")[0]
        hare2 = pk.half("European Hare", "left")[0]
        mhare2 = pk.half("Mountain Hare", "left")[0]
        rules = Rules(counts_as_joins_stack=joins)
        s = build([[mhare, hare2], []], pk.fillers(4), game=ALL, rules=rules,
                  forests=[[site(pk.tree("Oak"), left=[hare]),
                            site(pk.tree("Birch"), left=[mhare2])], []])
        assert (f"play {mhare} left 1" in legal(s)) is joins  # onto a European Hare
        assert (f"play {hare2} left 2" in legal(s)) is joins  # a hare onto a Mountain Hare
        if joins:
            act(s, f"play {mhare} left 1")
            assert [d.species.name for d in s.forests[0].trees[0].slots["left"]] == [
                "European Hare", "Mountain Hare"]
            check_state(s)


def test_mountain_hares_never_stack_on_each_other_without_the_switch() -> None:
    pk = Picker(ALL)
    m1 = pk.half("Mountain Hare", "left")[0]
    m2 = pk.half("Mountain Hare", "left")[0]
    s = build([[m2], []], pk.fillers(3), game=ALL, rules=Rules(counts_as_joins_stack=False),
              forests=[[site(pk.tree("Oak"), left=[m1])], []])
    assert plays_of(s, m2) == []


def test_red_fox_draws_for_mountain_hares_too() -> None:
    pk = Picker(ALL)
    hare = pk.half("European Hare", "left")[0]
    m1 = pk.half("Mountain Hare", "left")[0]
    m2 = pk.half("Mountain Hare", "right")[0]
    trees = [site(pk.tree("Birch"), left=[hare, m1], right=[m2])]
    s, cid, _, deck = play("Red Fox", match=False, side="left", pk=pk, trees=trees)
    assert answer_all(s) == [("effect", "Red Fox")]
    assert s.hands[0] == deck[::-1][:3]  # 1 European Hare + 2 Mountain Hares


def test_red_fox_draw_for_mountain_hares_stops_at_the_hand_limit() -> None:
    pk = Picker(ALL)
    hare = pk.half("European Hare", "left")[0]
    mh = [pk.half("Mountain Hare")[0] for _ in range(3)]
    trees = [site(pk.tree("Birch"), left=[hare, mh[0], mh[1]]),
             site(pk.tree("Beech"), right=[mh[2]])]
    hand = pk.fillers(7)
    s, cid, _, deck = play("Red Fox", match=False, side="left", pk=pk, trees=trees, hand=hand)
    assert len(s.hands[0]) == 7  # 10 less the fox and its payment of 2
    act(s, "yes")
    # 4 hares, but only 3 cards fit under the hand limit of 10
    assert len(s.hands[0]) == 10 and s.hands[0][7:] == deck[::-1][:3]


def test_stinging_nettle_lets_butterflies_share_the_top_slot() -> None:
    pk = Picker(ALL)
    nettle = pk.half("Stinging Nettle", "bottom")[0]
    peacock = pk.half("Peacock Butterfly", "top")[0]
    plain_top = pk.half("Purple Emperor", "top")[0]
    apollo = pk.half("Phoebus Apollo", "top")[0]
    mapb = pk.half("Map Butterfly", "top")[0]
    goshawk = pk.half("Goshawk", "top")[0]
    s = build([[apollo, mapb, goshawk], []], pk.fillers(6), game=ALL,
              forests=[[site(pk.tree("Oak"), bottom=[nettle], top=[peacock]),
                        site(pk.tree("Birch"), top=[plain_top])], []])
    # tree 1 (Nettle below): any butterfly may join; tree 2: its top is taken
    assert plays_of(s, apollo, "top") == [f"play {apollo} top 1"]
    assert plays_of(s, mapb, "top") == [f"play {mapb} top 1"]
    assert plays_of(s, goshawk, "top") == []  # no bird joins the butterflies
    act(s, f"play {apollo} top 1", "draw", "draw")
    act(s, f"play {mapb} top 1")  # any number: a third butterfly
    assert [d.species.name for d in s.forests[0].trees[0].slots["top"]] == [
        "Peacock Butterfly", "Phoebus Apollo", "Map Butterfly"]
    check_state(s)


def test_stinging_nettle_below_a_shrub_lets_butterflies_share_its_top_slot() -> None:
    # "the tree or shrub this Nettle sits under": at a Blackthorn as at a tree
    pk = Picker(ALL)
    nettle = pk.half("Stinging Nettle", "bottom")[0]
    peacock = pk.half("Peacock Butterfly", "top")[0]
    apollo = pk.half("Phoebus Apollo", "top")[0]
    s = build([[apollo], []], pk.fillers(3), game=ALL,
              forests=[[site(pk.tree("Blackthorn"), bottom=[nettle], top=[peacock])], []])
    assert plays_of(s, apollo, "top") == [f"play {apollo} top 1"]


def test_stinging_nettle_does_not_let_a_butterfly_join_a_bird() -> None:
    pk = Picker(ALL)
    nettle = pk.half("Stinging Nettle", "bottom")[0]
    goshawk = pk.half("Goshawk", "top")[0]
    peacock = pk.half("Peacock Butterfly", "top")[0]
    s = build([[peacock], []], pk.fillers(3), game=ALL,
              forests=[[site(pk.tree("Oak"), bottom=[nettle], top=[goshawk])], []])
    assert plays_of(s, peacock) == []


def test_nettle_played_under_a_butterfly_opens_the_top_slot() -> None:
    pk = Picker(ALL)
    peacock = pk.half("Peacock Butterfly", "top")[0]
    nettle = pk.half("Stinging Nettle", "bottom")[0]
    mapb = pk.half("Map Butterfly", "top")[0]
    s = build([[nettle, mapb], []], pk.fillers(6), game=ALL,
              forests=[[site(pk.tree("Oak"), top=[peacock])], []])
    assert plays_of(s, mapb, "top") == []
    act(s, f"play {nettle} bottom 1", "draw", "draw")
    assert plays_of(s, mapb, "top") == [f"play {mapb} top 1"]


# ----------------------------------------------------------------------------- shrubs

SHRUBS = [("Elderberry", "plant", "Moss", "bottom"),
          ("Common Hazel", "bat", "Barbastelle Bat", "left"),
          ("Blackthorn", "butterfly", "Peacock Butterfly", "top")]


@pytest.mark.parametrize(("shrub", "tag", "good", "gside"), SHRUBS)
def test_shrub_is_a_host_that_turns_no_card_into_the_clearing(shrub: str, tag: str,
                                                              good: str, gside: str) -> None:
    pk = Picker(ALL)
    card, side = pk.half(good, gside)
    s, cid, _, deck = play(shrub, match=False, pk=pk, hand=[card, *pk.fillers(1)])
    paid = s.clearing[:]
    assert len(paid) == 2 and s.deck == deck  # only the payment reached the clearing
    host = s.forests[0].trees[1]
    assert host.card == cid and host.kind == "shrub" and not host.is_tree
    assert host.symbol == CAT.card(cid).symbol
    assert answer_all(s) == [] and s.to_move == 1
    # its four slots take dwellers like a tree's: the card may go onto tree 1 or the shrub
    act(s, "draw", "draw")
    assert plays_of(s, card, side) == [f"play {card} {side} 1", f"play {card} {side} 2"]


@pytest.mark.parametrize(("shrub", "tag", "good", "gside"), SHRUBS)
def test_shrub_bonus_by_its_printed_symbol_plays_a_card_of_its_kind(
        shrub: str, tag: str, good: str, gside: str) -> None:
    pk = Picker(ALL)
    card, side = pk.half(good, gside)
    lynx, _ = pk.half("Lynx", "left")  # neither plant, bat nor butterfly
    s, cid, _, deck = play(shrub, match=True, pk=pk, hand=[card, lynx])
    assert offered(s) == ("bonus", shrub)
    act(s, "yes")
    assert plays_of(s, lynx) == []
    act(s, f"play {card} {side} 2")  # onto the shrub
    assert [d.card for d in s.forests[0].trees[1].slots[side]] == [card]
    # the shrub's permanent acts from the next turn on: no draw for this free play
    assert s.to_move == 1 and s.hands[0] == [lynx]


def test_shrub_bonus_needs_its_printed_symbol_not_its_name() -> None:
    pk = Picker(ALL)
    hazel = next(c for c in (pk.tree("Common Hazel") for _ in range(4))
                 if CAT.card(c).symbol == "Oak")
    pay = pk.with_symbol("Beech", 2)  # another tree symbol
    bat = pk.half("Barbastelle Bat", "left")[0]
    s = build([[hazel, *pay, bat], []], pk.fillers(4), game=ALL,
              forests=[[site(pk.tree("Birch"))], []])
    act(s, f"play {hazel}", *(f"pay {c}" for c in sorted(pay)))
    assert s.to_move == 1  # no bonus
    pk2 = Picker(ALL)
    hazel2 = next(c for c in (pk2.tree("Common Hazel") for _ in range(4))
                  if CAT.card(c).symbol == "Oak")
    pay2 = pk2.with_symbol("Oak", 2)
    bat2 = pk2.half("Barbastelle Bat", "left")[0]
    s2 = build([[hazel2, *pay2, bat2], []], pk2.fillers(4), game=ALL,
               forests=[[site(pk2.tree("Birch"))], []])
    act(s2, f"play {hazel2}", *(f"pay {c}" for c in sorted(pay2)))
    assert offered(s2) == ("bonus", "Common Hazel")


@pytest.mark.parametrize(("shrub", "tag", "good", "gside"), SHRUBS)
def test_shrub_permanent_draw_when_a_card_of_its_kind_is_played(
        shrub: str, tag: str, good: str, gside: str) -> None:
    pk = Picker(ALL)
    card, side = pk.half(good, gside)
    other, oside = pk.half("European Hare", "right")  # neither plant, bat nor butterfly
    host = pk.tree(shrub)
    deck = pk.fillers(4)
    s = build([[card, other, *pk.fillers(2)], []], deck, game=ALL,
              forests=[[site(pk.tree("Birch")), site(host)], []])
    cost = CAT.card(card).halves[side].species.cost
    pay = sorted(c for c in s.hands[0] if c not in (card, other))[:cost]
    act(s, f"play {card} {side} 1", *(f"pay {c}" for c in pay))
    assert answer_all(s) == [("mushroom", shrub)]
    assert s.hands[0][-1] == deck[-1]
    # a card of another kind draws nothing
    act(s, "draw", "draw")  # the other player's turn
    hand = len(s.hands[0])
    cost = CAT.card(other).halves[oside].species.cost
    pay = sorted(c for c in s.hands[0] if c != other)[:cost]
    act(s, f"play {other} {oside} 2", *(f"pay {c}" for c in pay))
    assert answer_all(s) == []
    assert len(s.hands[0]) == hand - 1 - cost


def test_two_hazels_give_two_draws_for_a_free_bat() -> None:
    pk = Picker(ALL)
    bat = pk.half("Barbastelle Bat", "left")[0]
    h1, h2 = pk.tree("Common Hazel"), pk.tree("Common Hazel")
    s, cid, side, deck = play("Gnat", match=False, side="right", pk=pk, hand=[bat],
                              trees=[site(h1), site(h2)])
    assert answer_all(s) == [("effect", "Gnat")]
    act(s, f"play {bat} left 2")  # a free play onto a Hazel
    # each Hazel offers its own draw (free plays trigger them, by the mushroom switch)
    assert answer_all(s) == [("mushroom", "Common Hazel")] * 2
    assert s.hands[0] == [deck[-1], deck[-2]] and s.to_move == 1
    # with the switch off, a free play triggers no Hazel
    pk2 = Picker(ALL)
    bat2 = pk2.half("Barbastelle Bat", "left")[0]
    s2, *_ = play("Gnat", match=False, side="right", pk=pk2, hand=[bat2],
                  trees=[site(pk2.tree("Common Hazel"))],
                  rules=Rules(free_plays_trigger_mushrooms=False))
    act(s2, "yes", f"play {bat2} left 2")
    assert s2.to_move == 1 and s2.hands[0] == []


def test_shrub_is_no_tree_card_for_the_chanterelle() -> None:
    pk = Picker(ALL)
    chanterelle = pk.half("Chanterelle", "bottom")[0]
    s, *_ = play("Elderberry", match=False, pk=pk,
                 trees=[site(pk.tree("Birch"), bottom=[chanterelle])])
    assert answer_all(s) == []  # a Chanterelle draws for tree cards only
    pk2 = Picker(ALL)
    ch2 = pk2.half("Chanterelle", "bottom")[0]
    s2, *_ = play("European Larch", match=False, pk=pk2,
                  trees=[site(pk2.tree("Birch"), bottom=[ch2])])
    assert answer_all(s2) == [("mushroom", "Chanterelle")]


def _mushroom_draws(mushroom: str, dweller: str, side: str, host: str | None) -> list[Step]:
    """The draws of ``mushroom`` offered when player 1, with it below a Birch, places
    ``dweller`` on ``side`` of tree 2: a ``host`` tree or shrub, or a sapling (None)."""
    pk = Picker(ALL)
    mush = pk.half(mushroom, "bottom")[0]
    card = pk.half(dweller, side)[0]
    second = site(pk.fillers(1)[0], sapling=True) if host is None else site(pk.tree(host))
    s = build([[card, *pk.fillers(2)], []], pk.fillers(4), game=ALL,
              forests=[[site(pk.tree("Birch"), bottom=[mush]), second], []])
    cost = CAT.card(card).halves[side].species.cost
    pay = sorted(c for c in s.hands[0] if c != card)[:cost]
    act(s, f"play {card} {side} 2", *(f"pay {c}" for c in pay))
    return [x for x in answer_all(s) if x == ("mushroom", mushroom)]


@pytest.mark.parametrize(("mushroom", "dweller", "side"),
                         [("Parasol Mushroom", "Moss", "bottom"),
                          ("Penny Bun", "Goshawk", "top")])
@pytest.mark.parametrize("host", ["Elderberry", "Common Hazel", "Blackthorn"])
def test_parasol_and_penny_bun_draw_for_no_card_at_a_shrub(mushroom: str, dweller: str,
                                                          side: str, host: str) -> None:
    # "below / atop a tree": a shrub is no tree
    assert _mushroom_draws(mushroom, dweller, side, host) == []


@pytest.mark.parametrize(("mushroom", "dweller", "side"),
                         [("Parasol Mushroom", "Moss", "bottom"),
                          ("Penny Bun", "Goshawk", "top")])
@pytest.mark.parametrize("host", ["Oak", "European Larch", None])
def test_parasol_and_penny_bun_draw_at_a_tree_or_sapling(mushroom: str, dweller: str,
                                                        side: str, host: str | None) -> None:
    assert _mushroom_draws(mushroom, dweller, side, host) == [("mushroom", mushroom)]


def test_a_hand_with_shrubs_and_no_tree_may_mulligan() -> None:
    # "with no Tree at all": a shrub is no tree card, so such a hand is offered a mulligan
    for seed in range(4000):
        s = GameState.new(2, seed, game=EDGE)
        hand = s.hands[s.to_move] if s.decision == "mulligan" and s.to_move is not None else []
        if any(CAT.card(c).kind == "shrub" for c in hand):
            assert not any(CAT.card(c).is_tree for c in hand)
            assert legal(s) == ["keep", "mulligan"]
            return
    pytest.fail("no hand of shrubs without a tree was offered a mulligan")


def test_nightingale_may_sit_atop_a_shrub() -> None:
    pk = Picker(ALL)
    bird = pk.half("Nightingale", "top")[0]
    s = build([[bird, *pk.fillers(1)], []], pk.fillers(3), game=ALL,
              forests=[[site(pk.tree("Blackthorn"))], []])
    assert plays_of(s, bird, "top") == [f"play {bird} top 1"]


# ----------------------------------------------------------------------------- Black Trumpet


def test_black_trumpet_draws_for_alps_cards_from_the_next_turn_on() -> None:
    pk = Picker(ALL)
    trumpet = pk.half("Black Trumpet", "bottom")[0]
    hare = pk.half("Mountain Hare", "left")[0]  # alps, cost 0
    lynx = pk.half("Lynx", "left")[0]  # not alps
    pay = pk.fillers(2, avoid_symbol=sym(trumpet, "bottom"))
    deck = pk.fillers(10)
    s = build([[trumpet, *pay, hare, lynx], pk.fillers(2)], deck, game=ALL,
              forests=[[site(pk.tree("Oak")), site(pk.tree("Birch"))], []])
    act(s, f"play {trumpet} bottom 1", *(f"pay {c}" for c in sorted(pay)))
    # the Trumpet itself is an Alps card, but it acts only from the next turn on
    assert answer_all(s) == [] and s.to_move == 1
    act(s, "draw", "draw")
    assert s.to_move == 0
    act(s, f"play {hare} left 1")
    assert answer_all(s) == [("mushroom", "Black Trumpet")]
    assert s.hands[0] == [lynx, deck[-3]]  # the opponent drew deck[-1] and deck[-2]
    act(s, "draw", "draw")
    act(s, f"play {lynx} left 2", f"pay {deck[-3]}")
    assert answer_all(s) == [] and s.to_move == 1


def test_black_trumpet_draws_before_an_alps_trees_effect() -> None:
    pk = Picker(ALL)
    t1 = pk.half("Black Trumpet", "bottom")[0]
    t2 = pk.half("Black Trumpet", "bottom")[0]
    s, cid, _, deck = play("Stone Pine", match=False, pk=pk,
                           trees=[site(pk.tree("Birch"), bottom=[t1]),
                                  site(pk.tree("Beech"), bottom=[t2])])
    assert answer_all(s) == [("mushroom", "Black Trumpet"), ("mushroom", "Black Trumpet"),
                             ("effect", "Stone Pine")]
    assert s.hands[0] == [deck[-2], deck[-3], deck[-4]]


# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("game", "removed"), [
    (BASE, {2: 30, 3: 20, 4: 10, 5: 0}),
    (ALPINE, {2: 55, 3: 40, 4: 25, 5: 10}),
    (EDGE, {2: 55, 3: 40, 4: 25, 5: 10}),
    (ALL, {2: 90, 3: 60, 4: 45, 5: 30}),
])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_removals(game: str, removed: dict[int, int], players: int) -> None:
    g = make_game(game)
    size = {BASE: 161, ALPINE: 197, EDGE: 197, ALL: 233}[game]
    assert len(g.catalog.deck_ids) == size
    for seed in (0, 7):
        s = GameState.new(players, seed, game=game)
        assert len(s.box) == removed[players]
        assert not any(CAT.card(c).is_winter for c in s.box)
        assert len(s.deck) == size - removed[players] - 6 * players
        assert sorted(s.locations()) == sorted(g.catalog.deck_ids)
        check_state(s)


def test_expansion_cards_are_dealt_only_in_their_games() -> None:
    for game, lo, hi in ((BASE, 1, 161), (ALPINE, 1, 197)):
        ids = set(GameState.new(2, 3, game=game).locations())
        assert min(ids) == lo and max(ids) == hi
    edge = set(GameState.new(2, 3, game=EDGE).locations())
    assert edge == set(range(1, 162)) | set(range(198, 234))


# ----------------------------------------------------------------------------- random play


def choose(state: GameState, rng: random.Random) -> Action:
    """A random legal action, biased towards playing cards and using effects."""
    acts = state.legal_actions()
    d = state.decision
    if d == "turn":
        draws = [a for a in acts if a.kind in ("draw", "take")]
        plays = [a for a in acts if a.kind == "play"]
        r = rng.random()
        if plays and (r < 0.55 or not draws):
            return rng.choice(plays)
        if draws and r < 0.92:
            return rng.choice(draws)
        return rng.choice(acts)
    if d == "option":
        return acts[0] if rng.random() < 0.85 else acts[1]
    if d in ("free", "mole", "raccoon", "saplings"):
        others = [a for a in acts if a.kind != "done"]
        if others and rng.random() < 0.7:
            return rng.choice(others)
        return acts[-1]
    return rng.choice(acts)


def run(game: str, n: int, seed: int, limit: int = 3000) -> Iterator[GameState]:
    """Play a random game; yield the live state before every action and at the end."""
    state = GameState.new(n, seed, game=game)
    rng = random.Random(seed * 31 + n)
    for _ in range(limit):
        yield state
        if state.over:
            return
        state.apply(choose(state, rng))
    raise AssertionError(f"{game} seed {seed}: the game did not end")


def test_base_and_full_game_played_alternately_in_one_process() -> None:
    for seed in (3, 11):
        alone = list(_final(BASE, 3, seed))
        base, full = run(BASE, 3, seed), run(ALL, 3, seed)
        live = {BASE: True, ALL: True}
        last: dict[str, GameState] = {}
        while any(live.values()):
            for name, it in ((BASE, base), (ALL, full)):
                if not live[name]:
                    continue
                st = next(it, None)
                if st is None:
                    live[name] = False
                    continue
                check_state(st)
                assert st.game is make_game(name)
                last[name] = st
        assert last[BASE].over and last[ALL].over
        assert last[BASE].to_dict() == alone[0]  # the same game as played alone
        assert last[BASE].scores() == alone[1]
        assert any(CAT.card(c).module != "base" for f in last[ALL].forests
                   for c in f.card_ids())


def _final(game: str, n: int, seed: int) -> tuple[dict[str, Any], list[int]]:
    state = list(run(game, n, seed))[-1]
    return state.to_dict(), state.scores()


@pytest.mark.parametrize("game", [ALPINE, EDGE, ALL])
def test_save_and_load_round_trip_mid_game(game: str) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        for k, st in enumerate(run(game, 2 + seed, seed)):
            if k % 7 and not st.over and st.decision not in ("free", "take", "clearing cave",
                                                             "saplings"):
                continue
            kinds.add(st.decision or "over")
            data = json.loads(json.dumps(st.to_dict()))
            back = GameState.from_dict(data)
            assert back.to_dict() == st.to_dict()
            assert back.game is st.game
            assert back.legal_actions() == st.legal_actions()
            assert back.scores() == st.scores()
    assert {"turn", "pay", "option", "over"} <= kinds


@pytest.mark.parametrize("game", GAMES)
def test_random_play_invariants(game: str) -> None:
    g = make_game(game)
    ids = sorted(g.catalog.deck_ids)
    for seed in range(6):
        n = 2 + seed % 4
        third = bottom_pile_size(g, n)
        winter_seen = False
        for st in run(game, n, seed):
            assert sorted(st.locations()) == ids
            assert all(len(h) <= g.hand_limit for h in st.hands)
            if st.decision == "turn":
                assert len(st.clearing) < g.clearing_limit
            if not st.winter:
                # the bottom pile and all three winter cards are still in the deck
                assert len(st.deck) >= third + 3
            elif not winter_seen:
                winter_seen = True
                assert len(st.deck) <= third + 2
        assert st.over and len(st.winter) == 3
        check_state(st)
