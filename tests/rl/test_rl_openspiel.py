"""The OpenSpiel game (forest_shuffle.rl.openspiel_game): registration, pyspiel's random
simulation test, OpenSpiel's IS-MCTS, observers, copies, and resampling for any seat."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from rl_extra import require

np, pyspiel = require("numpy", "pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from test_rl_seen_out import passages  # noqa: E402

import forest_shuffle.rl.openspiel_game as osg  # noqa: E402
from forest_shuffle.bots.determinize import Determinizer  # noqa: E402
from forest_shuffle.engine.check import check_state  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402
from forest_shuffle.games import game_ids  # noqa: E402
from forest_shuffle.rl.actions import NUM_ACTIONS, action_to_id  # noqa: E402
from forest_shuffle.rl.memory import (  # noqa: E402
    MEMORY_SIZE,
    hidden_places,
    visible,
    visible_all,
)
from forest_shuffle.rl.observation import OBS_SIZE, view_text  # noqa: E402
from forest_shuffle.rl.resample import resample  # noqa: E402


def _load(n: int = 2, gid: str = "base") -> pyspiel.Game:
    return pyspiel.load_game(osg.SHORT_NAME, {"players": n, "game": gid})


def _dealt(game: pyspiel.Game, seed: int, moves: int) -> pyspiel.State:
    """A state after the deal and ``moves`` random moves."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.randrange(256))
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_registration_and_parameters() -> None:
    game = pyspiel.load_game(osg.SHORT_NAME)
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.parameter_specification == {"players": 2, "game": "base", "compact": False}
    assert game.num_players() == 2 and game.num_distinct_actions() == NUM_ACTIONS
    assert game.information_state_tensor_size() == OBS_SIZE + MEMORY_SIZE
    assert game.observation_tensor_size() == OBS_SIZE
    for n in (2, 3, 4, 5):
        assert _load(n, "base+woodland_edge+alpine").num_players() == n
    with pytest.raises(Exception, match="players"):
        _load(6)


def test_the_deal_then_no_chance() -> None:
    s = _load(3).new_initial_state()
    assert s.game_state is None
    for b in range(osg.DEAL_STEPS):
        assert s.is_chance_node()
        s.apply_action(b + 1)
    assert s.game_state.seed == int.from_bytes(bytes(range(1, osg.DEAL_STEPS + 1)), "big")
    rng = random.Random(0)
    while not s.is_terminal():
        assert not s.is_chance_node()
        legal = s.legal_actions()
        assert legal == sorted(action_to_id(a) for a in s.game_state.legal_actions())
        s.apply_action(rng.choice(legal))
    assert s.game_state.over  # the engine state stays there at the end
    sc = s.game_state.scores()
    assert s.returns() == [1.0 if v == max(sc) else 0.0 for v in sc]


@pytest.mark.parametrize(("n", "gid", "serialize"),
                         [(2, "base", True), (3, "base+woodland_edge", False)])
def test_pyspiel_random_simulation(n: int, gid: str, serialize: bool) -> None:
    pyspiel.random_sim_test(_load(n, gid), num_sims=1, serialize=serialize, verbose=False)


def test_pyspiel_random_simulation_five_players() -> None:
    pyspiel.random_sim_test(_load(5, "base+alpine+woodland_edge"), num_sims=1,
                            serialize=False, verbose=False)


def test_ismcts_runs() -> None:
    game = _load(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                           uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(2))
    s = _dealt(game, 5, 6)
    while len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    action = bot.step(s)
    assert action in s.legal_actions()


def test_copies_are_cheap_and_independent() -> None:
    s = _dealt(_load(3), 2, 30)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert len(s.game_state.history) + 1 == len(c.game_state.history)
    d = copy.deepcopy(s.game_state)
    assert d is not s.game_state and d.game is s.game_state.game
    assert d.to_dict() == s.game_state.to_dict()
    back = pickle.loads(pickle.dumps(s.game_state))
    assert back.to_dict() == s.game_state.to_dict()
    seen = pickle.loads(pickle.dumps(s.seen))
    assert seen.cards == s.seen.cards
    whole = pickle.loads(pickle.dumps(s))
    assert whole.history() == s.history()
    assert whole.information_state_string(1) == s.information_state_string(1)


