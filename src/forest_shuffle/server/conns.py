"""Bounds on connections the server holds itself, before any request reaches the app
(docs/web.md, "Limits": slow requests).

Contract: :func:`bounded_protocol` is uvicorn's HTTP protocol (httptools) with two bounds
of :class:`~forest_shuffle.server.limits.Limits`:

- ``request_seconds``: a request's headers and body must have arrived within that many
  seconds of the connection opening or of the request's first byte; else the connection
  is closed (a client that sends a request half, or a byte every few seconds, holds no
  file and no task for ever). The time between two requests of a kept-alive connection
  is uvicorn's keep-alive bound.
- ``connections_per_address``: open HTTP connections of one client address; one more is
  answered ``429`` in one line and closed at once. A connection upgraded to a WebSocket
  leaves this count (sockets have their own bounds, :class:`~.limits.SocketGate`).

``None`` is no bound. The counts are per process: with ``serve --workers N`` each worker
takes ``WorkerProtocol`` (uvicorn imports it by name in each worker), whose bounds come
from the options ``serve`` hands its workers, with ``connections_per_address`` shared out
(:func:`per_process`: each process admits its share, so an address holds at most the bound
in all, not N times it). Without httptools :func:`bounded_protocol` returns None (uvicorn's
own protocol, unbounded) and says so in the log.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import os
from collections import Counter
from dataclasses import replace
from typing import Any

from forest_shuffle.server.limits import Limits, fit_to_files, parse_limits, raise_file_limit

log = logging.getLogger(__name__)


def _refusal(status: int, reason: str, line: str) -> bytes:
    body = json.dumps({"error": line}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def bounded_protocol(limits: Limits) -> type[asyncio.Protocol] | None:
    """uvicorn's httptools protocol with the module's bounds taken from ``limits``; None
    without httptools."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        log.warning("no bound on slow requests or connections per address: httptools "
                    "is not installed")
        return None
    seconds = limits.request_seconds
    most = limits.connections_per_address
    counts: Counter[str] = Counter()  # open connections per address (this process)
    too_many = _refusal(429, "Too Many Requests",
                        f"too many connections from your address (at most {most})")

    class Bounded(HttpToolsProtocol):
        """HttpToolsProtocol with a deadline per request and a count per address."""

        _address: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else None
            if most is not None and address is not None:
                if counts[address] >= most:
                    transport.write(too_many)
                    transport.close()
                    return
                counts[address] += 1
                self._address = address
            self._start()

        def _start(self) -> None:
            if seconds is None:
                return
            self._stop()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _stop(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _leave(self) -> None:
            self._stop()
            if self._address is not None:
                counts[self._address] -= 1
                if counts[self._address] <= 0:
                    del counts[self._address]
                self._address = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.get_protocol() is self and not self.transport.is_closing():
                self.transport.close()  # its task, if any, hears a disconnect

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._start()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._stop()

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            if self.transport.get_protocol() is not self:  # a socket now: its own bounds
                self._leave()

        def connection_lost(self, exc: Exception | None) -> None:
            self._leave()
            super().connection_lost(exc)

    return Bounded


def protocol_options(limits: Limits) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` that apply :func:`bounded_protocol`."""
    protocol = bounded_protocol(limits)
    return {} if protocol is None else {"http": protocol}


def per_process(limits: Limits, processes: int) -> Limits:
    """``limits`` for one of ``processes`` server processes behind one port: its share of
    ``connections_per_address`` (rounded up), so the processes together admit the bound."""
    most = limits.connections_per_address
    if most is None or processes <= 1:
        return limits
    return replace(limits, connections_per_address=max(1, math.ceil(most / processes)))


@functools.cache
def _worker_protocol() -> type[asyncio.Protocol]:
    from forest_shuffle.server.app import SERVE_ENV

    opts = json.loads(os.environ.get(SERVE_ENV, "{}"))
    limits = fit_to_files(parse_limits(opts.get("limits", "")), raise_file_limit())
    protocol = bounded_protocol(per_process(limits, int(opts.get("workers", 1))))
    if protocol is None:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    return protocol


def __getattr__(name: str) -> Any:
    """``WorkerProtocol``: the bounded protocol of one worker of ``serve --workers N``."""
    if name == "WorkerProtocol":
        return _worker_protocol()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
