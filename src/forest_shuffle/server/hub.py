"""The open sockets of each game, told when their game changes (docs/web.md, WebSocket).

Contract: a :class:`Conn` is one open socket (its seat, a flag that a new state is due);
the :class:`Hub` holds them per game, wakes the players' senders before the spectators'
when a game changes (:meth:`Hub.notify` may be called from any thread), and builds a
socket's payload with the seats that have a socket open.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from forest_shuffle.server.answers import json_bytes
from forest_shuffle.server.service import GameService


@dataclass(eq=False)
class Conn:
    """One open socket: its seat (None: spectator) and a flag that a new state is due."""

    ws: WebSocket
    seat: int | None
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict[str, Any]) -> None:
        async with self.send_lock:
            await self.ws.send_text(json_bytes(message).decode())


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

    def payload(self, game_id: str, seat: int | None, log_from: int = 0,
                lang: str = "en") -> dict[str, Any]:
        return self.service.payloads.payload(game_id, seat, self.connected(game_id),
                                             log_from, lang)
