"""Dartmoor's rules in the engine, one test per rule of the seed and the rulebook (and per new
effect op): setup, the cave draft, the turn, moors, the clearing's discard pile, the stuck
turn, bonuses, permanents and the new ops (docs/dartmoor.md, "Engine")."""

from __future__ import annotations

from typing import Any

import pytest
from scenario import Picker, act, build, legal, site

from forest_shuffle.engine.actions import Action, IllegalActionError
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.state import GameState, bottom_pile_size
from forest_shuffle.games import make_game
from forest_shuffle.games.dartmoor_state import DartmoorState

G = make_game("dartmoor")
CAT = G.catalog


def _fillers(pick: Picker, n: int, *, avoid: str = "Crab Apple") -> list[int]:
    """``n`` unused split cards that show no ``avoid`` symbol and no permanent effect
    (cards to hold, draw or pay with)."""
    out: list[int] = []
    for c in CAT.cards:
        if len(out) == n:
            break
        if c is None or c.is_winter or c.is_host or c.id in pick.used or avoid in c.symbols:
            continue
        if any(h.species.permanent for h in c.halves.values()):
            continue
        out.append(c.id)
    assert len(out) == n
    pick.used.update(out)
    return out


def _dm(hands: list[list[int]], deck: list[int], **kw: Any) -> GameState:
    s = build(hands, deck, game="dartmoor", **kw)
    assert isinstance(s, DartmoorState)
    return s


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("n, boxed", [(2, 45), (3, 30), (4, 15), (5, 0)])
def test_setup_boxes_deals_six_and_offers_one_cave_each(n: int, boxed: int) -> None:
    s = GameState.new(n, 3, game="dartmoor")
    assert isinstance(s, DartmoorState)
    assert len(s.box) == boxed
    assert [len(h) for h in s.hands] == [6] * n
    assert len(s.cave_offer) == n and set(s.cave_offer) <= {1, 2, 3, 4, 5}
    assert s.decision == "cave draft" and s.turn == 0
    # three piles: the winter pile at the bottom, its last winter card on top of it
    from_top = s.deck[::-1]
    first = next(i for i, c in enumerate(from_top) if G.cards[c].is_winter)
    assert first == len(from_top) - bottom_pile_size(G, n) - 3
    assert sum(G.cards[c].is_winter for c in s.deck) == 3


def test_cave_draft_in_reverse_order_then_effects_in_reverse_order() -> None:
    s = GameState.new(5, 1, game="dartmoor", first_player=0)
    assert s.cave_offer == [1, 2, 3, 4, 5]
    order = []
    for cave in (3, 1, 2, 5, 4):
        order.append(s.to_move)
        act(s, f"choose {cave}")
    assert order == [4, 3, 2, 1, 0]
    assert [f.cave_number for f in s.forests] == [4, 5, 2, 1, 3]
    # seat 5 (cave 3) resolves first: 3 drawn, then 3 hand cards into the clearing
    assert s.to_move == 4 and s.decision == "discard" and len(s.hands[4]) == 9
    for _ in range(3):
        act(s, legal(s)[0])
    assert len(s.hands[4]) == 6 and len(s.clearing) == 3
    # seat 4 (cave 1, provisional): one hand card face down as a universal moor
    assert s.to_move == 3 and s.decision == "universal moor"
    act(s, legal(s)[0])
    assert s.forests[3].trees[0].kind == "universal moor" and len(s.hands[3]) == 5
    # then seat 3 drew 2 (cave 2), seat 2 put 2 deck cards under cave 5, seat 1 has cave 4
    assert len(s.hands[2]) == 8 and len(s.caves[1]) == 2 and s.forests[1].cave == 2
    assert s.decision == "turn" and s.to_move == 0 and s.turn == 1
    check_state(s)


def test_no_mulligan_and_no_sapling() -> None:
    s = GameState.new(2, 4, game="dartmoor")
    while s.decision != "turn":
        act(s, legal(s)[0])
    assert not [a for a in legal(s) if a.startswith(("sapling", "mulligan", "keep"))]
    with pytest.raises(IllegalActionError, match="no saplings"):
        s.apply(Action("sapling", s.hands[s.current][0]))


# ------------------------------------------------------------------ the turn


