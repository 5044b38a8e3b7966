"""Cheap bots never queue behind searching ones: the server's bots decide in two lanes of
threads, one for searches (as many as the search slots) and one for every other bot."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from forest_shuffle.bots import Bot
from forest_shuffle.bots.base import Budget
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.server.bot_queue import BotScheduler
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store


class GatedSearcher(Bot):
    """A searching bot whose decision lasts until ``gate`` is set; counts how many of its
    kind think at once."""

    name = "gated"
    searches = True
    lock = threading.Lock()
    now = 0
    most = 0

    def __init__(self, gate: threading.Event) -> None:
        super().__init__(0)
        self.gate = gate

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        cls = type(self)
        with cls.lock:
            cls.now += 1
            cls.most = max(cls.most, cls.now)
        try:
            assert self.gate.wait(30), "the test did not open the gate"
        finally:
            with cls.lock:
                cls.now -= 1
        return view.legal_actions[0]


def _version(svc: GameService, gid: str) -> int:
    return svc.game(gid).snap.version


def _wait(cond: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(cond) and cond():
            return True
        time.sleep(0.01)
    return False


def test_an_easy_bot_moves_at_once_while_every_search_slot_is_busy(tmp_path: Path) -> None:
    svc = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=0.2,
                      bot_processes=0)
    gate = threading.Event()
    GatedSearcher.now = GatedSearcher.most = 0
    try:
        searching = []
        for k in range(6):  # more searching games than any lane has threads
            made = svc.create([SeatSpec("bot", "S", "hard"), SeatSpec("human")], seed=k)
            gid = str(made["game_id"])
            svc.game(gid).bots[0] = GatedSearcher(gate)  # before its delay is over
            searching.append(gid)
        assert _wait(lambda: GatedSearcher.now >= 2, 5), "the searches did not start"
        time.sleep(0.3)  # every search that can start has started
        made = svc.create([SeatSpec("bot", "E", "easy"), SeatSpec("human")], seed=99)
        easy = str(made["game_id"])
        start = time.monotonic()
        assert _wait(lambda: _version(svc, easy) >= 1, 3), \
            "the easy bot waited behind the searching bots"
        assert time.monotonic() - start < 1.0
        medium = str(svc.create([SeatSpec("bot", "M", "medium"), SeatSpec("human")],
                                seed=98)["game_id"])
        assert _wait(lambda: _version(svc, medium) >= 1, 3)
        # The searches are bounded by their slots, and none is lost once they end.
        assert GatedSearcher.most <= 2
        assert all(_version(svc, g) == 0 for g in searching)
        gate.set()
        assert _wait(lambda: all(_version(svc, g) >= 1 for g in searching), 10)
    finally:
        gate.set()
        svc.close()


def test_the_scheduler_keeps_searches_in_their_own_lane() -> None:
    gate = threading.Event()
    ran: list[tuple[str, float]] = []
    lock = threading.Lock()

    def run(game_id: str, version: int) -> None:
        if game_id.startswith("search"):
            gate.wait(10)
        with lock:
            ran.append((game_id, time.monotonic()))

    sched = BotScheduler(run, workers=1, search_workers=1,
                         searches=lambda game_id: game_id.startswith("search"))
    try:
        now = time.monotonic()
        for k in range(5):
            sched.at(now, f"search{k}", 0)
        for k in range(3):
            sched.at(now + 0.05, f"cheap{k}", 0)
        assert _wait(lambda: len(ran) == 3, 2), ran
        assert [g for g, _ in ran] == ["cheap0", "cheap1", "cheap2"]
        assert sched.waiting_searches() == 4  # one thinks, four wait for its slot
        gate.set()
        assert _wait(lambda: len(ran) == 8, 5)
        assert [g for g, _ in ran[3:]] == [f"search{k}" for k in range(5)]  # in order
        assert sched.waiting_searches() == 0
    finally:
        gate.set()
        sched.close()
