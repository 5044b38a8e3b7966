"""Scenario tests: one per rule of the specification and per answered players' question.

Sources: the rules (seeds/000), the rules overview with its Q&A (seeds/002), the rule notes
and the official appendix, plus the intended readings built into the engine (rules.py).
"""

from __future__ import annotations

import pytest
from scenario import (
    ALL_IDS,
    CATALOG,
    REMOVED_AT_SETUP,
    WINTER,
    Picker,
    act,
    build,
    check_places,
    halves_of,
    legal,
    site,
    symbol,
)

from forest_shuffle.engine.actions import Action, ActionParseError, IllegalActionError
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import GameState

# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2, 17, 99])
def test_setup_boxes_cards_and_deals_six(players: int, seed: int) -> None:
    s = GameState.new(players, seed)
    assert len(s.box) == {2: 30, 3: 20, 4: 10, 5: 0}[players] == REMOVED_AT_SETUP[players]
    assert all(len(h) == 6 for h in s.hands)
    assert s.clearing == [] and s.winter == []
    assert all(f.trees == [] and f.cave == 0 for f in s.forests)
    assert len(s.deck) == 161 - len(s.box) - 6 * players
    assert not any(CATALOG.card(c).is_winter for c in s.box)
    check_places(s)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(8))
def test_first_winter_card_starts_the_last_third(players: int, seed: int) -> None:
    s = GameState.new(players, seed)
    rest = 158 - REMOVED_AT_SETUP[players]  # cards in the three piles, winter not counted
    from_top = s.deck[::-1]
    winters = [i for i, c in enumerate(from_top) if CATALOG.card(c).is_winter]
    assert len(winters) == 3
    above = winters[0] + 6 * players  # cards above the first winter card, the deal included
    # The two upper piles lie above it: no earlier than the last third, and exactly there.
    assert above >= 2 * rest / 3
    assert above == rest - rest // 3
    # The two other winter cards are shuffled into the pile below it.
    assert winters[1] > winters[0] and winters[2] > winters[1]
    assert len(from_top) - winters[0] - 1 == rest // 3 + 2


def _seed_with_mulligan(players: int) -> int:
    for seed in range(500):
        if GameState.new(players, seed).decision == "mulligan":
            return seed
    raise AssertionError("no seed with a treeless hand")


def test_mulligan_offered_only_for_a_hand_without_tree_in_seat_order() -> None:
    for seed in range(60):
        s = GameState.new(4, seed, first_player=2)
        treeless = [p for p in (2, 3, 0, 1)
                    if not any(CATALOG.card(c).is_tree for c in s.hands[p])]
        asked = []
        while s.decision == "mulligan":
            p = s.to_move
            assert p is not None
            assert not any(CATALOG.card(c).is_tree for c in s.hands[p])
            asked.append(p)
            act(s, "keep")
        assert asked == treeless
        assert s.decision == "turn" and s.to_move == 2


def test_mulligan_returns_six_to_the_box_and_draws_six_once() -> None:
    seed = _seed_with_mulligan(2)
    s = GameState.new(2, seed)
    p = s.to_move
    assert p is not None
    assert legal(s) == ["keep", "mulligan"]
    old = s.hands[p][:]
    box = len(s.box)
    top6 = s.deck[-6:]
    act(s, "mulligan")
    assert sorted(s.hands[p]) == sorted(top6)
    assert set(old) <= set(s.box) and len(s.box) == box + 6
    # never offered to the same player again, even if the new hand has no tree either
    assert all(pend.player != p for pend in s.stack if pend.kind == "mulligan")
    while s.decision == "mulligan":
        assert s.to_move != p
        act(s, "keep")
    assert s.decision == "turn"
    check_places(s)


def test_mulligan_not_repeated_when_new_hand_is_treeless() -> None:
    for seed in range(3000):
        s = GameState.new(2, seed)
        if s.decision != "mulligan":
            continue
        p = s.to_move
        assert p is not None
        if any(CATALOG.card(c).is_tree for c in s.deck[-6:]):
            continue
        act(s, "mulligan")
        assert not (s.decision == "mulligan" and s.to_move == p)
        return
    pytest.skip("no seed with two treeless hands in a row")


def test_keep_keeps_the_hand() -> None:
    s = GameState.new(2, _seed_with_mulligan(2))
    p = s.to_move
    assert p is not None
    hand = s.hands[p][:]
    act(s, "keep")
    assert s.hands[p] == hand


def test_first_player_starts_and_play_goes_clockwise() -> None:
    pk = Picker()
    deck = pk.fillers(12)
    s = build([[], [], []], deck, current=1)
    assert s.to_move == 1
    act(s, "draw", "draw")
    assert s.to_move == 2
    act(s, "draw", "draw")
    assert s.to_move == 0


# ----------------------------------------------------------------------------- drawing


def test_draw_two_one_at_a_time_from_the_deck() -> None:
    pk = Picker()
    deck = pk.fillers(5)
    s = build([[], []], deck)
    act(s, "draw")
    assert s.hands[0] == [deck[-1]] and s.decision == "draw" and s.to_move == 0
    act(s, "draw")
    assert s.hands[0] == [deck[-1], deck[-2]] and s.to_move == 1


def test_both_cards_may_come_from_the_clearing() -> None:
    pk = Picker()
    deck, clearing = pk.fillers(3), pk.fillers(4)
    s = build([[], []], deck, clearing=clearing)
    assert f"take {clearing[2]}" in legal(s)
    act(s, f"take {clearing[2]}", f"take {clearing[0]}")
    assert s.hands[0] == [clearing[2], clearing[0]]
    assert s.clearing == [clearing[1], clearing[3]] and s.deck == deck
    assert s.known[0] == {clearing[2], clearing[0]}
    assert s.to_move == 1


@pytest.mark.parametrize("order", [("draw", "take"), ("take", "draw")])
def test_mixed_sources(order: tuple[str, str]) -> None:
    pk = Picker()
    deck, clearing = pk.fillers(3), pk.fillers(2)
    s = build([[], []], deck, clearing=clearing)
    texts = ["draw" if o == "draw" else f"take {clearing[0]}" for o in order]
    act(s, *texts)
    assert sorted(s.hands[0]) == sorted([deck[-1], clearing[0]])


def test_empty_clearing_draws_from_deck_only() -> None:
    pk = Picker()
    s = build([[], []], pk.fillers(3))
    assert "draw" in legal(s) and not any(a.startswith("take") for a in legal(s))


def test_hand_of_nine_draws_only_one() -> None:
    pk = Picker()
    hand, deck, clearing = pk.fillers(9), pk.fillers(3), pk.fillers(2)
    for first in ("draw", f"take {clearing[0]}"):
        s = build([hand, []], deck, clearing=clearing)
        act(s, first)
        assert len(s.hands[0]) == 10
        assert s.to_move == 1 and s.decision == "turn"


def test_hand_of_ten_cannot_draw() -> None:
    pk = Picker()
    hand, deck, clearing = pk.fillers(10), pk.fillers(3), pk.fillers(2)
    s = build([hand, []], deck, clearing=clearing)
    assert "draw" not in legal(s) and not any(a.startswith("take") for a in legal(s))
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        act(s, "draw")
    with pytest.raises(IllegalActionError):
        act(s, f"take {clearing[0]}")
    assert s.to_dict() == before
    assert any(a.startswith("sapling") for a in legal(s))


