"""What clients send: request bodies, the seat token and query numbers (docs/web.md, REST).

Contract: every body is read strictly (:class:`StrictBody`: an integer is a JSON integer, a
boolean a JSON boolean, a text a JSON string) and bounded (list lengths, text lengths); a
query's whole number is ASCII digits only (:data:`QueryInt`). A failure is a 400 in one
line (the app's handler of validation errors).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from fastapi import Header, Query
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt

from forest_shuffle.server.limits import ACTION_CHARS, VERSION_MAX
from forest_shuffle.server.replays import MAX_RECORD_CHARS

#: The games one request of the lobby's list may ask about.
MAX_KNOWN = 30

#: A seat's token, in the ``X-Seat-Token`` header or the ``token`` query parameter.
Token = Annotated[str | None, Header(alias="X-Seat-Token", description="a seat's token")]
QToken = Annotated[str | None, Query(alias="token", description="a seat's token")]
#: The log entries the client holds: the answer's log starts there (0 or left out: all).
LogFrom = Annotated[str | None, Query(
    alias="log_from", description="the log entries the client holds (whole number, 0 to "
                                  "the log's length): the answer's log starts there")]
#: The language the answer's words are in (en, fr, de, zh; else ``Accept-Language``).
LangQuery = Annotated[str | None, Query(alias="lang", max_length=35,
                                        description="en, fr, de or zh (else Accept-Language)")]
AcceptLanguage = Annotated[str | None, Header(alias="Accept-Language")]


class StrictBody(BaseModel):
    """A request body read strictly: an integer is a JSON integer (not ``"123"``, ``true``
    or ``7.0``), a boolean a JSON boolean (not ``"yes"`` or ``1``), a text a JSON string."""

    model_config = ConfigDict(strict=True)


def whole_number(value: object) -> object:
    """A query parameter's whole number: ASCII digits only (no ``1_0``, sign, space or
    ``+``), at most 9 of them; anything else is left to fail as not an integer."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]{1,9}", value):
        raise ValueError("must be a whole number written in digits")
    return value


#: An integer of a query: digits only (:func:`whole_number`).
QueryInt = Annotated[int, BeforeValidator(whole_number)]


class SeatIn(StrictBody):
    """One seat of a new game."""

    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=200)
    level: str | None = Field(default=None, description="easy, medium or hard (bots only)")


class NewGame(StrictBody):
    """``POST /api/games``: 2 to 5 seats, an optional seed, hot-seat or invite links."""

    seats: list[SeatIn] = Field(max_length=50)
    seed: int | None = None
    hotseat: bool = False
    game: str | None = Field(default=None, max_length=80,
                             description="a game id (base, base+alpine, base+woodland_edge, "
                                         "base+alpine+woodland_edge); the server's default "
                                         "when left out")
    help: bool = Field(default=True, description="false: the seats agreed to play without "
                                                 "help (no Suggest in this game)")


class SoloIn(StrictBody):
    """``POST /api/solo``: a solo game of Dartmoor against Anna (one seat, the caller's)."""

    challenge: StrictInt = Field(description="the challenge, 1 to 15 (GET /api/solo)")
    medal: str | None = Field(default=None, max_length=20,
                              description="the medal played for: bronze, silver or gold")
    name: str | None = Field(default=None, max_length=200)
    seed: int | None = None
    help: bool = Field(default=True, description="false: no Suggest in this game")


class ActionIn(StrictBody):
    """An action in text form (docs/actions.md) sent against the version the client saw."""

    action: str = Field(max_length=ACTION_CHARS, examples=["take 57"])
    version: StrictInt = Field(ge=0, le=VERSION_MAX,
                               description="the payload version the action answers")


class ClaimIn(StrictBody):
    """``POST /api/games/{game_id}/claim``: the ``invite`` code of a seat's link."""

    invite: str = Field(max_length=64)


class RecordIn(StrictBody):
    """``POST /api/replays``: a record file's text (docs/records.md)."""

    text: str = Field(max_length=MAX_RECORD_CHARS)


#: A replay's step (actions applied) and viewer (a seat; left out: a spectator).
Step = Annotated[QueryInt, Query(ge=0, le=100_000, description="actions applied (0: the deal)")]
Seat = Annotated[QueryInt | None, Query(ge=0, le=9, description="the seat whose view (left out: "
                                                           "a spectator's)")]


class KnownGame(StrictBody):
    """A game a browser holds a seat token of (or none: it only watched)."""

    game_id: str = Field(max_length=40)
    token: str | None = Field(default=None, max_length=64)


class KnownGames(StrictBody):
    """``POST /api/known-games``: the games a browser remembers (its local storage)."""

    games: list[KnownGame] = Field(max_length=MAX_KNOWN)
