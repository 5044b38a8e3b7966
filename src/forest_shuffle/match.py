"""Bot matches and tournaments: complete games between bots, with luck cancelled out.

Contract:

* :func:`play_match` plays one game of a game definition (``game``, an id or a
  :class:`~forest_shuffle.engine.game.GameDef`; the base game by default) from a seed with one
  bot per seat, each built by
  :func:`~forest_shuffle.bots.make_bot` with a seed derived from the game seed and the seat
  (:func:`bot_seed`); a bot is only ever given ``state.view(seat)``. Same arguments, same
  game (apart from the ``seconds`` figures).
* :func:`tournament` plays ``deals`` deals (game seeds :func:`deal_seed`) under every
  seating of :func:`seatings`: the cyclic rotations of the bot list filled to the number of
  seats, so each bot sits in each seat equally often and every bot gets every hand. Games
  run in worker processes (``workers`` > 1) or in this process; the result does not depend
  on ``workers``.
* :func:`run_matches` is the shared parallel runner (``stats`` uses it for self-play).

A shared victory counts as ``1/k`` of a win for each of the ``k`` winning seats, so the
wins of all bots add up to the number of games. Win rates carry a 95 % Wilson interval.
A bot that returns an illegal action raises :class:`BotError`.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field
from typing import Any

from forest_shuffle.bots import make_bot
from forest_shuffle.engine.actions import IllegalActionError
from forest_shuffle.engine.game import GameDef, game_by_id
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.state import GameState
from forest_shuffle.scoring.core import LINES
from forest_shuffle.workers import process_pool

__all__ = [
    "BotError", "BotStats", "MatchResult", "TournamentResult", "bot_seed", "deal_seed",
    "load_range", "load_summary", "machine_load", "play_match", "run_matches", "seatings",
    "tournament", "wilson_interval",
]

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


class BotError(RuntimeError):
    """A bot chose an action the engine refused; the message names bot, seat and game."""


def _hash48(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "big")


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal ``deal`` (from 0) of a tournament or stats run with ``seed``."""
    return _hash48(f"forest-shuffle/deal/{seed}/{deal}")


