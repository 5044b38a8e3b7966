"""Rewards at the end of a game, shared by both adapters.

Contract: :func:`final_rewards` gives each seat's reward once a game is over, by one of
:data:`REWARDS`: ``"win"``, 1 for every player with the top total (a tie shares the win)
and 0 for the others; ``"margin"``, the own total minus the best total of the others.
"""

from __future__ import annotations

from forest_shuffle.engine.state import GameState

REWARDS = ("win", "margin")


def final_rewards(state: GameState, reward: str) -> list[float]:
    """Each seat's reward at the end of ``state`` (ValueError for an unknown kind)."""
    if reward not in REWARDS:
        raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
    totals = state.scores()
    if reward == "win":
        best = max(totals)
        return [1.0 if t == best else 0.0 for t in totals]
    return [float(t - max(v for j, v in enumerate(totals) if j != i))
            for i, t in enumerate(totals)]