def test_drawn_winter_card_is_laid_aside_and_replaced() -> None:
    pk = Picker()
    deck = pk.fillers(3)
    s = build([[], []], [*deck, WINTER[0]])
    act(s, "draw")
    assert s.winter == [WINTER[0]]
    assert s.hands[0] == [deck[-1]]
    assert WINTER[0] not in s.clearing
    act(s, "draw")
    assert s.hands[0] == [deck[-1], deck[-2]]
    check_places(s)


def test_two_winter_cards_in_a_row_are_both_replaced() -> None:
    pk = Picker()
    deck = pk.fillers(3)
    s = build([[], []], [*deck, WINTER[0], WINTER[1]])
    act(s, "draw")
    assert s.winter == [WINTER[1], WINTER[0]] and s.hands[0] == [deck[-1]] and not s.over


def test_tree_revealing_a_winter_card_draws_a_replacement_into_the_clearing() -> None:
    pk = Picker()
    linden = pk.tree("Linden")
    deck = pk.fillers(3)
    s = build([[linden, *pk.fillers(2)], []], [*deck, WINTER[0]])
    act(s, f"play {linden}", "pay " + str(min(s.hands[0][1:])))
    assert s.winter == [WINTER[0]]
    assert deck[-1] in s.clearing and WINTER[0] not in s.clearing
    assert not s.over and s.to_move == 1


def test_winter_card_in_the_clearing_check_is_not_counted() -> None:
    pk = Picker()
    linden = pk.tree("Linden")
    pay = pk.fillers(1)
    clearing = pk.fillers(8)
    deck = pk.fillers(2)
    s = build([[linden, *pay], []], [*deck, WINTER[0]], clearing=clearing)
    act(s, f"play {linden}", f"pay {pay[0]}")
    # 8 + 1 payment + 1 revealed card = 10: emptied; the winter card stays aside
    assert s.clearing == [] and s.winter == [WINTER[0]] and WINTER[0] not in s.box


# ----------------------------------------------------------------------------- end of game


def test_third_winter_card_drawn_ends_the_game_at_once() -> None:
    pk = Picker()
    deck = pk.fillers(3)
    s = build([[], []], [*deck, WINTER[2]], winter=WINTER[:2])
    act(s, "draw")
    assert s.over and s.to_move is None and s.decision is None and s.pending is None
    assert s.legal_actions() == [] and s.stack == [] and s.queue == []
    assert s.hands[0] == []  # no replacement, no second draw
    assert s.winter == [WINTER[0], WINTER[1], WINTER[2]]
    with pytest.raises(IllegalActionError) as err:
        act(s, "draw")
    assert "over" in err.value.reason
    check_places(s)
    assert len(s.scores()) == 2


def test_third_winter_revealed_by_a_tree_ends_the_turn_unplayed() -> None:
    pk = Picker()
    birch, beech = pk.tree("Birch"), pk.tree("Beech")
    deck = pk.fillers(3)
    s = build([[birch, beech], []], [*deck, WINTER[2]], winter=WINTER[:2])
    act(s, f"play {birch}")
    assert s.over and s.pending is None
    assert [t.card for t in s.forests[0].trees] == [birch]  # played, but its effect is not
    assert s.hands[0] == [beech] and s.clearing == []
    assert s.to_move is None and s.legal_actions() == []
    check_places(s)


def test_third_winter_from_an_effect_draw_ends_the_game() -> None:
    pk = Picker()
    beech = pk.tree("Beech")
    pay = pk.fillers(1)
    deck = pk.fillers(2)
    s = build([[beech, *pay], []], [*deck, WINTER[2], pk.fillers(1)[0]], winter=WINTER[:2])
    act(s, f"play {beech}", f"pay {pay[0]}")
    assert s.decision == "option"
    act(s, "yes")
    assert s.over and s.pending is None and len(s.hands[0]) == 0


def test_third_winter_from_a_tree_played_through_the_mole_ends_the_game() -> None:
    """Regression: this used to raise IndexError (the stack was cleared mid-Mole)."""
    pk = Picker()
    oak = pk.tree("Oak")
    mole, side = pk.half("Mole", "bottom")
    birch = pk.tree("Birch")
    pay = pk.fillers(4)
    s = build([[mole, birch, *pay], []], [WINTER[1], WINTER[2]], winter=WINTER[:1],
              forests=[[site(oak)], []])
    act(s, f"play {mole} bottom 1", f"pay {pay[0]}", f"pay {pay[1]}", "yes")
    assert s.decision == "mole"
    act(s, f"play {birch}")
    assert s.over and s.pending is None and s.legal_actions() == []
    check_places(s)


def test_winners_share_a_tie() -> None:
    pk = Picker()
    d1, d2 = pk.tree("Douglas Fir"), pk.tree("Douglas Fir")
    s = build([[], [], []], pk.fillers(2),
              forests=[[site(d1)], [site(d2)], []])
    assert s.scores() == [5, 5, 0]
    assert s.winners() == [0, 1]


# ----------------------------------------------------------------------------- clearing


def test_nine_in_clearing_plus_payment_of_three_all_go_to_the_box() -> None:
    pk = Picker()
    wolf, side = pk.half("Wolf")
    clearing = pk.fillers(9)
    pay = pk.fillers(3, avoid_symbol=symbol(wolf, side))
    oak = pk.tree("Oak")
    s = build([[wolf, *pay], []], pk.fillers(3), clearing=clearing,
              forests=[[site(oak)], []])
    act(s, f"play {wolf} {side} 1", *(f"pay {c}" for c in sorted(pay)))
    assert s.clearing == []
    assert set(clearing) | set(pay) <= set(s.box)
    assert s.to_move == 1
    check_places(s)


def test_clearing_under_ten_stays() -> None:
    pk = Picker()
    wolf, side = pk.half("Wolf")
    clearing = pk.fillers(6)
    pay = pk.fillers(3, avoid_symbol=symbol(wolf, side))
    oak = pk.tree("Oak")
    s = build([[wolf, *pay], []], pk.fillers(3), clearing=clearing,
              forests=[[site(oak)], []])
    act(s, f"play {wolf} {side} 1", *(f"pay {c}" for c in sorted(pay)))
    assert s.clearing == [*clearing, *sorted(pay)]


def test_payment_goes_face_up_into_the_clearing_as_it_is_paid() -> None:
    pk = Picker()
    wolf, side = pk.half("Wolf")
    pay = sorted(pk.fillers(3))
    oak = pk.tree("Oak")
    s = build([[wolf, *pay], []], pk.fillers(3), forests=[[site(oak)], []])
    act(s, f"play {wolf} {side} 1")
    assert s.decision == "pay" and s.locations()[wolf] == "in play"
    act(s, f"pay {pay[0]}")
    assert s.clearing == [pay[0]]
    assert s.view(1).to_dict()["pending"]["paid"] == [pay[0]]
    check_places(s)


