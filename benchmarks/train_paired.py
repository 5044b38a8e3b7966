"""Fine-tune a value network for the race: a paired loss on the race's own cut-offs.

Reads cut-offs saved by ``bench_race_eval.py --save`` (every candidate of a decision on
shared determinizations, each played on to the end). Starting from a network (``--init``,
default the shipped one of the usual features, ``value.usual_net``), it fits the win head
so that, within each determinization, the
differences of its win probabilities among the candidates match the differences of their
outcomes (squared error of the centred values; a rollout that ended the game keeps its
final reward, as in the race), plus ``--anchor`` times the usual loss (cross-entropy of
the win head, squared error of the margin head, on the outcomes) so that the network's
scale stays that of a win probability. ``--target mean`` matches the differences of each
cut-off's mean outcome over its own game on and the games on from resampled states that
``bench_race_eval.py --again K`` saved (a target with less noise than one game). The
last ``--holdout`` share of the decisions (whole games: decisions are recorded game by
game) is held out, and its paired r
(``bench_race_eval.judge``) is printed before training and after every epoch. Needs
PyTorch (the ``learn`` extra); one thread, ``--seed``: the same data, the same weights.

    python benchmarks/bench_race_eval.py --games 300 --seed 5000 --save race.npz
    python benchmarks/train_paired.py race.npz --epochs 10 --out paired.npz
    python benchmarks/bench_race_eval.py --games 60 --seed 6000 --net paired.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_race_eval as race  # noqa: E402

from forest_shuffle.bots.train import TrainResult, export_layers, export_skip  # noqa: E402
from forest_shuffle.bots.value import ValueNet, load_net, usual_net  # noqa: E402


def fine_tune(d: dict[str, np.ndarray], start: ValueNet, train: np.ndarray, epochs: int,
              lr: float, anchor: float, seed: int,
              after_epoch: Any = None, target: str = "win") -> TrainResult:
    """The network ``start`` fine-tuned on the rows ``train`` (a mask) of the cut-offs
    ``d`` (see the module text); ``after_epoch(epoch, net)`` after each pass. ``target``
    ``"win"`` (the one game on) or ``"mean"`` (``bench_race_eval.mean_target``; ValueError
    when the cut-offs have no games on from resampled states)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    k = start.inputs
    dims = [w.shape for w, _ in start.layers]
    mods: list[nn.Module] = []
    for i, (n_in, n_out) in enumerate(dims):
        mods.append(nn.Linear(n_in, n_out))
        if i < len(dims) - 1:
            mods.append(nn.ReLU())
    mlp = nn.Sequential(*mods)
    lin = nn.Linear(k, 2, bias=False)
    with torch.no_grad():
        for m, (w, b) in zip([m for m in mlp if isinstance(m, nn.Linear)], start.layers,
                             strict=True):
            m.weight.copy_(torch.tensor(w.T))
            m.bias.copy_(torch.tensor(b))
        lin.weight.copy_(torch.tensor(start.skip.T if start.skip is not None
                                      else np.zeros((k, 2)).T))
    std = 1.0 / start.inv_std
    z = torch.tensor((d["x"][:, :k] - start.mean) / std, dtype=torch.float32)
    if target not in ("win", "mean"):
        raise ValueError(f"target must be 'win' or 'mean', not {target!r}")
    goal = race.mean_target(d) if target == "mean" else d["win"]
    win = torch.tensor(goal, dtype=torch.float32)
    margin = torch.tensor(d["margin"] / 100.0, dtype=torch.float32)
    fin = torch.tensor(d["fin"], dtype=torch.float32)
    group = race.groups(d)
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(int(group.max()) + 2))
    groups = np.unique(group[train])
    params = list(mlp.parameters()) + list(lin.parameters())
    opt = torch.optim.Adam(params, lr=lr, weight_decay=1e-3)
    bce = nn.BCEWithLogitsLoss()
    rng = np.random.default_rng(seed)

    def result() -> TrainResult:
        return TrainResult(start.mean.copy(), std, export_layers(mlp), {},
                           {"paired": True, "epochs": epochs, "lr": lr, "anchor": anchor,
                            "seed": seed}, export_skip(lin))

    for epoch in range(epochs):
        perm = rng.permutation(groups)
        for s in range(0, len(perm), 64):
            batch = perm[s:s + 64]
            rows = np.concatenate([order[bounds[g]:bounds[g + 1]] for g in batch])
            local = torch.tensor(np.repeat(np.arange(len(batch)),
                                           bounds[batch + 1] - bounds[batch]))
            r = torch.tensor(rows)
            out = mlp(z[r]) + lin(z[r])
            done = fin[r] >= 0
            p = torch.where(done, fin[r], torch.sigmoid(out[:, 1]))
            y = win[r]
            count = torch.zeros(len(batch)).index_add_(0, local, torch.ones(len(rows)))
            pm = torch.zeros(len(batch)).index_add_(0, local, p) / count
            ym = torch.zeros(len(batch)).index_add_(0, local, y) / count
            paired = (((p - pm[local]) - (y - ym[local])) ** 2).mean()
            live = ~done
            usual = bce(out[live, 1], y[live]) + ((out[live, 0] - margin[r][live]) ** 2).mean()
            loss = 10.0 * paired + anchor * usual
            opt.zero_grad()
            loss.backward()
            opt.step()
        if after_epoch is not None:
            after_epoch(epoch + 1, result())
    return result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", help="cut-offs saved by bench_race_eval.py")
    ap.add_argument("--init", default="",
                    help="the network to start from (default: the shipped one of the usual "
                         "features)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--anchor", type=float, default=0.1)
    ap.add_argument("--holdout", type=float, default=0.25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", choices=("win", "mean"), default="win",
                    help="fit the one game on (win) or the mean of the games on (mean)")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    if a.epochs < 1 or not 0 < a.holdout < 1 or a.lr <= 0 or a.anchor < 0:
        ap.error("--epochs at least 1, --holdout between 0 and 1, --lr above 0, --anchor "
                 "not negative")
    if a.out and not Path(a.out).resolve().parent.is_dir():
        ap.error(f"--out: the folder of {a.out!r} does not exist")
    try:
        import torch  # noqa: F401
    except ImportError:
        ap.error("needs PyTorch: pip install 'forest-shuffle[learn]'")
    try:
        start = load_net(a.init) if a.init else usual_net(2)
        d = race.load_cut_offs(a.data)
        if a.target == "mean":
            race.mean_target(d)
    except ValueError as exc:
        ap.error(str(exc))
    cut = int(round((1.0 - a.holdout) * (int(d["decision"].max()) + 1)))
    train = d["decision"] < cut
    held = {k: v[~train] for k, v in d.items()}
    print(f"{int(train.sum())} cut-offs to train on, {int((~train).sum())} held out")

    def figures(net: ValueNet) -> str:
        r = race.judge(held, race.net_reward(net, held))
        mean = (f" (against the mean of the games on: {r['paired_r_mean']:.4f}; gain "
                f"judged by the means {r['gain_mean']:+.4f} +- {r['se_mean']:.4f})"
                if "paired_r_mean" in r else "")
        return f"held-out paired r {r['paired_r']:.4f}{mean}"

    print(f"before: {figures(start)}")

    def report(epoch: int, res: TrainResult) -> None:
        net = ValueNet(res.mean, res.std, res.layers, "", res.skip, start.species_game)
        print(f"epoch {epoch}: {figures(net)}", flush=True)

    res = fine_tune(d, start, train, a.epochs, a.lr, a.anchor, a.seed, report, a.target)
    if a.out:
        res.save(a.out, start.species_game)


if __name__ == "__main__":
    main()
