"""Dependencies of the routers: what a route needs, from the app's state and the request.

Contract: :data:`Svc`, :data:`Desk`, :data:`ReplaysDep` and :data:`HubDep` are the app's
:class:`GameService`, :class:`CoachDesk`, :class:`Replays` and socket :class:`Hub` (set by
``create_app`` on ``app.state``);
:data:`Address` the client's address as the limits count it;
:data:`SeatToken` is the request's seat token (the ``X-Seat-Token`` header, else the
``token`` query parameter; None: a spectator). All are resolved on the event loop (async, no
thread of the pool taken for them).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from forest_shuffle.i18n import negotiate
from forest_shuffle.server.bodies import AcceptLanguage, LangQuery, QToken, Token
from forest_shuffle.server.coach import CoachDesk
from forest_shuffle.server.hub import Hub
from forest_shuffle.server.limits import address_of
from forest_shuffle.server.replays import Replays
from forest_shuffle.server.service import GameService


async def service(request: Request) -> GameService:
    """The app's game service."""
    svc: GameService = request.app.state.service
    return svc


async def desk(request: Request) -> CoachDesk:
    """The app's coach (Suggest, the review, replays)."""
    coach: CoachDesk = request.app.state.coach
    return coach


async def replays(request: Request) -> Replays:
    """The app's replays (finished games and record files)."""
    found: Replays = request.app.state.replays
    return found


async def hub(request: Request) -> Hub:
    """The app's socket hub."""
    found: Hub = request.app.state.hub
    return found


async def seat_token(x_seat_token: Token = None, token: QToken = None) -> str | None:
    """The request's seat token: the header first, else the query parameter."""
    return x_seat_token or token


async def language(lang: LangQuery = None, accept_language: AcceptLanguage = None) -> str:
    """The language of the request's words: its ``lang`` query parameter, else its
    ``Accept-Language`` header, else English (:func:`~forest_shuffle.i18n.negotiate`: an
    unknown tag is skipped, never refused)."""
    return negotiate(accept_language, lang)


async def client_address(request: Request) -> str:
    """The request's client address as the limits count it (an IPv6 /64 as one)."""
    return address_of(request.scope)


Svc = Annotated[GameService, Depends(service)]
Address = Annotated[str, Depends(client_address)]
Desk = Annotated[CoachDesk, Depends(desk)]
ReplaysDep = Annotated[Replays, Depends(replays)]
HubDep = Annotated[Hub, Depends(hub)]
SeatToken = Annotated[str | None, Depends(seat_token)]
Lang = Annotated[str, Depends(language)]
