"""Tests of the ``simulate`` sub-command."""

from __future__ import annotations

import builtins
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from forest_shuffle.cli.app import app
from forest_shuffle.cli.commands.simulate import game_seed
from forest_shuffle.formats.records import read_record, replay
from forest_shuffle.scoring.core import LINES


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["simulate", *args], env={"COLUMNS": "120"})


def run_json(*args: str) -> dict[str, Any]:
    result = run("--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_text_output() -> None:
    result = run("--players", "3", "--games", "4", "--seed", "11")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "4 games of 3 players, seed 11" in out
    assert "games/s" in out and "actions/s" in out
    assert "Average turns" in out and "average decisions" in out
    assert "Winter cards came up on average on turns" in out
    for word in ("Score", "trees", "top/bottom", "left/right", "cave", "Win share"):
        assert word in out
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


def test_json_shape() -> None:
    data = run_json("--players", "4", "--games", "3", "--seed", "5")
    assert set(data) == {"game", "players", "games", "seed", "avg_turns", "avg_decisions",
                         "seats", "ties", "winter_turns", "records", "timing"}
    assert data["game"] == "base"
    assert (data["players"], data["games"], data["seed"]) == (4, 3, 5)
    assert len(data["seats"]) == 4
    for seat in data["seats"]:
        assert set(seat) == {"avg_score", "lines", "win_share"}
        assert set(seat["lines"]) == set(LINES)
        assert seat["avg_score"] == pytest.approx(sum(seat["lines"].values()))
    assert sum(s["win_share"] for s in data["seats"]) == pytest.approx(1.0)
    assert len(data["winter_turns"]) == 3
    w1, w2, w3 = data["winter_turns"]
    assert 0 < w1 <= w2 <= w3 <= data["avg_turns"]
    assert data["avg_decisions"] > data["avg_turns"] > 0
    assert data["records"] is None
    assert set(data["timing"]) == {"seconds", "games_per_second", "actions_per_second"}


def _without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "timing"}


def test_same_seed_same_numbers() -> None:
    a = run_json("--games", "5", "--seed", "42")
    b = run_json("--games", "5", "--seed", "42")
    c = run_json("--games", "5", "--seed", "43")
    assert _without_timing(a) == _without_timing(b)
    assert _without_timing(a) != _without_timing(c)


def test_game_seeds_are_deterministic_and_distinct() -> None:
    assert game_seed(7, 3) == game_seed(7, 3)
    seeds = {game_seed(s, i) for s in range(5) for i in range(50)}
    assert len(seeds) == 250
    assert all(0 <= s < 2**48 for s in seeds)


def test_records_are_written_and_replay(tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    data = run_json("--games", "3", "--seed", "8", "--records", str(folder))
    assert data["records"] == str(folder)
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == sorted(f"game-{game_seed(8, i)}.json" for i in range(3))
    totals = [0.0, 0.0]
    for f in files:
        record = read_record(f)
        assert replay(record).ok
        for p in range(2):
            totals[p] += record["scores"][p]["total"]
        result = CliRunner().invoke(app, ["replay", str(f)])
        assert result.exit_code == 0 and result.stdout.startswith("OK:")
    for p in range(2):
        assert data["seats"][p]["avg_score"] == pytest.approx(totals[p] / 3)


@pytest.mark.parametrize(("args", "expected"), [
    (["--players", "1"], "--players must be from 2 to 5, not 1"),
    (["--players", "6"], "--players must be from 2 to 5, not 6"),
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--games", "-3", "--json"], "--games must be at least 1, not -3"),
])
def test_bad_options_exit_2_with_one_line(args: list[str], expected: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [expected]


def test_records_folder_that_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = run("--games", "1", "--records", str(blocker / "sub"))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cannot create records folder")


# ---------------------------------------------------------------- --ray


def test_games_on_an_executor_give_the_same_summary(tmp_path: Path) -> None:
    """The path ``--ray`` takes (the games submitted to an executor, here local worker
    processes instead of Ray tasks) gives the summary and records of the local loop."""
    from forest_shuffle.cli.commands.simulate import simulate
    from forest_shuffle.workers import process_pool

    (tmp_path / "here").mkdir()
    (tmp_path / "pool").mkdir()
    here = simulate(3, 4, 21, records=tmp_path / "here", game="base+alpine")
    with process_pool(2) as pool:
        there = simulate(3, 4, 21, records=tmp_path / "pool", game="base+alpine",
                         executor=pool)
    assert _without_timing({**there, "records": None}) == _without_timing(
        {**here, "records": None})
    names = sorted(f.name for f in (tmp_path / "here").iterdir())
    assert names == sorted(f.name for f in (tmp_path / "pool").iterdir()) and len(names) == 4
    for name in names:
        assert (read_record(tmp_path / "here" / name)
                == read_record(tmp_path / "pool" / name))


def test_ray_without_ray_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    result = run("--games", "1", "--ray", "auto")
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "pip install" in lines[0]


def test_ray_is_refused_for_solo_games() -> None:
    result = run("--game", "dartmoor", "--solo", "1", "--games", "1", "--ray", "auto")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["--ray is not used for solo games"]


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray (extra 'cluster') is not installed; CI does not install it")
def test_simulate_on_a_local_ray_equals_local() -> None:
    import ray

    from forest_shuffle.cli.commands.simulate import simulate
    from forest_shuffle.cluster import ClusterUnavailable, ray_executor

    try:
        try:
            executor = ray_executor("local", num_cpus=1)
        except ClusterUnavailable as exc:  # a local cluster that cannot start here
            pytest.skip(f"a local Ray cluster did not start: {exc}")
        on_ray = simulate(2, 3, 5, executor=executor)
        assert _without_timing(on_ray) == _without_timing(simulate(2, 3, 5))
    finally:
        ray.shutdown()
