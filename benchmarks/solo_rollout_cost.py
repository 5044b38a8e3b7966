"""CPU seconds of one solo race (``iterations`` rollouts at a turn decision) by ``depth``.

Usage: ``python benchmarks/solo_rollout_cost.py [--challenge 2] [--positions 5]
[--iterations 36] [--depths 3,0]`` plays the goal-aware policy to a turn decision with a
choice at several points of a game (deck sizes spread from 100 to 20 cards, seeds 11, 12,
...), and prints, per depth, the CPU seconds one race took: median, min and max.
"""

from __future__ import annotations

import argparse
import statistics
import time

from forest_shuffle.bots.solo import SoloBot, solo_action
from forest_shuffle.engine.state import GameState


def positions(challenge: int, n: int) -> list[GameState]:
    """``n`` turn decisions with a choice, at deck sizes spread over the game."""
    out = []
    for i in range(n):
        deck_left = 100 - i * 80 // max(1, n - 1)
        s = GameState.new(1, 11 + i, game=f"dartmoor-solo-{challenge}")
        while not s.over and not (len(s.deck) <= deck_left and s.stack[-1].kind == "turn"
                                  and len(s.legal_actions()) > 1):
            s.apply(solo_action(s))
        if not s.over:
            out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--challenge", type=int, default=2)
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=36)
    ap.add_argument("--depths", default="3,0")
    a = ap.parse_args()
    states = positions(a.challenge, a.positions)
    for depth in (int(x) for x in a.depths.split(",")):
        cpu = []
        for s in states:
            bot = SoloBot(seed=1, iterations=a.iterations, depth=depth)
            start = time.process_time()
            bot.choose(s.view(0))
            cpu.append(time.process_time() - start)
        print(f"challenge {a.challenge}, depth {depth}, {a.iterations} rollouts: CPU s a race "
              f"median {statistics.median(cpu):.2f} (min {min(cpu):.2f}, max {max(cpu):.2f}) "
              f"over {len(cpu)} positions")


if __name__ == "__main__":
    main()