def bot_seed(game_seed: int, seat: int) -> int:
    """The random seed of the bot in ``seat`` of the game with ``game_seed``."""
    return _hash48(f"forest-shuffle/bot/{game_seed}/{seat}")


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` for n = 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(successes / n, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if p == 0.0 else max(0.0, centre - half)
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return (low, high)


# ------------------------------------------------------------------ one game


@dataclass(frozen=True)
class MatchResult:
    """One finished game between bots; lists are per seat (seat 0 starts)."""

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    lines: tuple[dict[str, int], ...]
    winners: tuple[int, ...]
    turns: int
    decisions: tuple[int, ...]
    #: Visible cards in each forest by species (trees, dwellers, ``sapling``).
    species_played: tuple[dict[str, int], ...]
    #: Points of each forest by species (from the scorer's per-card explanations).
    species_points: tuple[dict[str, int], ...]
    #: Thinking time of each seat's bot, in seconds (not compared: it varies run to run).
    seconds: tuple[float, ...] = field(default=(), compare=False)
    #: The id of the game played.
    game: str = "base"
    #: The machine's load average (1 minute) when the game ended, None where the system
    #: has none (not compared: time budgets buy fewer rollouts on a loaded machine).
    load: float | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "game": self.game, "seed": self.seed, "bots": list(self.bots),
            "scores": list(self.scores),
            "lines": [dict(x) for x in self.lines], "winners": list(self.winners),
            "turns": self.turns, "decisions": list(self.decisions),
            "species_played": [dict(x) for x in self.species_played],
            "species_points": [dict(x) for x in self.species_points],
            "seconds": list(self.seconds), "load": self.load,
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchResult:
        """The inverse of :meth:`to_dict`. ValueError (one line) for anything malformed."""
        try:
            if not isinstance(data, dict):
                raise TypeError("not an object")
            n = len(data["bots"])
            out = cls(
                seed=int(data["seed"]), bots=tuple(str(b) for b in data["bots"]),
                scores=tuple(int(x) for x in data["scores"]),
                lines=tuple({str(k): int(v) for k, v in x.items()} for x in data["lines"]),
                winners=tuple(int(x) for x in data["winners"]), turns=int(data["turns"]),
                decisions=tuple(int(x) for x in data["decisions"]),
                species_played=tuple({str(k): int(v) for k, v in x.items()}
                                     for x in data["species_played"]),
                species_points=tuple({str(k): int(v) for k, v in x.items()}
                                     for x in data["species_points"]),
                seconds=tuple(float(x) for x in data.get("seconds", ())),
                game=str(data.get("game", "base")),
                load=None if data.get("load") is None else float(data["load"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a game result: {exc}") from None
        if not (len(out.scores) == len(out.lines) == len(out.decisions) == n
                and all(0 <= w < n for w in out.winners) and out.winners):
            raise ValueError("not a game result: its lists do not match its seats")
        return out


def _game_id(game: GameDef | str) -> str:
    return game if isinstance(game, str) else game.id


def play_match(bot_specs: Sequence[str], seed: int, rules: Rules | None = None,
               game: GameDef | str = "base") -> MatchResult:
    """Play one game of ``game`` from ``seed``, seat ``i`` played by
    ``make_bot(bot_specs[i], ...)``.

    Raises :class:`~forest_shuffle.bots.BotSpecError` for a bad specification, ValueError
    for a bad number of seats and :class:`BotError` when a bot chooses an illegal action.
    """
    n = len(bot_specs)
    bots = [make_bot(spec, bot_seed(seed, seat)) for seat, spec in enumerate(bot_specs)]
    state = GameState.new(n, seed, rules, game=game)
    decisions = [0] * n
    seconds = [0.0] * n
    clock = time.perf_counter
    while not state.over:
        seat = state.to_move
        if seat is None:  # pragma: no cover - the engine always has a decision pending
            raise RuntimeError(f"game {seed}: not over but nobody to move")
        start = clock()
        action = bots[seat].choose(state.view(seat))
        seconds[seat] += clock() - start
        decisions[seat] += 1
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise BotError(f"bot {bot_specs[seat]!r} in seat {seat + 1} of game {seed} "
                           f"chose the illegal action {action}: {exc}") from None
    table = state.game.score_table(state.forests)
    played: list[dict[str, int]] = []
    points: list[dict[str, int]] = []
    for fs in table:
        count: Counter[str] = Counter()
        pts: Counter[str] = Counter()
        for cp in fs.cards:
            count[cp.species] += 1
            pts[cp.species] += cp.points
        played.append(dict(sorted(count.items())))
        points.append(dict(sorted(pts.items())))
    scores = tuple(fs.total for fs in table)
    best = max(scores)
    return MatchResult(
        seed=seed,
        bots=tuple(bot_specs),
        scores=scores,
        lines=tuple({line: fs.lines[line] for line in state.game.pad_lines} for fs in table),
        winners=tuple(i for i, s in enumerate(scores) if s == best),
        turns=state.turn,
        decisions=tuple(decisions),
        species_played=tuple(played),
        species_points=tuple(points),
        seconds=tuple(seconds),
        game=state.game.id,
        load=machine_load(),
    )


def machine_load() -> float | None:
    """The 1-minute load average now, rounded to 0.01; None where the system has none."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):  # pragma: no cover - systems without load averages
        return None


def load_range(matches: Sequence[MatchResult]) -> tuple[float, float, float] | None:
    """The median, least and greatest load average at the end of ``matches`` (those that
    recorded one); None when none did."""
    loads = sorted(m.load for m in matches if m.load is not None)
    if not loads:
        return None
    return statistics.median(loads), loads[0], loads[-1]


def load_summary(matches: Sequence[MatchResult]) -> dict[str, float] | None:
    """:func:`load_range` as JSON: ``median``, ``min``, ``max``; None when no game recorded
    a load."""
    span = load_range(matches)
    return None if span is None else dict(zip(("median", "min", "max"), span, strict=True))


# ------------------------------------------------------------------ many games

#: One game to play: the bot specification of each seat, the game seed, the rules, the
#: game id.
Job = tuple[tuple[str, ...], int, Rules | None, str]


def _play_job(job: Job) -> MatchResult:
    """Top-level (picklable) worker function: play one job."""
    specs, seed, rules, game = job
    return play_match(specs, seed, rules, game)


def run_matches(jobs: Sequence[Job], workers: int = 1,
                progress: Callable[[int], None] | None = None,
                executor: Executor | None = None,
                on_result: Callable[[int, MatchResult], None] | None = None,
                ) -> list[MatchResult]:
    """Play every job and return the results in job order, whatever ``workers`` is.

    ``workers`` > 1 uses that many fresh worker processes
    (:func:`~forest_shuffle.workers.process_pool`; they exit if this process dies);
    ``progress`` (if given) is called with the number of finished games after each one;
    ``executor`` (e.g. :func:`forest_shuffle.cluster.ray_executor`) runs them instead;
    ``on_result`` (if given) is called with a job's index and its result as each one
    finishes (in finishing order), before ``progress``.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if not jobs:
        return []
    results: list[MatchResult | None] = [None] * len(jobs)
    if executor is None and (workers == 1 or len(jobs) <= 1):
        for i, job in enumerate(jobs):
            results[i] = r = _play_job(job)
            if on_result is not None:
                on_result(i, r)
            if progress is not None:
                progress(i + 1)
    else:
        with executor or process_pool(min(workers, len(jobs))) as pool:
            futures = {pool.submit(_play_job, job): i for i, job in enumerate(jobs)}
            try:
                for done, future in enumerate(as_completed(futures), start=1):
                    i = futures[future]
                    results[i] = r = future.result()
                    if on_result is not None:
                        on_result(i, r)
                    if progress is not None:
                        progress(done)
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    return [r for r in results if r is not None]


# ------------------------------------------------------------------ tournaments


def seatings(num_bots: int, players: int) -> list[tuple[int, ...]]:
    """The seatings of a tournament, as the bot index of each seat: the ``num_bots``
    cyclic rotations of the bot list repeated to ``players`` seats. Over all seatings,
    each bot sits in each seat equally often (once per ``num_bots`` seatings)."""
    if num_bots < 1:
        raise ValueError("a tournament needs at least one bot")
    return [tuple((r + s) % num_bots for s in range(players)) for r in range(num_bots)]


@dataclass(frozen=True)
class BotStats:
    """One bot's tournament figures. ``games`` counts games it played in, ``seats`` the
    seats it held (more than ``games`` when there are fewer bots than seats); ``wins``
    adds ``1/k`` per winning seat of a ``k``-way shared victory; means are per seat."""

    bot: str
    games: int
    seats: int
    wins: float
    win_rate: float
    interval: tuple[float, float]
    mean_score: float
    mean_lines: dict[str, float]
    seconds_per_decision: float = field(default=0.0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "bot": self.bot, "games": self.games, "seats": self.seats, "wins": self.wins,
            "win_rate": self.win_rate, "win_rate_low": self.interval[0],
            "win_rate_high": self.interval[1], "mean_score": self.mean_score,
            "lines": dict(self.mean_lines),
            "seconds_per_decision": self.seconds_per_decision,
        }


@dataclass(frozen=True)
class TournamentResult:
    """A whole tournament: its settings, every game (deal-major, then seating) and the
    figures per bot (in the order of ``bots``)."""

    bots: tuple[str, ...]
    players: int
    seed: int
    deals: int
    seatings: tuple[tuple[int, ...], ...]
    matches: tuple[MatchResult, ...]
    stats: tuple[BotStats, ...]
    ties: int
    mean_turns: float
    seconds: float = field(default=0.0, compare=False)
    #: The id of the game played.
    game: str = "base"

    @property
    def games(self) -> int:
        """Number of games played (deals times seatings)."""
        return len(self.matches)

    def load(self) -> dict[str, float] | None:
        """The machine's load average at the games' ends (``median``, ``min``, ``max``), a
        game journalled earlier at its own end; None when no game recorded one."""
        return load_summary(self.matches)

    def to_dict(self, with_games: bool = False) -> dict[str, Any]:
        """JSON-ready form; ``with_games`` adds every game's result."""
        out: dict[str, Any] = {
            "game": self.game, "bots": list(self.bots), "players": self.players, "seed": self.seed,
            "games": self.games, "deals": self.deals,
            "seatings": [list(s) for s in self.seatings], "ties": self.ties,
            "mean_turns": self.mean_turns,
            "results": [s.to_dict() for s in self.stats],
            "timing": {"seconds": self.seconds, "load": self.load()},
        }
        if with_games:
            out["matches"] = [m.to_dict() for m in self.matches]
        return out


def deals_for(games: int, num_bots: int) -> int:
    """Deals needed for at least ``games`` games when each deal is played once per seating."""
    return max(1, -(-games // num_bots))


def tournament(bots: Sequence[str], games: int, players: int, seed: int, workers: int = 1,
               rules: Rules | None = None,
               progress: Callable[[int], None] | None = None,
               game: GameDef | str = "base",
               executor: Executor | None = None,
               done: Mapping[int, MatchResult] | None = None,
               on_result: Callable[[int, MatchResult], None] | None = None,
               ) -> TournamentResult:
    """Play at least ``games`` games of ``game`` (an id or a definition; the base game by
    default) of ``players`` seats between ``bots`` (specifications).

    Each deal is replayed under every seating of :func:`seatings`, so the number of games
    is rounded up to a multiple of ``len(bots)``. Bad specifications raise
    :class:`~forest_shuffle.bots.BotSpecError` before any game starts; ValueError for bad
    numbers. Same arguments, same result, for any ``workers``.

    Resuming: ``done`` maps game indexes (deal-major, then seating, as in
    :attr:`TournamentResult.matches`) to results already played, e.g. read back from a
    journal; those games are not played again (ValueError if one is not the game of its
    index: other bots, seed or game). ``on_result(index, result)`` is called as each new
    game finishes, so a caller can journal it. ``seconds`` counts only the games played
    by this call; ``progress`` counts all games, the ones from ``done`` included.
    """
    if not bots:
        raise ValueError("a tournament needs at least one bot")
    if not 2 <= players <= 5:
        raise ValueError(f"players must be from 2 to 5, not {players}")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    for spec in bots:
        make_bot(spec, 0)  # BotSpecError now rather than in a worker
    gid = game_by_id(_game_id(game)).id  # UnknownGameError now, and the registered id
    specs = tuple(bots)
    order = seatings(len(specs), players)
    deals = deals_for(games, len(specs))
    jobs: list[Job] = []
    for d in range(deals):
        s = deal_seed(seed, d)
        for seating in order:
            jobs.append((tuple(specs[b] for b in seating), s, rules, gid))
    old = dict(done or {})
    beyond = [i for i in old if not 0 <= i < len(jobs)]
    if beyond:
        last = max(beyond) + 1
        raise ValueError(f"game {last} is not part of a tournament of {len(jobs)} games: "
                         f"ask for at least {last} games")
    for i, m in old.items():
        want = jobs[i]
        if (m.bots, m.seed, m.game) != (want[0], want[1], gid):
            raise ValueError(f"game {i + 1} of the results was not played by these bots "
                             "on this deal")
    todo = [i for i in range(len(jobs)) if i not in old]
    shown = None if progress is None else (lambda k: progress(len(old) + k))
    if progress is not None and old:
        progress(len(old))
    record = None if on_result is None else (lambda k, r: on_result(todo[k], r))
    start = time.perf_counter()
    played = run_matches([jobs[i] for i in todo], workers, shown, executor, record)
    elapsed = time.perf_counter() - start
    old.update(zip(todo, played, strict=True))
    matches = [old[i] for i in range(len(jobs))]
    stats = _bot_stats(specs, order, matches)
    ties = sum(len(m.winners) > 1 for m in matches)
    return TournamentResult(
        bots=specs, players=players, seed=seed, deals=deals, seatings=tuple(order),
        matches=tuple(matches), stats=stats, ties=ties,
        mean_turns=sum(m.turns for m in matches) / len(matches), seconds=elapsed, game=gid,
    )


def _bot_stats(specs: tuple[str, ...], order: list[tuple[int, ...]],
               matches: list[MatchResult]) -> tuple[BotStats, ...]:
    b = len(specs)
    games = [0] * b
    seats = [0] * b
    wins = [0.0] * b
    score = [0.0] * b
    pad = tuple(matches[0].lines[0]) if matches and matches[0].lines else LINES
    lines = [dict.fromkeys(pad, 0.0) for _ in range(b)]
    decisions = [0] * b
    seconds = [0.0] * b
    for i, m in enumerate(matches):
        seating = order[i % len(order)]
        for bot in set(seating):
            games[bot] += 1
        for seat, bot in enumerate(seating):
            seats[bot] += 1
            score[bot] += m.scores[seat]
            for line in pad:
                lines[bot][line] += m.lines[seat][line]
            decisions[bot] += m.decisions[seat]
            if m.seconds:
                seconds[bot] += m.seconds[seat]
        for seat in m.winners:
            wins[seating[seat]] += 1 / len(m.winners)
    out = []
    for k in range(b):
        n = games[k]
        out.append(BotStats(
            bot=specs[k], games=n, seats=seats[k], wins=wins[k],
            win_rate=wins[k] / n if n else 0.0, interval=wilson_interval(wins[k], n),
            mean_score=score[k] / seats[k] if seats[k] else 0.0,
            mean_lines={line: lines[k][line] / seats[k] if seats[k] else 0.0
                        for line in pad},
            seconds_per_decision=seconds[k] / decisions[k] if decisions[k] else 0.0,
        ))
    return tuple(out)
