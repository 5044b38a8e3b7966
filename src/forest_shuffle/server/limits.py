"""The server's bounds on hostile input and floods (docs/web.md, "Limits").

Contract:

- :class:`Limits` holds every bound (frozen; ``None`` for a flood bound means none), the
  coach's too (its search budgets, the decisions a review checks, its queue).
  :func:`parse_limits` reads the ``serve --limits`` text (``name=value,...`` or ``off``).
- :class:`Guard` is an ASGI middleware in front of the app: per client address a token
  bucket of requests a second (REST requests and socket openings) and one of games created
  a minute (``POST /api/games``) and one of records loaded a minute (``POST
  /api/replays``), kept in Redis when ``shared`` names one (``--pubsub``:
  every process counts an address once, :mod:`.shared`); request bodies over
  ``body_bytes`` get 413 without being read whole (``Content-Length`` is checked first, a
  chunked body is counted as it comes). A refusal is one line of JSON,
  ``{"error": "..."}``, with ``Retry-After`` on a 429; a refused socket is accepted, sent
  ``{"type": "error", "status": 429, ...}`` and closed with code 4429 and a one-line
  reason.
- :class:`SocketGate` admits sockets: at most ``sockets`` in the server, ``sockets_per_address``
  per client address, ``sockets_per_seat`` per seat of a game; spectators (sockets without a
  seat's token) also at most ``spectators`` in the server and ``spectators_per_game`` per
  game, so a flood of spectators never takes the room of the players. Each admitted socket
  gets a :class:`Ticket`: its bucket of messages a second (a socket over it is read more
  slowly) and, for a spectator, the pause between two states. With ``--pubsub``
  (:meth:`SocketGate.share`) the bounds per address, per seat and per game are counted over
  every process through Redis (:mod:`.held`); ``sockets`` and ``spectators`` bound this
  process's own open files.
- :func:`parse_message` reads one client message safely (size bound, no traceback on deep
  nesting or huge numbers, action text bound); :func:`client_gone` tells a client that
  closed its socket (normal, logged at debug level) from a failure of the server.

Everything here runs on the event loop's thread (no locks), except the shared counts'
Redis calls (a worker thread; they read the counters, never write them).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import resource
import time
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

if TYPE_CHECKING:
    from forest_shuffle.server.held import HeldCounts
    from forest_shuffle.server.shared import SharedBuckets

#: An action text has at most this many characters (REST and WebSocket alike).
ACTION_CHARS = 200
#: A version (a count of actions) sent by a client is a whole number from 0 to this.
VERSION_MAX = 2**63 - 1
#: Close code of a socket refused by a bound (4000 + the HTTP status, as 4404).
CLOSE_TOO_MANY = 4429


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound of the server. A flood bound of ``None`` is no bound (``Limits.off()``);
    the input bounds (sizes) always hold."""

    #: Bytes of a request body; more gets 413. A WebSocket frame over this is closed by
    #: uvicorn with code 1009 (``serve`` passes it as ``ws_max_size``).
    body_bytes: int = 64 * 1024
    #: Bytes of one WebSocket message; more gets an error 413 (the socket stays open).
    message_bytes: int = 4 * 1024
    #: Requests a second per client address (REST requests and socket openings), and the
    #: bucket's size: a burst of that many may come at once.
    requests_per_second: float | None = 50.0
    request_burst: int = 1000
    #: Games created a minute per client address (``POST /api/games``), and the burst.
    games_per_minute: float | None = 30.0
    games_burst: int = 30
    #: Records loaded a minute per client address (``POST /api/replays``: each new one is
    #: replayed by the engine), and the burst.
    replays_per_minute: float | None = 30.0
    replays_burst: int = 30
    #: Open sockets: in the server process (its own open files), per client address, per
    #: seat of a game (with ``--pubsub`` the last two over every process).
    sockets: int | None = 2000
    sockets_per_address: int | None = 100
    sockets_per_seat: int | None = 4
    #: Seconds a request's headers and body may take to arrive, and open HTTP connections
    #: per client address: bounded by the server itself (:mod:`.conns`), so half-sent
    #: requests cannot hold every file of the server.
    request_seconds: float | None = 20.0
    connections_per_address: int | None = 200
    #: Unfinished games of bots only that one client address may have created (over every
    #: process with ``--pubsub``; each process holds at most 20 of them in all).
    bot_games_per_address: int | None = 2
    #: Spectators' sockets: in the server process (its own open files) and per game (with
    #: ``--pubsub`` over every process).
    spectators: int | None = 1000
    spectators_per_game: int | None = 50
    #: Messages a second one socket may send, and the burst: beyond, the socket is read
    #: more slowly (its messages wait, none is dropped).
    messages_per_second: float | None = 50.0
    message_burst: int = 200
    #: Seconds at least between two states sent to one spectator's socket.
    spectator_interval: float = 0.25
    #: The coach's bounds (:class:`~forest_shuffle.server.coach.CoachSettings`, never off):
    #: seconds of search for one suggestion (the hard bot's budget) and for each of the two
    #: searches of a decision a review checks; decisions a review checks at most; searches
    #: at once, searches waiting at most (more get 429; both per process: its own
    #: workers) and seconds a request waits for its search (then 503).
    suggest_time: float = 1.0
    review_time: float = 0.15
    review_moves: int = 12
    coach_searches: int = 2
    coach_queue: int = 8
    #: Searches of the coach (Suggest, reviews) one client address may have running or
    #: waiting at once: one address cannot fill the queue of everybody else.
    coach_per_address: int | None = 2
    coach_wait: float = 120.0

    @classmethod
    def off(cls) -> Limits:
        """No flood bound at all (benchmarks, trusted networks); input sizes still bound."""
        return cls(requests_per_second=None, games_per_minute=None, sockets=None,
                   replays_per_minute=None,
                   request_seconds=None, connections_per_address=None,
                   coach_per_address=None, bot_games_per_address=None,
                   sockets_per_address=None, sockets_per_seat=None, spectators=None,
                   spectators_per_game=None, messages_per_second=None,
                   spectator_interval=0.0)


