"""The cost of the log's action lines in every language (docs/i18n.md, "The server's
words"): ``narrate`` writes each action's line in English and, since issue 41's server
words, in French, German and Chinese too (with and without card ids, and the actor's own
copy). Random 3-player games of ``--game`` are narrated action by action; each round
narrates every action once. Medians with min and max per round, in milliseconds, of the
whole narration and of the English words alone (``public_words`` and ``own_words``), and
the machine's load.

Usage: ``python benchmarks/bench_log_words.py [--rounds 15] [--actions 600] [--game base]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.server.service import narrate
from forest_shuffle.text.narration import own_words, public_words

NAMES = ["Ann", "Bob", "Cy"]


def moves(game: str, count: int, seed: int = 7) -> list[tuple[GameState, GameState, int, Action]]:
    """``count`` (before, after, seat, action) of random games."""
    out: list[tuple[GameState, GameState, int, Action]] = []
    rng = random.Random(seed)
    while len(out) < count:
        s = GameState.new(3, rng.randrange(1 << 30), game=game)
        while not s.over and len(out) < count:
            p = s.to_move
            assert p is not None
            a = rng.choice(s.legal_actions())
            before = s.clone()
            s.apply(a)
            out.append((before, s.clone(), p, a))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--actions", type=int, default=600)
    ap.add_argument("--game", default="base")
    args = ap.parse_args()
    data = moves(args.game, args.actions)
    whole: list[float] = []
    english: list[float] = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        for before, after, p, a in data:
            narrate(before, after, p, a, NAMES)
        whole.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        for before, after, p, a in data:
            v = before.view(p)
            public = public_words(a, v.pending, v.forests[p], after.game.catalog)
            own_words(a, public, (), after.game.catalog)
        english.append((time.perf_counter() - t) * 1000)
    load = os.getloadavg()[0]
    for name, xs in (("narrate (4 languages)", whole), ("English words only", english)):
        print(f"{name}: {statistics.median(xs):.1f} [{min(xs):.1f}, {max(xs):.1f}] ms "
              f"for {len(data)} actions")
    print(f"load average {load:.1f}")


if __name__ == "__main__":
    main()
