"""The ``score`` sub-command: score a table of forests written in forest-json.

Contract: ``score FILE [--json]`` reads ``FILE`` (``-`` for standard input), checks it as
``shared/spec/forest-json.md`` says (version 2: the game comes from the document's ``game``
key, the base game without one; ``"dartmoor"`` is scored with its six lines, a table of one
player by the solo rules) and prints the score, as JSON with ``--json`` (the same
shape for every game) or as tables for a person. A refused document prints one line on
standard error, exit status 2, and nothing is scored.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from forest_shuffle.cli.words import _
from forest_shuffle.engine.check import safe_json
from forest_shuffle.formats.forest_json import (
    ForestJsonError,
    load_table,
    render_result,
    result_to_json,
)


def score_command(
    file: Annotated[str, typer.Argument(help="A forest-json file, or - for standard input.",
                                        metavar="FILE")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the score as JSON.")] = False,
) -> None:
    """Score the forests of a table at the end of a game."""
    try:
        table = load_table(file)
    except ForestJsonError as exc:
        typer.echo(_("error: {message}", message=exc), err=True)
        raise typer.Exit(2) from None
    scores = table.game.score_table(table.forests)
    if as_json:
        # controls and bidirectional characters of names escaped, as the tables do
        typer.echo(safe_json(result_to_json(table.names, scores, table), indent=2))
        return
    render_result(table.names, scores, Console(), table.game, table.lang, table)


def register(app: typer.Typer) -> None:
    """Add the ``score`` sub-command to ``app``."""
    app.command("score")(score_command)
