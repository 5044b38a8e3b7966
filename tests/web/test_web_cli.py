"""The ``serve`` command: listed, refuses bad options in one line, default database."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_shuffle.cli.app import COMMANDS, app
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
