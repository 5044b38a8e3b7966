"""Do networks that see the cards order the race's candidates better?

The shipped network reads totals, counts and keep values (``bots.features``); what it does
not see may be what it misses of the race's paired differences. This script tries the
card-level inputs of :func:`~forest_shuffle.bots.features.species_features` (how many cards
of each species are in the seat's forest, the best rival's, the seat's hand, the clearing)
appended to the usual features, in three steps:

- ``selfplay``: positions of fast-greedy self-play (every turn decision with probability
  ``--rate``), both feature sets, each with its seat's final margin and win share;
- ``cutoffs``: the same rows as race cut-offs saved by ``bench_race_eval.py --save`` (their
  games on and ``again`` kept) with the wide features computed anew, playing nothing on
  (``race_rows(..., outcomes=False)``; the file's ``setup``, or ``--setup`` for a file saved
  before the setup was);
- ``train``: a network on the self-play positions (``bots.train.train``, the usual features
  alone or with the species, ``--inputs``), then fine-tuned on the first three quarters of
  the cut-offs' decisions for the race (``train_paired.fine_tune``, the mean of the games
  on as the target); the held-out quarter's and every ``--test`` file's paired r and gain
  (``bench_race_eval.judge``) are printed for the shipped network and the new one before
  and after the fine-tuning.

    python benchmarks/species_inputs.py selfplay --games 10000 --seed 31 --out sp.npz
    python benchmarks/species_inputs.py cutoffs race-7000.npz --out cut-7000.npz
    python benchmarks/species_inputs.py train sp.npz --race cut-7000.npz ... --test cut6.npz

Any player count (``selfplay --players n``, cut-offs of ``bench_race_eval.py --players
n``): ``train`` reads it from the rows' one-hot count features, refuses self-play and
cut-offs of different counts, and compares with the shipped networks for that count.
``--out`` writes the fine-tuned network as the bot reads it: ``learned:net=PATH`` plays it
(in the base game; another game is judged by the shipped weights). Needs PyTorch for
``train`` (the ``learn`` extra).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_race_eval as race  # noqa: E402
import train_paired as paired  # noqa: E402

from forest_shuffle.bots.features import (  # noqa: E402
    NUM_FEATURES,
    SPECIES_BLOCKS,
    wide_feature_names,
    wide_features,
)
from forest_shuffle.bots.greedy import greedy_action  # noqa: E402
from forest_shuffle.bots.selfplay import Dataset, outcome  # noqa: E402
from forest_shuffle.bots.value import ValueNet, shipped_net, usual_net  # noqa: E402
from forest_shuffle.engine.game import game_by_id  # noqa: E402
from forest_shuffle.engine.setup import derive  # noqa: E402
from forest_shuffle.engine.state import GameState  # noqa: E402

Arrays = dict[str, np.ndarray]

#: ``--inputs``: how many species blocks follow the usual features.
INPUTS = {"usual": 0, "species": SPECIES_BLOCKS.index("sp_unseen"),
          "unseen": len(SPECIES_BLOCKS)}


def selfplay_rows(seed: int, first: int, games: int, players: int, rate: float) -> Arrays:
    """The recorded positions of games ``first`` to ``first + games - 1`` of ``seed``
    (fast greedy for every seat): ``x`` (wide features of the mover), ``margin``, ``win``
    (its outcome) and ``game`` (the game's index)."""
    xs: list[list[float]] = []
    margin: list[float] = []
    win: list[float] = []
    gid: list[int] = []
    for g in range(first, first + games):
        gs = derive(seed, f"species {g}")
        state = GameState.new(players, gs, game="base")
        rng = random.Random(gs)
        seen: list[tuple[int, list[float]]] = []
        while not state.over:
            me = state.to_move
            if state.stack[-1].kind == "turn" and me is not None and rng.random() < rate:
                seen.append((me, wide_features(state, me)))
            state.apply(greedy_action(state, exact=False))
        for me, x in seen:
            m, w = outcome(state, me)
            xs.append(x)
            margin.append(m)
            win.append(w)
            gid.append(g)
    width = len(wide_feature_names(game_by_id("base")))
    return {"x": np.array(xs, dtype=np.float32).reshape(len(xs), width),
            "margin": np.array(margin, dtype=np.float32),
            "win": np.array(win, dtype=np.float32), "game": np.array(gid, dtype=np.int32)}


def selfplay(games: int, seed: int, players: int, rate: float, workers: int) -> Arrays:
    """:func:`selfplay_rows` of ``games`` games, in chunks over ``workers`` processes (the
    same rows, in the same order, whatever the number)."""
    chunk = 50
    jobs = [(seed, lo, min(chunk, games - lo), players, rate) for lo in range(0, games, chunk)]
    if workers <= 1:
        parts = [selfplay_rows(*job) for job in jobs]
    else:
        from forest_shuffle.workers import process_pool

        with process_pool(workers) as pool:
            parts = [f.result() for f in [pool.submit(selfplay_rows, *job) for job in jobs]]
    return {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}


def players_of(x: np.ndarray) -> int | None:
    """The player count of feature rows (their one-hot first four features; the rows of
    zeros of finished rollouts say nothing), None when no row says it or the rows are not
    all of one count."""
    hot = x[:, :4]
    counts = np.unique(np.argmax(hot[hot.sum(axis=1) > 0], axis=1))
    return int(counts[0]) + 2 if len(counts) == 1 else None


def _figures(d: Arrays, reward: np.ndarray) -> str:
    r = race.judge(d, reward)
    out = f"paired r {r['paired_r']:.4f}"
    if "paired_r_mean" in r:
        out += (f", against the means {r['paired_r_mean']:.4f}; gain by the means "
                f"{r['gain_mean']:+.4f} +- {r['se_mean']:.4f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="step", required=True)
    sp = sub.add_parser("selfplay", help="self-play positions with the wide features")
    sp.add_argument("--games", type=int, default=1000)
    sp.add_argument("--seed", type=int, default=31)
    sp.add_argument("--players", type=int, default=2)
    sp.add_argument("--rate", type=float, default=0.35)
    sp.add_argument("--workers", type=int, default=1)
    sp.add_argument("--out", required=True)
    cu = sub.add_parser("cutoffs", help="race cut-offs with the wide features")
    cu.add_argument("race", help="a file of bench_race_eval.py --save")
    cu.add_argument("--setup", default="",
                    help="SEED,GAMES,PER,SAMPLES,DEPTH,PLAYERS for a file without its setup")
    cu.add_argument("--out", required=True)
    tr = sub.add_parser("train", help="train, fine-tune and judge")
    tr.add_argument("selfplay")
    tr.add_argument("--race", nargs="+", required=True, help="cut-offs with wide features")
    tr.add_argument("--test", nargs="*", default=[], help="more such files, judged only")
    tr.add_argument("--inputs", choices=tuple(INPUTS), default="species",
                    help="usual: the usual features; species: and the first four species "
                         "blocks (the shipped 2-player network); unseen: and all five")
    tr.add_argument("--epochs", type=int, default=20)
    tr.add_argument("--paired-epochs", type=int, default=2)
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--out", default="")
    a = ap.parse_args()
    out = getattr(a, "out", "")
    if out and not Path(out).resolve().parent.is_dir():
        ap.error(f"--out: the folder of {out!r} does not exist")
    start = time.monotonic()
    if a.step == "selfplay":
        if a.games < 1 or not 2 <= a.players <= 5 or not 0 < a.rate <= 1 or a.workers < 1:
            ap.error("--games at least 1, --players 2 to 5, --rate in (0, 1], --workers at "
                     "least 1")
        rows = selfplay(a.games, a.seed, a.players, a.rate, a.workers)
        np.savez_compressed(a.out, **rows)  # type: ignore[arg-type]
        print(f"{len(rows['win'])} positions, {time.monotonic() - start:.0f} s")
        return
    if a.step == "cutoffs":
        try:
            d = race.load_cut_offs([a.race])
            if a.setup:
                setup = [int(v) for v in a.setup.split(",")]
            else:
                with np.load(a.race) as f:
                    if "setup" not in f.files:
                        ap.error(f"{a.race} holds no setup: give --setup")
                    setup = [int(v) for v in f["setup"]]
        except ValueError as exc:
            ap.error(str(exc).splitlines()[0])
        if len(setup) != 6:
            ap.error("--setup: SEED,GAMES,PER,SAMPLES,DEPTH,PLAYERS")
        seed, games, per, samples, depth, players = setup
        wide = race.race_rows(games, per, samples, seed, players, "base", depth,
                              outcomes=False, featurize=wide_features)
        same = (len(wide["decision"]) == len(d["decision"])
                and all(np.array_equal(wide[k], d[k]) for k in ("decision", "sample", "cand"))
                and np.allclose(wide["x"][:, :NUM_FEATURES], d["x"][:, :NUM_FEATURES]))
        if not same:
            ap.error(f"{a.race}: the setup does not make these rows (another seed, or "
                     "another version of the engine)")
        np.savez_compressed(a.out, **{**d, "x": wide["x"]})  # type: ignore[arg-type]
        print(f"{len(d['win'])} cut-offs, {time.monotonic() - start:.0f} s")
        return
    try:
        import torch  # noqa: F401
    except ImportError:
        ap.error("needs PyTorch: pip install 'forest-shuffle[learn]'")
    from forest_shuffle.bots.train import TrainResult, train

    try:
        with np.load(a.selfplay) as f:
            s = {k: f[k] for k in ("x", "margin", "win", "game")}
        d = race.load_cut_offs(a.race)
        race.mean_target(d)
        tests = [(p, race.load_cut_offs([p])) for p in a.test]
    except (OSError, KeyError, ValueError) as exc:
        ap.error(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if any(np.isnan(t["win"]).any() for t in [d, *(t for _, t in tests)]):
        ap.error("cut-offs without outcomes: make them with 'cutoffs' from a saved race")
    count = players_of(s["x"])
    if count is None or any(players_of(t["x"]) != count for t in [d, *(t for _, t in tests)]):
        ap.error("the self-play rows and the cut-offs must all be of one player count")
    blocks = INPUTS[a.inputs]
    k = len(wide_feature_names(game_by_id("base"), blocks)) if blocks else NUM_FEATURES
    if s["x"].shape[1] < k:
        ap.error(f"{a.selfplay} lacks the {a.inputs} inputs: make it with 'selfplay'")
    if d["x"].shape[1] < k or any(t["x"].shape[1] < k for _, t in tests):
        ap.error("the cut-offs lack the species inputs: make them with 'cutoffs'")
    data = Dataset(s["x"][:, :k], s["margin"], s["win"],
                   np.full(len(s["win"]), count, dtype=np.int8), s["game"])
    res = train(data, seed=a.seed, epochs=a.epochs)
    game = "base" if k > NUM_FEATURES else ""

    def as_net(r: TrainResult) -> ValueNet:
        return ValueNet(r.mean, r.std, r.layers, "", r.skip, game)

    net = as_net(res)
    cut = int(round(0.75 * (int(d["decision"].max()) + 1)))
    first = d["decision"] < cut
    held = {key: v[~first] for key, v in d.items()}
    judged = [("held-out quarter", held), *tests]
    shipped = [("the network of the usual features", usual_net(count))]
    own = shipped_net("", count)
    if own is not shipped[0][1] and d["x"].shape[1] >= own.inputs:
        shipped.append((f"the shipped {count}-player network", own))
    for name, t in judged:
        for which, net0 in shipped:
            print(f"{name}: {which} {_figures(t, race.net_reward(net0, t))}")
    print(f"trained on {len(s['win'])} positions ({k} inputs, {time.monotonic() - start:.0f} "
          f"s): margin R2 {res.figures['margin_r2']:.3f}, winner right "
          f"{res.figures['win_accuracy']:.3f}")
    for name, t in judged:
        print(f"  {name}: {_figures(t, race.net_reward(net, t))}")

    def report(epoch: int, r: TrainResult) -> None:
        tuned = as_net(r)
        print(f"paired epoch {epoch}:")
        for name, t in judged:
            print(f"  {name}: {_figures(t, race.net_reward(tuned, t))}", flush=True)

    done = paired.fine_tune(d, net, first, a.paired_epochs, 1e-3, 0.1, a.seed, report, "mean")
    if a.out:
        done.save(a.out, game)


if __name__ == "__main__":
    main()
