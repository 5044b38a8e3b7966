"""Throwaway PostgreSQL and Redis servers for the tests that need them.

Each is started from the distribution's binaries in a temporary folder, on a private port
(PostgreSQL on a Unix socket only), and removed afterwards. Without the binaries the tests
are skipped, except under CI (``FOREST_SHUFFLE_NEED_SERVICES=1``, set by ``.ci/run``, which
installs them): there a missing service fails the test, so a green CI has really run them.
``FOREST_SHUFFLE_TEST_POSTGRES`` / ``FOREST_SHUFFLE_TEST_REDIS`` (URLs) use running servers
instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

NEED = os.environ.get("FOREST_SHUFFLE_NEED_SERVICES") == "1"


def missing(why: str) -> None:
    """Skip the test, or fail it where CI says the services must be there."""
    if NEED:
        pytest.fail(f"{why} (FOREST_SHUFFLE_NEED_SERVICES=1: CI installs it)")
    pytest.skip(why)


def _which(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def postgres() -> Iterator[str]:
    """A database URL of a throwaway PostgreSQL cluster."""
    url = os.environ.get("FOREST_SHUFFLE_TEST_POSTGRES")
    if url:
        yield url
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed (the postgres or scale extra)")
    initdb, pg_ctl = _which("initdb"), _which("pg_ctl")
    if initdb is None or pg_ctl is None:
        missing("no PostgreSQL (initdb, pg_ctl) on this machine")
    assert initdb is not None and pg_ctl is not None
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        missing("running as root without runuser")
    folder = Path(tempfile.mkdtemp(prefix="forest-pg-"))
    data = folder / "data"
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres")
        subprocess.run(_as_postgres([initdb, "-N", "-D", str(data), "-A", "trust", "-U", "fs"]),
                       check=True, capture_output=True, timeout=120)
        port = free_port()
        options = (f"-k {folder} -p {port} -c listen_addresses='' -c fsync=off "
                   "-c max_connections=200")
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-l", str(folder / "log"),
                                     "-o", options, "-w", "start"]),
                       check=True, capture_output=True, timeout=120)
    except (subprocess.SubprocessError, OSError, LookupError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        missing(f"could not start PostgreSQL: {exc}")
    try:
        yield f"postgresql://fs@/postgres?host={folder}&port={port}"
    finally:
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def redis_server() -> Iterator[str]:
    """A URL of a throwaway Redis server (no persistence) on a loopback port."""
    url = os.environ.get("FOREST_SHUFFLE_TEST_REDIS")
    if url:
        yield url
        return
    try:
        import redis
    except ImportError:
        missing("redis-py is not installed (the scale extra)")
    binary = shutil.which("redis-server")
    if binary is None:
        missing("no redis-server on this machine")
    assert binary is not None
    folder = Path(tempfile.mkdtemp(prefix="forest-redis-"))
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            missing("redis-server did not start")
        client.close()
        yield url
    finally:
        proc.kill()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
