"""Throughput of the rules engine on one core, with uniformly random legal actions.

Reports, for 2- and 4-player games: random games per second, actions (decisions) per
second, uncached legal-action computations per second, clone cost at mid-game (each clone
dropped at once, so the garbage collector is not measured), to_dict/from_dict cost at
mid-game and end-of-game scoring throughput (tables per second via
:meth:`GameDef.totals`). Times are the process's CPU time. Every figure is
the median of ``--repeat`` rounds, with the min and max; the machine's load average is
printed before and after.

``--against OLD/src`` measures a second source tree interleaved with this one: each round
runs one subprocess per tree (``PYTHONPATH`` set to the tree), alternating which goes
first, and the table shows both side by side with the ratio of the medians.

``--game ID`` measures that game (``base`` by default; ``base+exploration``...).

Usage: ``python benchmarks/bench_engine.py [--games 200] [--repeat 5] [--seed 1] [--json]
[--profile] [--against OLD/src] [--pin CPU] [--game ID]`` (``--profile`` prints a cProfile
of the 2-player random games).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from forest_shuffle.engine import GameState
from forest_shuffle.formats.records import random_game
from forest_shuffle.games import UnknownGameError, make_game

HERE = Path(__file__).resolve().parents[1] / "src"
#: The game measured (``--game``).
GAME = "base"


def timed(fn: Callable[[], object]) -> float:
    """The CPU time of this process for one call of ``fn``, in seconds (on a loaded
    machine wall time also counts the time the core was taken away)."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def play_games(players: int, seeds: list[int]) -> list[GameState]:
    return [random_game(players, s, game=GAME) for s in seeds]


