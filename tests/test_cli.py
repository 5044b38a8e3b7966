"""The command line as a whole: every sub-command is listed, both ways of starting work."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from forest_shuffle.cli.app import COMMANDS, app


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in ("cards", "score", "simulate", "replay", "play", "tournament", "stats"):
        assert name in COMMANDS
        assert name in result.output


def test_python_dash_m_runs_the_same_app() -> None:
    out = subprocess.run([sys.executable, "-m", "forest_shuffle", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "simulate" in out.stdout


def test_unknown_command_is_refused_without_traceback() -> None:
    result = CliRunner().invoke(app, ["fly"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_usage_errors_are_one_line_with_status_2() -> None:
    for args in (["score"], ["simulate", "--players", "x", "--games", "1", "--seed", "1"],
                 ["fly"]):
        out = subprocess.run([sys.executable, "-m", "forest_shuffle", *args],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, args
        assert out.stdout == ""
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and "see --help" in lines[0], out.stderr
