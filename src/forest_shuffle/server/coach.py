"""The coach on the server: Suggest and the after-game review (docs/web.md; replays are
:mod:`.replays`).

Contract (no HTTP here; every refusal is a :class:`~forest_shuffle.server.errors.
ServiceError` with one line):

- :meth:`CoachDesk.suggest`: what the hard bot would do in a seat's place, asked with that
  seat's :class:`~forest_shuffle.engine.view.PlayerView` only
  (:func:`forest_shuffle.bots.coach.advise`, the copy the terminal's ``hint`` uses), with
  its reason in words (:func:`forest_shuffle.text.advice.advice_facts`). Refused: 403 for a
  spectator, in a game whose seats agreed to play without help (``no_help``) and when it is
  not the seat's decision; 400 once the game is over. Nothing of the game changes.
- :meth:`CoachDesk.review`: once a game is over (409 before), each seat's points after
  every turn (the game's scorer on the public forests of the state replayed from the
  game's record), where the final points came from (by species and score-pad line, from
  the scorer's explanation), and the moves the bot would have made differently, with the
  points it expected to gain (:func:`forest_shuffle.bots.coach.compare`, from the seat's
  view at that moment, a small budget, at most ``review_moves`` decisions checked, those
  with a gain of at least :data:`MIN_GAIN` listed).
  Computed once per game and kept.
- Searches run in ``slots`` worker threads of their own (never on the event loop, never in
  a game's lock); at most ``queue`` wait at once, more get 429; one client address at most
  ``per_owner``; waiting searches start owner after owner (a fair queue across
  addresses). Suggestions are kept per (game, version, seat), so asking twice costs one
  search.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from forest_shuffle.bots.coach import advise, coach_bot, compare
from forest_shuffle.bots.greedy import greedy_view_action
from forest_shuffle.bots.registry import DIFFICULTIES, parse_spec
from forest_shuffle.engine.actions import PAY, PLAY, Action
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.view import PlayerView, make_spectator_view
from forest_shuffle.formats.records import record_of
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.held import HeldCounts
from forest_shuffle.server.limits import Limits
from forest_shuffle.server.replays import state_of_record
from forest_shuffle.server.service import GameService, check_decision
from forest_shuffle.text.advice import advice_facts
from forest_shuffle.text.narration import action_words
from forest_shuffle.workers import process_pool

log = logging.getLogger(__name__)

#: A move of a review is listed when the bot expected at least this many points more from
#: its own choice (less is within the noise of a small search).
MIN_GAIN = 0.5


#: The bot that checks the decisions of a review (its budget: ``Limits.review_time``).
REVIEW_BOT = "mcts"
_BOUNDS = Limits()


def timed(spec: str, seconds: float) -> str:
    """The bot specification ``spec`` (or a difficulty) with its search budget, the
    ``time`` option, set to ``seconds``: ``timed("hard", 0.5) == "mcts:time=0.5"``."""
    name, options = parse_spec(spec)
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in {**options, "time": seconds}.items())


@dataclass(frozen=True, slots=True)
class CoachSettings:
    """The coach's bots and bounds: ``suggest_bot`` answers Suggest, ``review_bot`` checks
    the moves of a review (each of at most ``review_moves`` decisions costs two of its
    searches), ``slots`` searches run at once, at most ``queue`` wait; ``wait`` seconds a
    request waits for its search before a 503. With ``processes`` > 0 the searches run in
    that many worker processes (:func:`~forest_shuffle.workers.process_pool`, as the
    server's searching bots with ``--bot-processes``), so they do not hold the server's
    interpreter lock; else in ``slots`` threads. The defaults are :class:`Limits`' (the
    bounds ``serve --limits`` changes, see :meth:`of_limits`)."""

    suggest_bot: str = timed(DIFFICULTIES["hard"], _BOUNDS.suggest_time)
    review_bot: str = timed(REVIEW_BOT, _BOUNDS.review_time)
    review_moves: int = _BOUNDS.review_moves
    slots: int = _BOUNDS.coach_searches
    queue: int = _BOUNDS.coach_queue
    wait: float = _BOUNDS.coach_wait
    kept: int = 64
    processes: int = 0
    #: Searches one owner (a client address) may have running or waiting (None: any).
    per_owner: int | None = _BOUNDS.coach_per_address

    @classmethod
    def of_limits(cls, limits: Limits, processes: int = 0) -> CoachSettings:
        """The settings of ``limits``' coach bounds: the hard bot searching
        ``suggest_time`` seconds a suggestion, :data:`REVIEW_BOT` ``review_time`` seconds
        a search of a review, ``review_moves``, ``coach_searches``, ``coach_queue`` and
        ``coach_wait``; the searches in ``processes`` worker processes (0: threads)."""
        return cls(suggest_bot=timed(DIFFICULTIES["hard"], limits.suggest_time),
                   review_bot=timed(REVIEW_BOT, limits.review_time),
                   review_moves=limits.review_moves, slots=limits.coach_searches,
                   queue=limits.coach_queue, wait=limits.coach_wait, processes=processes,
                   per_owner=limits.coach_per_address)


class CoachDesk:
    """Suggestions, reviews and replays of one server (see the module contract)."""

    def __init__(self, service: GameService, settings: CoachSettings | None = None,
                 held_url: str | None = None) -> None:
        self.service = service
        self.settings = settings or CoachSettings()
        coach_bot(self.settings.suggest_bot, 0)  # a bad specification fails here
        coach_bot(self.settings.review_bot, 0)
        self._pool: Executor = (
            process_pool(self.settings.processes) if self.settings.processes > 0
            else ThreadPoolExecutor(max(1, self.settings.slots),
                                    thread_name_prefix="forest-coach"))
        # re-entrant: a search that is done already runs its done callback (which takes
        # the lock) inside add_done_callback, under the lock
        self._lock = threading.RLock()
        self._waiting = 0
        self._owners: Counter[str] = Counter()  # searches under way per client address
        #: ``per_owner`` counted over every process (``held_url``: Redis, as ``--pubsub``).
        self.held = HeldCounts(held_url, "coach", self._owner_counts)
        #: Searches waiting for a slot, per owner in turn (:meth:`_dispatch`).
        self._queues: dict[str, deque[tuple[Future[dict[str, Any]], Any, tuple[Any, ...]]]] = {}
        self._running = 0
        self._suggestions: OrderedDict[tuple[str, int, int], Future[dict[str, Any]]] = \
            OrderedDict()
        self._reviews: OrderedDict[str, Future[dict[str, Any]]] = OrderedDict()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.held.close()

    def warm(self) -> None:
        """Start every worker process now (with ``processes`` > 0), each given the
        Suggest bot to make once: a spawn takes a second or more (five under load), which
        the first searches after a start would otherwise wait for."""
        if self.settings.processes > 0:
            for _ in range(self.settings.processes):
                self._pool.submit(ready, self.settings.suggest_bot)

    def _owner_counts(self) -> dict[str, int]:
        """The searches under way per owner in this process."""
        with self._lock:
            return dict(self._owners)

    # ------------------------------------------------------------ running searches

    def _run(self, cache: OrderedDict[Any, Future[dict[str, Any]]], key: Any,
             work: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        """The result of ``work(*args)`` (a module function: it may run in a worker
        process) kept in ``cache`` under ``key``: computed once in the coach's threads or
        processes (429 when ``queue`` searches wait already). Blocks the calling thread
        until it is done: the routes use :meth:`_submit` and :meth:`_awaited` instead."""
        future = self._submit(cache, key, work, *args)
        try:
            return future.result(timeout=self.settings.wait)
        except FutureTimeout:
            raise ServiceError(503, "the coach is still thinking; ask again in a moment"
                               ) from None
        except ServiceError:
            raise
        except Exception as exc:  # a failed search is not kept: asking again retries
            raise self._failed(cache, key, future, exc) from None

    def _submit(self, cache: OrderedDict[Any, Future[dict[str, Any]]], key: Any,
                work: Callable[..., dict[str, Any]], *args: Any,
                owner: str | None = None) -> Future[dict[str, Any]]:
        """The search of ``key``: the one in ``cache`` (every request for the same search
        shares it, and it counts once in the queue), or a new one submitted: 429 when
        ``queue`` searches wait already, or when ``owner`` (a client address) has
        ``per_owner`` searches running or waiting (so one address cannot fill the queue
        of everybody else)."""
        with self._lock:
            future = cache.get(key)
            if future is None:
                most = self.settings.per_owner
                if owner is not None and not self.held.admit(owner, most):
                    raise ServiceError(429, f"your address has {most} searches of the "
                                            "coach under way, the most at once; ask again "
                                            "when they are answered")
                if self._waiting >= self.settings.queue:
                    raise ServiceError(429, f"the coach is busy with {self._waiting} "
                                            "searches; try again in a few seconds")
                future = self._enqueue(owner or "", work, args)
                self._waiting += 1
                future.add_done_callback(self._done)
                if owner is not None:
                    self._owners[owner] += 1
                    future.add_done_callback(lambda _f: self._owner_done(owner))
                cache[key] = future
                while len(cache) > self.settings.kept:
                    cache.popitem(last=False)
            else:
                cache.move_to_end(key)
        return future

    async def _awaited(self, cache: OrderedDict[Any, Future[dict[str, Any]]], key: Any,
                       future: Future[dict[str, Any]]) -> dict[str, Any]:
        """The result of a search awaited on the event loop: no thread waits for it."""
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                          self.settings.wait)
        except (TimeoutError, FutureTimeout):
            raise ServiceError(503, "the coach is still thinking; ask again in a moment"
                               ) from None
        except ServiceError:
            raise
        except Exception as exc:  # a failed search is not kept: asking again retries
            raise self._failed(cache, key, future, exc) from None

    def _failed(self, cache: OrderedDict[Any, Future[dict[str, Any]]], key: Any,
                future: Future[dict[str, Any]], exc: Exception) -> ServiceError:
        """Forget a failed search (a broken pool was replaced when it broke: see
        :meth:`_finished`); the error to answer."""
        log.error("the coach failed: %r", exc)
        with self._lock:
            if cache.get(key) is future:
                del cache[key]
        return ServiceError(500, "the coach failed; the server's log says why")

    def _enqueue(self, owner: str, work: Callable[..., dict[str, Any]],
                 args: tuple[Any, ...]) -> Future[dict[str, Any]]:
        """A search waiting its turn (with the lock held): one queue per owner, served in
        turn, so a search of a second address starts at the next free slot however many
        the first one asked for."""
        future: Future[dict[str, Any]] = Future()
        self._queues.setdefault(owner, deque()).append((future, work, args))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        """Start waiting searches while a slot is free, owner after owner (lock held)."""
        while self._running < max(1, self.settings.slots) and self._queues:
            owner, jobs = next(iter(self._queues.items()))
            future, work, args = jobs.popleft()
            del self._queues[owner]
            if jobs:  # its next search waits behind every other owner's
                self._queues[owner] = jobs
            if not future.set_running_or_notify_cancel():
                continue
            self._start(future, work, args, retried=False)

    def _start(self, future: Future[dict[str, Any]], work: Callable[..., dict[str, Any]],
               args: tuple[Any, ...], retried: bool) -> None:
        """Hand one search to the pool (lock held); ``retried``: its first go was lost
        with a worker process that died."""
        self._running += 1
        try:
            started = self._pool.submit(work, *args)
        except Exception as exc:  # a pool shut down: this search fails
            self._running -= 1
            future.set_exception(exc)
            return
        started.add_done_callback(functools.partial(
            self._finished, future=future, work=work, args=args, retried=retried))

    def _finished(self, done: Future[dict[str, Any]], *,
                  future: Future[dict[str, Any]], work: Callable[..., dict[str, Any]],
                  args: tuple[Any, ...], retried: bool) -> None:
        """A search ended in the pool: its waiting future gets the result, the next one
        starts. A worker process that died breaks the pool: a fresh one takes its place
        at once (so no search waiting behind is handed to the broken one) and the search
        that was running is tried once more there."""
        exc = None if done.cancelled() else done.exception()
        with self._lock:
            self._running -= 1
            if isinstance(exc, BrokenProcessPool) and self.settings.processes > 0:
                self._renew_pool()
                if not retried:
                    log.error("a coach worker process died; its search runs again")
                    self._start(future, work, args, retried=True)
                    self._dispatch()
                    return
            self._dispatch()
        if done.cancelled():  # the server is stopping
            future.set_exception(RuntimeError("the search was cancelled"))
        elif exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(done.result())

    def _renew_pool(self) -> None:
        """Replace a broken pool of worker processes with a fresh one (lock held; once for
        every search the break ended)."""
        pool = self._pool
        if isinstance(pool, ProcessPoolExecutor) and getattr(pool, "_broken", False):
            self._pool = process_pool(self.settings.processes)
            pool.shutdown(wait=False, cancel_futures=True)

    def _owner_done(self, owner: str) -> None:
        with self._lock:
            self._owners[owner] -= 1
            if self._owners[owner] <= 0:
                del self._owners[owner]
        self.held.sync(owner)  # the other processes see the place free at once

    def _done(self, _future: Future[dict[str, Any]]) -> None:
        with self._lock:
            self._waiting -= 1

    # ------------------------------------------------------------ Suggest

    def suggest(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The suggestion for the token's seat at its decision (see the module contract):
        ``{"version", "seat", "action", "kind", "card", "side", "tree", "payment",
        "actions", "words", "bonus", "bonus_kept", "lead", "margin", "runner_up",
        "samples", "bot"}``; ``actions`` are the texts the page sends to make the move
        (the action, then its payment in ascending order)."""
        return self._run(self._suggestions, *self._suggest_search(game_id, token))

    async def suggest_async(self, game_id: str, token: str | None,
                            owner: str | None = None) -> dict[str, Any]:
        """:meth:`suggest` for the event loop: the checks in a thread (milliseconds), the
        search awaited without holding one; ``owner``: the client address it counts for."""
        cache = self._suggestions
        key, work, *args = await asyncio.to_thread(self._suggest_search, game_id, token)
        future = await asyncio.to_thread(self._submit, cache, key, work, *args, owner=owner)
        return await self._awaited(cache, key, future)

    def _suggest_search(self, game_id: str, token: str | None) -> tuple[Any, ...]:
        """The checks of a suggestion; its search as (key, work, arguments...)."""
        game = self.service.game(game_id)
        seat = game.seat_of(token)
        if seat is None:
            raise ServiceError(403, "only a seat of the game may ask for a suggestion")
        if game.settings.get("no_help"):
            raise ServiceError(403, "this game is played without help: the seats agreed "
                                    "to no suggestions")
        snap = game.snap
        state = snap.state
        check_decision(game, state, seat, over="the game is over: nothing to suggest")
        view = state.view(seat)  # the seat's own view: the only thing the bot is given
        seed = derive(game.seed, f"suggest {seat} {snap.version}")
        return ((game.id, snap.version, seat), suggestion_of, view,
                self.settings.suggest_bot, seed, snap.version)

    # ------------------------------------------------------------ the review

    def review(self, game_id: str) -> dict[str, Any]:
        """The review of a finished game (409 before; see the module contract)."""
        return self._run(self._reviews, *self._review_search(game_id)) | {"game_id": game_id}

    async def review_async(self, game_id: str, owner: str | None = None) -> dict[str, Any]:
        """:meth:`review` for the event loop: every request for one game's review shares
        its one search and none holds a thread while it runs; ``owner``: the client
        address a new search counts for."""
        cache = self._reviews
        key, work, *args = await asyncio.to_thread(self._review_search, game_id)
        future = await asyncio.to_thread(self._submit, cache, key, work, *args, owner=owner)
        return await self._awaited(cache, key, future) | {"game_id": key}

    def _review_search(self, game_id: str) -> tuple[Any, ...]:
        """The checks of a review; its search as (key, work, arguments...)."""
        game = self.service.game(game_id)
        state = game.snap.state
        if not state.over:
            raise ServiceError(409, "the review comes when the game is over")
        record = record_of(state)
        names = [s.name for s in game.seats]
        humans = [s.seat for s in game.seats if s.kind == "human"]
        seed = derive(game.seed, "review")
        return (game.id, review_of, record, names, humans, self.settings, seed)

