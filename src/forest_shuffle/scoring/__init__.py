"""End-of-game points from forests: reads the card model, never game flow.

Face: :func:`totals` (fast totals), :func:`score_table` (per-card reasons summed into the
score-pad lines; a Dartmoor table goes to :mod:`forest_shuffle.scoring.dartmoor`, whose
lines are :data:`DARTMOOR_LINES`), :func:`winners`, :class:`ForestScore`,
:class:`CardPoints`, :data:`LINES`.
"""

from forest_shuffle.scoring.core import LINES, CardPoints, ForestScore, score_table, totals, winners
from forest_shuffle.scoring.dartmoor import LINES as DARTMOOR_LINES

__all__ = ["DARTMOOR_LINES", "LINES", "CardPoints", "ForestScore", "score_table", "totals",
           "winners"]
