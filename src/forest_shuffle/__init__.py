"""forest-shuffle: rules engine, scorer, simulator and terminal play for Forest Shuffle."""

__version__ = "0.1.0"

from forest_shuffle import games as _games  # noqa: F401,E402  (registers every game definition)
