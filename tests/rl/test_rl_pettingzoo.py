"""The PettingZoo environment (forest_shuffle.rl.pettingzoo_env): PettingZoo's own API and
seed tests for every player count and game, and the facts tools outside rely on."""

from __future__ import annotations

import random
import warnings

import pytest
from rl_extra import require

np, _pz, pz_test = require("numpy", "pettingzoo", "pettingzoo.test")

from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.games import game_ids  # noqa: E402
from forest_shuffle.rl.actions import NUM_ACTIONS, action_to_id, id_to_action  # noqa: E402
from forest_shuffle.rl.compact import HOST_START, half_of  # noqa: E402
from forest_shuffle.rl.observation import OBS_SIZE  # noqa: E402
from forest_shuffle.rl.pettingzoo_env import env, raw_env  # noqa: E402

COMBOS = [(n, g) for g in game_ids() for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("n", "gid"), COMBOS)
def test_pettingzoo_api_and_seed_tests(n: int, gid: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about Dict spaces and all-zero masks
        pz_test.api_test(env(n, gid), num_cycles=12)
        pz_test.seed_test(lambda: env(n, gid), num_cycles=4)


def _play_out(e: object, rng: random.Random) -> int:
    steps = 0
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, _r, term, trunc, _i = e.last()  # type: ignore[attr-defined]
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        ids = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(ids)))  # type: ignore[attr-defined]
        steps += 1
        assert agent
    return steps


@pytest.mark.parametrize("reward", ["win", "margin", "score"])
def test_a_whole_game_and_its_rewards(reward: str) -> None:
    e = env(3, "base+alpine", seed=4, reward=reward)
    e.reset(seed=4)
    rng = random.Random(0)
    totals: dict[str, float] = {}
    summed: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    gs_holder = e.unwrapped
    steps = 0
    for agent in e.agent_iter():
        obs, r, term, trunc, _i = e.last()
        summed[agent] += r
        if term or trunc:
            totals[agent] = r
            scores = gs_holder.game_state.scores()
            e.step(None)
            continue
        assert obs["observation"].shape == (OBS_SIZE,)
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        # the agents not to move see an all-zero mask
        for other in e.possible_agents:
            if other != agent and steps % 25 == 0:
                assert not e.unwrapped.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert not e.agents
    # each step applied exactly one action (forced ones included)
    assert steps == len(gs_holder.game_state.history)
    best = max(scores)
    if reward == "win":
        assert totals == {f"player_{i}": float(v == best) for i, v in enumerate(scores)}
    elif reward == "margin":
        assert totals["player_0"] == scores[0] - max(scores[1:])
    else:  # each agent's rewards add up to its final total
        assert summed == {f"player_{i}": float(v) for i, v in enumerate(scores)}


def test_a_state_put_in_is_what_the_env_shows() -> None:
    e = env(2, "base", seed=1)
    e.reset()
    s = GameState.new(2, 99)
    rng = random.Random(2)
    while s.to_move == 0 or s.decision == "mulligan":
        s.apply(rng.choice(s.legal_actions()))
    e.unwrapped.game_state = s
    assert e.agent_selection == "player_1"
    obs, *_ = e.last()
    legal = {action_to_id(a) for a in s.legal_actions()}
    assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
    act = next(iter(legal))
    e.step(act)
    assert s.history[-1] == id_to_action(act)


def test_spaces_are_the_same_objects_and_reset_seeds() -> None:
    e = raw_env(4, "base+woodland_edge")
    for a in e.possible_agents:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
    e.reset(seed=5)
    first = e.game_state.to_dict()
    e.reset(seed=5)
    assert e.game_state.to_dict() == first
    e.reset()
    assert e.game_state.to_dict() != first
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


@pytest.mark.parametrize("compact", [False, True])
def test_illegal_action_ends_the_game_with_a_penalty(compact: bool) -> None:
    e = env(2, "base", seed=3, compact=compact)
    e.reset(seed=3)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert all(e.terminations.values())
    assert sorted(e.rewards.values()) == [-1, 0]
    assert not e.unwrapped.game_state.history  # the game itself is unchanged
    for _agent in e.agent_iter():
        e.step(None)
    assert not e.agents


def test_render_in_words() -> None:
    e = env(2, "base", seed=8, render_mode="ansi")
    e.reset(seed=8)
    text = e.render()
    assert isinstance(text, str)
    assert "Hand:" in text and "Your forest" in text
    assert "draw from the deck" in text or "keep this hand" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(2, render_mode="rgb_array")
    with pytest.raises(ValueError, match="reward"):
        raw_env(2, reward="points")
    with pytest.raises(ValueError, match="players"):
        raw_env(6)
    played = env(2, "base", seed=1)
    played.reset()
    assert _play_out(played, random.Random(1)) > 50


@pytest.mark.parametrize(("n", "gid"), COMBOS)
def test_the_compact_env_passes_pettingzoos_tests(n: int, gid: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pz_test.api_test(env(n, gid, compact=True), num_cycles=12)
        pz_test.seed_test(lambda: env(n, gid, compact=True), num_cycles=4)


def test_render_test_and_the_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pz_test.render_test(lambda render_mode=None: env(2, "base", seed=1,
                                                         render_mode=render_mode))
        pz_test.performance_benchmark(env(2, "base", seed=3, compact=True))
    assert "Hand:" in capsys.readouterr().out  # "human" writes the view in words


def test_a_compact_half_play_is_two_steps_of_one_agent() -> None:
    e = env(2, "base", seed=6, compact=True)
    e.reset(seed=6)
    rng = random.Random(6)
    halves = 0
    for agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        half = [i for i in ids if half_of(int(i)) is not None]
        if half and halves < 5:
            before = len(e.unwrapped.game_state.history)
            e.step(int(rng.choice(half)))
            assert e.agent_selection == agent  # the host comes next, from the same agent
            assert len(e.unwrapped.game_state.history) == before
            obs2, *_ = e.last()
            hosts = np.flatnonzero(obs2["action_mask"])
            assert hosts.size and all(i >= HOST_START for i in hosts)
            e.step(int(rng.choice(hosts)))
            assert e.unwrapped.game_state.history[-1].side  # a half was played
            halves += 1
            continue
        e.step(int(rng.choice(ids)))
    assert halves > 0
