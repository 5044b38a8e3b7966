"""The page names only commands and options that the command line has."""

from __future__ import annotations

import re
from pathlib import Path

import typer

from forest_shuffle.cli.app import app

STATIC = Path(__file__).resolve().parent.parent / "src" / "forest_shuffle" / "server" / "static"
#: ``forest-shuffle COMMAND --option ...`` as the page writes it.
COMMAND = re.compile(r"forest-shuffle ([a-z]+)((?: --[a-z-]+(?: [A-Z0-9.]+)?)*)")


def test_every_command_line_the_page_names_exists() -> None:
    click = typer.main.get_command(app)
    assert isinstance(click, typer.core.TyperGroup)
    named = [(f.name, m) for f in sorted(STATIC.glob("*.js"))
             for m in COMMAND.findall(f.read_text(encoding="utf-8"))]
    assert any(name == "replay.js" for name, _m in named)
    for name, (command, options) in named:
        sub = click.commands.get(command)
        assert sub is not None, f"{name}: no command {command}"
        known = {o for p in sub.params for o in p.opts}
        for option in re.findall(r"--[a-z-]+", options):
            assert option in known, f"{name}: forest-shuffle {command} has no {option}"