def test_clearing_check_runs_at_the_end_of_an_extra_turn() -> None:
    pk = Picker()
    jay, side = pk.half("Eurasian Jay", "top")
    oak = pk.tree("Oak")
    wolf, wside = pk.half("Wolf")
    pay1 = pk.fillers(1, avoid_symbol=symbol(jay, side))
    pay2 = pk.fillers(3, avoid_symbol=symbol(wolf, wside))
    clearing = pk.fillers(8)
    s = build([[jay, wolf, *pay1, *pay2], []], pk.fillers(3), clearing=clearing,
              forests=[[site(oak)], []])
    act(s, f"play {jay} top 1", f"pay {pay1[0]}", "yes")
    # 9 cards: the clearing stays at the end of the first turn
    assert len(s.clearing) == 9 and s.to_move == 0 and s.decision == "turn"
    act(s, f"play {wolf} {wside} 1", *(f"pay {c}" for c in sorted(pay2)))
    assert s.clearing == [] and s.to_move == 1


def test_clearing_check_after_a_draw_turn_leaves_small_clearing() -> None:
    pk = Picker()
    clearing = pk.fillers(9)
    s = build([[], []], pk.fillers(3), clearing=clearing)
    act(s, "draw", "draw")
    assert s.clearing == clearing


# ----------------------------------------------------------------------------- playing


def test_play_needs_enough_other_cards() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    one = pk.fillers(1)
    s = build([[oak, *one], []], pk.fillers(3))
    assert f"play {oak}" not in legal(s)
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as err:
        act(s, f"play {oak}")
    assert "costs 2" in err.value.reason
    assert s.to_dict() == before


def test_tree_turns_top_deck_card_into_the_clearing() -> None:
    pk = Picker()
    linden = pk.tree("Linden")
    pay = pk.fillers(1)
    deck = pk.fillers(3)
    s = build([[linden, *pay], []], deck)
    act(s, f"play {linden}", f"pay {pay[0]}")
    assert s.clearing == [pay[0], deck[-1]]
    assert s.forests[0].trees[0].species is not None
    assert s.forests[0].trees[0].species.name == "Linden"


def test_split_card_goes_only_into_a_free_slot_on_its_side() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    hare, hside = pk.half("European Hare", "left")
    lynx, lside = pk.half("Lynx")
    squirrel, sside = pk.half("Red Squirrel", "top")
    s = build([[lynx, squirrel, *pk.fillers(3)], []], pk.fillers(3),
              forests=[[site(oak, left=[hare] if lside == "left" else [],
                             right=[hare] if lside == "right" else [])], []])
    # the Lynx's side is taken (by a hare): no play of the Lynx there
    assert not any(a.startswith(f"play {lynx} {lside}") for a in legal(s))
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as err:
        act(s, f"play {lynx} {lside} 1")
    assert "taken" in err.value.reason
    assert s.to_dict() == before
    # a top card never goes to another side; its other half is bottom
    assert f"play {squirrel} top 1" in legal(s)
    with pytest.raises(IllegalActionError) as err:
        act(s, f"play {squirrel} left 1")
    assert "no left half" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        act(s, f"play {squirrel} top 2")
    assert "no tree 2" in err.value.reason
    assert s.to_dict() == before


def test_dweller_needs_a_tree() -> None:
    pk = Picker()
    lynx, side = pk.half("Lynx")
    s = build([[lynx, *pk.fillers(2)], []], pk.fillers(3))
    assert not any(a.startswith(f"play {lynx}") for a in legal(s))


def test_hidden_half_is_ignored() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    # European Hare / Red Fox: the hare half shows, the Red Fox half (with its effect) hides
    card = next(c for c, s in halves_of("Red Fox") if s == "right"
                and CATALOG.card(c).halves["left"].species.name == "European Hare")
    pk.used.add(card)
    s = build([[card], []], pk.fillers(3), forests=[[site(oak, left=[])], []])
    act(s, f"play {card} left 1")
    d = s.forests[0].trees[0].slots["left"][0]
    assert d.species.name == "European Hare" and d.symbol == symbol(card, "left")
    assert s.to_move == 1  # no Red Fox effect offered
    # placed on the left: the right slot stays free
    assert s.forests[0].trees[0].slots["right"] == []


# ----------------------------------------------------------------------------- saplings


def test_any_card_may_be_a_sapling_at_no_cost() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    wolf, _ = pk.half("Wolf")
    deck = pk.fillers(3)
    s = build([[oak, wolf], []], deck)
    assert f"sapling {oak}" in legal(s) and f"sapling {wolf}" in legal(s)
    act(s, f"sapling {wolf}")
    t = s.forests[0].trees[0]
    assert t.is_sapling and t.species is None and t.card == wolf
    assert s.hands[0] == [oak]
    assert s.clearing == [deck[-1]]  # Rules.sapling_reveals_card
    assert s.to_move == 1
    check_places(s)


def test_sapling_reveal_is_a_setting() -> None:
    pk = Picker()
    c = pk.fillers(1)[0]
    deck = pk.fillers(3)
    s = build([[c], []], deck, rules=Rules(sapling_reveals_card=False))
    act(s, f"sapling {c}")
    assert s.clearing == [] and s.deck == deck


def test_sapling_accepts_dwellers_on_all_sides() -> None:
    pk = Picker()
    sap = pk.fillers(1)[0]
    squirrel, _ = pk.half("Red Squirrel", "top")
    hare, hside = pk.half("European Hare")
    toad, _ = pk.half("Common Toad", "bottom")
    s = build([[squirrel, hare, toad], []], pk.fillers(6),
              forests=[[site(sap, sapling=True)], []])
    for text in (f"play {squirrel} top 1", "draw", f"play {hare} {hside} 1", "draw",
                 f"play {toad} bottom 1"):
        if text == "draw":
            act(s, "draw", "draw")  # the other player's turn
            continue
        act(s, text)
    t = s.forests[0].trees[0]
    assert t.slots["top"][0].card == squirrel
    assert t.slots[hside][0].card == hare and t.slots["bottom"][0].card == toad


def test_saplings_are_no_tree_species_but_count_as_trees() -> None:
    pk = Picker()
    species = ["Linden", "Oak", "Silver Fir", "Birch", "Beech", "Sycamore", "Douglas Fir"]
    trees = [site(pk.tree(sp)) for sp in species]
    sap = site(pk.fillers(1)[0], sapling=True)
    # 7 species + a sapling: Oak scores nothing (not all 8 species)
    s = build([[], []], pk.fillers(2), forests=[[*trees, sap], []])
    # Linden 3 (most), Oak 0, Silver Fir 0, Birch 1, Beech 0, Sycamore 8 (7 trees + sapling),
    # Douglas Fir 5
    assert s.scores()[0] == 3 + 0 + 0 + 1 + 0 + 8 + 5
    # the Linden majority ignores saplings: a forest of saplings does not beat one Linden
    pk2 = Picker()
    lin = pk2.tree("Linden")
    saps = [site(c, sapling=True) for c in pk2.fillers(3)]
    s2 = build([[], []], pk2.fillers(2), forests=[[site(lin)], saps])
    assert s2.scores() == [3, 0]


# ----------------------------------------------------------------------------- effect, bonus


def _owl_state(matching: int) -> tuple[GameState, list[int], list[int]]:
    pk = Picker()
    oak = pk.tree("Oak")
    owl, side = pk.half("Tawny Owl", "top")
    sym = symbol(owl, side)
    pay = pk.with_symbol(sym, matching) + pk.fillers(2 - matching, avoid_symbol=sym)
    deck = pk.fillers(6)
    s = build([[owl, *pay], []], deck, forests=[[site(oak)], []])
    act(s, f"play {owl} top 1", *(f"pay {c}" for c in sorted(pay)))
    return s, pay, deck


