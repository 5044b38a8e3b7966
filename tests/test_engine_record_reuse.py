"""Reused records are what fresh ones would be; turn-start mushroom counts are the forest's.

When an action leaves the stack empty, the record it finished (off the stack, held by
nothing else) becomes the next option's or the next turn's record
(:meth:`~forest_shuffle.engine.state.GameState._advance`), its player changing with the
turn. These tests play random games of every registered game at every player count up to
4 and, at every decision, compare a turn's or an option's record with a freshly made
``Pending``, so that no field of the finished decision (a card, a payment, a pool, a step,
a Mole's steps) leaks into the next one; lists read off the finished record keep their cards.

The mushrooms active in a turn are copied from the forest at the turn's start only when a
change since could have changed them (``Forest.pversion``); at every turn decision they
are compared with a count made from the hosts.
"""

from __future__ import annotations

import random

import pytest

from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import D_OPTION, D_TURN, GameState, Pending
from forest_shuffle.games import game_ids


def _cases() -> list[tuple[str, int]]:
    return [(gid, n) for gid in [*game_ids(), "dartmoor-solo-7"]
            for n in game_by_id(gid).players if n <= 4]


def _check_top(state: GameState) -> None:
    """A turn's or an option's record on top of the stack equals a fresh one."""
    if state.over or not state.stack:
        return
    top = state.stack[-1]
    if top.kind == D_TURN:
        assert top.player == state.current
        assert top == Pending(D_TURN, state.current)
    elif top.kind == D_OPTION:
        assert top.step is not None
        assert top == Pending(D_OPTION, state.current, 0, "", -1, "", 0, None, None, top.step)


@pytest.mark.parametrize(("gid", "players"), _cases())
def test_reused_records_equal_fresh_ones(gid: str, players: int) -> None:
    """Every turn and option record, reused or not, equals a fresh ``Pending``; a record
    reused after its decision finished leaves the lists read off it unchanged."""
    reused = 0
    for seed in range(5):
        state = GameState.new(players, seed, game=gid)
        rng = random.Random(seed)
        _check_top(state)
        while not state.over:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            old = state.stack[-1]
            held_paid, paid_before = old.paid, list(old.paid)
            held_steps, steps_before = old.steps, list(old.steps)
            state.apply(action)
            _check_top(state)
            # Lists read off a record are never emptied (a payment's final card is added).
            assert held_paid[:len(paid_before)] == paid_before
            assert held_steps[:len(steps_before)] == steps_before
            if state.over or not state.stack or state.stack[-1] is not old:
                continue
            if old.kind in (D_TURN, D_OPTION):
                # Reused (a turn's or an option's record is never pushed back as such): the
                # record holds a new decision, lists with cards were replaced.
                if held_paid:
                    assert old.paid is not held_paid
                if held_steps:
                    assert old.steps is not held_steps
                reused += 1
    assert reused > 0


def _recount(state: GameState, p: int) -> dict[str, int]:
    """p's cards of each mushroom species, counted from the hosts and their slots."""
    names: list[str] = []
    for host in state.forests[p].trees:
        if host.species is not None:
            names.append(host.species.name)
        for stack in host.slots.values():
            names.extend(d.species.name for d in stack)
    return {m: names.count(m) for m in state.game.mushrooms}


@pytest.mark.parametrize(("gid", "players"), _cases())
def test_active_mushrooms_are_the_forest_at_turn_start(gid: str, players: int) -> None:
    """At every turn decision, the player's active mushroom counts are those of the forest
    (in the state played and in a clone and a reload of it, which start unsynced)."""
    turns = 0
    for seed in range(5):
        state = GameState.new(players, seed, game=gid)
        rng = random.Random(seed + 100)
        while not state.over:
            if state.stack[-1].kind == D_TURN:
                p = state.current
                assert state.active[p] == _recount(state, p)
                turns += 1
                if turns % 7 == 0:
                    state = state.clone() if turns % 14 else GameState.from_dict(state.to_dict())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert turns > 0
