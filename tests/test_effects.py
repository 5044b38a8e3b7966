"""One or more tests per species with an effect, a bonus or a permanent effect: what the
engine does when the card is played (official appendix wording)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from scenario import CATALOG, Picker, act, build, legal, site, symbol

from forest_shuffle.engine.state import GameState

Step = tuple[str, str]  # (effect/bonus/mushroom, species)


def play(species: str, *, match: bool, side: str | None = None, pk: Picker | None = None,
         hand: Sequence[int] = (), trees: Sequence[dict[str, Any]] = (),
         clearing: Sequence[int] = (), deck_n: int = 8,
         host: str = "Horse Chestnut") -> tuple[GameState, int, str, list[int]]:
    """Player 1 plays ``species`` (on tree 1 for a dweller), paying with cards that all show
    its symbol (``match``) or none of them. Returns the state, card, side and deck."""
    pk = pk or Picker()
    forest = [site(pk.tree(host)), *trees]
    sp = CATALOG.species[species]
    if sp.is_tree:
        cid, s = pk.tree(species), ""
    else:
        cid, s = pk.half(species, side)
    sym = symbol(cid, s)
    pay = pk.with_symbol(sym, sp.cost) if match else pk.fillers(sp.cost, avoid_symbol=sym)
    deck = pk.fillers(deck_n)
    state = build([[cid, *pay, *hand], []], deck, clearing=clearing, forests=[forest, []])
    act(state, f"play {cid}" if not s else f"play {cid} {s} 1",
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


# ----------------------------------------------------------------------------- draws

DRAW_EFFECTS = ["Birch", "Beech", "Beech Marten", "Great Spotted Woodpecker", "Pond Turtle",
                "Tree Ferns", "Tawny Owl"]


@pytest.mark.parametrize("species", DRAW_EFFECTS)
def test_draw_one_effect(species: str) -> None:
    s, cid, side, deck = play(species, match=False)
    assert answer_all(s) == [("effect", species)]
    is_tree = CATALOG.species[species].is_tree
    expected = deck[-2] if is_tree else deck[-1]  # a tree first turns deck[-1] into the clearing
    assert s.hands[0] == [expected]
    assert s.to_move == 1


@pytest.mark.parametrize("species", DRAW_EFFECTS)
def test_draw_effect_is_optional(species: str) -> None:
    s, *_ = play(species, match=False)
    assert answer_all(s, "no") == [("effect", species)]
    assert s.hands[0] == [] and s.to_move == 1


@pytest.mark.parametrize(("species", "n"), [("Tawny Owl", 2), ("Fallow Deer", 2),
                                            ("Roe Deer", 1), ("Hedgehog", 1)])
def test_draw_bonus(species: str, n: int) -> None:
    s, cid, side, deck = play(species, match=True)
    if CATALOG.species[species].effect is not None:
        assert offered(s) == ("effect", species)
        act(s, "no")
    assert offered(s) == ("bonus", species)
    act(s, "yes")
    assert s.hands[0] == deck[::-1][:n] and s.to_move == 1


@pytest.mark.parametrize("species", ["Tawny Owl", "Fallow Deer", "Roe Deer", "Hedgehog",
                                     "Oak", "Douglas Fir", "Silver Fir", "European Badger",
                                     "Fire Salamander", "Red Deer", "Stag Beetle", "Wolf",
                                     "Brown Bear"])
def test_no_bonus_without_matching_payment(species: str) -> None:
    s, *_ = play(species, match=False)
    assert all(kind != "bonus" for kind, _ in answer_all(s, "no"))


def test_tawny_owl_effect_and_bonus_draw_three() -> None:
    s, cid, side, deck = play("Tawny Owl", match=True)
    assert answer_all(s) == [("effect", "Tawny Owl"), ("bonus", "Tawny Owl")]
    assert s.hands[0] == deck[::-1][:3]


# ----------------------------------------------------------------------------- no effect


@pytest.mark.parametrize("species", ["Linden", "Sycamore", "Horse Chestnut"])
def test_trees_without_effect_or_bonus_just_reveal_a_card(species: str) -> None:
    for match in (True, False):
        s, cid, _, deck = play(species, match=match)
        assert s.decision == "turn" and s.to_move == 1
        assert s.clearing[-1] == deck[-1]
        assert s.forests[0].trees[-1].card == cid


@pytest.mark.parametrize("species", ["Lynx", "Squeaker", "Goshawk", "Bullfinch", "Chaffinch",
                                     "Moss", "Wood Ant", "Fireflies", "Tree Frog",
                                     "European Fat Dormouse", "Wild Boar", "Blackberries",
                                     "Wild Strawberries", "Red Squirrel", "Peacock Butterfly",
                                     "Barbastelle Bat"])
def test_dwellers_without_effect_or_bonus(species: str) -> None:
    s, *_ = play(species, match=True)
    assert s.to_move == 1 and s.decision == "turn"


# ----------------------------------------------------------------------------- extra turns


def test_eurasian_jay_effect_extra_turn() -> None:
    s, *_ = play("Eurasian Jay", match=False)
    assert answer_all(s) == [("effect", "Eurasian Jay")]
    assert s.to_move == 0 and s.decision == "turn"
    act(s, "draw", "draw")
    assert s.to_move == 1


@pytest.mark.parametrize("species", ["Oak", "Douglas Fir"])
def test_tree_bonus_extra_turn(species: str) -> None:
    s, *_ = play(species, match=True)
    assert answer_all(s) == [("bonus", species)]
    assert s.to_move == 0 and s.decision == "turn"


def test_extra_turn_bonus_may_be_declined() -> None:
    s, *_ = play("Douglas Fir", match=True)
    answer_all(s, "no")
    assert s.to_move == 1


def test_wolf_draws_per_deer_and_bonus_extra_turn() -> None:
    pk = Picker()
    deer = [pk.half("Red Deer", "left")[0], pk.half("Roe Deer", "left")[0],
            pk.half("Fallow Deer", "left")[0]]
    lynx = pk.half("Lynx", "left")[0]  # not a deer
    trees = [site(pk.tree("Birch"), left=[deer[0]]), site(pk.tree("Beech"), left=[deer[1]]),
             site(pk.tree("Oak"), left=[deer[2]]), site(pk.tree("Linden"), left=[lynx])]
    s, cid, side, deck = play("Wolf", match=True, side="right", pk=pk, trees=trees)
    assert answer_all(s) == [("effect", "Wolf"), ("bonus", "Wolf")]
    assert s.hands[0] == deck[::-1][:3]
    assert s.to_move == 0


def test_wolf_without_deer_offers_no_draw() -> None:
    s, *_ = play("Wolf", match=True)
    assert answer_all(s) == [("bonus", "Wolf")]


# ----------------------------------------------------------------------------- free plays


@pytest.mark.parametrize(("species", "good"), [
    ("Silver Fir", "Lynx"), ("European Badger", "Lynx"), ("Fire Salamander", "Lynx"),
    ("Red Deer", "Roe Deer"), ("Stag Beetle", "Goshawk"),
])
def test_free_play_bonus_may_be_declined(species: str, good: str) -> None:
    pk = Picker()
    good_card, _ = pk.half(good)
    s, *_ = play(species, match=True, pk=pk, hand=[good_card],
                 trees=[site(pk.tree("Birch"))])
    assert answer_all(s, "no") == [("bonus", species)]
    assert s.to_move == 1 and s.hands[0] == [good_card]


@pytest.mark.parametrize(("species", "good", "bad"), [
    ("Silver Fir", "Lynx", "Goshawk"),
    ("European Badger", "Lynx", "Goshawk"),
    ("Fire Salamander", "Lynx", "Goshawk"),
    ("Red Deer", "Roe Deer", "Lynx"),
    ("Stag Beetle", "Goshawk", "Lynx"),
])
def test_free_play_places_a_card_of_the_tag_at_no_cost(species: str, good: str,
                                                        bad: str) -> None:
    pk = Picker()
    good_card, gside = pk.half(good)
    bad_card, bside = pk.half(bad)
    birch = pk.tree("Birch")
    s, cid, side, deck = play(species, match=True, pk=pk, hand=[good_card, bad_card],
                              trees=[site(birch)])
    assert offered(s) == ("bonus", species)
    act(s, "yes")
    assert s.decision == "free"
    plays = legal(s)
    assert "done" in plays
    assert not any(a.startswith(f"play {bad_card}") for a in plays)
    target = next(a for a in plays if a.startswith(f"play {good_card} {gside}"))
    clearing = s.clearing[:]
    act(s, target)
    assert good_card in s.forests[0].card_ids()
    assert s.clearing == clearing  # nothing paid
    assert s.to_move == 1  # no effect or bonus of the free card (Roe Deer's draw, etc.)
    assert s.hands[0] == [bad_card]


def test_gnat_effect_places_bats_free() -> None:
    pk = Picker()
    bat1, s1 = pk.half("Greater Horseshoe Bat", "right")
    bat2, s2 = pk.half("Bechstein's Bat", "left")
    trees = [site(pk.tree("Birch")), site(pk.tree("Beech"))]
    s, cid, side, _ = play("Gnat", match=False, side="left", pk=pk, hand=[bat1, bat2],
                           trees=trees)
    assert offered(s) == ("effect", "Gnat")
    act(s, "yes", f"play {bat1} right 2", f"play {bat2} left 3")
    assert s.to_move == 1 and s.hands[0] == []
    assert s.clearing == []


# ----------------------------------------------------------------------------- cave effects


def test_brown_bear_effect_moves_the_clearing_under_the_cave() -> None:
    pk = Picker()
    clearing = pk.fillers(4)
    s, cid, side, deck = play("Brown Bear", match=True, pk=pk, clearing=clearing)
    paid = s.clearing[len(clearing):]
    assert len(paid) == 3
    assert answer_all(s) == [("effect", "Brown Bear"), ("bonus", "Brown Bear")]
    assert s.caves[0] == [*clearing, *paid] and s.clearing == []
    assert s.hands[0] == [deck[-1]] and s.to_move == 0


def test_raccoon_effect() -> None:
    pk = Picker()
    extra = sorted(pk.fillers(3))
    s, cid, side, deck = play("Raccoon", match=False, pk=pk, hand=extra)
    assert offered(s) == ("effect", "Raccoon")
    act(s, "yes", f"cave {extra[0]}", f"cave {extra[2]}", "done")
    assert s.caves[0] == [extra[0], extra[2]]
    assert s.hands[0] == [extra[1], deck[-1], deck[-2]]


def test_red_fox_draws_per_hare() -> None:
    pk = Picker()
    hares = [pk.half("European Hare", "left")[0] for _ in range(2)]
    h3 = pk.half("European Hare", "right")[0]
    trees = [site(pk.tree("Birch"), left=hares, right=[h3])]
    s, cid, side, deck = play("Red Fox", match=False, side="left", pk=pk, trees=trees)
    assert answer_all(s) == [("effect", "Red Fox")]
    assert s.hands[0] == deck[::-1][:3]


def test_red_fox_without_hares_offers_nothing() -> None:
    s, *_ = play("Red Fox", match=False)
    assert s.to_move == 1


def test_mole_effect_plays_paid_cards() -> None:
    pk = Picker()
    lynx, lside = pk.half("Lynx")
    linden = pk.tree("Linden")
    extra = pk.fillers(2)
    s, cid, side, deck = play("Mole", match=False, pk=pk, hand=[lynx, linden, *extra])
    assert offered(s) == ("effect", "Mole")
    act(s, "yes")
    assert s.decision == "mole" and "done" in legal(s)
    act(s, f"play {linden}", f"pay {sorted([lynx, *extra])[0]}")
    assert s.decision in ("mole", "turn")
    assert s.forests[0].trees[-1].card == linden


# ----------------------------------------------------------------------------- mushrooms


@pytest.mark.parametrize(("mushroom", "trigger", "side", "other", "oside"), [
    ("Chanterelle", "Linden", "", "Lynx", None),
    ("Fly Agaric", "Lynx", None, "Goshawk", "top"),
    ("Penny Bun", "Goshawk", "top", "Moss", "bottom"),
    ("Parasol Mushroom", "Moss", "bottom", "Goshawk", "top"),
])
def test_mushroom_permanent_draw(mushroom: str, trigger: str, side: str | None, other: str,
                                 oside: str | None) -> None:
    for card_species, card_side, fires in ((trigger, side, True), (other, oside, False)):
        pk = Picker()
        m, _ = pk.half(mushroom, "bottom")
        trees = [site(pk.tree("Birch"), bottom=[m])]
        s, cid, s_side, deck = play(card_species, match=False, side=card_side or None, pk=pk,
                                    trees=trees)
        steps = answer_all(s, "yes")
        assert (("mushroom", mushroom) in steps) is fires
        if fires:
            assert steps[0] == ("mushroom", mushroom)


def test_two_copies_offer_two_draws() -> None:
    pk = Picker()
    m1, _ = pk.half("Penny Bun", "bottom")
    m2, _ = pk.half("Penny Bun", "bottom")
    trees = [site(pk.tree("Birch"), bottom=[m1]), site(pk.tree("Oak"), bottom=[m2])]
    s, cid, side, deck = play("Goshawk", match=False, pk=pk, trees=trees)
    assert answer_all(s) == [("mushroom", "Penny Bun")] * 2
    assert s.hands[0] == deck[::-1][:2]


# ----------------------------------------------------------------------------- permanent


def test_european_hare_shares_a_slot() -> None:
    pk = Picker()
    h1, _ = pk.half("European Hare", "left")
    h2, _ = pk.half("European Hare", "left")
    s = build([[h2], []], pk.fillers(3), forests=[[site(pk.tree("Oak"), left=[h1])], []])
    act(s, f"play {h2} left 1")
    assert [d.species.name for d in s.forests[0].trees[0].slots["left"]] == [
        "European Hare"] * 2


def test_common_toad_pairs() -> None:
    pk = Picker()
    t1, _ = pk.half("Common Toad", "bottom")
    t2, _ = pk.half("Common Toad", "bottom")
    t3, _ = pk.half("Common Toad", "bottom")
    s = build([[t2, t3], []], pk.fillers(6),
              forests=[[site(pk.tree("Oak"), bottom=[t1])], []])
    act(s, f"play {t2} bottom 1")
    act(s, "draw", "draw")
    assert not any(a.startswith(f"play {t3} bottom") for a in legal(s))
    assert s.scores()[0] == 10


def test_violet_carpenter_bee_counts_as_one_more_tree_of_its_species() -> None:
    pk = Picker()
    beeches = [pk.tree("Beech") for _ in range(3)]
    bee, bside = pk.half("Violet Carpenter Bee")
    first = site(beeches[0], left=[bee]) if bside == "left" else site(beeches[0], right=[bee])
    trees = [first, site(beeches[1]), site(beeches[2])]
    s = build([[], []], pk.fillers(2), forests=[trees, []])
    assert s.scores()[0] == 15
    pk2 = Picker()
    s2 = build([[], []], pk2.fillers(2),
               forests=[[site(pk2.tree("Beech")) for _ in range(3)], []])
    assert s2.scores()[0] == 0