def test_observer_tensor_and_dict() -> None:
    game = _load(2)
    s = _dealt(game, 3, 10)
    p = s.current_player()
    obs = game.make_py_observer()
    obs.set_from(s, p)
    assert obs.tensor.shape == (OBS_SIZE,)
    assert sorted(np.flatnonzero(obs.dict["hand"]).tolist()) == sorted(s.game_state.hands[p])
    assert obs.string_from(s, p) == view_text(s.game_state.view(p))
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(s, p)
    assert info.tensor.shape == (OBS_SIZE + MEMORY_SIZE,) and "seen_in_box" in info.dict
    assert np.array_equal(np.asarray(s.information_state_tensor(p)), info.tensor)
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(s, p)
    assert not public.dict["hand"].any()


def test_visible_all_agrees_with_the_views() -> None:
    for gid in game_ids():
        s = _dealt(_load(4, gid), 9, 0)
        rng = random.Random(1)
        while not s.is_terminal():
            gs = s.game_state
            if len(gs.history) % 9 == 0:
                assert visible_all(gs) == [visible(gs.view(p)) for p in range(4)]
            s.apply_action(rng.choice(s.legal_actions()))


def _remembering_positions(seed: int, n: int, gid: str) -> list[pyspiel.State]:
    """Positions of a random game where some player remembers a card out of sight."""
    s = _dealt(_load(n, gid), seed, 0)
    rng = random.Random(seed)
    out = []
    while not s.is_terminal():
        if any(s.memory(p) for p in range(n)) and rng.random() < 0.2:
            out.append(s.clone())
        s.apply_action(rng.choice(s.legal_actions()))
    return out


def _is_at(s: GameState, card: int, where: tuple[str | int, ...]) -> bool:
    """Is ``card`` at the remembered place ``where`` in ``s``? ``("held", q)``: in q's hand
    or face down in q's forest or cave."""
    if where[0] == "held":
        q = int(where[1])
        face_down = {t.card for t in s.forests[q].trees if t.species is None}
        return card in s.hands[q] or card in s.caves[q] or card in face_down
    return hidden_places(s).get(card) == where


@pytest.mark.parametrize("gid", ["base", "base+alpine+woodland_edge"])
def test_resample_keeps_what_any_seat_knows(gid: str) -> None:
    rng = random.Random(4)
    checked = naive_broke = 0
    for seed, n in ((1, 2), (2, 3), (3, 4)):
        # and, on purpose, positions right after a tree boxed the card it turned up, which
        # every seat remembers in the box though no view showed it
        found = passages(gid, n, "box", 2)
        positions = [p for p, _out, _cards in found]
        boxed = {id(p): cards for p, _out, cards in found}
        for s in _remembering_positions(seed, n, gid)[:12] + positions:
            gs = s.game_state
            for p in range(n):
                memory = s.memory(p)
                assert all(memory.get(c) == ("box",) for c in boxed.get(id(s), ()))
                sample = resample(gs, p, memory, rng, s.mulligans)
                check_state(sample)  # a possible position: every card in one place
                assert view_text(sample.view(p)) == view_text(gs.view(p))
                assert sample.legal_actions()
                assert sample.active[gs.current] == gs.active[gs.current]
                assert all(_is_at(sample, c, where) for c, where in memory.items())
                checked += 1
                naive = Determinizer(gs.view(p)).sample(rng)
                if not all(_is_at(naive, c, w) for c, w in memory.items()):
                    naive_broke += 1
    assert checked > 30
    assert naive_broke > 0  # the plain sampling of the search bot would not keep them


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = _load(3, "base+alpine")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for s in _remembering_positions(5, 3, "base+alpine")[:10]:
        for p in range(3):
            r = s.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.game_state.seed == 0  # the deal's seed is secret
            r.apply_action(r.legal_actions()[0])  # play goes on from the sample
    assert game.num_players() == 3


