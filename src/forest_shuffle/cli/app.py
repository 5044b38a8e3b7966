"""The ``forest-shuffle`` command line: one Typer app, one module per sub-command.

Contract: every sub-command lives in ``forest_shuffle.cli.commands.<name>`` and exposes
``register(app)``. Bad input ends with one line on standard error and a non-zero exit
status, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated

import typer
from typer.exceptions import TyperException

from forest_shuffle.cli.words import _, use_language

app = typer.Typer(
    name="forest-shuffle",
    help="Play, score and study the card game Forest Shuffle.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(lang: Annotated[str | None, typer.Option(
        "--lang", metavar="LANG",
        help="The language of the messages: en, fr, de or zh (default: LANGUAGE, LC_ALL, "
             "LC_MESSAGES or LANG, else English).")] = None) -> None:
    """Play, score and study the card game Forest Shuffle."""
    use_language(lang)


COMMANDS: tuple[str, ...] = (
    "cards", "score", "simulate", "replay", "play", "tournament", "stats", "serve", "learn",
)

for _name in COMMANDS:
    importlib.import_module(f"forest_shuffle.cli.commands.{_name}").register(app)


def main() -> None:
    """Entry point of the console script and of ``python -m forest_shuffle``.

    A usage error (a missing argument, an option that is not a number...) is one line on
    standard error and exit status 2, like every other refusal of the command line."""
    try:
        code = app(standalone_mode=False)
    except TyperException as exc:  # usage errors of the command-line parser
        ctx = getattr(exc, "ctx", None)
        where = getattr(ctx, "command_path", "") or "forest-shuffle"
        print(_("{where}: {message} (see --help)", where=where, message=exc.format_message()),
              file=sys.stderr)
        sys.exit(exc.exit_code)
    except typer.Abort:
        print(_("interrupted"), file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