def ready(spec: str) -> str:
    """A worker process's first job (:meth:`CoachDesk.warm`): its imports done and a
    ``spec`` bot made once, before any search comes."""
    coach_bot(spec, 0)
    return spec


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def suggestion_of(view: PlayerView, spec: str, seed: int, version: int) -> dict[str, Any]:
    """The suggestion of a fresh ``spec`` bot for ``view``'s player (see
    :meth:`CoachDesk.suggest`): only the view is read."""
    advice = advise(view, coach_bot(spec, seed), seed)
    facts = advice_facts(advice, view)
    a = advice.action
    pays = [f"pay {c}" for c in sorted(advice.payment)]
    first = [] if a.kind == PAY else [str(a)]
    return {"version": version, "seat": view.player, "action": str(a), "kind": a.kind,
            "card": a.card or None, "side": a.side or None,
            "tree": a.tree + 1 if a.kind == PLAY and a.side else None,
            "payment": list(advice.payment), "actions": first + pays,
            "words": facts.words, "action_words": facts.action, "bonus": facts.bonus,
            "bonus_kept": facts.bonus_kept, "lead": _round(advice.lead),
            "margin": _round(advice.margin), "runner_up": facts.runner_up,
            "samples": advice.samples, "bot": spec}


# ---------------------------------------------------------------------------- the review


