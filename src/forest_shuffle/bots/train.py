"""Training the value network with PyTorch on CPU (extra ``learn``).

Contract: :func:`train` fits a multilayer perceptron (``hidden`` units in each of ``layers``
hidden layers, ReLU) to a :class:`~forest_shuffle.bots.selfplay.Dataset`: output
:data:`~forest_shuffle.bots.value.MARGIN` regresses the final margin / 100 (mean squared
error), output :data:`~forest_shuffle.bots.value.WIN` the win share (binary cross-entropy
on the logit); the loss is their sum. With ``skip`` (the default) a linear map of the
scaled features is added to the outputs (no bias), so the search's own judgement among the
features (``base_margin``, ``base_reward``) passes straight through and the hidden layers
learn corrections to it. The games are split by game index (``holdout`` of
them held out, never a position of one game on both sides). Adam with an L2 penalty
``weight_decay`` (1e-3: the positions of one game are alike, so the data holds far fewer
independent samples than rows, and a weaker penalty overfits), mini-batches, ``epochs``
passes; one thread and ``torch.manual_seed(seed)``, so the same data and seed give the same
weights. Returns a :class:`TrainResult` whose :meth:`TrainResult.save` writes the ``.npz``
that :func:`~forest_shuffle.bots.value.load_net` reads (so the bot needs no torch). Torch is
imported when :func:`train` runs; without it :class:`TrainingUnavailable` (one line).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from forest_shuffle.bots.features import FEATURE_NAMES, species_blocks, wide_feature_names
from forest_shuffle.bots.selfplay import Dataset
from forest_shuffle.engine.game import game_by_id


class TrainingUnavailable(RuntimeError):
    """PyTorch is not installed (``pip install 'forest-shuffle[learn]'``)."""


@dataclass(slots=True)
class TrainResult:
    """Trained weights (numpy), the feature scaling and the held-out figures."""

    mean: NDArray[np.float64]
    std: NDArray[np.float64]
    layers: list[tuple[NDArray[np.float64], NDArray[np.float64]]]
    figures: dict[str, float] = field(default_factory=dict)
    meta: dict[str, object] = field(default_factory=dict)
    skip: NDArray[np.float64] | None = None

    def save(self, path: str, game: str = "") -> None:
        """Write the network as an ``.npz`` (float32 weights, the names, the settings). With
        ``game`` (an id), the network reads all the usual features and then that game's
        species inputs (the first blocks of
        :func:`~forest_shuffle.bots.features.wide_feature_names`), and the file says so;
        ValueError when no number of blocks gives its width."""
        k = self.mean.shape[0]
        names = FEATURE_NAMES[:k]
        if game:
            g = game_by_id(game)
            names = wide_feature_names(g, species_blocks(g, k))
        arrays: dict[str, NDArray[np.generic]] = {
            "mean": self.mean.astype(np.float32), "std": self.std.astype(np.float32),
            "names": np.array(names),
            "meta": np.array(repr({**self.meta, **self.figures})),
        }
        if game:
            arrays["game"] = np.array(game)
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"] = w.astype(np.float32)
            arrays[f"b{k}"] = b.astype(np.float32)
        if self.skip is not None:
            arrays["skip"] = self.skip.astype(np.float32)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def export_layers(net: Any) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """The (weight, bias) of every linear layer of a torch ``nn.Sequential``, weights as
    (inputs x outputs) for ``x @ w + b``."""
    from torch import nn

    return [(m.weight.detach().numpy().T.astype(np.float64).copy(),
             m.bias.detach().numpy().astype(np.float64).copy())
            for m in net if isinstance(m, nn.Linear)]


def split(data: Dataset, holdout: float, seed: int) -> tuple[NDArray[np.bool_],
                                                             NDArray[np.bool_]]:
    """Masks of training and held-out rows, whole games on one side."""
    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    held = set(rng.permutation(games)[: int(round(holdout * len(games)))].tolist())
    test = np.array([g in held for g in data.game.tolist()], dtype=bool)
    return ~test, test


def export_skip(lin: Any) -> NDArray[np.float64]:
    """The weight of a torch ``nn.Linear`` without bias as (inputs x outputs)."""
    w: NDArray[np.float64] = lin.weight.detach().numpy().T.astype(np.float64).copy()
    return w


def train(data: Dataset, seed: int = 0, epochs: int = 30, hidden: int = 64,
          layers: int = 2, lr: float = 2e-3, batch: int = 256, holdout: float = 0.15,
          progress: Callable[[int], None] | None = None, skip: bool = True,
          weight_decay: float = 1e-3) -> TrainResult:
    """Fit the network (see the module contract); ``progress(epoch)`` after each epoch."""
    try:
        import torch
        from torch import nn
    except ImportError:
        raise TrainingUnavailable("training needs PyTorch: pip install "
                                  "'forest-shuffle[learn]'") from None
    if len(data) < 10:
        raise ValueError(f"too little data to train on ({len(data)} positions)")
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    tr, te = split(data, holdout, seed)
    if not te.any():
        te = tr
    x = data.x.astype(np.float64)
    mean = x[tr].mean(axis=0)
    std = x[tr].std(axis=0)
    std = np.where(std > 1e-9, std, 1.0)
    xs = torch.tensor((x - mean) / std, dtype=torch.float32)
    ym = torch.tensor(data.margin / 100.0, dtype=torch.float32)
    yw = torch.tensor(data.win, dtype=torch.float32)
    mods: list[nn.Module] = []
    width = x.shape[1]
    for _ in range(layers):
        mods += [nn.Linear(width, hidden), nn.ReLU()]
        width = hidden
    mods.append(nn.Linear(width, 2))
    mlp = nn.Sequential(*mods)
    lin = nn.Linear(x.shape[1], 2, bias=False)
    nn.init.zeros_(lin.weight)

    def net(v: Any) -> Any:
        return mlp(v) + lin(v) if skip else mlp(v)

    params = list(mlp.parameters()) + (list(lin.parameters()) if skip else [])
    opt = torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    bce = nn.BCEWithLogitsLoss()
    idx = torch.tensor(np.flatnonzero(tr))
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        mlp.train()
        order = idx[torch.randperm(len(idx), generator=gen)]
        for start in range(0, len(order), batch):
            b = order[start:start + batch]
            out = net(xs[b])
            loss = ((out[:, 0] - ym[b]) ** 2).mean() + bce(out[:, 1], yw[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if progress is not None:
            progress(epoch + 1)
    mlp.eval()
    with torch.no_grad():
        tt = torch.tensor(np.flatnonzero(te))
        out = net(xs[tt])
        mse = float(((out[:, 0] - ym[tt]) ** 2).mean())
        pred_win = out[:, 1] > 0
        won = yw[tt] > 0.5
        acc = float((pred_win == won).float().mean())
    now = data.x[te][:, FEATURE_NAMES.index("margin")] > 0
    base_acc = float((now == (data.win[te] > 0.5)).mean())
    judged = data.x[te][:, FEATURE_NAMES.index("base_margin")] > 0
    judged_acc = float((judged == (data.win[te] > 0.5)).mean())
    ws = export_layers(mlp)
    var = float(np.var(data.margin[te] / 100.0))
    figures = {"positions": float(len(data)), "held_out": float(te.sum()),
               "margin_rmse_points": 100.0 * mse ** 0.5,
               "margin_r2": 1.0 - mse / var if var > 0 else 0.0,
               "win_accuracy": acc, "win_accuracy_of_current_margin": base_acc,
               "win_accuracy_of_search_judgement": judged_acc}
    meta: dict[str, object] = {"seed": seed, "epochs": epochs, "hidden": hidden,
                               "layers": layers, "lr": lr, "batch": batch, "skip": skip,
                               "weight_decay": weight_decay}
    return TrainResult(mean, std, ws, figures, meta, export_skip(lin) if skip else None)
