"""The ``replay`` sub-command: replay a game record and check it.

Contract: ``forest-shuffle replay RECORD`` replays the game the record names (``game``; the
base game when it names none, as records from before game definitions) and exits 0 with a
one-line ``OK: ...`` summary on stdout (naming the game when it is not the base game) when
the replay matches the record; 1 with one line on stderr naming the first
difference (illegal action, card place, order, score, winners); 2 with one line on stderr
when the file cannot be read or is not a record (not JSON, too large, nested too deeply,
an integer too long, a field of the wrong shape, a game that is not known). Every message
is one printable line of at most :data:`MAX_MESSAGE` characters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forest_shuffle.engine.check import printable
from forest_shuffle.formats.records import RecordError, read_record, replay
from forest_shuffle.games import BASE_ID

__all__ = ["MAX_MESSAGE", "register", "replay_command"]

#: Messages are cut to this length (a record may hold an action text of any length).
MAX_MESSAGE = 400


def _line(message: str) -> str:
    text = printable(message)
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


def replay_command(
    record: Annotated[Path, typer.Argument(help="A game record (JSON) to replay and check.",
                                           show_default=False)],
) -> None:
    """Replay a game record from its seed and actions and check its final state and scores."""
    try:
        data = read_record(record)
        result = replay(data)
    except RecordError as exc:
        typer.echo(_line(str(exc)), err=True)
        raise typer.Exit(2) from None
    if not result.ok:
        typer.echo(_line(f"{record}: {result.message}"), err=True)
        raise typer.Exit(1)
    game = result.state.game
    typer.echo(_line(result.message if game.id == BASE_ID else f"{result.message}, "
                     f"game {game.id}"))


def register(app: typer.Typer) -> None:
    """Add the ``replay`` sub-command to ``app``."""
    app.command("replay")(replay_command)
