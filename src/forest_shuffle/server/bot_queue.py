"""The bots' queue: when each bot decision runs, in which lane of threads, in which order
(docs/web.md, "Bots").

Contract: :class:`BotScheduler` runs ``run(game_id, version)`` at a given time in worker
threads of two lanes: a decision whose bot searches waits in a fair queue across owners
(the client address that created the game) for one of the search threads, every other
decision runs at once in threads of its own. A waiting decision is only its game id and
version (no view, no bot). :func:`think` is a searching bot's decision in a worker process;
:func:`ready` a worker process's first job (``serve --warm-workers``). No game, store or
HTTP here.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from forest_shuffle.bots import Bot
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView

log = logging.getLogger(__name__)


def think(bot: Bot, view: PlayerView) -> tuple[Action, Bot]:
    """One decision of ``bot`` in a worker process: the action and the bot as it is after
    choosing (its random state and turn budget), to replace the server's copy."""
    return bot.choose(view), bot


def ready() -> None:
    """A bot worker process's first job (:meth:`~.bot_seats.BotSeats.warm`): its imports done."""


class BotScheduler:
    """Runs ``run(game_id, version)`` at a given time in worker threads of two lanes, so a
    cheap bot never queues behind a search: when a decision is due, ``searches(game_id)``
    says whether the bot to move searches; such a decision goes to ``search_workers``
    threads (one per search slot, so none of them waits for a slot), every other to
    ``workers`` threads of its own. Searching decisions wait in one queue per owner
    (``owner(game_id)``: the client address that created the game, else the game itself)
    and a free search thread takes the next owner's oldest one, owner after owner, so one
    address with many games of searching bots delays another's bot by at most one search
    per slot (a fair queue: start-time fair queueing, decisions of one turn in the order
    they fell due). Until a search thread takes one a decision is only its game id and
    version (the view is made when it starts, and a decision for a version that has moved
    on costs nothing).

    Every ``every`` seconds the timer thread calls ``rescue()`` (if given), which may ask
    :meth:`pending` whether a game has a decision waiting or running here: a decision lost
    on any way (a bug, a failure nobody foresaw) is then found and scheduled again."""

    def __init__(self, run: Callable[[str, int], None], workers: int = 4,
                 search_workers: int = 2,
                 searches: Callable[[str], bool] | None = None,
                 owner: Callable[[str], str] | None = None,
                 rescue: Callable[[], None] | None = None, every: float = 5.0) -> None:
        self._run = run
        self._rescue = rescue
        self.every = every
        #: Decisions scheduled and not yet ended, per game (due, waiting or running).
        self._pending: Counter[str] = Counter()
        self._searches = searches
        self._owner = owner or (lambda game_id: game_id)
        #: Searching decisions due: (turn, order, game id, version), the least first. An
        #: owner's decisions take turns one apart from the turn being served on, so one
        #: with many waiting takes one turn in every round of the owners waiting.
        self._fair: list[tuple[int, int, str, int]] = []
        self._turn = 0  # the turn of the decision last started
        self._next_turn: dict[str, int] = {}  # each owner's next free turn
        self._heap: list[tuple[float, int, str, int]] = []
        self._count = 0
        self._cond = threading.Condition()
        self._closed = False
        self._waiting = 0  # searching decisions due and not yet started
        self._pool = ThreadPoolExecutor(max(1, workers), thread_name_prefix="forest-bot")
        self._search_pool = ThreadPoolExecutor(max(1, search_workers),
                                               thread_name_prefix="forest-search")
        self._thread = threading.Thread(target=self._loop, name="forest-bot-timer",
                                        daemon=True)
        self._thread.start()

    def at(self, due: float, game_id: str, version: int) -> None:
        """Run the decision of ``game_id`` at ``version`` once ``due`` (monotonic) comes."""
        with self._cond:
            self._count += 1
            self._pending[game_id] += 1
            heapq.heappush(self._heap, (due, self._count, game_id, version))
            self._cond.notify()

    def pending(self, game_id: str) -> bool:
        """Whether a decision of the game is due, waiting or running here."""
        with self._cond:
            return self._pending[game_id] > 0

    def _counted(self, game_id: str, version: int) -> None:
        """Run one decision; it is no longer pending once it ends, however it ends (one it
        schedules again is pending before this one ends)."""
        try:
            self._run(game_id, version)
        finally:
            with self._cond:
                self._pending[game_id] -= 1
                if self._pending[game_id] <= 0:
                    del self._pending[game_id]

    def waiting_searches(self) -> int:
        """Searching decisions that are due and wait for a search thread."""
        with self._cond:
            return self._waiting

    def _loop(self) -> None:
        rescue_at = time.monotonic() + self.every
        while True:
            with self._cond:
                while not self._closed and (
                        not self._heap or self._heap[0][0] > time.monotonic()):
                    now = time.monotonic()
                    if self._rescue is not None and now >= rescue_at:
                        break
                    waits = [t - now for t in (
                        self._heap[0][0] if self._heap else None,
                        rescue_at if self._rescue is not None else None) if t is not None]
                    self._cond.wait(min(waits) if waits else None)
                if self._closed:
                    return
                due = bool(self._heap) and self._heap[0][0] <= time.monotonic()
                if due:
                    _, _, game_id, version = heapq.heappop(self._heap)
            if self._rescue is not None and time.monotonic() >= rescue_at:
                rescue_at = time.monotonic() + self.every
                try:
                    self._rescue()
                except Exception:  # the next round tries again
                    log.exception("the bots' rescue round failed")
            if not due:
                continue
            try:
                searching = self._searches is not None and self._searches(game_id)
            except Exception:  # decide it in the cheap lane rather than not at all
                log.exception("cannot tell whether the bot of game %s searches", game_id)
                searching = False
            try:
                if searching:
                    try:
                        key = self._owner(game_id)
                    except Exception:  # counted as its own owner rather than lost
                        key = game_id
                    with self._cond:
                        self._waiting += 1
                        self._count += 1
                        # its turn: now, or after the owner's decisions already waiting
                        turn = max(self._turn, self._next_turn.get(key, 0))
                        self._next_turn[key] = turn + 1
                        heapq.heappush(self._fair, (turn, self._count, game_id, version))
                    # each submission takes whichever decision is next in turn
                    self._search_pool.submit(self._search)
                else:
                    self._pool.submit(self._counted, game_id, version)
            except RuntimeError:  # the pool was shut down
                return

    def _search(self) -> None:
        """Run the next searching decision in turn: the oldest of the owner first in
        line, who then goes to the back of the line if it has more."""
        with self._cond:
            if not self._fair:
                return
            self._turn, _, game_id, version = heapq.heappop(self._fair)
            self._waiting -= 1
            if len(self._next_turn) > 1000:  # owners whose turns are all past
                self._next_turn = {k: t for k, t in self._next_turn.items()
                                   if t > self._turn}
        self._counted(game_id, version)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._search_pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["BotScheduler", "ready", "think"]
