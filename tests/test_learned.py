"""The learned player: view-only features, the numpy network, self-play data, training,
the bot's legality and budget, the ``learn`` command and ``--ray``."""

from __future__ import annotations

import builtins
import importlib.util
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from forest_shuffle.bots import DIFFICULTIES, Budget, make_bot, mcts
from forest_shuffle.bots import features as feats_mod
from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.bots.features import (
    FEATURE_NAMES,
    NUM_FEATURES,
    state_features,
    view_features,
)
from forest_shuffle.bots.greedy import greedy_action
from forest_shuffle.bots.learned import LearnedBot
from forest_shuffle.bots.mcts import evaluate
from forest_shuffle.bots.selfplay import (
    Dataset,
    continuation_targets,
    generate,
    load_dataset,
    plan,
    play_out,
    play_recorded,
    turn_positions,
)
from forest_shuffle.bots.value import DEFAULT_WEIGHTS, ValueNet, load_net, shipped_net
from forest_shuffle.cli.app import app
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import game_ids

HAS_TORCH = importlib.util.find_spec("torch") is not None
HAS_RAY = importlib.util.find_spec("ray") is not None
NO_TORCH = "PyTorch (extra 'learn') is not installed"
NO_RAY = "Ray (extra 'cluster') is not installed; CI does not install it"


def _positions(game: str, players: int, seed: int, every: int = 23) -> list[GameState]:
    """Positions along a random game (random play reaches odd corners of the rules)."""
    rng = random.Random(seed)
    state = GameState.new(players, seed, game=game)
    out = []
    k = 0
    while not state.over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        k += 1
        if k % every == 0 and not state.over:
            out.append(state.clone())
    return out


# ---------------------------------------------------------------- features


@pytest.mark.parametrize("game", game_ids())
def test_features_come_from_the_view_only(game: str) -> None:
    for n in (2, 4):
        for state in _positions(game, n, 11 + n)[::3]:
            for p in range(n):
                view = state.view(p)
                f = view_features(view)
                assert len(f) == NUM_FEATURES
                assert f == state_features(state, p)
                # Other states with the same view: the cards hidden from p dealt anew.
                det = Determinizer(view)
                for s in (1, 2):
                    assert state_features(det.sample(random.Random(s)), p) == f


@pytest.mark.parametrize("game", game_ids())
def test_species_features_count_what_the_seat_sees(game: str) -> None:
    for n in (2, 3):
        for state in _positions(game, n, 31 + n)[::4]:
            names = feats_mod.species_names(state.game)
            k = len(names)
            assert k > 0 and list(names) == sorted(set(names))
            for p in range(n):
                f = feats_mod.species_features(state, p)
                assert len(f) == 5 * k and all(v >= 0 for v in f)
                assert feats_mod.species_features(state, p, blocks=4) == f[:4 * k]
                # The own forest's block counts its face-up hosts and its dwellers; the
                # hand's every half of its cards; the clearing's likewise.
                forest = state.forests[p]
                seen = sum(1 for h in forest.trees if h.species is not None) + sum(
                    len(st) for h in forest.trees for st in h.slots.values())
                assert round(3 * sum(f[:k])) == seen
                halves = sum(1 if state.game.cards[c].species is not None
                             else len(state.game.cards[c].halves)
                             for c in state.hands[p])
                assert round(3 * sum(f[2 * k:3 * k])) == halves
                if n == 2:
                    # Two players: the five blocks hold every deck card once, species by
                    # species: a card in a forest as the species it was played as, any
                    # other (a face-down host too) as each of its halves.
                    placed = {}
                    for fo in state.forests:
                        for h in fo.trees:
                            if h.card is not None and h.species is not None:
                                placed[h.card] = h.species.name
                            for st in h.slots.values():
                                placed.update((d.card, d.species.name) for d in st
                                              if d.card is not None)
                    deck = [0] * k
                    at = {name: i for i, name in enumerate(names)}
                    for c in state.game.deck_ids:
                        card = state.game.cards[c]
                        for sp in ([placed[c]] if c in placed
                                   else [card.species.name] if card.species is not None
                                   else [h.species.name for h in card.halves.values()]):
                            deck[at[sp]] += 1
                    got = [round(3 * sum(f[b * k + i] for b in range(5))) for i in range(k)]
                    assert got == deck
                # Other states with the same view: the same inputs.
                det = Determinizer(state.view(p))
                assert feats_mod.species_features(det.sample(random.Random(3)), p) == f


