"""PNG plots of self-play statistics (matplotlib, Agg canvas, no pyplot state).

Contract: :func:`write_plots` writes the files of :data:`PLOTS` from a summary made by
``forest_shuffle.cli.commands.stats.summarize`` and the games it summarizes. Kept apart from
the command, with matplotlib imported inside the functions, so that it loads only when
plots are written.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forest_shuffle.match import MatchResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The PNG files written next to ``stats.json``.
PLOTS: tuple[str, ...] = (
    "scores.png", "turns.png", "lines.png", "species_points.png", "species_played.png",
)
_KIND_COLOURS = {"tree": "#2e7d32", "shrub": "#9ccc65", "moor": "#b07aa1",
                 "dweller": "#8d6e63", "sapling": "#9e9e9e"}
#: The colour of a kind of species the table above does not name.
_OTHER_COLOUR = "#bab0ac"


def _figure(width: float, height: float) -> Figure:
    """A figure drawn by the Agg canvas (no pyplot, no global backend state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def title(summary: dict[str, Any]) -> str:
    game = summary.get("game", "base")
    return (f"{summary['bot']} self-play, {summary['players']} players, "
            f"{summary['games']} games (seed {summary['seed']})"
            + ("" if game == "base" else f", {game}"))


def _histogram(values: Sequence[float], *, title: str, xlabel: str, label: str,
               extra: Sequence[float] = (), extra_label: str = "") -> Figure:
    from matplotlib.ticker import MaxNLocator

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
    colours = [_KIND_COLOURS.get(row["kind"], _OTHER_COLOUR) for _, row in rows]
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
    from matplotlib.patches import Patch

    shown = {row["kind"] for row in summary["species"].values()}
    handles = [Patch(color=c, label=k) for k, c in _KIND_COLOURS.items() if k in shown]
    handles += [Patch(color=_OTHER_COLOUR, label=k) for k in sorted(shown - set(_KIND_COLOURS))]
    ax.legend(handles=handles, loc="lower right", frameon=False)
    return fig


def _lines_plot(summary: dict[str, Any], matches: Sequence[MatchResult]) -> Figure:
    players = summary["players"]
    lines = list(summary["lines"])  # the score-pad lines of the game
    data = [[float(m.lines[s][line]) for m in matches for s in range(players)]
            for line in lines]
    fig = _figure(9, 5.5)
    ax = fig.subplots()
    ax.boxplot(data, tick_labels=[line.replace("_", "/") for line in lines], showmeans=True,
               meanprops={"marker": "D", "markerfacecolor": "black", "markeredgecolor": "black",
                          "markersize": 5})
    for k, line in enumerate(lines, start=1):
        mean = summary["lines"][line]["mean"]
        ax.annotate(f"mean {mean:.1f}", (k + 0.27, mean), va="center", fontsize=9)
    ax.set_xlim(0.5, len(lines) + 0.9)
    ax.set_title(f"Score-pad lines per forest - {title(summary)}", fontsize=11)
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
            title=f"Final scores - {title(summary)}", xlabel="points"),
        "turns.png": _histogram(
            [m.turns for m in matches], title=f"Game length - {title(summary)}",
            xlabel="turns per game", label="games"),
        "lines.png": _lines_plot(summary, matches),
        "species_points.png": _species_bars(
            summary, "points_per_forest", fmt=".2f",
            title=f"Mean points per forest by species\n{title(summary)}",
            xlabel="points per forest (cave and saplings score none)"),
        "species_played.png": _species_bars(
            summary, "played_per_forest", fmt=".2f",
            title=f"Cards played per forest by species\n{title(summary)}",
            xlabel="copies in a finished forest (mean)"),
    }
    paths = []
    for name in PLOTS:
        fig = figures[name]
        path = out / name
        fig.savefig(path, dpi=110)
        paths.append(path)
    return paths