def test_effect_then_bonus_each_optional() -> None:
    s, _, deck = _owl_state(2)
    v = s.view(0).pending
    assert v is not None and v.step == "effect" and v.species == "Tawny Owl"
    act(s, "no")
    v = s.view(0).pending
    assert v is not None and v.step == "bonus"
    act(s, "yes")
    assert s.hands[0] == [deck[-1], deck[-2]] and s.to_move == 1


def test_effect_and_bonus_both_taken() -> None:
    s, _, deck = _owl_state(2)
    act(s, "yes", "yes")
    assert s.hands[0] == deck[::-1][:3]


def test_partly_matching_payment_gives_no_bonus() -> None:
    s, _, deck = _owl_state(1)
    v = s.view(0).pending
    assert v is not None and v.step == "effect"
    act(s, "yes")
    assert s.to_move == 1 and s.hands[0] == [deck[-1]]


def test_split_card_in_payment_counts_if_either_half_shows_the_symbol() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    owl, side = pk.half("Tawny Owl", "top")
    sym = symbol(owl, side)
    # cards whose *other* half (not the first) shows the symbol
    pay = [c.id for c in CATALOG.cards if c is not None and not c.is_tree and not c.is_winter
           and c.id not in pk.used and sym in c.symbols
           and next(iter(c.halves.values())).symbol != sym][:2]
    assert len(pay) == 2
    pk.used.update(pay)
    s = build([[owl, *pay], []], pk.fillers(6), forests=[[site(oak)], []])
    act(s, f"play {owl} top 1", *(f"pay {c}" for c in sorted(pay)), "no")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "bonus"


def test_tree_bonus_needs_payment_of_its_species() -> None:
    pk = Picker()
    oak, oak2, oak3 = pk.tree("Oak"), pk.tree("Oak"), pk.tree("Oak")
    s = build([[oak, oak2, oak3], []], pk.fillers(4))
    act(s, f"play {oak}", f"pay {oak2}", f"pay {oak3}")
    assert s.pending is not None and s.pending.step == ("bonus", oak, "", "Oak")
    pk2 = Picker()
    o, o2, b = pk2.tree("Oak"), pk2.tree("Oak"), pk2.tree("Birch")
    s2 = build([[o, o2, b], []], pk2.fillers(4))
    act(s2, f"play {o}", *(f"pay {c}" for c in sorted([o2, b])))
    assert s2.to_move == 1


def test_payment_is_chosen_in_ascending_card_order() -> None:
    pk = Picker()
    wolf, side = pk.half("Wolf")
    oak = pk.tree("Oak")
    pay = sorted(pk.fillers(5))
    s = build([[wolf, *pay], []], pk.fillers(3), forests=[[site(oak)], []])
    act(s, f"play {wolf} {side} 1")
    # with 3 to pay from 5 cards, the first may be any of the 3 lowest
    assert legal(s) == [f"pay {c}" for c in pay[:3]]
    act(s, f"pay {pay[1]}")
    assert legal(s) == [f"pay {c}" for c in pay[2:4]]
    with pytest.raises(IllegalActionError) as err:
        act(s, f"pay {pay[0]}")
    assert "ascending" in err.value.reason


# ----------------------------------------------------------------------------- mushrooms


def test_mushroom_works_from_the_next_turn_on() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    parasol, _ = pk.half("Parasol Mushroom", "bottom")
    sap = pk.fillers(1)[0]
    toad, _ = pk.half("Common Toad", "bottom")
    pay = pk.fillers(2)
    deck = pk.fillers(8)
    s = build([[parasol, sap, toad, *pay], []], deck, forests=[[site(oak)], []])
    act(s, f"play {parasol} bottom 1", *(f"pay {c}" for c in sorted(pay)))
    assert s.to_move == 1  # the Parasol does not trigger on its own placement
    act(s, "draw", "draw")
    act(s, f"sapling {sap}")  # tree 2
    act(s, "draw", "draw")
    act(s, f"play {toad} bottom 2")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "mushroom" and s.pending.step[3] == "Parasol Mushroom"
    n = len(s.hands[0])
    act(s, "yes")
    assert len(s.hands[0]) == n + 1 and s.to_move == 1


def test_second_parasol_draws_one_for_the_first() -> None:
    pk = Picker()
    oak, birch = pk.tree("Oak"), pk.tree("Birch")
    p1, _ = pk.half("Parasol Mushroom", "bottom")
    p2, _ = pk.half("Parasol Mushroom", "bottom")
    pay = pk.fillers(2)
    deck = pk.fillers(5)
    s = build([[p2, *pay], []], deck, forests=[[site(oak, bottom=[p1]), site(birch)], []])
    act(s, f"play {p2} bottom 2", *(f"pay {c}" for c in sorted(pay)))
    assert s.decision == "option"
    act(s, "yes")
    assert s.hands[0] == [deck[-1]] and s.to_move == 1


def test_each_mushroom_copy_is_its_own_offer() -> None:
    pk = Picker()
    oak, birch, beech = pk.tree("Oak"), pk.tree("Birch"), pk.tree("Beech")
    c1, _ = pk.half("Chanterelle", "bottom")
    c2, _ = pk.half("Chanterelle", "bottom")
    linden = pk.tree("Linden")
    pay = pk.fillers(1)
    deck = pk.fillers(6)
    s = build([[linden, *pay], []], deck,
              forests=[[site(oak, bottom=[c1]), site(birch, bottom=[c2]), site(beech)], []])
    act(s, f"play {linden}", f"pay {pay[0]}")
    assert s.pending is not None and s.pending.step == ("mushroom", linden, "", "Chanterelle")
    act(s, "no")
    assert s.pending is not None and s.pending.step == ("mushroom", linden, "", "Chanterelle")
    act(s, "yes")
    assert s.hands[0] == [deck[-2]]  # deck[-1] went into the clearing for the tree
    assert s.to_move == 1


def test_mushroom_draw_comes_before_the_played_cards_effect() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    ch, _ = pk.half("Chanterelle", "bottom")
    beech = pk.tree("Beech")
    pay = pk.fillers(1)
    deck = pk.fillers(5)
    s = build([[beech, *pay], []], deck, forests=[[site(oak, bottom=[ch])], []])
    act(s, f"play {beech}", f"pay {pay[0]}")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "mushroom"
    act(s, "yes")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "effect"


def test_mushroom_played_this_turn_acts_in_the_extra_turn() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    ch, _ = pk.half("Chanterelle", "bottom")
    linden = pk.tree("Linden")
    wolf, wside = pk.half("Wolf")
    pay = pk.fillers(4)
    deck = pk.fillers(6)
    # the Chanterelle lies in the forest but was played this turn (not active yet)
    s = build([[wolf, linden, *pay], []], deck, forests=[[site(oak, bottom=[ch])], []],
              active=[{}, {}], extra_turns=1)
    act(s, f"play {wolf} {wside} 1", *(f"pay {c}" for c in sorted(pay)[:3]))
    assert s.to_move == 0 and s.decision == "turn"  # the extra turn
    act(s, f"play {linden}", f"pay {sorted(pay)[3]}")
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[3] == "Chanterelle"


