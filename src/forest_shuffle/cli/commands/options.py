"""The options that several sub-commands share (the game; players, games, workers).

Contract: :data:`GameOption` is the one definition of ``--game ID`` (default ``base``) and
:func:`game_from_option` turns its value into the game definition, or ends the command with
one line on standard error and exit status 2 for an unknown id. :func:`check_run_options`
ends the command the same way for a value out of range, and returns otherwise.
:func:`executor_from_option` turns ``--ray ADDRESS`` (:data:`RayOption`) into an executor
or ends the command the same way. :func:`with_progress` runs a long job with a progress bar
on standard error when that is a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from typing import Annotated, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from forest_shuffle.cli.words import _
from forest_shuffle.games import BASE_ID, GameDef, UnknownGameError, game_ids, make_game

T = TypeVar("T")

#: ``--game ID``: the game to play, simulate or list (the expansions in any order).
GameOption = Annotated[str, typer.Option(
    "--game", metavar="ID",
    help=f"The game: {', '.join(game_ids())} (the expansions in any order).")]


#: ``--ray ADDRESS``: run the games on a Ray cluster (extra ``cluster``) instead of local
#: worker processes.
RayOption = Annotated[str | None, typer.Option(
    "--ray", metavar="ADDRESS",
    help="Run the games on the Ray cluster at ADDRESS ('auto', host:port, or 'local' "
         "for a one-machine cluster; extra 'cluster').")]


def executor_from_option(address: str | None) -> Executor | None:
    """None without ``--ray``; else the Ray executor, or one line on standard error and exit
    status 2 when Ray is missing or the cluster cannot be reached."""
    if address is None:
        return None
    from forest_shuffle.cluster import ClusterUnavailable, ray_executor

    try:
        return ray_executor(address)
    except ClusterUnavailable as exc:
        _refuse(str(exc))


def _refuse(message: str) -> NoReturn:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def game_from_option(value: str) -> GameDef:
    """The definition of the game ``--game`` names; one line on standard error and exit
    status 2 for an id that names no game."""
    try:
        return make_game(value.strip() or BASE_ID)
    except UnknownGameError as exc:
        _refuse(_("{option}: {message}", option="--game", message=exc))


def check_run_options(players: int, games: int, workers: int | None = None) -> None:
    """Players 2 to 5, at least one game, at least one worker process."""
    if not 2 <= players <= 5:
        _refuse(_("--players must be from 2 to 5, not {value}", value=players))
    if games < 1:
        _refuse(_("--games must be at least 1, not {value}", value=games))
    if workers is not None and workers < 1:
        _refuse(_("--workers must be at least 1, not {value}", value=workers))


def with_progress(label: str, total: int, quiet: bool,
                  run: Callable[[Callable[[int], None] | None], T]) -> T:
    """``run(report)`` where ``report(done)`` moves a progress bar on standard error; the
    bar is left out (``report`` is None) when ``quiet`` or standard error is no terminal."""
    err = Console(stderr=True)
    if quiet or not err.is_terminal:
        return run(None)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task(label, total=total)
        return run(lambda done: progress.update(task, completed=done))
