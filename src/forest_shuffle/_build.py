"""Which of forest_shuffle's modules run compiled (mypyc) in this process.

Contract: :data:`COMPILED_MODULES` names the modules that an opt-in compiled build
(``FOREST_SHUFFLE_COMPILE=1 pip install .``, ``docs/speed.md``) turns into extension
modules; ``setup.py`` reads this list from this file without importing the package, so it
imports nothing of forest_shuffle. :func:`compiled` imports those modules and returns the
names of the ones loaded from an extension module (empty for a pure-Python install or a
source checkout); :func:`build_summary` says the same in a few words.

:func:`register_pickling` (called once by the package) makes the frozen dataclasses of the
compiled modules pickle and deep-copy as they do in pure Python: mypyc's default
``__setstate__`` assigns through the frozen ``__setattr__`` and fails, so each such class gets
a :mod:`copyreg` reducer that restores the fields with ``object.__setattr__``, as the
dataclass's own slots ``__setstate__`` does. Nothing is registered in a pure-Python process.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import importlib.machinery
from types import ModuleType
from typing import Any

#: The hot path of random games and scoring, compiled together when asked (one mypyc
#: group, so calls between them are native). Order does not matter.
COMPILED_MODULES: tuple[str, ...] = (
    "forest_shuffle.cards.model",
    "forest_shuffle.cards.forest",
    "forest_shuffle.engine.actions",
    "forest_shuffle.engine.options",
    "forest_shuffle.engine.setup",
    "forest_shuffle.engine.game",
    "forest_shuffle.engine.state",
    "forest_shuffle.engine.effects",
    "forest_shuffle.engine.decisions",
    "forest_shuffle.scoring.core",
    "forest_shuffle.scoring.dartmoor",
    "forest_shuffle.engine.view",
    "forest_shuffle.games.dartmoor_state",
    # Interpreted code cannot subclass a compiled class: the solo state (a DartmoorState)
    # is compiled with it.
    "forest_shuffle.games.dartmoor_solo",
    # Exploration's state (a GameState: its cave draft) likewise.
    "forest_shuffle.games.exploration",
    "forest_shuffle.formats.records",
)


def _is_extension(mod: ModuleType) -> bool:
    return isinstance(getattr(mod, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def compiled() -> list[str]:
    """The names in :data:`COMPILED_MODULES` whose loaded module is an extension module."""
    return [name for name in COMPILED_MODULES if _is_extension(importlib.import_module(name))]


def _restore(cls: Any, state: dict[str, Any]) -> Any:
    """A frozen dataclass instance from its fields (the unpickling half of the reducer)."""
    obj = cls.__new__(cls)
    for name, value in state.items():
        object.__setattr__(obj, name, value)
    return obj


def _reduce_frozen(obj: Any) -> tuple[Any, tuple[type, dict[str, Any]]]:
    """Pickle a frozen dataclass as its class and the fields that are set."""
    missing = object()
    state = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name, missing)
        if value is not missing:
            state[f.name] = value
    return _restore, (type(obj), state)


def _frozen_dataclasses(mod: ModuleType) -> list[type]:
    """The frozen dataclasses defined in ``mod`` without a ``__reduce__`` of their own."""
    out = []
    for value in vars(mod).values():
        params = getattr(value, "__dataclass_params__", None)
        if (isinstance(value, type) and value.__module__ == mod.__name__
                and params is not None and params.frozen
                and not {"__reduce__", "__reduce_ex__"} & set(vars(value))):
            out.append(value)
    return out


def register_pickling() -> list[type]:
    """Register :func:`copyreg.pickle` reducers for the frozen dataclasses of the modules
    that run compiled; return those classes (none in pure Python)."""
    done = []
    for name in COMPILED_MODULES:
        mod = importlib.import_module(name)
        if _is_extension(mod):
            for cls in _frozen_dataclasses(mod):
                copyreg.pickle(cls, _reduce_frozen)
                done.append(cls)
    return done


def build_summary() -> str:
    """``compiled (n of m modules)`` or ``pure Python``, for version lines and benchmarks."""
    done = compiled()
    if not done:
        return "pure Python"
    return f"compiled ({len(done)} of {len(COMPILED_MODULES)} modules, mypyc)"
