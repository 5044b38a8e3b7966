"""Engine speed of two source trees side by side (a script, not a test): random 2-player
games per second (``records.random_game``, setup included) and ``from_dict`` of a
mid-game save, each tree in its own interpreter, rounds interleaved; medians with min and
max. Usage: ``python benchmarks/compare_src.py OLD_SRC NEW_SRC [--rounds 5] [--games 100]``
(e.g. ``git archive REV src | tar -x -C /tmp/old`` for OLD_SRC=/tmp/old/src).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

PROBE = """
import json, random, time
from forest_shuffle.engine import GameState
from forest_shuffle.records import random_game
n = {games}
t = time.perf_counter()
for seed in range(n):
    random_game(2, seed)
games = n / (time.perf_counter() - t)
s = GameState.new(2, 5)
rng = random.Random(5)
for _ in range(150):
    s.apply(rng.choice(s.legal_actions()))
d = s.to_dict()
t = time.perf_counter()
for _ in range(300):
    GameState.from_dict(d)
load_us = (time.perf_counter() - t) / 300 * 1e6
print(json.dumps({{"games_per_s": games, "from_dict_us": load_us}}))
"""


def probe(src: str, games: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", PROBE.format(games=games)], env=env,
                         capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=100)
    a = ap.parse_args()
    got: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(a.rounds):
        for name, src in (("old", a.old), ("new", a.new)):
            got[name].append(probe(src, a.games))
    print(f"load average {os.getloadavg()[0]:.2f}, {a.rounds} interleaved rounds")
    for key in ("games_per_s", "from_dict_us"):
        for name in ("old", "new"):
            v = [r[key] for r in got[name]]
            print(f"{key:13} {name}: median {statistics.median(v):8.1f}  "
                  f"min {min(v):8.1f}  max {max(v):8.1f}")


if __name__ == "__main__":
    main()
