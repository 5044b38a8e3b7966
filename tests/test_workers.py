"""Worker pools (``forest_shuffle.workers``): fresh processes that die with their parent."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forest_shuffle.workers import WATCH_SECONDS, process_pool

LINUX = sys.platform.startswith("linux")


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie left unreaped by the container's init is dead)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_pool_runs_jobs_in_other_processes() -> None:
    with process_pool(2) as pool:
        pids = {pool.submit(os.getpid).result(timeout=30) for _ in range(4)}
    assert os.getpid() not in pids


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_workers_hold_none_of_the_parents_pipes() -> None:
    """The hang a forked helper caused under Playwright: a worker that inherited the
    write end of a parent's pipe keeps the reader from ever seeing the end."""
    r, w = os.pipe()
    try:
        with process_pool(1) as pool:
            assert pool.submit(os.getpid).result(timeout=30) != os.getpid()
            os.close(w)
            w = -1
            ready, _, _ = select.select([r], [], [], 5.0)
            assert ready, "a worker holds the pipe's write end"
            assert os.read(r, 1) == b""
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


PARENT = """
import sys, time
from forest_shuffle.workers import process_pool
pool = process_pool(2)
futures = [pool.submit(time.sleep, 120) for _ in range(2)]
time.sleep(1.0)
print(" ".join(str(p) for p in pool._processes), flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_workers_exit_when_the_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        pids = [int(x) for x in line.split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 20 * WATCH_SECONDS + 5
        while time.monotonic() < deadline and any(_alive(p) for p in pids):
            time.sleep(0.1)
        left = [p for p in pids if _alive(p)]
        for p in left:
            os.kill(p, signal.SIGKILL)
        assert not left, f"workers {left} outlived their killed parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_a_worker_whose_parent_died_while_it_started_exits() -> None:
    # A spawned worker starts in about a second; if the pool's process dies meanwhile, the
    # worker is re-parented before its watch begins. It must still know its parent: the
    # pid of the process that made the pool, not whatever getppid says at start.
    code = ("import time; from forest_shuffle.workers import _watch; "
            "_watch(2**22 + 12345); time.sleep(10)")
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", code], timeout=30, capture_output=True)
    assert out.returncode == 1 and out.stderr == b"", out.stderr  # the watch's exit
    assert time.monotonic() - start < 8
