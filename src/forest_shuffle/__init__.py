"""forest-shuffle: rules engine, scorer, simulator and terminal play for Forest Shuffle."""

__version__ = "0.1.0"
