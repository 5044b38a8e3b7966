"""The action ids (forest_shuffle.rl.actions): a bijection onto range(NUM_ACTIONS), the same
in every process, and the tree cap never reached in play."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.rl.actions import (
    BARE,
    BARE_SLOTS,
    BLOCK_BASE,
    CARD_BLOCKS,
    CARD_KINDS,
    CARD_SLOTS,
    HALF_BASE,
    NUM_ACTIONS,
    TREE_CAP,
    ActionEncodingError,
    action_to_id,
    encodable,
    id_to_action,
)


def test_every_id_round_trips() -> None:
    seen = set()
    reserved_blocks = range(BARE_SLOTS + len(CARD_KINDS) * CARD_SLOTS, HALF_BASE)
    for i in range(NUM_ACTIONS):
        if len(BARE) <= i < BARE_SLOTS or i in reserved_blocks:
            with pytest.raises(ActionEncodingError, match="reserved"):
                id_to_action(i)
            continue
        a = id_to_action(i)
        assert action_to_id(a) == i
        seen.add(a)
    reserved = BARE_SLOTS - len(BARE) + (CARD_BLOCKS - len(CARD_KINDS)) * CARD_SLOTS
    assert len(seen) == NUM_ACTIONS - reserved


def test_every_action_of_every_game_has_an_id() -> None:
    for gid in game_ids():
        g = make_game(gid)
        assert len(g.cards) <= CARD_SLOTS
        acts = [g.a_draw, g.a_yes, g.a_no, g.a_done, *g.a_keep_mulligan, *g.a_take[1:],
                *g.a_sapling[1:], *g.a_pay[1:], *g.a_cave[1:], *g.a_tree[1:]]
        for more in ("a_choose", "a_moor", "a_discard"):  # Dartmoor's kinds
            acts += list(getattr(g, more, ()))[1:]
        for c in g.deck_ids:
            acts += [Action("play", c, s, t) for s in g.cards[c].halves for t in (0, 47)]
        ids = [action_to_id(a) for a in acts]
        assert len(set(ids)) == len(ids)
        assert all(id_to_action(i) == a for i, a in zip(ids, acts, strict=True))


def test_out_of_range_is_refused() -> None:
    for bad in (Action("play", 12, "top", TREE_CAP), Action("take", CARD_SLOTS),
                Action("pay", -1), Action("jump"), Action("play", 3, "middle", 0)):
        assert not encodable(bad)
        with pytest.raises(ActionEncodingError):
            action_to_id(bad)
    for i in (-1, NUM_ACTIONS):
        with pytest.raises(ActionEncodingError):
            id_to_action(i)


def test_documented_ranges() -> None:
    assert action_to_id(Action("keep")) == 0
    assert action_to_id(Action("done")) == 5
    assert action_to_id(Action("take", 57)) == 16 + 57
    assert action_to_id(Action("sapling", 34)) == 16 + CARD_SLOTS + 34
    assert action_to_id(Action("play", 12)) == 16 + 4 * CARD_SLOTS + 12
    assert action_to_id(Action("choose", 3)) == 16 + 5 * CARD_SLOTS + 3
    assert action_to_id(Action("discard", 40)) == 16 + 7 * CARD_SLOTS + 40
    assert BLOCK_BASE["moor"] == 16 + 6 * CARD_SLOTS
    assert action_to_id(Action("play", 71, "left", 2)) == HALF_BASE + (71 * 4 + 2) * TREE_CAP + 2
    assert 16 + 12 * CARD_SLOTS + CARD_SLOTS * len(SIDES) * TREE_CAP == NUM_ACTIONS


_PROBE = ("import forest_shuffle; from forest_shuffle.rl.actions import action_to_id; "
          "from forest_shuffle.engine.actions import Action; "
          "print([action_to_id(Action.parse(t)) for t in "
          "('draw','take 57','play 161 bottom 40','cave 233','mulligan','pay 9')])")


def test_ids_do_not_depend_on_the_hash_seed() -> None:
    outs = set()
    for seed in ("0", "1", "12345"):
        env = {"PYTHONHASHSEED": seed, "PATH": ""}
        outs.add(subprocess.run([sys.executable, "-c", _PROBE], env=env, check=True,
                                capture_output=True, text=True).stdout)
    assert len(outs) == 1, outs


def test_no_forest_can_outgrow_the_tree_cap() -> None:
    """The proof of the cap: every host is a card put into play at setup, and no registered
    game puts more than TREE_CAP cards into play."""
    for gid in game_ids():
        g = make_game(gid)
        for n in g.players:
            assert len(g.deck_ids) - g.removed_at_setup[n] <= TREE_CAP, (gid, n)


def _play(gid: str, n: int, seed: int, hoard: bool) -> int:
    """Play a game by random choices (``hoard``: seat 0 plays saplings and trees whenever it
    can and takes cards otherwise, the way to the largest forests); check that every legal
    action has an id; return the most hosts a forest held."""
    rng = random.Random(seed)
    s = GameState.new(n, seed, game=gid)
    most = 0
    while not s.over:
        legal = s.legal_actions()
        assert all(encodable(a) for a in legal)
        pick = []
        if hoard and s.to_move == 0 and s.decision in ("turn", "draw"):
            pick = [a for a in legal if a.kind == "sapling" or a.kind == "play" and not a.side]
            if len(s.hands[0]) < 2 or s.decision == "draw":
                pick = [a for a in legal if a.kind == "take"] or [a for a in legal
                                                                   if a.kind == "draw"]
        s.apply(rng.choice(pick or legal))
        most = max(most, *(len(f.trees) for f in s.forests))
    return most


@pytest.mark.parametrize("gid", game_ids())
def test_every_legal_action_in_play_has_an_id(gid: str) -> None:
    most = max(_play(gid, n, seed, hoard=seed % 2 == 1) for seed in range(6) for n in (2, 3, 4, 5))
    assert 20 < most < TREE_CAP
