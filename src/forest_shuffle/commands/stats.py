"""The ``stats`` sub-command: self-play statistics of one bot, as JSON and PNG plots.

Contract: ``forest-shuffle stats --bots B --games G --players N [--seed S] [--out DIR]
[--workers W]`` plays G games with bot B in every seat (game i uses
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
from pathlib import Path
from typing import Annotated, Any

import typer
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from forest_shuffle.bots import BotSpecError, make_bot
from forest_shuffle.cards import CATALOG
from forest_shuffle.match import Job, MatchResult, deal_seed, run_matches
from forest_shuffle.scoring import LINES

__all__ = ["PLOTS", "register", "self_play", "stats_command", "summarize", "write_plots"]

#: The PNG files written next to ``stats.json``.
PLOTS: tuple[str, ...] = (
    "scores.png", "turns.png", "lines.png", "species_points.png", "species_played.png",
)
SAPLING = "sapling"
_KIND_COLOURS = {"tree": "#2e7d32", "dweller": "#8d6e63", SAPLING: "#9e9e9e"}


def self_play(bot: str, games: int, players: int, seed: int, workers: int = 1,
              progress: Callable[[int], None] | None = None) -> list[MatchResult]:
    """Play ``games`` games with ``bot`` in every seat; results in game order."""
    jobs: list[Job] = [((bot,) * players, deal_seed(seed, i), None) for i in range(games)]
    return run_matches(jobs, workers, progress)


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


def _kind(species: str) -> str:
    sp = CATALOG.species.get(species)
    return SAPLING if sp is None else sp.kind


def summarize(bot: str, players: int, seed: int, matches: Sequence[MatchResult]
              ) -> dict[str, Any]:
    """The ``stats.json`` content: distributions of scores (every seat of every game),
    winning scores, score-pad lines and game length; per seat the mean score and win
    share; per species (all 57 and ``sapling``) the mean copies and points per forest,
    the share of forests holding one and the mean points per copy."""
    forests = [(m, seat) for m in matches for seat in range(players)]
    n_forests = len(forests)
    scores = [m.scores[s] for m, s in forests]
    species_names = sorted(CATALOG.species) + [SAPLING]
    played = dict.fromkeys(species_names, 0)
    points = dict.fromkeys(species_names, 0)
    holders = dict.fromkeys(species_names, 0)
    for m, s in forests:
        for name, count in m.species_played[s].items():
            played[name] = played.get(name, 0) + count
            holders[name] = holders.get(name, 0) + 1
        for name, pts in m.species_points[s].items():
            points[name] = points.get(name, 0) + pts
    win_share = [0.0] * players
    for m in matches:
        for s in m.winners:
            win_share[s] += 1 / len(m.winners)
    decisions = sum(sum(m.decisions) for m in matches)
    seconds = sum(sum(m.seconds) for m in matches)
    return {
        "bot": bot,
        "players": players,
        "games": len(matches),
        "seed": seed,
        "scores": _dist(scores),
        "winning_scores": _dist([max(m.scores) for m in matches]),
        "ties": sum(len(m.winners) > 1 for m in matches),
        "lines": {line: _dist([m.lines[s][line] for m, s in forests]) for line in LINES},
        "turns": _dist([m.turns for m in matches]),
        "decisions_per_game": decisions / len(matches),
        "seats": [
            {"seat": p, "mean_score": statistics.fmean(m.scores[p] for m in matches),
             "win_share": win_share[p] / len(matches)}
            for p in range(players)
        ],
        "species": {
            name: {
                "kind": _kind(name),
                "played_per_forest": played[name] / n_forests,
                "in_forests": holders[name] / n_forests,
                "points_per_forest": points[name] / n_forests,
                "points_per_card": points[name] / played[name] if played[name] else None,
            }
            for name in species_names
        },
        "seconds_per_decision": seconds / decisions if decisions else 0.0,
        "per_game": [{"seed": m.seed, "scores": list(m.scores), "turns": m.turns}
                     for m in matches],
        "plots": list(PLOTS),
    }


# ------------------------------------------------------------------ plots


def _figure(width: float, height: float) -> Figure:
    """A figure drawn by the Agg canvas (no pyplot, no global backend state)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _title(summary: dict[str, Any]) -> str:
    return (f"{summary['bot']} self-play, {summary['players']} players, "
            f"{summary['games']} games (seed {summary['seed']})")


