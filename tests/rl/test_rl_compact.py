"""The compact action ids (forest_shuffle.rl.compact): every legal action of random games of
every game is exactly one id, or one (half, host) pair, and converts both ways."""

from __future__ import annotations

import random

import pytest
from rl_extra import require

(np,) = require("numpy")

from forest_shuffle.engine.actions import Action  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.games import game_ids, make_game  # noqa: E402
from forest_shuffle.rl.actions import TREE_CAP, ActionEncodingError  # noqa: E402
from forest_shuffle.rl.compact import (  # noqa: E402
    COMPACT_CARDS,
    HALF_START,
    HOST_START,
    NUM_COMPACT,
    CompactDecision,
    half_of,
    join,
    split,
)

ALL = game_ids(unlisted=True)


def test_the_space_is_small_and_every_card_fits() -> None:
    assert NUM_COMPACT <= 10_000
    for gid in ALL:
        assert len(make_game(gid).cards) <= COMPACT_CARDS, gid


def _enumerate(d: CompactDecision) -> list[Action]:
    """Every action reachable through the ids of ``d`` (each id path once)."""
    out = []
    for i in d.ids():
        a = d.choose(i)
        if a is None:
            hosts = d.ids()
            assert hosts and all(HOST_START <= h < NUM_COMPACT for h in hosts)
            for k, h in enumerate(hosts):
                if k:
                    assert d.choose(i) is None
                b = d.choose(h)
                assert b is not None and d.half is None
                out.append(b)
        else:
            out.append(a)
    return out


@pytest.mark.parametrize("gid", ALL if len(ALL) < 8 else [*game_ids(), "dartmoor-solo-3"])
def test_every_legal_action_is_one_id_path_in_random_games(gid: str) -> None:
    g = make_game(gid)
    rng = random.Random(1)
    halves = 0
    for n in g.players:
        for seed in range(2):
            s = GameState.new(n, seed, game=gid)
            while not s.over:
                legal = s.legal_actions()
                d = CompactDecision(legal)
                reached = _enumerate(d)
                assert len(reached) == len(set(reached)) == len(legal)
                assert set(reached) == set(legal)
                for a in legal:
                    ids = split(a)
                    assert join(ids) == a
                    assert all(0 <= i < NUM_COMPACT for i in ids)
                    halves += len(ids) == 2
                m = d.mask()
                assert m.dtype == np.int8 and m.shape == (NUM_COMPACT,)
                assert np.flatnonzero(m).tolist() == d.ids()
                # play a random action through the ids
                i = rng.choice(d.ids())
                a = d.choose(i)
                if a is None:
                    assert half_of(i) is not None
                    assert np.flatnonzero(d.mask()).tolist() == d.ids()
                    a = d.choose(rng.choice(d.ids()))
                assert a in legal
                s.apply(a)
    assert halves > 0


def test_bad_ids_are_refused_and_change_nothing() -> None:
    s = GameState.new(2, 5)
    d = CompactDecision(s.legal_actions())
    before = d.ids()
    bad_id = next(i for i in range(NUM_COMPACT) if i not in before)
    with pytest.raises(ActionEncodingError, match="not legal"):
        d.choose(bad_id)
    assert d.ids() == before and d.half is None
    for bad in ([], [7], [HOST_START], [NUM_COMPACT], [-1], [HALF_START], [0, 1],
                [HALF_START + 1, 5]):
        with pytest.raises(ActionEncodingError):
            join(bad)
    with pytest.raises(ActionEncodingError, match="outside"):
        split(Action("take", COMPACT_CARDS))
    with pytest.raises(ActionEncodingError, match="cap"):
        split(Action("play", 3, "top", TREE_CAP))
    assert half_of(0) is None and half_of(HALF_START + 5) == (1, "bottom")


def test_a_chosen_half_offers_only_its_hosts() -> None:
    legal = [Action("draw"), Action("play", 9, "top", 0), Action("play", 9, "top", 2),
             Action("play", 9, "bottom", 1), Action("play", 12, "left", 0)]
    d = CompactDecision(legal)
    first = d.ids()
    assert len(first) == 4  # draw and three halves
    h = split(legal[1])[0]
    assert d.choose(h) is None
    assert d.ids() == [HOST_START, HOST_START + 2]
    with pytest.raises(ActionEncodingError, match="host"):
        d.choose(HOST_START + 1)
    assert d.half == h  # still waiting for the host
    d.undo()
    assert d.ids() == first


def test_an_action_beyond_the_caps_has_no_id_and_marks_none() -> None:
    # a card number beyond the compact cards: no id, so the mask shows only the draw, and
    # the reserved id its table entry points at stays off and is refused
    legal = [Action("take", COMPACT_CARDS + 3), Action("draw"), Action("take", 4)]
    for d in (CompactDecision(legal), CompactDecision(legal)):  # a second time from the table
        mask = d.mask()
        assert list(mask.nonzero()[0]) == [split(legal[1])[0], split(legal[2])[0]]
        assert d.ids() == sorted(mask.nonzero()[0])
        assert not mask.flags.writeable
        for reserved in range(6, 16):
            assert not d.mask_has(reserved)
            with pytest.raises(ActionEncodingError, match="not legal"):
                d.choose(reserved)
        assert d.choose(split(legal[2])[0]) is legal[2]
