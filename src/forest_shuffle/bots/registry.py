"""Bots by name: ``make_bot("mcts:time=1.0,workers=2", seed=3)``.

Contract: a specification is ``name`` or ``name:key=value,key=value``; the keys are the
keyword arguments of the bot's class (numbers parsed as int or float). Difficulty names
(``easy``, ``medium``, ``hard``, ``expert``) map to specifications. A bad specification
raises :class:`BotSpecError` with a one-line message.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping

from forest_shuffle.bots.base import Bot, BotSpecError, RandomBot
from forest_shuffle.bots.greedy import GreedyBot
from forest_shuffle.bots.learned import LearnedBot
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.bots.solo import SoloBot

#: Bot classes by name. Other bot modules add themselves here when imported below.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot,
                                       "mcts": MCTSBot, "learned": LearnedBot,
                                       "solo": SoloBot}

#: Difficulty levels a person can pick, as bot specifications.
DIFFICULTIES: dict[str, str] = {"easy": "random", "medium": "greedy",
                               "hard": "mcts:time=1.0", "expert": "learned:time=1.0"}
#: How each difficulty reads where people choose one (the lobby, ``play --help``).
DIFFICULTY_WORDS: dict[str, str] = {"easy": "easy (random)", "medium": "medium (greedy)",
                                    "hard": "hard (search)",
                                    "expert": "expert (experimental: a learned evaluation)"}


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, Mapping[str, int | float | str]]:
    """Split ``name:key=value,...`` into the name and its options."""
    spec = spec.strip()
    spec = DIFFICULTIES.get(spec, spec)
    name, _, rest = spec.partition(":")
    options: dict[str, int | float | str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise BotSpecError(f"bot option {part!r} must be key=value")
            options[key.strip()] = _value(value.strip())
    return name.strip(), options


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build the bot named by ``spec`` with its own random seed."""
    name, options = parse_spec(spec)
    factory = BOTS.get(name)
    if factory is None:
        known = ", ".join(sorted(BOTS) + sorted(DIFFICULTIES))
        raise BotSpecError(f"unknown bot {name!r} (known: {known})")
    params = inspect.signature(factory).parameters
    for key in options:
        if key not in params or key == "seed":
            allowed = ", ".join(k for k in params if k not in ("self", "seed")) or "none"
            raise BotSpecError(f"bot {name!r} has no option {key!r} (options: {allowed})")
    try:
        return factory(seed=seed, **options)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bot {spec!r}: {exc}") from None
