"""The ``play`` sub-command: play Forest Shuffle in the terminal against bots or hot-seat.

Contract: ``play [--game ID] [--players N] [--bots K] [--seed S] [--level LEVEL]``; a bad
option is one line on standard error and exit status 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from forest_shuffle.bots import BotSpecError, make_bot
from forest_shuffle.cli.commands.options import GameOption, game_from_option
from forest_shuffle.games import BASE_ID
from forest_shuffle.terminal.line import Terminal


def _int_option(value: str | None, name: str) -> int | None:
    """Parse an integer option; one line on stderr and exit 2 if it is not one."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        typer.echo(f"{name} must be a whole number, not {value!r}", err=True)
        raise typer.Exit(2) from None


def play_command(
    game: GameOption = BASE_ID,
    players: Annotated[str | None, typer.Option(
        "--players", metavar="N", help="Players at the table, 2 to 5.",
        show_default="2")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", metavar="K", help="How many of them are bots (humans sit first).",
        show_default="players - 1")] = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="S", help="Deal seed, to replay a game.",
        show_default="random")] = None,
    level: Annotated[str, typer.Option(
        "--level", metavar="LEVEL",
        help="How the bots play: easy (random), medium (greedy), hard (search), "
             "or a bot such as mcts:time=2.")] = "easy",
) -> None:
    """Play in the terminal: you against bots, or several people hot-seat."""
    gdef = game_from_option(game)
    n = _int_option(players, "--players")
    k = _int_option(bots, "--bots")
    s = _int_option(seed, "--seed")
    n = 2 if n is None else n
    if not 2 <= n <= 5:
        typer.echo(f"--players must be from 2 to 5, not {n}", err=True)
        raise typer.Exit(2)
    k = n - 1 if k is None else k
    if not 0 <= k <= n:
        typer.echo(f"--bots must be from 0 to {n}, not {k}", err=True)
        raise typer.Exit(2)
    try:
        make_bot(level)
    except BotSpecError as exc:
        typer.echo(f"--level: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        Terminal(n, k, s, level=level, game=gdef).run()
    except KeyboardInterrupt:
        typer.echo("\nInterrupted: game abandoned.", err=True)
        raise typer.Exit(130) from None


def register(app: typer.Typer) -> None:
    """Add the ``play`` sub-command to ``app``."""
    app.command("play")(play_command)
