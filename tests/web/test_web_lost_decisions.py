"""No queued decision is lost: a bot's move or a coach's search that waits its turn is
made, or answered, whatever fails on the way (a database read, a refused move, a worker
process that dies). Each test makes one failure happen on purpose and checks the decision
still comes (before, each of them left a game waiting for ever or failed every search
queued behind)."""

from __future__ import annotations

import os
import signal
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

from forest_shuffle.bots import Bot
from forest_shuffle.bots.base import Budget
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.server import coach as coach_module
from forest_shuffle.server.coach import CoachSettings
from forest_shuffle.server.pubsub import LocalLeases
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store

BOT_FIRST = [SeatSpec("bot", level="easy"), SeatSpec("human", "Ann")]


def _moves(svc: GameService, gid: str, seconds: float = 10.0) -> bool:
    """Whether the game's first decision (the bot's) is made within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if svc.game(gid).snap.version >= 1:
            return True
        time.sleep(0.02)
    return False


class QuietBus:
    """A bus to no other process: the service shares its database (it catches up before a
    bot moves), and nobody hears of it."""

    def start(self, _callback: Any) -> None:
        pass

    def publish(self, _game_id: str, _version: int) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_bot_decision_survives_a_failed_read_before_its_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sharing the database, a bot's decision first reads what other processes stored; when
    that read fails once, the decision is tried again (before, it was dropped and the game
    waited for its bot for ever: nothing scheduled it again)."""
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    real = store.actions_from
    failures = [0]

    def flaky(game_id: str, index: int) -> list[str]:
        if failures[0] == 0:
            failures[0] += 1
            raise RuntimeError("the database went away for a moment")
        return real(game_id, index)

    monkeypatch.setattr(store, "actions_from", flaky)
    monkeypatch.setattr("forest_shuffle.server.bot_seats.BOT_RETRY", 0.05)
    svc = GameService(store, bot_delay=0.2, bus=QuietBus(),  # type: ignore[arg-type]
                      leases=LocalLeases())
    try:
        gid = svc.create(BOT_FIRST, seed=3)["game_id"]
        assert _moves(svc, gid), "the bot's decision was lost after a failed read"
        assert failures[0] == 1
    finally:
        svc.close()


class Wrong(Bot):
    """A bot whose choice is not a legal action (a bug of a bot, a view out of step)."""

    name = "wrong"

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        return Action("take", 10_000)


def test_a_refused_bot_move_is_replaced_by_a_legal_one(tmp_path: Path) -> None:
    """A bot that chooses an illegal action plays a legal one instead (before, the refusal
    was logged and the game waited for its bot for ever)."""
    svc = GameService(Store(f"sqlite:///{tmp_path / 'g.db'}"), bot_delay=0.2)
    try:
        gid = svc.create(BOT_FIRST, seed=4)["game_id"]
        svc.game(gid).bots[0] = Wrong(0)  # before its delay is over
        assert _moves(svc, gid), "the bot's refused move left the game waiting"
    finally:
        svc.close()


def _worker_pids(desk: coach_module.CoachDesk) -> list[int]:
    return list(desk._pool._processes)  # type: ignore[attr-defined]


def test_searches_queued_behind_a_dead_worker_are_answered(tmp_path: Path) -> None:
    """The coach's worker process dies during a search while another waits for the slot:
    the one waiting runs in a fresh worker, and the one that was running is tried once
    more there (before, both failed: the waiting search was handed to the broken pool)."""
    desk = coach_module.CoachDesk(None, CoachSettings(  # type: ignore[arg-type]
        slots=1, queue=10, per_owner=None, processes=1))
    cache: Any = OrderedDict()
    started = tmp_path / "started"
    try:
        running = desk._submit(cache, "a", os.system,
                               f"touch {started}; sleep 2", owner="A")
        waiting = desk._submit(cache, "b", os.system, "true", owner="B")
        deadline = time.monotonic() + 60
        while not started.exists():
            assert time.monotonic() < deadline, "the first search never started"
            time.sleep(0.02)
        (pid,) = _worker_pids(desk)
        os.kill(pid, signal.SIGKILL)
        assert waiting.result(timeout=60) == 0
        assert running.result(timeout=60) == 0
    finally:
        desk.close()


def test_a_decision_lost_on_the_way_is_found_and_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever loses a scheduled decision (here the queue drops the first one it is
    given), the rescue round finds the game waiting for a bot with nothing scheduled and
    schedules it again (before, the game waited for its bot for ever)."""
    monkeypatch.setattr("forest_shuffle.server.bot_seats.RESCUE", 0.2, raising=False)
    svc = GameService(Store(f"sqlite:///{tmp_path / 'g.db'}"), bot_delay=0)
    queue = svc.bots._queue
    real = queue.at
    dropped: list[str] = []

    def lossy(due: float, game_id: str, version: int) -> None:
        if not dropped:
            dropped.append(game_id)  # lost: never queued
            return
        real(due, game_id, version)

    monkeypatch.setattr(queue, "at", lossy)
    try:
        gid = svc.create(BOT_FIRST, seed=5)["game_id"]
        assert dropped == [gid]
        assert _moves(svc, gid), "the lost decision was never made"
    finally:
        svc.close()
