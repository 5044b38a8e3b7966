"""Throughput of the rules engine on one core, with uniformly random legal actions.

Reports, for 2- and 4-player games: games per second, actions (decisions) per second,
uncached legal-action computations per second, clone cost at mid-game, to_dict/from_dict
cost at mid-game and end-of-game scoring throughput (tables per second via
:func:`forest_shuffle.scoring.totals`). Each timing is the best of ``--repeat`` runs.

Usage: ``python benchmarks/bench_engine.py [--games 200] [--repeat 3] [--seed 1] [--json]
[--profile]`` (``--profile`` prints a cProfile of the 2-player random games).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import time
from collections.abc import Callable
from typing import Any

from forest_shuffle.engine import GameState
from forest_shuffle.formats.records import random_game
from forest_shuffle.scoring import totals


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """The shortest wall time of ``repeat`` calls of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def play_games(players: int, seeds: list[int]) -> list[GameState]:
    return [random_game(players, s) for s in seeds]


def mid_game_states(players: int, seeds: list[int]) -> list[GameState]:
    """For each seed, the state halfway (by decisions) through its random game."""
    out = []
    for seed in seeds:
        length = len(random_game(players, seed).history)
        state = GameState.new(players, seed)
        rng = random.Random(seed)
        for _ in range(length // 2):
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def sampled_states(players: int, seeds: list[int], every: int = 7) -> list[GameState]:
    """Clones of every ``every``-th decision point of random games (all kinds of decision)."""
    out = []
    for seed in seeds:
        state = GameState.new(players, seed)
        rng = random.Random(seed)
        k = 0
        while not state.over:
            if k % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            k += 1
    return out


def measure(players: int, games: int, repeat: int, seed: int) -> dict[str, float]:
    seeds = [seed * 100_003 + i for i in range(games)]
    finished = play_games(players, seeds)
    decisions = sum(len(s.history) for s in finished)
    t_games = best_of(repeat, lambda: play_games(players, seeds))

    samples = sampled_states(players, seeds[: max(1, games // 4)])

    def legal_all() -> None:
        for s in samples:
            s._legal = None  # time the computation, not the cache
            s.legal_actions()

    t_legal = best_of(repeat, legal_all)

    mids = mid_game_states(players, seeds[: max(1, games // 4)])
    t_clone = best_of(repeat, lambda: [s.clone() for s in mids for _ in range(10)])
    t_to = best_of(repeat, lambda: [s.to_dict() for s in mids for _ in range(10)])
    dicts = [s.to_dict() for s in mids]
    t_from = best_of(repeat, lambda: [GameState.from_dict(d) for d in dicts for _ in range(10)])
    tables = [s.forests for s in finished]
    t_score = best_of(repeat, lambda: [totals(f) for f in tables])
    n_mid = len(mids) * 10
    return {
        "players": players,
        "games": games,
        "avg_decisions": decisions / games,
        "games_per_s": games / t_games,
        "actions_per_s": decisions / t_games,
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="also profile 2-player random games with cProfile")
    args = parser.parse_args()
    results: list[dict[str, Any]] = [measure(n, args.games, args.repeat, args.seed)
                                     for n in (2, 4)]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        width = max(len(label) for _, label, _ in ROWS)
        print(f"{'':{width}}  {'2 players':>12}  {'4 players':>12}")
        for key, label, fmt in ROWS:
            cells = "  ".join(f"{fmt.format(r[key]):>12}" for r in results)
            print(f"{label:{width}}  {cells}")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play_games(2, list(range(args.games)))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