def test_mushroom_triggers_every_time_its_condition_is_met() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    ch, _ = pk.half("Chanterelle", "bottom")
    b1, b2 = pk.tree("Birch"), pk.tree("Birch")
    deck = pk.fillers(10)
    s = build([[b1, b2], []], deck, forests=[[site(oak, bottom=[ch])], []])
    for b in (b1, b2):
        act(s, f"play {b}")
        assert s.pending is not None and s.pending.step == ("mushroom", b, "", "Chanterelle")
        act(s, "yes", "no")  # the Chanterelle draw; the Birch's own draw declined
        act(s, "draw", "draw")  # the other player's turn
    assert len(s.hands[0]) == 2


def test_game_end_cancels_pending_extra_turns() -> None:
    pk = Picker()
    deck = pk.fillers(3)
    s = build([[], []], [*deck, WINTER[2]], winter=WINTER[:2], extra_turns=2)
    act(s, "draw")
    assert s.over and s.to_move is None and s.legal_actions() == []


def test_sapling_triggers_chanterelle_by_setting() -> None:
    for on in (True, False):
        pk = Picker()
        oak = pk.tree("Oak")
        ch, _ = pk.half("Chanterelle", "bottom")
        sap = pk.fillers(1)[0]
        s = build([[sap], []], pk.fillers(4), forests=[[site(oak, bottom=[ch])], []],
                  rules=Rules(sapling_triggers_chanterelle=on))
        act(s, f"sapling {sap}")
        assert (s.decision == "option") is on


# ----------------------------------------------------------------------------- extra turns


def test_extra_turns_stack_and_are_taken_one_after_another() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    mole, _ = pk.half("Mole", "bottom")
    j1, _ = pk.half("Eurasian Jay", "top")
    sap = pk.fillers(1)[0]
    j2, _ = pk.half("Eurasian Jay", "top")
    pay = pk.fillers(4, avoid_symbol="Birch")
    deck = pk.fillers(10)
    s = build([[mole, j1, j2, sap, *pay], []], deck,
              forests=[[site(oak), site(pk.tree("Birch"))], []])
    act(s, f"play {mole} bottom 1", *(f"pay {c}" for c in sorted(pay)[:2]), "yes")
    act(s, f"play {j1} top 1", f"pay {sorted(pay)[2]}")
    act(s, f"play {j2} top 2", f"pay {sorted(pay)[3]}")
    if s.decision == "mole":
        act(s, "done")
    # effects in play order, then two extra turns
    assert s.pending is not None and s.pending.step == ("effect", j1, "top", "Eurasian Jay")
    act(s, "yes", "yes")
    assert s.extra_turns == 1 and s.to_move == 0 and s.decision == "turn"
    act(s, "draw", "draw")
    assert s.extra_turns == 0 and s.to_move == 0
    act(s, "draw", "draw")
    assert s.to_move == 1


def test_extra_turn_is_a_full_turn() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    jay, _ = pk.half("Eurasian Jay", "top")
    pay = pk.fillers(1)
    linden = pk.tree("Linden")
    pay2 = pk.fillers(1)
    s = build([[jay, linden, *pay, *pay2], []], pk.fillers(5), forests=[[site(oak)], []])
    act(s, f"play {jay} top 1", f"pay {min(pay + pay2)}", "yes")
    assert s.to_move == 0
    assert "draw" in legal(s) and f"play {linden}" in legal(s)


# ----------------------------------------------------------------------------- free plays


def test_free_play_does_not_use_the_played_cards_effect_or_bonus() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    badger, bside = pk.half("European Badger")
    bear, rside = pk.half("Brown Bear")
    sym = symbol(badger, bside)
    pay = pk.with_symbol(sym, 1)
    clearing = pk.fillers(3)
    s = build([[badger, bear, *pay], []], pk.fillers(4), clearing=clearing,
              forests=[[site(oak)], []])
    act(s, f"play {badger} {bside} 1", f"pay {pay[0]}")
    assert s.pending is not None and s.pending.step == ("bonus", badger, bside,
                                                       "European Badger")
    act(s, "yes")
    assert s.decision == "free"
    act(s, f"play {bear} {rside} 1")
    # no cost paid, no Brown Bear effect: the clearing is untouched and the turn passes
    assert s.to_move == 1
    assert s.clearing == [*clearing, pay[0]] and s.caves[0] == []
    assert s.forests[0].trees[0].slots[rside][0].card == bear


def test_free_play_only_of_the_named_tag_and_optional() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    badger, bside = pk.half("European Badger")
    jay, _ = pk.half("Eurasian Jay", "top")
    lynx, lside = pk.half("Lynx")
    sym = symbol(badger, bside)
    pay = pk.with_symbol(sym, 1)
    s = build([[badger, jay, lynx, *pay], []], pk.fillers(4), forests=[[site(oak)], []])
    act(s, f"play {badger} {bside} 1", f"pay {pay[0]}", "yes")
    assert f"play {jay} top 1" not in legal(s) and "done" in legal(s)
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as err:
        act(s, f"play {jay} top 1")
    assert "not a pawed animal" in err.value.reason
    assert s.to_dict() == before
    act(s, "done")
    assert s.to_move == 1 and lynx in s.hands[0]


def test_free_play_triggers_mushrooms_by_setting() -> None:
    for on in (True, False):
        pk = Picker()
        oak, birch = pk.tree("Oak"), pk.tree("Birch")
        fly, _ = pk.half("Fly Agaric", "bottom")
        badger, bside = pk.half("European Badger")
        lynx, lside = pk.half("Lynx")
        sym = symbol(badger, bside)
        pay = pk.with_symbol(sym, 1)
        s = build([[badger, lynx, *pay], []], pk.fillers(6),
                  forests=[[site(oak, bottom=[fly]), site(birch)], []],
                  rules=Rules(free_plays_trigger_mushrooms=on))
        tree = 2 if bside == lside else 1
        act(s, f"play {badger} {bside} 1", f"pay {pay[0]}", "yes")  # Fly Agaric for Badger
        act(s, "yes", f"play {lynx} {lside} {tree}")
        assert (s.decision == "option") is on


def test_gnat_places_any_number_of_bats() -> None:
    pk = Picker()
    trees = [site(pk.tree("Oak")), site(pk.tree("Birch")), site(pk.tree("Beech"))]
    gnat, gside = pk.half("Gnat")
    other = "left" if gside == "right" else "right"
    bats = [pk.half("Barbastelle Bat", other), pk.half("Bechstein's Bat", "left"),
            pk.half("Brown Long-Eared Bat", "right")]
    spare = pk.fillers(1, avoid_symbol=None)
    s = build([[gnat, *(c for c, _ in bats), *spare], []], pk.fillers(4),
              forests=[trees, []])
    act(s, f"play {gnat} {gside} 1", "yes")
    targets = [(bats[0], 1), (bats[1], 2), (bats[2], 3)]
    for (c, side), tree in targets:
        assert s.decision == "free" and "done" in legal(s)
        assert f"play {c} {side} {tree}" in legal(s)
        act(s, f"play {c} {side} {tree}")
    # all bats placed at no cost; no bat left, so the free plays end
    assert s.to_move == 1
    assert s.hands[0] == spare and s.clearing == []


def test_gnat_free_plays_can_stop_with_done() -> None:
    pk = Picker()
    trees = [site(pk.tree("Oak")), site(pk.tree("Birch"))]
    gnat, gside = pk.half("Gnat")
    b1, s1 = pk.half("Barbastelle Bat")
    b2, _ = pk.half("Bechstein's Bat")
    s = build([[gnat, b1, b2], []], pk.fillers(4), forests=[trees, []])
    act(s, f"play {gnat} {gside} 1", "yes", f"play {b1} {s1} 2")
    assert s.decision == "free"
    act(s, "done")
    assert s.to_move == 1 and b2 in s.hands[0]