def test_the_pool_features_value_the_unseen_cards() -> None:
    at = FEATURE_NAMES.index("me_pool")
    assert FEATURE_NAMES[at:] == ("me_pool", "me_pool_top", "riv_pool", "riv_clearing")
    states = _positions("base", 2, 21)
    for state in states[::5]:
        full = state_features(state, 0)
        # A network of the first features gets them alone, the pool's left at 0.
        short = state_features(state, 0, at)
        assert short[:at] == full[:at] and short[at:] == [0.0] * 4
        # Keep values lie in [1, 6.5]; the best quarter is worth at least the mean.
        assert 1 / 7 <= full[at] <= full[at + 1] <= 6.5 / 7 and 1 / 7 <= full[at + 2] <= 6.5 / 7
        assert full[at + 3] == 0.0 or 1 / 7 <= full[at + 3] <= 6.5 / 7
    # The pool shrinks as cards come into sight: a forest's cards are not in it, so
    # playing on changes what it is worth.
    first, last = state_features(states[0], 0), state_features(states[-1], 0)
    assert first[at:at + 3] != last[at:at + 3]


def test_hidden_cards_change_nothing_when_swapped_by_hand() -> None:
    state = _positions("base", 3, 5)[4]
    other = state.clone()
    # Swap a rival's hand with the top of the deck: p=0 cannot tell.
    k = min(len(other.hands[1]), len(other.deck))
    assert k > 0
    hand, top = other.hands[1][:k], other.deck[-k:]
    other.hands[1][:k], other.deck[-k:] = top, hand
    assert other.hands[1] != state.hands[1]
    assert state_features(other, 0) == state_features(state, 0)
    assert state_features(other, 1) != state_features(state, 1) or hand == top


def test_the_search_judgement_among_the_features_is_the_search_evaluation() -> None:
    assert (feats_mod.HAND_WEIGHT, feats_mod.SLOT, feats_mod.SCALE) == (
        mcts.HAND_WEIGHT, mcts.SLOT, mcts.SCALE)
    at = FEATURE_NAMES.index("me_base")
    checked = 0
    for n in (2, 3, 4):
        for state in _positions("base", n, 30 + n, every=17)[::4]:
            for p in range(n):
                f = state_features(state, p)
                free = sum(1 for t in state.forests[p].trees for st in t.slots.values()
                           if not st)
                mine = (state.game.totals(state.forests)[p] + mcts.hand_points(state, p)
                        + mcts.SLOT * mcts.deck_left(state) * free)
                assert f[at] * 100 == pytest.approx(mine, abs=1e-9)
            # With the rivals' hands gone (into the deck) nothing is hidden that the search
            # would count, and ``base_reward`` is the search's own reward.
            bare = state.clone()
            for i in range(1, n):
                bare.deck.extend(bare.hands[i])
                bare.hands[i].clear()
            f = state_features(bare, 0)
            assert f[at + 3] == pytest.approx(mcts.evaluate(bare, 0, 2), abs=1e-9)
            assert f[at + 2] == pytest.approx(f[at] - f[at + 1], abs=1e-12)
            checked += 1
    assert checked >= 6


# ---------------------------------------------------------------- the network


def _random_net(seed: int, hidden: int = 16) -> ValueNet:
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(NUM_FEATURES, hidden)), rng.normal(size=hidden)),
              (rng.normal(size=(hidden, 2)), rng.normal(size=2))]
    return ValueNet(rng.normal(size=NUM_FEATURES), rng.uniform(0.5, 2, NUM_FEATURES), layers)


def test_numpy_network_shapes_are_checked() -> None:
    net = _random_net(1)
    with pytest.raises(ValueError, match="shapes"):
        ValueNet(net.mean, net.mean, [(np.zeros((NUM_FEATURES, 3)), np.zeros(3)),
                                      (np.zeros((4, 2)), np.zeros(2))])
    out = net.forward(np.zeros((5, NUM_FEATURES)))
    assert out.shape == (5, 2)
    margin, win = net.predict([0.0] * NUM_FEATURES)
    assert 0.0 <= win <= 1.0 and np.isfinite(margin)


def test_a_network_of_the_first_features_reads_only_those(tmp_path: Path) -> None:
    from forest_shuffle.bots.train import TrainResult

    rng = np.random.default_rng(2)
    k = NUM_FEATURES - 4
    layers = [(rng.normal(size=(k, 8)), rng.normal(size=8)),
              (rng.normal(size=(8, 2)), rng.normal(size=2))]
    mean, std = rng.normal(size=k), rng.uniform(0.5, 2, k)
    TrainResult(mean, std, layers).save(str(tmp_path / "old.npz"))
    with np.load(tmp_path / "old.npz") as d:
        arrays = dict(d)
    arrays["names"] = np.array(FEATURE_NAMES[:k])
    np.savez(tmp_path / "old.npz", **arrays)
    net = load_net(tmp_path / "old.npz")
    assert net.inputs == k
    x = rng.normal(size=(4, NUM_FEATURES))
    y = x.copy()
    y[:, k:] = 99.0  # the appended features do not reach it
    assert np.allclose(net.forward(x), net.forward(y))
    arrays["names"] = np.array(FEATURE_NAMES[1:k + 1])
    np.savez(tmp_path / "shifted.npz", **arrays)
    with pytest.raises(ValueError, match="other features"):
        load_net(tmp_path / "shifted.npz")


