"""The WebSocket route (docs/web.md, WebSocket): a seat's or spectator's socket of one game.

Contract: the socket is accepted, its token and ``log_from`` checked (an error and close
code 4000 + status otherwise), admitted by the app's :class:`~.limits.SocketGate` (4429
when a bound is reached), then sent the newest state of its seat after every change of the
game (its log as an increment), while the client's messages (actions, pings) are handled
one at a time, read more slowly when they come too fast. A socket whose seat's token was
revoked (a re-issued invite) gets a 403 error and is closed with code 4403.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from fastapi.concurrency import run_in_threadpool

from forest_shuffle.i18n import negotiate
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.hub import Conn, Hub
from forest_shuffle.server.limits import Limits, SocketGate, client_gone, parse_message
from forest_shuffle.server.service import GameService

router = APIRouter()
log = logging.getLogger(__name__)


@router.websocket("/api/games/{game_id}/ws")
async def socket(websocket: WebSocket, game_id: str, token: str | None = None,
                 log_from: str | None = None, lang: str | None = None) -> None:
    state = websocket.app.state
    svc: GameService = state.service
    hub: Hub = state.hub
    gate: SocketGate = state.gate
    lim: Limits = state.limits
    await websocket.accept()
    hub.loop = asyncio.get_running_loop()
    tok = token or websocket.headers.get("x-seat-token")
    # the words' language: ?lang=, else the hello's Accept-Language (never refused)
    said = negotiate(websocket.headers.get("accept-language"), lang[:35] if lang else None)
    try:
        seat = await run_in_threadpool(svc.seat_for, game_id, tok)
        # the log entries the client holds: each state carries only the ones after
        sent = await run_in_threadpool(svc.payloads.check_log_from, game_id, log_from)
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
                if seat is not None and svc.seat_for(game_id, tok) != seat:
                    # the creator re-issued this seat's link: its token is revoked
                    await conn.send({"type": "error", "status": 403, "error":
                                     "this seat's link was re-issued: ask the game's "
                                     "creator for the new one"})
                    await websocket.close(code=4403)
                    return
                payload = hub.payload(game_id, seat, sent, said)
                key = (payload["version"], payload["rematch"],
                       tuple((s["connected"], s["held"]) for s in payload["seats"]))
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
            reply = await socket_message(svc, lim, game_id, tok, text, said)
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


async def socket_message(svc: GameService, lim: Limits, game_id: str, token: str | None,
                          text: str, lang: str = "en") -> dict[str, Any] | None:
    """Handle one client message; the reply to send (an error or a pong), or None. A
    refusal is said in ``lang`` (the socket's language)."""
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
        return {"type": "error", "error": exc.said_in(lang), "status": exc.status}
    except Exception:  # as over REST: a 500 in one line, the socket stays open
        log.exception("internal error")
        return {"type": "error", "error": "internal error of the server", "status": 500}
    return None
