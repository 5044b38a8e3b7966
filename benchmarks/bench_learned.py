"""Strength of the learned search against the search bot (a benchmark, not a timed test).

Usage: ``python benchmarks/bench_learned.py [--a learned:time=0.3] [--b mcts:time=0.3]
[--games 40] [--players 2] [--seed 2040] [--workers 1] [--json]``

Plays a tournament (:func:`forest_shuffle.match.tournament`: the same deals under every
cyclic rotation of the seats) between ``--a`` and ``--b`` (with 3 or more players the
seats hold the two bots in turn: one ``a`` against two ``b`` at 3 players is the rotation
of ``a,b,b``: ``--b`` may name several bots, comma-separated). Prints ``a``'s win share
with its 95 % Wilson interval, the mean margin of ``a``'s seats to the best other seat
(paired over the deals, with its standard error), the mean scores, seconds a decision and
the machine's load average at the start and the end (the budget is in seconds, so a loaded
machine buys fewer rollouts).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from typing import Any

from forest_shuffle.cli.commands.tournament import parse_bots
from forest_shuffle.match import tournament


def run(a: str, b: list[str], games: int, players: int, seed: int,
        workers: int) -> dict[str, Any]:
    """The tournament of ``a`` against ``b`` and its figures."""
    bots = [a, *b]
    load0 = os.getloadavg()[0]
    start = time.perf_counter()
    res = tournament(bots, games, players, seed, workers)
    margins = []
    for m in res.matches:
        for seat, spec in enumerate(m.bots):
            if spec == a:
                best = max(s for i, s in enumerate(m.scores) if i != seat)
                margins.append(m.scores[seat] - best)
    mean = sum(margins) / len(margins)
    var = sum((x - mean) ** 2 for x in margins) / max(1, len(margins) - 1)
    st = res.stats[0]
    return {
        "a": a, "b": b, "players": players, "seed": seed, "games": res.games,
        "win_rate": st.win_rate, "interval": list(st.interval), "wins": st.wins,
        "margin": mean, "margin_se": math.sqrt(var / len(margins)),
        "mean_scores": {s.bot: s.mean_score for s in res.stats},
        "seconds_per_decision": {s.bot: s.seconds_per_decision for s in res.stats},
        "load": [load0, os.getloadavg()[0]], "minutes": (time.perf_counter() - start) / 60,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="learned:time=0.3")
    ap.add_argument("--b", default="mcts:time=0.3")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2040)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = run(args.a, parse_bots(args.b), args.games, args.players, args.seed, args.workers)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    low, high = out["interval"]
    print(f"{out['a']} against {', '.join(out['b'])}, {out['players']} players, "
          f"{out['games']} games, seed {out['seed']}: wins {out['wins']:g}, "
          f"{out['win_rate']:.1%} (95 % interval {low:.1%}-{high:.1%}), margin "
          f"{out['margin']:+.1f} +- {out['margin_se']:.1f}, scores "
          + ", ".join(f"{k} {v:.0f}" for k, v in out["mean_scores"].items())
          + ", s/decision " + ", ".join(f"{v:.3f}" for v in out["seconds_per_decision"].values())
          + f", load {out['load'][0]:.1f}->{out['load'][1]:.1f}, {out['minutes']:.1f} min")


if __name__ == "__main__":
    main()
