"""``serve --warm-workers``: the worker processes of the hard bots and of the coach start
with the server, not at their first search (a spawn takes a second or more, five under
load, which the first Suggest after a start waited for)."""

from __future__ import annotations

import time
from pathlib import Path

from forest_shuffle.server import coach as coach_module
from forest_shuffle.server.coach import CoachSettings
from forest_shuffle.server.service import GameService
from forest_shuffle.server.store import Store


def _started(pool: object, n: int) -> bool:
    """Whether ``n`` worker processes of the pool are up, within 60 s."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        procs = getattr(pool, "_processes", None) or {}
        if len(procs) == n and all(p.is_alive() for p in procs.values()):
            return True
        time.sleep(0.05)
    return False


def test_the_coach_and_the_bots_start_their_workers_when_warmed(tmp_path: Path) -> None:
    desk = coach_module.CoachDesk(None, CoachSettings(  # type: ignore[arg-type]
        suggest_bot="mcts:iterations=10", processes=2))
    svc = GameService(Store(f"sqlite:///{tmp_path / 'g.db'}"), bot_processes=1)
    try:
        desk.warm()
        svc.warm()
        assert _started(desk._pool, 2), "the coach's workers did not start"
        assert _started(svc.bots._thinkers, 1), "the bots' worker did not start"
    finally:
        desk.close()
        svc.close()