def test_draw_two_one_at_nine_none_at_ten() -> None:
    pick = Picker("dartmoor")
    deck = _fillers(pick, 6)
    s = _dm([_fillers(pick, 8), _fillers(pick, 9)], deck)
    act(s, "draw")
    assert s.decision == "draw"
    act(s, "draw")
    assert len(s.hands[0]) == 10 and s.current == 1
    act(s, "draw")  # 9 cards: one only, the turn ends
    assert len(s.hands[1]) == 10 and s.current == 0
    assert "draw" not in legal(s)


def test_black_alder_play_reveals_a_card() -> None:
    """The rulebook's example: pay 2 into the clearing, then the top deck card."""
    pick = Picker("dartmoor")
    alder = pick.tree("Black Alder")
    pay = _fillers(pick, 2)
    top = _fillers(pick, 1)
    s = _dm([[alder, *pay], []], [*_fillers(pick, 3), *top])
    act(s, f"play {alder}", *(f"pay {c}" for c in sorted(pay)))
    assert sorted(s.clearing) == sorted([*pay, *top])
    assert s.forests[0].trees[0].species is not None


@pytest.mark.parametrize("host", ["Common Hazel", "Wet Woodland"])
def test_shrubs_and_moors_reveal_nothing(host: str) -> None:
    pick = Picker("dartmoor")
    cid = pick.tree(host)
    pay = _fillers(pick, 2)
    s = _dm([[cid, *pay], []], _fillers(pick, 3))
    act(s, f"play {cid}", *(f"pay {c}" for c in sorted(pay)))
    while s.decision == "option":
        act(s, "no")
    assert sorted(s.clearing) == sorted(pay)


def test_moor_has_two_top_two_bottom_slots_and_no_side_slots() -> None:
    pick = Picker("dartmoor")
    moor = pick.tree("Wet Woodland")
    d1, d2, d3 = (pick.half("Beautiful Demoiselle", "top")[0] for _ in range(3))
    heather = pick.half("Heather", "bottom")[0]
    vole = pick.half("Field Vole")[0]
    s = _dm([[d3, heather, vole], []], _fillers(pick, 3),
            forests=[[site(moor, top=[d1, d2])], []])
    moves = legal(s)
    assert f"play {d3} top 1" not in moves  # both top slots are taken
    assert f"play {heather} bottom 1" in moves
    assert not [m for m in moves if m.startswith(f"play {vole} ")]  # no side slots


def test_moor_only_species_go_only_to_moors() -> None:
    pick = Picker("dartmoor")
    oak = pick.tree("Sessile Oak")
    moor = pick.tree("Wet Woodland")
    curlew = pick.half("Curlew", "top")[0]
    s = _dm([[curlew, *_fillers(pick, 2)], []], _fillers(pick, 3),
            forests=[[site(oak), site(moor)], []])
    moves = legal(s)
    assert f"play {curlew} top 2" in moves and f"play {curlew} top 1" not in moves


def test_a_full_clearing_goes_to_the_discard_pile() -> None:
    pick = Picker("dartmoor")
    birch = pick.tree("Moor Birch")  # costs 0
    clearing = _fillers(pick, 9)
    s = _dm([[birch, *_fillers(pick, 2)], []], _fillers(pick, 4), clearing=clearing)
    box = len(s.box)
    act(s, f"play {birch}")
    while s.decision == "option":
        act(s, "no")
    assert s.clearing == [] and len(s.discard) == 10 and len(s.box) == box
    view = s.view(1).to_dict()
    assert sorted(view["discard"]) == sorted(s.discard)  # the discard pile is public
    assert s.locations()[clearing[0]] == "discard"
    assert GameState.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_stuck_turn_shows_the_hand_discards_two_and_draws_two() -> None:
    pick = Picker("dartmoor")
    hand = _fillers(pick, 10)  # split cards, no host in the forest: nothing to play
    deck = _fillers(pick, 4)
    s = _dm([_fillers(pick, 3), hand], deck, current=0)
    act(s, "draw", "draw")
    assert s.current == 1 and s.decision == "discard"
    assert s.known[1] == set(hand)  # the hand is shown
    act(s, f"discard {sorted(hand)[0]}", f"discard {sorted(hand)[1]}")
    assert len(s.hands[1]) == 10 and s.current == 0
    assert sorted(hand)[:2] == sorted(s.clearing)


# ------------------------------------------------------------------ bonus and permanents


