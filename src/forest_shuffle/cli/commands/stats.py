"""The ``stats`` sub-command: self-play statistics of one bot, as JSON and PNG plots.

Contract: ``forest-shuffle stats --bots B [--game ID] --games G --players N [--seed S]
[--out DIR] [--workers W | --ray ADDRESS]`` plays G games of the game ID (default ``base``)
with bot B in every seat (game i uses
:func:`forest_shuffle.match.deal_seed` (S, i); same options, same numbers apart from
timing) and writes ``DIR/stats.json`` (see :func:`summarize`) and the plots
``scores.png``, ``turns.png``, ``lines.png``, ``species_points.png`` and
``species_played.png``; a short summary goes to stdout, a progress bar to stderr when it is
a terminal. Bad options or bot specification: one line on stderr, exit status 2.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Annotated, Any

import typer
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
from forest_shuffle.cli.plots import PLOTS, write_plots
from forest_shuffle.cli.words import _, ngettext
from forest_shuffle.games import BASE_ID, GameDef, make_game
from forest_shuffle.match import MatchResult, load_summary, tournament

__all__ = ["register", "self_play", "stats_command", "summarize"]

SAPLING = "sapling"


def self_play(bot: str, games: int, players: int, seed: int, workers: int = 1,
              progress: Callable[[int], None] | None = None,
              game: GameDef | str = BASE_ID,
              executor: Executor | None = None) -> list[MatchResult]:
    """Play ``games`` games of ``game`` with ``bot`` in every seat; results in game order
    (a tournament of one bot: one seating, game i dealt from ``deal_seed(seed, i)``)."""
    gdef = make_game(game) if isinstance(game, str) else game
    result = tournament([bot], games, players, seed, workers, progress=progress,
                        game=gdef, executor=executor)
    return list(result.matches)


def _dist(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, min, quartiles and max of ``values``."""
    ordered = sorted(values)
    q = statistics.quantiles(ordered, n=20, method="inclusive") if len(ordered) > 1 else (
        [float(ordered[0])] * 19)
    return {
        "mean": statistics.fmean(ordered),
        "std": statistics.pstdev(ordered) if len(ordered) > 1 else 0.0,
        "min": float(ordered[0]),
        "p5": q[0], "p25": q[4], "median": q[9], "p75": q[14], "p95": q[18],
        "max": float(ordered[-1]),
    }


def summarize(bot: str, players: int, seed: int, matches: Sequence[MatchResult],
              game: GameDef | str = BASE_ID) -> dict[str, Any]:
    """The ``stats.json`` content: the game id, distributions of scores (every seat of
    every game), winning scores, score-pad lines and game length; per seat the mean score
    and win share; per species of the game by printed name (57 in the base game; the base
    and the Woodland Edge Squeakers are one "Squeaker") and ``sapling`` the mean copies and
    points per forest, the share of forests holding one and the mean points per copy;
    ``load``: the machine's load average at the games' ends (median, min, max) or
    None."""
    gdef = make_game(game) if isinstance(game, str) else game
    catalog = gdef.catalog
    lines = gdef.pad_lines
    forests = [(m, seat) for m in matches for seat in range(players)]
    n_forests = len(forests)
    scores = [m.scores[s] for m, s in forests]
    # by printed name, as the scorer's cards give them (the Woodland Edge Squeakers are
    # "Squeaker" like the base game's)
    species_names = sorted({sp.printed for sp in catalog.species.values()}) + [SAPLING]
    played = dict.fromkeys(species_names, 0)
    points = dict.fromkeys(species_names, 0)
    holders = dict.fromkeys(species_names, 0)
    def printed(name: str) -> str:  # results written before the printed names: keys
        sp = catalog.species.get(name)
        return name if sp is None else sp.printed

    for m, s in forests:
        held: set[str] = set()
        for name, count in m.species_played[s].items():
            name = printed(name)
            played[name] = played.get(name, 0) + count
            held.add(name)
        for name in held:
            holders[name] = holders.get(name, 0) + 1
        for name, pts in m.species_points[s].items():
            name = printed(name)
            points[name] = points.get(name, 0) + pts
    win_share = [0.0] * players
    for m in matches:
        for s in m.winners:
            win_share[s] += 1 / len(m.winners)
    decisions = sum(sum(m.decisions) for m in matches)
    seconds = sum(sum(m.seconds) for m in matches)
    def kind(name: str) -> str:
        found = catalog.named(name) if name != SAPLING else ()
        return SAPLING if not found else found[0].kind

    return {
        "game": gdef.id,
        "bot": bot,
        "players": players,
        "games": len(matches),
        "seed": seed,
        "scores": _dist(scores),
        "winning_scores": _dist([max(m.scores) for m in matches]),
        "ties": sum(len(m.winners) > 1 for m in matches),
        "lines": {line: _dist([m.lines[s][line] for m, s in forests]) for line in lines},
        "turns": _dist([m.turns for m in matches]),
        "decisions_per_game": decisions / len(matches),
        "seats": [
            {"seat": p, "mean_score": statistics.fmean(m.scores[p] for m in matches),
             "win_share": win_share[p] / len(matches)}
            for p in range(players)
        ],
        "species": {
            name: {
                "kind": kind(name),
                "played_per_forest": played[name] / n_forests,
                "in_forests": holders[name] / n_forests,
                "points_per_forest": points[name] / n_forests,
                "points_per_card": points[name] / played[name] if played[name] else None,
            }
            for name in species_names
        },
        "seconds_per_decision": seconds / decisions if decisions else 0.0,
        "load": load_summary(matches),
        "per_game": [{"seed": m.seed, "scores": list(m.scores), "turns": m.turns}
                     for m in matches],
        "plots": list(PLOTS),
    }