# ----------------------------------------------------------------------------- hares, toads


def test_hares_stack_without_limit() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    stacked = [pk.half("European Hare", "left")[0] for _ in range(4)]
    hare, _ = pk.half("European Hare", "left")
    s = build([[hare], []], pk.fillers(3), forests=[[site(oak, left=stacked)], []])
    assert f"play {hare} left 1" in legal(s)
    act(s, f"play {hare} left 1")
    assert [d.card for d in s.forests[0].trees[0].slots["left"]] == [*stacked, hare]


def test_non_hare_cannot_join_hares_and_hare_cannot_join_others() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    h, _ = pk.half("European Hare", "left")
    lynx, lside = pk.half("Lynx", "left")
    other, _ = pk.half("Lynx", "right")
    hare2, _ = pk.half("European Hare", "right")
    s = build([[lynx, hare2], []], pk.fillers(3),
              forests=[[site(oak, left=[h], right=[other])], []])
    assert not any(a.startswith(f"play {lynx}") for a in legal(s))
    assert not any(a.startswith(f"play {hare2}") for a in legal(s))


def test_hare_via_free_play_joins_a_hare_slot() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    stacked, _ = pk.half("European Hare", "left")
    sal, _ = pk.half("Fire Salamander", "bottom")
    hare, _ = pk.half("European Hare", "left")
    pay = pk.with_symbol(symbol(sal, "bottom"), 1)
    right, _ = pk.half("Lynx", "right")
    s = build([[sal, hare, *pay], []], pk.fillers(3),
              forests=[[site(oak, left=[stacked], right=[right])], []])
    act(s, f"play {sal} bottom 1", f"pay {pay[0]}", "yes")
    assert legal(s) == [f"play {hare} left 1", "done"]
    act(s, f"play {hare} left 1")
    assert len(s.forests[0].trees[0].slots["left"]) == 2


def test_toads_pair_at_most_two() -> None:
    pk = Picker()
    oak, birch, beech = pk.tree("Oak"), pk.tree("Birch"), pk.tree("Beech")
    t1, _ = pk.half("Common Toad", "bottom")
    t2, _ = pk.half("Common Toad", "bottom")
    t3, _ = pk.half("Common Toad", "bottom")
    moss, _ = pk.half("Moss", "bottom")
    t4, _ = pk.half("Common Toad", "bottom")
    s = build([[t4], []], pk.fillers(3),
              forests=[[site(oak, bottom=[t1]), site(birch, bottom=[t2, t3]),
                        site(beech, bottom=[moss])], []])
    plays = [a for a in legal(s) if a.startswith(f"play {t4} bottom")]
    assert plays == [f"play {t4} bottom 1"]
    act(s, f"play {t4} bottom 1")
    assert len(s.forests[0].trees[0].slots["bottom"]) == 2


def test_non_toad_cannot_join_a_toad() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    t1, _ = pk.half("Common Toad", "bottom")
    moss, _ = pk.half("Moss", "bottom")
    s = build([[moss], []], pk.fillers(3), forests=[[site(oak, bottom=[t1])], []])
    assert not any(a.startswith(f"play {moss} bottom") for a in legal(s))


# ----------------------------------------------------------------------------- Raccoon, Bear


def test_raccoon_caves_any_number_and_draws_as_many() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    rac, rside = pk.half("Raccoon")
    pay = pk.fillers(1)
    keep = sorted(pk.fillers(4))
    deck = pk.fillers(6)
    s = build([[rac, *pay, *keep], []], deck, forests=[[site(oak)], []])
    act(s, f"play {rac} {rside} 1", f"pay {pay[0]}", "yes")
    assert s.decision == "raccoon"
    assert legal(s) == [*(f"cave {c}" for c in keep), "done"]
    act(s, f"cave {keep[1]}", f"cave {keep[3]}")
    with pytest.raises(IllegalActionError):
        act(s, f"cave {keep[0]}")  # ascending order
    act(s, "done")
    assert s.caves[0] == [keep[1], keep[3]] and s.forests[0].cave == 2
    assert s.hands[0] == [keep[0], keep[2], deck[-1], deck[-2]]
    assert s.to_move == 1
    assert s.view(1).to_dict()["cave_sizes"] == [2, 0]
    assert all(keep[1] not in k for k in s.view(1).to_dict()["known_hands"])


def test_raccoon_may_cave_nothing() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    rac, rside = pk.half("Raccoon")
    pay = pk.fillers(1)
    keep = pk.fillers(2)
    s = build([[rac, *pay, *keep], []], pk.fillers(4), forests=[[site(oak)], []])
    act(s, f"play {rac} {rside} 1", f"pay {pay[0]}", "yes", "done")
    assert s.caves[0] == [] and sorted(s.hands[0]) == sorted(keep)


def test_raccoon_whole_hand_to_cave() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    rac, rside = pk.half("Raccoon")
    pay = pk.fillers(1)
    keep = sorted(pk.fillers(2))
    deck = pk.fillers(4)
    s = build([[rac, *pay, *keep], []], deck, forests=[[site(oak)], []])
    act(s, f"play {rac} {rside} 1", f"pay {pay[0]}", "yes", *(f"cave {c}" for c in keep))
    assert s.hands[0] == [deck[-1], deck[-2]] and s.to_move == 1


def test_brown_bear_takes_the_clearing_with_its_payment_and_gives_bonus() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    bear, bside = pk.half("Brown Bear")
    sym = symbol(bear, bside)
    pay = pk.with_symbol(sym, 3)
    clearing = pk.fillers(8)
    deck = pk.fillers(5)
    s = build([[bear, *pay], []], deck, clearing=clearing, forests=[[site(oak)], []])
    act(s, f"play {bear} {bside} 1", *(f"pay {c}" for c in sorted(pay)), "yes")
    assert s.clearing == []
    assert sorted(s.caves[0]) == sorted([*clearing, *pay]) and s.forests[0].cave == 11
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[0] == "bonus"
    act(s, "yes")
    assert s.hands[0] == [deck[-1]]
    assert s.to_move == 0 and s.decision == "turn"  # the extra turn
    check_places(s)


# ----------------------------------------------------------------------------- Mole


def _mole_setup(hand_extra: list[int], pk: Picker, deck: list[int] | None = None,
                trees: list[dict[str, object]] | None = None) -> tuple[GameState, int, list[int]]:
    oak = pk.tree("Oak")
    mole, _ = pk.half("Mole", "bottom")
    pay = sorted(pk.fillers(2, avoid_symbol=symbol(mole, "bottom")))
    s = build([[mole, *pay, *hand_extra], []], deck if deck is not None else pk.fillers(10),
              forests=[[site(oak), *(trees or [])], []])
    act(s, f"play {mole} bottom 1", *(f"pay {c}" for c in pay))
    return s, mole, pay


