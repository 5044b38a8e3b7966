"""Observations (forest_shuffle.rl.observation): built from a player's view only, so they
never change when only cards hidden from that player change; masks are the legal actions."""

from __future__ import annotations

import random

import pytest
from rl_extra import require

(np,) = require("numpy")

from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.games import game_ids  # noqa: E402
from forest_shuffle.rl import observation as obs_mod  # noqa: E402
from forest_shuffle.rl.actions import action_to_id, id_to_action  # noqa: E402
from forest_shuffle.rl.observation import (  # noqa: E402
    FIELDS,
    OBS_SIZE,
    action_mask,
    encode,
    fields,
    view_text,
)


def _hidden(s: GameState, p: int) -> list[int]:
    """The cards ``p`` cannot see: others' unseen hand cards, caves and face-down saplings,
    the box and the deck's non-winter cards (not the cards everyone saw go into the box or
    a cave: a clearing cave's pick names them)."""
    out = [c for c in s.deck if not s.game.cards[c].is_winter]
    out += [c for c in s.box if c not in s.box_seen]
    for q in range(s.num_players):
        if q != p:
            out += [c for c in s.hands[q] if c not in s.known[q]]
            out += [c for c in s.caves[q] if c not in s.caves_seen[q]]
            out += [t.card for t in s.forests[q].trees if t.species is None and t.card]
    return out


def relabel(s: GameState, p: int, rng: random.Random) -> GameState:
    """A copy of ``s`` with the cards hidden from ``p`` shuffled among their places (every
    reference to a card, the decisions' included, follows it)."""
    hidden = _hidden(s, p)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    pi = dict(zip(hidden, shuffled, strict=True))

    def f(c: int) -> int:
        return pi.get(c, c)

    t = s.clone()
    t.deck = [f(c) for c in t.deck]
    t.box = [f(c) for c in t.box]
    for q in range(t.num_players):
        if q == p:
            continue
        t.hands[q] = [c if c in t.known[q] else f(c) for c in t.hands[q]]
        t.caves[q] = [f(c) for c in t.caves[q]]
        for host in t.forests[q].trees:
            if host.species is None and host.card:
                host.card = f(host.card)
    for d in t.stack:
        d.card = f(d.card)
        d.paid = [f(c) for c in d.paid]
        if d.pool is not None:
            d.pool = frozenset(f(c) for c in d.pool)
        if d.step is not None:
            d.step = (d.step[0], f(d.step[1]), d.step[2], d.step[3])
        d.steps = [(k, f(c), sd, n) for k, c, sd, n in d.steps]
    t.queue = [(k, f(c), sd, n) for k, c, sd, n in t.queue]
    return t


def _positions(gid: str, n: int, seed: int, every: int) -> list[GameState]:
    rng = random.Random(seed)
    s = GameState.new(n, seed, game=gid)
    out = []
    k = 0
    while not s.over:
        if k % every == 0:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
        k += 1
    out.append(s)
    return out


def test_layout_is_documented() -> None:
    assert sum(int(np.prod(shape)) for _, shape in FIELDS) == OBS_SIZE
    doc = obs_mod.__doc__ or ""
    for name, _ in FIELDS:
        assert f"\n{name} " in doc, name
    o = np.arange(OBS_SIZE, dtype=np.float32)
    views = fields(o)
    assert [v.shape for v in views.values()] == [shape for _, shape in FIELDS]
    assert views["hand"].base is o


@pytest.mark.parametrize("gid", game_ids())
def test_observation_ignores_hidden_cards(gid: str) -> None:
    rng = random.Random(7)
    changed = 0
    for n in (2, 3, 5):
        for s in _positions(gid, n, seed=n, every=23):
            for p in range(n):
                base = encode(s.view(p))
                t = relabel(s, p, rng)
                assert (t.locations() != s.locations()) or not _hidden(s, p)
                assert np.array_equal(encode(t.view(p)), base), (gid, n, p, s.turn)
                assert view_text(t.view(p)) == view_text(s.view(p))
                # the relabelled cards are hidden from p, not from everyone
                q = (p + 1) % n
                if encode(t.view(q)).tobytes() != encode(s.view(q)).tobytes():
                    changed += 1
    assert changed > 0  # the relabelling does change what others see


def test_observation_shows_what_the_player_sees() -> None:
    s = GameState.new(2, 3)
    p = s.to_move
    assert p is not None
    f = fields(encode(s.view(p)))
    assert sorted(np.flatnonzero(f["hand"]).tolist()) == sorted(s.hands[p])
    assert f["seats"][1][1] == len(s.hands[1 - p])
    # swapping an own hand card with a hidden deck card changes the observation
    t = s.clone()
    top = next(c for c in reversed(t.deck) if not t.game.cards[c].is_winter)
    i = t.deck.index(top)
    t.deck[i], t.hands[p][0] = t.hands[p][0], top
    assert not np.array_equal(encode(t.view(p)), encode(s.view(p)))


def test_out_buffer_is_reset() -> None:
    s = GameState.new(3, 11)
    out = np.full(OBS_SIZE, 9.0, np.float32)
    assert encode(s.view(1), out) is out
    assert np.array_equal(out, encode(s.view(1)))


@pytest.mark.parametrize("gid", game_ids())
def test_mask_is_the_legal_actions(gid: str) -> None:
    for s in _positions(gid, 4, seed=5, every=7):
        legal = s.legal_actions()
        mask = action_mask(legal)
        assert mask.dtype == np.int8 and mask.ndim == 1
        ids = np.flatnonzero(mask).tolist()
        assert sorted(ids) == sorted(action_to_id(a) for a in legal)
        assert all(id_to_action(i) in legal for i in ids)
