"""Training a policy (:mod:`forest_shuffle.rl.policy`) by self-contained policy gradient.

Contract: :func:`train_policy` plays games of the Gymnasium environment
(:class:`~forest_shuffle.rl.gym_env.ForestShuffleEnv`: one learner against fixed bots, the
compact encodings) and improves an MLP policy by REINFORCE with a learned baseline: each
learner step's log-probability of the id taken (softmax over the legal ids) is pushed up by
the game's return minus the value the network's second head predicted for that
observation. The return is the final margin (own total minus the best other) divided by
``scale``, plus 1 for a win. Updates are Adam steps over ``batch`` games, written in numpy
(no PyTorch: this machine has none, and the network is small). Reproducible from ``seed``
(the deals, the opponents' seeds, the sampling and the initial weights). The learner's
seat alternates between games (``seat`` 0 then 1 ...), so it learns to start and to follow.

:func:`evaluate` plays a policy against a bot on a number of deals, seats alternating.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from forest_shuffle.engine.game import canonical_id
from forest_shuffle.rl.compact import NUM_COMPACT
from forest_shuffle.rl.gym_env import ForestShuffleEnv
from forest_shuffle.rl.policy import Policy

F32 = npt.NDArray[np.float32]


@dataclass
class TrainReport:
    """What a training run did: games played, the learner's wins in them (ties share), and
    the mean return of the last batch."""

    games: int
    wins: float
    last_return: float


class _Adam:
    """Adam over a list of arrays (updated in place)."""

    def __init__(self, params: list[F32], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def ascend(self, grads: list[F32]) -> None:
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1 ** self.t)
            vhat = v / (1 - b2 ** self.t)
            p += self.lr * mhat / (np.sqrt(vhat) + eps)


def train_policy(game: str = "base", players: int = 2, opponents: str = "random",
                 games: int = 2000, hidden: int = 64, lr: float = 3e-3, batch: int = 16,
                 scale: float = 20.0, seed: int = 0, start: Policy | None = None,
                 progress: Callable[[int], None] | None = None,
                 checkpoint: Callable[[Policy, int], None] | None = None,
                 every: int = 0) -> tuple[Policy, TrainReport]:
    """Train a policy (module contract); ``progress(done)`` after every batch, and
    ``checkpoint(policy, done)`` each time another ``every`` games are done (the policy
    as it is then: a long run keeps what it learned if it is stopped)."""
    gid = canonical_id(game)
    pol = start if start is not None else Policy.random(gid, (hidden,), seed)
    if pol.game != gid or len(pol.layers) != 2:
        raise ValueError("training continues a one-hidden-layer policy of the same game")
    rng = np.random.default_rng(seed)
    (w0, b0), (w1, b1) = pol.layers
    width = w0.shape[1]
    vw = np.zeros(width, np.float32)  # the baseline head: value = h . vw + vb
    vb = np.zeros(1, np.float32)
    params = [w0, b0, w1, b1]
    opt = _Adam(params, lr)
    vopt = _Adam([vw, vb], lr)
    envs = [ForestShuffleEnv(gid, players, opponents, seat=s, reward="margin")
            for s in range(players)]
    played = 0
    saved = 0  # checkpoints written (played // every)
    wins = 0.0
    last = 0.0
    while played < games:
        xs: list[F32] = []
        masks: list[npt.NDArray[np.int8]] = []
        acts: list[int] = []
        rets: list[float] = []
        for _ in range(min(batch, games - played)):
            env = envs[played % players]
            obs, _ = env.reset(seed=int(rng.integers(2**63)))
            steps = 0
            while True:
                mask = env.action_masks().view(np.int8)
                legal = np.flatnonzero(mask)
                h = np.maximum(obs @ w0 + b0, 0.0)
                z = (h @ w1 + b1)[legal]
                p = np.exp(z - z.max())
                p /= p.sum()
                a = int(legal[int(rng.choice(legal.size, p=p))])
                xs.append(obs)
                masks.append(mask.copy())
                acts.append(a)
                steps += 1
                obs, r, term, _t, _i = env.step(a)
                if term:
                    totals = env.state.scores()
                    me = env.seat
                    best = max(totals)
                    won = (1.0 / totals.count(best)) if totals[me] == best else 0.0
                    wins += won
                    ret = float(r) / scale + won
                    rets.extend([ret] * steps)
                    played += 1
                    break
        x = np.stack(xs)
        m = np.stack(masks).astype(bool)
        a_idx = np.array(acts)
        g_ret = np.array(rets, np.float32)
        h = np.maximum(x @ w0 + b0, 0.0)
        value = h @ vw + vb[0]
        adv = g_ret - value
        adv_n = (adv - adv.mean()) / (adv.std() + 1e-6)
        z = h @ w1 + b1
        z = np.where(m, z, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        pz = np.exp(z)
        pz /= pz.sum(axis=1, keepdims=True)
        g = -pz
        g[np.arange(len(a_idx)), a_idx] += 1.0
        g *= adv_n[:, None] / len(a_idx)
        g = g.astype(np.float32)
        dw1 = h.T @ g
        db1 = g.sum(axis=0)
        dh = (g @ w1.T) * (h > 0)
        # the baseline's squared error, pushed down (ascend its negative)
        dv = (adv / len(a_idx)).astype(np.float32)
        dvw = h.T @ dv
        dvb = np.array([dv.sum()], np.float32)
        dh += np.outer(dv, vw) * (h > 0) * 0.5
        dw0 = x.T @ dh
        db0 = dh.sum(axis=0)
        opt.ascend([dw0.astype(np.float32), db0.astype(np.float32), dw1, db1])
        vopt.ascend([dvw.astype(np.float32), dvb])
        last = float(g_ret.mean())
        if progress is not None:
            progress(played)
        if checkpoint is not None and every > 0 and played // every != saved:
            saved = played // every
            checkpoint(Policy(gid, [(w0, b0), (w1, b1)]), played)
    assert w1.shape[1] == NUM_COMPACT
    return Policy(gid, [(w0, b0), (w1, b1)]), TrainReport(played, wins, last)


def evaluate(pol: Policy, opponent: str, games: int, players: int = 2,
             seed: int = 0) -> tuple[float, float]:
    """The policy's win share (ties share) and mean margin over ``games`` games against
    ``opponent`` in the other seats, seats alternating, greedy choices."""
    wins = 0.0
    margin = 0.0
    envs = [ForestShuffleEnv(pol.game, players, opponent, seat=s) for s in range(players)]
    rng = np.random.default_rng(seed)
    for k in range(games):
        env = envs[k % players]
        obs, _ = env.reset(seed=int(rng.integers(2**63)))
        while True:
            a = pol.act(obs, env.action_masks().view(np.int8))
            obs, _r, term, _t, _i = env.step(a)
            if term:
                break
        totals = env.state.scores()
        me = env.seat
        best = max(totals)
        wins += (1.0 / totals.count(best)) if totals[me] == best else 0.0
        margin += totals[me] - max(t for j, t in enumerate(totals) if j != me)
    return wins / games, margin / games
