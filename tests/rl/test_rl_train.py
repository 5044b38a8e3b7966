"""Training a policy (forest_shuffle.rl.train, ``learn rl``): reproducible from its seed, it
changes the weights, and its file plays as ``policy:FILE``."""

from __future__ import annotations

from pathlib import Path

from rl_extra import require

(np,) = require("numpy")
require("gymnasium")

from typer.testing import CliRunner  # noqa: E402

from forest_shuffle.bots import make_bot  # noqa: E402
from forest_shuffle.cli.app import app  # noqa: E402
from forest_shuffle.rl.policy import Policy  # noqa: E402
from forest_shuffle.rl.train import evaluate, train_policy  # noqa: E402


def test_training_is_reproducible_and_moves_the_weights() -> None:
    a, ra = train_policy("base", 2, "random", games=6, hidden=8, batch=3, seed=5)
    b, rb = train_policy("base", 2, "random", games=6, hidden=8, batch=3, seed=5)
    start = Policy.random("base", (8,), seed=5)
    assert ra.games == rb.games == 6 and 0 <= ra.wins <= 6
    for (w, bias), (w2, bias2), (w0, _b0) in zip(a.layers, b.layers, start.layers,
                                                   strict=True):
        assert np.array_equal(w, w2) and np.array_equal(bias, bias2)
        assert not np.array_equal(w, w0)
    share, margin = evaluate(a, "random", 2, seed=1)
    assert 0.0 <= share <= 1.0 and isinstance(margin, float)


def test_learn_rl_command(tmp_path: Path) -> None:
    out = tmp_path / "pol.npz"
    runner = CliRunner()
    r = runner.invoke(app, ["learn", "rl", "--out", str(out), "--games", "4", "--batch", "2",
                            "--hidden", "8", "--eval", "2", "--seed", "3"])
    assert r.exit_code == 0, r.output
    assert "against random" in r.output and "against greedy" in r.output
    assert make_bot(f"policy:{out}").choose  # the file plays as a bot
    again = tmp_path / "more.npz"
    r = runner.invoke(app, ["learn", "rl", "--out", str(again), "--games", "2", "--batch",
                            "2", "--start", str(out), "--half"])
    assert r.exit_code == 0, r.output
    assert Policy.load(again).layers[0][0].dtype == np.float32  # stored float16
    assert again.stat().st_size < out.stat().st_size * 0.6
    for args, word in ((["--players", "7"], "--players"), (["--opponents", "nobody"], "nobody"),
                       (["--games", "0"], "--games")):
        r = runner.invoke(app, ["learn", "rl", "--out", str(tmp_path / "x.npz"), *args])
        assert r.exit_code == 2 and word in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1


def test_a_long_run_writes_what_it_learned_as_it_goes(tmp_path: Path) -> None:
    seen: list[tuple[int, Policy]] = []
    pol, _r = train_policy("base", 2, "random", games=6, hidden=8, batch=2, seed=4,
                           checkpoint=lambda p, done: seen.append((done, p)), every=4)
    assert [done for done, _p in seen] == [4]  # 4 games done, then 6 (not another 4)
    assert seen[0][1].layers[0][0].shape == pol.layers[0][0].shape
    out = tmp_path / "kept.npz"
    r = CliRunner().invoke(app, ["learn", "rl", "--out", str(out), "--games", "4", "--batch",
                                 "2", "--hidden", "8", "--save-every", "2"])
    assert r.exit_code == 0, r.output
    assert Policy.load(out).game == "base"
    r = CliRunner().invoke(app, ["learn", "rl", "--out", str(out), "--save-every", "-1"])
    assert r.exit_code == 2 and "--save-every" in r.output