def test_a_network_that_sees_the_species_plays_its_own_game(tmp_path: Path) -> None:
    from forest_shuffle.engine.game import game_by_id

    names = FEATURE_NAMES + feats_mod.species_feature_names(game_by_id("base"))
    k = len(names)
    rng = np.random.default_rng(4)
    arrays = {"mean": rng.normal(size=k), "std": rng.uniform(0.5, 2, k),
              "w0": rng.normal(size=(k, 8)), "b0": rng.normal(size=8),
              "w1": rng.normal(size=(8, 2)), "b1": rng.normal(size=2),
              "names": np.array(names), "game": np.array("base")}
    np.savez(tmp_path / "sp.npz", **arrays)
    net = load_net(tmp_path / "sp.npz")
    assert net.species_game == "base" and net.inputs == k
    state = _positions("base", 2, 41)[3]
    wide = state_features(state, 0) + feats_mod.species_features(state, 0)
    for seat in (0, 1):  # the table scored once, the same inputs
        assert (feats_mod.wide_features(state, seat)
                == state_features(state, seat) + feats_mod.species_features(state, seat))
    want = net.predict(wide)[1]
    assert mcts.learned_reward(state, 0, 15.0, path=str(tmp_path / "sp.npz")) == want
    # The species reach it: other counts, another judgement.
    other = list(wide)
    other[NUM_FEATURES] += 1.0
    assert net.predict(other)[1] != want
    # In another game the weights for every count and game judge.
    game = next(g for g in game_ids() if g != "base")
    there = _positions(game, 2, 41)[3]
    assert (mcts.learned_reward(there, 0, 15.0, path=str(tmp_path / "sp.npz"))
            == mcts.learned_reward(there, 0, 15.0, path=str(DEFAULT_WEIGHTS)))
    from forest_shuffle.bots.value import judge_net, usual_net

    assert judge_net(str(tmp_path / "sp.npz"), 2, "base").species_game == "base"
    assert judge_net(str(tmp_path / "sp.npz"), 2, game) is shipped_net(str(DEFAULT_WEIGHTS))
    # What judges rows of the usual features alone: never a network of the species.

    for n in range(2, 6):
        assert not usual_net(n).species_game and usual_net(n).inputs <= NUM_FEATURES
    # Names that are not the game's species inputs, or a width that is not theirs: refused.
    np.savez(tmp_path / "bad.npz", **{**arrays, "names": np.array(names[:-1] + ("x",))})
    with pytest.raises(ValueError, match="other features"):
        load_net(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="reads"):
        ValueNet(arrays["mean"][:-1], arrays["std"][:-1],
                 [(arrays["w0"][:-1], arrays["b0"]), (arrays["w1"], arrays["b1"])],
                 species_game="base")
    # A network of the first four blocks (the shipped 2-player one) reads those alone.
    four = len(feats_mod.wide_feature_names(game_by_id("base"), 4))
    cut = {**arrays, "mean": arrays["mean"][:four], "std": arrays["std"][:four],
           "w0": arrays["w0"][:four], "names": np.array(names[:four])}
    np.savez(tmp_path / "four.npz", **cut)
    net4 = load_net(tmp_path / "four.npz")
    assert net4.species_blocks == 4 and net4.inputs == four < k
    assert (mcts.learned_reward(state, 1, 15.0, path=str(tmp_path / "four.npz"))
            == net4.predict(feats_mod.wide_features(state, 1, 4))[1])
    assert feats_mod.wide_features(state, 1, 4) == feats_mod.wide_features(state, 1)[:four]
    assert load_net(tmp_path / "sp.npz").species_blocks == 5
    shipped2 = shipped_net("", 2)
    if shipped2.species_game:
        assert shipped2.inputs == len(feats_mod.wide_feature_names(
            game_by_id(shipped2.species_game), shipped2.species_blocks))


def test_a_file_that_is_no_network_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, names=np.array(["x"]))
    with pytest.raises(ValueError, match="other features"):
        load_net(bad)
    with pytest.raises(ValueError, match="cannot be read"):
        load_net(tmp_path / "missing.npz")


def test_shipped_weights_load_and_are_small() -> None:
    assert DEFAULT_WEIGHTS.is_file()
    assert DEFAULT_WEIGHTS.stat().st_size < 3_000_000
    net = shipped_net()
    state = _positions("base", 2, 3)[3]
    margin, win = net.predict(state_features(state, 0))
    assert 0.0 <= win <= 1.0 and abs(margin) < 1000


