"""Exploration's effect ops (``games/exploration.py``), each applied in a small position.

The positions are built in a definition made for these tests alone from the catalog
``base`` + ``exploration`` without the cave draft (written before the game ids
``base+exploration``... were registered; they keep the positions free of the draft).
Each test names the cards it uses; every other card is in the box.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from scenario import build, halves_of, site, trees_of

from forest_shuffle.cards.model import Effect, load_catalog
from forest_shuffle.engine import game as game_module
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.check import check_state
from forest_shuffle.engine.game import game_by_id, make_def
from forest_shuffle.engine.state import D_FREE, D_TURN, GameState
from forest_shuffle.games.base import REMOVED_AT_SETUP
from forest_shuffle.scoring import core as scoring_core

GAME = "test-base+exploration"
CATALOG = load_catalog(("base", "exploration"))
#: The base family's point rules, Exploration's among them (scoring/core.py).
RULES = scoring_core.RULES


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A definition of base + exploration, registered for one test alone."""

    def factory() -> game_module.GameDef:
        return make_def(GAME, "Forest Shuffle + Exploration (test)", CATALOG, (2, 3, 4, 5),
                        REMOVED_AT_SETUP[1], point_rules=RULES,
                        options={"modules": ("exploration",),
                                 "actions": ("keep", "mulligan", "draw", "take", "play",
                                             "sapling", "pay", "yes", "no", "cave", "done")})

    monkeypatch.setitem(game_module._FACTORIES, GAME, factory)
    monkeypatch.setitem(game_module._DEFS, GAME, factory())
    yield GAME


def _effect(species: str) -> Effect:
    eff = CATALOG.species[species].effect
    assert eff is not None
    return eff


def _half(species: str) -> tuple[int, str]:
    return halves_of(species, catalog=CATALOG)[0]


def _fillers(n: int, avoid: set[int]) -> list[int]:
    """``n`` base split cards not in ``avoid``."""
    out = [c.id for c in CATALOG.cards if c is not None and c.module == "base"
           and not c.is_winter and not c.is_host and c.id not in avoid]
    return out[:n]


# ------------------------------------------------------------ draw_per_tree (Cardinal)


def test_the_cardinal_draws_one_card_per_tree_saplings_included(game: str) -> None:
    eff = _effect("Cardinal")
    assert eff.op == "draw_per_tree"
    oak, birch, linden = trees_of("Oak", CATALOG)[0], trees_of("Birch", CATALOG)[0], \
        trees_of("Linden", CATALOG)[0]
    cardinal, side = _half("Cardinal")
    deck = _fillers(6, {cardinal})
    s = build([[], []], deck, game=game,
              forests=[[site(oak, top=[cardinal]), site(birch), site(linden, sapling=True)],
                       []])
    decl = game_by_id(game).ops["draw_per_tree"]
    assert decl.possible(s, eff)
    decl.apply(s, eff)
    assert sorted(s.hands[0]) == sorted(deck[-3:])  # two trees and a sapling: 3 cards
    assert s.deck == deck[:3]
    check_state(s)


def test_the_cardinal_draws_up_to_the_hand_limit_and_not_without_trees(game: str) -> None:
    eff = _effect("Cardinal")
    oak, birch = trees_of("Oak", CATALOG)[0], trees_of("Birch", CATALOG)[0]
    cardinal, _side = _half("Cardinal")
    hand = _fillers(9, {cardinal})
    deck = _fillers(13, {cardinal})[9:]
    s = build([hand, []], deck, game=game,
              forests=[[site(oak, top=[cardinal]), site(birch)], []])
    decl = game_by_id(game).ops["draw_per_tree"]
    decl.apply(s, eff)
    assert len(s.hands[0]) == 10 and not decl.possible(s, eff)  # the limit: 1 of 2
    bare = build([[], []], deck, game=game)
    assert not decl.possible(bare, eff)  # no tree, nothing to draw


# ------------------------------------------------------------ tree_to_sapling_free_play


