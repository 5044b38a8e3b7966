"""Checks of the options that several sub-commands share (players, games, workers).

Contract: :func:`check_run_options` ends the command with one line on standard error and
exit status 2 for a value out of range, and returns otherwise.
"""

from __future__ import annotations

import typer


def _refuse(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def check_run_options(players: int, games: int, workers: int | None = None) -> None:
    """Players 2 to 5, at least one game, at least one worker process."""
    if not 2 <= players <= 5:
        _refuse(f"--players must be from 2 to 5, not {players}")
    if games < 1:
        _refuse(f"--games must be at least 1, not {games}")
    if workers is not None and workers < 1:
        _refuse(f"--workers must be at least 1, not {workers}")
