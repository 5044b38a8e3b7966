"""Environment steps per second of the research interfaces, on one core.

Plays whole games by uniformly random legal actions and counts decisions (steps):

- ``engine``: the bare engine (``GameState.legal_actions`` / ``apply``), for reference;
- ``pettingzoo``: the wrapped PettingZoo env (``env()``): ``last()`` (observation and mask
  of the agent to move) and ``step`` for every decision;
- ``openspiel``: the pyspiel state: ``legal_actions``, ``apply_action``;
- ``openspiel+observer``: the same and the mover's information state tensor each step, read
  through an observer (``game.make_py_observer(...).set_from``: the array in place;
  ``state.information_state_tensor(p)`` returns a list of some 33,000 Python floats and is
  several times slower).

Each figure is the median, min and max over ``--runs`` runs of ``--games`` games (the same
deals in every run). Prints the machine's load (``uptime``) first: the figures are only
comparable at the same load.

Usage: ``python benchmarks/bench_rl.py [--players 2] [--game base] [--runs 5] [--games 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import forest_shuffle.rl.openspiel_game as osg
from forest_shuffle.engine.state import GameState
from forest_shuffle.rl.pettingzoo_env import env


def engine_steps(n: int, gid: str, seed: int) -> int:
    rng = random.Random(seed)
    s = GameState.new(n, seed, game=gid)
    steps = 0
    while not s.over:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def pettingzoo_steps(n: int, gid: str, seed: int) -> int:
    rng = np.random.default_rng(seed)
    e = env(n, gid, seed=seed)
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


def openspiel_steps(n: int, gid: str, seed: int, tensor: bool) -> int:
    rng = random.Random(seed)
    game = pyspiel.load_game(osg.SHORT_NAME, {"players": n, "game": gid})
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.randrange(256))
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    steps = 0
    while not s.is_terminal():
        if tensor:
            observer.set_from(s, s.current_player())
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def measure(play: Callable[[int], int], games: int, runs: int) -> list[float]:
    """Steps per second of each run (``games`` games with seeds 1..games)."""
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        steps = sum(play(seed) for seed in range(1, games + 1))
        rates.append(steps / (time.perf_counter() - start))
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--game", default="base")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    n, gid = args.players, args.game
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"uptime: {load}")
    print(f"{gid}, {n} players, {args.runs} runs of {args.games} random games")
    cases: dict[str, Callable[[int], int]] = {
        "engine": lambda seed: engine_steps(n, gid, seed),
        "pettingzoo": lambda seed: pettingzoo_steps(n, gid, seed),
        "openspiel": lambda seed: openspiel_steps(n, gid, seed, False),
        "openspiel+observer": lambda seed: openspiel_steps(n, gid, seed, True),
    }
    for name, play in cases.items():
        rates = measure(play, args.games, args.runs)
        print(f"{name:18s} steps/s median {statistics.median(rates):8.0f}  "
              f"min {min(rates):8.0f}  max {max(rates):8.0f}")


if __name__ == "__main__":
    main()
