"""How good can an evaluation of greedy play be, and how far is a network from it?

For positions of fast-greedy self-play (the mover's view at a turn decision), K games are
played on by the fast greedy from states resampled from the view
(``selfplay.continuation_outcomes``): their mean is the best any evaluation of that view
can predict (the outcome's expectation given what the seat knows, under the rollout
policy), their spread the part of the outcome no evaluation can predict. The script
reports, by stage of the game (the fraction of the deck left):

- the ceiling: the share of the variance of one game's outcome (win share, margin) that
  the view's expectation explains;
- for each network (``--net``, default the shipped one) and the hand-fitted judgement
  (the features' ``base_reward``, the search's ``hv=2`` reward as the seat sees it): the
  root-mean-square error against the view's expectation, corrected for the K games'
  own noise (the reducible error), and the variance of one outcome it explains.

    python benchmarks/bench_value_ceiling.py --games 200 --per 4 --k 32 --seed 4242
    python benchmarks/bench_value_ceiling.py --load pos.npz --net a.npz --net b.npz

``--save FILE`` keeps the positions (features and every continuation's outcome) so that
other networks can be judged on the same ones (``--load FILE``). Timing is not measured.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from forest_shuffle.bots.features import FEATURE_NAMES, view_features  # noqa: E402
from forest_shuffle.bots.selfplay import continuation_outcomes, turn_positions  # noqa: E402
from forest_shuffle.bots.value import load_net, usual_net  # noqa: E402
from forest_shuffle.engine.setup import derive  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402

STAGES = ((0.66, 1.01, "early (deck > 66 %)"), (0.33, 0.66, "middle"),
          (0.0, 0.33, "late (deck < 33 %)"))


def positions(games: int, per: int, k: int, seed: int, players: int, game: str
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (n x F), continuation win shares and margins (n x k)."""
    xs: list[list[float]] = []
    ws: list[list[float]] = []
    ms: list[list[float]] = []
    start = time.monotonic()
    for g in range(games):
        gs = derive(seed, f"ceiling {g}")
        state = GameState.new(players, gs, game=game)
        turns = turn_positions(state)
        rng = random.Random(derive(gs, "pick"))
        for ti in sorted(rng.sample(range(len(turns)), min(per, len(turns)))):
            pos = turns[ti]
            assert pos.to_move is not None
            view = pos.view(pos.to_move)
            xs.append(view_features(view))
            games_on = continuation_outcomes(view, k, derive(gs, f"continue {ti}"))
            ms.append([m for m, _ in games_on])
            ws.append([w for _, w in games_on])
        if (g + 1) % 20 == 0:
            print(f"  {g + 1} games, {len(xs)} positions, {time.monotonic() - start:.0f} s",
                  file=sys.stderr)
    return np.array(xs), np.array(ws), np.array(ms)


def report(x: np.ndarray, w: np.ndarray, m: np.ndarray, nets: list[tuple[str, object]]
           ) -> None:
    """Print the ceiling and each judge's reducible error, by stage."""
    k = w.shape[1]
    preds: list[tuple[str, np.ndarray, np.ndarray | None]] = []
    for name, net in nets:
        out = np.array([net.predict(list(map(float, row))) for row in x])  # type: ignore[attr-defined]
        preds.append((name, out[:, 1], out[:, 0]))
    preds.append(("hand-fitted judgement (base_reward)",
                  x[:, FEATURE_NAMES.index("base_reward")], None))
    deck = x[:, 4]
    for lo, hi, label in (*STAGES, (0.0, 1.01, "all")):
        sel = (deck >= lo) & (deck < hi)
        if sel.sum() < 2:
            continue
        ws, msel = w[sel], m[sel]
        pw, pm = ws.mean(1), msel.mean(1)
        noise_w = (ws.var(1, ddof=1) / k).mean()
        noise_m = (msel.var(1, ddof=1) / k).mean()
        tot_w, within_w = ws.var(), ws.var(1, ddof=1).mean()
        tot_m, within_m = msel.var(), msel.var(1, ddof=1).mean()
        print(f"\n{label}: {sel.sum()} positions x {k} games on")
        print(f"  ceiling: win share R2 {1 - within_w / tot_w:.3f}, margin R2 "
              f"{1 - within_m / tot_m:.3f} (one game's margin sd {math.sqrt(tot_m):.1f}, "
              f"unpredictable {math.sqrt(within_m):.1f}, the views' expectations spread "
              f"{pm.std():.1f} points)")
        for name, qw, qm in preds:
            err_w = ((qw[sel] - pw) ** 2).mean() - noise_w
            line = (f"  {name}: win error {math.sqrt(max(err_w, 0.0)):.3f} "
                    f"(R2 {1 - (within_w + err_w) / tot_w:.3f})")
            if qm is not None:
                err_m = ((qm[sel] - pm) ** 2).mean() - noise_m
                line += (f", margin error {math.sqrt(max(err_m, 0.0)):.1f} points "
                         f"(R2 {1 - (within_m + err_m) / tot_m:.3f})")
            print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--per", type=int, default=4, help="positions a game")
    ap.add_argument("--k", type=int, default=16, help="games played on from each")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--game", default="base")
    ap.add_argument("--net", action="append", default=[],
                    help="a network file to judge (repeatable; default: the shipped one)")
    ap.add_argument("--save", help="write the positions to this .npz")
    ap.add_argument("--load", help="judge the positions of this .npz instead of playing")
    a = ap.parse_args()
    if a.load:
        with np.load(a.load) as d:
            x, w, m = d["x"], d["w"], d["m"]
    else:
        if a.games < 1 or a.per < 1 or a.k < 2:
            ap.error("--games and --per must be at least 1, --k at least 2")
        x, w, m = positions(a.games, a.per, a.k, a.seed, a.players, a.game)
        if a.save:
            np.savez_compressed(a.save, x=x, w=w, m=m)
    nets: list[tuple[str, object]] = [(p, load_net(p)) for p in a.net] or [
        ("shipped network", usual_net(a.players))]
    report(x, w, m, nets)


if __name__ == "__main__":
    main()
