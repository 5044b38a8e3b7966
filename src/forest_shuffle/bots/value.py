"""The learned value network, evaluated with numpy (no training library needed).

Contract: :class:`ValueNet` is a small multilayer perceptron read from an ``.npz`` file
(:func:`load_net`; the shipped one is ``bots/data/value.npz``, :data:`DEFAULT_WEIGHTS`, and
``value-{n}p.npz`` where the package has a network for ``n`` players alone):
arrays ``mean`` and ``std`` (the feature scaling), ``w0``, ``b0``, ``w1``, ``b1``, ... (ReLU
between layers, none after the last), optionally ``skip`` (a linear map of the scaled
features added to the outputs, so the network learns corrections to a linear judgement)
and ``names`` (the feature names it was trained on, which must be
:data:`~forest_shuffle.bots.features.FEATURE_NAMES` or its beginning: a network trained
before features were appended reads the first ones; or all of them followed by the
species inputs of one game (the first blocks of
:func:`~forest_shuffle.bots.features.species_feature_names`: all are
:func:`~forest_shuffle.bots.features.wide_feature_names`), with that game's id as
``game``: a network that sees the cards, which judges that game only, the shipped weights
judging any other). Its two outputs for a
player's features (:mod:`forest_shuffle.bots.features`) are the predicted final score
margin to the best rival, in points / 100 (:data:`MARGIN`), and the logit of winning
(:data:`WIN`). :func:`learned_reward` turns a position into the search's reward in [0, 1]
for one seat from that seat's features only. A file that does not fit raises
:class:`ValueError` with a one-line message.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from forest_shuffle.bots.features import (
    FEATURE_NAMES,
    NUM_FEATURES,
    logistic,
    species_blocks,
    state_features,
    wide_feature_names,
    wide_features,
)
from forest_shuffle.engine.game import game_by_id
from forest_shuffle.engine.state import GameState

#: Output index of the predicted final margin (points / 100).
MARGIN = 0
#: Output index of the win logit.
WIN = 1

Array = NDArray[np.float64]


def _data_path(name: str) -> Path:
    return Path(str(resources.files("forest_shuffle.bots") / "data" / name))


#: The weights that ship with the package, for every player count.
DEFAULT_WEIGHTS = _data_path("value.npz")


def count_weights(players: int) -> Path:
    """Where the shipped weights for ``players`` players alone would be
    (``value-{players}p.npz``); when that file exists it takes the place of
    :data:`DEFAULT_WEIGHTS` at that player count."""
    return _data_path(f"value-{players}p.npz")


class ValueNet:
    """A multilayer perceptron over scaled features (see the module contract)."""

    def __init__(self, mean: Array, std: Array, layers: list[tuple[Array, Array]],
                 meta: str = "", skip: Array | None = None, species_game: str = "") -> None:
        k = mean.shape[0] if mean.ndim == 1 else 0
        #: The game whose species inputs follow the usual features ("" for none).
        self.species_game = species_game
        #: How many blocks of species inputs it reads (0 for none).
        self.species_blocks = 0
        top = NUM_FEATURES
        if species_game:
            try:
                self.species_blocks = species_blocks(game_by_id(species_game), k)
            except ValueError as exc:
                raise ValueError(f"value network: {exc}") from None
            top = k
        if not 1 <= k <= top or std.shape != (k,):
            raise ValueError(f"value network: feature scaling must have 1 to {NUM_FEATURES} "
                             "entries")
        if not layers or layers[0][0].shape[0] != k or layers[-1][0].shape[1] != 2:
            raise ValueError("value network: layer shapes do not fit the features")
        if skip is not None and skip.shape != (k, 2):
            raise ValueError("value network: skip shape does not fit the features")
        for (w, b), (w2, _) in zip(layers, layers[1:], strict=False):
            if b.shape != (w.shape[1],) or w2.shape[0] != w.shape[1]:
                raise ValueError("value network: layer shapes do not chain")
        #: How many of the features (the first ones) the network reads.
        self.inputs = k
        self.mean = mean
        self.inv_std = 1.0 / np.where(std > 1e-9, std, 1.0)
        self.layers = layers
        self.meta = meta
        self.skip = skip

    def forward(self, x: Array) -> Array:
        """The outputs for a batch of feature rows (shape ``(n, NUM_FEATURES)``) or one row."""
        z = (np.asarray(x, dtype=np.float64)[..., :self.inputs] - self.mean) * self.inv_std
        h = z
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if k < last:
                h = np.maximum(h, 0.0)
        if self.skip is not None:
            h = h + z @ self.skip
        return h

    def predict(self, feats: list[float]) -> tuple[float, float]:
        """(margin in points, win probability) for one feature vector."""
        out = self.forward(np.array(feats))
        z = float(out[WIN])
        return 100.0 * float(out[MARGIN]), logistic(z)


def load_net(path: Path | str) -> ValueNet:
    """Read a network written by training (``forest-shuffle learn train``)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            names = tuple(str(x) for x in data["names"])
            game = str(data["game"]) if "game" in data else ""
            want = FEATURE_NAMES[:len(names)]
            if game:
                try:
                    g = game_by_id(game)
                    want = wide_feature_names(g, species_blocks(g, len(names)))
                except ValueError:
                    want = ()
            if not names or names != want:
                raise ValueError(f"value network {Path(path).name}: trained on other "
                                 "features")
            layers = []
            k = 0
            while f"w{k}" in data:
                layers.append((data[f"w{k}"].astype(np.float64),
                               data[f"b{k}"].astype(np.float64)))
                k += 1
            meta = str(data["meta"]) if "meta" in data else ""
            skip = data["skip"].astype(np.float64) if "skip" in data else None
            if data["mean"].shape != (len(names),):
                raise ValueError(f"value network {Path(path).name}: feature scaling does "
                                 "not fit its names")
            return ValueNet(data["mean"].astype(np.float64), data["std"].astype(np.float64),
                            layers, meta, skip, game)
    except (OSError, KeyError, ValueError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if msg.startswith("value network"):
            raise ValueError(msg) from None
        raise ValueError(f"value network {Path(path).name}: cannot be read ({msg})") from None


@lru_cache(maxsize=8)
def shipped_net(path: str = "", players: int = 0) -> ValueNet:
    """The network at ``path``, read once per process; when ``path`` is empty, the shipped
    weights: those for ``players`` players alone if the package has them
    (:func:`count_weights`), else the ones for every count."""
    if path:
        return load_net(path)
    own = count_weights(players) if players else None
    return load_net(own if own is not None and own.is_file() else DEFAULT_WEIGHTS)


@lru_cache(maxsize=16)
def judge_net(path: str = "", players: int = 0, game: str = "") -> ValueNet:
    """The network that judges a state of the game ``game`` (its id; "" for rows of the
    usual features alone) at ``players`` players: :func:`shipped_net` of ``path`` and
    ``players``, unless that one sees the species of another game, and then the shipped
    weights for every count and game (which read the usual features)."""
    net = shipped_net(path, players)
    if net.species_game and net.species_game != game:
        return shipped_net(str(DEFAULT_WEIGHTS))
    return net


def usual_net(players: int = 0) -> ValueNet:
    """The shipped weights that read the usual features alone at ``players`` players: the
    count's own (:func:`shipped_net`) unless that one sees the species, else the weights
    for every count (what judges feature rows without the species inputs)."""
    return judge_net("", players, "")


def learned_reward(state: GameState, me: int, scale: float, head: int = WIN,
                   path: str = "") -> float:
    """The search's reward in [0, 1] for seat ``me`` of an unfinished state: the predicted
    win probability (``head`` :data:`WIN`) or the logistic of the predicted final margin
    over ``scale`` points (:data:`MARGIN`), from ``me``'s features only (and its species
    inputs for a network that sees them; :func:`judge_net` chooses the network)."""
    net = judge_net(path, state.num_players, state.game.id)
    feats = (wide_features(state, me, net.species_blocks) if net.species_blocks
             else state_features(state, me, net.inputs))
    margin, win = net.predict(feats)
    if head == WIN:
        return win
    return logistic(margin / scale)
