"""Saved terminal games: the engine's full save plus what the terminal needs to go on.

Contract: a save is one JSON object ``{"format": "forest-shuffle terminal 1", "state":
GameState.to_dict(), "seats": [{"name": "You", "bot": null}, {"name": "Player 2 (bot)",
"bot": "hard"}], "seed_chosen": false, "hints": true, "hint_bot": "mcts:time=2"}``: the
state in the engine's save format (``docs/save-format.md``, everything, hidden cards
included: a save file shows the whole deal), and per seat its name and the bot
specification that plays it (``null`` for a person; people sit first). :func:`read_save`
checks all of it and raises :class:`SaveFileError`, one printable line, for a file that
is missing, unreadable, no JSON, no terminal save or no reachable position.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forest_shuffle.bots import BotSpecError, make_bot
from forest_shuffle.engine.check import BrokenSaveError, JsonInputError, load_json, printable
from forest_shuffle.engine.state import GameState
from forest_shuffle.terminal.words import _, ngettext

#: The ``format`` of a terminal save.
SAVE_FORMAT = "forest-shuffle terminal 1"
#: The longest seat name read back.
MAX_NAME = 40


class SaveFileError(ValueError):
    """A file is no terminal save that can be resumed; the message is one line."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a saved game: its name and its bot (None for a person)."""

    name: str
    bot: str | None


@dataclass(frozen=True, slots=True)
class TerminalSave:
    """A terminal game as saved: the state, the seats and the terminal's settings."""

    state: GameState
    seats: tuple[SeatRecord, ...]
    seed_chosen: bool
    hints: bool
    hint_bot: str


def save_data(save: TerminalSave) -> dict[str, Any]:
    """The JSON-ready form of ``save``."""
    return {
        "format": SAVE_FORMAT,
        "state": save.state.to_dict(),
        "seats": [{"name": s.name, "bot": s.bot} for s in save.seats],
        "seed_chosen": save.seed_chosen,
        "hints": save.hints,
        "hint_bot": save.hint_bot,
    }


def write_save(path: Path, save: TerminalSave) -> None:
    """Write ``save`` to ``path`` (through a file beside it, so a failed write leaves any
    older save whole); OSError passes."""
    text = json.dumps(save_data(save), separators=(",", ":")) + "\n"
    part = path.with_name(path.name + ".part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, path)
    finally:
        if part.exists():
            part.unlink()


def _problem(path: Path, why: str) -> SaveFileError:
    return SaveFileError(_("{file}: {problem}", file=printable(str(path))[:200], problem=why))


def read_save(path: Path) -> TerminalSave:
    """The saved game in ``path``; :class:`SaveFileError` (one line) if it is none."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _problem(path, _("not a saved game (not UTF-8 text)")) from None
    except OSError as exc:
        raise _problem(path, _("cannot read it ({reason})",
                                reason=exc.strerror or type(exc).__name__)) from None
    try:
        data = load_json(text)
    except JsonInputError as exc:
        raise _problem(path, _("not a saved game ({reason})", reason=exc)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise _problem(path, _("not a saved terminal game (expected format {format})",
                                format=repr(SAVE_FORMAT)))
    state_data = data.get("state")
    if not isinstance(state_data, dict):
        raise _problem(path, _("state must be a saved game state ({shape})",
                                shape="GameState.to_dict"))
    try:
        state = GameState.from_dict(state_data)
    except BrokenSaveError as exc:
        raise _problem(path, str(exc)) from None
    seats_data = data.get("seats")
    if not isinstance(seats_data, list) or len(seats_data) != state.num_players:
        raise _problem(path, ngettext("seats must list the {n} seat of the game",
                                       "seats must list the {n} seats of the game",
                                       state.num_players))
    seats: list[SeatRecord] = []
    for i, seat in enumerate(seats_data):
        if not isinstance(seat, dict):
            raise _problem(path, _("seat {n} is not an object", n=i + 1))
        name, bot = seat.get("name"), seat.get("bot")
        if (not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME
                or not name.isprintable()):
            raise _problem(path, _("seat {n} needs a printable name of at most {most} "
                                   "characters", n=i + 1, most=MAX_NAME))
        if bot is not None:
            if not isinstance(bot, str):
                raise _problem(path, _("seat {n}: bot must be a bot specification or null",
                                        n=i + 1))
            try:
                make_bot(bot)
            except BotSpecError as exc:
                raise _problem(path, _("seat {n}: {problem}", n=i + 1, problem=exc)) from None
        if bot is None and seats and seats[-1].bot is not None:
            raise _problem(path, _("people sit before the bots"))
        seats.append(SeatRecord(name, bot))
    flags: dict[str, bool] = {}
    for key in ("seed_chosen", "hints"):
        value = data.get(key)
        if not isinstance(value, bool):
            raise _problem(path, _("{key} must be true or false", key=key))
        flags[key] = value
    hint_bot = data.get("hint_bot")
    if not isinstance(hint_bot, str):
        raise _problem(path, _("{key} must be a bot specification", key="hint_bot"))
    try:
        make_bot(hint_bot)
    except BotSpecError as exc:
        raise _problem(path, _("{key}: {problem}", key="hint_bot", problem=exc)) from None
    return TerminalSave(state, tuple(seats), flags["seed_chosen"], flags["hints"], hint_bot)
