"""Self-play data for the learned evaluation: positions seen by the mover, and how the game ended.

Contract: :func:`plan` turns a seed and a mix of bot line-ups into jobs: for every player
count and line-up, deals (game seeds derived from the seed, ``engine.setup.derive``) replayed
under every cyclic rotation of the line-up (paired deals, seats rotated; a line-up of one
bot plays each deal once). :func:`play_recorded` plays one job and, at each turn decision
(the pending decision ``turn``) with probability ``rate`` (from a generator seeded by the
game seed, so a job is reproducible), records the features of the MOVER's view
(:func:`~forest_shuffle.bots.features.view_features` of ``state.view(mover)``: never a
hidden card) with that seat's final margin to the best rival (points) and its share of the
victory (1, 1/k for a k-way tie, 0); with ``continuations`` K > 0 in the plan, each recorded
position's margin and win share are instead the means over K games played on from states
resampled from that view (:class:`~forest_shuffle.bots.determinize.Determinizer`; the
hidden cards dealt anew each time) by the fast greedy for every seat (the search's rollout
policy, so the target is what a rollout to the end would estimate, with K times less noise
than one game's outcome; :func:`continuation_targets`). :func:`generate` runs the jobs
(in worker processes, or through any executor) and returns a :class:`Dataset`; the same
seed and settings give the same data whatever the number of workers.
"""

from __future__ import annotations

import random
import zipfile
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.bots.features import FEATURE_NAMES, NUM_FEATURES, view_features
from forest_shuffle.bots.greedy import greedy_action
from forest_shuffle.bots.registry import make_bot
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.workers import process_pool

#: The line-ups of the default data with their share of the games: self-play of the fast
#: greedy (the search's rollout policy; cheap, so most of the data), of the exact greedy
#: (the real opponent), and a cheap search (fixed rollouts, so reproducible) against greedy.
DEFAULT_LINEUPS: tuple[tuple[float, tuple[str, ...]], ...] = (
    (1.0, ("greedy:exact=0",)), (0.17, ("greedy",)), (0.03, ("mcts:iterations=12", "greedy")))

#: One game to record: game id, players, game seed, the bot of each seat, sampling rate,
#: the index of the game in the plan, continuations per recorded position (0: the game's
#: own outcome is the target).
Job = tuple[str, int, int, tuple[str, ...], float, int, int]


@dataclass(slots=True)
class Dataset:
    """Recorded positions: features (n x NUM_FEATURES), final margin, win share, the player
    count and the index of the game each row comes from (for a split by game)."""

    x: NDArray[np.float32]
    margin: NDArray[np.float32]
    win: NDArray[np.float32]
    players: NDArray[np.int8]
    game: NDArray[np.int32]
    meta: dict[str, object] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def save(self, path: str) -> None:
        """Write the data as one ``.npz`` (with the feature names and the settings)."""
        np.savez_compressed(path, x=self.x, margin=self.margin, win=self.win,
                            players=self.players, game=self.game,
                            names=np.array(FEATURE_NAMES[:self.x.shape[1]]),
                            meta=np.array(repr(self.meta)))


def load_dataset(path: str) -> Dataset:
    """Read data written by :meth:`Dataset.save` (or by an older version, on the first
    features only); ValueError (one line) if it does not fit."""
    try:
        with np.load(path, allow_pickle=False) as d:
            names = tuple(str(x) for x in d["names"])
            data = Dataset(d["x"], d["margin"], d["win"], d["players"], d["game"],
                           {"source": str(d["meta"])})
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        first = str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
        raise ValueError(f"{path}: not a self-play data file ({first})") from None
    if not names or names != FEATURE_NAMES[:len(names)]:
        raise ValueError(f"{path}: recorded with other features")
    n = len(data)
    if data.x.ndim != 2 or data.x.shape[1] != len(names) or any(
            len(a) != n for a in (data.margin, data.win, data.players, data.game)):
        raise ValueError(f"{path}: the arrays do not fit together")
    return data


