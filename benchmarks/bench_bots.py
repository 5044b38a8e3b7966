"""Bot benchmark (not a timed test): greedy decisions per second, MCTS iterations per
second (tree search) and rollouts per second (paired racing, the default) at a mid-game
state, and a short head-to-head of two bots with seats alternated.

Usage: ``python benchmarks/bench_bots.py [--games 20] [--a mcts:time=0.3] [--b greedy]
[--players 2] [--seed 1] [--game base] [--json] [--fit GAMES]``

``--game`` is the game id (``base``, ``base+alpine``, ``base+woodland_edge``,
``base+alpine+woodland_edge``) of every measurement.

``--fit GAMES`` instead refits the ``hv=3`` evaluation of the search (``mcts.FIT_*``) on
GAMES 2-player greedy self-play games and prints the coefficients.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from forest_shuffle.bots import make_bot
from forest_shuffle.bots.greedy import greedy_action, greedy_view_action, hand_values
from forest_shuffle.bots.mcts import deck_left, race, search
from forest_shuffle.engine import GameState
from forest_shuffle.match import deal_seed

#: The features of the ``hv=3`` fit, per player: keep value of the hand, empty slots and
#: trees, each also times the fraction of the deck left, and whether it is to move.
FIT_FEATURES = ("hand", "hand*r", "free", "free*r", "trees", "trees*r", "to_move",
                "to_move*r")


def mid_game(seed: int, game: str = "base") -> GameState:
    """A 2-player state about halfway through a greedy game, at a turn decision."""
    state = GameState.new(2, seed, game=game)
    for _ in range(120):
        state.apply(greedy_action(state))
    while state.decision != "turn":
        state.apply(greedy_action(state))
    return state


def greedy_rate(seed: int, games: int = 5, game: str = "base") -> float:
    """Greedy decisions (from views, the exact variant) per second over whole games."""
    n, spent = 0, 0.0
    for g in range(games):
        state = GameState.new(2, seed + g, game=game)
        while not state.over:
            view = state.view(state.to_move or 0)
            start = time.perf_counter()
            a = greedy_view_action(view)
            spent += time.perf_counter() - start
            state.apply(a)
            n += 1
    return n / spent


def mcts_rate(seed: int, seconds: float = 2.0, game: str = "base") -> float:
    """ISMCTS iterations per second at a mid-game turn decision."""
    state = mid_game(seed, game)
    view = state.view(state.to_move or 0)
    start = time.monotonic()
    stats = search(view, start + seconds, 0, seed, 0.7, 2)
    return sum(v for v, _ in stats.values()) / (time.monotonic() - start)


def race_rate(seed: int, seconds: float = 2.0, game: str = "base") -> float:
    """Paired-racing rollouts per second at a mid-game turn decision (``race=1``; the
    race stops early when one candidate is left, so this counts rollouts over time used)."""
    state = mid_game(seed, game)
    view = state.view(state.to_move or 0)
    start = time.monotonic()
    stats = race(view, start + seconds, 0, seed, 2, hv=2, z=1e9)
    return sum(v for v, _ in stats.values()) / (time.monotonic() - start)


def head_to_head(a: str, b: str, games: int, players: int, seed: int,
                 game: str = "base") -> dict[str, Any]:
    """``a`` against ``b`` (the rest of the seats ``b``), seats alternated per deal."""
    wins = 0.0
    score_a = score_b = 0.0
    for g in range(games):
        deal = seed + g // 2
        seat = g % players if players > 2 else g % 2
        specs = [b] * players
        specs[seat] = a
        bots = [make_bot(s, deal * 10 + i) for i, s in enumerate(specs)]
        state = GameState.new(players, deal, game=game)
        while not state.over:
            p = state.to_move or 0
            state.apply(bots[p].choose(state.view(p)))
        sc = state.scores()
        others = max(v for i, v in enumerate(sc) if i != seat)
        wins += 1.0 if sc[seat] > others else 0.5 if sc[seat] == others else 0.0
        score_a += sc[seat]
        score_b += sum(v for i, v in enumerate(sc) if i != seat) / (players - 1)
    return {"game": game, "a": a, "b": b, "games": games, "win_rate_a": wins / games,
            "mean_score_a": score_a / games, "mean_score_b": score_b / games}


def _features(state: GameState, p: int) -> list[float]:
    r = deck_left(state)
    hand = sum(sorted(hand_values(state, p), reverse=True)[:state.game.hand_limit])
    f = state.forests[p]
    free = float(sum(1 for t in f.trees for st in t.slots.values() if not st))
    trees = float(len(f.trees))
    tom = 1.0 if state.to_move == p else 0.0
    return [hand, hand * r, free, free * r, trees, trees * r, tom, tom * r]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` (small, symmetric positive definite) by Gaussian elimination."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                k = m[r][col] / m[col][col]
                m[r] = [x - k * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit_evaluation(games: int, seed: int, game: str = "base") -> dict[str, float]:
    """Least squares of the final-score margin minus the current score difference on the
    feature differences of the two players, at every other turn decision of ``games``
    2-player games of the fast greedy against itself (the search's rollout policy)."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for g in range(games):
        state = GameState.new(2, deal_seed(seed, g), game=game)
        recs: list[tuple[list[float], int]] = []
        while not state.over:
            if state.decision == "turn" and state.turn % 2 == 0:
                sc = state.game.totals(state.forests)
                f0, f1 = _features(state, 0), _features(state, 1)
                recs.append(([x - y for x, y in zip(f0, f1, strict=True)], sc[0] - sc[1]))
            state.apply(greedy_action(state, exact=False))
        final = state.scores()
        for x, now in recs:
            xs.append(x)
            ys.append(float(final[0] - final[1] - now))
    k = len(FIT_FEATURES)
    ata = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    aty = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(k)]
    return dict(zip(FIT_FEATURES, _solve(ata, aty), strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--a", default="mcts:time=0.3")
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--fit", type=int, default=0, metavar="GAMES")
    ap.add_argument("--game", default="base", help="game id (base, base+alpine, ...)")
    args = ap.parse_args()
    if args.fit > 0:
        coef = fit_evaluation(args.fit, args.seed, args.game)
        print(json.dumps({k: round(v, 3) for k, v in coef.items()}, indent=1))
        return
    out: dict[str, Any] = {
        "game": args.game,
        "greedy_decisions_per_second": round(greedy_rate(args.seed, game=args.game)),
        "mcts_iterations_per_second": round(mcts_rate(args.seed, game=args.game)),
        "race_rollouts_per_second": round(race_rate(args.seed, game=args.game)),
    }
    if args.games > 0:
        out["head_to_head"] = head_to_head(args.a, args.b, args.games, args.players, args.seed,
                                           args.game)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    main()
