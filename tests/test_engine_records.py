"""Records the engine reuses are what fresh ones would be; hosts keep their dataclass ways.

A turn's record becomes the payment record of the card played from it (as it becomes the
second draw's), and :class:`~forest_shuffle.cards.forest.Host` has a written ``__init__``
(a compiled build runs a dataclass's own ``__init__`` interpreted). These tests play random
games of every registered game and compare every new payment record with a freshly made
``Pending(D_PAY, ...)``, and check that hosts compare, print, copy and pickle as before.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from forest_shuffle.cards.forest import SAPLING, Dweller, Host, empty_slots
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import D_PAY, D_TURN, VIA_TURN, GameState, Pending
from forest_shuffle.games import game_ids


def _cases() -> list[tuple[str, int]]:
    return [(gid, n) for gid in [*game_ids(), "dartmoor-solo-7"]
            for n in game_by_id(gid).players if n <= 4]


@pytest.mark.parametrize(("gid", "players"), _cases())
def test_payment_record_from_the_turn_is_a_fresh_one(gid: str, players: int) -> None:
    """After a play from a turn, the record on the stack (a payment not yet begun) equals
    ``Pending(D_PAY, p, card, side, tree, "turn", cost, [], None)``, and a list read off
    the turn's record before the play stays empty."""
    seen = 0
    for seed in range(6):
        state = GameState.new(players, seed, game=gid)
        rng = random.Random(seed)
        while not state.over:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            top = state.stack[-1]
            before_paid = top.paid
            turn_play = top.kind == D_TURN and action.kind == "play"
            state.apply(action)
            if not turn_play or state.over or not state.stack:
                continue
            pend = state.stack[-1]
            if pend.kind != D_PAY or pend.paid:
                continue
            card = state.game.cards[action.card]
            sp = card.halves[action.side].species if action.side else card.species
            fresh = Pending(D_PAY, pend.player, action.card, action.side, action.tree,
                            VIA_TURN, sp.cost, [], None)
            assert pend == fresh
            assert before_paid == [] and before_paid is not pend.paid
            seen += 1
    assert seen > 0


def _host() -> Host:
    cat = game_by_id("base").catalog
    tree = next(c for c in cat.cards if c is not None and c.is_tree)
    split = next(c for c in cat.cards if c is not None and c.halves)
    side = next(iter(split.halves))
    host = Host(tree.species, tree.id, kind=tree.kind, symbol=tree.symbol)
    host.slots[side].append(Dweller.of_card(split, side))
    return host


def test_host_defaults_and_fields() -> None:
    """Host's arguments and defaults are the dataclass's: a new dict of four empty slots
    each time, kind ``tree``, no symbol; ``dataclasses.fields`` lists the same fields."""
    a, b = Host(None), Host(None)
    assert a.slots == empty_slots() and a.slots is not b.slots
    assert (a.card, a.kind, a.symbol) == (None, "tree", "")
    given = empty_slots()
    assert Host(None, 3, given, SAPLING, "").slots is given
    assert [f.name for f in dataclasses.fields(Host)] == ["species", "card", "slots", "kind",
                                                          "symbol"]


def test_host_equality_repr_copy_and_pickle() -> None:
    """Equal hosts compare equal, the repr names every field, and pickle and deepcopy give
    hosts of the same repr with slot lists of their own (species, compared by identity,
    are copied by value, as before), copy.copy an equal host sharing the slots."""
    host = _host()
    same = _host()
    assert host == same and host is not same
    same.symbol = "x"
    assert host != same
    text = repr(host)
    assert text.startswith("Host(species=") and "slots=" in text and "symbol=" in text
    for other in (pickle.loads(pickle.dumps(host)), copy.deepcopy(host)):
        assert repr(other) == text and other.slots is not host.slots
    shallow = copy.copy(host)
    assert shallow == host and shallow.slots is host.slots
    assert host.copy() == host and host.copy().slots["top"] is not host.slots["top"]