def test_a_network_for_one_player_count_takes_its_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from forest_shuffle.bots import value
    from forest_shuffle.bots.value import count_weights

    for n in range(2, 6):  # what ships: each count's own file, or the shared one
        own = count_weights(n)
        want = load_net(own if own.is_file() else DEFAULT_WEIGHTS)
        got = shipped_net(players=n)
        assert got.meta == want.meta and np.array_equal(got.mean, want.mean)
    assert shipped_net().meta == load_net(DEFAULT_WEIGHTS).meta
    # A file for 3 players alone is read at 3 players only, and the reward follows it.
    import shutil
    shutil.copy(DEFAULT_WEIGHTS, tmp_path / "value-3p.npz")
    with np.load(tmp_path / "value-3p.npz") as d:
        arrays = {k: d[k] for k in d.files}
    arrays["b0"] = arrays["b0"] + 5.0
    np.savez(tmp_path / "value-3p.npz", **arrays)
    monkeypatch.setattr(value, "count_weights", lambda n: tmp_path / f"value-{n}p.npz")
    shipped_net.cache_clear()
    value.judge_net.cache_clear()
    try:
        assert not np.array_equal(shipped_net(players=3).layers[0][1],
                                  shipped_net(players=2).layers[0][1])
        assert np.array_equal(shipped_net(players=2).layers[0][1],
                              load_net(DEFAULT_WEIGHTS).layers[0][1])
        state = _positions("base", 3, 5)[2]
        feats = state_features(state, 0)
        _, win3 = load_net(tmp_path / "value-3p.npz").predict(feats)
        assert value.learned_reward(state, 0, 15.0) == pytest.approx(win3)
    finally:
        shipped_net.cache_clear()
        value.judge_net.cache_clear()


