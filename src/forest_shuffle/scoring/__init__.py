"""End-of-game points from forests: reads the card model, never game flow.

Face: :func:`totals` (fast totals), :func:`score_table` (per-card reasons summed into the
score-pad lines), :func:`winners`, :class:`ForestScore`, :class:`CardPoints`, :data:`LINES`.
"""

from forest_shuffle.scoring.core import LINES, CardPoints, ForestScore, score_table, totals, winners

__all__ = ["LINES", "CardPoints", "ForestScore", "score_table", "totals", "winners"]
