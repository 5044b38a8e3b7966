"""The learned player: the search bot with the learned evaluation at its cut-offs.

Contract: :class:`LearnedBot` (registry name ``learned``, difficulty ``expert``) is
:class:`~forest_shuffle.bots.mcts.MCTSBot` with other defaults: the rollouts of the paired
race stop after ``depth`` rounds and are scored by the value network shipped in the package
(``hv=5``: its predicted win probability from the seat's own features, read with numpy;
``hv=6``: the logistic of its predicted margin), see :mod:`forest_shuffle.bots.value`. Every
option of the search bot is an option here too (``learned:time=0.3``, ``hv=2`` gives the
hand-fitted evaluation back; ``net=PATH`` plays a network file of one's own training
instead of the shipped weights). It chooses from its view only, always one of the legal
actions, within the search bot's time budget.
"""

from __future__ import annotations

from forest_shuffle.bots.mcts import SCALE, MCTSBot


class LearnedBot(MCTSBot):
    """The search with the learned evaluation (see the module contract)."""

    name = "learned"

    def __init__(self, seed: int = 0, time: float = 1.0, iterations: int = 0,
                 workers: int = 1, c: float = 0.7, depth: int = 2, width: int = 6,
                 share: float = 0.9, reuse: int = 1, hv: int = 5, race: int = 1,
                 z: float = 2.0, end: int = 0, scale: float = SCALE,
                 diverse: int = 1, exact: int = 0, pick: float = 0.0,
                 cover: int = 1, net: str = "") -> None:
        super().__init__(seed, time, iterations, workers, c, depth, width, share, reuse, hv,
                         race, z, end, scale, diverse, exact, pick, cover, 0, net)