@pytest.mark.skipif(not HAS_TORCH, reason=NO_TORCH)
def test_numpy_forward_equals_torch(tmp_path: Path) -> None:
    import torch
    from torch import nn

    from forest_shuffle.bots.train import TrainResult, export_layers, export_skip

    torch.manual_seed(3)
    net = nn.Sequential(nn.Linear(NUM_FEATURES, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                        nn.Linear(32, 2))
    lin = nn.Linear(NUM_FEATURES, 2, bias=False)
    mean = np.linspace(-1, 1, NUM_FEATURES)
    std = np.linspace(0.5, 2, NUM_FEATURES)
    TrainResult(mean, std, export_layers(net)).save(str(tmp_path / "n.npz"))
    TrainResult(mean, std, export_layers(net), skip=export_skip(lin)).save(
        str(tmp_path / "s.npz"))
    ours = load_net(tmp_path / "n.npz")
    with_skip = load_net(tmp_path / "s.npz")
    assert ours.skip is None and with_skip.skip is not None
    x = np.random.default_rng(4).normal(size=(64, NUM_FEATURES))
    scaled = torch.tensor((x - mean.astype(np.float32)) / std.astype(np.float32),
                          dtype=torch.float32)
    with torch.no_grad():
        theirs = net(scaled).numpy()
        theirs_skip = (net(scaled) + lin(scaled)).numpy()
    assert np.allclose(ours.forward(x), theirs, atol=1e-4)
    assert np.allclose(with_skip.forward(x), theirs_skip, atol=1e-4)
    assert not np.allclose(theirs, theirs_skip, atol=1e-3)


# ---------------------------------------------------------------- data and training


def test_self_play_records_the_mover_and_is_reproducible() -> None:
    jobs = plan(5, 1, [2, 3], lineups=((1.0, ("greedy:exact=0",)),), rate=0.2)
    assert [j[1] for j in jobs] == [2, 3]
    a = play_recorded(jobs[0])
    b = play_recorded(jobs[0])
    assert a == b
    feats, margins, wins, n, _ = a
    assert feats and len(feats) == len(margins) == len(wins) and n == 2
    # Two players: one seat's margin is the other's negated, so wins follow margins.
    for m, w in zip(margins, wins, strict=True):
        assert (w == 1.0) == (m > 0) or m == 0


def test_turn_positions_are_the_games_turn_decisions() -> None:
    state = GameState.new(2, 21)
    turns = turn_positions(state)
    assert state.over and len(turns) > 20
    assert all(t.stack[-1].kind == "turn" and not t.over for t in turns)
    assert [t.turn for t in turns] == sorted(t.turn for t in turns)
    # The same game as playing it out: the last turn position played on ends as it did.
    assert play_out(turns[-1].clone()).scores() == state.scores()


def test_continuation_targets_average_resampled_games() -> None:
    own = plan(5, 1, [2], lineups=((1.0, ("greedy:exact=0",)),), rate=0.1)
    cont = plan(5, 1, [2], lineups=((1.0, ("greedy:exact=0",)),), rate=0.1,
                continuations=4)
    a, b = play_recorded(own[0]), play_recorded(cont[0])
    # The same positions (playing on does not disturb the game), other targets.
    assert a[0] == b[0] and len(b[1]) == len(a[1]) > 1
    assert b == play_recorded(cont[0])
    assert b[1] != a[1]
    for m, w in zip(b[1], b[2], strict=True):
        # Two players: each game's win share is 0, 1/2 or 1, so four make eighths.
        assert 0.0 <= w <= 1.0 and (8 * w) == round(8 * w)
        assert m * 4 == round(m * 4)  # four whole margins
    # The mean of K games is the mean of their outcomes, one by one: the first game of
    # two is the one game of the same seed.
    state = GameState.new(2, 11)
    for _ in range(40):
        state.apply(greedy_action(state, exact=False))
    assert state.to_move is not None
    view = state.view(state.to_move)
    one, two = continuation_targets(view, 1, 99), continuation_targets(view, 2, 99)
    assert (one[1] == 1.0) == (one[0] > 0) and one[1] in (0.0, 0.5, 1.0)
    second = (2 * two[0] - one[0], 2 * two[1] - one[1])
    assert second[0] == round(second[0]) and second[1] in (0.0, 0.5, 1.0)
    assert (second[1] == 1.0) == (second[0] > 0)
    assert continuation_targets(view, 2, 99) == two


def test_paired_deals_rotate_the_seats() -> None:
    jobs = plan(9, 2, [2], lineups=((1.0, ("mcts:iterations=6", "greedy")),))
    assert len(jobs) == 2
    assert jobs[0][2] == jobs[1][2]  # the same deal
    assert jobs[0][3] == ("mcts:iterations=6", "greedy")
    assert jobs[1][3] == ("greedy", "mcts:iterations=6")


def test_generate_is_the_same_with_workers(tmp_path: Path) -> None:
    jobs = plan(6, 2, [2], lineups=((1.0, ("greedy:exact=0",)),), rate=0.1)
    one = generate(jobs, 1)
    two = generate(jobs, 2)
    assert np.array_equal(one.x, two.x) and np.array_equal(one.margin, two.margin)
    one.save(str(tmp_path / "d.npz"))
    back = load_dataset(str(tmp_path / "d.npz"))
    assert np.array_equal(back.x, one.x) and np.array_equal(back.game, one.game)


def test_data_of_the_first_features_still_reads(tmp_path: Path) -> None:
    jobs = plan(6, 1, [2], lineups=((1.0, ("greedy:exact=0",)),), rate=0.1)
    data = generate(jobs)
    k = FEATURE_NAMES.index("me_pool")
    old = Dataset(data.x[:, :k].copy(), data.margin, data.win, data.players, data.game)
    old.save(str(tmp_path / "old.npz"))
    back = load_dataset(str(tmp_path / "old.npz"))
    assert back.x.shape == (len(data), k) and np.array_equal(back.x, data.x[:, :k])
    if HAS_TORCH:
        from forest_shuffle.bots.train import train

        train(back, seed=1, epochs=1, hidden=4).save(str(tmp_path / "net.npz"))
        assert load_net(tmp_path / "net.npz").inputs == k
    odd = Dataset(data.x[:, 1:k].copy(), data.margin, data.win, data.players, data.game)
    np.savez_compressed(tmp_path / "odd.npz", x=odd.x, margin=odd.margin, win=odd.win,
                        players=odd.players, game=odd.game,
                        names=np.array(FEATURE_NAMES[1:k]), meta=np.array(""))
    with pytest.raises(ValueError, match="other features"):
        load_dataset(str(tmp_path / "odd.npz"))


@pytest.mark.skipif(not HAS_TORCH, reason=NO_TORCH)
def test_tiny_training_run_end_to_end(tmp_path: Path) -> None:
    from forest_shuffle.bots.train import train

    jobs = plan(7, 3, [2], lineups=((1.0, ("greedy:exact=0",)),), rate=0.5)
    data = generate(jobs)
    first = train(data, seed=1, epochs=3, hidden=8)
    again = train(data, seed=1, epochs=3, hidden=8)
    for (w1, b1), (w2, b2) in zip(first.layers, again.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    assert first.skip is not None and again.skip is not None
    assert np.array_equal(first.skip, again.skip) and np.abs(first.skip).sum() > 0
    assert train(data, seed=1, epochs=1, hidden=8, skip=False).skip is None
    first.save(str(tmp_path / "net.npz"))
    net = load_net(tmp_path / "net.npz")
    assert np.allclose(net.forward(data.x[:3]).shape, (3, 2))
    assert 0.0 <= first.figures["win_accuracy"] <= 1.0


# ---------------------------------------------------------------- the bot


def test_expert_is_the_learned_bot() -> None:
    assert DIFFICULTIES["expert"].startswith("learned")
    bot = make_bot("expert", 1)
    assert isinstance(bot, LearnedBot) and bot.hv == 5
    assert make_bot("learned:time=0.3", 1).describe() == "learned:time=0.3"


def test_a_network_file_of_ones_own_plays_in_place_of_the_shipped_one(
        tmp_path: Path) -> None:
    net = _random_net(3)
    arrays = {"mean": net.mean, "std": 1.0 / net.inv_std, "names": np.array(FEATURE_NAMES),
              "w0": net.layers[0][0], "b0": net.layers[0][1], "w1": net.layers[1][0],
              "b1": net.layers[1][1]}
    np.savez(tmp_path / "mine.npz", **arrays)  # type: ignore[arg-type]
    path = str(tmp_path / "mine.npz")
    state = _positions("base", 2, 8)[6]
    mine = load_net(path)
    _, win = mine.predict(state_features(state, 0))
    assert evaluate(state, 0, 5, net=path) == pytest.approx(win)
    assert evaluate(state, 0, 5, net=path) != evaluate(state, 0, 5)
    bot = make_bot(f"learned:iterations=30,net={path}", 2)
    assert isinstance(bot, LearnedBot) and bot.net == path
    view = state.view(state.to_move or 0)
    assert bot.choose(view) in view.legal_actions
    with pytest.raises(ValueError, match="cannot be read"):
        make_bot(f"learned:net={tmp_path / 'none.npz'}", 1)


def test_learned_evaluation_is_a_reward() -> None:
    for state in _positions("base", 3, 8)[::4]:
        for hv in (5, 6):
            r = evaluate(state, 0, hv)
            assert 0.0 <= r <= 1.0


def _finished(players: int, seed: int) -> GameState:
    state = GameState.new(players, seed)
    while not state.over:
        state.apply(greedy_action(state))
    return state


def test_a_finished_rollout_is_judged_on_the_network_scale() -> None:
    """hv=5 (a win probability): a finished game is worth its win share, a little more for
    a larger margin; hv=6: the margin's logistic without the hand-fitted bonus."""
    for players, seed in ((2, 3), (2, 4), (3, 5)):
        state = _finished(players, seed)
        sc = state.scores()
        winners = state.winners()
        for me in range(players):
            best = max(v for i, v in enumerate(sc) if i != me)
            logistic = 1.0 / (1.0 + math.exp(-(sc[me] - best) / mcts.SCALE))
            share = 1.0 / len(winners) if me in winners else 0.0
            win = evaluate(state, me, 5)
            assert win == pytest.approx((1 - mcts.FINISHED_MARGIN) * share
                                        + mcts.FINISHED_MARGIN * logistic)
            assert (win > 0.9) == (share == 1.0) and (win < 0.1) == (share == 0.0)
            assert evaluate(state, me, 6) == pytest.approx(logistic)
    # A win by one point is worth nearly a certain win, not the hand-fitted 0.67.
    assert mcts.finished_reward([101, 100], 0, 5) > 0.97
    assert mcts.finished_reward([101, 100], 1, 5) < 0.03
    assert mcts.finished_reward([100, 100], 0, 5) == pytest.approx(0.5)
    assert mcts.finished_reward([100, 100, 90], 1, 5) == pytest.approx(
        0.95 * 0.5 + 0.05 * 0.5)
    assert evaluate(_finished(2, 3), 0, 2) != evaluate(_finished(2, 3), 0, 5)


@pytest.mark.parametrize("game", game_ids())
def test_learned_bot_plays_legal_actions_in_every_game(game: str) -> None:
    # 40 rollouts: enough paired rounds (6 of up to 6 candidates) for the race to decide
    # on the learned evaluation rather than fall back to greedy's choice.
    bot = make_bot("learned:iterations=40", 3)
    for n in (2, 3):
        for state in _positions(game, n, 40 + n, every=29)[::3]:
            p = state.to_move
            assert p is not None
            view = state.view(p)
            assert bot.choose(view) in view.legal_actions


def test_learned_bot_keeps_to_its_budget() -> None:
    state = GameState.new(2, 21)
    for _ in range(60):
        state.apply(greedy_action(state))
    while state.decision != "turn" or len(state.legal_actions()) < 3:
        state.apply(greedy_action(state))
    view = state.view(state.to_move or 0)
    bot = LearnedBot(seed=1)
    start = time.perf_counter()
    assert bot.choose(view, Budget(seconds=0.2)) in view.legal_actions
    spent = time.perf_counter() - start
    # As for the search bot (tests/test_bots.py): it stops at the first check after the
    # budget, one rollout on a loaded machine.
    assert 0.18 <= spent <= 0.5, spent


# ---------------------------------------------------------------- the command line


def _cli(args: list[str]) -> Any:
    return CliRunner().invoke(app, args)


def _one_line_refusal(result: Any, words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1 and words in text, text


def test_learn_generate_refuses_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "d.npz")
    _one_line_refusal(_cli(["learn", "generate", "--out", out, "--players", "2,7"]),
                      "--players")
    _one_line_refusal(_cli(["learn", "generate", "--out", out, "--players", "x"]),
                      "--players")
    _one_line_refusal(_cli(["learn", "generate", "--out", out, "--rate", "0"]), "--rate")
    _one_line_refusal(_cli(["learn", "generate", "--out", str(tmp_path / "no" / "d.npz")]),
                      "does not exist")
    _one_line_refusal(_cli(["learn", "generate", "--out", out, "--game", "chess"]),
                      "--game")
    assert not (tmp_path / "d.npz").exists()


def test_learn_train_refuses_bad_input(tmp_path: Path) -> None:
    out = str(tmp_path / "n.npz")
    _one_line_refusal(_cli(["learn", "train", "--data", str(tmp_path / "none.npz"),
                            "--out", out]), "no file")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    result = _cli(["learn", "train", "--data", str(junk), "--out", out])
    if HAS_TORCH:
        _one_line_refusal(result, "junk.npz")
    else:
        _one_line_refusal(result, "PyTorch")
    assert not (tmp_path / "n.npz").exists()


def test_learn_generate_writes_data(tmp_path: Path) -> None:
    out = tmp_path / "d.npz"
    result = _cli(["learn", "generate", "--out", str(out), "--games", "1", "--players", "2",
                   "--seed", "3", "--fast-only"])
    assert result.exit_code == 0, result.output
    assert len(load_dataset(str(out))) > 0


def _generate_plain_and(tmp_path: Path, rate: str, *extra: str
                        ) -> tuple[Dataset, Dataset, list[str]]:
    """The data of one small plan without and with ``extra`` options, and the arguments."""
    plain, more = tmp_path / "d.npz", tmp_path / "e.npz"
    args = ["learn", "generate", "--games", "1", "--players", "2", "--seed", "3",
            "--fast-only", "--rate", rate]
    assert _cli([*args, "--out", str(plain)]).exit_code == 0
    result = _cli([*args, "--out", str(more), *extra])
    assert result.exit_code == 0, result.output
    return load_dataset(str(plain)), load_dataset(str(more)), args


def test_learn_generate_with_deviating_games(tmp_path: Path) -> None:
    a, b, args = _generate_plain_and(tmp_path, "1", "--explore", "0.5")
    # the same games first, then the deviating games' positions
    assert len(b) > len(a) and np.array_equal(b.x[:len(a)], a.x)
    assert len(set(b.game.tolist())) == 2 * len(set(a.game.tolist()))
    _one_line_refusal(_cli([*args, "--out", str(tmp_path / "x.npz"), "--explore", "1.5"]),
                      "--explore")
    assert not (tmp_path / "x.npz").exists()


def test_learn_generate_with_continuation_targets(tmp_path: Path) -> None:
    a, b, args = _generate_plain_and(tmp_path, "0.05", "--continuations", "2")
    assert np.array_equal(a.x, b.x) and not np.array_equal(a.margin, b.margin)
    assert "'continuations': 2" in str(b.meta["source"])
    _one_line_refusal(_cli([*args, "--out", str(tmp_path / "x.npz"), "--continuations",
                            "-1"]), "--continuations")
    assert not (tmp_path / "x.npz").exists()


def _without(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """Imports of ``module`` (and its submodules) fail as if it were not installed."""
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == module or name.startswith(module + "."):
            raise ImportError(f"No module named {module!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


# ``learn run``: self-play data and the network trained on it in one command. A run writes
# both files and its network is the one ``learn train`` makes from the same data and seed;
# without PyTorch it refuses before any self-play; bad options are one line, nothing written.

RUN = ["learn", "run", "--games", "1", "--players", "2", "--seed", "4", "--epochs", "2",
       "--hidden", "8"]


@pytest.mark.skipif(not HAS_TORCH, reason=NO_TORCH)
def test_run_writes_the_data_and_the_network_train_makes_from_it(tmp_path: Path) -> None:
    out = tmp_path / "net.npz"
    result = _cli([*RUN, "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = tmp_path / "net-data.npz"
    assert len(load_dataset(str(data))) > 0
    again = tmp_path / "again.npz"
    trained = _cli(["learn", "train", "--data", str(data), "--out", str(again), "--seed", "4",
                    "--epochs", "2", "--hidden", "8"])
    assert trained.exit_code == 0, trained.output
    with np.load(out) as a, np.load(again) as b:
        weights = [k for k in a.files if a[k].dtype.kind == "f"]
        assert weights and sorted(a.files) == sorted(b.files) and "skip" in a.files
        for k in weights:
            assert np.array_equal(a[k], b[k]), k
    plain = tmp_path / "plain.npz"
    trained = _cli(["learn", "train", "--data", str(data), "--out", str(plain), "--seed", "4",
                    "--epochs", "2", "--hidden", "8", "--no-skip", "--weight-decay", "0"])
    assert trained.exit_code == 0, trained.output
    with np.load(plain) as c, np.load(out) as a:
        assert "skip" not in c.files and not np.array_equal(c["w0"], a["w0"])


def test_run_without_torch_refuses_before_self_play(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _without(monkeypatch, "torch")
    _one_line_refusal(_cli([*RUN, "--out", str(tmp_path / "net.npz")]), "PyTorch")
    assert list(tmp_path.iterdir()) == []


def test_run_refuses_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "net.npz")
    _one_line_refusal(_cli([*RUN, "--out", out, "--players", "1"]), "--players")
    _one_line_refusal(_cli([*RUN, "--out", out, "--layers", "9"]), "--layers")
    _one_line_refusal(_cli([*RUN, "--out", out, "--rate", "2"]), "--rate")
    _one_line_refusal(_cli([*RUN, "--out", out, "--weight-decay", "-1"]), "--weight-decay")
    _one_line_refusal(_cli([*RUN, "--out", out, "--game", "chess"]), "--game")
    _one_line_refusal(_cli([*RUN, "--out", out, "--data", str(tmp_path / "no" / "d.npz")]),
                      "--data")
    _one_line_refusal(_cli([*RUN, "--out", out, "--data", out]), "two files")
    assert list(tmp_path.iterdir()) == []




@pytest.mark.parametrize("args", [
    ["tournament", "--bots", "random,random", "--games", "2"],
    ["stats", "--bots", "random", "--games", "1"],
    ["learn", "generate", "--games", "1", "--players", "2"],
])
def test_ray_without_ray_is_one_line(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: Path) -> None:
    _without(monkeypatch, "ray")
    extra = ["--out", str(tmp_path / "o")] if args[0] != "tournament" else []
    if args[0] == "learn":
        extra = ["--out", str(tmp_path / "o.npz")]
    _one_line_refusal(_cli([*args, *extra, "--ray", "auto"]), "pip install")


@pytest.mark.skipif(not HAS_RAY, reason=NO_RAY)
def test_tournament_on_a_local_ray_equals_local_workers() -> None:
    import ray

    from forest_shuffle.cluster import ClusterUnavailable, ray_executor
    from forest_shuffle.match import tournament

    try:
        try:
            executor = ray_executor("local", num_cpus=1)
        except ClusterUnavailable as exc:  # a local cluster that cannot start here
            pytest.skip(f"a local Ray cluster did not start: {exc}")
        on_ray = tournament(["random", "greedy:exact=0"], 2, 2, 5, executor=executor)
        local = tournament(["random", "greedy:exact=0"], 2, 2, 5)
        assert [m.scores for m in on_ray.matches] == [m.scores for m in local.matches]
        data = generate(plan(4, 1, [2], lineups=((1.0, ("greedy:exact=0",)),)),
                        executor=executor)
        here = generate(plan(4, 1, [2], lineups=((1.0, ("greedy:exact=0",)),)))
        assert np.array_equal(data.x, here.x)
    finally:
        ray.shutdown()


def test_a_trained_network_of_the_species_is_saved_as_one(tmp_path: Path) -> None:
    from forest_shuffle.bots.train import TrainResult
    from forest_shuffle.engine.game import game_by_id

    k = NUM_FEATURES + len(feats_mod.species_feature_names(game_by_id("base")))
    rng = np.random.default_rng(5)
    res = TrainResult(rng.normal(size=k), rng.uniform(0.5, 2, k),
                      [(rng.normal(size=(k, 4)), rng.normal(size=4)),
                       (rng.normal(size=(4, 2)), rng.normal(size=2))])
    res.save(str(tmp_path / "sp.npz"), "base")
    net = load_net(tmp_path / "sp.npz")
    assert net.species_game == "base" and net.inputs == k
    state = _positions("base", 2, 43)[2]
    want = ValueNet(res.mean, res.std, res.layers, "", None, "base").predict(
        feats_mod.wide_features(state, 1))
    assert net.predict(feats_mod.wide_features(state, 1)) == pytest.approx(want, rel=1e-4)
    with pytest.raises(ValueError, match="reads"):  # the usual width is not the species'
        TrainResult(res.mean[:NUM_FEATURES], res.std[:NUM_FEATURES],
                    [(res.layers[0][0][:NUM_FEATURES], res.layers[0][1]), res.layers[1]]
                    ).save(str(tmp_path / "x.npz"), "base")
    assert not (tmp_path / "x.npz").exists()