def test_resample_respects_others_decisions() -> None:
    """Another player's half-finished payment, Mole and Raccoon survive resampling (the
    games say yes to every offer, so Moles and Raccoons come up)."""
    rng = random.Random(8)
    kinds: set[str] = set()
    for seed in range(200):
        if len(kinds) == 3:
            break
        s = GameState.new(2, seed, game="base+alpine+woodland_edge")
        r = random.Random(seed)
        while not s.over:
            d = s.decision
            if d == "mole" or d in ("pay", "raccoon") and s.stack[-1].paid:
                other = 1 - s.to_move
                sample = resample(s, other, {}, rng)
                check_state(sample)
                top = sample.stack[-1]
                assert sample.legal_actions()
                if d == "raccoon":
                    cave = sample.caves[top.player]
                    assert top.paid == sorted(top.paid) == cave[len(cave) - len(top.paid):]
                if d == "mole":
                    assert top.pool == frozenset(sample.hands[top.player])
                kinds.add(d)
            legal = s.legal_actions()
            yes = [a for a in legal if a.kind == "yes"]
            s.apply(yes[0] if yes else r.choice(legal))
    assert kinds == {"pay", "mole", "raccoon"}


def test_resample_agrees_with_the_mulligans() -> None:
    """While a seat decides on a mulligan, every sample gives it a hand without a tree (and
    the seats passed over a hand with one)."""
    rng = random.Random(3)
    found = 0
    for seed in range(300):
        s = GameState.new(3, seed)
        if s.decision != "mulligan":
            continue
        q = s.to_move
        order = [(s.first_player + i) % 3 for i in range(3)]
        passed = order[:order.index(q)]
        for p in (x for x in range(3) if x != q):
            for _ in range(5):
                sample = resample(s, p, {}, rng)
                cards = sample.game.cards
                assert not any(cards[c].is_tree for c in sample.hands[q])
                for r in passed:
                    if r != p:
                        assert any(cards[c].is_tree for c in sample.hands[r])
        found += 1
        if found == 4:
            break
    assert found == 4


def test_tensors_as_numpy_arrays() -> None:
    game = _load(3, "base+alpine")
    s = _dealt(game, 5, 40)
    for p in range(3):
        info = s.information_state_array(p)
        assert isinstance(info, np.ndarray) and info.dtype == np.float32
        assert np.array_equal(info, np.asarray(s.information_state_tensor(p), np.float32))
        obs = s.observation_array(p)
        assert np.array_equal(obs, np.asarray(s.observation_tensor(p), np.float32))
        obs[:] = 9.0  # a copy: the state's cache is untouched
        assert np.array_equal(s.observation_array(p),
                              np.asarray(s.observation_tensor(p), np.float32))
    fresh = game.new_initial_state()
    assert not fresh.information_state_array(0).any()


@pytest.mark.parametrize(("n", "gid"), [(2, "base"), (3, "dartmoor")])
def test_compact_game(n: int, gid: str) -> None:
    from forest_shuffle.rl.compact import HOST_START, NUM_COMPACT, half_of
    from forest_shuffle.rl.compact_obs import encode_state, layout

    game = pyspiel.load_game(osg.SHORT_NAME, {"players": n, "game": gid, "compact": True})
    assert game.num_distinct_actions() == NUM_COMPACT
    size = layout(GameState.new(n, 1, game=gid).game).size
    assert game.observation_tensor_size() == size
    assert game.information_state_tensor_size() == size + MEMORY_SIZE
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    rng = random.Random(2)
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.randrange(256))
    halves = 0
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        half = [i for i in legal if half_of(i) is not None]
        if half and halves < 3:
            s.apply_action(half[0])
            assert s.current_player() == p and s.half == half[0]
            hosts = s.legal_actions()
            assert hosts and min(hosts) >= HOST_START
            obs = s.observation_array(p)
            assert np.array_equal(obs, encode_state(s.game_state, p, chosen=half_of(half[0])))
            assert np.array_equal(np.asarray(s.observation_tensor(p), np.float32), obs)
            assert "chosen: half" in s.observation_string(p)
            s.apply_action(hosts[0])
            assert s.game_state.history[-1].side and s.half is None
            halves += 1
            continue
        s.apply_action(rng.choice(legal))
    assert halves > 0
    with pytest.raises(ValueError, match="public"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