def _lizard_play(second: str) -> GameState:
    pick = Picker("dartmoor")
    oak = pick.tree("Sessile Oak")
    lizard, _ = pick.half("Common Lizard", "bottom", symbol_is="Crab Apple")
    nuthatch, _ = pick.half("Nuthatch", symbol_is="Crab Apple")
    other = pick.tree(second)
    s = _dm([[lizard, nuthatch, other], []], _fillers(pick, 3),
            forests=[[site(oak)], []], clearing=_fillers(pick, 2))
    return act(s, f"play {lizard} bottom 1", *(f"pay {c}" for c in sorted([nuthatch, other])))


def test_common_lizard_bonus_when_every_paid_card_shows_crab_apple() -> None:
    """The rulebook's example: a Nuthatch and a Crab Apple pay for a Crab Apple Lizard."""
    s = _lizard_play("Crab Apple")
    assert s.decision == "option" and s.pending is not None
    assert s.pending.step is not None and s.pending.step[0] == "bonus"


def test_no_lizard_bonus_with_a_goat_willow() -> None:
    s = _lizard_play("Goat Willow")
    assert s.decision == "turn" and s.current == 1


def _tor_game(active: int) -> tuple[GameState, int, int]:
    pick = Picker("dartmoor")
    tor = pick.tree("Tor")
    pipit = pick.half("Meadow Pipit", "top")[0]
    s = _dm([[pipit, *_fillers(pick, 2)], _fillers(pick, 2)], _fillers(pick, 6),
            forests=[[site(tor)], []], active=[{"Tor": active}, {}])
    return s, pipit, tor


def test_permanents_act_from_the_next_turn() -> None:
    s, pipit, _ = _tor_game(active=0)  # Tor placed this turn
    act(s, f"play {pipit} top 1", *(f"pay {c}" for c in sorted(s.hands[0])[:1]))
    assert s.decision == "turn" and s.current == 1  # no draw offered
    s, pipit, _ = _tor_game(active=1)  # Tor placed on an earlier turn
    act(s, f"play {pipit} top 1", *(f"pay {c}" for c in sorted(s.hands[0])[:1]))
    assert s.decision == "option" and s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "mushroom" and s.pending.step[3] == "Tor"


def test_tor_counts_at_the_start_of_the_next_turn() -> None:
    pick = Picker("dartmoor")
    tor = pick.tree("Tor")
    pay = _fillers(pick, 2)
    s = _dm([[tor, *pay], _fillers(pick, 2)], _fillers(pick, 8))
    act(s, f"play {tor}", *(f"pay {c}" for c in sorted(pay)))
    assert s.active[0]["Tor"] == 0
    act(s, "draw", "draw")
    assert s.current == 0 and s.active[0]["Tor"] == 1


def test_free_plays_trigger_permanents() -> None:
    """A Blueberry's free bird fires the Tor."""
    pick = Picker("dartmoor")
    tor = pick.tree("Tor")
    oak = pick.tree("Sessile Oak")
    blueberry = pick.half("Blueberry", "bottom")[0]
    pipit = pick.half("Meadow Pipit", "top")[0]
    pay = _fillers(pick, 1)
    s = _dm([[blueberry, pipit, *pay], []], _fillers(pick, 6),
            forests=[[site(tor), site(oak)], []])
    act(s, f"play {blueberry} bottom 2", f"pay {pay[0]}")
    assert s.pending is not None and s.pending.step == ("effect", blueberry, "bottom",
                                                        "Blueberry")
    act(s, "yes", f"play {pipit} top 2")
    assert s.decision == "option" and s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "mushroom" and s.pending.step[3] == "Tor"


def _shrub_bonus_game(shrub: str, dweller: str, side: str,
                      older: int) -> tuple[GameState, int, int]:
    """A turn that plays ``shrub`` paid for with 2 cards of its symbol (its bonus: a free
    ``dweller`` from the hand), with ``older`` shrubs of that species already in the forest
    (active since the turn began)."""
    pick = Picker("dartmoor")
    shrub_id = pick.tree(shrub)
    olds = [pick.tree(shrub) for _ in range(older)]
    free = pick.half(dweller, side)[0]
    pay = pick.with_symbol(G.host_symbol[shrub_id], 2)
    s = _dm([[shrub_id, free, *pay], _fillers(pick, 2)], _fillers(pick, 8),
            forests=[[site(o) for o in olds], []])
    assert s.active[0][shrub] == older
    act(s, f"play {shrub_id}", *(f"pay {c}" for c in sorted(pay)))
    assert s.pending is not None and s.pending.step == ("bonus", shrub_id, "", shrub)
    act(s, "yes")
    assert s.decision == "free"
    return s, free, len(s.forests[0].trees)


