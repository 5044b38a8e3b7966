"""Environment steps per second of the research interfaces, on one core.

Plays whole games by uniformly random legal actions and counts decisions (steps):

- ``engine``: the bare engine (``GameState.legal_actions`` / ``apply``), for reference;
- ``pettingzoo``: the wrapped PettingZoo env (``env()``): ``last()`` (observation and mask
  of the agent to move) and ``step`` for every decision;
- ``openspiel``: the pyspiel state: ``legal_actions``, ``apply_action``;
- ``openspiel+observer``: the same and the mover's information state tensor each step, read
  through an observer (``game.make_py_observer(...).set_from``: the array in place;
  ``state.information_state_tensor(p)`` returns a list of some 33,000 Python floats and is
  several times slower);
- ``openspiel+array``: the same with ``state.information_state_array(p)`` (a new numpy
  array each step, no Python list);
- ``pettingzoo-compact``: ``env(compact=True)``: ``last()`` (compact observation and mask)
  and ``step`` for every step (a half play is two steps);
- ``gym-compact``: the Gymnasium environment against random bots (``ForestShuffleEnv``):
  ``action_masks()`` and ``step`` per learner step; the bots' decisions run inside ``step``
  (the line also gives all seats' decisions per second);
- ``batch-compact``: ``BatchEnv`` of ``--batch`` games, one numpy array of actions in and
  arrays out per call (random legal ids drawn from the masks with numpy), steps counted per
  game.

Each figure is the median, min and max over ``--runs`` runs of ``--games`` games (the same
deals in every run), in steps per second of the process's CPU time (``time.process_time``:
one core's work, so other processes on a shared machine slow it much less than they slow
the wall clock; ``--wall`` counts wall-clock seconds instead). Prints the machine's load
(``uptime``) first.

``--against OLD/src`` measures this tree and another one (an older checkout's ``src``) in
one run: each of the ``--runs`` rounds runs every case once in a fresh interpreter per
tree, the two trees taking turns, so both meet the same load; the figures of both and
their ratio are printed. With ``--instructions`` it counts instead, in each tree, the
instructions a step of each case costs (valgrind's callgrind, ``apt-get install
valgrind``; the difference between a run of 1 + ``--runs`` rounds of the games and a run
of 1, divided by the steps of the extra rounds, so start-up, imports and the first
game's tables cancel out): free of the load, and steady to a few per cent.

Usage: ``python benchmarks/bench_rl.py [--players 2] [--game base] [--runs 5] [--games 3]
[--batch 32] [--cases engine,gym-compact,...] [--against OLD/src]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel

import forest_shuffle.rl.openspiel_game as osg
from forest_shuffle.engine.state import GameState
from forest_shuffle.rl.gym_env import BatchEnv, ForestShuffleEnv
from forest_shuffle.rl.pettingzoo_env import env

#: Decisions of all seats in the last gym-compact run (for its second figure).
DECISIONS = [0]


def engine_steps(n: int, gid: str, seed: int) -> int:
    rng = random.Random(seed)
    s = GameState.new(n, seed, game=gid)
    steps = 0
    while not s.over:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def pettingzoo_steps(n: int, gid: str, seed: int, compact: bool = False) -> int:
    rng = np.random.default_rng(seed)
    e = env(n, gid, seed=seed, compact=compact)
    e.reset(seed=seed)
    steps = 0
    for _agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"].view(np.bool_))
        e.step(int(ids[rng.integers(len(ids))]))
        steps += 1
    return steps


def gym_steps(n: int, gid: str, seed: int) -> int:
    rng = random.Random(seed)
    e = ForestShuffleEnv(gid, n, "random")
    e.reset(seed=seed)
    steps = 0
    while True:
        ids = np.flatnonzero(e.action_masks())
        _obs, _r, term, _t, _i = e.step(int(ids[rng.randrange(len(ids))]))
        steps += 1
        if term:
            DECISIONS[0] += len(e.state.history)
            return steps


def batch_steps(n: int, gid: str, seed: int, size: int, calls: int) -> int:
    rng = np.random.default_rng(seed)
    batch = BatchEnv(size, gid, n, "random", seed=seed)
    _obs, masks = batch.reset()
    for _ in range(calls):
        # a random legal id per game: the largest of uniform draws over the legal ids
        pick = (masks * rng.random(masks.shape, dtype=np.float32)).argmax(axis=1)
        _obs, masks, _r, _term, _final = batch.step(pick)
    return size * calls


def openspiel_steps(n: int, gid: str, seed: int, tensor: bool | str) -> int:
    rng = random.Random(seed)
    game = pyspiel.load_game(osg.SHORT_NAME, {"players": n, "game": gid})
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.randrange(256))
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    steps = 0
    while not s.is_terminal():
        if tensor == "array":
            s.information_state_array(s.current_player())
        elif tensor:
            observer.set_from(s, s.current_player())
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


CLOCK = [time.process_time]


def measure(play: Callable[[int], int], games: int, runs: int) -> list[float]:
    """Steps per second of each run (``games`` games with seeds 1..games)."""
    rates = []
    clock = CLOCK[0]
    for _ in range(runs):
        start = clock()
        steps = sum(play(seed) for seed in range(1, games + 1))
        rates.append(steps / (clock() - start))
    STEPS[0] = steps
    return rates


#: Steps of one run of the last case measured.
STEPS = [0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--game", default="base")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32, help="games in a batch-compact call")
    ap.add_argument("--cases", default="", help="comma-separated cases (default: all)")
    ap.add_argument("--wall", action="store_true", help="wall-clock seconds, not CPU time")
    ap.add_argument("--against", type=Path, help="another tree's src/ to measure beside this")
    ap.add_argument("--instructions", action="store_true",
                    help="with --against: callgrind's instructions a step, not the clock")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one tree's rates
    args = ap.parse_args()
    if args.against is not None:
        if args.instructions:
            count_both(args)
        else:
            compare(args)
        return
    if args.wall:
        CLOCK[0] = time.perf_counter
    n, gid = args.players, args.game
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"uptime: {load}")
    print(f"{gid}, {n} players, {args.runs} runs of {args.games} random games, "
          f"{'wall-clock' if args.wall else 'CPU'} seconds")
    cases: dict[str, Callable[[int], int]] = {
        "engine": lambda seed: engine_steps(n, gid, seed),
        "pettingzoo": lambda seed: pettingzoo_steps(n, gid, seed),
        "openspiel": lambda seed: openspiel_steps(n, gid, seed, False),
        "openspiel+observer": lambda seed: openspiel_steps(n, gid, seed, True),
        "openspiel+array": lambda seed: openspiel_steps(n, gid, seed, "array"),
        "pettingzoo-compact": lambda seed: pettingzoo_steps(n, gid, seed, True),
        "gym-compact": lambda seed: gym_steps(n, gid, seed),
        # about as many game steps per run as the other cases' games
        "batch-compact": lambda seed: batch_steps(n, gid, seed, args.batch,
                                                  max(1, 200 // n)),
    }
    wanted = [c for c in args.cases.split(",") if c] or list(cases)
    for name in wanted:
        if name not in cases:
            raise SystemExit(f"unknown case {name!r} (known: {', '.join(cases)})")
    if args.json:
        out: dict[str, list[float]] = {}
        for name in wanted:
            out[name] = measure(cases[name], args.games, args.runs)
            out[f"{name}:steps"] = [STEPS[0]]
        print(json.dumps(out))
        return
    for name in wanted:
        DECISIONS[0] = 0
        start = CLOCK[0]()
        rates = measure(cases[name], args.games, args.runs)
        extra = ""
        if name == "gym-compact":
            per = DECISIONS[0] / (CLOCK[0]() - start)
            extra = f"  (all seats' decisions/s, all runs: {per:8.0f})"
        print(f"{name:18s} steps/s median {statistics.median(rates):8.0f}  "
              f"min {min(rates):8.0f}  max {max(rates):8.0f}{extra}")


def compare(args: argparse.Namespace) -> None:
    """This tree against ``args.against``, rounds taking turns (see the module doc)."""
    here = Path(__file__).resolve().parent.parent / "src"
    trees = {"this": here, "other": args.against.resolve()}
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"uptime: {load}")
    print(f"{args.game}, {args.players} players, {args.runs} rounds of {args.games} random "
          f"games per tree, {'wall-clock' if args.wall else 'CPU'} seconds; this: {here}, "
          f"other: {trees['other']}")
    rates: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
    for k in range(args.runs):
        for tree in (("this", "other") if k % 2 == 0 else ("other", "this")):
            cmd = [sys.executable, __file__, "--players", str(args.players), "--game",
                   args.game, "--runs", "1", "--games", str(args.games), "--batch",
                   str(args.batch), "--cases", args.cases, "--json"]
            if args.wall:
                cmd.append("--wall")
            env = dict(os.environ, PYTHONPATH=str(trees[tree]))
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            for case, got in json.loads(out.stdout.strip().splitlines()[-1]).items():
                if not case.endswith(":steps"):
                    rates[tree].setdefault(case, []).extend(got)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"uptime: {load}")
    for case in rates["this"]:
        a, b = rates["this"][case], rates["other"][case]
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"{case:18s} this median {ma:8.0f} min {min(a):8.0f} max {max(a):8.0f} | "
              f"other median {mb:8.0f} min {min(b):8.0f} max {max(b):8.0f} | "
              f"this/other {ma / mb:5.2f}")


def count_both(args: argparse.Namespace) -> None:
    """Instructions a step of each case in this tree and in ``args.against``."""
    here = Path(__file__).resolve().parent.parent / "src"
    trees = {"this": here, "other": args.against.resolve()}
    print(f"{args.game}, {args.players} players, {args.games} random games, "
          f"{args.runs} rounds counted by callgrind; this: {here}, other: {trees['other']}")

    def count(tree: Path, case: str, runs: int) -> tuple[int, int]:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--players", str(args.players), "--game",
               args.game, "--runs", str(runs), "--games", str(args.games), "--batch",
               str(args.batch), "--cases", case, "--json"]
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        found = re.search(r"Collected : (\d+)", out.stderr)
        if found is None:
            raise SystemExit(f"no instruction count from callgrind: {out.stderr[-300:]}")
        steps = json.loads(out.stdout.strip().splitlines()[-1])[f"{case}:steps"][0]
        return int(found.group(1)), int(steps)

    for case in [c for c in args.cases.split(",") if c]:
        per = {}
        for name, tree in trees.items():
            (big, steps), (small, _s) = count(tree, case, 1 + args.runs), count(tree, case, 1)
            per[name] = (big - small) / (args.runs * steps)
        print(f"{case:18s} this {per['this']:10,.0f}  other {per['other']:10,.0f} "
              f"instructions a step; this/other {per['this'] / per['other']:.3f}")


if __name__ == "__main__":
    main()
