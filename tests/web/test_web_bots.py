"""Where the server's bots think: a searching bot in a worker process, the others in
threads; the bot comes back from the worker with its new state."""

from __future__ import annotations

import os
import time
from pathlib import Path

from forest_shuffle.bots import Bot
from forest_shuffle.bots.base import Budget
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.server.service import GameService, SeatSpec
from forest_shuffle.server.store import Store


class PidBot(Bot):
    """Plays the first legal action and remembers the process of each decision."""

    name = "pid"

    def __init__(self, seed: int = 0, searches: bool = True) -> None:
        super().__init__(seed)
        self.searches = searches
        self.pids: list[int] = []

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        self.pids.append(os.getpid())
        return view.legal_actions[0]


def _service(tmp_path: Path, processes: int, delay: float = 0.5) -> GameService:
    return GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), bot_delay=delay,
                       bot_processes=processes)


def _wait_version(svc: GameService, gid: str, version: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while svc.game(gid).snap.version < version:
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)


def _bot_game(svc: GameService, bot: Bot) -> str:
    made = svc.create([SeatSpec("bot", "B", "hard"), SeatSpec("bot", "C", "easy")], seed=5)
    gid = str(made["game_id"])
    svc.game(gid).bots[0] = bot  # before the delay is over: nothing was chosen yet
    return gid


def test_a_searching_bot_thinks_in_a_worker_process(tmp_path: Path) -> None:
    svc = _service(tmp_path, processes=1)
    try:
        gid = _bot_game(svc, PidBot())
        _wait_version(svc, gid, 6)
        back = svc.game(gid).bots[0]
        assert isinstance(back, PidBot) and len(back.pids) >= 2  # its state came back
        assert os.getpid() not in back.pids
        assert len(set(back.pids)) == 1  # one worker, kept between decisions
    finally:
        svc.close()


def test_other_bots_and_a_server_without_processes_think_in_threads(tmp_path: Path) -> None:
    for processes, searches in ((1, False), (0, True)):
        (tmp_path / f"{processes}{searches}").mkdir()
        svc = _service(tmp_path / f"{processes}{searches}", processes)
        try:
            bot = PidBot(searches=searches)
            gid = _bot_game(svc, bot)
            _wait_version(svc, gid, 4)
            assert svc.game(gid).bots[0] is bot and set(bot.pids) == {os.getpid()}
        finally:
            svc.close()


def test_the_hard_bot_moves_from_a_worker_process(tmp_path: Path) -> None:
    svc = _service(tmp_path, processes=1, delay=0.0)
    try:
        made = svc.create([SeatSpec("bot", "B", "hard"), SeatSpec("human")], seed=9)
        gid = str(made["game_id"])
        before = svc.game(gid).bots[0]
        assert isinstance(before, MCTSBot) and svc.game(gid).snap.state.to_move == 0
        _wait_version(svc, gid, 1)
        after = svc.game(gid).bots[0]
        assert isinstance(after, MCTSBot) and after is not before
        assert after.rng.getstate() != before.rng.getstate()
    finally:
        svc.close()
