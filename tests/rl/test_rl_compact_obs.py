"""The compact observation (forest_shuffle.rl.compact_obs): the same from the state as from
the view, blind to every card hidden from the player, small, scaled and documented."""

from __future__ import annotations

import random

import pytest
from rl_extra import require

(np,) = require("numpy")

from test_rl_observation import _hidden, _positions, relabel  # noqa: E402

from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.games import game_ids, make_game  # noqa: E402
from forest_shuffle.rl import compact_obs  # noqa: E402
from forest_shuffle.rl.compact_obs import (  # noqa: E402
    Encoder,
    encode_state,
    encode_view,
    layout,
)


def test_layout_is_small_and_documented() -> None:
    doc = compact_obs.__doc__ or ""
    for gid in game_ids(unlisted=True):
        lay = layout(make_game(gid))
        assert lay.size <= 4000, gid
        assert sum(int(np.prod(shape)) for _, shape in lay.fields) == lay.size
        for name, _ in lay.fields:
            assert f"\n{name} " in doc, name
    assert f"{layout(make_game('base')).size:,} floats in the base game" in doc
    assert f"{layout(make_game('dartmoor')).size:,} in" in doc


@pytest.mark.parametrize("gid", game_ids())
def test_state_and_view_agree_and_hidden_cards_change_nothing(gid: str) -> None:
    rng = random.Random(3)
    changed = 0
    for n in (2, 3, 5):
        for s in _positions(gid, n, seed=10 + n, every=17):
            for p in range(n):
                a = encode_state(s, p)
                assert a.dtype == np.float32
                assert np.array_equal(a, encode_view(s.view(p))), (gid, n, p, s.turn)
                assert a.min() >= 0.0 and a.max() <= 8.0
                t = relabel(s, p, rng)
                assert (t.locations() != s.locations()) or not _hidden(s, p)
                assert np.array_equal(encode_state(t, p), a), (gid, n, p, s.turn)
                q = (p + 1) % n
                changed += not np.array_equal(encode_state(t, q), encode_state(s, q))
    assert changed > 0  # the relabelled cards are hidden from p, not from everyone


def test_what_it_shows() -> None:
    s = GameState.new(2, 3)
    p = s.to_move
    assert p is not None
    lay = layout(s.game)
    f = lay.fields_of(encode_state(s, p))
    assert sorted(np.flatnonzero(f["hand"]).tolist()) == sorted(s.hands[p])
    assert f["seats"][1][1] == pytest.approx(len(s.hands[1 - p]) / 10)
    assert f["num_players"][1] == 1.0 and f["current"][0] == 1.0
    chosen = encode_state(s, p, chosen=(s.hands[p][0], "left"))
    g = lay.fields_of(chosen)
    assert g["chosen_card"][s.hands[p][0]] == 1.0 and g["chosen_side"][2] == 1.0
    out = np.full(lay.size, 7.0, np.float32)
    assert encode_state(s, p, out) is out
    assert np.array_equal(out, encode_state(s, p))
    # a different own hand is a different observation
    t = s.clone()
    top = next(c for c in reversed(t.deck) if not t.game.cards[c].is_winter)
    i = t.deck.index(top)
    t.deck[i], t.hands[p][0] = t.hands[p][0], top
    assert not np.array_equal(encode_state(t, p), encode_state(s, p))
    with pytest.raises(ValueError, match="seat"):
        encode_state(s, 2)


def test_forest_rows_follow_the_forest() -> None:
    rng = random.Random(4)
    s = GameState.new(2, 8)
    lay = layout(s.game)
    before = encode_state(s, 0).copy()
    while not s.forests[0].trees or s.to_move != 0:
        s.apply(rng.choice(s.legal_actions()))
    after = lay.fields_of(encode_state(s, 0))
    assert not np.array_equal(lay.fields_of(before)["forest"][0], after["forest"][0])
    assert after["own_trees"][0][0] == 1.0
    # the summary agrees with a count of the hosts
    for q in range(2):
        f = s.forests[q]
        row = lay.fields_of(encode_state(s, 0))["forest"][(q - 0) % 2][len(lay.species):]
        down = sum(t.species is None for t in f.trees)
        dwellers = sum(len(t.slots[x]) for t in f.trees for x in t.slots)
        assert row[:3] == pytest.approx([len(f.trees) / 20, down / 10, dwellers / 40])


@pytest.mark.parametrize("gid", game_ids())
def test_an_encoder_that_keeps_what_it_wrote_agrees(gid: str) -> None:
    enc = Encoder(make_game(gid))
    rng = random.Random(8)
    for n in (3, 2, 4):  # one encoder across player counts
        s = GameState.new(n, 20 + n, game=gid)
        k = 0
        while not s.over:
            for p in range(n):
                chosen = (s.hands[p][0], "top") if s.hands[p] and k % 5 == 0 else None
                assert np.array_equal(enc.state(s, p, chosen),
                                      encode_state(s, p, chosen=chosen)), (gid, n, k, p)
            if k == 60:  # another game's state put in its place
                s = GameState.new(n, 99, game=gid)
            else:
                s.apply(rng.choice(s.legal_actions()))
            k += 1
    with pytest.raises(ValueError, match="encoder"):
        enc.state(GameState.new(2, 1, game="dartmoor" if gid != "dartmoor" else "base"), 0)
