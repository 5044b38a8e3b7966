"""benchmarks/ladder.py: Bradley-Terry ratings of a round robin, and its journals.

The ratings put the first bot at 0, order bots by their record and give equal records equal
ratings; a perfect record stays finite (the prior of half a win each way). A ladder run
with ``--journal`` resumes without playing again, and a larger ``--games`` extends every
pair on the same deals as one longer run would have played."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "ladder.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ratings_follow_the_records() -> None:
    bt = _module().bradley_terry
    bots = ["a", "b", "c"]
    games = {(x, y): 10 for x in bots for y in bots if x != y}
    even = bt(bots, {k: 5.0 for k in games}, games)
    assert all(abs(r) < 1e-6 for r in even.values())
    wins = {("a", "b"): 10.0, ("b", "a"): 0.0, ("a", "c"): 8.0, ("c", "a"): 2.0,
            ("b", "c"): 5.0, ("c", "b"): 5.0}
    r = bt(bots, wins, games)
    assert r["a"] == 0.0
    assert r["b"] < 0 and r["c"] < 0 and r["b"] < r["c"]  # b lost more to a than c did
    assert all(abs(v) < 2000 for v in r.values())  # 10-0 stays finite
    # Two bots: the odds are the wins with the prior's half win each, 8.5 to 2.5.
    two = bt(["x", "y"], {("x", "y"): 2.0, ("y", "x"): 8.0},
             {("x", "y"): 10, ("y", "x"): 10})
    assert two["y"] == pytest.approx(400 * math.log10(8.5 / 2.5), rel=1e-3)


def _results(out: dict[str, Any]) -> list[tuple[str, float, int, float, float]]:
    """The table without its timings."""
    return [(r["bot"], round(r["elo"], 6), r["games"], r["wins"], r["mean_score"])
            for r in out["table"]]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], text=True,
                          capture_output=True, timeout=300, check=False)


def test_a_journalled_ladder_resumes_and_extends(tmp_path: Path) -> None:
    bots = "random,greedy,greedy:explore=0.5"
    book = tmp_path / "ladder"
    first = _run("--bots", bots, "--games", "2", "--seed", "11", "--journal", str(book),
                 "--json")
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    files = sorted(p.name for p in book.iterdir())
    assert files == ["pair-0.jsonl", "pair-1.jsonl", "pair-2.jsonl"]
    assert all(len((book / f).read_text().splitlines()) == 3 for f in files)
    assert {r["bot"]: r["games"] for r in out["table"]} == dict.fromkeys(bots.split(","), 4)
    before = {f: (book / f).read_text() for f in files}
    again = json.loads(_run("--bots", bots, "--games", "2", "--seed", "11", "--journal",
                            str(book), "--json").stdout)
    assert _results(again) == _results(out)  # nothing played again
    assert {f: (book / f).read_text() for f in files} == before
    longer = json.loads(_run("--bots", bots, "--games", "4", "--seed", "11", "--journal",
                             str(book), "--json").stdout)
    assert all(r["games"] == 8 for r in longer["table"])
    for f in files:
        assert (book / f).read_text().startswith(before[f])
    fresh = json.loads(_run("--bots", bots, "--games", "4", "--seed", "11", "--json").stdout)
    assert _results(fresh) == _results(longer)  # the same games as one run of 4 a pair