# ------------------------------------------------------------------ command


def _print(console: Console, summary: dict[str, Any], out: Path) -> None:
    sc, turns = summary["scores"], summary["turns"]
    game = summary.get("game", "base")
    said = dict(bot=summary["bot"], players=summary["players"], games=summary["games"],
                seed=summary["seed"])
    # The plots keep their English title (plots.title); the report speaks the reader's
    # language. English says "games" for one game too, as it always did.
    console.print(
        ngettext("{bot} self-play, {players} players, {games} games (seed {seed})",
                 "{bot} self-play, {players} players, {games} games (seed {seed})",
                 summary["games"], **said) if game == "base" else
        ngettext("{bot} self-play, {players} players, {games} games (seed {seed}), {game}",
                 "{bot} self-play, {players} players, {games} games (seed {seed}), {game}",
                 summary["games"], game=game, **said))
    console.print(_("Score: mean {mean} (sd {sd}), median {median}, range {low}-{high}; "
                    "winner mean {winner}", mean=f"{sc['mean']:.1f}", sd=f"{sc['std']:.1f}",
                    median=f"{sc['median']:.0f}", low=f"{sc['min']:.0f}",
                    high=f"{sc['max']:.0f}",
                    winner=f"{summary['winning_scores']['mean']:.1f}"))
    turn_words = dict(mean=f"{turns['mean']:.1f}", low=f"{turns['min']:.0f}",
                      high=f"{turns['max']:.0f}",
                      decisions=f"{summary['decisions_per_game']:.1f}",
                      ms=f"{summary['seconds_per_decision'] * 1000:.2f}")
    load = summary.get("load")
    console.print(
        _("Turns: mean {mean}, range {low}-{high}; {decisions} decisions a game, "
          "{ms} ms a decision", **turn_words) if load is None else
        _("Turns: mean {mean}, range {low}-{high}; {decisions} decisions a game, "
          "{ms} ms a decision (load average {load}, {load_low}-{load_high})",
          load=f"{load['median']:.2f}", load_low=f"{load['min']:.2f}",
          load_high=f"{load['max']:.2f}", **turn_words))
    lines = ", ".join(f"{line.replace('_', '/')} {row['mean']:.1f}"
                      for line, row in summary["lines"].items())
    console.print(_("Score-pad lines (mean): {lines}", lines=lines))
    seats = ", ".join(f"{s['seat'] + 1}: {s['mean_score']:.1f} / {s['win_share']:.0%}"
                      for s in summary["seats"])
    console.print(_("Per seat (score / wins): {seats}", seats=seats))
    table = Table(title=_("Top species by points per forest"))
    for i, col in enumerate((_("Species"), _("Points/forest"), _("Copies/forest"),
                             _("In forests"), _("Points/copy"))):
        table.add_column(col, justify="left" if i == 0 else "right")
    rows = sorted(summary["species"].items(), key=lambda kv: -kv[1]["points_per_forest"])
    for name, row in rows[:12]:
        ppc = row["points_per_card"]
        table.add_row(name, f"{row['points_per_forest']:.2f}", f"{row['played_per_forest']:.2f}",
                      f"{row['in_forests']:.0%}", "-" if ppc is None else f"{ppc:.2f}")
    console.print(table)
    console.print(ngettext("Wrote {file} and {n} plot ({names})",
                           "Wrote {file} and {n} plots ({names})", len(PLOTS),
                           file=out / "stats.json", n=len(PLOTS), names=", ".join(PLOTS)))


def stats_command(
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="The bot specification (e.g. greedy or mcts:time=0.5).",
        show_default=False)],
    game: GameOption = BASE_ID,
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games.")] = 100,
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game, 2 to 5.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for stats.json and the PNG plots.")] = Path("stats"),
    workers: Annotated[int, typer.Option(
        "--workers", "-w", help="Worker processes playing games in parallel.")] = 1,
    ray: RayOption = None,
) -> None:
    """Self-play statistics of one bot: scores, species, score-pad lines, game length."""
    gdef = game_from_option(game)
    check_run_options(players, games, workers)
    try:
        make_bot(bots, 0)
    except BotSpecError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        typer.echo(_("cannot create output folder {folder}: {message}", folder=out,
                     message=exc.strerror or exc), err=True)
        raise typer.Exit(2) from None
    spec = bots.strip()
    executor = executor_from_option(ray)
    matches = with_progress("self-play", games, False, lambda report: self_play(
        spec, games, players, seed, workers, report, gdef, executor))
    summary = summarize(spec, players, seed, matches, gdef)
    (out / "stats.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    write_plots(summary, matches, out)
    _print(Console(), summary, out)


def register(app: typer.Typer) -> None:
    """Add the ``stats`` sub-command to ``app``."""
    app.command("stats")(stats_command)
