"""Bots: players that choose from their own view. ``make_bot("greedy", seed)`` builds one."""

from .base import Bot, BotSpecError, Budget, RandomBot
from .registry import BOTS, DIFFICULTIES, make_bot

__all__ = ["BOTS", "DIFFICULTIES", "Bot", "BotSpecError", "Budget", "RandomBot", "make_bot"]
