"""The FastAPI app: wiring of the service, the coach, the socket hub and the routers
(docs/web.md).

Contract: :func:`create_app` builds an app over one :class:`GameService`. Every error is
``{"error": "one line"}`` with status 400 (bad input, illegal action), 403 (this token may
not do that), 404 (no such game or route), 409 (stale version) or 503 (the database cannot
store a write, the server is stopping). A seat's token comes in the ``X-Seat-Token`` header
or the ``token`` query parameter; without a seat's token a request or socket is a
spectator's. The routes live in routers by concern (:mod:`.routes`: games, the coach and
replays, sockets, pages) and take what they need through FastAPI's dependencies
(:mod:`.routes.deps`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import platformdirs
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from forest_shuffle.i18n import negotiate
from forest_shuffle.server.answers import error, validation_line
from forest_shuffle.server.coach import CoachDesk, CoachSettings
from forest_shuffle.server.companion import companion_router
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.headers import SafeHeaders
from forest_shuffle.server.hub import Conn, Hub
from forest_shuffle.server.limits import Guard, Limits, SocketGate
from forest_shuffle.server.pad import PAD_CHANNEL, PadService, pad_router
from forest_shuffle.server.pubsub import Bus, Leases, RedisBus, RedisLeases
from forest_shuffle.server.replays import Replays
from forest_shuffle.server.routes import coaching, games, pages, sockets
from forest_shuffle.server.routes.pages import DOCS_ASSETS_URL, add_api_pages, docs_assets
from forest_shuffle.server.service import GameService
from forest_shuffle.server.store import Store, StoreClosed, StoreUnwritable

__all__ = ["DOCS_ASSETS_URL", "SERVE_ENV", "Conn", "Hub", "add_api_pages", "app_from_env",
           "create_app", "default_db_url"]
log = logging.getLogger(__name__)


DESCRIPTION = """\
The server holds every game; clients send actions in text form (`take 57`, `play 71 left 3`)
with the version they saw, and the engine decides. A seat's token (its invite link) goes in
the `X-Seat-Token` header or the `token` query parameter; without one a client is a
spectator. Every refusal is `{"error": "one line"}`: 400 bad input or illegal action, 403
not allowed for this token, 404 no such game, 409 stale version, 413 body over 64 KB, 429
too many requests or new games from one address (see `Retry-After`).

