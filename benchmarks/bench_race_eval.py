"""How well does an evaluation order the candidates the search's race compares?

The race (``bots.mcts.race``) plays every root candidate (greedy's six best distinct moves)
on the same determinization for ``depth`` rounds of fast greedy and compares the cut-off
evaluations. This script records exactly those cut-offs: at turn decisions of fast-greedy
self-play, for ``--samples`` determinizations of the mover's view, every candidate's
cut-off features (the mover's seat) and the outcome of playing that cut-off on to the end
by the fast greedy (a rollout that ends the game keeps its final reward). Then, for each
evaluation (the hand-fitted ``hv=2`` judgement, the shipped network, ``--net`` files):

- ``paired r``: the correlation, within each determinization, between the evaluation's
  differences among the candidates and their outcomes' differences (what the race's paired
  means average; 1 would be a perfect evaluation of that determinization's greedy play);
- ``gain``: choosing by the evaluation's mean over half the determinizations and judging
  the choice by the other half's outcomes (both ways), the win share gained over greedy's
  first candidate, with its standard error; ``greedy``: how often that choice is greedy's.

``--again K`` also plays every cut-off on K times more from states resampled from the seat's
view there (K + 1 times the work; ``--ceiling`` is ``--again 2``): the paired correlation of
two such games is the share of one game's paired variance that what the seat knows at the
cut-off can explain (averaged over the pairs of the K games), and its square root the
``paired r`` of a perfect evaluation (the ceiling). The mean of a cut-off's K + 1 games on is
a target with less noise: ``train_paired.py --target mean`` fits it, and each evaluation's
paired r against it (beside a perfect evaluation's, :func:`mean_ceiling`) and its gain
judged by the means are printed too.

``--workers N`` records the games in N processes (the same rows as one); ``--save`` keeps
the run's setup beside the rows, so that new features of the same cut-offs can be computed
without playing anything on (``race_rows(..., outcomes=False)``).

    python benchmarks/bench_race_eval.py --games 100 --per 4 --samples 8 --seed 5000 \
        --save race.npz
    python benchmarks/bench_race_eval.py --load race.npz --net my-value.npz

A network's held-out log-loss says how well it predicts positions; this says how well it
tells one position's moves apart, which is what the search uses (the 2-player network on
continuation targets, closer on positions, played worse). Timing is not measured.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from forest_shuffle.bots.determinize import Determinizer  # noqa: E402
from forest_shuffle.bots.features import FEATURE_NAMES, NUM_FEATURES, state_features  # noqa: E402
from forest_shuffle.bots.greedy import diverse_candidates, greedy_action  # noqa: E402
from forest_shuffle.bots.mcts import finished_reward  # noqa: E402
from forest_shuffle.bots.selfplay import outcome, play_out, turn_positions  # noqa: E402
from forest_shuffle.bots.value import ValueNet, load_net, shipped_net, usual_net  # noqa: E402
from forest_shuffle.engine.setup import derive  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402

Arrays = dict[str, np.ndarray]


def race_rows(games: int, per: int, samples: int, seed: int, players: int = 2,
              game: str = "base", depth: int = 2, again: int = 0, first: int = 0,
              outcomes: bool = True,
              featurize: Callable[[GameState, int], list[float]] | None = None) -> Arrays:
    """The cut-offs of ``per`` turn decisions a game (see the module text), of the games
    ``first`` to ``first + games - 1`` of ``seed`` (each game is its own: a range of them
    is the same rows as in a longer run, decisions numbered from 0): arrays
    ``decision``, ``sample``, ``cand`` (0 is greedy's first), ``fin`` (the finished reward
    of a rollout that ended the game, else -1), ``x`` (features; zeros when finished),
    ``margin`` and ``win`` (the mover's outcome); with ``again`` K > 0 also ``again`` (n x K,
    the win shares of K games on from states resampled from the seat's view at the
    cut-off; a finished rollout's own outcome K times). ``outcomes=False`` plays nothing on
    from the cut-offs (``margin`` and ``win`` NaN, no ``again``): the same rows' features in
    a fraction of the time, for features computed anew. ``featurize(state, seat)`` (a
    module-level function, so that worker processes can take it) gives the features
    instead of :func:`~forest_shuffle.bots.features.state_features` (a finished rollout's
    are zeros of the same length)."""
    feat = featurize or state_features
    width = NUM_FEATURES
    cols: dict[str, list[object]] = {k: [] for k in ("decision", "sample", "cand", "fin",
                                                      "x", "margin", "win", "again")}
    if not outcomes:
        again = 0
    decision = 0
    start = time.monotonic()
    for g in range(first, first + games):
        gs = derive(seed, f"race {g}")
        state = GameState.new(players, gs, game=game)
        turns = turn_positions(state)
        rng = random.Random(gs)
        for ti in sorted(rng.sample(range(len(turns)), min(per, len(turns)))):
            pos = turns[ti]
            me = pos.to_move
            assert me is not None
            view = pos.view(me)
            cands = diverse_candidates(view, 6, True)
            if len(cands) < 2:
                continue
            det = Determinizer(view)
            drng = random.Random(derive(gs, f"samples {ti}"))
            horizon = view.turn + depth * view.num_players
            for s in range(samples):
                base = det.sample(drng)
                for ci, act in enumerate(cands):
                    st = base.clone()
                    st.apply(act)
                    while not st.over and st.turn < horizon:
                        st.apply(greedy_action(st, exact=False))
                    more: list[float] = []
                    feats: list[float] | None
                    if st.over:
                        fin = finished_reward(list(st.game.totals_fn()(st.forests)), me, 5)
                        feats = None
                    else:
                        fin = -1.0
                        feats = feat(st, me)
                        width = len(feats)
                        if again:
                            cut = Determinizer(st.view(me))
                            crng = random.Random(derive(gs, f"again {ti} {s} {ci}"))
                            more = [outcome(play_out(cut.sample(crng)), me)[1]
                                    for _ in range(again)]
                        if outcomes:
                            play_out(st)
                    m, w = outcome(st, me) if outcomes else (math.nan, math.nan)
                    for k, v in (("decision", decision), ("sample", s), ("cand", ci),
                                 ("fin", fin), ("x", feats), ("margin", m), ("win", w),
                                 ("again", more or [w] * again)):
                        cols[k].append(v)
            decision += 1
        print(f"  {g + 1 - first} games, {decision} decisions, "
              f"{time.monotonic() - start:.0f} s", file=sys.stderr)
    # A finished rollout's features: zeros, as many as the others.
    cols["x"] = [v if v is not None else [0.0] * width for v in cols["x"]]
    return {"decision": np.array(cols["decision"], dtype=np.int32),
            "sample": np.array(cols["sample"], dtype=np.int16),
            "cand": np.array(cols["cand"], dtype=np.int16),
            "fin": np.array(cols["fin"], dtype=np.float32),
            "x": np.array(cols["x"], dtype=np.float32).reshape(len(cols["x"]),
                                                               width),
            "margin": np.array(cols["margin"], dtype=np.float32),
            "win": np.array(cols["win"], dtype=np.float32),
            **({"again": np.array(cols["again"], dtype=np.float32).reshape(-1, again)}
               if again else {})}


def groups(d: Arrays) -> np.ndarray:
    """Each cut-off's group: 0, 1, ... for every (decision, determinization), whose
    candidates the race compares with one another."""
    key = d["decision"].astype(np.int64) * 65536 + d["sample"]
    return np.unique(key, return_inverse=True)[1]


def centered(d: Arrays, v: np.ndarray) -> np.ndarray:
    """``v`` less its mean over the candidates of the same decision and determinization."""
    group = groups(d)
    means = np.bincount(group, v) / np.bincount(group)
    return np.asarray(v - means[group], dtype=np.float64)


def ceiling_share(d: Arrays) -> float:
    """The paired correlation of two resampled games on (``again``), averaged over every
    pair of its columns: the share of one game's paired variance the seat's knowledge at
    the cut-off explains. ValueError without at least two such games a cut-off."""
    k = d["again"].shape[1] if "again" in d else 0
    if k < 2:
        raise ValueError("the ceiling needs at least two games on from each cut-off")
    live = d["fin"] < 0
    cols = [centered(d, d["again"][:, i].astype(np.float64))[live] for i in range(k)]
    return float(np.mean([np.corrcoef(cols[i], cols[j])[0, 1]
                          for i in range(k) for j in range(i + 1, k)]))


def mean_target(d: Arrays) -> np.ndarray:
    """Each cut-off's mean win share over its own game on (``win``) and the resampled ones
    (``again``): a target with less noise than one game. ValueError without ``again``."""
    if "again" not in d:
        raise ValueError("no games on from states resampled at the cut-offs (save them "
                         "with --again K)")
    both = np.concatenate([d["win"][:, None], d["again"]], axis=1).astype(np.float64)
    return np.asarray(both.mean(axis=1), dtype=np.float64)


def net_reward(net: ValueNet, d: Arrays) -> np.ndarray:
    """The network's win probability at every cut-off (the race's ``hv=5`` reward)."""
    z = net.forward(d["x"].astype(np.float64))[:, 1]
    return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)


def judge(d: Arrays, reward: np.ndarray) -> dict[str, float]:
    """``paired r``, ``gain`` with its ``se`` and the ``greedy`` share (the module text) of
    an evaluation's rewards (finished rollouts keep their final reward); with ``again``,
    also ``paired_r_mean``, the paired r against :func:`mean_target`, and ``gain_mean``
    with ``se_mean``, the gain with the other half's choices judged by their mean targets
    (less noise than one game each)."""
    p = np.where(d["fin"] >= 0, d["fin"], reward)
    samples = int(d["sample"].max()) + 1
    half = samples // 2
    order = np.argsort(d["decision"], kind="stable")
    cuts = np.flatnonzero(np.diff(d["decision"][order])) + 1
    targets = {"": d["win"].astype(np.float64)}
    if "again" in d:
        targets["_mean"] = mean_target(d)
    gains: dict[str, list[float]] = {k: [] for k in targets}
    greedy = 0
    for rows in np.split(order, cuts):
        c = d["cand"][rows].astype(int)
        s = d["sample"][rows].astype(int)
        pm = np.full((int(c.max()) + 1, samples), np.nan)
        pm[c, s] = p[rows]
        if np.isnan(pm).any():
            raise ValueError("a decision lacks some candidate's rollout")
        yms = {}
        for key, y in targets.items():
            yms[key] = np.full_like(pm, np.nan)
            yms[key][c, s] = y[rows]
        for a, b in ((slice(0, half), slice(half, samples)),
                     (slice(half, samples), slice(0, half))):
            pick = int(np.argmax(pm[:, a].mean(axis=1)))
            for key, ym in yms.items():
                val = ym[:, b].mean(axis=1)
                gains[key].append(float(val[pick] - val[0]))
            greedy += pick == 0
    n = len(gains[""]) / 2
    out = {"greedy": greedy / len(gains[""]), "decisions": n}
    for key, y in targets.items():
        g = np.array(gains[key])
        pair = (g[0::2] + g[1::2]) / 2  # the two halves of one decision are one sample
        out[f"paired_r{key}"] = float(np.corrcoef(centered(d, p), centered(d, y))[0, 1])
        out[f"gain{key}"] = float(g.mean())
        out[f"se{key}"] = float(pair.std(ddof=1) / math.sqrt(n))
    return out


def mean_ceiling(single: float, games: int) -> float:
    """The paired r of a perfect evaluation against the mean of ``games`` games on, when
    one game's paired variance is ``single`` (:func:`ceiling_share`) explained: the square
    root of the mean's reliability ``games * single / (1 + (games - 1) * single)``."""
    s = max(single, 0.0)
    return math.sqrt(games * s / (1.0 + (games - 1) * s))


