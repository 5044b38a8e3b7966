"""The speed gate of a change to the engine or the scorer (a script, not a test).

Two source trees side by side, each probe in its own interpreter, rounds interleaved so that
the load of the machine falls on both alike: random 2-player games per second
(``records.random_game``, setup included, after a first game that builds what a
process builds once, reported apart as ``first_game_ms``) and scorer throughput
(``scoring.totals`` over the final tables of 200 random games, tables per second), for the
base game in both trees
and, in the new tree, for every other registered game; and ``from_dict`` of a mid-game base
save (microseconds). Times are the probe's CPU time (``time.process_time``), which the
load of other processes disturbs less than wall time. Medians with min and max.

Usage: ``python benchmarks/gate_speed.py OLD_SRC NEW_SRC [--rounds 5] [--games 100]``
(``git archive REV src | tar -x -C /tmp/old`` gives OLD_SRC=/tmp/old/src).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

PROBE = """
import inspect, json, time
try:
    from forest_shuffle.formats.records import random_game
except ImportError:  # a tree from before the package layout
    from forest_shuffle.records import random_game
from forest_shuffle.scoring import totals
games = {games}
ids = {ids}
takes_game = "game" in inspect.signature(random_game).parameters
out = {{}}
for gid in ids:
    kw = {{"game": gid}} if takes_game else {{}}
    t = time.process_time()
    random_game(2, 10_000_000, **kw)  # the first game builds the definition once
    first_ms = (time.process_time() - t) * 1e3
    t = time.process_time()
    for seed in range(games):
        random_game(2, seed, **kw)
    g_s = games / (time.process_time() - t)
    tables = [random_game(2, 10_000 + s, **kw).forests for s in range(200)]
    try:  # the game's own scorer (a definition holds one since issue 39)
        from forest_shuffle.games import make_game
        totals = make_game(gid).totals_fn()
    except (ImportError, AttributeError):  # an older tree scores through the module
        from forest_shuffle.scoring import totals
    totals(tables[0])
    t = time.process_time()
    for _ in range(5):
        for tb in tables:
            totals(tb)
    out[gid] = {{"games_per_s": g_s, "first_game_ms": first_ms,
                "tables_per_s": 5 * len(tables) / (time.process_time() - t)}}
from forest_shuffle.engine import GameState
import random
s = GameState.new(2, 5)
rng = random.Random(5)
for _ in range(150):
    s.apply(rng.choice(s.legal_actions()))
d = s.to_dict()
t = time.process_time()
for _ in range(300):
    GameState.from_dict(d)
out["base"]["from_dict_us"] = (time.process_time() - t) / 300 * 1e6
print(json.dumps(out))
"""


def probe(src: str, games: int, ids: list[str]) -> dict[str, dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", PROBE.format(games=games, ids=ids)], env=env,
                         capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--games-ids", default="base,base+alpine,base+woodland_edge,"
                    "base+alpine+woodland_edge", help="games probed in the new tree")
    a = ap.parse_args()
    new_ids = a.games_ids.split(",")
    got: dict[str, list[dict[str, dict[str, float]]]] = {"old": [], "new": []}
    for _ in range(a.rounds):
        got["old"].append(probe(a.old, a.games, ["base"]))
        got["new"].append(probe(a.new, a.games, new_ids))
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores), {a.rounds} interleaved rounds, "
          f"{a.games} games and 1,000 tables a probe")
    for key in ("games_per_s", "first_game_ms", "tables_per_s", "from_dict_us"):
        for name, ids in (("old", ["base"]), ("new", new_ids if key != "from_dict_us"
                                                   else ["base"])):
            for gid in ids:
                v = [r[gid][key] for r in got[name]]
                print(f"{key:13} {name} {gid:27}: median {statistics.median(v):8.1f}  "
                      f"min {min(v):8.1f}  max {max(v):8.1f}")


if __name__ == "__main__":
    main()