_NAMES = tuple(f.name for f in fields(Limits))


def parse_limits(text: str, base: Limits | None = None) -> Limits:
    """``Limits`` from ``name=value,name=value`` over ``base`` (default: the defaults);
    ``off`` (alone or as the first item) starts from :meth:`Limits.off`; a value ``off``
    removes that bound. ValueError with one line for a bad name or value."""
    limits = base or Limits()
    items = [item.strip() for item in text.split(",") if item.strip()]
    if items and items[0] == "off":
        limits, items = Limits.off(), items[1:]
    changes: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name, value = name.strip().replace("-", "_"), value.strip()
        if not eq or name not in _NAMES:
            raise ValueError(f"unknown limit {item!r} (names: {', '.join(_NAMES)}; or off)")
        changes[name] = _limit_value(name, value)
    return replace(limits, **changes)


def _limit_value(name: str, value: str) -> int | float | None:
    default = getattr(Limits(), name)
    can_be_off = getattr(Limits.off(), name) is None
    if value == "off":
        if not can_be_off:
            raise ValueError(f"limit {name} cannot be off")
        return None
    try:
        number: float = int(value) if isinstance(default, int) else float(value)
    except ValueError:
        raise ValueError(f"limit {name}: {value!r} is not a number") from None
    if not math.isfinite(number) or number < 0 or (number == 0 and name != "spectator_interval"):
        raise ValueError(f"limit {name} must be above 0, not {value}")
    if isinstance(default, float) and 0 < number < 0.001:  # a wait of ages overflows
        raise ValueError(f"limit {name} must be at least 0.001, not {value}")
    if number > 10**9:
        raise ValueError(f"limit {name} must be at most 10**9, not {value}")
    return number


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (to 2**20 if that is
    unlimited); the soft limit then (the old one if it cannot be raised)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 1 << 20 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
    return int(soft)


