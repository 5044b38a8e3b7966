"""Training a policy with sb3-contrib's MaskablePPO (the ``rl-train`` extra: PyTorch).

Contract: :func:`train_maskable_ppo` trains MaskablePPO over the Gymnasium environment
(:class:`~forest_shuffle.rl.gym_env.ForestShuffleEnv`: one learner against fixed bots, the
compact encodings, ``action_masks()``), one environment per seat so the learner plays
every seat, and returns the trained actor as a :class:`~forest_shuffle.rl.policy.Policy`:
the actor is built as the policy file's network (one hidden layer of ``hidden`` ReLU units
from the compact observation to one logit per compact id; the critic is a second network
of the same shape), so its weights are the file's ``w0, b0, w1, b1`` and the file plays as
``policy:FILE`` without PyTorch. ``start`` (a one-hidden-layer policy of the same game and
width) gives the actor's first weights. The reward is the final margin (own total minus
the best other), normalised by a running scale (``VecNormalize``). Reproducible from
``seed`` on one thread. ``progress(steps)`` is told the learner steps done as they pass.

PyTorch and sb3-contrib are imported only when called: :class:`PPOUnavailable` (one line)
says what is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from forest_shuffle.engine.game import canonical_id
from forest_shuffle.rl.gym_env import ForestShuffleEnv
from forest_shuffle.rl.policy import Policy


class PPOUnavailable(RuntimeError):
    """PyTorch or sb3-contrib is not installed (the message names what to install)."""


def _libraries() -> tuple[Any, Any, Any]:
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize
    except ImportError as exc:
        raise PPOUnavailable(f"MaskablePPO needs the rl-train extra ({exc.name} is missing): "
                             "pip install 'forest-shuffle[rl-train]'") from None
    return torch, MaskablePPO, (DummyVecEnv, VecNormalize)


def train_maskable_ppo(game: str = "base", players: int = 2, opponents: str = "random",
                       steps: int = 20_000, hidden: int = 64, lr: float = 3e-4,
                       seed: int = 0, start: Policy | None = None, n_steps: int = 512,
                       batch: int = 128, epochs: int = 4,
                       progress: Callable[[int], None] | None = None) -> Policy:
    """Train with MaskablePPO for ``steps`` learner steps (module contract)."""
    torch, maskable_ppo, (dummy_vec_env, vec_normalize) = _libraries()

    gid = canonical_id(game)
    if start is not None:
        if start.game != gid or len(start.layers) != 2:
            raise ValueError("training continues a one-hidden-layer policy of the same game")
        hidden = start.layers[0][0].shape[1]
    torch.set_num_threads(1)
    torch.manual_seed(seed)

    def make(seat: int) -> Callable[[], ForestShuffleEnv]:
        return lambda: ForestShuffleEnv(gid, players, opponents, seat=seat, reward="margin")

    venv = vec_normalize(dummy_vec_env([make(s) for s in range(players)]), norm_obs=False,
                         norm_reward=True)
    model = maskable_ppo(
        "MlpPolicy", venv, learning_rate=lr, n_steps=n_steps, batch_size=batch,
        n_epochs=epochs, seed=seed, verbose=0, device="cpu",
        policy_kwargs={"net_arch": {"pi": [hidden], "vf": [hidden]},
                       "activation_fn": torch.nn.ReLU})
    actor, head = model.policy.mlp_extractor.policy_net[0], model.policy.action_net
    if start is not None:
        (w0, b0), (w1, b1) = start.layers
        with torch.no_grad():
            actor.weight.copy_(torch.from_numpy(np.ascontiguousarray(w0.T)))
            actor.bias.copy_(torch.from_numpy(b0))
            head.weight.copy_(torch.from_numpy(np.ascontiguousarray(w1.T)))
            head.bias.copy_(torch.from_numpy(b1))

    def told(local: dict[str, Any], _globals: dict[str, Any]) -> bool:
        """sb3's callback as a function (called every step with the learner's locals)."""
        if progress is not None:
            progress(min(int(local["self"].num_timesteps), steps))
        return True

    model.learn(total_timesteps=steps, callback=told)

    def array(t: Any) -> Any:
        return t.detach().cpu().numpy().astype(np.float32)

    return Policy(gid, [(array(actor.weight).T.copy(), array(actor.bias)),
                        (array(head.weight).T.copy(), array(head.bias))])