@dataclass(frozen=True, slots=True)
class _Decision:
    step: int
    seat: int
    turn: int  # every seat's turns counted (the engine's turn)
    own_turn: int  # the seat's own turns (as the page's turn counter says)
    view: PlayerView
    played: Action


def _species_points(sheet_cards: Sequence[Any]) -> list[dict[str, Any]]:
    """Points by species (the cave as its own line) from the scorer's per-card list."""
    out: dict[str, list[int]] = {}
    for cp in sheet_cards:
        row = out.setdefault(cp.species, [0, 0])
        row[0] += cp.points
        row[1] += 1
    ranked = sorted(out.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [{"name": name, "points": pts, "cards": n} for name, (pts, n) in ranked]


def _pick(decisions: list[_Decision], most: int) -> list[_Decision]:
    """At most ``most`` decisions, shared fairly among the seats and spread over the game."""
    by_seat: dict[int, list[_Decision]] = {}
    for d in decisions:
        by_seat.setdefault(d.seat, []).append(d)
    share = {s: 0 for s in by_seat}
    left = most
    while left > 0 and any(share[s] < len(ds) for s, ds in by_seat.items()):
        for s, ds in by_seat.items():
            if left > 0 and share[s] < len(ds):
                share[s] += 1
                left -= 1
    chosen: list[_Decision] = []
    for s, ds in by_seat.items():
        k = share[s]
        if k:
            chosen.extend(ds[(i * len(ds)) // k] for i in range(k))
    return sorted(chosen, key=lambda d: d.step)


def review_of(record: dict[str, Any], names: Sequence[str], seats: Sequence[int],
              settings: CoachSettings, seed: int) -> dict[str, Any]:
    """The review of a finished game's record (see :meth:`CoachDesk.review`); the moves of
    ``seats`` are checked (every seat's when empty)."""
    state = state_of_record(record)
    game = state.game
    n = state.num_players

    def points() -> list[int]:
        return [sh.total for sh in game.score_table(make_spectator_view(state).forests)]

    turns: list[dict[str, Any]] = [{"turn": state.turn, "step": 0, "totals": points()}]
    decisions: list[_Decision] = []
    checked = set(seats) if seats else set(range(n))
    begun = [0] * n  # the turns each seat has begun
    last_turn = -1
    for k, text in enumerate(record["actions"]):
        action = Action.parse(text)
        seat = state.to_move
        before = state.turn
        if state.turn != last_turn and state.turn > 0:
            last_turn = state.turn
            begun[state.current] += 1
        if (seat in checked and state.decision == "turn"
                and len(state.legal_actions()) > 1):
            view = state.view(seat)
            # only moves greedy's quick look would not have made are worth a search
            if greedy_view_action(view) != action:
                decisions.append(_Decision(k, seat, state.turn, begun[seat], view, action))
        state.apply(action)
        if state.turn != before or state.over:
            turns.append({"turn": state.turn, "step": k + 1, "totals": points()})
    assert state.over, "a review is of a finished game"
    sheets = game.score_table(make_spectator_view(state).forests)
    final = [{"seat": i, "total": sh.total, "lines": dict(sh.lines),
              "species": _species_points(sh.cards)} for i, sh in enumerate(sheets)]
    moves: list[dict[str, Any]] = []
    picked = _pick(decisions, settings.review_moves)
    for d in picked:
        s = derive(seed, f"move {d.step}")
        cmp = compare(d.view, d.played, coach_bot(settings.review_bot, s), s)
        gain = cmp.gain
        if cmp.same or gain is None or gain < MIN_GAIN:
            continue
        moves.append({"seat": d.seat, "name": names[d.seat], "turn": d.turn,
                      "own_turn": d.own_turn, "step": d.step,
                      "played": str(d.played),
                      "played_words": action_words(d.played, d.view),
                      "chosen": str(cmp.chosen),
                      "chosen_words": action_words(cmp.chosen, d.view),
                      "played_points": _round(cmp.played_points),
                      "chosen_points": _round(cmp.chosen_points), "gain": _round(gain)})
    moves.sort(key=lambda m: -float(m["gain"]))
    return {"game": game.id, "game_title": game.title, "names": list(names),
            "lines": list(game.pad_lines), "turns": turns, "final": final,
            "moves": moves, "checked": len(picked), "bot": settings.review_bot}


__all__ = ["MIN_GAIN", "CoachDesk", "CoachSettings", "ready", "review_of", "suggestion_of"]
