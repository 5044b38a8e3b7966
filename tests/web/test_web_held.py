"""Counts of things an address holds, shared by processes through Redis
(:mod:`forest_shuffle.server.held`): a bound holds over every process, a process that dies
stops counting once its entries expire, and without Redis each process counts its own
(one log line). A throwaway Redis (``services.py``; skipped without it, except in CI)."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from services import free_port, redis_server

from forest_shuffle.server.held import HeldCounts

pytest.importorskip("redis")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


class Holder:
    """One process's holdings: what it admitted, per address."""

    def __init__(self, url: str | None, name: str, ttl: float = 10.0) -> None:
        self.held: Counter[str] = Counter()
        self.counts = HeldCounts(url, name, lambda: dict(self.held), ttl=ttl)

    def take(self, address: str, bound: int) -> bool:
        if self.counts.admit(address, bound):
            self.held[address] += 1
            return True
        return False


def test_a_bound_holds_over_two_processes(redis_url: str) -> None:
    one, two = Holder(redis_url, "t1"), Holder(redis_url, "t1")
    try:
        assert one.take("a", 3) and two.take("a", 3) and one.take("a", 3)
        assert not two.take("a", 3) and not one.take("a", 3)  # 3 in all, not 3 each
        assert two.take("b", 3)  # another address has its own count
        one.held["a"] -= 1  # one lets one go
        one.counts.sync("a")
        assert two.take("a", 3)
    finally:
        one.counts.close()
        two.counts.close()


def test_a_dead_process_stops_counting_after_the_expiry(redis_url: str) -> None:
    dead, alive = Holder(redis_url, "t2", ttl=0.5), Holder(redis_url, "t2", ttl=0.5)
    try:
        assert dead.take("a", 2) and dead.take("a", 2)
        assert not alive.take("a", 2)
        dead.counts._stop.set()  # it dies: no renewal, and nothing taken out of Redis
        deadline = time.monotonic() + 10
        while not alive.take("a", 2):
            assert time.monotonic() < deadline, "a dead process still counts"
            time.sleep(0.05)
    finally:
        alive.counts.close()


def test_without_redis_each_process_counts_its_own(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "forest_shuffle.server.held")
    down = Holder(f"redis://127.0.0.1:{free_port()}/0", "t3", ttl=60)
    try:
        assert down.take("a", 2) and down.take("a", 2) and not down.take("a", 2)
        lines = [r for r in caplog.records if "this process only" in r.getMessage()]
        assert len(lines) == 1 and "\n" not in lines[0].getMessage()
    finally:
        down.counts.close()
