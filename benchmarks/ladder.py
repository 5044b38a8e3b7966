"""A ladder of bots: one round robin of 2-player matches, Elo-like ratings, a table and a plot.

Usage: ``python benchmarks/ladder.py [--bots random,greedy,mcts:time=0.3,learned:time=0.3]
[--games 8] [--seed 2050] [--workers 1] [--journal DIR] [--plot docs/ladder.png]
[--json]``

Every pair of bots plays ``--games`` 2-player games (:func:`forest_shuffle.match.tournament`:
deals replayed with the seats swapped). The ratings are the Bradley-Terry model fitted to
all the results by the minorization-maximization iteration (a shared victory counts half
to each), written as Elo points (400 log10 of the odds) with the first bot at 0; a game won
by every bot of a pair against another leaves its rating unbounded, so each pair's record
gets one drawn game of prior (half a win each way). Prints a markdown table (rating, games,
wins, mean score, seconds a decision) and, with ``--plot``, draws the ratings with
matplotlib. Seconds budgets depend on the machine's load (printed).

``--journal DIR`` keeps one tournament journal a pair in DIR (:mod:`forest_shuffle.journal`,
``pair-K.jsonl`` for the K-th pair of the round robin, K from 0), written game by game: the
same command run again plays only the games missing, and a larger ``--games`` extends every
pair on the same deals, so a long ladder can be played over several sittings. The time and
load printed are this run's; the ratings are those of every game in the journals.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from forest_shuffle.cli.commands.tournament import parse_bots
from forest_shuffle.journal import Journal, open_journal
from forest_shuffle.match import MatchResult, tournament


def bradley_terry(bots: list[str], wins: dict[tuple[str, str], float],
                  games: dict[tuple[str, str], int], rounds: int = 2000) -> dict[str, float]:
    """Elo-like ratings (first bot 0) from pairwise wins (``wins[a, b]``: a's wins over b)
    and games; each pair gets half a win each way as a prior."""
    strength = dict.fromkeys(bots, 1.0)
    w = {b: sum(wins.get((b, o), 0.0) + 0.5 * ((b, o) in games) for o in bots if o != b)
         for b in bots}
    for _ in range(rounds):
        new = {}
        for b in bots:
            den = 0.0
            for o in bots:
                if o == b:
                    continue
                n = games.get((b, o), 0)
                if n:
                    den += (n + 1) / (strength[b] + strength[o])
            new[b] = w[b] / den if den else strength[b]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {b: v / g for b, v in new.items()}
    ref = strength[bots[0]]
    return {b: 400.0 * math.log10(strength[b] / ref) for b in bots}


def run(bots: list[str], games: int, seed: int, workers: int,
        journal: Path | None = None) -> dict[str, Any]:
    """Play the round robin (resuming from the journals in ``journal``, a directory, when
    given) and rate the bots."""
    load0 = os.getloadavg()[0]
    start = time.perf_counter()
    wins: dict[tuple[str, str], float] = defaultdict(float)
    played: dict[tuple[str, str], int] = defaultdict(int)
    score: dict[str, list[float]] = defaultdict(list)
    secs: dict[str, list[float]] = defaultdict(list)
    pairs = []
    for k, (a, b) in enumerate(itertools.combinations(bots, 2)):
        done: dict[int, MatchResult] = {}
        book: Journal | None = None
        if journal is not None:
            journal.mkdir(parents=True, exist_ok=True)
            book, done = open_journal(journal / f"pair-{k}.jsonl", "base", (a, b), 2, seed + k)
        try:
            res = tournament([a, b], games, 2, seed + k, workers, done=done,
                             on_result=None if book is None else book.write)
        finally:
            if book is not None:
                book.close()
        sa, sb = res.stats
        wins[a, b] += sa.wins
        wins[b, a] += sb.wins
        played[a, b] += res.games
        played[b, a] += res.games
        for s in (sa, sb):
            score[s.bot].append(s.mean_score)
            secs[s.bot].append(s.seconds_per_decision)
        pairs.append({"a": a, "b": b, "games": res.games, "a_wins": sa.wins,
                      "a_score": sa.mean_score, "b_score": sb.mean_score})
    ratings = bradley_terry(bots, dict(wins), dict(played))
    table: list[dict[str, Any]] = []
    for b in bots:
        n = sum(played[b, o] for o in bots if o != b)
        table.append({"bot": b, "elo": ratings[b], "games": n,
                      "wins": sum(wins[b, o] for o in bots if o != b),
                      "mean_score": sum(score[b]) / len(score[b]),
                      "seconds_per_decision": sum(secs[b]) / len(secs[b])})
    table.sort(key=lambda r: -r["elo"])
    return {"bots": bots, "games_per_pair": games, "seed": seed, "table": table,
            "pairs": pairs, "load": [load0, os.getloadavg()[0]],
            "minutes": (time.perf_counter() - start) / 60}


def plot(result: dict[str, Any], path: str) -> None:
    """A horizontal bar chart of the ratings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["table"][::-1]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    ax.barh([r["bot"] for r in rows], [r["elo"] for r in rows], color="#4a7d4a")
    ax.set_xlabel(f"Elo-like rating ({result['bots'][0]} = 0)")
    ax.set_title(f"Round robin, 2 players, {result['games_per_pair']} games a pair "
                 f"(seed {result['seed']})")
    ax.axvline(0, color="#888", lw=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="random,greedy,mcts:time=0.3,learned:time=0.3")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2050)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--journal", default="", metavar="DIR")
    ap.add_argument("--plot", default="")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = run(parse_bots(args.bots), args.games, args.seed, args.workers,
                 Path(args.journal) if args.journal else None)
    if args.plot:
        plot(result, args.plot)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.games} games a pair, seed {args.seed}, load {result['load'][0]:.1f}->"
          f"{result['load'][1]:.1f}, {result['minutes']:.1f} min\n")
    print("| bot | rating | games | wins | mean score | s a decision |")
    print("|---|---|---|---|---|---|")
    for r in result["table"]:
        print(f"| `{r['bot']}` | {r['elo']:+.0f} | {r['games']} | {r['wins']:g} | "
              f"{r['mean_score']:.0f} | {r['seconds_per_decision']:.3f} |")


if __name__ == "__main__":
    main()