def plan(seed: int, games: int, players: Sequence[int],
         lineups: Sequence[tuple[float, Sequence[str]]] = DEFAULT_LINEUPS,
         rate: float = 0.25, game: str = "base", continuations: int = 0) -> list[Job]:
    """For each player count and line-up ``(share, bots)``: at least ``share * games``
    games (at least one deal, rounded up to whole rotations), in a fixed order; each
    recorded position's targets the means of ``continuations`` resampled games on (0: the
    game's own outcome)."""
    jobs: list[Job] = []
    for n in players:
        for li, (share, lineup) in enumerate(lineups):
            k = len(lineup)
            deals = max(1, -(-round(share * games) // k))
            for d in range(deals):
                s = derive(seed, f"data {game}/{n}/{li}/{d}")
                for r in range(k):
                    seats = tuple(lineup[(r + i) % k] for i in range(n))
                    jobs.append((game, n, s, seats, rate, len(jobs), continuations))
    return jobs


Rows = tuple[list[list[float]], list[float], list[float], int, int]


def outcome(state: GameState, p: int) -> tuple[float, float]:
    """Seat ``p``'s margin to the best rival (points) and share of the victory (1, 1/k in
    a k-way tie, 0) in a finished game."""
    scores = state.scores()
    winners = state.winners()
    margin = float(scores[p] - max(s for i, s in enumerate(scores) if i != p))
    return margin, (1.0 / len(winners) if p in winners else 0.0)


def play_out(state: GameState) -> GameState:
    """Play ``state`` to the end of the game by the fast greedy for every seat (in place);
    return it."""
    while not state.over:
        state.apply(greedy_action(state, exact=False))
    return state


def turn_positions(state: GameState) -> list[GameState]:
    """Play ``state`` to the end by the fast greedy for every seat (in place, as
    :func:`play_out`); return a copy of the state at each turn decision on the way."""
    turns: list[GameState] = []
    while not state.over:
        if state.stack[-1].kind == "turn":
            turns.append(state.clone())
        state.apply(greedy_action(state, exact=False))
    return turns


def continuation_outcomes(view: PlayerView, k: int, seed: int) -> list[tuple[float, float]]:
    """The view's player's margin and win share (:func:`outcome`) in each of ``k`` games
    played on from states sampled to agree with ``view`` (every hidden card dealt anew
    each time) by the fast greedy for every seat; the same ``seed``, the same games."""
    det = Determinizer(view)
    rng = random.Random(seed)
    out: list[tuple[float, float]] = []
    for _ in range(k):
        out.append(outcome(play_out(det.sample(rng)), view.player))
    return out


def continuation_targets(view: PlayerView, k: int, seed: int) -> tuple[float, float]:
    """The mean margin and win share over :func:`continuation_outcomes`."""
    games = continuation_outcomes(view, k, seed)
    return sum(m for m, _ in games) / k, sum(w for _, w in games) / k


def play_recorded(job: Job) -> Rows:
    """Play one job; return (features, margins, win shares, players, game index)."""
    gid, n, seed, seats, rate, index, continuations = job
    bots = [make_bot(spec, derive(seed, f"bot {i}")) for i, spec in enumerate(seats)]
    state = GameState.new(n, seed, game=gid)
    rng = random.Random(derive(seed, "sample"))
    feats: list[list[float]] = []
    who: list[int] = []
    targets: list[tuple[float, float]] = []
    while not state.over:
        p = state.to_move
        assert p is not None
        view = state.view(p)
        if state.stack[-1].kind == "turn" and rng.random() < rate:
            feats.append(view_features(view))
            who.append(p)
            if continuations:
                targets.append(continuation_targets(
                    view, continuations, derive(seed, f"continue {state.turn}")))
        state.apply(bots[p].choose(view))
    if not continuations:
        targets = [outcome(state, p) for p in who]
    return feats, [m for m, _ in targets], [w for _, w in targets], n, index


def generate(jobs: Sequence[Job], workers: int = 1,
             progress: Callable[[int], None] | None = None,
             executor: Executor | None = None) -> Dataset:
    """Play and record every job (in ``workers`` processes, or on ``executor``); rows in
    job order."""
    results: list[Rows | None] = [None] * len(jobs)
    if executor is None and (workers <= 1 or len(jobs) <= 1):
        for i, job in enumerate(jobs):
            results[i] = play_recorded(job)
            if progress is not None:
                progress(i + 1)
    else:
        pool = executor if executor is not None else process_pool(min(workers, len(jobs)))
        try:
            futures = {pool.submit(play_recorded, job): i for i, job in enumerate(jobs)}
            try:
                for done, fut in enumerate(as_completed(futures), start=1):
                    results[futures[fut]] = fut.result()
                    if progress is not None:
                        progress(done)
            except BaseException:
                for fut in futures:
                    fut.cancel()
                raise
        finally:
            if executor is None:
                pool.shutdown(wait=True, cancel_futures=True)
    xs: list[list[float]] = []
    ms: list[float] = []
    ws: list[float] = []
    ps: list[int] = []
    gs: list[int] = []
    for r in results:
        assert r is not None
        f, m, w, n, index = r
        xs.extend(f)
        ms.extend(m)
        ws.extend(w)
        ps.extend([n] * len(f))
        gs.extend([index] * len(f))
    x = np.array(xs, dtype=np.float32).reshape(-1, NUM_FEATURES)
    return Dataset(x, np.array(ms, dtype=np.float32), np.array(ws, dtype=np.float32),
                   np.array(ps, dtype=np.int8), np.array(gs, dtype=np.int32),
                   {"games": len(jobs)})
