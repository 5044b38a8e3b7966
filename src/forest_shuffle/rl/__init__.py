"""Research interfaces (the ``rl`` extra: ``pip install ".[rl]"``, docs/research.md).

Modules: ``actions`` (one integer id per action, for every game), ``observation`` (arrays
from one player's view), ``memory`` (where the cards a player saw went), ``resample``
(states a player cannot tell apart, for any seat), ``pettingzoo_env`` (a PettingZoo AEC
environment), ``openspiel_game`` (importing it registers ``python_forest_shuffle`` with
pyspiel). Only ``actions`` is imported here; it needs nothing beyond the engine.

Face: :data:`NUM_ACTIONS`, :func:`action_to_id`, :func:`id_to_action`.
"""

from forest_shuffle.rl.actions import NUM_ACTIONS, action_to_id, id_to_action

__all__ = ["NUM_ACTIONS", "action_to_id", "id_to_action"]
