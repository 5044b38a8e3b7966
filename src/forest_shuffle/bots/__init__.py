"""Bots: players that choose from their own view. ``make_bot("greedy", seed)`` builds one."""

from forest_shuffle.bots.base import Bot, BotSpecError, Budget, RandomBot
from forest_shuffle.bots.registry import BOTS, DIFFICULTIES, make_bot

__all__ = ["BOTS", "DIFFICULTIES", "Bot", "BotSpecError", "Budget", "RandomBot", "make_bot"]
