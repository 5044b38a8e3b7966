"""Bots by name: ``make_bot("mcts:time=1.0,workers=2", seed=3)``.

Contract: a specification is ``name`` or ``name:key=value,key=value``; the keys are the
keyword arguments of the bot's class (numbers parsed as int or float). A bot class with a
``primary`` option also takes its value bare, first: ``policy:net.npz`` is
``policy:file=net.npz``. Difficulty names (``easy``, ``medium``, ``hard``, ``expert``, and
those added by :func:`add_levels`) map to specifications. A bad specification raises
:class:`BotSpecError` with a one-line message.

Bots of a layer above this one (the trained policy of :mod:`forest_shuffle.rl.policy`) are
named in :data:`PLUGINS` and imported by name when first asked for; the module adds its
class to :data:`BOTS`. The environment variable ``FOREST_SHUFFLE_LEVELS``
(``NAME=SPEC;NAME=SPEC``, set by ``serve --levels``) adds levels in every process that imports
this module (a server's worker processes inherit it; entries up to a bad one are added).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
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

#: Bots of higher layers, imported by module name when first asked for (the module adds
#: its class to BOTS): the trained policy needs numpy only, but lives with the encodings.
PLUGINS: dict[str, str] = {"policy": "forest_shuffle.rl.policy"}

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


def _factory(name: str) -> Callable[..., Bot] | None:
    """The bot class of ``name``, importing its plugin module if need be."""
    factory = BOTS.get(name)
    if factory is None and name in PLUGINS:
        try:
            importlib.import_module(PLUGINS[name])
        except ImportError as exc:
            raise BotSpecError(f"bot {name!r} needs {exc.name or 'a module'} "
                               "(is the extra installed?)") from None
        factory = BOTS.get(name)
    return factory


def parse_spec(spec: str) -> tuple[str, Mapping[str, int | float | str]]:
    """Split ``name:key=value,...`` into the name and its options (a bare first value
    goes to the bot's ``primary`` option)."""
    spec = spec.strip()
    spec = DIFFICULTIES.get(spec, spec)
    name, _, rest = spec.partition(":")
    name = name.strip()
    options: dict[str, int | float | str] = {}
    if rest:
        for i, part in enumerate(rest.split(",")):
            key, eq, value = part.partition("=")
            if not eq and i == 0 and part.strip():
                primary = getattr(_factory(name), "primary", None)
                if primary:
                    options[primary] = part.strip()
                    continue
            if not eq or not key.strip():
                raise BotSpecError(f"bot option {part!r} must be key=value")
            options[key.strip()] = _value(value.strip())
    return name, options


def add_levels(text: str) -> list[str]:
    """Add difficulty levels from ``NAME=SPEC;NAME=SPEC`` (each spec checked by building
    the bot); the names added. BotSpecError for a bad entry."""
    added = []
    for entry in text.split(";"):
        if not entry.strip():
            continue
        name, eq, spec = entry.partition("=")
        name, spec = name.strip(), spec.strip()
        if not eq or not name or not spec:
            raise BotSpecError(f"a level is NAME=SPEC, not {entry.strip()!r}")
        make_bot(spec, 0)
        DIFFICULTIES[name] = spec
        DIFFICULTY_WORDS.setdefault(name, f"{name} ({spec})")
        added.append(name)
    return added


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build the bot named by ``spec`` with its own random seed."""
    name, options = parse_spec(spec)
    factory = _factory(name)
    if factory is None:
        known = ", ".join(sorted(set(BOTS) | set(PLUGINS)) + sorted(DIFFICULTIES))
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


if os.environ.get("FOREST_SHUFFLE_LEVELS"):
    # not on every import: ``serve --levels`` reports a bad entry
    with contextlib.suppress(BotSpecError):
        add_levels(os.environ["FOREST_SHUFFLE_LEVELS"])
