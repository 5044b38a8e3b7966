"""Branching factor of the engine's decisions over random games (a measurement script).

Usage: python benchmarks/branching.py [--games 200] [--players 2]
Prints, per decision kind, how often it comes up and the median, mean, 99th percentile
and maximum number of legal actions, plus decisions per game.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

from forest_shuffle.engine import GameState


def measure(games: int, players: int, seed: int) -> dict[str, list[int]]:
    """Legal-action counts per decision kind over ``games`` uniformly random games."""
    counts: dict[str, list[int]] = defaultdict(list)
    for g in range(games):
        state = GameState.new(players, seed + g)
        rng = random.Random(seed + g)
        while not state.over:
            legal = state.legal_actions()
            kind = state.decision
            assert kind is not None
            counts[kind].append(len(legal))
            counts["all"].append(len(legal))
            state.apply(legal[rng.randrange(len(legal))])
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts = measure(args.games, args.players, args.seed)
    print(f"{args.games} random {args.players}-player games, "
          f"{len(counts['all']) / args.games:.0f} decisions per game")
    print(f"{'decision':10} {'per game':>9} {'median':>7} {'mean':>7} {'p99':>5} {'max':>5}")
    for kind, values in sorted(counts.items(), key=lambda kv: -len(kv[1])):
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"{kind:10} {len(values) / args.games:9.1f} {statistics.median(values):7.0f} "
              f"{statistics.fmean(values):7.1f} {p99:5d} {values[-1]:5d}")


if __name__ == "__main__":
    main()
