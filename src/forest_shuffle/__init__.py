"""forest-shuffle: rules engine, scorer, simulator and terminal play for Forest Shuffle.

:func:`compiled` lists the modules that run compiled (an opt-in mypyc build,
``docs/speed.md``; empty in pure Python).
"""

__version__ = "0.1.0"

from forest_shuffle import _build  # noqa: E402
from forest_shuffle import games as _games  # noqa: F401,E402  (registers every game definition)

__all__ = ["__version__", "compiled"]

_build.register_pickling()


def compiled() -> list[str]:
    """The names of forest_shuffle's modules loaded from compiled extension modules (a
    build made with ``FOREST_SHUFFLE_COMPILE=1``); empty when everything is pure Python."""
    return _build.compiled()
