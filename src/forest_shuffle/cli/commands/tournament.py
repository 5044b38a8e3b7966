"""The ``tournament`` sub-command: bots against each other, seats rotated, deals replayed.

Contract: ``forest-shuffle tournament --bots A,B[,C...] [--game ID] --games G --players N
--seed S [--workers W | --ray ADDRESS] [--journal FILE] [--json]`` plays
:func:`forest_shuffle.match.tournament` of the game ID (default ``base``; with ``--ray`` on a
Ray cluster): every deal once per seating (cyclic rotations of the bot list, so each bot sits
in each seat equally often), G rounded up to a multiple of the number of bots. Prints per bot
the games, wins (a shared victory split evenly), win rate with its 95 % Wilson interval, mean
score and the mean of each score-pad line of that game; ``--json`` prints
:meth:`TournamentResult.to_dict` (with the ``game`` id) instead. A progress bar goes to stderr
when it is a terminal (never with ``--json``). A bad bot specification or option: one line on
stderr, exit status 2. ``--journal FILE`` writes every game to FILE as it finishes
(:mod:`forest_shuffle.journal`) and, when FILE already holds games of the same tournament
(game, bots, players, seed), plays only the missing ones: a killed or stopped run goes on where
it was, and a finished one can be extended to more games. The figures printed are over all the
games, the journal's included; the time is this run's; the machine's load average at each
game's end is kept with the game and printed as its median and range. Another tournament's
journal, a malformed one, or one holding more games than asked: one line, exit 2, the file
unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from forest_shuffle.bots import BotSpecError, make_bot
from forest_shuffle.cli.commands.options import (
    GameOption,
    RayOption,
    check_run_options,
    executor_from_option,
    game_from_option,
    with_progress,
)
from forest_shuffle.cli.words import N_, _, ngettext
from forest_shuffle.games import BASE_ID, GameDef
from forest_shuffle.journal import Journal, JournalError, open_journal
from forest_shuffle.match import MatchResult, TournamentResult, deals_for, load_range, tournament

__all__ = ["parse_bots", "register", "tournament_command"]

_SHORT = {"trees": N_("Trees"), "top_bottom": N_("Top/bot"), "left_right": N_("Left/right"),
          "cave": N_("Cave")}


def parse_bots(text: str) -> list[str]:
    """Split ``A,B:key=v,w=2,C`` into bot specifications: a comma starts a new bot unless
    the part after it is an option (``key=value``) of the bot before."""
    bots: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise BotSpecError(f"empty bot name in --bots {text!r}")
        if bots and "=" in part and ":" not in part.split("=", 1)[0]:
            sep = "," if ":" in bots[-1] else ":"
            bots[-1] += sep + part
        else:
            bots.append(part)
    return bots


def _short(line: str) -> str:
    short = _SHORT.get(line)
    return _(short) if short else line.replace("_", "/").capitalize()


def _print(console: Console, result: TournamentResult, requested: int, game: GameDef) -> None:
    n = len(result.bots)
    lines = game.pad_lines
    span = load_range(result.matches)
    load = ("" if span is None else
            _(", load average {load} ({low}-{high}) at the games' ends",
              load=f"{span[0]:.2f}", low=f"{span[1]:.2f}", high=f"{span[2]:.2f}"))
    words = dict(games=result.games, deals=result.deals, n=n, players=result.players,
                 seed=result.seed, title=game.title, seconds=f"{result.seconds:.1f}",
                 turns=f"{result.mean_turns:.1f}", load=load)
    # One message for each count of seatings (the plural), with and without games asked.
    console.print(
        ngettext("{games} games ({deals} deals x {n} seating), {players} players, "
                 "seed {seed}, {title}: {seconds} s, {turns} turns a game{load}",
                 "{games} games ({deals} deals x {n} seatings), {players} players, "
                 "seed {seed}, {title}: {seconds} s, {turns} turns a game{load}", n, **words)
        if requested == result.games else
        ngettext("{games} games ({deals} deals x {n} seating; {asked} asked), {players} "
                 "players, seed {seed}, {title}: {seconds} s, {turns} turns a game{load}",
                 "{games} games ({deals} deals x {n} seatings; {asked} asked), {players} "
                 "players, seed {seed}, {title}: {seconds} s, {turns} turns a game{load}",
                 n, asked=requested, **words))
    names = [s.bot if result.bots.count(s.bot) == 1 else f"{s.bot} #{k + 1}"
             for k, s in enumerate(result.stats)]
    wins_table = Table(title=_("Wins (a shared victory split evenly)"), box=box.SIMPLE_HEAD)
    lines_table = Table(title=_("Mean score per seat and score-pad lines"),
                        box=box.SIMPLE_HEAD)
    for i, col in enumerate((_("Bot"), _("Games"), _("Wins"), _("Win rate"),
                             _("95 % interval"), _("ms/decision"))):
        wins_table.add_column(col, justify="left" if i == 0 else "right")
    for i, col in enumerate((_("Bot"), _("Score"), *(_short(line) for line in lines))):
        lines_table.add_column(col, justify="left" if i == 0 else "right")
    for name, s in zip(names, result.stats, strict=True):
        wins = f"{s.wins:.1f}" if s.wins != int(s.wins) else str(int(s.wins))
        low, high = s.interval
        wins_table.add_row(name, str(s.games), wins, f"{s.win_rate:.1%}",
                           f"{low:.1%} - {high:.1%}", f"{s.seconds_per_decision * 1000:.2f}")
        lines_table.add_row(name, f"{s.mean_score:.1f}",
                            *(f"{s.mean_lines[line]:.1f}" for line in lines))
    console.print(wins_table)
    console.print(lines_table)
    if result.ties:
        console.print(ngettext("{n} game ended in a shared victory (split evenly).",
                               "{n} games ended in a shared victory (split evenly).",
                               result.ties, n=result.ties))


def tournament_command(
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="Bot specifications, comma-separated (e.g. random,greedy).",
        show_default=False)],
    game: GameOption = BASE_ID,
    games: Annotated[int, typer.Option(
        "--games", "-g", help="Games to play (rounded up to a multiple of the bots).")] = 100,
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game, 2 to 5.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", help="Worker processes playing games in parallel.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    ray: RayOption = None,
    journal: Annotated[Path | None, typer.Option(
        "--journal", metavar="FILE",
        help="Write each finished game to FILE as it ends and, when FILE holds games of "
             "this tournament already, play only the rest (resume or extend a long run).",
        show_default=False)] = None,
) -> None:
    """Play bots against each other with seats rotated and the same deals for every seating."""
    gdef = game_from_option(game)
    check_run_options(players, games, workers)
    try:
        specs = parse_bots(bots)
        for spec in specs:
            make_bot(spec, 0)
    except BotSpecError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    executor = executor_from_option(ray)
    total = deals_for(games, len(specs)) * len(specs)
    done: dict[int, MatchResult] = {}
    book: Journal | None = None
    if journal is not None:
        try:
            book, done = open_journal(journal, gdef.id, tuple(specs), players, seed)
        except JournalError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2) from None
    try:
        result = with_progress("tournament", total, as_json, lambda report: tournament(
            specs, games, players, seed, workers, progress=report, game=gdef,
            executor=executor, done=done, on_result=None if book is None else book.write))
    except ValueError as exc:
        typer.echo(str(exc) if journal is None else f"{journal}: {exc}", err=True)
        raise typer.Exit(2) from None
    finally:
        if book is not None:
            book.close()
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        _print(Console(), result, games, gdef)


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` sub-command to ``app``."""
    app.command("tournament")(tournament_command)
