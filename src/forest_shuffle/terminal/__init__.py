"""Terminal play: ``line`` is the line-mode rich game over the engine's views and words.

Face: :class:`Terminal`.
"""

from forest_shuffle.terminal.line import Terminal

__all__ = ["Terminal"]
