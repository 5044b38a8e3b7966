"""The bot seats of a :class:`~.service.GameService`: who drives each game's bots, when a
bot's decision is scheduled, and how it is made (docs/web.md, "Bots"; docs/deploy.md for
the leases).

Contract (no HTTP here):

- :meth:`BotSeats.schedule` is called after every change of a game: when a bot is to move
  and this process holds (or takes) the game's bot lease, its decision for that version is
  scheduled once, ``delay`` seconds on, in the bots' queue (:mod:`.bot_queue`).
- A decision is made from that bot's own view (a searching bot in one of ``processes``
  worker processes, its new state brought back) and applied like any action, version
  checked. Dropped when the game moved on or another process took the lease; never lost
  otherwise: a failure before the move is stored tries it again :data:`BOT_RETRY` seconds
  later, a failing bot plays a random legal action, and so does a bot whose move the
  engine refuses.
- With leases shared by several processes (``--pubsub``) a keeper thread renews the leases
  held, drops those of games that wait for no bot, catches up the games held here that
  another process moved on (:meth:`~.service.GameService._freshen`) and takes the free
  leases of games waiting for a bot, so a dead process's bots go on here.

It is a part of the service and reads the service's games, store and catch-up directly.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.server.bot_queue import BotScheduler, ready, think
from forest_shuffle.server.errors import ServiceError, Unwritable
from forest_shuffle.server.pubsub import Leases, LocalLeases
from forest_shuffle.server.store import StoreClosed
from forest_shuffle.workers import process_pool

if TYPE_CHECKING:
    from forest_shuffle.server.service import GameService, LiveGame

log = logging.getLogger(__name__)

#: Seconds before a bot whose move could not be stored (or made) tries again.
BOT_RETRY = 1.0
#: Seconds between two rounds that look for bot decisions lost on the way.
RESCUE = 5.0


class BotSeats:
    """The bots of one service's games (see the module contract): ``delay`` seconds before
    a bot moves, ``workers`` threads for cheap bots, searches in ``processes`` worker
    processes (0: in two threads), leases from ``leases``."""

    def __init__(self, svc: GameService, delay: float, workers: int, processes: int,
                 leases: Leases) -> None:
        self.svc = svc
        self.delay = max(0.0, delay)
        #: Which process drives each game's bots (alone: this one, always).
        self.leases = leases
        self._held: set[str] = set()  # games whose bot lease this process holds
        self._held_lock = threading.Lock()
        self._stop = threading.Event()
        # Searches have a lane of their own: one thread per worker process (two when
        # they think in threads), so cheap bots never wait behind them.
        self._queue = BotScheduler(self._move, workers,
                                   search_workers=processes if processes > 0 else 2,
                                   searches=self._searches, owner=self._owner_of,
                                   rescue=self._rescue, every=RESCUE)
        #: Worker processes for searching bots (None: they think in threads).
        self._processes = processes
        self._thinkers_lock = threading.Lock()
        self._thinkers: ProcessPoolExecutor | None = (
            process_pool(processes) if processes > 0 else None)
        self._keeper: threading.Thread | None = None

    def start(self) -> None:
        """With shared leases, start the keeper thread (once the service is built)."""
        if not isinstance(self.leases, LocalLeases):
            self._keeper = threading.Thread(target=self._keep, name="forest-leases",
                                            daemon=True)
            self._keeper.start()

    def close(self) -> None:
        """Stop the bots and hand back this process's leases."""
        self._stop.set()
        self._queue.close()
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False, cancel_futures=True)
        if self._keeper is not None:
            self._keeper.join(5)
        with self._held_lock:
            held, self._held = set(self._held), set()
        for gid in held:
            self.leases.release(gid)
        self.leases.close()

    def warm(self) -> None:
        """Start every worker process of the searching bots now (a spawn takes a second
        or more), so the first hard bot's move after a start does not wait for one."""
        pool = self._thinkers
        if pool is not None:
            for _ in range(self._processes):
                pool.submit(ready)

    def _lease(self, game_id: str) -> bool:
        """Whether this process drives the game's bots (taking the lease if it is free).
        Checked and taken under one lock, so the lease keeper cannot take it at the same
        time and schedule the same decision twice."""
        with self._held_lock:
            if game_id in self._held:
                return True
            if not self.leases.acquire(game_id):
                return False
            self._held.add(game_id)
            return True

    def _unlease(self, game_id: str) -> None:
        with self._held_lock:
            if game_id not in self._held:
                return
            self._held.discard(game_id)
        self.leases.release(game_id)

    def _keep(self) -> None:
        """Every third of a lease's life (at most 2 s): catch up the games held here that
        another process moved on unheard (:meth:`~.service.GameService._freshen`), renew
        the leases held (dropping lost ones and those of games that wait for no bot now),
        and take the free leases of games that wait for a bot, so a killed process's bots
        go on here."""
        pause = max(0.05, min(self.leases.ttl / 3, 2.0))
        while not self._stop.wait(pause):
            try:
                self.svc._freshen()
                with self._held_lock:
                    held = list(self._held)
                for gid in held:
                    game = self.svc._games.get(gid)
                    if game is not None:
                        with game.lock:  # as in _schedule_bot: no catch-up in between
                            idle = not bot_to_move(game)
                            if idle:
                                self._unlease(gid)
                        if idle:
                            continue
                    if not self.leases.renew(gid):
                        with self._held_lock:
                            self._held.discard(gid)
                for gid in self.svc.store.games_waiting_for_bots():
                    if self._stop.is_set():
                        return
                    if gid in self.svc._broken:  # named once at its first load
                        continue
                    # Check and take under one lock: a lease this process takes meanwhile
                    # for its own action (and schedules) is not scheduled a second time.
                    with self._held_lock:
                        if gid in self._held or not self.leases.acquire(gid):
                            continue
                        self._held.add(gid)
                    if gid not in self.svc._games:
                        try:
                            self.svc.game(gid)  # loaded from the store; it schedules the bot
                        except ServiceError:  # cannot be read: named in the log once
                            self._unlease(gid)
                        continue
                    game = self.svc.game(gid)
                    with game.lock:
                        self.svc._catch_up(game)
                    # schedules unless this process has that decision scheduled already (a
                    # decision dropped for want of the lease un-scheduled itself)
                    self.schedule(game)
            except StoreClosed:
                return
            except Exception:  # keep going: the next round tries again
                log.exception("bot leases: a round failed")

    def schedule(self, game: LiveGame) -> None:
        """After a change of ``game``: schedule its bot's decision for this version once,
        if a bot is to move and this process holds (or takes) the lease; else hand back a
        lease no longer needed."""
        with game.lock:
            snap = game.snap
            if not bot_to_move(game):
                # Under the game's lock: a catch-up to a bot's turn cannot come between
                # this reading and the release (the lease would go while a bot is due).
                if game.id in self._held:
                    self._unlease(game.id)
                return
            if game.bot_scheduled == snap.version:
                return
        if not self._lease(game.id):
            return  # another process drives this game's bots
        with game.lock:
            if game.bot_scheduled == snap.version or game.snap is not snap:
                return
            game.bot_scheduled = snap.version
            self._queue.at(time.monotonic() + self.delay, game.id, snap.version)

    def _rescue(self) -> None:
        """Every :data:`RESCUE` seconds: a game whose bot is to move, whose decision for
        this version was scheduled here and is neither due, waiting nor running any more,
        lost it on the way: it is scheduled again (one log line). Nothing else would
        (``bot_scheduled`` says it was), and the game would wait for ever."""
        for game in list(self.svc._games.values()):
            if game.bot_scheduled != game.snap.version:
                continue
            with game.lock:  # schedule() sets bot_scheduled and queues under this lock
                version = game.bot_scheduled
                if (version != game.snap.version or not bot_to_move(game)
                        or self._queue.pending(game.id)):
                    continue
                game.bot_scheduled = -1
            log.warning("bot decision of game %s at version %d was lost; scheduled again",
                        game.id, version)
            self.schedule(game)

    def _searches(self, game_id: str) -> bool:
        """Whether the bot to move in the game searches (its decision takes long)."""
        game = self.svc._games.get(game_id)
        if game is None:
            return False
        p = game.snap.state.to_move
        bot = None if p is None else game.bots.get(p)
        return bot is not None and bot.searches

    def _owner_of(self, game_id: str) -> str:
        """Whose turn in the bots' fair queue a game's searches take: the client address
        that created it, else (loaded after a restart) the game itself."""
        game = self.svc._games.get(game_id)
        owner = None if game is None else game.owner
        return f"address {owner}" if owner is not None else f"game {game_id}"

    def _move(self, game_id: str, version: int) -> None:
        """One bot decision for the state at ``version`` (dropped if the game moved on).
        A decision is never lost on the way: a failure before its move is stored (a read
        of the database, the lease) tries it again :data:`BOT_RETRY` seconds later, in one
        log line (nothing else would schedule it again: ``bot_scheduled`` says it is)."""
        try:
            self._bot_decide(game_id, version)
        except Exception as exc:
            log.warning("bot move of game %s failed before it was made, again in %g s "
                        "(%s: %s)", game_id, BOT_RETRY, type(exc).__name__,
                        " ".join(str(exc).split())[:200])
            self._queue.at(time.monotonic() + BOT_RETRY, game_id, version)

    def _bot_decide(self, game_id: str, version: int) -> None:
        """:meth:`_bot_move`'s work: the lease, the bot's choice and its move. A move the
        engine refuses (a bot's bug, a view out of step) is replaced by a legal action of
        the state (a game never waits for ever for a bot)."""
        game = self.svc._games.get(game_id)
        if game is None:
            return
        snap = game.snap
        p = snap.state.to_move
        if snap.version != version or p is None or game.seats[p].kind != "bot":
            return
        if not self._lease(game_id) or not self.leases.renew(game_id):
            with self._held_lock:
                self._held.discard(game_id)
            with game.lock:  # whoever holds the lease later may schedule it again
                if game.bot_scheduled == version:
                    game.bot_scheduled = -1
            return  # another process took this game's bots over
        # the lease may have come just after its last holder moved: then that decision
        # was made elsewhere
        if self.svc._shared and self.svc._refresh(game):
            return
        view = snap.state.view(p)
        try:
            action = self._think(game, p, view)
        except Exception:
            log.exception("bot of seat %d in game %s failed; it plays at random", p, game_id)
            action = random.Random(version).choice(view.legal_actions)
        if self._play(game, p, action, version):
            return
        legal = snap.state.legal_actions()  # the state's own, not the bot's view of it
        if legal:
            log.warning("bot of seat %d in game %s: its move %s was refused; it plays a "
                        "legal one", p, game_id, str(action)[:40])
            self._play(game, p, random.Random(version).choice(legal), version)

    def _play(self, game: LiveGame, p: int, action: Action, version: int) -> bool:
        """Apply a bot's ``action``; False only when the engine refused it (400, 403), so
        the caller may play another. A failed write tries the decision again later; a game
        that moved on or a server that stops drops it."""
        game_id = game.id
        try:
            self.svc._apply(game, p, action, version)
        except StoreClosed:
            log.debug("bot move of game %s dropped: the server is stopping", game_id)
        except Unwritable:  # the store logged it once: try again quietly until it writes
            self._queue.at(time.monotonic() + BOT_RETRY, game_id, version)
        except ServiceError as exc:
            if exc.status == 503:
                log.debug("bot move of game %s dropped: %s", game_id, exc)
            elif exc.status == 500:  # the database failed: try again in a moment
                log.warning("bot move of game %s failed, again in %g s: %s", game_id,
                            BOT_RETRY, exc)
                self._queue.at(time.monotonic() + BOT_RETRY, game_id, version)
            elif exc.status == 409:  # the game moved on meanwhile: nothing to do
                log.info("bot move dropped in game %s: %s", game_id, exc)
            else:  # the engine refused the move
                log.warning("bot move refused in game %s: %s", game_id, exc)
                return False
        except Exception:  # the database failed: try again in a moment, not never
            log.exception("bot move failed in game %s; again in %g s", game_id, BOT_RETRY)
            self._queue.at(time.monotonic() + BOT_RETRY, game_id, version)
        return True

    def _think(self, game: LiveGame, p: int, view: PlayerView) -> Action:
        """Seat ``p``'s bot decides: a searching bot in a worker process when there are
        any (its new state replaces the old), any other bot here."""
        bot = game.bots[p]
        pool = self._thinkers
        if not bot.searches or pool is None:
            return bot.choose(view)
        try:
            action, game.bots[p] = pool.submit(think, bot, view).result()
        except BrokenProcessPool:
            log.error("a bot worker process died; starting new ones")
            with self._thinkers_lock:
                if self._thinkers is pool:
                    self._thinkers = process_pool(self._processes)
            pool.shutdown(wait=False, cancel_futures=True)
            return bot.choose(view)
        return action


def bot_to_move(game: LiveGame) -> bool:
    """Whether a bot is to move in the game's published state."""
    p = game.snap.state.to_move
    return p is not None and game.seats[p].kind == "bot"


__all__ = ["BOT_RETRY", "RESCUE", "BotSeats", "bot_to_move"]