def fit_to_files(limits: Limits, files: int) -> Limits:
    """``limits`` with at most a third of the open files (less some for the database and
    workers) for sockets: each socket is one file, and plain requests need room too."""
    room = max(16, (files - 128) // 3)
    if limits.sockets is None or limits.sockets > room:
        spectators = limits.spectators
        if spectators is None or spectators > room // 2:
            spectators = room // 2
        return replace(limits, sockets=room, spectators=spectators)
    return limits


# ---------------------------------------------------------------------------- buckets


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``rate`` tokens a second up to ``size``."""

    rate: float
    size: float
    tokens: float
    when: float

    def take(self, now: float) -> float:
        """Take one token: 0.0 if there was one, else the seconds until there is."""
        self.tokens = min(self.size, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.when) * self.rate >= self.size


class Buckets:
    """One :class:`Bucket` per key (a client address); full buckets are forgotten when
    there are many, so the table stays small."""

    def __init__(self, rate: float, size: int, keep: int = 10_000) -> None:
        self.rate = rate
        self.size = float(max(1, size))
        self.keep = keep
        self.table: dict[str, Bucket] = {}

    def take(self, key: str, now: float) -> float:
        bucket = self.table.get(key)
        if bucket is None:
            if len(self.table) >= self.keep:
                self.table = {k: b for k, b in self.table.items() if not b.full(now)}
            bucket = self.table[key] = Bucket(self.rate, self.size, self.size, now)
        return bucket.take(now)


def address_of(scope: Scope) -> str:
    """The client's address as the limits count it (as uvicorn gives it, after trusted
    proxy headers): an IPv4 address, or the /64 network of an IPv6 one (one client
    usually holds a whole /64, so counting single IPv6 addresses would be no bound)."""
    client = scope.get("client")
    if not client:
        return "unknown"
    host = str(client[0])
    if ":" in host:
        try:
            addr = ipaddress.IPv6Address(host.split("%")[0])
        except ValueError:
            return host
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        if addr.is_loopback:
            return str(addr)
        return str(ipaddress.IPv6Network((addr, 64), strict=False))
    return host


def _per(rate: float, unit: str) -> str:
    return f"{rate:g} a {unit}"


def _wait_words(seconds: float) -> tuple[str, int]:
    whole = max(1, math.ceil(seconds))
    return f"try again in {whole} s", whole


# ---------------------------------------------------------------------------- middleware


class BodyTooLarge(Exception):
    """Raised into the app when a streamed body goes over the bound."""


class Guard:
    """ASGI middleware: requests a second and games a minute per address, body sizes."""

    def __init__(self, app: ASGIApp, limits: Limits, shared: str | None = None) -> None:
        self.app = app
        self.limits = limits
        self.requests: Buckets | SharedBuckets | None = None
        self.games: Buckets | SharedBuckets | None = None
        self.replays: Buckets | SharedBuckets | None = None
        if shared:
            from forest_shuffle.server.shared import SharedBuckets
        if limits.replays_per_minute:
            self.replays = (
                SharedBuckets(shared, "replays", limits.replays_per_minute / 60.0,
                              limits.replays_burst) if shared else
                Buckets(limits.replays_per_minute / 60.0, limits.replays_burst))
        if limits.requests_per_second:
            self.requests = (
                SharedBuckets(shared, "requests", limits.requests_per_second,
                              limits.request_burst) if shared else
                Buckets(limits.requests_per_second, limits.request_burst))
        if limits.games_per_minute:
            self.games = (
                SharedBuckets(shared, "games", limits.games_per_minute / 60.0,
                              limits.games_burst) if shared else
                Buckets(limits.games_per_minute / 60.0, limits.games_burst))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        now = time.monotonic()
        who = address_of(scope)
        if self.requests is not None:
            wait = await _take(self.requests, who, now)
            if wait:
                words, whole = _wait_words(wait)
                line = (f"too many requests from your address (at most "
                        f"{_per(self.limits.requests_per_second or 0, 'second')}); {words}")
                if kind == "http":
                    await _refuse_http(send, 429, line, whole)
                else:
                    await refuse_socket(receive, send, line, whole)
                return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "").rstrip("/")
        if scope.get("method") == "POST" and path in ("/api/games", "/api/replays"):
            games = path == "/api/games"
            buckets = self.games if games else self.replays
            wait = 0.0 if buckets is None else await _take(buckets, who, now)
            if wait:
                words, whole = _wait_words(wait)
                rate = (self.limits.games_per_minute if games
                        else self.limits.replays_per_minute)
                what = "new games" if games else "records loaded"
                line = (f"too many {what} from your address (at most "
                        f"{_per(rate or 0, 'minute')}); {words}")
                await _refuse_http(send, 429, line, whole)
                return
        await self._bounded(scope, receive, send)

    async def _bounded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app with the body bounded: 413 before reading if ``Content-Length`` says
        too much, else when the streamed body goes over (the app's answer is dropped)."""
        bound = self.limits.body_bytes
        line = f"the request body is too large (at most {bound} bytes)"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await _refuse_http(send, 400, "the Content-Length header is not a number")
                    return
                if length > bound:
                    await _refuse_http(send, 413, line)
                    return
        seen = 0
        over = False
        started = False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > bound:
                    over = True
                    raise BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if over:  # the app's answer to a cut body (such as a 400) is not sent
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, counted, guarded_send)
        if over and not started:
            await _refuse_http(send, 413, line)


