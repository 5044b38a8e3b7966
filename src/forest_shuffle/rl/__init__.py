"""Research interfaces (the ``rl`` extra: ``pip install ".[rl]"``, docs/research.md).

Modules: ``actions`` (one integer id per action, for every game), ``compact`` (3,800 ids
for training: a half play's host as a second step), ``observation`` (arrays from one
player's view), ``compact_obs`` (a few thousand scaled floats), ``memory`` (where the cards
a player saw went), ``resample`` (states a player cannot tell apart, for any seat),
``pettingzoo_env`` (a PettingZoo AEC environment), ``gym_env`` (a Gymnasium environment
against fixed bots, and a batch of games), ``policy`` (a trained policy as a bot),
``openspiel_game`` (importing it registers ``python_forest_shuffle`` with pyspiel). Only
``actions`` is imported here; it needs nothing beyond the engine. When Gymnasium is
installed, importing this package registers ``forest_shuffle/ForestShuffle-v0`` (its module
is imported only by ``gymnasium.make``).

Face: :data:`NUM_ACTIONS`, :func:`action_to_id`, :func:`id_to_action`.
"""

from forest_shuffle.rl.actions import NUM_ACTIONS, action_to_id, id_to_action

try:
    import gymnasium
except ImportError:  # pragma: no cover - the rl extra is not installed
    pass
else:
    if "forest_shuffle/ForestShuffle-v0" not in gymnasium.registry:
        gymnasium.register(id="forest_shuffle/ForestShuffle-v0",
                           entry_point="forest_shuffle.rl.gym_env:ForestShuffleEnv")

__all__ = ["NUM_ACTIONS", "action_to_id", "id_to_action"]
