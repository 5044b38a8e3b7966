"""Instructions a workload costs, counted by valgrind's callgrind: a load-free measure of the
engine's and the scorer's speed, for two source trees side by side.

Each workload runs twice per tree, with ``n`` and ``1`` units, in fresh interpreters
(``PYTHONHASHSEED=0``, the garbage collector off); the figure is (count(n) - count(1)) /
(n - 1) instructions a unit, so start-up and imports cancel out. Counts repeat to about
0.03 %, so one run is enough (no medians needed).

Workloads: ``engine`` (a random 2-player game of ``--game``, seeds 500...), ``totals``
(``scoring.totals`` of the final tables of those games, each table scored 20 times).

Usage: ``python benchmarks/instructions.py --against OLD/src [--game base] [--units 6]``
(needs ``valgrind``: ``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"

WORK = {
    "engine": """
import gc, sys
gc.disable()
from forest_shuffle.formats.records import random_game
game, n = sys.argv[1], int(sys.argv[2])
for seed in range(n):
    random_game(2, 500 + seed, game=game)
""",
    "totals": """
import gc, sys
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.game import game_by_id
game, n = sys.argv[1], int(sys.argv[2])
ends = []
for seed in range(6):
    s = GameState.new(2, seed=700 + seed, game=game)
    import random
    r = random.Random(seed)
    while not s.over:
        s.apply_legal(r.choice(s.legal_actions()))
    ends.append(s)
g = game_by_id(game)
for s in ends:
    g.totals(s.forests)  # plans compiled before counting starts
gc.disable()
for _ in range(n):
    for s in ends:
        for _ in range(20):
            g.totals(s.forests)
""",
}


def count(src: Path, work: str, game: str, n: int) -> int:
    """Instructions of one run of ``work`` with ``n`` units against the tree ``src``."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(WORK[work])
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, f.name, game, str(n)],
        env=env, capture_output=True, text=True, check=True)
    os.unlink(f.name)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from callgrind: {out.stderr[-300:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", type=Path, required=True, help="the other tree's src/")
    ap.add_argument("--game", default="base")
    ap.add_argument("--units", type=int, default=6)
    ap.add_argument("--work", default="engine,totals")
    a = ap.parse_args()
    if a.units < 2:
        ap.error("--units must be 2 or more")
    for work in a.work.split(","):
        per = {}
        for name, src in (("this", HERE), ("other", a.against.resolve())):
            big, small = count(src, work, a.game, a.units), count(src, work, a.game, 1)
            per[name] = (big - small) / (a.units - 1)
        unit = "game" if work == "engine" else "20 scorings of 6 tables"
        print(f"{work:7} {a.game}: this {per['this']:,.0f}  other {per['other']:,.0f} "
              f"instructions a {unit}; this / other {per['this'] / per['other']:.4f}")


if __name__ == "__main__":
    main()
