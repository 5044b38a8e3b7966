"""The ``simulate`` sub-command: many complete games of uniformly random legal actions.

Contract: ``forest-shuffle simulate [--game ID] --players N --games G --seed S [--json]
[--records DIR]`` plays G games of the game ID (default ``base``); game i (from 0) uses the
seed :func:`game_seed` (S, i), so the same options give the same games and the same numbers
(apart from the ``timing`` figures). Prints the game, games and actions per second, average
turns and decisions, average score per seat with the mean of each score-pad line of that
game, win share per seat (a shared victory is split evenly) and the average turn on which
each winter card came up (as many as end that game). ``--records DIR`` writes
``DIR/game-<seed>.json`` per game. ``--ray ADDRESS`` plays the games as tasks on a Ray
cluster (extra ``cluster``, :mod:`forest_shuffle.cluster`) with the same numbers; without
Ray, one line and exit status 2. ``simulate --game dartmoor --solo CHALLENGE|all
[--bot SPEC]`` plays solo games against the automa with a bot (greedy by default) and
reports per challenge the mean score, the goal's rate, the games without a medal and the
medal rates, each with its Wilson 95 % interval (:mod:`.solo`; the solo player is
``--bot solo:time=T``, :mod:`forest_shuffle.bots.solo`). Bad options: one line on stderr,
exit status 2.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from forest_shuffle.cli.commands.options import (
    GameOption,
    RayOption,
    check_run_options,
    executor_from_option,
    game_from_option,
    with_progress,
)
from forest_shuffle.cli.words import _, language, ngettext
from forest_shuffle.engine.state import GameState
from forest_shuffle.formats.records import random_game, record_of, write_record
from forest_shuffle.games import BASE_ID, GameDef, make_game
from forest_shuffle.i18n import words

__all__ = ["game_seed", "register", "simulate", "simulate_command"]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with ``seed``: 48 bits of a hash of both, so
    runs with nearby seeds do not share games."""
    digest = hashlib.blake2b(f"forest-shuffle/{seed}/{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


class _WinterClock:
    """Notes the turn on which each winter card comes up (called after every action)."""

    __slots__ = ("turns",)

    def __init__(self) -> None:
        self.turns: list[int] = []

    def __call__(self, state: GameState) -> None:
        if len(state.winter) > len(self.turns):
            self.turns.extend([state.turn] * (len(state.winter) - len(self.turns)))


@dataclass(frozen=True)
class _Played:
    """What the summary needs of one random game (picklable: it may come from a worker)."""

    seed: int
    turns: int
    decisions: int
    totals: tuple[int, ...]
    lines: tuple[dict[str, int], ...]
    winter_turns: tuple[int, ...]
    record: dict[str, Any] | None


#: One game to play: players, game seed, game id, whether to return its record.
_Job = tuple[int, int, str, bool]


def _play_one(job: _Job) -> _Played:
    """Top-level (picklable) worker function: play one random game and sum it up."""
    players, s, gid, with_record = job
    gdef = make_game(gid)
    clock = _WinterClock()
    state = random_game(players, s, on_action=clock, game=gdef)
    table = gdef.score_table(state.forests)
    return _Played(
        seed=s, turns=state.turn, decisions=len(state.history),
        totals=tuple(int(x) for x in state.scores()),
        lines=tuple({line: fs.lines[line] for line in gdef.pad_lines} for fs in table),
        winter_turns=tuple(clock.turns), record=record_of(state) if with_record else None)


def _played(jobs: list[_Job], executor: Executor | None) -> Iterator[_Played]:
    """The games of ``jobs`` in job order: here one after the other, or on ``executor``
    (submitted at once, yielded in order as they finish)."""
    if executor is None:
        for job in jobs:
            yield _play_one(job)
        return
    futures = [executor.submit(_play_one, job) for job in jobs]
    try:
        for future in futures:
            yield future.result()
    except BaseException:
        for future in futures:
            future.cancel()
        raise


def simulate(players: int, games: int, seed: int, records: Path | None = None,
             progress: Callable[[int], None] | None = None,
             game: GameDef | str = BASE_ID,
             executor: Executor | None = None) -> dict[str, Any]:
    """Play ``games`` random games of ``game`` and return the summary (the ``--json``
    shape). ``executor`` (e.g. :func:`forest_shuffle.cluster.ray_executor`) plays them
    instead of this process; the summary is the same (apart from ``timing``), and the
    records are written here."""
    gdef = make_game(game) if isinstance(game, str) else game
    lines = gdef.pad_lines
    winter_cards = gdef.winter_to_end
    seats = range(players)
    score_sum = [0.0] * players
    line_sum = [dict.fromkeys(lines, 0.0) for _ in seats]
    wins = [0.0] * players
    ties = 0
    turns = 0
    decisions = 0
    winter_sum = [0.0] * winter_cards
    winter_n = [0] * winter_cards
    start = time.perf_counter()
    jobs = [(players, game_seed(seed, i), gdef.id, records is not None) for i in range(games)]
    for i, one in enumerate(_played(jobs, executor)):
        turns += one.turns
        decisions += one.decisions
        totals = one.totals
        for p in seats:
            score_sum[p] += totals[p]
            for line in lines:
                line_sum[p][line] += one.lines[p][line]
        best = max(totals)
        winners = [p for p in seats if totals[p] == best]
        ties += len(winners) > 1
        for p in winners:
            wins[p] += 1 / len(winners)
        for k, t in enumerate(one.winter_turns[:winter_cards]):
            winter_sum[k] += t
            winter_n[k] += 1
        if records is not None and one.record is not None:
            write_record(records / f"game-{one.seed}.json", one.record)
        if progress is not None:
            progress(i + 1)
    elapsed = time.perf_counter() - start
    return {
        "game": gdef.id,
        "players": players,
        "games": games,
        "seed": seed,
        "avg_turns": turns / games,
        "avg_decisions": decisions / games,
        "seats": [
            {"avg_score": score_sum[p] / games,
             "lines": {line: line_sum[p][line] / games for line in lines},
             "win_share": wins[p] / games}
            for p in seats
        ],
        "ties": ties,
        "winter_turns": [winter_sum[k] / winter_n[k] if winter_n[k] else None
                         for k in range(winter_cards)],
        "records": None if records is None else str(records),
        "timing": {
            "seconds": elapsed,
            "games_per_second": games / elapsed if elapsed > 0 else None,
            "actions_per_second": decisions / elapsed if elapsed > 0 else None,
        },
    }


def _print(console: Console, summary: dict[str, Any]) -> None:
    """The report of a run in the command line's language (numbers formatted as in
    English: the ``,`` between thousands and the ``.`` before decimals)."""
    timing = summary["timing"]
    lines = list(summary["seats"][0]["lines"])
    # English says "games" for one game too (as it always did); the singular is the
    # translators' form for one.
    console.print(ngettext(
        "{games} games of {players} players, seed {seed}, {title}: {seconds} s, "
        "{games_per_second} games/s, {actions_per_second} actions/s",
        "{games} games of {players} players, seed {seed}, {title}: {seconds} s, "
        "{games_per_second} games/s, {actions_per_second} actions/s",
        summary["games"], games=summary["games"], players=summary["players"],
        seed=summary["seed"], title=make_game(summary["game"]).title,
        seconds=f"{timing['seconds']:.2f}",
        games_per_second=f"{timing['games_per_second'] or 0:,.1f}",
        actions_per_second=f"{timing['actions_per_second'] or 0:,.0f}"))
    console.print(_("Average turns {turns}, average decisions {decisions}",
                    turns=f"{summary['avg_turns']:.1f}",
                    decisions=f"{summary['avg_decisions']:.1f}"))
    winter = ", ".join("-" if t is None else f"{t:.1f}" for t in summary["winter_turns"])
    console.print(_("Winter cards came up on average on turns {turns}", turns=winter))
    table = Table(title=_("Per seat (mean per game)"))
    table.add_column(_("Player"), justify="right")
    table.add_column(_("Score"), justify="right")
    for line in lines:
        table.add_column(line.replace("_", "/"), justify="right")
    table.add_column(_("Win share"), justify="right")
    for p, seat in enumerate(summary["seats"]):
        table.add_row(str(p + 1), f"{seat['avg_score']:.1f}",
                      *(f"{seat['lines'][line]:.1f}" for line in lines),
                      f"{seat['win_share']:.1%}")
    console.print(table)
    if summary["ties"]:
        n = summary["ties"]
        console.print(ngettext("{n} game ended in a shared victory (split evenly).",
                               "{n} games ended in a shared victory (split evenly).", n, n=n))
    if summary["records"] is not None:
        console.print(_("Records written to {folder}", folder=summary["records"]))


def simulate_command(
    game: GameOption = BASE_ID,
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game, 2 to 5.")] = 2,
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    records: Annotated[Path | None, typer.Option(
        "--records", help="Write one game record per game into this folder.",
        show_default=False)] = None,
    solo: Annotated[str | None, typer.Option(
        "--solo", metavar="CHALLENGE", help="Dartmoor solo games against Anna with --bot: "
        "a challenge 1 to 15, or all; reports the medal rates.", show_default=False)] = None,
    bot: Annotated[str | None, typer.Option(
        "--bot", metavar="SPEC", help="With --solo: the bot that plays (greedy, hard, "
        "mcts:iterations=20...).", show_default="greedy")] = None,
    ray: RayOption = None,
) -> None:
    """Play complete games with uniformly random legal actions and report statistics."""
    gdef = game_from_option(game)
    if solo is not None or bot is not None:
        if ray is not None:
            typer.echo(_("--ray is not used for solo games"), err=True)
            raise typer.Exit(2)
        _simulate_solo(gdef, solo, bot, games, seed, as_json, records)
        return
    check_run_options(players, games)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            typer.echo(_("cannot create records folder {folder}: {message}", folder=records,
                         message=exc.strerror or exc), err=True)
            raise typer.Exit(2) from None
    executor = executor_from_option(ray)
    summary = with_progress("simulating", games, as_json, lambda report: simulate(
        players, games, seed, records, report, gdef, executor))
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
    else:
        _print(Console(), summary)


def _simulate_solo(gdef: GameDef, solo: str | None, bot: str | None, games: int, seed: int,
                   as_json: bool, records: Path | None) -> None:
    """``simulate --solo``: solo games of a bot, the medal rates per challenge."""
    from forest_shuffle.bots import BotSpecError, make_bot
    from forest_shuffle.cli.commands.solo import (
        challenge_numbers,
        check_solo_game,
        solo_runs,
    )

    def refuse(message: str) -> NoReturn:
        typer.echo(message, err=True)
        raise typer.Exit(2)

    if solo is None:
        refuse(_("--bot goes with --solo CHALLENGE (simulate plays random games otherwise)"))
    check_solo_game(gdef)
    numbers = challenge_numbers(solo, every=True)
    if records is not None:
        refuse(_("--records is not written for solo games"))
    if games < 1:
        refuse(_("--games must be at least 1, not {games}", games=games))
    spec = bot or "greedy"
    try:
        make_bot(spec)
    except BotSpecError as exc:
        refuse(_("--bot: {problem}", problem=exc))
    summary = with_progress("solo games", games * len(numbers), as_json,
                            lambda report: solo_runs(numbers, spec, games, seed, report))
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    console = Console()
    console.print(ngettext(
        "{n} solo game of Dartmoor per challenge, bot {bot}, seed {seed}: {seconds} s",
        "{n} solo games of Dartmoor per challenge, bot {bot}, seed {seed}: {seconds} s",
        games, n=games, bot=spec, seed=seed, seconds=f"{summary['seconds']:.1f}"))
    table = Table(title=_("Per challenge (share of games, Wilson 95 % interval)"))
    heads = (_("Challenge"), _("Goal"), _("Score"), _("Goal met"), _("No medal"),
             _("Bronze+"), _("Silver+"), _("Gold"))
    for i, head in enumerate(heads):
        table.add_column(head, justify="left" if i == 1 else "right")

    def title_in(title: str) -> str:
        """A challenge's title (solo.json's) in the reader's language: the ``server``
        domain's translation, as the companion shows it."""
        return words("server", language()).pgettext("solo challenge", title)

    def rate(row: dict[str, Any], key: str, share: float) -> str:
        low, high = row["intervals"][key]
        return f"{share:.0%} ({low:.0%}-{high:.0%})"

    for row in summary["challenges"]:
        rates = row["medal_rates"]
        table.add_row(str(row["challenge"]), title_in(row["title"]), f"{row['avg_score']:.1f}",
                      rate(row, "goal", row["goal_rate"]),
                      rate(row, "none", row["best_medal"]["none"] / row["games"]),
                      *(rate(row, m, rates[m]) for m in ("bronze", "silver", "gold")))
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` sub-command to ``app``."""
    app.command("simulate")(simulate_command)