@pytest.mark.parametrize("shrub, dweller, side", [
    ("Common Hazel", "Serotine Bat", "left"), ("Elderberry", "Heather", "bottom")])
@pytest.mark.parametrize("older", [0, 1])
def test_a_shrubs_permanent_acts_at_once_for_the_card_its_bonus_places(
        shrub: str, dweller: str, side: str, older: int) -> None:
    """The rulebook: a permanent is used "for the rest of the game from now on"; the
    Hazel's and the Elderberry's bonus texts: the card they place "does trigger the
    permanent effect". The new shrub draws too, the older ones as before."""
    s, free, n_hosts = _shrub_bonus_game(shrub, dweller, side, older)
    assert s.active[0][shrub] == older + 1
    act(s, f"play {free} {side} {n_hosts}")
    draw = ("mushroom", free, side, shrub)
    assert s.pending is not None and s.pending.step == draw
    draws = 1 + s.queue.count(draw)
    assert draws == older + 1
    hand = len(s.hands[0])
    for _ in range(draws):
        act(s, "yes")
    assert len(s.hands[0]) == hand + draws
    check_state(s)


@pytest.mark.parametrize("host, acts_now", [
    ("Common Hazel", True), ("Elderberry", True), ("Tor", False), ("Fountainhead", False)])
def test_shrubs_act_from_their_placement_moors_from_the_next_turn(host: str,
                                                                 acts_now: bool) -> None:
    """The seed's "dès votre prochain tour" is said of moors; shrubs act at once."""
    pick = Picker("dartmoor")
    cid = pick.tree(host)
    pay = _fillers(pick, CAT.species[host].cost)
    s = _dm([[cid, *pay], _fillers(pick, 2)], _fillers(pick, 8))
    act(s, f"play {cid}", *(f"pay {c}" for c in sorted(pay)))
    while s.current == 0 and s.decision == "option":
        act(s, "no")
    # the turn is over: the count stays until the owner's next turn counts the forest
    assert s.active[0][host] == int(acts_now)
    act(s, "draw", "draw")
    assert s.current == 0 and s.active[0][host] == 1


# ------------------------------------------------------------------ the new ops


def _play_effect(host: str, species: str, side: str, hand_extra: list[int],
                 pick: Picker, **kw: Any) -> tuple[GameState, int]:
    h = pick.tree(host)
    cid = pick.half(species, side)[0]
    cost = CAT.species[species].cost
    pay = _fillers(pick, cost)
    forests = kw.pop("forests", [[site(h)], []])
    s = _dm([[cid, *pay, *hand_extra], _fillers(pick, 2)], _fillers(pick, 6),
            forests=forests, **kw)
    act(s, f"play {cid} {side} 1", *(f"pay {c}" for c in sorted(pay)))
    return s, cid


def test_free_play_from_the_clearing() -> None:
    """Daubenton's Bat: an insect from the clearing, free."""
    pick = Picker("dartmoor")
    oak = pick.tree("Sessile Oak")
    fly = pick.half("Lake Fly")[0]  # an insect (left or right)
    s, _ = _play_effect("Crab Apple", "Daubenton's Bat", "left", [], pick,
                        forests=[[site(pick.tree("Crab Apple")), site(oak)], []],
                        clearing=[fly])
    while s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    act(s, "yes")
    assert s.decision == "free"
    moves = [m for m in legal(s) if m != "done"]
    assert moves and all(m.startswith(f"play {fly} ") for m in moves)
    act(s, moves[0])
    assert fly not in s.clearing and fly in s.forests[0].card_ids()


def test_free_play_with_effect_uses_the_effect() -> None:
    """Lake Fly: a bat from the hand, free, with its effect (Serotine Bat: take a card)."""
    pick = Picker("dartmoor")
    bat, bat_side = pick.half("Serotine Bat")
    s, _ = _play_effect("Sessile Oak", "Lake Fly", "left", [bat], pick,
                        clearing=_fillers(pick, 1))
    if s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    act(s, "yes")
    other = "right" if s.forests[0].trees[0].slots["left"] else "left"
    assert s.decision == "free"
    act(s, f"play {bat} {other} 1")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step == ("effect", bat, other, "Serotine Bat")


