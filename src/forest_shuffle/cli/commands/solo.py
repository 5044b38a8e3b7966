"""Dartmoor's solo mode on the command line: the ``--solo`` and ``--medal`` options of
``play`` and ``simulate``, and solo runs of a bot.

Contract: :func:`solo_game_of` turns ``--game``, ``--solo`` and ``--medal`` into the
challenge's definition (or None without ``--solo``), ending the command with one line on
standard error and exit status 2 for a challenge that is not a number from 1 to 15, a medal
other than bronze, silver or gold, ``--medal`` without ``--solo``, or ``--solo`` with a
game other than Dartmoor. :func:`solo_runs` plays G games of each challenge with one bot
(game i of a run uses the seed ``game_seed(S, i)``, the same for every challenge) and
returns per challenge the games, the mean score, the goal's rate, each medal's rate (a medal
counts for the lower ones too), the count of games ending at each best medal
(``none``, ``bronze``, ``silver``, ``gold``) and the Wilson 95 % interval of every rate.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NoReturn

import typer

from forest_shuffle.bots import make_bot
from forest_shuffle.cli.words import _
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.games import GameDef
from forest_shuffle.games.dartmoor import DARTMOOR_ID
from forest_shuffle.games.dartmoor_solo import (
    MEDALS,
    DartmoorSoloState,
    solo_data,
    solo_game,
    solo_result,
)
from forest_shuffle.match import wilson_interval

SoloOption = Annotated[str | None, typer.Option(
    "--solo", metavar="CHALLENGE",
    help="Dartmoor alone against the automa Anna: the challenge, 1 to 15.",
    show_default=False)]
MedalOption = Annotated[str | None, typer.Option(
    "--medal", metavar="MEDAL", help="With --solo: the medal played for (bronze, silver, "
    "gold).", show_default=False)]


def _refuse(message: str) -> NoReturn:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def challenge_numbers(value: str, every: bool = False) -> list[int]:
    """The challenges ``--solo`` names (``all`` if ``every``); exit 2 otherwise."""
    count = len(solo_data().challenges)
    text = value.strip()
    if every and text == "all":
        return list(range(1, count + 1))
    if not (text.isdigit() and 1 <= int(text) <= count):
        _refuse(_("--solo must be a challenge from 1 to {count} or all, not {value}", count=count,
                  value=repr(value)) if every else
                _("--solo must be a challenge from 1 to {count}, not {value}", count=count,
                  value=repr(value)))
    return [int(text)]


def check_medal(medal: str | None, solo: str | None) -> str:
    """The medal ``--medal`` names ("" if none); exit 2 if it is no medal or comes
    without ``--solo``."""
    if medal is None:
        return ""
    if solo is None:
        _refuse(_("--medal goes with --solo CHALLENGE"))
    m = medal.strip().lower()
    if m not in MEDALS:
        _refuse(_("--medal must be {first} or {last}, not {value}",
                  first=", ".join(MEDALS[:-1]), last=MEDALS[-1], value=repr(medal)))
    return m


def check_solo_game(game: GameDef) -> None:
    """``--solo`` goes with ``--game dartmoor`` only."""
    if game.id != DARTMOOR_ID:
        _refuse(_("--solo is Dartmoor's solo mode: use --game dartmoor (not {game})",
                  game=game.id))


def solo_game_of(game: GameDef, solo: str | None) -> GameDef | None:
    """The solo challenge's definition, or None without ``--solo``."""
    if solo is None:
        return None
    check_solo_game(game)
    return solo_game(challenge_numbers(solo)[0])


def solo_runs(challenges: Sequence[int], bot: str, games: int, seed: int,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` solo games of each challenge with the bot ``bot``; the summary (the
    ``--json`` shape of ``simulate --solo``)."""
    from forest_shuffle.cli.commands.simulate import game_seed

    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    done = 0
    for number in challenges:
        gdef = solo_game(number)
        scores = 0
        goals = 0
        medals = dict.fromkeys(MEDALS, 0)
        best = dict.fromkeys(("none", *MEDALS), 0)
        for i in range(games):
            s = game_seed(seed, i)
            player = make_bot(bot, derive(s, "bot 0"))
            state = GameState.new(1, s, game=gdef)
            while not state.over:
                state.apply(player.choose(state.view(0)))
            assert isinstance(state, DartmoorSoloState)
            result = solo_result(state)
            scores += result.score
            goals += result.goal_met
            for m in MEDALS:
                medals[m] += result.reached(m)
            best[result.medal or "none"] += 1
            done += 1
            if progress is not None:
                progress(done)
        rows.append({"challenge": number, "title": solo_data().challenges[number - 1].title,
                     "games": games, "avg_score": scores / games, "goal_rate": goals / games,
                     "medal_rates": {m: medals[m] / games for m in MEDALS},
                     "best_medal": best,
                     "intervals": {k: list(wilson_interval(v, games))
                                   for k, v in (("goal", goals), ("none", best["none"]),
                                                *medals.items())}})
    return {"game": DARTMOOR_ID, "solo": True, "bot": bot, "games": games, "seed": seed,
            "challenges": rows, "seconds": time.perf_counter() - start}