def test_the_mistletoe_turns_its_tree_into_a_sapling_then_a_free_play(game: str) -> None:
    eff = _effect("Mistletoe")
    assert eff.op == "tree_to_sapling_free_play"
    oak, beech = trees_of("Oak", CATALOG)[0], trees_of("Beech", CATALOG)[0]
    mistletoe, side = _half("Mistletoe")
    assert side == "top"
    badger, bside = halves_of("European Badger", "right", CATALOG)[0]
    fox = halves_of("Red Fox", "left", CATALOG)[0][0]  # cost 2: free here, none to pay
    s = build([[badger, fox], []], _fillers(4, {mistletoe, badger, fox}), game=game,
              forests=[[site(beech), site(oak, top=[mistletoe])], []])
    decl = game_by_id(game).ops["tree_to_sapling_free_play"]
    assert decl.possible(s, eff)
    s.stack.clear()  # the effect resolves with nothing else pending
    decl.apply(s, eff)
    beech_host, oak_host = s.forests[0].trees
    assert oak_host.kind == "sapling" and oak_host.species is None and oak_host.symbol == ""
    assert [d.species.name for d in oak_host.slots["top"]] == ["Mistletoe"]  # slots kept
    assert beech_host.kind == "tree" and beech_host.species is not None
    assert s.forests[0].species_counts.get("Oak", 0) == 0  # the forest's index follows
    assert not decl.possible(s, eff)  # its tree is a sapling now: once
    top = s.stack[-1]
    assert top.kind == D_FREE and top.need == 1
    legal = {str(a) for a in s.legal_actions()}
    assert f"play {fox} left 1" in legal and f"play {badger} {bside} 2" in legal  # any card
    assert "done" in legal
    check_state(GameState.from_dict(s.to_dict()))  # a save with a free play of any card
    s.apply(Action.parse(f"play {fox} left 1"))  # trees are numbered from 1
    assert s.hands[0] == [badger]  # one free play, nothing paid
    assert [d.species.name for d in s.forests[0].trees[0].slots["left"]] == ["Red Fox"]
    assert not s.queue  # no effect or bonus of the card played for free
    assert s.current == 1 and s.stack[-1].kind == D_TURN  # the one free play ended the turn


def test_the_mistletoe_on_a_sapling_changes_nothing(game: str) -> None:
    eff = _effect("Mistletoe")
    oak = trees_of("Oak", CATALOG)[0]
    mistletoe, _side = _half("Mistletoe")
    s = build([[], []], _fillers(2, {mistletoe}), game=game,
              forests=[[site(oak, sapling=True, top=[mistletoe])], []])
    assert not game_by_id(game).ops["tree_to_sapling_free_play"].possible(s, eff)


# ------------------------------------------------------------ chance after setup


def test_the_troll_takes_a_card_at_random_from_each_other_hand_left_first(game: str) -> None:
    eff = _effect("Troll")
    assert eff.op == "hands_to_clearing"
    cards = _fillers(9, set())
    hands = [cards[0:2], [cards[2]], [], cards[5:8]]
    s = build(hands, cards[8:], game=game, current=0, known=[[], [cards[2]], [], []])
    decl = game_by_id(game).ops["hands_to_clearing"]
    assert decl.possible(s, eff)
    again = s.clone()
    decl.apply(s, eff)
    assert s.hands[0] == cards[0:2]  # not the Troll's owner
    assert [len(h) for h in s.hands] == [2, 0, 0, 2]  # one each; an empty hand gives none
    got = s.clearing
    assert len(got) == 2 and got[0] == cards[2] and got[1] in cards[5:8]  # left first
    assert not s.known[1]  # the card everyone saw taken is no longer known in that hand
    decl.apply(again, eff)
    assert again.clearing == got  # the game's seed decides: the same game again
    check_state(s)


def test_the_troll_changes_nothing_when_the_other_hands_are_empty(game: str) -> None:
    s = build([_fillers(2, set()), []], game=game)
    assert not game_by_id(game).ops["hands_to_clearing"].possible(s, _effect("Troll"))


def test_the_red_panda_puts_ten_cards_seen_leaving_back_on_the_deck(game: str) -> None:
    eff = _effect("Red Panda")
    assert eff.op == "discards_to_deck" and eff.params["n"] == 10
    deck = _fillers(3, set())
    s = build([[], []], deck, game=game)
    seen = tuple(c for c in s.box if c not in deck)[:12]
    s.box_seen = seen
    decl = game_by_id(game).ops["discards_to_deck"]
    assert decl.possible(s, eff)
    boxed = len(s.box)
    decl.apply(s, eff)
    back = s.deck[3:]
    assert s.deck[:3] == deck and len(back) == 10 and set(back) <= set(seen)
    assert not set(back) & set(s.box) and not set(back) & set(s.box_seen)
    assert len(s.box) == boxed - 10 and len(s.box_seen) == 2
    check_state(s)  # every card in one place
    decl.apply(s, eff)  # the two left: all of them go back
    assert len(s.deck) == 15 and not s.box_seen and not decl.possible(s, eff)