def mid_game_states(players: int, seeds: list[int]) -> list[GameState]:
    """For each seed, the state halfway (by decisions) through its random game."""
    out = []
    for seed in seeds:
        length = len(random_game(players, seed, game=GAME).history)
        state = GameState.new(players, seed, game=GAME)
        rng = random.Random(seed)
        for _ in range(length // 2):
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def sampled_states(players: int, seeds: list[int], every: int = 7) -> list[GameState]:
    """Clones of every ``every``-th decision point of random games (all kinds of decision)."""
    out = []
    for seed in seeds:
        state = GameState.new(players, seed, game=GAME)
        rng = random.Random(seed)
        k = 0
        while not state.over:
            if k % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            k += 1
    return out


def clone_each(states: list[GameState], times: int) -> None:
    """Clone every state ``times`` times, dropping each clone at once."""
    for s in states:
        for _ in range(times):
            s.clone()


def measure(players: int, games: int, seed: int) -> dict[str, float]:
    """One round of every figure for ``players``-player games."""
    seeds = [seed * 100_003 + i for i in range(games)]
    finished: list[GameState] = []
    t_games = timed(lambda: finished.extend(play_games(players, seeds)))
    decisions = sum(len(s.history) for s in finished)

    samples = sampled_states(players, seeds[: max(1, games // 4)])

    def legal_all() -> None:
        for s in samples:
            s._legal = None  # time the computation, not the cache
            s.legal_actions()

    t_legal = timed(legal_all)
    mids = mid_game_states(players, seeds[: max(1, games // 4)])
    t_clone = timed(lambda: clone_each(mids, 10))
    t_to = timed(lambda: [s.to_dict() for s in mids for _ in range(10)])
    dicts = [s.to_dict() for s in mids]
    t_from = timed(lambda: [GameState.from_dict(d) for d in dicts for _ in range(10)])
    tables = [s.forests for s in finished]
    totals = make_game(GAME).totals_fn()  # the game's scorer, its definition's
    t_score = timed(lambda: [totals(f) for f in tables])
    n_mid = len(mids) * 10
    return {
        "games_per_s": games / t_games,
        "actions_per_s": decisions / t_games,
        "avg_decisions": decisions / games,
        "legal_calls_per_s": len(samples) / t_legal,
        "clone_us": t_clone / n_mid * 1e6,
        "to_dict_us": t_to / n_mid * 1e6,
        "from_dict_us": t_from / n_mid * 1e6,
        "score_tables_per_s": len(tables) / t_score,
    }


ROWS: tuple[tuple[str, str, str], ...] = (
    ("games_per_s", "random games / s", "{:,.0f}"),
    ("actions_per_s", "actions (decisions) / s", "{:,.0f}"),
    ("avg_decisions", "decisions per game", "{:,.1f}"),
    ("legal_calls_per_s", "legal_actions() uncached / s", "{:,.0f}"),
    ("clone_us", "clone at mid-game (us)", "{:,.1f}"),
    ("to_dict_us", "to_dict at mid-game (us)", "{:,.1f}"),
    ("from_dict_us", "from_dict at mid-game (us)", "{:,.1f}"),
    ("score_tables_per_s", "scoring.totals end tables / s", "{:,.0f}"),
)
PLAYERS = (2, 4)


def one_round(games: int, seed: int) -> dict[str, dict[str, float]]:
    """Every figure once, for each player count (keyed by the count as text)."""
    return {str(n): measure(n, games, seed) for n in PLAYERS}


def run_tree(src: Path, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """One round in a subprocess importing forest_shuffle from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--games",
           str(args.games), "--seed", str(args.seed), "--game", args.game]
    if args.pin is not None:
        cmd += ["--pin", str(args.pin)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, dict[str, float]] = json.loads(out)
    return result


def summary(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, list[float]]]:
    """Per player count and figure: [median, min, max] over the rounds."""
    out: dict[str, dict[str, list[float]]] = {}
    for n in rounds[0]:
        out[n] = {}
        for key in rounds[0][n]:
            vals = [r[n][key] for r in rounds]
            out[n][key] = [statistics.median(vals), min(vals), max(vals)]
    return out


def cell(fmt: str, mmm: list[float]) -> str:
    med, lo, hi = (fmt.format(v) for v in mmm)
    return f"{med} ({lo}-{hi})"


def print_table(trees: dict[str, dict[str, dict[str, list[float]]]]) -> None:
    names = list(trees)
    cols = [(name, n) for n in (str(p) for p in PLAYERS) for name in names]
    heads = [f"{name}, {n}p" for name, n in cols]
    cells = {key: [cell(fmt, trees[name][n][key]) for name, n in cols]
             for key, _label, fmt in ROWS}
    width = max(len(label) for _, label, _ in ROWS)
    cw = max(max(len(h) for h in heads), *(len(c) for cs in cells.values() for c in cs))
    print(f"{'median (min-max)':{width}}  " + "  ".join(f"{h:>{cw}}" for h in heads))
    for key, label, _fmt in ROWS:
        print(f"{label:{width}}  " + "  ".join(f"{c:>{cw}}" for c in cells[key]))
    if len(names) == 2:
        new, old = names
        print(f"\nratio {new} / {old} of the medians (per-second rows: above 1 is faster; "
              "us rows: below 1 is faster):")
        for key, label, _fmt in ROWS:
            ratios = "  ".join(
                f"{n}p {trees[new][n][key][0] / trees[old][n][key][0]:.2f}x"
                for n in (str(p) for p in PLAYERS))
            print(f"  {label:{width}}  {ratios}")


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5, help="rounds (median, min, max)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="also profile 2-player random games with cProfile")
    parser.add_argument("--against", type=Path, default=None,
                        help="another tree's src directory, measured interleaved")
    parser.add_argument("--pin", type=int, default=None, help="run on this CPU only")
    parser.add_argument("--game", default="base", help="the game id measured (base)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global GAME
    try:
        GAME = make_game(args.game).id
    except UnknownGameError as bad:
        parser.error(str(bad))
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})
    if args.worker:
        print(json.dumps(one_round(args.games, args.seed)))
        return
    load_before = load()
    trees: dict[str, dict[str, dict[str, list[float]]]]
    if args.against is None:
        trees = {"this": summary([one_round(args.games, args.seed)
                                  for _ in range(args.repeat)])}
    else:
        mine: list[dict[str, dict[str, float]]] = []
        theirs: list[dict[str, dict[str, float]]] = []
        for r in range(args.repeat):  # alternate which tree goes first
            order = [(HERE, mine), (args.against, theirs)]
            for src, into in order if r % 2 == 0 else order[::-1]:
                into.append(run_tree(src, args))
        trees = {"this": summary(mine), "other": summary(theirs)}
    if args.json:
        print(json.dumps({"load_before": load_before, "load_after": load(), "trees": trees},
                         indent=2))
    else:
        print(f"{args.repeat} rounds of {args.games} games of {GAME}; {load_before} (before), "
              f"{load()} (after)")
        if args.against is not None:
            print(f"this = {HERE}, other = {args.against}")
        print_table(trees)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play_games(2, list(range(args.games)))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
