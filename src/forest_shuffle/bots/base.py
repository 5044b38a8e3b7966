"""The bot interface: a bot sees one player's view, never the full state.

Contract: ``bot.choose(view, budget)`` returns one of ``view.legal_actions``. A bot keeps
its own ``random.Random`` (seeded at construction) and no other state that could leak
hidden information. ``budget`` bounds the thinking time of search bots (seconds for this
decision, or None for the bot's own setting); fast bots ignore it.
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView


class BotSpecError(ValueError):
    """A bot specification (``name[:key=value,...]``) is not valid; one-line message."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think about one decision: seconds and/or iterations."""

    seconds: float | None = None
    iterations: int | None = None


class Bot(ABC):
    """A player that chooses actions from its own view."""

    #: The name the registry knows the bot by (``random``, ``greedy``, ``mcts``).
    name: str = "bot"
    #: Whether a decision takes long (a search): a server then runs it in a worker
    #: process instead of beside its own threads.
    searches: bool = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        """One of ``view.legal_actions`` (which must not be empty)."""

    def describe(self) -> str:
        """The specification that builds this bot again: its name and every constructor
        option whose value (the attribute of the same name) differs from the default."""
        opts = []
        for key, param in inspect.signature(type(self).__init__).parameters.items():
            if key in ("self", "seed") or param.default is inspect.Parameter.empty:
                continue
            value = getattr(self, key, param.default)
            if value != param.default:
                text = f"{value:g}" if isinstance(value, float) else str(int(value)) \
                    if isinstance(value, bool) else str(value)
                opts.append(f"{key}={text}")
        return self.name + (":" + ",".join(opts) if opts else "")


class RandomBot(Bot):
    """Uniformly random legal actions."""

    name = "random"

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"player {view.player + 1} has no decision to make")
        return legal[self.rng.randrange(len(legal))]
