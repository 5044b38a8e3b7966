"""The Gymnasium environment (forest_shuffle.rl.gym_env): registered, passes Gymnasium's
check_env, plays against any bot, rewards as documented, and steps many games at once."""

from __future__ import annotations

import random
import warnings

import pytest
from rl_extra import require

np, gymnasium = require("numpy", "gymnasium")

import forest_shuffle.rl  # noqa: E402,F401  (registers the environment)
from forest_shuffle.games import game_ids  # noqa: E402
from forest_shuffle.rl.actions import ActionEncodingError  # noqa: E402
from forest_shuffle.rl.compact import HOST_START, NUM_COMPACT, half_of  # noqa: E402
from forest_shuffle.rl.compact_obs import layout  # noqa: E402
from forest_shuffle.rl.gym_env import BatchEnv, ForestShuffleEnv  # noqa: E402


def _make(**kw: object) -> ForestShuffleEnv:
    e = gymnasium.make("forest_shuffle/ForestShuffle-v0", **kw)
    return e.unwrapped  # type: ignore[no-any-return]


@pytest.mark.parametrize("gid", game_ids())
def test_check_env_passes(gid: str) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("forest_shuffle/ForestShuffle-v0", game=gid, players=3,
                                 opponents="random").unwrapped, skip_render_check=False)


def _play(e: ForestShuffleEnv, rng: random.Random, seed: int) -> tuple[list[float], int]:
    obs, info = e.reset(seed=seed)
    rewards = []
    steps = 0
    while True:
        mask = e.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (NUM_COMPACT,)
        assert not info
        assert obs.shape == (e.size,) and e.observation_space.contains(obs)
        ids = np.flatnonzero(mask)
        obs, r, term, trunc, info = e.step(int(rng.choice(ids)))
        rewards.append(r)
        steps += 1
        if term or trunc:
            return rewards, steps


@pytest.mark.parametrize("reward", ["win", "margin", "score"])
def test_rewards(reward: str) -> None:
    e = _make(game="base", players=3, opponents=["greedy", "random"], reward=reward)
    rewards, _ = _play(e, random.Random(1), 5)
    totals = e.state.scores()
    assert e.state.over
    if reward == "win":
        assert rewards[-1] == float(totals[0] == max(totals)) and not any(rewards[:-1])
    elif reward == "margin":
        assert rewards[-1] == totals[0] - max(totals[1:]) and not any(rewards[:-1])
    else:
        assert sum(rewards) == totals[0] and sum(r != 0 for r in rewards) > 3


def test_seeds_and_opponents_and_halves() -> None:
    a = _make(game="base+alpine", players=2, opponents="greedy")
    b = _make(game="base+alpine", players=2, opponents="greedy")
    ra, sa = _play(a, random.Random(3), 11)
    rb, sb = _play(b, random.Random(3), 11)
    assert (ra, sa) == (rb, sb) and a.state.to_dict() == b.state.to_dict()
    # a half play takes two learner steps; the observation shows the chosen half
    e = _make(game="base", players=2)
    obs, _ = e.reset(seed=4)
    rng = random.Random(4)
    for _ in range(400):
        ids = np.flatnonzero(e.action_masks())
        half = [int(i) for i in ids if half_of(int(i)) is not None]
        if half:
            n = len(e.state.history)
            obs2, r, term, _t, _i = e.step(half[0])
            assert len(e.state.history) == n and r == 0 and not term
            f = layout(e.state.game).fields_of(obs2)
            assert f["chosen_card"][half_of(half[0])[0]] == 1.0  # type: ignore[index]
            hosts = np.flatnonzero(e.action_masks())
            assert hosts.size and hosts.min() >= HOST_START
            e.step(int(hosts[0]))
            assert e.state.history[-1].side
            break
        _obs, _r, term, _t, _i = e.step(int(rng.choice(ids)))
        assert not term
    else:
        pytest.fail("no half play offered")


def test_illegal_actions_and_bad_arguments() -> None:
    e = _make(game="base", players=2)
    e.reset(seed=1)
    before = e.state.to_dict()
    bad = int(np.flatnonzero(~e.action_masks())[0])
    _o, r, term, _t, info = e.step(bad)
    assert r == -1.0 and term and info["illegal"] and e.state.to_dict() == before
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    strict = ForestShuffleEnv(illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ActionEncodingError):
        strict.step(bad)
    for kw, word in (({"players": 7}, "players"), ({"reward": "points"}, "reward"),
                     ({"seat": 2}, "seat"), ({"opponents": ["random"] * 2}, "opponents"),
                     ({"render_mode": "rgb"}, "render_mode")):
        with pytest.raises(ValueError, match=word):
            ForestShuffleEnv(**kw)  # type: ignore[arg-type]
    from forest_shuffle.bots import BotSpecError

    with pytest.raises(BotSpecError):
        ForestShuffleEnv(opponents="nobody")


def test_vector_envs_and_the_batch() -> None:
    vec = gymnasium.make_vec("forest_shuffle/ForestShuffle-v0", num_envs=3,
                             vectorization_mode="sync", game="base", players=2)
    obs, _ = vec.reset(seed=2)
    assert obs.shape == (3, layout(ForestShuffleEnv().state.game).size)
    for _ in range(30):
        masks = np.stack(vec.call("action_masks"))
        acts = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks]
        obs, *_ = vec.step(np.array(acts))
    vec.close()
    batch = BatchEnv(4, game="base", players=2, opponents="random", seed=9)
    obs, masks = batch.reset()
    assert obs.shape == (4, batch.size) and masks.shape == (4, NUM_COMPACT)
    rng = np.random.default_rng(0)
    ended = 0
    total = np.zeros(4)
    for _ in range(1500):
        acts = [rng.choice(np.flatnonzero(m)) for m in masks]
        obs, masks, rewards, term, final = batch.step(acts)
        ended += int(term.sum())
        total += rewards
        assert masks.any(axis=1).all()
    assert ended >= 4 and set(np.unique(total)) <= set(range(0, 1500))
    with pytest.raises(ValueError, match="actions"):
        batch.step([0])
