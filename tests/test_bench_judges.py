"""benchmarks/bench_value_ceiling.py, bench_regret.py and bench_race_eval.py: judgements by
games played on.

The ceiling's positions hold one feature row and K outcomes each (win shares 0, 1/2 or 1;
whole margins); the regret's judge gives every move the mean of K paired games on, the same
for the same seed, and a move's gain over itself is nothing; the race's cut-offs hold every
candidate on every determinization, a judge that reads the outcomes themselves is paired
r 1, and one that prefers greedy's move always gains nothing (by one game on or by the
means of several); the cut-offs of a range of games, of two processes or without outcomes
are the same rows; the scripts refuse bad arguments in one line."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from forest_shuffle.bots.features import NUM_FEATURES, state_features
from forest_shuffle.bots.greedy import diverse_candidates, greedy_action
from forest_shuffle.bots.value import ValueNet, usual_net
from forest_shuffle.engine.state import GameState

ROOT = Path(__file__).resolve().parents[1]


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ceiling_positions_and_report() -> None:
    mod = _module("bench_value_ceiling")
    x, w, m = mod.positions(2, 2, 3, 5, 2, "base")
    assert x.shape == (4, NUM_FEATURES) and w.shape == m.shape == (4, 3)
    assert set(np.unique(w).tolist()) <= {0.0, 0.5, 1.0}
    assert np.array_equal(m, np.round(m))
    # Two players: a game's win share follows its margin.
    assert np.array_equal(w == 1.0, m > 0)
    again = mod.positions(2, 2, 3, 5, 2, "base")
    assert np.array_equal(again[1], w) and np.array_equal(again[0], x)
    mod.report(x, w, m, [("shipped", usual_net(2))])


def test_the_regret_judge_is_paired_and_reproducible() -> None:
    mod = _module("bench_regret")
    state = GameState.new(2, 8)
    for _ in range(30):
        state.apply(greedy_action(state, exact=False))
    while state.stack[-1].kind != "turn":
        state.apply(greedy_action(state, exact=False))
    assert state.to_move is not None
    moves = diverse_candidates(state.view(state.to_move), 6, True)
    deck, hands = list(state.deck), [list(h) for h in state.hands]
    value = mod.judge(state, moves, 4, 11)
    assert state.deck == deck and state.hands == hands  # the position is left as it was
    assert set(value) == set(moves)
    for win, margin in value.values():
        assert 0.0 <= win <= 1.0 and (8 * win) == round(8 * win)
        assert 4 * margin == round(4 * margin)
    assert mod.judge(state, moves, 4, 11) == value
    # The same move twice is judged on the same games: the same value.
    twice = mod.judge(state, [moves[0]], 4, 11)
    assert twice[moves[0]] == value[moves[0]]


def test_race_cut_offs_and_judge() -> None:
    mod = _module("bench_race_eval")
    d = mod.race_rows(2, 2, 4, 5, 2)
    again = mod.race_rows(2, 2, 4, 5, 2)
    assert all(np.array_equal(d[k], again[k]) for k in d)
    n = len(d["win"])
    assert d["x"].shape == (n, NUM_FEATURES) and n % 4 == 0
    for dec in np.unique(d["decision"]):
        rows = d["decision"] == dec
        cands = np.unique(d["cand"][rows])
        assert len(cands) >= 2 and rows.sum() == 4 * len(cands)
    live = d["fin"] < 0
    assert (d["x"][live].any(axis=1)).all() and not d["x"][~live].any()
    assert set(np.unique(d["win"]).tolist()) <= {0.0, 0.5, 1.0}
    # The outcomes themselves order the candidates perfectly within a determinization.
    outcomes = np.where(live, d["win"], d["fin"]).astype(np.float64)
    assert mod.judge(d, outcomes)["paired_r"] > 0.99
    # A judge that always ranks greedy's first candidate on top gains nothing over it.
    first = np.where(d["cand"] == 0, 1.0, 0.0)
    d_live = {**d, "fin": np.full(n, -1.0, dtype=np.float32)}
    r = mod.judge(d_live, first)
    assert r["gain"] == 0.0 and r["greedy"] == 1.0
    assert r["decisions"] == len(np.unique(d["decision"]))
    # A range of the games is the same rows as in the whole run; runs put one after the
    # other number their decisions on; without outcomes, the same rows and features.
    parts = [mod.race_rows(1, 2, 4, 5, 2), mod.race_rows(1, 2, 4, 5, 2, first=1)]
    joined = mod.concat_cut_offs(parts)
    assert all(np.array_equal(joined[k], d[k]) for k in d) and set(joined) == set(d)
    bare = mod.race_rows(2, 2, 4, 5, 2, outcomes=False)
    assert all(np.array_equal(bare[k], d[k]) for k in ("decision", "sample", "cand", "fin",
                                                        "x"))
    assert np.isnan(bare["win"]).all() and "again" not in bare
    # Features of one's own on the same rows: as wide as they are, zeros when finished.
    wide = mod.race_rows(2, 2, 4, 5, 2, outcomes=False,
                         featurize=lambda st, me: [*state_features(st, me), 1.0])
    assert wide["x"].shape == (n, NUM_FEATURES + 1)
    assert np.array_equal(wide["x"][:, :NUM_FEATURES], d["x"])
    assert np.array_equal(wide["x"][:, -1], np.where(live, 1.0, 0.0))
    # The ceiling's two games on per cut-off: win shares, the same for the same seed.
    c = mod.race_rows(1, 2, 2, 5, 2, again=2)
    assert c["again"].shape == (len(c["win"]), 2)
    assert set(np.unique(c["again"]).tolist()) <= {0.0, 0.5, 1.0}
    assert np.array_equal(c["again"], mod.race_rows(1, 2, 2, 5, 2, again=2)["again"])
    assert -1.0 <= mod.ceiling_share(c) <= 1.0
    # Three games on: the first two are the same games, the rest of the rows unchanged.
    c3 = mod.race_rows(1, 2, 2, 5, 2, again=3)
    assert c3["again"].shape == (len(c["win"]), 3)
    assert np.array_equal(c3["again"][:, :2], c["again"])
    assert all(np.array_equal(c3[k], c[k]) for k in c if k != "again")
    live = c3["fin"] < 0
    assert (c3["again"][~live] == c3["win"][~live, None]).all()  # a finished rollout's own
    # The mean target: the own game and the three again, alike weighted.
    want = (c3["win"] + c3["again"].sum(axis=1)) / 4
    assert np.allclose(mod.mean_target(c3), want)
    r = mod.judge(c3, np.where(live, mod.mean_target(c3), c3["fin"]))
    assert r["paired_r_mean"] > 0.99 and "paired_r_mean" not in mod.judge(d, outcomes)
    assert "gain_mean" not in mod.judge(d, outcomes)
    # Judged by the means too, always greedy's first candidate gains nothing.
    c3_live = {**c3, "fin": np.full(len(c3["win"]), -1.0, dtype=np.float32)}
    r = mod.judge(c3_live, np.where(c3["cand"] == 0, 1.0, 0.0))
    assert r["gain_mean"] == 0.0 and r["se_mean"] == 0.0 and r["greedy"] == 1.0
    # The mean's ceiling: one game's for one game, perfect stays perfect, more games more.
    assert mod.mean_ceiling(0.04, 1) == pytest.approx(0.2)
    assert mod.mean_ceiling(1.0, 9) == pytest.approx(1.0)
    assert mod.mean_ceiling(0.04, 1) < mod.mean_ceiling(0.04, 9) < 1.0
    assert mod.mean_ceiling(-0.01, 9) == 0.0
    with pytest.raises(ValueError, match="--again"):
        mod.mean_target(d)
    with pytest.raises(ValueError, match="at least two"):
        mod.ceiling_share({**c3, "again": c3["again"][:, :1]})


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs PyTorch")
def test_paired_fine_tune_starts_from_the_network() -> None:
    race = _module("bench_race_eval")
    mod = _module("train_paired")
    d = race.race_rows(2, 2, 4, 5, 2)
    start = usual_net(2)
    train = d["decision"] < 2
    # No step: the network comes back as it went in (the weights' round trip).
    same = mod.fine_tune(d, start, train, 1, 0.0, 0.1, 3)
    net = ValueNet(same.mean, same.std, same.layers, "", same.skip)
    assert np.allclose(net.forward(d["x"]), start.forward(d["x"]), atol=1e-4)
    # Steps lower the paired loss on the rows trained on.
    moved = mod.fine_tune(d, start, train, 30, 3e-3, 0.0, 3)
    after = ValueNet(moved.mean, moved.std, moved.layers, "", moved.skip)
    rows = {k: v[train] for k, v in d.items()}

    def paired_loss(n: ValueNet) -> float:
        p = np.where(rows["fin"] >= 0, rows["fin"], race.net_reward(n, rows))
        dev = race.centered(rows, p) - race.centered(rows, rows["win"].astype(np.float64))
        return float((dev ** 2).mean())

    assert paired_loss(after) < paired_loss(start)
    # The mean target: needs the games on from resampled states, and is what is fitted.
    with pytest.raises(ValueError, match="--again"):
        mod.fine_tune(d, start, train, 1, 1e-3, 0.0, 3, target="mean")
    c = race.race_rows(1, 2, 2, 5, 2, again=3)
    every = np.ones(len(c["win"]), dtype=bool)
    fitted = mod.fine_tune(c, start, every, 30, 3e-3, 0.0, 3, target="mean")
    net_c = ValueNet(fitted.mean, fitted.std, fitted.layers, "", fitted.skip)
    goal = race.centered(c, race.mean_target(c))

    def mean_loss(n: ValueNet) -> float:
        p = np.where(c["fin"] >= 0, c["fin"], race.net_reward(n, c))
        live = c["fin"] < 0
        return float(((race.centered(c, p) - goal)[live] ** 2).mean())

    assert mean_loss(net_c) < mean_loss(start)


def test_bad_arguments_are_refused_in_one_line() -> None:
    for script, args in (("bench_regret.py", ["--k", "1"]),
                         ("bench_race_eval.py", ["--samples", "3"]),
                         ("bench_race_eval.py", ["--again", "-1"]),
                         ("bench_race_eval.py", ["--net", "/nonexistent.npz"]),
                         ("bench_race_eval.py", ["--load", "/nonexistent.npz"]),
                         ("bench_race_eval.py", ["--save", "/nonexistent/x.npz"]),
                         ("bench_race_eval.py", ["--workers", "0"]),
                         ("train_paired.py", ["x.npz", "--epochs", "0"]),
                         ("train_paired.py", ["x.npz", "--out", "/nonexistent/x.npz"]),
                         ("bench_regret.py", ["--bot", "nobot"]),
                         ("bench_value_ceiling.py", ["--games", "0"]),
                         ("species_inputs.py", ["selfplay", "--games", "0", "--out", "x.npz"]),
                         ("species_inputs.py", ["cutoffs", "/nonexistent.npz", "--out", "x"]),
                         ("species_inputs.py", ["train", "x.npz", "--race", "y.npz",
                                                "--out", "/nonexistent/x.npz"])):
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].startswith(f"{script}: error:")
        assert "Traceback" not in done.stderr


def test_race_cut_offs_recorded_by_two_processes_are_the_same_rows(tmp_path: Path) -> None:
    mod = _module("bench_race_eval")
    out = tmp_path / "race.npz"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_race_eval.py"),
                           "--games", "3", "--per", "1", "--samples", "2", "--seed", "5",
                           "--workers", "2", "--save", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    saved = mod.load_cut_offs([str(out)])
    one = mod.race_rows(3, 1, 2, 5, 2)
    assert set(saved) == set(one)
    assert all(np.array_equal(saved[k], one[k]) for k in one)
    with np.load(out) as f:  # the setup, to compute the same cut-offs' features anew
        assert f["setup"].tolist() == [5, 3, 1, 2, 2, 2]


def test_species_inputs_on_the_same_cut_offs(tmp_path: Path) -> None:
    mod = _module("species_inputs")
    race = _module("bench_race_eval")
    # Self-play rows: the usual features then the species inputs, the same for the same
    # seed, whatever the chunks.
    rows = mod.selfplay_rows(4, 0, 2, 2, 0.5)
    assert rows["x"].shape[1] > NUM_FEATURES and len(rows["x"]) == len(rows["win"]) > 0
    again = mod.selfplay(2, 4, 2, 0.5, 1)
    assert all(np.array_equal(rows[k], again[k]) for k in rows)
    # The rows' player count, the zero rows of finished rollouts aside; none for mixed.
    zero = np.zeros((1, rows["x"].shape[1]), dtype=np.float32)
    assert mod.players_of(np.vstack([zero, rows["x"], zero])) == 2
    assert mod.players_of(zero) is None
    three = mod.selfplay_rows(4, 0, 1, 3, 0.5)["x"]
    assert mod.players_of(three) == 3 and mod.players_of(np.vstack([rows["x"], three])) is None
    # Race cut-offs with the wide features: the saved rows, outcomes kept, features wider.
    d = race.race_rows(1, 1, 2, 5, 2)
    saved = tmp_path / "race.npz"
    np.savez_compressed(saved, **d)
    out = tmp_path / "wide.npz"
    script = str(ROOT / "benchmarks" / "species_inputs.py")
    done = subprocess.run([sys.executable, script, "cutoffs", str(saved), "--setup",
                           "5,1,1,2,2,2", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    wide = race.load_cut_offs([str(out)])
    assert wide["x"].shape[1] == rows["x"].shape[1]
    assert np.array_equal(wide["x"][:, :NUM_FEATURES], d["x"])
    assert all(np.array_equal(wide[k], d[k]) for k in d if k != "x")
    # A setup that does not make these rows is refused in one line; so is a file without
    # its setup and without --setup.
    for extra in (["--setup", "6,1,1,2,2,2"], []):
        done = subprocess.run([sys.executable, script, "cutoffs", str(saved), *extra,
                               "--out", str(out)],
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines()[-1].startswith("species_inputs.py: error:")


@pytest.mark.parametrize("players", [2, 3])
def test_species_inputs_train_writes_a_network_the_bot_reads(tmp_path: Path,
                                                             players: int) -> None:
    pytest.importorskip("torch")
    from forest_shuffle.bots.value import load_net

    mod = _module("species_inputs")
    race = _module("bench_race_eval")
    sp = tmp_path / "sp.npz"
    rows = mod.selfplay(3, 4, players, 0.5, 1)
    assert mod.players_of(rows["x"]) == players
    np.savez_compressed(sp, **rows)
    d = race.race_rows(4, 2, 2, 5, players, again=1)
    np.savez_compressed(tmp_path / "race.npz", setup=np.array([5, 4, 2, 2, 2, players]), **d)
    script = str(ROOT / "benchmarks" / "species_inputs.py")
    # Self-play of another player count than the cut-offs' is refused in one line.
    other = tmp_path / "other.npz"
    np.savez_compressed(other, **mod.selfplay(1, 4, 5 - players, 0.5, 1))
    for args in (["cutoffs", str(tmp_path / "race.npz"), "--out", str(tmp_path / "cut.npz")],
                 ["train", str(sp), "--race", str(tmp_path / "cut.npz"), "--epochs", "1",
                  "--paired-epochs", "1", "--inputs", "unseen",
                  "--out", str(tmp_path / "net.npz")]):
        done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                              timeout=600, check=False)
        assert done.returncode == 0, done.stderr[-800:]
    assert "paired epoch 1:" in done.stdout
    refused = subprocess.run([sys.executable, script, "train", str(other), "--race",
                              str(tmp_path / "cut.npz"), "--epochs", "1"],
                             capture_output=True, text=True, timeout=600, check=False)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "one player count" in refused.stderr.strip().splitlines()[-1]
    net = load_net(tmp_path / "net.npz")
    assert net.species_game == "base"
    wide = race.load_cut_offs([str(tmp_path / "cut.npz")])
    assert net.inputs == wide["x"].shape[1] > NUM_FEATURES and net.species_blocks == 5
    p = race.net_reward(net, wide)
    assert p.shape == wide["win"].shape and ((p > 0) & (p < 1)).all()
