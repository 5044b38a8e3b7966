"""The ``serve`` command: listed, refuses bad options in one line, default database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_shuffle.cli.app import COMMANDS, app
from forest_shuffle.cli.commands.serve import port_problem, storage_words
from forest_shuffle.server.app import default_db_url


def test_serve_is_listed() -> None:
    assert "serve" in COMMANDS
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for word in ("--host", "--port", "--db", "--bot-delay", "--bot-processes"):
        assert word in result.output


@pytest.mark.parametrize("args", [
    ["--port", "70000"],
    ["--bot-delay", "-1"],
    ["--bot-processes", "-1"],
    ["--db", "nosuchdb://x"],
    ["--db", "sqlite:////no/such/folder/games.db"],
    ["--workers", "0"],
    ["--workers", "2"],  # several processes need PostgreSQL and Redis
    ["--workers", "2", "--db", "sqlite:///x.db", "--pubsub", "redis://127.0.0.1:1"],
    ["--pubsub", "http://127.0.0.1:1"],
    ["--pubsub", "redis://127.0.0.1:1", "--db", "sqlite://"],  # SQLite is one process's
    ["--bot-lease", "0.1"],
])
def test_serve_refuses_bad_options_in_one_line(args: list[str]) -> None:
    out = subprocess.run([sys.executable, "-m", "forest_shuffle", "serve", *args],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "Traceback" not in out.stderr


def test_default_database_is_in_the_user_data_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_db_url()
    assert url == f"sqlite:///{tmp_path / 'forest-shuffle' / 'games.sqlite3'}"
    assert (tmp_path / "forest-shuffle").is_dir()


def _listening() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


def test_serve_on_a_taken_port_is_one_line_with_a_free_one() -> None:
    sock, port = _listening()
    with sock:
        out = subprocess.run([sys.executable, "-m", "forest_shuffle", "serve", "--port",
                              str(port), "--db", "sqlite://"],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    line = out.stderr.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert line.startswith(f"port {port} is taken; try --port ")
    suggested = int(line.rsplit(" ", 1)[1])
    assert suggested > port
    with socket.socket() as probe:  # the suggested port is free
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", suggested))
    assert port_problem("127.0.0.1", 0) is None
    assert port_problem("nosuch.invalid", 8000) is not None


def test_serve_says_where_games_are_stored_and_stops_quietly(tmp_path: Path) -> None:
    sock, port = _listening()
    sock.close()
    db = tmp_path / "games.db"
    proc = subprocess.Popen([sys.executable, "-m", "forest_shuffle", "serve", "--port",
                             str(port), "--db", f"sqlite:///{db}", "--bot-processes", "1"],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stderr is not None
        banner = proc.stderr.readline()
        assert f"http://127.0.0.1:{port}/" in banner
        assert f"games are stored in {db}" in banner
        for _ in range(200):  # until it listens
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the group, workers too
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert storage_words("sqlite://").startswith("games are kept in memory only")
    assert "secret" not in storage_words("postgresql://ann:secret@db.example/games")


POOL_SCRIPT = """
import os, signal, sys, time
from forest_shuffle.workers import process_pool

def busy(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))
    return "finished"

if __name__ == "__main__":
    # Ctrl-C in a terminal: KeyboardInterrupt (a shell's background job, as CI may start
    # the tests, inherits SIGINT ignored, and Python then leaves it ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    pool = process_pool(2)
    print(pool.submit(pow, 2, 10).result(), flush=True)  # both workers started, one idle
    job = pool.submit(busy, 60)
    time.sleep(2)
    try:
        os.killpg(os.getpgid(0), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt:
        print("parent interrupted", flush=True)
    print(type(job.exception(timeout=30)).__name__, flush=True)
    print(pool.submit(pow, 3, 3).result(timeout=30), flush=True)  # the pool still works
    pool.shutdown()
"""


def test_ctrl_c_aborts_a_workers_job_and_leaves_idle_workers_quiet(tmp_path: Path) -> None:
    script = tmp_path / "pool.py"
    script.write_text(POOL_SCRIPT)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, start_new_session=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1024", "parent", "interrupted", "KeyboardInterrupt", "27"]
    assert "Traceback" not in out.stderr, out.stderr
