"""benchmarks/bench_versus_tree.py: a bot of one tree against a bot of another, on paired deals.

With this checkout on both sides and the same deterministic bot, the two seatings of a deal
are the same game (only the side playing each seat differs): the new side wins exactly
half, with a margin of zero. A journal is resumed without playing again; another run's
journal is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "bench_versus_tree.py"
SRC = ROOT / "src"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), str(SRC), *args], text=True,
                          capture_output=True, timeout=300, check=False)


def test_the_same_bot_on_both_sides_wins_half_and_a_journal_resumes(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    args = ("--bot", "greedy", "--games", "4", "--workers", "2", "--seed", "5",
            "--journal", str(journal), "--json")
    first = _run(*args)
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert out["games"] == 4 and out["new_wins"] == 2.0 and out["margin"] == 0.0
    assert out["mean_scores"]["new"] == out["mean_scores"]["old"] > 0
    lines = journal.read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["bot"] == "greedy"
    games = [json.loads(x) for x in lines[1:]]
    by_index = {g["index"]: g["game"] for g in games}
    for d in (0, 2):  # a deal's two seatings: the same game, the sides swapped
        a, b = by_index[d], by_index[d + 1]
        assert a["seed"] == b["seed"] and a["scores"] == b["scores"]
        assert a["old_seats"] == [0] and b["old_seats"] == [1]
    again = _run(*args)
    assert again.returncode == 0, again.stderr
    assert "game " not in again.stderr  # nothing played again
    assert json.loads(again.stdout)["new_wins"] == out["new_wins"]
    assert journal.read_text().splitlines() == lines
    report = _run(*args[:-1], "--games", "100", "--report", "--json")  # 4 of 100 played
    assert report.returncode == 0 and "game " not in report.stderr, report.stderr
    assert json.loads(report.stdout)["games"] == 4
    assert journal.read_text().splitlines() == lines


def test_another_runs_journal_and_a_tree_without_the_package_are_refused(
        tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    journal.write_text('{"run": "something else"}\n')
    refused = _run("--bot", "greedy", "--games", "2", "--journal", str(journal))
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: ") and len(refused.stderr.splitlines()) == 1
    assert journal.read_text() == '{"run": "something else"}\n'
    bad = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "--games", "2"],
                         text=True, capture_output=True, timeout=60, check=False)
    assert bad.returncode == 2 and "holds no forest_shuffle package" in bad.stderr
    no_journal = _run("--bot", "greedy", "--games", "2", "--report")
    assert no_journal.returncode == 2 and "--journal" in no_journal.stderr
