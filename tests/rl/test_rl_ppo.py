"""MaskablePPO over the compact Gymnasium environment (``learn rl --algo maskable-ppo``,
forest_shuffle.rl.ppo): skipped without the ``rl-train`` extra (PyTorch, sb3-contrib); its
refusal without them is checked either way."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest
from rl_extra import require

(np,) = require("numpy")
require("gymnasium")

from typer.testing import CliRunner  # noqa: E402

from forest_shuffle.bots import make_bot  # noqa: E402
from forest_shuffle.cli.app import app  # noqa: E402
from forest_shuffle.rl.policy import Policy  # noqa: E402


def test_without_pytorch_the_command_refuses_in_one_line(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_torch(name: str, *args: Any, **kw: Any) -> Any:
        if name.split(".")[0] in ("torch", "sb3_contrib", "stable_baselines3"):
            raise ImportError(f"No module named {name!r}", name=name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    out = tmp_path / "p.npz"
    r = CliRunner().invoke(app, ["learn", "rl", "--out", str(out), "--algo", "maskable-ppo",
                                 "--steps", "8"])
    assert r.exit_code == 2, r.output
    assert "rl-train" in r.output and len(r.output.strip().splitlines()) == 1
    assert not out.exists()


def test_an_unknown_algorithm_is_refused(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["learn", "rl", "--out", str(tmp_path / "p.npz"),
                                 "--algo", "dqn"])
    assert r.exit_code == 2 and "--algo" in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1


def test_maskable_ppo_trains_a_policy_that_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the rl-train extra is not installed (no torch)")
    pytest.importorskip("sb3_contrib", reason="the rl-train extra is not installed")
    from forest_shuffle.rl.ppo import train_maskable_ppo

    start = Policy.random("base", (8,), seed=2)
    pol = train_maskable_ppo("base", 2, "random", steps=64, seed=3, start=start, n_steps=32,
                             batch=16, epochs=1)
    assert [w.shape for w, _b in pol.layers] == [w.shape for w, _b in start.layers]
    # PPO moved the actor from its start, by small steps
    moved = max(float(np.abs(w - w0).max()) for (w, _b), (w0, _b0)
                in zip(pol.layers, start.layers, strict=True))
    assert 0.0 < moved < 0.1
    out = tmp_path / "ppo.npz"
    r = CliRunner().invoke(app, ["learn", "rl", "--out", str(out), "--algo", "maskable-ppo",
                                 "--steps", "64", "--hidden", "8", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "MaskablePPO" in r.output
    assert Policy.load(out).layers[0][0].shape[1] == 8
    assert make_bot(f"policy:{out}").choose  # the file plays as a bot