def test_universal_moor_and_moor_placed() -> None:
    """Goat Willow's bonus puts a hand card face down; an active Fountainhead draws."""
    pick = Picker("dartmoor")
    fountain = pick.tree("Fountainhead")
    willow = pick.tree("Goat Willow")
    pay = [pick.half("Field Vole", symbol_is=None)[0]]
    while "Goat Willow" not in CAT.card(pay[0]).symbols:
        pay = [c.id for c in CAT.cards if c is not None and not c.is_host and not c.is_winter
               and c.id not in pick.used and "Goat Willow" in c.symbols][:1]
    pick.used.update(pay)
    face_down = _fillers(pick, 1)[0]
    s = _dm([[willow, *pay, face_down], []], _fillers(pick, 6),
            forests=[[site(fountain)], []])
    act(s, f"play {willow}", f"pay {pay[0]}", "yes")
    assert s.decision == "universal moor"
    act(s, f"moor {face_down}")
    t = s.forests[0].trees[-1]
    assert t.kind == "universal moor" and t.card == face_down and t.species is None
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[3] == "Fountainhead"
    assert s.view(1).forests[0].trees[-1].card is None  # face down to the others
    assert GameState.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_beaver_caves_the_trees_of_the_clearing_not_its_shrubs() -> None:
    """Beaver: "every tree card of the clearing"; a shrub is no tree and stays."""
    pick = Picker("dartmoor")
    ash, hazel, elder = pick.tree("Ash"), pick.tree("Common Hazel"), pick.tree("Elderberry")
    split = _fillers(pick, 1)
    s, _ = _play_effect("Sessile Oak", "Beaver", "bottom", [], pick,
                        clearing=[ash, hazel, elder, *split])
    while s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    act(s, "yes")
    assert s.caves[0] == [ash]
    assert {hazel, elder, *split} <= set(s.clearing) and ash not in s.clearing


def test_cuckoo_goes_atop_a_shrub_holding_a_bird() -> None:
    """Cuckoo: "the top slot of a tree or shrub that already holds a bird"."""
    pick = Picker("dartmoor")
    hazel, elder = pick.tree("Common Hazel"), pick.tree("Elderberry")
    owl = pick.half("Barn Owl", "top")[0]
    cuckoo = pick.half("Cuckoo", "top")[0]
    s = _dm([[cuckoo, *_fillers(pick, 2)], []], _fillers(pick, 3),
            forests=[[site(hazel, top=[owl]), site(elder)], []])
    assert [m for m in legal(s) if m.startswith(f"play {cuckoo} top ")] == [f"play {cuckoo} top 1"]


def test_deck_to_cave() -> None:
    """Brandt's Bat: 2 deck cards under the cave."""
    pick = Picker("dartmoor")
    s, _ = _play_effect("Sessile Oak", "Brandt's Bat", "left", [], pick)
    while s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    deck = len(s.deck)
    act(s, "yes")
    assert len(s.caves[0]) == 2 and len(s.deck) == deck - 2 and s.forests[0].cave == 2


def test_deck_to_cave_per_moor() -> None:
    """Wheatear: one deck card under the cave per moor (a universal moor included)."""
    pick = Picker("dartmoor")
    moor = pick.tree("Wet Woodland")
    face_down = _fillers(pick, 1)[0]
    s, _ = _play_effect("Sessile Oak", "Wheatear", "top", [], pick,
                        forests=[[site(pick.tree("Sessile Oak")), site(moor),
                                  site(face_down, sapling=True)], []])
    while s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    act(s, "yes")
    assert len(s.caves[0]) == 2


