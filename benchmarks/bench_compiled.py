"""Pure Python against the compiled build (mypyc, docs/speed.md): games and tables a second.

Measures, each in a fresh subprocess of its own and in interleaved rounds (pure, compiled,
pure, compiled, ...), so that a change of the machine's load falls on both alike:

- ``games``: random 2-player games of the base game (uniform legal actions,
  :func:`forest_shuffle.formats.records.random_game`, no scoring) per second;
- ``play tables``: :func:`forest_shuffle.scoring.totals` of the end tables of random
  2-player games per second;
- ``made tables``: the same on generated 2-player tables (``bench_scoring.random_table``:
  about 8 trees and 20 dwellers a forest).

Prints the median with min and max over the rounds for each, the ratio of the medians,
each interpreter's build (``forest_shuffle.compiled()``) and the load average before and
after. The pure side is this checkout's ``src`` (``PYTHONPATH=src``); the compiled side is
the interpreter given by ``--compiled`` or ``FOREST_SHUFFLE_COMPILED_PYTHON``. ``--against
OLD/src`` adds the random games of an older source tree (pure, in the same rounds; the
older layout with ``forest_shuffle.records`` works too) and each side's ratio to it, as
issue 14 asks its aims against commit fe3c820 (tables: ``bench_scoring.py --against``).

Usage: ``python benchmarks/bench_compiled.py [--compiled /tmp/venv-compiled/bin/python]
[--against /tmp/fe3c820/src] [--rounds 5] [--games 200] [--tables 2000] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MEASURES = ("games", "play tables", "made tables")


def _worker(what: str, count: int) -> dict[str, Any]:
    """One measurement in this process: the rate of ``what`` over ``count`` items."""
    import forest_shuffle

    try:
        from forest_shuffle.formats.records import random_game
    except ImportError:  # an older tree (--against): records was a top-level module
        from forest_shuffle.records import random_game  # type: ignore[import-not-found,no-redef]
    from forest_shuffle.scoring import totals
    try:  # the game's own scorer (a definition holds one since issue 39)
        from forest_shuffle.games import make_game

        totals = make_game().totals_fn()  # type: ignore[assignment]
    except (ImportError, AttributeError):  # an older tree scores through the module
        pass

    if what == "games":
        seeds = range(10_000, 10_000 + count)
        random_game(2, 1)  # warm the game definition and caches
        start = time.perf_counter()
        for s in seeds:
            random_game(2, s)
        elapsed = time.perf_counter() - start
    else:
        if what == "play tables":
            tables = [random_game(2, s).forests for s in range(count // 10)]
        else:
            from bench_scoring import random_table

            from forest_shuffle.games import make_game

            rng = random.Random(1)
            catalog = make_game().catalog
            tables = [random_table(catalog, rng, 2) for _ in range(count // 10)]
        for t in tables:
            totals(t)  # warm the scorer's plans
        start = time.perf_counter()
        for _ in range(10):
            for t in tables:
                totals(t)
        elapsed = time.perf_counter() - start
    compiled = getattr(forest_shuffle, "compiled", list)()  # an older tree has none
    return {"rate": count / elapsed, "compiled": compiled}


def _run(python: str, src: Path | None, what: str, count: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    out = subprocess.run([python, str(Path(__file__).resolve()), "--worker", what,
                          "--count", str(count)], env=env, cwd="/", check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--compiled", default=os.environ.get("FOREST_SHUFFLE_COMPILED_PYTHON"),
                        help="the interpreter of the compiled install")
    parser.add_argument("--pure", default=sys.executable,
                        help="the interpreter for the pure side (run with PYTHONPATH=src)")
    parser.add_argument("--against", type=Path, default=None,
                        help="an older tree's src, its random games measured pure beside")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", choices=MEASURES, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_worker(args.worker, args.count)))
        return
    if not args.compiled:
        parser.error("no compiled interpreter: give --compiled or set "
                     "FOREST_SHUFFLE_COMPILED_PYTHON (docs/speed.md)")
    sides: dict[str, tuple[str, Path | None]] = {"pure": (args.pure, ROOT / "src"),
                                                 "compiled": (args.compiled, None)}
    counts = {"games": args.games, "play tables": args.tables, "made tables": args.tables}
    rates: dict[str, dict[str, list[float]]] = {s: {m: [] for m in MEASURES} for s in sides}
    old: list[float] = []
    builds: dict[str, list[str]] = {}
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for what in MEASURES:
            for side, (python, src) in sides.items():
                r = _run(python, src, what, counts[what])
                rates[side][what].append(r["rate"])
                builds[side] = r["compiled"]
            if what == "games" and args.against is not None:
                old.append(_run(args.pure, args.against, what, counts[what])["rate"])
    load_after = os.getloadavg()
    if builds["compiled"] == [] or builds["pure"] != []:
        sys.exit(f"bench_compiled: the compiled side runs {len(builds['compiled'])} compiled "
                 f"modules and the pure side {len(builds['pure'])}: check the interpreters")
    summary = {
        side: {what: {"median": statistics.median(v), "min": min(v), "max": max(v)}
               for what, v in per.items()}
        for side, per in rates.items()
    }
    ratios = {what: summary["compiled"][what]["median"] / summary["pure"][what]["median"]
              for what in MEASURES}
    against = None
    if old:
        against = {"src": str(args.against), "median": statistics.median(old), "min": min(old),
                   "max": max(old)}
        against["pure_ratio"] = summary["pure"]["games"]["median"] / against["median"]
        against["compiled_ratio"] = summary["compiled"]["games"]["median"] / against["median"]
    if args.json:
        print(json.dumps({"rounds": args.rounds, "load_before": load_before,
                          "load_after": load_after, "summary": summary, "ratios": ratios,
                          "against": against, "compiled_modules": builds["compiled"]},
                         indent=2))
        return
    print(f"pure: {args.pure} with PYTHONPATH=src (pure Python)")
    print(f"compiled: {args.compiled} ({len(builds['compiled'])} modules compiled)")
    print(f"{args.rounds} interleaved rounds, each figure from its own process; "
          f"2 players; load average before {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f} "
          f"{load_after[2]:.2f} ({os.cpu_count()} cores)")
    print(f"{'per second':<26}{'pure median (min-max)':>28}{'compiled median (min-max)':>30}"
          f"{'ratio':>8}")
    for what, label in zip(MEASURES, ("random games", "totals, random-play tables",
                                      "totals, generated tables"), strict=True):
        cells = []
        for side in sides:
            s = summary[side][what]
            cells.append(f"{s['median']:,.0f} ({s['min']:,.0f}-{s['max']:,.0f})")
        print(f"{label:<26}{cells[0]:>28}{cells[1]:>30}{ratios[what]:>7.2f}x")
    if against is not None:
        print(f"random games of {against['src']} (pure): {against['median']:,.0f} "
              f"({against['min']:,.0f}-{against['max']:,.0f}); this tree pure "
              f"{against['pure_ratio']:.2f}x, compiled {against['compiled_ratio']:.2f}x of it")


if __name__ == "__main__":
    main()
