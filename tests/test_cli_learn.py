"""``forest-shuffle learn run``: self-play data and the network trained on it in one command.

A run writes both files and its network is the one ``learn train`` makes from the same
data and seed; without PyTorch it refuses before any self-play; bad options are one line
with exit status 2 and write nothing."""

from __future__ import annotations

import builtins
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from forest_shuffle.bots.selfplay import load_dataset
from forest_shuffle.cli.app import app

HAS_TORCH = importlib.util.find_spec("torch") is not None


def _cli(args: list[str]) -> Any:
    return CliRunner().invoke(app, args)


def _one_line_refusal(result: Any, words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1 and words in text, text


RUN = ["learn", "run", "--games", "1", "--players", "2", "--seed", "4", "--epochs", "2",
       "--hidden", "8"]


@pytest.mark.skipif(not HAS_TORCH, reason="training needs PyTorch (extra learn)")
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
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "torch" or name.startswith("torch."):
            raise ImportError("No module named 'torch'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
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