**WebSocket** `/api/games/{game_id}/ws?token=...&log_from=N`: the server sends
`{"type": "state", "payload": ...}` (the same payload as `GET /api/games/{game_id}`) at once
and after every change; the log of each comes as an increment: the entries from `log_from`
(the first message: the client's `N`, default 0; then what this socket was not sent yet)
to `log_total`. The client may send
`{"type": "action", "action": "draw", "version": 12}` (a refusal comes back as
`{"type": "error", "error": "...", "status": 409}`) or `{"type": "ping"}`.
"""


def default_db_url() -> str:
    """``sqlite:///`` a file in the user's data directory (created if missing)."""
    folder = Path(platformdirs.user_data_dir("forest-shuffle"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


def create_app(db_url: str | None = None, bot_delay: float = 0.4,
               service: GameService | None = None, bot_processes: int = 0,
               limits: Limits | None = None, pubsub: str | None = None,
               lease_seconds: float = 5.0, game: str = "base",
               coach: CoachSettings | None = None,
               warm_workers: bool = False) -> FastAPI:
    """The web app over a database URL (default: SQLite in the user's data directory);
    searching bots think in ``bot_processes`` worker processes (0: in threads); input and
    floods are bounded by ``limits`` (default :class:`Limits()`, see :mod:`.limits`).
    With ``pubsub`` (a ``redis://`` URL) this is one of several processes on one database:
    changes travel through Redis and bot seats are leased for ``lease_seconds``
    (docs/deploy.md). Unfinished games that wait for a bot are resumed at once. ``game``:
    the game a creation that names none gets (an unknown id is a ValueError). ``coach``:
    the bots and bounds of Suggest, the review and replays (:mod:`.coach`; default:
    ``limits``' coach bounds, in up to two worker processes when ``bot_processes`` > 0).
    ``warm_workers``: start the worker processes of the bots and the coach at once (else
    on their first search). ValueError for a pubsub URL without redis-py or a database
    that cannot be shared."""
    lim = limits or Limits()
    gate = SocketGate(lim)
    if service is None:
        store = Store(db_url or default_db_url())
        bus: Bus | None = None
        leases: Leases | None = None
        if pubsub:
            if store.url.startswith("sqlite"):
                store.close()
                raise ValueError("several processes need a shared database: "
                                 "--db postgresql://...")
            try:
                bus = RedisBus(pubsub)
                leases = RedisLeases(pubsub, ttl=lease_seconds)
            except ValueError:
                store.close()
                raise
            except Exception as exc:  # redis-py's connection errors, a bad URL
                store.close()
                line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise ValueError(f"cannot use Redis at {pubsub[:60]!r}: {line}") from None
        service = GameService(store, bot_delay, bot_processes=bot_processes, bus=bus,
                              leases=leases, default_game=game,
                              bot_games_per_owner=lim.bot_games_per_address,
                              held_url=pubsub)
    svc = service
    if pubsub:  # sockets per address, per seat, spectators per game: over every process
        gate.share(pubsub)
    hub = Hub(svc)
    # the coach's searches think where the searching bots do: in worker processes if any
    desk = CoachDesk(svc, coach or CoachSettings.of_limits(
        lim, processes=min(2, max(0, bot_processes))), held_url=pubsub)
    if warm_workers:
        svc.warm()
        desk.warm()
    svc.check_stored()  # names each stored game that cannot be read; the others are served
    # the score pad's news travel between processes on its own channel (else: polled)
    pad = PadService(svc.store, bus=RedisBus(pubsub, channel=PAD_CHANNEL) if pubsub else None)
    svc.resume()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield
        desk.close()
        pad.stop()
        svc.close()
        gate.close()

    app = FastAPI(
        title="Forest Shuffle",
        summary="Authoritative game server for browser play (docs/web.md).",
        description=DESCRIPTION,
        version="1",
        lifespan=lifespan,
        docs_url=None,  # served below, from this server's own files (never a CDN)
        redoc_url=None,
    )
    app.state.service = svc
    app.state.hub = hub
    app.state.coach = desk
    app.state.replays = Replays(svc)
    app.state.limits = lim
    app.state.gate = gate
    # with several processes the buckets per address are shared through Redis
    app.add_middleware(Guard, limits=lim, shared=pubsub)
    app.include_router(pad_router(pad))  # the score pad (server/pad.py, docs/pad.md)
    app.include_router(companion_router(svc.store, pad))  # the solo companion (the same)
    app.add_middleware(SafeHeaders)  # outermost: refusals of the Guard get them too

    @app.exception_handler(ServiceError)
    async def _service_error(req: Request, exc: ServiceError) -> JSONResponse:
        lang = req.query_params.get("lang")  # the page's language, else its browser's
        said = negotiate(req.headers.get("accept-language"), lang[:35] if lang else None)
        return error(exc.status, exc.said_in(said))

    @app.exception_handler(StoreClosed)
    async def _stopping(_req: Request, _exc: StoreClosed) -> JSONResponse:
        return error(503, "the server is stopping; try again")

    @app.exception_handler(StoreUnwritable)
    async def _unwritable(_req: Request, exc: StoreUnwritable) -> JSONResponse:
        return error(503, f"could not store it: {exc}")

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_req: Request, exc: RequestValidationError) -> JSONResponse:
        return error(400, validation_line(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _crash(_req: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return error(500, "internal error of the server")

    app.include_router(games.router)
    app.include_router(coaching.router)
    app.include_router(sockets.router)
    app.include_router(pages.router)
    pages.add_static(app)
    add_api_pages(app, docs_assets())

    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        """The schema without FastAPI's 422 answers: bad input is a 400 here."""
        if app.openapi_schema is None:
            schema = plain_openapi()
            for path in schema.get("paths", {}).values():
                for op in path.values():
                    op.get("responses", {}).pop("422", None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


#: The environment variable through which ``serve --workers N`` hands its options to
#: each worker process (uvicorn starts them and calls :func:`app_from_env`).
SERVE_ENV = "FOREST_SHUFFLE_SERVE"


def app_from_env() -> FastAPI:
    """The app of one worker of ``serve --workers N``, from the options in
    :data:`SERVE_ENV` (JSON: db, bot_delay, bot_processes, limits, pubsub, lease, game,
    warm, parent). With ``parent`` (the supervisor's pid) the worker exits when the supervisor
    is gone, even killed with SIGKILL, rather than hold the port on its own."""
    from forest_shuffle.server.limits import fit_to_files, parse_limits, raise_file_limit
    from forest_shuffle.workers import exit_with_parent

    opts = json.loads(os.environ[SERVE_ENV])
    if opts.get("parent"):
        exit_with_parent(int(opts["parent"]))
    bounds = fit_to_files(parse_limits(opts.get("limits", "")), raise_file_limit())
    return create_app(opts["db"], float(opts["bot_delay"]),
                      bot_processes=int(opts["bot_processes"]), limits=bounds,
                      pubsub=opts.get("pubsub"), lease_seconds=float(opts.get("lease", 5.0)),
                      game=str(opts.get("game", "base")),
                      warm_workers=bool(opts.get("warm", False)))
