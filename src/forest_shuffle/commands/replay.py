"""The ``replay`` sub-command: replay a game record and check it.

Contract: ``forest-shuffle replay RECORD`` exits 0 with a one-line ``OK: ...`` summary on
stdout when the replay matches the record; 1 with one line on stderr naming the first
difference (illegal action, card place, order, score, winners); 2 with one line on stderr
when the file cannot be read or is not a record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forest_shuffle.records import RecordError, read_record, replay

__all__ = ["register", "replay_command"]


def replay_command(
    record: Annotated[Path, typer.Argument(help="A game record (JSON) to replay and check.",
                                           show_default=False)],
) -> None:
    """Replay a game record from its seed and actions and check its final state and scores."""
    try:
        data = read_record(record)
        result = replay(data)
    except RecordError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    if not result.ok:
        typer.echo(f"{record}: {result.message}", err=True)
        raise typer.Exit(1)
    typer.echo(result.message)


def register(app: typer.Typer) -> None:
    """Add the ``replay`` sub-command to ``app``."""
    app.command("replay")(replay_command)
