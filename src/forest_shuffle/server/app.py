"""The FastAPI app: the JSON API, the WebSocket hub and the page (docs/web.md).

Contract: :func:`create_app` builds an app over one :class:`GameService`. Every error is
``{"error": "one line"}`` with status 400 (bad input, illegal action), 403 (this token may
not do that), 404 (no such game or route) or 409 (stale version). A seat's token comes in
the ``X-Seat-Token`` header or the ``token`` query parameter; without a seat's token a
request or socket is a spectator's. Each socket gets its own seat's payload after every
change of its game (the newest state; quick changes may be sent as one), its log as an
increment: only the entries the socket was not sent yet (from the client's ``log_from``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException

from forest_shuffle.bots.registry import DIFFICULTIES, DIFFICULTY_WORDS
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.game import UnknownGameError, game_by_id, game_ids
from forest_shuffle.server import coach_schemas, schemas
from forest_shuffle.server import solo as solo_mode
from forest_shuffle.server.coach import MAX_RECORD_CHARS, CoachDesk, CoachSettings
from forest_shuffle.server.limits import (
    ACTION_CHARS,
    VERSION_MAX,
    Guard,
    Limits,
    SocketGate,
    client_gone,
    parse_message,
)
from forest_shuffle.server.pubsub import Bus, Leases, RedisBus, RedisLeases
from forest_shuffle.server.service import GameService, SeatSpec, ServiceError, card_catalog
from forest_shuffle.server.solo_schemas import SoloChallenges
from forest_shuffle.server.store import Store, StoreClosed
from forest_shuffle.text.narration import game_words

STATIC = Path(__file__).parent / "static"
#: The games one request of the lobby's list may ask about.
MAX_KNOWN = 30
#: Where the OpenAPI pages (/docs, /redoc) load their scripts and styles from: this server.
DOCS_ASSETS_URL = "/docs-assets"
log = logging.getLogger(__name__)


#: The files /docs and /redoc load, all from :data:`DOCS_ASSETS_URL`.
DOCS_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")


def docs_assets() -> Path | None:
    """The folder of Swagger UI's and ReDoc's files (:data:`DOCS_FILES`), shipped by the
    ``fastapi-offline`` package (a dependency; only its files are used), or None if it is
    not installed or lacks one of them."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    return folder if all((folder / name).is_file() for name in DOCS_FILES) else None


def add_api_pages(app: FastAPI, assets: Path | None) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) on ``app``, their scripts, styles and
    icon served from ``assets`` at :data:`DOCS_ASSETS_URL`: the pages never load anything
    from the web. Without the files (``assets`` None) both pages answer 404 in one line
    and nothing is served at :data:`DOCS_ASSETS_URL`."""
    if assets is None:
        log.warning("no OpenAPI pages: the fastapi-offline package's files are missing")

        @app.get("/docs", include_in_schema=False)
        @app.get("/redoc", include_in_schema=False)
        def no_api_pages() -> Response:
            return _error(404, "the API pages need the fastapi-offline package's files "
                               "(pip install fastapi-offline); /openapi.json is served")
        return

    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=assets), name="docs-assets")
    schema = app.openapi_url or "/openapi.json"
    title = "Forest Shuffle - API"

    @app.get("/docs", include_in_schema=False)
    def swagger_page() -> Response:
        """The OpenAPI page by Swagger UI (no badge from a validator site)."""
        return get_swagger_ui_html(
            openapi_url=schema, title=title,
            swagger_js_url=f"{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None})

    @app.get("/redoc", include_in_schema=False)
    def redoc_page() -> Response:
        """The API reference by ReDoc (no web fonts)."""
        return get_redoc_html(
            openapi_url=schema, title=title,
            redoc_js_url=f"{DOCS_ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS_URL}/favicon.png", with_google_fonts=False)


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


# ---------------------------------------------------------------------------- bodies

#: A seat's token, in the ``X-Seat-Token`` header or the ``token`` query parameter.
Token = Annotated[str | None, Header(alias="X-Seat-Token", description="a seat's token")]
QToken = Annotated[str | None, Query(alias="token", description="a seat's token")]
#: The log entries the client holds: the answer's log starts there (0 or left out: all).
LogFrom = Annotated[str | None, Query(
    alias="log_from", description="the log entries the client holds (whole number, 0 to "
                                  "the log's length): the answer's log starts there")]


class SeatIn(BaseModel):
    """One seat of a new game."""

    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=200)
    level: str | None = Field(default=None, description="easy, medium or hard (bots only)")


class NewGame(BaseModel):
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


class SoloIn(BaseModel):
    """``POST /api/solo``: a solo game of Dartmoor against Anna (one seat, the caller's)."""

    challenge: StrictInt = Field(description="the challenge, 1 to 15 (GET /api/solo)")
    medal: str | None = Field(default=None, max_length=20,
                              description="the medal played for: bronze, silver or gold")
    name: str | None = Field(default=None, max_length=200)
    seed: int | None = None
    help: bool = Field(default=True, description="false: no Suggest in this game")


class ActionIn(BaseModel):
    """An action in text form (docs/actions.md) sent against the version the client saw."""

    action: str = Field(max_length=ACTION_CHARS, examples=["take 57"])
    version: StrictInt = Field(ge=0, le=VERSION_MAX,
                               description="the payload version the action answers")


class RecordIn(BaseModel):
    """``POST /api/replays``: a record file's text (docs/records.md)."""

    text: str = Field(max_length=MAX_RECORD_CHARS)


#: A replay's step (actions applied) and viewer (a seat; left out: a spectator).
Step = Annotated[int, Query(ge=0, le=100_000, description="actions applied (0: the deal)")]
Seat = Annotated[int | None, Query(ge=0, le=9, description="the seat whose view (left out: "
                                                           "a spectator's)")]


class KnownGame(BaseModel):
    """A game a browser holds a seat token of (or none: it only watched)."""

    game_id: str = Field(max_length=40)
    token: str | None = Field(default=None, max_length=64)


class KnownGames(BaseModel):
    """``POST /api/known-games``: the games a browser remembers (its local storage)."""

    games: list[KnownGame] = Field(max_length=MAX_KNOWN)


# ---------------------------------------------------------------------------- sockets


@dataclass(eq=False)
class Conn:
    """One open socket: its seat (None: spectator) and a flag that a new state is due."""

    ws: WebSocket
    seat: int | None
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict[str, Any]) -> None:
        async with self.send_lock:
            await self.ws.send_text(_json(message).decode())


