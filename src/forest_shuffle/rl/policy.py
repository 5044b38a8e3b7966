"""A trained policy as a bot: a small MLP over the compact observation, evaluated with numpy.

Contract: a policy file is a numpy ``.npz`` with ``game`` (the game id it was trained
for), ``w0, b0, w1, b1, ..., wK, bK`` (layer ``k`` maps its input to ``w_k.shape[1]``
values; ReLU between layers, none after the last) and optionally ``version``. The first
layer reads the compact observation of that game (:mod:`forest_shuffle.rl.compact_obs`,
``layout(game).size`` inputs), the last gives one logit per compact id
(:data:`~forest_shuffle.rl.compact.NUM_COMPACT`). :meth:`Policy.load` checks all of this
and raises :class:`PolicyFileError` with a one-line message; :meth:`Policy.save` writes
such a file; :meth:`Policy.act` picks the legal id with the largest logit (or samples
from their softmax).

:class:`PolicyBot` (registered as ``policy``: ``policy:FILE`` or ``policy:file=FILE``,
with ``sample=1`` to sample; a FILE that is no file but the NAME of a shipped policy,
``rl/data/policy-NAME.npz``, reads that: ``policy:base-2p``) plays it from a seat's view:
the first step's id from the mask of the legal first steps, and for a half play the host
from the observation showing the chosen half. Neither needs PyTorch. A policy plays only
the game it was trained for (another game: :class:`PolicyFileError` at its first
decision).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forest_shuffle.bots.base import Bot, Budget
from forest_shuffle.bots.registry import BOTS
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.game import UnknownGameError, canonical_id, game_by_id
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.rl.compact import NUM_COMPACT, CompactDecision, half_of
from forest_shuffle.rl.compact_obs import encode_view, layout

#: The largest policy file read (bytes).
MAX_POLICY_BYTES = 256 * 1024 * 1024

F32 = npt.NDArray[np.float32]


class PolicyFileError(ValueError):
    """A policy file that cannot be read or does not fit; the message says why."""


class Policy:
    """An MLP from a game's compact observation to one logit per compact id."""

    def __init__(self, game: str, weights: list[tuple[F32, F32]]) -> None:
        self.game = game
        self.layers = weights
        self.size = layout(game_by_id(game)).size
        prev = self.size
        for k, (w, b) in enumerate(weights):
            if w.ndim != 2 or w.shape[0] != prev or b.shape != (w.shape[1],):
                raise PolicyFileError(f"layer {k} has shape {w.shape} with bias {b.shape}; "
                                      f"it must read {prev} values")
            prev = w.shape[1]
        if prev != NUM_COMPACT:
            raise PolicyFileError(f"the last layer gives {prev} values, not one per "
                                  f"compact id ({NUM_COMPACT})")

    @staticmethod
    def random(game: str, hidden: tuple[int, ...] = (64,), seed: int = 0) -> Policy:
        """Untrained weights (He initialisation): a start for training, and for tests."""
        gid = canonical_id(game)
        rng = np.random.default_rng(seed)
        sizes = [layout(game_by_id(gid)).size, *hidden, NUM_COMPACT]
        weights = [((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32),
                    np.zeros(b, np.float32)) for a, b in zip(sizes, sizes[1:], strict=False)]
        return Policy(gid, weights)

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Policy:
        """Read a policy file (module contract); PolicyFileError if it cannot be used."""
        p = Path(path)
        try:
            if p.stat().st_size > MAX_POLICY_BYTES:
                raise PolicyFileError(f"policy file {p} is larger than {MAX_POLICY_BYTES} "
                                      "bytes")
            with np.load(p, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except PolicyFileError:
            raise
        except (OSError, ValueError, EOFError) as exc:
            raise PolicyFileError(f"cannot read policy file {p}: "
                                  f"{str(exc).splitlines()[0] if str(exc) else exc}") from None
        if "game" not in arrays or arrays["game"].shape != ():
            raise PolicyFileError(f"policy file {p} names no game")
        try:
            gid = canonical_id(str(arrays["game"]))
            game_by_id(gid)
        except UnknownGameError as exc:
            raise PolicyFileError(f"policy file {p}: {exc}") from None
        weights = []
        k = 0
        while f"w{k}" in arrays:
            w, b = arrays[f"w{k}"], arrays.get(f"b{k}")
            if b is None or w.dtype.kind != "f" or b.dtype.kind != "f":
                raise PolicyFileError(f"policy file {p}: layer {k} needs float w{k} and b{k}")
            weights.append((w.astype(np.float32), b.astype(np.float32)))
            k += 1
        if not weights:
            raise PolicyFileError(f"policy file {p} has no layers (w0, b0, ...)")
        try:
            return Policy(gid, weights)
        except PolicyFileError as exc:
            raise PolicyFileError(f"policy file {p}: {exc}") from None

    def save(self, path: str | os.PathLike[str], half: bool = False) -> None:
        """Write the policy as a file :meth:`load` reads (``half``: weights as float16,
        half the size; read back as float32)."""
        arrays: dict[str, npt.NDArray[np.generic]] = {"game": np.array(self.game),
                                                       "version": np.array(1)}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"] = w.astype(np.float16) if half else w
            arrays[f"b{k}"] = b.astype(np.float16) if half else b
        with open(path, "wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]

    def logits(self, obs: F32) -> F32:
        """One logit per compact id for an observation (or a batch of them, rows)."""
        x = obs
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                x = np.maximum(x, 0.0)
        return x

    def act(self, obs: F32, mask: npt.NDArray[np.int8],
            rng: np.random.Generator | None = None) -> int:
        """The legal id (``mask`` 1) with the largest logit, or with ``rng`` one drawn from
        the softmax of the legal ids' logits. ValueError for an empty mask."""
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal id in the mask")
        z = self.logits(obs)[legal]
        if rng is None:
            return int(legal[int(np.argmax(z))])
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(legal[int(rng.choice(legal.size, p=p))])


_LOADED: dict[tuple[str, float, int], Policy] = {}
#: Where the shipped policies are (``policy-NAME.npz``).
SHIPPED = Path(__file__).resolve().parent / "data"


def shipped_names() -> list[str]:
    """The names of the shipped policies (``policy:NAME``)."""
    return sorted(p.stem.removeprefix("policy-") for p in SHIPPED.glob("policy-*.npz"))


def load_cached(path: str) -> Policy:
    """:meth:`Policy.load`, kept per file (path, modification time, size) in the process; a
    ``path`` that is no file but a shipped policy's name reads that one."""
    if not os.path.exists(path) and (SHIPPED / f"policy-{path}.npz").is_file():
        path = str(SHIPPED / f"policy-{path}.npz")
    try:
        st = os.stat(path)
    except OSError as exc:
        raise PolicyFileError(f"cannot read policy file {path}: {exc.strerror}") from None
    key = (os.path.abspath(path), st.st_mtime, st.st_size)
    pol = _LOADED.get(key)
    if pol is None:
        pol = _LOADED[key] = Policy.load(path)
    return pol


class PolicyBot(Bot):
    """A trained policy (module contract): ``policy:FILE`` or ``policy:file=FILE,sample=1``."""

    name = "policy"
    #: The option a bare value in a specification sets (``policy:FILE``).
    primary = "file"

    def __init__(self, seed: int = 0, file: str = "", sample: int = 0) -> None:
        super().__init__(seed)
        if not file:
            raise ValueError("policy needs a file: policy:FILE")
        self.file = str(file)
        self.sample = int(sample)
        self.policy = load_cached(self.file)
        self._rng = np.random.default_rng(seed) if self.sample else None

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        if not view.legal_actions:
            raise ValueError(f"player {view.player + 1} has no decision to make")
        pol = self.policy
        if view.game.id != pol.game:
            raise PolicyFileError(f"policy {self.file} was trained for {pol.game}, "
                                  f"not {view.game.id}")
        d = CompactDecision(view.legal_actions)
        i = pol.act(encode_view(view), d.mask(), self._rng)
        action = d.choose(i)
        if action is None:  # a half: now its host, seeing the chosen half
            j = pol.act(encode_view(view, chosen=half_of(i)), d.mask(), self._rng)
            action = d.choose(j)
        assert action is not None
        return action

    def describe(self) -> str:
        return f"policy:file={self.file}" + (",sample=1" if self.sample else "")


BOTS["policy"] = PolicyBot
