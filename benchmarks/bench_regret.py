"""Are a search's choices better than greedy's, as games played on to the end judge them?

For turn decisions of fast-greedy self-play (the mover's view), each bot given (``--bot``,
repeatable; a fixed number of rollouts, ``--iterations``) chooses a move; then every
candidate the search weighs (greedy's six best distinct moves, ``diverse_candidates``) and
every bot's choice is played on to the end of the game by the fast greedy for every seat,
``--k`` times on the same states resampled from the view (paired: the same hidden cards for
every move). A move's value is its mean win share (and margin) over those games: the
judgement of a one-move search with a perfect evaluation of greedy play. Printed per bot:
the mean gain of its choice over greedy's first choice (with its standard error), how
often it chose greedy's move, and its regret to the best move by that judgement (biased
upwards by the judgement's own noise, alike for every bot).

    python benchmarks/bench_regret.py --games 60 --per 2 --k 24 --iterations 240 --seed 77 \
        --bot mcts --bot learned --bot learned:net=my-value.npz

A bot that beats greedy in play but gains nothing here gains by something that greedy's
play to the end does not reward (its own later moves, or the rival's actual replies).
Timing is not measured.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from forest_shuffle.bots import Budget, make_bot  # noqa: E402
from forest_shuffle.bots.determinize import Determinizer  # noqa: E402
from forest_shuffle.bots.greedy import diverse_candidates  # noqa: E402
from forest_shuffle.bots.selfplay import outcome, play_out, turn_positions  # noqa: E402
from forest_shuffle.engine.actions import Action  # noqa: E402
from forest_shuffle.engine.setup import derive  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402


def judge(state: GameState, moves: list[Action], k: int, seed: int
          ) -> dict[Action, tuple[float, float]]:
    """Each move's mean (win share, margin) for the mover over ``k`` paired games played on
    to the end by the fast greedy from states resampled from the mover's view."""
    me = state.to_move
    assert me is not None
    det = Determinizer(state.view(me))
    rng = random.Random(seed)
    tot = {a: [0.0, 0.0] for a in moves}
    for _ in range(k):
        base = det.sample(rng)
        for a in moves:
            s = base.clone()
            s.apply(a)
            m, w = outcome(play_out(s), me)
            tot[a][0] += w / k
            tot[a][1] += m / k
    return {a: (v[0], v[1]) for a, v in tot.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--per", type=int, default=2, help="decisions a game")
    ap.add_argument("--k", type=int, default=24, help="paired games on a move")
    ap.add_argument("--iterations", type=int, default=240, help="rollouts a bot's decision")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", action="append", default=[], help="a bot spec (repeatable)")
    a = ap.parse_args()
    if a.games < 1 or a.per < 1 or a.k < 2 or a.iterations < 1:
        ap.error("--games, --per and --iterations must be at least 1, --k at least 2")
    specs = a.bot or ["mcts", "learned"]
    try:
        bots = [make_bot(spec, 1) for spec in specs]
    except ValueError as exc:
        ap.error(str(exc).splitlines()[0])
    gains: dict[str, list[tuple[float, float, float, bool]]] = {s: [] for s in specs}
    start = time.monotonic()
    for g in range(a.games):
        gs = derive(a.seed, f"regret {g}")
        state = GameState.new(a.players, gs)
        turns = turn_positions(state)
        rng = random.Random(gs)
        for ti in sorted(rng.sample(range(len(turns)), min(a.per, len(turns)))):
            pos = turns[ti]
            assert pos.to_move is not None
            view = pos.view(pos.to_move)
            cands = diverse_candidates(view, 6, True)
            if len(cands) < 2:
                continue
            chosen = [bot.choose(view, Budget(iterations=a.iterations)) for bot in bots]
            moves = list(dict.fromkeys([*cands, *chosen]))
            value = judge(pos, moves, a.k, derive(gs, f"judge {ti}"))
            best = max(v[0] for v in value.values())
            for spec, act in zip(specs, chosen, strict=True):
                gains[spec].append((value[act][0] - value[cands[0]][0],
                                    value[act][1] - value[cands[0]][1],
                                    best - value[act][0], act == cands[0]))
        print(f"  {g + 1} games, {time.monotonic() - start:.0f} s", file=sys.stderr)
    for spec, rows in gains.items():
        n = len(rows)
        if not n:
            continue
        gw = [r[0] for r in rows]
        gm = [r[1] for r in rows]
        mw, mm = sum(gw) / n, sum(gm) / n
        sw = math.sqrt(sum((x - mw) ** 2 for x in gw) / max(1, n - 1) / n)
        sm = math.sqrt(sum((x - mm) ** 2 for x in gm) / max(1, n - 1) / n)
        print(f"{spec}: {n} decisions; gain over greedy's move: win share {mw:+.4f} "
              f"+- {sw:.4f}, margin {mm:+.2f} +- {sm:.2f} points; greedy's move "
              f"{sum(r[3] for r in rows) / n:.0%} of the time; regret to the best "
              f"{sum(r[2] for r in rows) / n:.4f}")


if __name__ == "__main__":
    main()
