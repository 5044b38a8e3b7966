"""Tests of reading a journal without touching it, and of comparing two journals of the
same deals (``benchmarks/journal_compare.py``): the followed bot's seat per seating, the
paired differences, and bad input refused in one line."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from forest_shuffle.journal import JOURNAL_FORMAT, JournalError, read_journal
from forest_shuffle.match import MatchResult, deal_seed

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "journal_compare.py"
LINES = {"trees": 0, "top_bottom": 0, "left_right": 0, "cave": 0}


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("journal_compare", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["journal_compare"] = module
    spec.loader.exec_module(module)
    return module


def result(seed: int, bots: tuple[str, ...], scores: tuple[int, ...],
           load: float | None = None) -> MatchResult:
    top = max(scores)
    return MatchResult(seed=seed, bots=bots, scores=scores, lines=tuple(LINES for _ in scores),
                       winners=tuple(i for i, s in enumerate(scores) if s == top), turns=90,
                       decisions=tuple(40 for _ in scores),
                       species_played=tuple({} for _ in scores),
                       species_points=tuple({} for _ in scores), load=load)


def write(path: Path, bots: tuple[str, str], seed: int,
          games: dict[int, tuple[int, int]], text_tail: str = "",
          load: float | None = None) -> None:
    """A 2-player journal of ``bots``: game ``i`` has scores ``games[i]`` by seat, played
    on deal ``i // 2`` with the seating of index ``i`` (bot 0 in seat 1 at odd indexes)."""
    lines = [json.dumps({"journal": JOURNAL_FORMAT, "game": "base", "bots": list(bots),
                         "players": 2, "seed": seed})]
    for i, scores in games.items():
        seated = bots if i % 2 == 0 else (bots[1], bots[0])
        m = result(deal_seed(seed, i // 2), seated, scores, load)
        lines.append(json.dumps({"index": i, "match": m.to_dict()}))
    path.write_text("\n".join(lines) + "\n" + text_tail, encoding="utf-8")


def test_read_journal_reads_without_changing_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    write(path, ("x", "y"), 7, {0: (10, 5), 1: (3, 4)}, text_tail='{"index": 2, "ma')
    before = path.read_bytes()
    head, games = read_journal(path)
    assert head["seed"] == 7 and head["bots"] == ["x", "y"]
    assert sorted(games) == [0, 1] and games[0].scores == (10, 5)
    assert path.read_bytes() == before  # the cut-short last line left where it was
    with pytest.raises(JournalError, match="no journal"):
        read_journal(tmp_path / "missing.jsonl")
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(JournalError, match="empty"):
        read_journal(tmp_path / "empty.jsonl")
    (tmp_path / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    with pytest.raises(JournalError, match="line 1"):
        read_journal(tmp_path / "bad.jsonl")


def test_compare_follows_the_bot_through_the_seatings(tmp_path: Path) -> None:
    jc = load_script()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    # bot 0 ("x") sits in seat 0 at even indexes, seat 1 at odd ones
    write(a, ("x", "y"), 3, {0: (10, 5), 1: (4, 3), 2: (1, 9), 3: (8, 8), 4: (2, 1)})
    write(b, ("x2", "y"), 3, {0: (10, 6), 1: (3, 4), 2: (5, 5), 3: (6, 9)})
    c = jc.compare(a, b, 0)
    # common games 0-3; x's (win, margin): a: (1,+5) (0,-1) (0,-8) (.5,0); b: (1,+4) (1,+1)
    # (.5,0) (1,+3)
    assert c.a.games == c.b.games == 4
    assert c.a.wins == 1.5 and c.b.wins == 3.5
    assert c.a.margin == pytest.approx(-1.0) and c.b.margin == pytest.approx(2.0)
    assert c.win_diff == pytest.approx(0.5)
    diffs = [-1, 2, 8, 3]
    assert c.margin_diff == pytest.approx(3.0)
    sd = math.sqrt(sum((d - 3.0) ** 2 for d in diffs) / 3)
    assert c.margin_diff_se == pytest.approx(sd / 2)
    assert c.deals == 2 and c.a.blank_deals == 0 and c.b.blank_deals == 0
    other = jc.compare(a, b, 1)  # the other bot's view of the same games
    assert other.a.wins == 4 - 1.5 and other.b.wins == 4 - 3.5
    assert other.margin_diff == pytest.approx(-3.0)


def test_compare_refuses_journals_of_other_deals(tmp_path: Path) -> None:
    jc = load_script()
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    write(a, ("x", "y"), 3, {0: (1, 2)})
    write(b, ("x", "y"), 4, {0: (1, 2)})
    write(c, ("x", "y"), 3, {1: (1, 2)})
    with pytest.raises(ValueError, match="not the same deals: seed"):
        jc.compare(a, b)
    with pytest.raises(ValueError, match="share no game"):
        jc.compare(a, c)
    with pytest.raises(ValueError, match="--bot must be"):
        jc.compare(a, a, 2)
    four = tmp_path / "four.jsonl"  # two bots, four seats: each bot holds two
    four.write_text(json.dumps({"journal": JOURNAL_FORMAT, "game": "base", "bots": ["x", "y"],
                                "players": 4, "seed": 3}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="several seats"):
        jc.compare(four, four)
    tampered = json.loads(a.read_text().splitlines()[1])
    tampered["match"]["seed"] = 12345
    lines = c.read_text().splitlines()
    c.write_text("\n".join([lines[0], json.dumps(tampered)]) + "\n")
    with pytest.raises(ValueError, match="another deal"):
        jc.compare(a, c)


def test_bad_input_is_refused_in_one_line(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    write(a, ("x", "y"), 3, {0: (1, 2)})
    for args in ([str(a), str(tmp_path / "none.jsonl")], [str(a), str(a), "--bot", "5"],
                 [str(a), str(SCRIPT)]):
        done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                              text=True, timeout=60, check=False)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].startswith("journal_compare.py: error:")
        assert "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, str(SCRIPT), str(a), str(a)], capture_output=True,
                          text=True, timeout=60, check=True)
    assert "1 games, 0 won" in done.stdout and "load average" not in done.stdout
    busy = tmp_path / "busy.jsonl"
    write(busy, ("x", "y"), 3, {0: (1, 2)}, load=3.25)
    done = subprocess.run([sys.executable, str(SCRIPT), str(a), str(busy)],
                          capture_output=True, text=True, timeout=60, check=True)
    assert "load average 3.25 (3.25-3.25)" in done.stdout.splitlines()[1]