async def _take(buckets: Buckets | SharedBuckets, key: str, now: float) -> float:
    if isinstance(buckets, Buckets):
        return buckets.take(key, now)
    return await buckets.take(key, now)


def _one_line(text: str) -> str:
    return " ".join(text.split())


async def _refuse_http(send: Send, status: int, line: str, retry: int | None = None) -> None:
    body = json.dumps({"error": _one_line(line)}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    if retry is not None:
        headers.append((b"retry-after", str(retry).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def refuse_socket(receive: Receive, send: Send, line: str,
                        retry: int | None = None) -> None:
    """Refuse a socket that was not accepted yet: accept it, send the error, close 4429."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(_too_many(line, retry))})
    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY,
                "reason": _reason(line)})


def _too_many(line: str, retry: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "error": _one_line(line), "status": 429}
    if retry is not None:
        out["retry_after"] = retry
    return out


def _reason(line: str) -> str:
    """A close reason: at most 123 bytes (the WebSocket bound)."""
    data = _one_line(line).encode()[:123]
    return data.decode("utf-8", "ignore")


# ---------------------------------------------------------------------------- sockets


@dataclass(eq=False)
class Ticket:
    """One admitted socket: where it counts, its message bucket and its pace."""

    gate: SocketGate
    game_id: str
    seat: int | None
    address: str
    messages: Bucket | None
    last_state: float = 0.0
    released: bool = False

    async def throttle(self) -> None:
        """Before a message is handled: wait while the socket is over its rate (its next
        messages wait in the connection; none is dropped)."""
        if self.messages is None:
            return
        while wait := self.messages.take(time.monotonic()):
            await asyncio.sleep(wait)

    async def pace(self) -> None:
        """Before a state is sent: a spectator waits until ``spectator_interval`` has passed
        since its last one (players' sockets never wait)."""
        interval = self.gate.limits.spectator_interval
        if self.seat is None and interval > 0:
            wait = self.last_state + interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        self.last_state = time.monotonic()

    def release(self) -> None:
        """The socket is closed: it no longer counts (idempotent)."""
        if not self.released:
            self.released = True
            self.gate._release(self)


@dataclass
class SocketGate:
    """Counts open sockets and admits or refuses new ones (see the module docstring)."""

    limits: Limits
    total: int = 0
    spectators: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    by_seat: Counter[tuple[str, int]] = field(default_factory=Counter)
    spectators_by_game: Counter[str] = field(default_factory=Counter)
    #: With ``--pubsub`` (:meth:`share`): ``sockets_per_address`` counted over every
    #: process (:class:`~.held.HeldCounts` over ``by_address``; None: this process alone).
    held: HeldCounts | None = None
    #: With ``--pubsub``: ``sockets_per_seat`` over every process (keys ``game:seat``).
    seat_held: HeldCounts | None = None
    #: With ``--pubsub``: ``spectators_per_game`` over every process (keys: game ids).
    watch_held: HeldCounts | None = None

    def share(self, url: str, ttl: float | None = None) -> None:
        """Count the deployment-wide bounds over every process through the Redis at
        ``url`` (docs/deploy.md, "Bounds"): ``sockets_per_address``, ``sockets_per_seat``
        and ``spectators_per_game``. ``sockets`` and ``spectators`` stay this process's
        (they bound its own open files)."""
        from forest_shuffle.server.held import TTL, HeldCounts

        life = TTL if ttl is None else ttl
        self.held = HeldCounts(url, "sockets", lambda: dict(self.by_address), ttl=life)
        self.seat_held = HeldCounts(url, "seat_sockets", self._seat_counts, ttl=life)
        self.watch_held = HeldCounts(url, "spectators", lambda: dict(self.spectators_by_game),
                                     ttl=life)

    def _seat_counts(self) -> dict[str, int]:
        """This process's sockets per seat, keyed ``game:seat`` (any thread)."""
        return {seat_key(g, s): n for (g, s), n in list(self.by_seat.items())}

    def close(self) -> None:
        """Stop sharing: this process's counts leave Redis (idempotent)."""
        for held in (self.held, self.seat_held, self.watch_held):
            if held is not None:
                held.close()

    def refusal(self, game_id: str, seat: int | None, address: str) -> str | None:
        """Why a new socket of this seat (None: a spectator) from ``address`` is refused,
        or None if it may open."""
        lim = self.limits
        if seat is None:
            if lim.spectators_per_game is not None and (
                    self.spectators_by_game[game_id] >= lim.spectators_per_game):
                return f"this game has its {lim.spectators_per_game} spectators already"
            if lim.spectators is not None and self.spectators >= lim.spectators:
                return f"the server has its {lim.spectators} spectators already"
        elif lim.sockets_per_seat is not None and (
                self.by_seat[(game_id, seat)] >= lim.sockets_per_seat):
            return f"this seat has {lim.sockets_per_seat} sockets open already"
        if lim.sockets_per_address is not None and (
                self.by_address[address] >= lim.sockets_per_address):
            return f"too many sockets from your address (at most {lim.sockets_per_address})"
        if lim.sockets is not None and self.total >= lim.sockets:
            return f"the server is full ({lim.sockets} sockets)"
        return None

    def admit(self, game_id: str, seat: int | None, address: str) -> Ticket | str:
        """A :class:`Ticket` for the new socket, or the one line that refuses it."""
        why = self.refusal(game_id, seat, address)
        if why is not None:
            return why
        self.total += 1
        self.by_address[address] += 1
        if seat is None:
            self.spectators += 1
            self.spectators_by_game[game_id] += 1
        else:
            self.by_seat[(game_id, seat)] += 1
        rate = self.limits.messages_per_second
        bucket = (Bucket(rate, float(self.limits.message_burst),
                         float(self.limits.message_burst), time.monotonic())
                  if rate else None)
        return Ticket(self, game_id, seat, address, bucket)

    async def open(self, websocket: WebSocket, game_id: str, seat: int | None) -> Ticket | None:
        """Admit an accepted socket: its ticket, or None once the refusal was sent and the
        socket closed with code 4429."""
        address = address_of(websocket.scope)
        got = self.admit(game_id, seat, address)
        if isinstance(got, Ticket):
            # counted over every process too (this one's own count holds the new socket)
            why = await asyncio.to_thread(self._shared_refusal, got)
            if why is not None:
                got.release()
                got = why
        if isinstance(got, Ticket):
            return got
        try:
            await websocket.send_json(_too_many(got, None))
            await websocket.close(code=CLOSE_TOO_MANY, reason=_reason(got))
        except Exception:  # the client left already
            pass
        return None

    def _shared_refusal(self, ticket: Ticket) -> str | None:
        """Why the socket of ``ticket`` (admitted by this process's counts) is refused by
        a count over every process, or None (any thread; each admitted count then holds
        it in Redis until :meth:`_release` syncs it)."""
        lim, game_id, seat = self.limits, ticket.game_id, ticket.seat
        if seat is None:
            most = lim.spectators_per_game
            if self.watch_held is not None and most is not None and not self.watch_held.admit(
                    game_id, most, self.spectators_by_game[game_id] - 1):
                return f"this game has its {most} spectators already"
        else:
            most = lim.sockets_per_seat
            if self.seat_held is not None and most is not None and not self.seat_held.admit(
                    seat_key(game_id, seat), most, self.by_seat[(game_id, seat)] - 1):
                return f"this seat has {most} sockets open already"
        most = lim.sockets_per_address
        if self.held is not None and most is not None and not self.held.admit(
                ticket.address, most, self.by_address[ticket.address] - 1):
            return f"too many sockets from your address (at most {most})"
        return None

    def _release(self, ticket: Ticket) -> None:
        self.total -= 1
        _down(self.by_address, ticket.address)
        if ticket.seat is None:
            self.spectators -= 1
            _down(self.spectators_by_game, ticket.game_id)
        else:
            _down(self.by_seat, (ticket.game_id, ticket.seat))
        # the other processes see the places free at once
        self._sync(self.held, ticket.address)
        if ticket.seat is None:
            self._sync(self.watch_held, ticket.game_id)
        else:
            self._sync(self.seat_held, seat_key(ticket.game_id, ticket.seat))

    @staticmethod
    def _sync(held: HeldCounts | None, key: str) -> None:
        if held is not None:
            with contextlib.suppress(RuntimeError):  # no event loop: the next renewal
                asyncio.get_running_loop().run_in_executor(None, held.sync, key)


def seat_key(game_id: str, seat: int) -> str:
    """The key of one seat's sockets in the shared counts."""
    return f"{game_id}:{seat}"


def _down(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


# ---------------------------------------------------------------------------- messages


def _bad(status: int, line: str) -> dict[str, Any]:
    return {"type": "error", "error": line, "status": status}


def parse_message(text: str, limits: Limits) -> tuple[dict[str, Any] | None,
                                                      dict[str, Any] | None]:
    """One client message: ``(message, None)`` for a JSON object, else ``(None, error)``
    with the error to answer: 400 for bad JSON, a JSON nested too deep or a number too
    long, a message that is not an object, an action text too long or a version out of
    range; 413 for a message
    over ``message_bytes``. Never raises."""
    bound = limits.message_bytes
    if len(text) > bound or len(text.encode("utf-8", "surrogatepass")) > bound:
        return None, _bad(413, f"a message has at most {bound} bytes")
    try:
        msg = json.loads(text)
    except RecursionError:
        return None, _bad(400, "the message is nested too deep")
    except ValueError:  # bad JSON, or an integer of too many digits
        return None, _bad(400, "the message is not valid JSON")
    if not isinstance(msg, dict):
        return None, _bad(400, "a message is a JSON object")
    action = msg.get("action")
    if isinstance(action, str) and len(action) > ACTION_CHARS:
        return None, _bad(400, f"an action has at most {ACTION_CHARS} characters")
    version = msg.get("version")
    if isinstance(version, int) and not 0 <= version <= VERSION_MAX:
        return None, _bad(400, "the version must be a whole number from 0 to 2**63-1")
    return msg, None


def client_gone(websocket: WebSocket, exc: BaseException) -> bool:
    """Whether ``exc`` (raised by a send or receive) means the client closed or lost its
    socket: normal, worth a debug line at most."""
    if isinstance(exc, WebSocketDisconnect | OSError):
        return True
    return WebSocketState.DISCONNECTED in (websocket.client_state,
                                           websocket.application_state)
