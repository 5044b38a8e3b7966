"""The ``play`` sub-command: play Forest Shuffle in the terminal against bots or hot-seat.

Contract: ``play [--game ID] [--players N] [--bots K] [--seed S] [--level LEVEL]
[--no-hints] [--hint-bot SPEC]`` deals a new game; ``play --game dartmoor --solo CHALLENGE
[--medal MEDAL]`` a solo game against the automa Anna (the challenge in words first, the
goal, score and medal at the end; ``hint`` asks the solo player, ``bots/solo.py``), and with
``--bots 1`` the solo player (``--level``, default :data:`SOLO_LEVEL`) plays it while you
watch; ``play --resume FILE`` goes on with a
game saved from the terminal (``quit`` or Ctrl-C, then ``s``), whose file holds the seats,
their bots and whether hints are on, so it takes none of the table options. A bad option,
or a resume file that is missing, unreadable or no saved game, is one line on standard
error and exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from forest_shuffle.bots import BotSpecError, make_bot
from forest_shuffle.cli.commands.options import GameOption, game_from_option
from forest_shuffle.cli.commands.solo import MedalOption, SoloOption, check_medal, solo_game_of
from forest_shuffle.cli.words import _
from forest_shuffle.games import BASE_ID
from forest_shuffle.games.dartmoor_solo import DartmoorSoloState, solo_data, solo_result
from forest_shuffle.terminal.coach import HINT_BOT
from forest_shuffle.terminal.line import Terminal
from forest_shuffle.terminal.saves import SaveFileError, read_save
from forest_shuffle.text.narration import challenge_words, solo_result_words

#: The bot that plays a solo challenge with ``--solo N --bots 1`` unless ``--level`` says.
SOLO_LEVEL = "solo:time=1"


def _int_option(value: str | None, name: str) -> int | None:
    """Parse an integer option; one line on stderr and exit 2 if it is not one."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        typer.echo(_("{name} must be a whole number, not {value}", name=name, value=repr(value)),
                   err=True)
        raise typer.Exit(2) from None


def _refuse(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(2)


def play_command(
    game: GameOption = BASE_ID,
    players: Annotated[str | None, typer.Option(
        "--players", metavar="N", help="Players at the table, 2 to 5.",
        show_default="2")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", metavar="K", help="How many of them are bots (humans sit first).",
        show_default="players - 1")] = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="S", help="Deal seed, to replay a game.",
        show_default="random")] = None,
    level: Annotated[str | None, typer.Option(
        "--level", metavar="LEVEL",
        help="How the bots play: easy (random), medium (greedy), hard (search), "
             "or a bot such as mcts:time=2.", show_default="easy")] = None,
    no_hints: Annotated[bool, typer.Option(
        "--no-hints", help="Play without help: 'hint' gives no advice in this game.")] = False,
    hint_bot: Annotated[str | None, typer.Option(
        "--hint-bot", metavar="SPEC",
        help="The bot 'hint' asks (a search bot specification).",
        show_default=HINT_BOT)] = None,
    resume: Annotated[Path | None, typer.Option(
        "--resume", metavar="FILE",
        help="Go on with a game saved from the terminal.")] = None,
    solo: SoloOption = None,
    medal: MedalOption = None,
) -> None:
    """Play in the terminal: you against bots, or several people hot-seat."""
    medal_name = check_medal(medal, solo)
    if resume is not None:
        given = [name for name, value in (("--players", players), ("--bots", bots),
                                          ("--seed", seed), ("--level", level),
                                          ("--hint-bot", hint_bot), ("--solo", solo),
                                          ("--medal", medal)) if value is not None]
        if game != BASE_ID:
            given.insert(0, "--game")
        if no_hints:
            given.append("--no-hints")
        if given:
            raise _refuse(_("--resume takes the table from the saved game: leave out "
                            "{options}", options=", ".join(given)))
        try:
            saved = read_save(resume)
        except SaveFileError as exc:
            raise _refuse(_("{option}: {message}", option="--resume", message=exc)) from None
        terminal = Terminal(resume=saved, save_path=resume)
    else:
        gdef = game_from_option(game)
        n = _int_option(players, "--players")
        k = _int_option(bots, "--bots")
        s = _int_option(seed, "--seed")
        alone = solo_game_of(gdef, solo)
        if alone is not None:  # Dartmoor's solo mode: you alone, Anna plays by herself
            if n not in (None, 1) or k not in (None, 0, 1):
                raise _refuse(_("--solo is one player and no bots: leave out --players and "
                                "--bots (or --bots 1: the solo bot plays the challenge)"))
            gdef, n, k = alone, 1, k or 0
            if k and level is None:
                level = SOLO_LEVEL
            ch = solo_data().challenges[alone.options["challenge"] - 1]
            typer.echo(challenge_words(ch.number, ch.title, ch.thresholds, medal_name))
        n = 2 if n is None else n
        if alone is None and not 2 <= n <= 5:
            raise _refuse(_("--players must be from 2 to 5, not {value}", value=n))
        k = n - 1 if k is None else k
        if not 0 <= k <= n:
            raise _refuse(_("--bots must be from 0 to {most}, not {value}", most=n, value=k))
        for option, spec in (("--level", level or "easy"), ("--hint-bot", hint_bot or HINT_BOT)):
            try:
                make_bot(spec)
            except BotSpecError as exc:
                raise _refuse(_("{option}: {message}", option=option, message=exc)) from None
        terminal = Terminal(n, k, s, level=level or "easy", game=gdef, hints=not no_hints,
                            hint_bot=hint_bot or HINT_BOT)
    try:
        winners = terminal.run()
        state = terminal.state
        if winners is not None and isinstance(state, DartmoorSoloState):
            for line in solo_result_words(solo_result(state), medal_name):
                typer.echo(line)
    except KeyboardInterrupt:
        typer.echo("\n" + _("Interrupted: game abandoned."), err=True)
        raise typer.Exit(130) from None


def register(app: typer.Typer) -> None:
    """Add the ``play`` sub-command to ``app``."""
    app.command("play")(play_command)