def test_mole_pool_is_the_hand_when_its_effect_resolves() -> None:
    pk = Picker()
    beech = pk.tree("Beech")
    linden = pk.tree("Linden")
    rest = sorted(pk.fillers(2))
    deck = pk.fillers(6)
    s, mole, pay = _mole_setup([beech, linden, *rest], pk, deck)
    act(s, "yes")
    assert s.decision == "mole"
    act(s, f"play {beech}", f"pay {rest[0]}")
    # Beech's draw is resolved after the Mole; the revealed card went to the clearing
    assert s.decision == "mole"
    act(s, f"play {linden}", f"pay {rest[1]}")
    assert s.decision == "option" and s.pending is not None
    assert s.pending.step == ("effect", beech, "", "Beech")
    act(s, "yes")
    drawn = s.hands[0][-1]
    assert drawn == deck[-3] and s.to_move == 1  # the drawn card is never offered to the Mole


def test_cards_drawn_in_the_mole_chain_are_not_in_the_pool() -> None:
    pk = Picker()
    marten, mside = pk.half("Beech Marten")
    extra = pk.fillers(1)
    deck = pk.fillers(4)
    s, mole, _ = _mole_setup([marten, *extra], pk, deck)
    act(s, "yes", f"play {marten} {mside} 1", f"pay {extra[0]}")
    # nothing else is playable: the Mole ends, the Marten draws
    assert s.pending is not None and s.pending.step == ("effect", marten, mside,
                                                       "Beech Marten")
    act(s, "yes")
    assert s.hands[0] == [deck[-1]] and s.to_move == 1


def test_mole_payment_only_from_the_pool() -> None:
    pk = Picker()
    tree = pk.tree("Birch")
    chan, _ = pk.half("Chanterelle", "bottom")
    oakf = pk.tree("Linden")
    deck = pk.fillers(6)
    # Chanterelle active: the Mole's own placement... (no trigger). Payment pool check:
    s, mole, _ = _mole_setup([oakf, *pk.fillers(1)], pk, deck,
                             trees=[site(tree, bottom=[chan])])
    assert s.decision == "option"
    act(s, "yes", f"play {oakf}")
    assert all(a.startswith("pay") for a in legal(s))
    assert s.pending is not None and s.pending.pool is not None
    assert set(s.hands[0]) <= s.pending.pool


def test_mole_cannot_play_saplings_by_default() -> None:
    pk = Picker()
    x = pk.fillers(2)
    s, mole, _ = _mole_setup(x, pk)
    act(s, "yes")
    assert not any(a.startswith("sapling") for a in legal(s))
    with pytest.raises(IllegalActionError) as err:
        act(s, f"sapling {x[0]}")
    assert "sapling" in err.value.reason


def test_mole_may_play_saplings_by_setting() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    mole, _ = pk.half("Mole", "bottom")
    pay = sorted(pk.fillers(2))
    x = pk.fillers(2)
    s = build([[mole, *pay, *x], []], pk.fillers(6), forests=[[site(oak)], []],
              rules=Rules(mole_plays_saplings=True))
    act(s, f"play {mole} bottom 1", *(f"pay {c}" for c in pay), "yes")
    assert f"sapling {x[0]}" in legal(s)
    act(s, f"sapling {x[0]}")
    assert s.forests[0].trees[-1].is_sapling


def test_mole_bonus_by_each_cards_own_payment() -> None:
    pk = Picker()
    owl, _ = pk.half("Tawny Owl", "top")
    sym = symbol(owl, "top")
    pay = pk.with_symbol(sym, 2)
    s, mole, _ = _mole_setup([owl, *pay], pk)
    act(s, "yes", f"play {owl} top 1", *(f"pay {c}" for c in sorted(pay)))
    steps = []
    while s.decision == "option":
        assert s.pending is not None and s.pending.step is not None
        steps.append(s.pending.step[0])
        act(s, "no")
    assert steps == ["effect", "bonus"]


def test_nested_mole_resolves_in_its_place() -> None:
    pk = Picker()
    oak, birch = pk.tree("Oak"), pk.tree("Birch")
    m1, _ = pk.half("Mole", "bottom")
    m2, _ = pk.half("Mole", "bottom")
    marten, mside = pk.half("Beech Marten")
    jay, _ = pk.half("Eurasian Jay", "top")
    woodpecker, _ = pk.half("Great Spotted Woodpecker", "top")
    pay = sorted(pk.fillers(8))
    deck = pk.fillers(10)
    # 13 cards in hand break the hand limit a save is checked against: build with 10 and
    # move the last 3 payment cards from the box into the hand in memory.
    s = build([[m1, m2, marten, jay, woodpecker, *pay[:5]], []], deck,
              forests=[[site(oak), site(birch)], []])
    for c in pay[5:]:
        s.box.remove(c)
        s.hands[0].append(c)
    s._legal = None
    act(s, f"play {m1} bottom 1", f"pay {pay[0]}", f"pay {pay[1]}", "yes")
    # through the first Mole: Marten, the second Mole, the Jay
    act(s, f"play {marten} {mside} 1", f"pay {pay[2]}")
    act(s, f"play {m2} bottom 2", f"pay {pay[3]}", f"pay {pay[4]}")
    act(s, f"play {jay} top 1", f"pay {pay[5]}", "done")
    order = []
    assert s.pending is not None and s.pending.step == ("effect", marten, mside,
                                                       "Beech Marten")
    act(s, "yes")  # draws deck[-1], which the second Mole may use
    drawn = deck[-1]
    assert s.pending is not None and s.pending.step is not None
    assert s.pending.step[3] == "Mole"
    act(s, "yes")
    assert s.decision == "mole" and s.pending is not None and s.pending.pool is not None
    assert drawn in s.pending.pool
    act(s, f"play {woodpecker} top 2", f"pay {pay[6]}")
    if s.decision == "mole":
        act(s, "done")
    # the second Mole's card (Woodpecker) before the first Mole's remaining card (Jay)
    while s.decision == "option":
        assert s.pending is not None and s.pending.step is not None
        order.append(s.pending.step[3])
        act(s, "yes")
    assert order == ["Great Spotted Woodpecker", "Eurasian Jay"]
    assert s.to_move == 0 and s.extra_turns == 0 and s.decision == "turn"  # extra turn after
    check_places(s)


# ----------------------------------------------------------------------------- Fox, Wolf


def test_red_fox_draw_stops_at_the_hand_limit() -> None:
    pk = Picker()
    oak, birch = pk.tree("Oak"), pk.tree("Birch")
    hares = [pk.half("European Hare", "left")[0] for _ in range(5)]
    fox, _ = pk.half("Red Fox", "right")
    pay = pk.fillers(2, avoid_symbol=symbol(fox, "right"))
    hand = pk.fillers(7)
    deck = pk.fillers(8)
    s = build([[fox, *pay, *hand], []], deck,
              forests=[[site(oak, left=hares), site(birch)], []])
    act(s, f"play {fox} right 1", *(f"pay {c}" for c in sorted(pay)), "yes")
    assert len(s.hands[0]) == 10 and s.hands[0][-3:] == deck[::-1][:3]


def test_wolf_draws_per_deer_up_to_the_limit_then_extra_turn() -> None:
    pk = Picker()
    oak, birch = pk.tree("Oak"), pk.tree("Birch")
    deer1, d1s = pk.half("Roe Deer", "left")
    deer2, d2s = pk.half("Fallow Deer", "left")
    wolf, _ = pk.half("Wolf", "right")
    sym = symbol(wolf, "right")
    pay = pk.with_symbol(sym, 3)
    deck = pk.fillers(6)
    s = build([[wolf, *pay], []], deck,
              forests=[[site(oak, left=[deer1]), site(birch, left=[deer2])], []])
    act(s, f"play {wolf} right 1", *(f"pay {c}" for c in sorted(pay)), "yes")
    assert s.hands[0] == [deck[-1], deck[-2]]
    act(s, "yes")
    assert s.to_move == 0 and s.decision == "turn"