def _histogram(values: Sequence[float], *, title: str, xlabel: str, label: str,
               extra: Sequence[float] = (), extra_label: str = "") -> Figure:
    fig = _figure(9, 5.5)
    ax = fig.subplots()
    lo, hi = min([*values, *extra]), max([*values, *extra])
    width = max(1, round((hi - lo) / 30)) if hi > lo else 1
    bins = [lo + width * k for k in range(int((hi - lo) / width) + 2)]
    ax.hist(values, bins=bins, color="#4e79a7", edgecolor="white", label=label)
    if extra:
        ax.hist(extra, bins=bins, color="#f28e2b", edgecolor="white",
                label=extra_label)
    mean = statistics.fmean(values)
    ax.axvline(mean, color="black", linestyle="--", linewidth=1.2,
               label=f"mean {mean:.1f}")
    ax.set_title(title, fontsize=12)
    ax.set_xlabel(xlabel, fontsize=11)
    ax.set_ylabel("count", fontsize=11)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(frameon=False)
    return fig


def _species_bars(summary: dict[str, Any], key: str, *, title: str, xlabel: str,
                  fmt: str) -> Figure:
    rows = sorted(summary["species"].items(), key=lambda kv: (kv[1][key] or 0.0, kv[0]))
    names = [name for name, _ in rows]
    values = [row[key] or 0.0 for _, row in rows]
    colours = [_KIND_COLOURS[row["kind"]] for _, row in rows]
    fig = _figure(9, 0.22 * len(rows) + 1.6)
    ax = fig.subplots()
    bars = ax.barh(names, values, color=colours)
    ax.bar_label(bars, labels=[format(v, fmt) for v in values], padding=2, fontsize=7)
    ax.set_title(title, fontsize=12)
    ax.set_xlabel(xlabel, fontsize=11)
    ax.tick_params(axis="y", labelsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlim(0, max(values + [0.1]) * 1.12)
    ax.grid(axis="x", alpha=0.3)
    handles = [Patch(color=c, label=k) for k, c in _KIND_COLOURS.items()]
    ax.legend(handles=handles, loc="lower right", frameon=False)
    return fig


def _lines_plot(summary: dict[str, Any], matches: Sequence[MatchResult]) -> Figure:
    players = summary["players"]
    data = [[float(m.lines[s][line]) for m in matches for s in range(players)]
            for line in LINES]
    fig = _figure(9, 5.5)
    ax = fig.subplots()
    ax.boxplot(data, tick_labels=[line.replace("_", "/") for line in LINES], showmeans=True,
               meanprops={"marker": "D", "markerfacecolor": "black", "markeredgecolor": "black",
                          "markersize": 5})
    for k, line in enumerate(LINES, start=1):
        mean = summary["lines"][line]["mean"]
        ax.annotate(f"mean {mean:.1f}", (k + 0.27, mean), va="center", fontsize=9)
    ax.set_xlim(0.5, len(LINES) + 0.9)
    ax.set_title(f"Score-pad lines per forest - {_title(summary)}", fontsize=11)
    ax.set_ylabel("points (box: quartiles, line: median, diamond: mean)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return fig


def write_plots(summary: dict[str, Any], matches: Sequence[MatchResult], out: Path
                ) -> list[Path]:
    """Write the PNG plots of :data:`PLOTS` into ``out``; return their paths."""
    players = summary["players"]
    figures = {
        "scores.png": _histogram(
            [m.scores[s] for m in matches for s in range(players)],
            extra=[max(m.scores) for m in matches], label="every player", extra_label="the winner",
            title=f"Final scores - {_title(summary)}", xlabel="points"),
        "turns.png": _histogram(
            [m.turns for m in matches], title=f"Game length - {_title(summary)}",
            xlabel="turns per game", label="games"),
        "lines.png": _lines_plot(summary, matches),
        "species_points.png": _species_bars(
            summary, "points_per_forest", fmt=".2f",
            title=f"Mean points per forest by species\n{_title(summary)}",
            xlabel="points per forest (cave and saplings score none)"),
        "species_played.png": _species_bars(
            summary, "played_per_forest", fmt=".2f",
            title=f"Cards played per forest by species\n{_title(summary)}",
            xlabel="copies in a finished forest (mean)"),
    }
    paths = []
    for name in PLOTS:
        fig = figures[name]
        path = out / name
        fig.savefig(path, dpi=110)
        paths.append(path)
    return paths


# ------------------------------------------------------------------ command


def _print(console: Console, summary: dict[str, Any], out: Path) -> None:
    sc, turns = summary["scores"], summary["turns"]
    console.print(_title(summary))
    console.print(f"Score: mean {sc['mean']:.1f} (sd {sc['std']:.1f}), median "
                  f"{sc['median']:.0f}, range {sc['min']:.0f}-{sc['max']:.0f}; winner mean "
                  f"{summary['winning_scores']['mean']:.1f}")
    console.print(f"Turns: mean {turns['mean']:.1f}, range {turns['min']:.0f}-"
                  f"{turns['max']:.0f}; {summary['decisions_per_game']:.1f} decisions a game, "
                  f"{summary['seconds_per_decision'] * 1000:.2f} ms a decision")
    lines = ", ".join(f"{line.replace('_', '/')} {summary['lines'][line]['mean']:.1f}"
                      for line in LINES)
    console.print(f"Score-pad lines (mean): {lines}")
    seats = ", ".join(f"{s['seat'] + 1}: {s['mean_score']:.1f} / {s['win_share']:.0%}"
                      for s in summary["seats"])
    console.print(f"Per seat (score / wins): {seats}")
    table = Table(title="Top species by points per forest")
    for col in ("Species", "Points/forest", "Copies/forest", "In forests", "Points/copy"):
        table.add_column(col, justify="left" if col == "Species" else "right")
    rows = sorted(summary["species"].items(), key=lambda kv: -kv[1]["points_per_forest"])
    for name, row in rows[:12]:
        ppc = row["points_per_card"]
        table.add_row(name, f"{row['points_per_forest']:.2f}", f"{row['played_per_forest']:.2f}",
                      f"{row['in_forests']:.0%}", "-" if ppc is None else f"{ppc:.2f}")
    console.print(table)
    console.print(f"Wrote {out / 'stats.json'} and {len(PLOTS)} plots ({', '.join(PLOTS)})")


def stats_command(
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="The bot specification (e.g. greedy or mcts:time=0.5).",
        show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games.")] = 100,
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game, 2 to 5.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for stats.json and the PNG plots.")] = Path("stats"),
    workers: Annotated[int, typer.Option(
        "--workers", "-w", help="Worker processes playing games in parallel.")] = 1,
) -> None:
    """Self-play statistics of one bot: scores, species, score-pad lines, game length."""
    if not 2 <= players <= 5:
        typer.echo(f"--players must be from 2 to 5, not {players}", err=True)
        raise typer.Exit(2)
    if games < 1:
        typer.echo(f"--games must be at least 1, not {games}", err=True)
        raise typer.Exit(2)
    if workers < 1:
        typer.echo(f"--workers must be at least 1, not {workers}", err=True)
        raise typer.Exit(2)
    try:
        make_bot(bots, 0)
    except BotSpecError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        typer.echo(f"cannot create output folder {out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
    spec = bots.strip()
    err = Console(stderr=True)
    if not err.is_terminal:
        matches = self_play(spec, games, players, seed, workers)
    else:
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as progress:
            task = progress.add_task("self-play", total=games)
            matches = self_play(spec, games, players, seed, workers,
                                lambda done: progress.update(task, completed=done))
    summary = summarize(spec, players, seed, matches)
    (out / "stats.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    write_plots(summary, matches, out)
    _print(Console(), summary, out)


def register(app: typer.Typer) -> None:
    """Add the ``stats`` sub-command to ``app``."""
    app.command("stats")(stats_command)