def test_badger_lets_rabbits_share_and_rabbit_plays_rabbits() -> None:
    pick = Picker("dartmoor")
    oak = pick.tree("Sessile Oak")
    badger, bside = pick.half("Dartmoor Badger")
    rabbits = [pick.half("Dartmoor Black Rabbit", bside) for _ in range(3)]
    first, fside = rabbits[0]
    s = _dm([[c for c, _ in rabbits], []], _fillers(pick, 6),
            forests=[[site(oak, **{bside: [badger]})], []])
    moves = legal(s)
    # the rabbit may join the badger's occupied slot
    assert f"play {first} {bside} 1" in moves
    act(s, f"play {first} {fside} 1")
    while s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    assert s.pending is not None and s.pending.step is not None
    act(s, "yes")
    assert s.decision == "free"
    rest = [m for m in legal(s) if m != "done"]
    assert {int(m.split()[1]) for m in rest} == {c for c, _ in rabbits[1:]}


def test_deck_to_cave_reveals_the_third_winter_and_ends_the_game() -> None:
    pick = Picker("dartmoor")
    w1, w2, w3 = G.winter_ids
    h = pick.tree("Sessile Oak")
    bat = pick.half("Brandt's Bat", "left")[0]
    pay = _fillers(pick, 1)
    s = _dm([[bat, *pay], []], [*_fillers(pick, 3), w3], winter=[w1, w2],
            forests=[[site(h)], []])
    act(s, f"play {bat} left 1", f"pay {pay[0]}")
    while s.pending is not None and s.pending.step is not None and s.pending.step[0] != "effect":
        act(s, "no")
    act(s, "yes")
    assert s.over and s.winter == [w1, w2, w3] and s.caves[0] == []


def test_free_play_one_of_two_types() -> None:
    """Bog Asphodel's bonus (reading: a plant or an amphibian) from the hand."""
    pick = Picker("dartmoor")
    moor = pick.tree("Wet Woodland")
    oak = pick.tree("Sessile Oak")
    asphodel, _ = pick.half("Bog Asphodel", "bottom")
    adder = pick.half("Adder", "bottom")[0]
    heather = pick.half("Heather", "bottom")[0]
    sym = CAT.card(asphodel).halves["bottom"].symbol
    pay = [c.id for c in CAT.cards if c is not None and not c.is_host and not c.is_winter
           and c.id not in pick.used and sym in c.symbols
           and not any(h.species.permanent for h in c.halves.values())][:1]
    pick.used.update(pay)
    s = _dm([[asphodel, adder, heather, *pay], []], _fillers(pick, 6),
            forests=[[site(moor), site(oak)], []])
    act(s, f"play {asphodel} bottom 1", f"pay {pay[0]}")
    assert s.pending is not None and s.pending.step == ("bonus", asphodel, "bottom",
                                                        "Bog Asphodel")
    act(s, "yes")
    assert s.decision == "free" and s.pending is not None
    assert s.pending.tag == "plant|amphibian"
    cards = {int(m.split()[1]) for m in legal(s) if m != "done"}
    assert cards == {adder, heather}
    check_state(s)
    assert GameState.from_dict(s.to_dict()).legal_actions() == s.legal_actions()


def test_draw_or_take_op() -> None:
    """``draw_or_take`` (the rulebook's "1 (from the clearing)" icon; no species uses it)."""
    from forest_shuffle.cards.model import Effect

    pick = Picker("dartmoor")
    there = _fillers(pick, 1)
    s = _dm([_fillers(pick, 2), []], _fillers(pick, 4), clearing=there)
    s.stack.pop()
    s._run(0, Effect("draw_or_take", {"n": 2}))
    s._legal = None
    assert legal(s) == ["draw", f"take {there[0]}"]
    act(s, f"take {there[0]}")
    assert s.decision == "draw or take" and there[0] in s.hands[0]
    act(s, "draw")
    assert len(s.hands[0]) == 4


def test_a_universal_moor_stays_hidden_in_queued_steps() -> None:
    """The Fountainhead draw a face-down card fires names no card to the others."""
    pick = Picker("dartmoor")
    fountain = pick.tree("Fountainhead")
    face_down = _fillers(pick, 1)[0]
    s = _dm([[face_down, *_fillers(pick, 2)], _fillers(pick, 2)], _fillers(pick, 6),
            forests=[[site(fountain)], []])
    s.stack.pop()
    s._run(0, CAT.species["Goat Willow"].bonus)  # type: ignore[arg-type]
    s._legal = None
    act(s, f"moor {face_down}")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[1] == face_down
    other = s.view(1)
    assert other.pending is not None and other.pending.card == 0
    assert all(d.step is None or d.step[1] != face_down for d in other.decisions)
    assert s.view(0).pending is not None and s.view(0).pending.card == face_down