class Hub:
    """The open sockets per game. :meth:`notify` may be called from any thread."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.loop: asyncio.AbstractEventLoop | None = None
        self.conns: dict[str, set[Conn]] = {}
        service.listeners.append(self.notify)

    def notify(self, game_id: str) -> None:
        loop = self.loop
        if loop is not None and game_id in self.conns:
            with contextlib.suppress(RuntimeError):  # the loop is closed
                loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:
        conns = self.conns.get(game_id, ())
        for conn in conns:  # players first: their senders run before the spectators'
            if conn.seat is not None:
                conn.dirty.set()
        for conn in conns:
            if conn.seat is None:
                conn.dirty.set()

    def connected(self, game_id: str) -> frozenset[int]:
        return frozenset(c.seat for c in self.conns.get(game_id, ()) if c.seat is not None)

    def add(self, game_id: str, conn: Conn) -> None:
        self.conns.setdefault(game_id, set()).add(conn)
        self._wake(game_id)

    def remove(self, game_id: str, conn: Conn) -> None:
        conns = self.conns.get(game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.conns[game_id]
            else:
                self._wake(game_id)

    def payload(self, game_id: str, seat: int | None, log_from: int = 0) -> dict[str, Any]:
        return self.service.payload(game_id, seat, self.connected(game_id), log_from)


# ---------------------------------------------------------------------------- the app


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _answer(data: Any) -> Response:
    """A JSON answer sent as it is (the models in :mod:`.schemas` only document it)."""
    return Response(_json(data), media_type="application/json")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


def _validation_line(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "bad request"
    first = errors[0]
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
    msg = str(first.get("msg", "invalid"))
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    if not where:
        return "the body must be a JSON object"
    return f"{where}: {msg}" if where else msg


def create_app(db_url: str | None = None, bot_delay: float = 0.4,
               service: GameService | None = None, bot_processes: int = 0,
               limits: Limits | None = None, pubsub: str | None = None,
               lease_seconds: float = 5.0, game: str = "base",
               coach: CoachSettings | None = None) -> FastAPI:
    """The web app over a database URL (default: SQLite in the user's data directory);
    searching bots think in ``bot_processes`` worker processes (0: in threads); input and
    floods are bounded by ``limits`` (default :class:`Limits()`, see :mod:`.limits`).
    With ``pubsub`` (a ``redis://`` URL) this is one of several processes on one database:
    changes travel through Redis and bot seats are leased for ``lease_seconds``
    (docs/deploy.md). Unfinished games that wait for a bot are resumed at once. ``game``:
    the game a creation that names none gets (an unknown id is a ValueError). ``coach``:
    the bots and bounds of Suggest, the review and replays (:mod:`.coach`; default:
    ``limits``' coach bounds, in up to two worker processes when ``bot_processes`` > 0).
    ValueError for a pubsub URL without redis-py or a database that cannot be shared."""
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
                              leases=leases, default_game=game)
    svc = service
    hub = Hub(svc)
    # the coach's searches think where the searching bots do: in worker processes if any
    desk = CoachDesk(svc, coach or CoachSettings.of_limits(
        lim, processes=min(2, max(0, bot_processes))))
    svc.resume()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield
        desk.close()
        svc.close()

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
    app.state.limits = lim
    app.add_middleware(Guard, limits=lim)

    @app.exception_handler(ServiceError)
    async def _service_error(_req: Request, exc: ServiceError) -> JSONResponse:
        return _error(exc.status, str(exc))

    @app.exception_handler(StoreClosed)
    async def _stopping(_req: Request, _exc: StoreClosed) -> JSONResponse:
        return _error(503, "the server is stopping; try again")

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_req: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, _validation_line(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _crash(_req: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return _error(500, "internal error of the server")

    def token_of(header: str | None, query: str | None) -> str | None:
        return header or query

    # ------------------------------------------------------------ REST

    catalogs: dict[str, bytes] = {}

    @app.get("/api/cards", tags=["cards"], response_model=None,
             responses={200: {"model": schemas.Catalog}, **schemas.ERRORS})
    def cards(game: Annotated[str | None, Query(max_length=80)] = None) -> Response:
        """Every card (id, kind, split axis, tree symbols, halves) and every species (cost,
        tags, positions, rules text) of one game (the server's default game if none)."""
        try:
            gid = game_by_id(svc.default_game if game is None else game).id
        except UnknownGameError as exc:
            raise ServiceError(400, str(exc)) from None
        if gid not in catalogs:
            catalogs[gid] = _json(card_catalog(gid))
        return Response(catalogs[gid], media_type="application/json")

    @app.get("/api/games-offered", tags=["games"], response_model=None)
    def games_offered() -> list[dict[str, Any]]:
        """The games this server offers: id, title and what the lobby says of it (the
        default first)."""
        ids = [svc.default_game] + [g for g in game_ids() if g != svc.default_game]
        return [{"id": g, "title": game_by_id(g).title, "words": game_words(game_by_id(g))}
                for g in ids]

    @app.get("/api/levels", tags=["games"], response_model=list[schemas.Level])
    def levels() -> list[dict[str, str]]:
        """The bot levels a seat may have."""
        return [{"level": k, "spec": v, "words": DIFFICULTY_WORDS.get(k, k)}
                for k, v in DIFFICULTIES.items()]

    @app.post("/api/games", tags=["games"], response_model=None,
              responses={200: {"model": schemas.Created}, **schemas.ERRORS})
    def new_game(body: NewGame) -> Response:
        """Create a game; the answer holds each human seat's token and invite link."""
        specs = [SeatSpec(s.kind, s.name, s.level) for s in body.seats]
        return _answer(svc.create(specs, body.seed, body.hotseat, game=body.game,
                                  help=body.help))

    @app.get("/api/solo", tags=["solo"], response_model=None,
             responses={200: {"model": SoloChallenges}})
    def solo_challenges() -> Response:
        """Dartmoor's solo challenges: number, game id, title, medal thresholds, words."""
        return _answer(solo_mode.challenges())

    @app.post("/api/solo", tags=["solo"], response_model=None,
              responses={200: {"model": schemas.Created}, **schemas.ERRORS})
    def new_solo(body: SoloIn) -> Response:
        """Create a solo game of one challenge (one human seat, no bots, no invite);
        400 with one line for a challenge or medal that is none."""
        gid, more = solo_mode.solo_settings(body.challenge, body.medal)
        return _answer(svc.create([SeatSpec("human", body.name)], body.seed, game=gid,
                                  help=body.help, more=more))

    @app.post("/api/known-games", tags=["games"], response_model=None,
              responses={200: {"model": list[schemas.KnownGameOut]}, **schemas.ERRORS})
    def known_games(body: KnownGames) -> Response:
        """What the lobby lists of the games a browser remembers: per game whether it is
        over, whose move it is, and whether the token still holds a seat (public facts
        only, and the token's own seat)."""
        return _answer([svc.summary(g.game_id, g.token) for g in body.games])

    @app.get("/api/games/{game_id}", tags=["games"], response_model=None,
             responses={200: {"model": schemas.Payload}, **schemas.ERRORS})
    def get_game(game_id: str, x_seat_token: Token = None, token: QToken = None,
                 log_from: LogFrom = None) -> Response:
        """The payload of the token's seat (a spectator's without a seat token), its log
        from entry ``log_from`` on."""
        start = svc.check_log_from(game_id, log_from)
        seat = svc.seat_for(game_id, token_of(x_seat_token, token))
        return _answer(hub.payload(game_id, seat, start))

    @app.post("/api/games/{game_id}/actions", tags=["games"], response_model=None,
              responses={200: {"model": schemas.Payload}, **schemas.ERRORS})
    def post_action(game_id: str, body: ActionIn, x_seat_token: Token = None,
                    token: QToken = None, log_from: LogFrom = None) -> Response:
        """Apply an action of the token's seat; the new payload (its log from entry
        ``log_from`` on). 409 if ``version`` is not the game's version, 403 if it is not this
        seat's decision, 400 if illegal (or a bad ``log_from``, checked first). Once stored
        the action is never answered with an error: if its payload cannot be built, 200 with
        ``{game_id, stored, version, payload: null}`` (fetch the game again)."""
        start = svc.check_log_from(game_id, log_from)
        seat = svc.act(game_id, token_of(x_seat_token, token), body.action, body.version)
        try:
            return _answer(hub.payload(game_id, seat, start))
        except Exception as exc:  # stored: never an error, the sender learns what was stored
            log.error("game %s: the action at version %d stored, its answer failed (%s: %s)",
                      game_id, body.version, type(exc).__name__, " ".join(str(exc).split())[:200])
            return _answer({"game_id": game_id, "stored": str(Action.parse(body.action)),
                            "version": body.version + 1, "payload": None})

    @app.post("/api/games/{game_id}/rematch", tags=["games"], response_model=None,
              responses={200: {"model": schemas.Created}, **schemas.ERRORS})
    def post_rematch(game_id: str, x_seat_token: Token = None,
                     token: QToken = None) -> Response:
        """A new game with the same seats once this one is over (the same one if asked
        again); the answer holds the caller's new token (every human's in hot-seat)."""
        return _answer(svc.rematch(game_id, token_of(x_seat_token, token)))

    @app.get("/api/games/{game_id}/rematch", tags=["games"], response_model=None,
             responses={200: {"model": schemas.RematchSeat}, **schemas.ERRORS})
    def get_rematch(game_id: str, x_seat_token: Token = None,
                    token: QToken = None) -> Response:
        """The caller's seat and new token in the rematch (404 before there is one)."""
        return _answer(svc.rematch_seat(game_id, token_of(x_seat_token, token)))

    # ------------------------------------------------------------ the coach, replays

    @app.post("/api/games/{game_id}/suggest", tags=["coach"], response_model=None,
              responses={200: {"model": coach_schemas.Suggestion}, **schemas.ERRORS})
    def post_suggest(game_id: str, x_seat_token: Token = None,
                     token: QToken = None) -> Response:
        """What the hard bot would do in the token's seat, from that seat's view only,
        with its reason in words; nothing is played. 403 for a spectator, not the seat's
        decision, or a game played without help; 429 when the coach is busy."""
        return _answer(desk.suggest(game_id, token_of(x_seat_token, token)))

    @app.get("/api/games/{game_id}/review", tags=["coach"], response_model=None,
             responses={200: {"model": coach_schemas.Review}, **schemas.ERRORS})
    def get_review(game_id: str) -> Response:
        """Once the game is over (409 before): each seat's points after every turn, where
        the final points came from (species, score-pad lines), and the moves the bot would
        have made differently with the points it expected from them."""
        return _answer(desk.review(game_id))

    @app.get("/api/games/{game_id}/replay", tags=["replays"], response_model=None,
             responses={200: {"model": coach_schemas.ReplayFrame}, **schemas.ERRORS})
    def get_game_replay(game_id: str, step: Step = 0, seat: Seat = None) -> Response:
        """A finished game (409 before) after ``step`` actions, from ``seat``'s view or a
        spectator's, replayed from its record by the engine."""
        return _answer(desk.game_replay(game_id).frame(step, seat))

    @app.post("/api/replays", tags=["replays"], response_model=None,
              responses={200: {"model": coach_schemas.ReplayFrame}, **schemas.ERRORS})
    def post_replay(body: RecordIn) -> Response:
        """Load a record file (its text): its ``replay_id`` and the deal (step 0, a
        spectator's view); 400 with one line for a file that is no record or does not
        replay to what it says. A record of any game of the family is replayed as its game."""
        return _answer(desk.load_record(body.text).frame(0, None))

    @app.get("/api/replays/{replay_id}", tags=["replays"], response_model=None,
             responses={200: {"model": coach_schemas.ReplayFrame}, **schemas.ERRORS})
    def get_replay(replay_id: str, step: Step = 0, seat: Seat = None) -> Response:
        """A loaded record after ``step`` actions, from ``seat``'s view or a spectator's."""
        return _answer(desk.record_replay(replay_id).frame(step, seat))

    # ------------------------------------------------------------ WebSocket

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str, token: str | None = None,
                     log_from: str | None = None) -> None:
        await websocket.accept()
        hub.loop = asyncio.get_running_loop()
        tok = token or websocket.headers.get("x-seat-token")
        try:
            seat = await run_in_threadpool(svc.seat_for, game_id, tok)
            # the log entries the client holds: each state carries only the ones after
            sent = await run_in_threadpool(svc.check_log_from, game_id, log_from)
        except ServiceError as exc:
            await websocket.send_json({"type": "error", "error": str(exc),
                                       "status": exc.status})
            await websocket.close(code=4000 + exc.status)
            return
        ticket = await gate.open(websocket, game_id, seat)
        if ticket is None:  # refused (4429): too many sockets
            return
        conn = Conn(websocket, seat)

        async def sender() -> None:
            nonlocal sent
            last: tuple[Any, ...] = ()
            try:
                while True:
                    await conn.dirty.wait()
                    await ticket.pace()  # a spectator waits a little between two states
                    conn.dirty.clear()
                    payload = hub.payload(game_id, seat, sent)
                    key = (payload["version"], payload["rematch"],
                           tuple(s["connected"] for s in payload["seats"]))
                    if key != last:  # nothing new for this socket
                        last = key
                        await conn.send({"type": "state", "payload": payload})
                        sent = payload["log_total"]
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a socket without updates is closed; the client
                # reconnects
                if client_gone(websocket, exc):  # the client closed it: normal
                    log.debug("socket of game %s closed by its client", game_id)
                else:
                    log.exception("socket of game %s failed", game_id)
                with contextlib.suppress(Exception):
                    await websocket.close(code=1011)

        hub.add(game_id, conn)
        task = asyncio.create_task(sender())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                await ticket.throttle()  # a socket sending too fast is read slower
                reply = await _socket_message(svc, lim, game_id, tok, text)
                if reply is not None:
                    await conn.send(reply)
        except Exception as exc:
            if not client_gone(websocket, exc):
                raise
            log.debug("socket of game %s closed by its client", game_id)
        finally:
            ticket.release()
            hub.remove(game_id, conn)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------ the page

    def index() -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            return _error(404, "the page is not installed (server/static/index.html)")
        return FileResponse(page, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def root() -> Response:
        return index()

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> Response:
        return index()

    @app.get("/replay", include_in_schema=False)
    def replay_page() -> Response:
        return index()

    @app.get("/replay/{game_id}", include_in_schema=False)
    def game_replay_page(game_id: str) -> Response:
        return index()

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

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


async def _socket_message(svc: GameService, lim: Limits, game_id: str, token: str | None,
                          text: str) -> dict[str, Any] | None:
    """Handle one client message; the reply to send (an error or a pong), or None."""
    msg, bad = parse_message(text, lim)
    if msg is None:
        return bad
    kind = msg.get("type")
    if kind == "ping":
        return {"type": "pong"}
    if kind != "action":
        return {"type": "error", "error": "unknown message type (action or ping)",
                "status": 400}
    try:
        await run_in_threadpool(svc.act, game_id, token, msg.get("action"), msg.get("version"))
    except ServiceError as exc:
        return {"type": "error", "error": str(exc), "status": exc.status}
    except Exception:  # as over REST: a 500 in one line, the socket stays open
        log.exception("internal error")
        return {"type": "error", "error": "internal error of the server", "status": 500}
    return None


#: The environment variable through which ``serve --workers N`` hands its options to
#: each worker process (uvicorn starts them and calls :func:`app_from_env`).
SERVE_ENV = "FOREST_SHUFFLE_SERVE"


def app_from_env() -> FastAPI:
    """The app of one worker of ``serve --workers N``, from the options in
    :data:`SERVE_ENV` (JSON: db, bot_delay, bot_processes, limits, pubsub, lease, game,
    parent). With ``parent`` (the supervisor's pid) the worker exits when the supervisor
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
                      game=str(opts.get("game", "base")))
