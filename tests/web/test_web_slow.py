"""The server bounds slow requests and connections per address itself (docs/web.md,
"Limits"): half-sent requests are closed, one address cannot hold every file, and every
other client is served meanwhile. A real server, as a deployment runs it."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
from webutil import server

HALF = b"GET /api/levels HTTP/1.1\r\nHost: x\r\nX-Slow: "  # never finished


def _half_sent(port: int, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(HALF)
        out.append(s)
    return out


def _closed_by_server(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (or refused it) within the socket's timeout."""
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
            if b" 429 " in data.split(b"\r\n", 1)[0]:
                continue  # refused: the close follows
    except (TimeoutError, OSError) as exc:
        return isinstance(exc, ConnectionResetError)


@contextlib.contextmanager
def _slow_server(tmp_path: Path) -> Iterator[tuple[int, str]]:
    limits = "request_seconds=2,connections_per_address=20"
    with server(f"sqlite:///{tmp_path / 'g.sqlite3'}",
                extra=["--limits", limits]) as (_proc, base):
        yield int(base.rsplit(":", 1)[1]), base


def test_half_sent_requests_are_closed_and_others_served(tmp_path: Path) -> None:
    with _slow_server(tmp_path) as (port, base):
        held = _half_sent(port, 15)
        try:
            # another client is served while they hang
            with httpx.Client(base_url=base, timeout=20) as http:
                assert http.get("/api/levels").status_code == 200
            # ... and every half-sent request is closed by the server, none left for ever
            assert all(_closed_by_server(s) for s in held)
        finally:
            for s in held:
                s.close()


def test_one_address_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    with _slow_server(tmp_path) as (port, _base):
        held = _half_sent(port, 19)  # the fixture's own client may hold one more
        extra = _half_sent(port, 5)
        try:
            first = [s.recv(4096) for s in extra[-3:]]
            assert all(b" 429 " in line.split(b"\r\n", 1)[0] for line in first), first
            assert all(b"too many connections" in line for line in first)
        finally:
            for s in held + extra:
                s.close()