def test_the_red_panda_shuffles_by_the_games_seed(game: str) -> None:
    eff = _effect("Red Panda")
    orders = set()
    for seed in range(4):
        s = build([[], []], _fillers(3, set()), game=game)
        s.box_seen = tuple(s.box[:12])
        s.seed = seed
        again = s.clone()
        game_by_id(game).ops["discards_to_deck"].apply(s, eff)
        game_by_id(game).ops["discards_to_deck"].apply(again, eff)
        assert s.deck == again.deck  # one seed, one order
        orders.add(tuple(s.deck))
    assert len(orders) > 1  # another seed, (here) another order


# ------------------------------------------------------------ words that already suffice


def _top_half_with(tag: str, avoid: set[int]) -> int:
    """A base card whose top half shows ``tag``."""
    return next(c.id for c in CATALOG.cards if c is not None and c.module == "base"
                and "top" in c.halves and tag in c.halves["top"].species.tags
                and c.id not in avoid)


def test_the_cuckoo_goes_only_onto_a_trees_top_slot_holding_a_bird(game: str) -> None:
    cuckoo, side = _half("Cuckoo")
    assert side == "top"
    bird = _top_half_with("bird", {cuckoo})
    bird2 = _top_half_with("bird", {cuckoo, bird})
    butterfly = _top_half_with("butterfly", {cuckoo, bird, bird2})
    oak, beech, linden, birch = (trees_of(n, CATALOG)[0]
                                 for n in ("Oak", "Beech", "Linden", "Birch"))
    payment = _fillers(1, {cuckoo, bird, bird2, butterfly})
    s = build([[cuckoo, *payment], []], _fillers(6, {cuckoo, bird, bird2, butterfly,
                                                       *payment}), game=game,
              forests=[[site(oak, top=[bird]), site(beech),
                        site(linden, sapling=True, top=[bird2]),
                        site(birch, top=[butterfly])], []])
    plays = {str(a) for a in s.legal_actions() if a.card == cuckoo and a.kind == "play"}
    assert plays == {f"play {cuckoo} top 1"}  # the tree with a bird; not empty, sapling,
    s.apply(Action.parse(f"play {cuckoo} top 1"))  # or no bird
    s.apply(Action.parse(f"pay {payment[0]}"))
    top = s.forests[0].trees[0].slots["top"]
    assert [d.species.name for d in top][1:] == ["Cuckoo"] and len(top) == 2


def test_the_elks_bonus_is_another_turn_and_a_card(game: str) -> None:
    bonus = CATALOG.species["Elk"].bonus
    assert bonus is not None and bonus.op == "draw_and_extra_turn" and bonus.params["n"] == 1
    deck = _fillers(3, set())
    s = build([[], []], deck, game=game)
    game_by_id(game).ops[bonus.op].apply(s, bonus)
    assert s.extra_turns == 1 and s.hands[0] == [deck[-1]]


def test_the_mistletoe_played_through_the_turn(game: str) -> None:
    """Through the engine's own path: play, pay, the effect offered, taken, the free play."""
    oak = trees_of("Oak", CATALOG)[0]
    mistletoe, _side = _half("Mistletoe")
    fox = halves_of("Red Fox", "left", CATALOG)[0][0]
    pay = _fillers(1, {mistletoe, fox})[0]
    s = build([[mistletoe, pay, fox], []], _fillers(5, {mistletoe, fox, pay}), game=game,
              forests=[[site(oak)], []])
    s.apply(Action.parse(f"play {mistletoe} top 1"))
    s.apply(Action.parse(f"pay {pay}"))
    assert {str(a) for a in s.legal_actions()} == {"yes", "no"}  # the effect, offered
    s.apply(Action.parse("yes"))
    assert s.forests[0].trees[0].kind == "sapling" and s.stack[-1].kind == D_FREE
    s.apply(Action.parse(f"play {fox} left 1"))
    assert s.hands[0] == [] and s.current == 1