def concat_cut_offs(parts: list[Arrays]) -> Arrays:
    """Several runs' cut-offs one after the other, their decisions numbered on (files with
    K games on each keep the fewest's columns; a part without them drops them all)."""
    parts = [dict(p) for p in parts]
    offset = 0
    for part in parts:
        part["decision"] = part["decision"] + offset
        if len(part["decision"]):
            offset = int(part["decision"].max()) + 1
    keys = set.intersection(*(set(p) for p in parts)) - {"setup"}
    if "again" in keys:
        k = min(p["again"].shape[1] for p in parts)
        for p in parts:
            p["again"] = p["again"][:, :k]
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


def race_rows_parallel(workers: int, games: int, per: int, samples: int, seed: int,
                       players: int = 2, game: str = "base", depth: int = 2,
                       again: int = 0, outcomes: bool = True,
                       featurize: Callable[[GameState, int], list[float]] | None = None
                       ) -> Arrays:
    """:func:`race_rows` with the games split into ``workers`` consecutive ranges, each in
    its own process: the same rows, in the same order, as one process makes."""
    if workers <= 1 or games < 2:
        return race_rows(games, per, samples, seed, players, game, depth, again, 0,
                         outcomes, featurize)
    from forest_shuffle.workers import process_pool

    n = min(workers, games)
    cuts = [games * i // n for i in range(n + 1)]
    with process_pool(n) as pool:
        futures = [pool.submit(race_rows, cuts[i + 1] - cuts[i], per, samples, seed, players,
                               game, depth, again, cuts[i], outcomes, featurize)
                   for i in range(n)]
        return concat_cut_offs([f.result() for f in futures])


def load_cut_offs(paths: list[str]) -> Arrays:
    """Cut-offs saved with ``--save``, several files one after the other (their decisions
    numbered on); ValueError (one line) for a file this script did not write."""
    parts: list[Arrays] = []
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as f:
                part = {k: f[k] for k in ("decision", "sample", "cand", "fin", "x",
                                          "margin", "win", "again") if k in f.files}
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not saved by this script "
                             f"({str(exc).splitlines()[0][:80]})") from None
        missing = {"decision", "sample", "cand", "fin", "x", "margin", "win"} - set(part)
        if missing:
            raise ValueError(f"{path}: not saved by this script (no {sorted(missing)[0]})")
        parts.append(part)
    return concat_cut_offs(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--per", type=int, default=4, help="decisions a game")
    ap.add_argument("--samples", type=int, default=8, help="determinizations a decision")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--depth", type=int, default=2, help="rounds to the cut-off")
    ap.add_argument("--net", action="append", default=[], help="a network file (repeatable)")
    ap.add_argument("--again", type=int, default=0, metavar="K",
                    help="also K games on from states resampled at each cut-off (the "
                         "ceiling with K >= 2; a lower-noise target)")
    ap.add_argument("--ceiling", action="store_true", help="the same as --again 2")
    ap.add_argument("--save", default="", help="keep the cut-offs in this .npz")
    ap.add_argument("--workers", type=int, default=1,
                    help="processes that record the games (the same rows as one)")
    ap.add_argument("--load", action="append", default=[],
                    help="judge on saved cut-offs instead (repeatable)")
    a = ap.parse_args()
    if a.games < 1 or a.per < 1 or a.samples < 2 or a.samples % 2 or a.depth < 1:
        ap.error("--games, --per and --depth must be at least 1, --samples even and at least 2")
    if a.again < 0 or a.again > 64:
        ap.error(f"--again must be from 0 to 64, not {a.again}")
    if a.ceiling:
        a.again = max(a.again, 2)
    if not 2 <= a.players <= 5:
        ap.error("--players must be 2 to 5")
    if not 1 <= a.workers <= 64:
        ap.error(f"--workers must be from 1 to 64, not {a.workers}")
    if a.save and not Path(a.save).resolve().parent.is_dir():
        ap.error(f"--save: the folder of {a.save!r} does not exist")
    try:
        own = shipped_net("", a.players)
        nets = [("shipped network", usual_net(a.players))]
        if own.species_game:
            nets.append(("shipped network with the species", own))
        nets += [(Path(p).name, load_net(p)) for p in a.net]
    except ValueError as exc:
        ap.error(str(exc))
    if a.load:
        try:
            d = load_cut_offs(a.load)
        except ValueError as exc:
            ap.error(str(exc))
    else:
        d = race_rows_parallel(a.workers, a.games, a.per, a.samples, a.seed, a.players,
                               "base", a.depth, a.again)
        if a.save:
            # How the rows were made, so that their features can be computed anew
            # (race_rows with outcomes=False): seed, games, per, samples, depth, players.
            setup = np.array([a.seed, a.games, a.per, a.samples, a.depth, a.players],
                             dtype=np.int64)
            np.savez_compressed(a.save, setup=setup, **d)  # type: ignore[arg-type]
    judges = [("hand-fitted (hv=2)", d["x"][:, FEATURE_NAMES.index("base_reward")]
               .astype(np.float64))]
    width = d["x"].shape[1]
    for name, net in nets:
        if net.inputs > width:
            print(f"{name}: reads the species inputs, which these cut-offs lack (give them "
                  "with species_inputs.py cutoffs)")
        else:
            judges.append((name, net_reward(net, d)))
    print(f"{len(d['win'])} cut-offs, {int(d['decision'].max()) + 1} decisions")
    if "again" in d and d["again"].shape[1] >= 2:
        share = ceiling_share(d)
        print(f"ceiling: the seat's knowledge at the cut-off explains {share:.4f} of a "
              f"game's paired variance; a perfect evaluation's paired r "
              f"{math.sqrt(max(share, 0.0)):.4f} (against the mean of the "
              f"{d['again'].shape[1] + 1} games on: "
              f"{mean_ceiling(share, d['again'].shape[1] + 1):.4f})")
    for name, reward in judges:
        r = judge(d, reward)
        mean = (f" (against the mean of the {d['again'].shape[1] + 1} games on: "
                f"{r['paired_r_mean']:.4f})" if "paired_r_mean" in r else "")
        gmean = (f" (by the means: {r['gain_mean']:+.4f} +- {r['se_mean']:.4f})"
                 if "gain_mean" in r else "")
        print(f"{name}: paired r {r['paired_r']:.4f}{mean}; gain over greedy's move "
              f"{r['gain']:+.4f} +- {r['se']:.4f} win share{gmean}; greedy's move "
              f"{r['greedy']:.0%} of the time")


if __name__ == "__main__":
    main()