def test_draw_effect_with_ten_cards_is_skipped_without_asking() -> None:
    pk = Picker()
    oak, birch = pk.tree("Oak"), pk.tree("Birch")
    f1, _ = pk.half("Fly Agaric", "bottom")
    f2, _ = pk.half("Fly Agaric", "bottom")
    marten, mside = pk.half("Beech Marten")
    pay = pk.fillers(1)
    hand = [marten, *pay, *pk.fillers(8)]
    s = build([hand, []], pk.fillers(6),
              forests=[[site(oak, bottom=[f1]), site(birch, bottom=[f2])], []])
    tree = 1 if not s.forests[0].trees[0].slots[mside] else 2
    act(s, f"play {marten} {mside} {tree}", f"pay {pay[0]}")
    assert len(s.hands[0]) == 8
    act(s, "yes", "yes")  # both Fly Agarics: 10 cards
    assert len(s.hands[0]) == 10
    assert s.to_move == 1  # the Marten's draw could change nothing: not offered


def test_raccoon_with_empty_hand_is_skipped() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    rac, rside = pk.half("Raccoon")
    pay = pk.fillers(1)
    s = build([[rac, *pay], []], pk.fillers(4), forests=[[site(oak)], []])
    act(s, f"play {rac} {rside} 1", f"pay {pay[0]}")
    assert s.to_move == 1


def test_gnat_without_bats_is_skipped() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    gnat, gside = pk.half("Gnat")
    s = build([[gnat, pk.tree("Birch")], []], pk.fillers(4), forests=[[site(oak)], []])
    act(s, f"play {gnat} {gside} 1")
    assert s.to_move == 1


def test_mole_own_mushroom_draws_come_first_and_join_its_pool() -> None:
    pk = Picker()
    oak, birch = pk.tree("Oak"), pk.tree("Birch")
    fly, _ = pk.half("Fly Agaric", "bottom")
    para, _ = pk.half("Parasol Mushroom", "bottom")
    mole, _ = pk.half("Mole", "bottom")
    pay = sorted(pk.fillers(2))
    linden = pk.tree("Linden")
    deck = [linden, *pk.fillers(1)]  # the Linden is drawn second
    s = build([[mole, *pay], []], [*pk.fillers(4), *deck],
              forests=[[site(oak, bottom=[fly]), site(birch, bottom=[para]),
                        site(pk.tree("Beech"))], []])
    act(s, f"play {mole} bottom 3", *(f"pay {c}" for c in pay))
    offers = []
    while s.decision == "option":
        assert s.pending is not None and s.pending.step is not None
        offers.append((s.pending.step[0], s.pending.step[3]))
        act(s, "yes")
    assert offers == [("mushroom", "Fly Agaric"), ("mushroom", "Parasol Mushroom"),
                      ("effect", "Mole")]
    assert s.decision == "mole" and s.pending is not None and s.pending.pool is not None
    assert linden in s.pending.pool and f"play {linden}" in legal(s)


def test_free_play_without_eligible_card_is_skipped() -> None:
    pk = Picker()
    oak = pk.tree("Oak")
    badger, bside = pk.half("European Badger")
    pay = pk.with_symbol(symbol(badger, bside), 1)
    s = build([[badger, *pay, pk.tree("Birch")], []], pk.fillers(4),
              forests=[[site(oak)], []])
    act(s, f"play {badger} {bside} 1", f"pay {pay[0]}")
    assert s.to_move == 1


# ----------------------------------------------------------------------------- illegal actions


def _collect_states() -> list[GameState]:
    out = []
    pk = Picker()
    oak = pk.tree("Oak")
    rac, rside = pk.half("Raccoon")
    hand = [rac, *pk.fillers(4)]
    s = build([hand, pk.fillers(2)], pk.fillers(8), clearing=pk.fillers(2),
              forests=[[site(oak)], []])
    out.append(s.clone())
    act(s, "draw")
    out.append(s.clone())  # second draw
    act(s, "draw")
    act(s, "draw", "draw")
    act(s, f"play {rac} {rside} 1")
    out.append(s.clone())  # pay
    act(s, legal(s)[0])
    out.append(s.clone())  # option
    act(s, "yes")
    out.append(s.clone())  # raccoon
    return out


BAD = ["keep", "mulligan", "draw", "take 1", "take 999", "play 1", "play 70 left 1",
       "play 70 top 1", "play 70 left 9", "sapling 999", "pay 161", "yes", "no",
       "cave 5", "done", "play 150 bottom 1"]


@pytest.mark.parametrize("index", range(5))
def test_illegal_actions_raise_with_a_reason_and_change_nothing(index: int) -> None:
    s = _collect_states()[index]
    before = s.to_dict()
    legal_now = set(legal(s))
    for text in BAD:
        if text in legal_now:
            continue
        with pytest.raises(IllegalActionError) as err:
            s.apply(Action.parse(text))
        assert err.value.reason and isinstance(err.value.reason, str)
        assert str(err.value).startswith(f"illegal action {text}")
        assert s.to_dict() == before
    with pytest.raises(IllegalActionError) as err:
        s.apply("draw")  # type: ignore[arg-type]
    assert err.value.reason == "not an Action"
    assert s.to_dict() == before


def test_wrong_player_kind_names_the_expected_choice() -> None:
    s = _collect_states()[3]
    with pytest.raises(IllegalActionError) as err:
        s.apply(Action.parse("draw"))
    assert "yes or no" in err.value.reason


def test_card_not_in_hand_reason() -> None:
    pk = Picker()
    c = pk.fillers(1)[0]
    other = pk.fillers(1)[0]
    s = build([[c], [other]], pk.fillers(3))
    with pytest.raises(IllegalActionError) as err:
        s.apply(Action.parse(f"sapling {other}"))
    assert "not in player 1's hand" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        s.apply(Action.parse(f"take {c}"))
    assert "not in the clearing" in err.value.reason


@pytest.mark.parametrize("text", ["keep", "mulligan", "draw", "take 57", "play 12",
                                  "play 71 left 3", "sapling 34", "pay 40", "yes", "no",
                                  "cave 40", "done", "play 150 bottom 1"])
def test_action_text_round_trip(text: str) -> None:
    a = Action.parse(text)
    assert str(a) == text and Action.parse(str(a)) == a


def test_action_text_is_case_and_space_tolerant() -> None:
    assert Action.parse("  PLAY 71  Left 3 ") == Action("play", 71, "left", 2)


@pytest.mark.parametrize("text", ["", "fly", "draw 3", "take", "take x", "play",
                                  "play 71 left", "play 71 middle 3", "play 71 left 0",
                                  "play 71 left x", "pay 1 2", "keep now", "cave", "yes 1",
                                  "play -3", "sapling 1 2"])
def test_bad_action_text_raises_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError) as err:
        Action.parse(text)
    assert str(err.value)


def test_every_card_is_somewhere_in_built_states() -> None:
    for s in _collect_states():
        check_places(s)
    assert len(ALL_IDS) == 161
