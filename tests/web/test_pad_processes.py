"""The score pad across server processes (docs/pad.md, "How it works"): a long poll in one
process is woken by an entry written in another, through the bus (``--pubsub``) or, without
one, by the poll of the table's stored version; the long-poll waiters are bounded (429 on
one table, 503 in a process, one line with Retry-After); real servers: ``serve --workers 2``
on PostgreSQL and Redis, and two servers on one SQLite file."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from padutil import new_table, ok, table
from services import postgres, redis_server
from webutil import one_line_error, server

from forest_shuffle.server import pad
from forest_shuffle.server.store import Store

OAK = {"op": "add_host", "host": "Oak"}


class SharedBus:
    """Test double of the Redis bus: every service started on it hears every publication."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[str, int], None]] = []

    def start(self, callback: Callable[[str, int], None]) -> None:
        self.listeners.append(callback)

    def publish(self, game_id: str, version: int) -> None:
        for cb in self.listeners:
            threading.Thread(target=cb, args=(game_id, version)).start()

    def close(self) -> None:
        pass


def _wait_then_write(waiter: pad.PadService, writer: pad.PadService, tid: str, token: str,
                     timeout: float) -> tuple[dict[str, Any], float]:
    """A long poll on ``waiter`` while ``writer`` stores an entry: its answer, seconds."""
    async def run() -> tuple[dict[str, Any], float]:
        since = json.loads(waiter.answer(tid))["version"]
        start = time.monotonic()
        task = asyncio.create_task(waiter.wait(tid, since, timeout))
        await asyncio.sleep(0.2)
        await asyncio.to_thread(writer.enter, tid, token, "w1", None, None, OAK)
        got = json.loads(await task)
        return got, time.monotonic() - start
    # In a thread of its own: a Chromium test earlier in this process (Playwright's sync
    # API) may have left an event loop running in the main thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_a_write_in_another_process_wakes_a_long_poll_by_the_stored_version(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pad.db'}"
    one, two = Store(url), Store(url)
    a, b = pad.PadService(one), pad.PadService(two)  # two processes, no bus
    t = a.create("base", ["Ann"])
    got, _ = _wait_then_write(b, a, t["id"], t["seats"][0]["token"], timeout=8)
    assert got["version"] == 1 and got["players"][0]["forest"]["trees"] == [{"tree": "Oak"}]
    one.close()
    two.close()


def test_a_write_in_another_process_wakes_a_long_poll_through_the_bus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pad, "POLL_SECONDS", 3600.0)  # the bus alone must carry it
    monkeypatch.setattr(pad, "BUS_POLL_SECONDS", 3600.0)
    url = f"sqlite:///{tmp_path / 'pad.db'}"
    one, two = Store(url), Store(url)
    bus = SharedBus()
    a, b = pad.PadService(one, bus=bus), pad.PadService(two, bus=bus)
    t = a.create("base", ["Ann"])
    got, _ = _wait_then_write(b, a, t["id"], t["seats"][0]["token"], timeout=8)
    assert got["version"] == 1
    one.close()
    two.close()


class DeafBus(SharedBus):
    """A bus that loses every message (a reconnect at the wrong moment, say)."""

    def publish(self, game_id: str, version: int) -> None:
        pass


def test_a_message_the_bus_lost_delays_a_long_poll_a_few_seconds_not_to_its_end(
        tmp_path: Path) -> None:
    """With a bus, a waiting phone's table is still checked every BUS_POLL_SECONDS: a lost
    message no longer holds a phone until its long poll ends (before: the whole timeout,
    here the whole 25 s)."""
    url = f"sqlite:///{tmp_path / 'pad.db'}"
    one, two = Store(url), Store(url)
    bus = DeafBus()
    a, b = pad.PadService(one, bus=bus), pad.PadService(two, bus=bus)
    t = a.create("base", ["Ann"])
    got, seconds = _wait_then_write(b, a, t["id"], t["seats"][0]["token"], timeout=25)
    assert got["version"] == 1 and got["players"][0]["forest"]["trees"] == [{"tree": "Oak"}]
    assert seconds < 20, seconds  # answered by a check, not by the long poll's end
    one.close()
    two.close()


