"""The ``forest-shuffle`` command line: one Typer app, one module per sub-command.

Contract: every sub-command lives in ``forest_shuffle.commands.<name>`` and exposes
``register(app)``. Bad input ends with one line on standard error and a non-zero exit
status, never a traceback.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="forest-shuffle",
    help="Play, score and study the card game Forest Shuffle.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Play, score and study the card game Forest Shuffle."""


COMMANDS: tuple[str, ...] = (
    "cards", "score", "simulate", "replay", "play", "tournament", "stats",
)

for _name in COMMANDS:
    importlib.import_module(f"forest_shuffle.commands.{_name}").register(app)


def main() -> None:
    """Entry point of the console script and of ``python -m forest_shuffle``."""
    app()
