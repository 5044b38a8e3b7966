"""Search rollout benchmark (not a timed test): paired-racing rollouts per second at
mid-game turn decisions, as the median (min-max) of repeats, each a fixed number of
rollouts (``iterations``, no deadline) on its own seed.

Usage: ``python benchmarks/bench_rollouts.py [--rollouts 60] [--repeats 9] [--seed 1]
[--game base] [--hv 2] [--json]``

``--hv`` is the cut-off judgement of the rollouts, as the search bot's option: 2 the
hand-fitted evaluation (``hard``), 5 the shipped value network's win probability (what
``learned``, the ``expert``, uses). The two runs, same seeds, give the learned
evaluation's cost on the search's hot path.

For an instruction count independent of the load, run one repeat under callgrind and
once more with ``--rollouts 0`` (the same set-up, no rollout); the difference is the
rollouts' instructions: ``valgrind --tool=callgrind --callgrind-out-file=/dev/null
python benchmarks/bench_rollouts.py --repeats 1``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from forest_shuffle.bots.mcts import race
from forest_shuffle.games import game_ids

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from bench_bots import mid_game  # noqa: E402


def rollout_rate(seed: int, rollouts: int, game: str, hv: int = 2) -> float:
    """Rollouts per second of one race of ``rollouts`` rollouts (depth 2, cut-offs judged
    by ``hv``)."""
    state = mid_game(seed, game)
    view = state.view(state.to_move or 0)
    if rollouts == 0:  # the set-up alone (race's 0 iterations would mean no limit)
        return 0.0
    start = time.perf_counter()
    stats = race(view, None, rollouts, seed, 2, hv=hv, z=1e9)
    return sum(v for v, _ in stats.values()) / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="base")
    ap.add_argument("--hv", type=int, default=2, choices=(2, 5, 6))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.game not in game_ids():
        print(f"unknown game {args.game!r}", file=sys.stderr)
        raise SystemExit(2)
    if args.rollouts < 0 or args.repeats < 1:
        print("--rollouts must be >= 0 and --repeats >= 1", file=sys.stderr)
        raise SystemExit(2)
    rates = [rollout_rate(args.seed + i, args.rollouts, args.game, args.hv)
             for i in range(args.repeats)]
    out = {
        "game": args.game,
        "hv": args.hv,
        "rollouts": args.rollouts,
        "repeats": args.repeats,
        "median": round(statistics.median(rates)),
        "min": round(min(rates)),
        "max": round(max(rates)),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{args.game}, hv={args.hv}: {out['median']} rollouts/s"
            f" (min {out['min']}, max {out['max']}),"
            f" {args.repeats} repeats of {args.rollouts}"
        )


if __name__ == "__main__":
    main()