def test_long_poll_waiters_are_bounded_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from webutil import client

    monkeypatch.setattr(pad, "TABLE_WAITERS_MAX", 2)
    monkeypatch.setattr(pad, "WAITERS_MAX", 3)
    with client() as c:
        tables = [new_table(c, "base", ["Ann"]) for _ in range(2)]
        results: list[int] = []

        def hold(tid: str) -> None:
            r = c.get(f"/api/pad/tables/{tid}/wait", params={"since": 0, "timeout": 3})
            results.append(r.status_code)

        holders = [threading.Thread(target=hold, args=(tables[0]["id"],)) for _ in range(2)]
        holders.append(threading.Thread(target=hold, args=(tables[1]["id"],)))
        for th in holders:
            th.start()
        time.sleep(1.0)
        full_table = c.get(f"/api/pad/tables/{tables[0]['id']}/wait",
                           params={"since": 0, "timeout": 1})
        assert "table" in one_line_error(full_table, 429)
        assert full_table.headers["Retry-After"]
        full_server = c.get(f"/api/pad/tables/{tables[1]['id']}/wait",
                            params={"since": 0, "timeout": 1})
        assert "server" in one_line_error(full_server, 503)
        for th in holders:
            th.join(10)
        assert results == [200, 200, 200]
        # the waiters are gone: a new one is served again
        again = c.get(f"/api/pad/tables/{tables[0]['id']}/wait",
                      params={"since": 0, "timeout": 0.2})
        assert again.status_code == 200


def _live_across(bases: list[str], rounds: int = 3) -> None:
    """Waiters on fresh connections (spread over the processes) all see an entry posted
    through another connection, long before their timeout."""
    with httpx.Client(base_url=bases[0], timeout=30) as c:
        t = new_table(c, "base", ["Ann"])
        tid, token = t["id"], t["seats"][0]["token"]
        seen = table(c, tid)["version"]  # the creating process's: the table's own
    for n in range(rounds):
        got: list[tuple[int, float]] = []

        def wait(base: str, since: int, into: list[tuple[int, float]]) -> None:
            start = time.monotonic()
            with httpx.Client(base_url=base, timeout=30) as w:  # a connection of its own
                r = w.get(f"/api/pad/tables/{tid}/wait", params={"since": since,
                                                                "timeout": 20})
            into.append((r.json()["version"], time.monotonic() - start))

        waiters = [threading.Thread(target=wait, args=(bases[i % len(bases)], seen, got))
                   for i in range(6)]
        for th in waiters:
            th.start()
        time.sleep(1.0)
        with httpx.Client(base_url=bases[0], timeout=30) as c:
            ok(c, tid, token, {"op": "set_cave", "cave": n + 1})
        for th in waiters:
            th.join(25)
        assert [v for v, _ in got] == [seen + 1] * 6
        assert all(s < 15 for _, s in got), got  # woken, not answered at the timeout
        seen += 1


def test_serve_workers_2_pad_entries_are_live_in_every_process() -> None:
    with postgres() as pg, redis_server() as redis_url, server(
            pg, extra=["--pubsub", redis_url, "--workers", "2", "--bot-processes", "0",
                       "--limits", "off"]) as (_proc, base):
        _live_across([base])


def test_two_servers_on_one_sqlite_file_see_each_others_entries_live(
        tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'pad.db'}"
    with server(db) as (_p1, one), server(db) as (_p2, two):
        _live_across([one, two])


def test_the_pad_router_serves_one_service_to_the_companion(c: TestClient) -> None:
    made = c.post("/api/companion", json={"challenge": 1}).json()
    assert c.get(f"/api/pad/tables/{made['pad']['table']}").status_code == 200


def test_a_table_read_in_one_process_shows_the_writes_of_another(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'pad.db'}"
    with server(db) as (_p1, one), server(db) as (_p2, two), \
            httpx.Client(base_url=one, timeout=30) as a, \
            httpx.Client(base_url=two, timeout=30) as b:
        t = new_table(a, "base", ["Ann"])
        assert table(b, t["id"])["version"] == 0  # the second process holds the table
        ok(a, t["id"], t["seats"][0]["token"], OAK)
        time.sleep(pad.POLL_SECONDS)
        assert table(b, t["id"])["players"][0]["forest"]["trees"] == [{"tree": "Oak"}]
