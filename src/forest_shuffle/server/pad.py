"""The score pad of ``forest-shuffle serve`` (docs/pad.md): tables of forests entered by
hand at a physical table, scored live by the game's own scorer.

Contract: :class:`PadService` keeps each table as Forest JSON player objects in the
database (:mod:`.pad_store`) and applies **entries** (:mod:`.pad_model`) under one lock:
an entry names its seat, the version of that seat's forest the client last saw and a
client-generated id. A known id answers what it answered when stored (an offline phone
replays its queue safely); an out-of-date version is a 409; the changed table is read by
the Forest JSON reader and a refusal is its one line (400) and changes nothing. Every
accepted entry is stored (one transaction) before it is published; the table's answer
(each player's score-pad lines, total, every card's points and reason from the scorer, the
winners once every forest is done or the table closed) is built once per version and
long-poll waiters (``GET .../wait``) are woken: those of this process at once, those of
other server processes through the bus (``--pubsub``: :class:`~.pubsub.RedisBus` on
:data:`PAD_CHANNEL`; a lost message is caught by a check every :data:`BUS_POLL_SECONDS`)
or, without one, by a poll of the table's stored version (each
table's at most every :data:`POLL_SECONDS` per process, while someone waits on it). Waiters
are bounded: :data:`TABLE_WAITERS_MAX` on one table (429) and :data:`WAITERS_MAX` in a
process (503), one line each with ``Retry-After``. :func:`pad_router` is the REST API
(``/api/pad``) and the page (``/pad``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError

from forest_shuffle.engine.game import GameDef, UnknownGameError
from forest_shuffle.formats.forest_json import (
    ForestJsonError,
    game_of_document,
    read_table,
)
from forest_shuffle.games import game_ids, make_game
from forest_shuffle.server.pad_model import (
    MAX_NAME,
    MAX_PLAYERS,
    PadRefused,
    apply_op,
    catalog_of,
    empty_player,
    has_moors,
    score_document,
    table_document,
)
from forest_shuffle.server.pad_store import PadPlayerRow, PadStore, PadTableRow, StaleTable
from forest_shuffle.server.pubsub import Bus
from forest_shuffle.server.store import Store

__all__ = ["BUS_POLL_SECONDS", "PAD_CHANNEL", "POLL_SECONDS", "TABLE_WAITERS_MAX",
           "WAITERS_MAX", "WAIT_MAX", "PadRefused", "PadService", "pad_router"]

#: The longest a long-poll waits (seconds) before it answers the unchanged table.
WAIT_MAX = 25.0
#: The most long-poll waiters on one table in one process (a 429 beyond): a table has at
#: most MAX_PLAYERS phones, each with a tab or two.
TABLE_WAITERS_MAX = 24
#: The most long-poll waiters in one process (a 503 beyond).
WAITERS_MAX = 2000
#: Without a bus: how often (seconds) a table someone waits on is checked for writes of
#: other server processes (its stored version).
POLL_SECONDS = 0.5
#: With a bus: how often (seconds) a waiting phone's table is checked all the same, so a
#: message the bus lost (a reconnect, a listener that fell behind) delays it at most this.
BUS_POLL_SECONDS = 2.0
#: The Redis channel of the pad's news ("<table id> <version>"), beside the games'.
PAD_CHANNEL = "forest-shuffle:pad"
#: The most tables kept in memory (others are read from the database when asked for).
LIVE_MAX = 1000
#: The most closed tables one history page lists.
HISTORY_MAX = 200
STATIC = Path(__file__).parent / "static"


@dataclass
class _Live:
    """A table in memory: its stored row, its answer for the current version (built once)
    and the long-poll waiters (their loop and event)."""

    row: PadTableRow
    game: GameDef
    answer: bytes | None = None
    waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(
        default_factory=list)
    checked: float = 0.0  # when the stored version was last polled (monotonic)


def _new_id() -> str:
    return secrets.token_hex(8)


def _token() -> str:
    return secrets.token_urlsafe(18)


def _game(raw: Any) -> GameDef:
    if not isinstance(raw, str):
        raise PadRefused("\"game\" must be a game id")
    try:
        return game_of_document({"game": raw, "players": []})
    except (ForestJsonError, UnknownGameError) as exc:
        raise PadRefused(str(exc)) from None


def _name(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_NAME:
        raise PadRefused(f"a player's name must be 1 to {MAX_NAME} characters")
    if any(ord(ch) < 32 for ch in raw):
        raise PadRefused("a player's name must be printable text")
    return raw.strip()


class PadService:
    """The pad's tables over a :class:`Store`'s database; thread-safe (one lock). ``bus``:
    the news of other server processes (None: they are polled from the database);
    ``waiters_max``/``table_waiters_max``: the bounds on long-poll waiters (None: the
    module's :data:`WAITERS_MAX`, :data:`TABLE_WAITERS_MAX`)."""

    def __init__(self, store: Store, bus: Bus | None = None,
                 waiters_max: int | None = None,
                 table_waiters_max: int | None = None) -> None:
        self.db = PadStore(store)
        self._lock = threading.RLock()
        self._live: dict[str, _Live] = {}
        self.bus = bus
        self.waiters_max = WAITERS_MAX if waiters_max is None else waiters_max
        self.table_waiters_max = (TABLE_WAITERS_MAX if table_waiters_max is None
                                  else table_waiters_max)
        self._waiting = 0
        if bus is not None:
            bus.start(self._remote)

    def stop(self) -> None:
        """Stop listening to the bus."""
        if self.bus is not None:
            self.bus.close()

    def _remote(self, table_id: str, version: int) -> None:
        """From the bus: table ``table_id`` reached ``version`` (maybe in another process);
        a table held here that is behind is read again and its waiters woken."""
        with self._lock:
            live = self._live.get(table_id)
            if live is not None and version > live.row.version:
                self._reload(live)

    def _reload(self, live: _Live) -> None:
        """Read ``live``'s table again from the database (lock held) if it moved on."""
        row = self.db.load(live.row.id)
        if row is not None and row.version != live.row.version:
            live.row = row
            self._changed(live)

    def _poll(self, table_id: str) -> None:
        """Without a bus: catch up with other processes' writes to ``table_id`` (at most
        every :data:`POLL_SECONDS` per table)."""
        with self._lock:
            live = self._live.get(table_id)
            now = time.monotonic()
            if live is None or now - live.checked < POLL_SECONDS:
                return
            live.checked = now
            if self.db.version(table_id) != live.row.version:
                self._reload(live)

    # ------------------------------------------------------------ reading

    def _get(self, table_id: str) -> _Live:
        live = self._live.get(table_id)
        if live is None:
            row = self.db.load(table_id) if len(table_id) <= 32 else None
            if row is None:
                raise PadRefused("no such table", 404)
            self._forget()
            live = self._live[table_id] = _Live(row, make_game(row.game))
        return live

    def _fresh(self, table_id: str) -> _Live:
        """The table for a write: read again from the database if another process moved
        it on since this one loaded it."""
        live = self._get(table_id)
        if self.db.version(table_id) != live.row.version:
            row = self.db.load(table_id)
            if row is None:
                raise PadRefused("no such table", 404)
            live.row = row
            self._changed(live)
        return live

    def _stale(self, live: _Live) -> PadRefused:
        """Another process wrote first: reload, and ask for the request again."""
        row = self.db.load(live.row.id)
        if row is not None:
            live.row = row
            self._changed(live)
        return PadRefused("the table changed meanwhile: send it again", 409)

    def _forget(self) -> None:
        """Keep at most :data:`LIVE_MAX` tables in memory: the oldest loaded that nobody
        waits on go (the database has them)."""
        if len(self._live) < LIVE_MAX:
            return
        for tid in [t for t, v in self._live.items() if not v.waiters][:LIVE_MAX // 4]:
            del self._live[tid]

    def document(self, table_id: str) -> dict[str, Any]:
        """The table as a Forest JSON document (the export)."""
        with self._lock:
            live = self._get(table_id)
            return table_document(live.game, [p.forest for p in live.row.players])

    def fresh_answer(self, table_id: str) -> bytes:
        """:meth:`answer` after catching up with other processes' writes (the stored
        version, read at most every :data:`POLL_SECONDS` per table)."""
        self._poll(table_id)
        return self.answer(table_id)

    def answer(self, table_id: str) -> bytes:
        """The table's answer (JSON bytes), built once per version."""
        with self._lock:
            live = self._get(table_id)
            if live.answer is None:
                live.answer = json.dumps(self._answer(live), ensure_ascii=False).encode()
            return live.answer

    def version(self, table_id: str) -> int:
        with self._lock:
            return self._get(table_id).row.version

    def _answer(self, live: _Live) -> dict[str, Any]:
        row = live.row
        doc = table_document(live.game, [p.forest for p in row.players])
        scored = row.result if row.result is not None else score_document(doc)
        all_done = bool(row.players) and all(p.done for p in row.players)
        players = []
        for p, s in zip(row.players, scored["players"], strict=True):
            players.append({"seat": p.seat, "name": p.name, "version": p.version,
                            "done": p.done, "forest": p.forest, "total": s["total"],
                            "lines": s["lines"], "cards": s["cards"]})
        return {
            "id": row.id, "game": row.game, "title": live.game.title,
            "lines": list(live.game.pad_lines), "version": row.version,
            "state": "open" if row.closed is None else "closed",
            "created": row.created, "closed": row.closed, "players": players,
            "winners": scored["winners"] if row.closed is not None or all_done else None,
        }

    def _published(self, live: _Live) -> None:
        """A write of this process: wake its waiters and tell the other processes."""
        self._changed(live)
        if self.bus is not None:
            self.bus.publish(live.row.id, live.row.version)

    def _changed(self, live: _Live) -> None:
        """A new version: forget the old answer and wake the waiters (any thread)."""
        live.answer = None
        waiters, live.waiters = live.waiters, []
        for loop, event in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)

    async def wait(self, table_id: str, since: int, timeout: float) -> bytes:
        """The table's answer once its version is past ``since`` (or after ``timeout``);
        PadRefused 429/503 beyond the bounds on waiters."""
        event = asyncio.Event()
        with self._lock:
            live = self._get(table_id)
            if live.row.version > since:
                event.set()
            elif len(live.waiters) >= self.table_waiters_max:
                raise PadRefused(f"too many phones wait on this table ({len(live.waiters)}): "
                                 "try again in a few seconds", 429)
            elif self._waiting >= self.waiters_max:
                raise PadRefused("the server has too many phones waiting: try again in a "
                                 "few seconds", 503)
            else:
                live.waiters.append((asyncio.get_running_loop(), event))
                self._waiting += 1
        end = time.monotonic() + timeout
        try:
            while not event.is_set():
                left = end - time.monotonic()
                if left <= 0:
                    break
                step = min(left, POLL_SECONDS if self.bus is None else BUS_POLL_SECONDS)
                try:
                    await asyncio.wait_for(event.wait(), step)
                except TimeoutError:  # other processes' writes (or a message the bus
                    await asyncio.to_thread(self._poll, table_id)  # lost): the version
        finally:  # answered, timed out, or the phone went away (cancelled)
            with self._lock:
                before = len(live.waiters)
                live.waiters = [w for w in live.waiters if w[1] is not event]
                self._waiting -= before - len(live.waiters)
        return self.answer(table_id)

    # ------------------------------------------------------------ tables and players

    def create(self, game_raw: Any, names: list[Any],
               forests: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """A new open table of ``game`` with its first players (their names; ``forests``:
        their Forest JSON objects, from an imported document). Its id, the join token (the
        table link's), the host token (any forest, closing) and each seat's token."""
        game = _game(game_raw)
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise PadRefused(f"a table has 1 to {MAX_PLAYERS} players")
        clean = [_name(n) for n in names]
        if len(set(clean)) != len(clean):
            raise PadRefused("two players have the same name")
        players = [PadPlayerRow(i, n, _token(),
                                {**forests[i], "name": n} if forests else empty_player(n, game))
                   for i, n in enumerate(clean)]
        score_document(table_document(game, [p.forest for p in players]))  # checked whole
        row = PadTableRow(id=_new_id(), game=game.id, join_token=_token(),
                          host_token=_token(), created=time.time(), players=players)
        with self._lock:
            self.db.create(row)
            self._forget()
            self._live[row.id] = _Live(row, game)
        return {"id": row.id, "game": game.id, "join": row.join_token,
                "host": row.host_token,
                "seats": [{"seat": p.seat, "name": p.name, "token": p.token}
                          for p in players]}

    def import_document(self, doc: Any) -> dict[str, Any]:
        """A new open table from a Forest JSON document (checked by the reader first)."""
        try:
            table = read_table(doc)
        except ForestJsonError as exc:
            raise PadRefused(str(exc)) from None
        players = doc["players"]
        forests = []
        for i, raw in enumerate(players):
            p = {k: v for k, v in raw.items() if k in ("name", "cave", "trees", "moors")}
            p["name"] = table.names[i]
            p.setdefault("trees", [])
            if has_moors(table.game):
                p.setdefault("moors", [])
            forests.append(p)
        return self.create(table.game.id, list(table.names), forests)

    def join(self, table_id: str, join_token: Any, name_raw: Any) -> dict[str, Any]:
        """Add a player to an open table (with the table link's token or the host's)."""
        name = _name(name_raw)
        with self._lock:
            live = self._fresh(table_id)
            row = live.row
            if not isinstance(join_token, str) or not (
                    secrets.compare_digest(join_token, row.join_token)
                    or secrets.compare_digest(join_token, row.host_token)):
                raise PadRefused("this link does not open the table (ask for a new one)", 403)
            self._open(row)
            if len(row.players) >= MAX_PLAYERS:
                raise PadRefused(f"the table has its {MAX_PLAYERS} players already")
            if any(p.name == name for p in row.players):
                raise PadRefused(f"the name {name!r} is taken at this table")
            p = PadPlayerRow(len(row.players), name, _token(), empty_player(name, live.game))
            try:
                self.db.add_player(row.id, p, row.version + 1)
            except StaleTable:
                raise self._stale(live) from None
            row.players.append(p)
            row.version += 1
            self._published(live)
            return {"id": row.id, "seat": p.seat, "name": name, "token": p.token}

    @staticmethod
    def _open(row: PadTableRow) -> None:
        if row.closed is not None:
            raise PadRefused("the table is closed: nothing can be changed", 409)

    def _seat_of(self, row: PadTableRow, token: str | None, seat: Any) -> int:
        """The seat a token may change: its own, or any with the host token."""
        if not token:
            raise PadRefused("a player's token is needed (X-Pad-Token)", 403)
        if secrets.compare_digest(token, row.host_token):
            if seat is None:
                raise PadRefused("\"seat\" is needed with the host's token")
            if not isinstance(seat, int) or isinstance(seat, bool) or not (
                    0 <= seat < len(row.players)):
                raise PadRefused(f"there is no seat {seat!r} at this table")
            return seat
        for p in row.players:
            if secrets.compare_digest(token, p.token):
                if seat is not None and seat != p.seat:
                    raise PadRefused("a player enters only their own forest", 403)
                return p.seat
        raise PadRefused("this token is no player's at this table", 403)

    # ------------------------------------------------------------ entries

    def enter(self, table_id: str, token: str | None, entry_id: Any, seat_raw: Any,
              base: Any, op: Any) -> dict[str, Any]:
        """Apply one entry (see the module's contract): ``{"entry_id", "replayed",
        "seat", "version"}`` (the seat's forest version after it)."""
        if not isinstance(entry_id, str) or not 1 <= len(entry_id) <= 64:
            raise PadRefused("\"entry_id\" must be a text of 1 to 64 characters")
        if not isinstance(op, dict):
            raise PadRefused("\"op\" must be an object such as {\"op\": \"add_host\", ...}")
        with self._lock:
            live = self._fresh(table_id)
            row = live.row
            seat = self._seat_of(row, token, seat_raw)
            stored = self.db.entry(row.id, entry_id)
            if stored is not None:
                if stored.seat != seat:
                    raise PadRefused("that entry id was used for another forest", 409)
                return {"entry_id": entry_id, "replayed": True, "seat": seat,
                        "version": row.players[seat].version}
            self._open(row)
            player = row.players[seat]
            if base is not None and base != player.version:
                raise PadRefused(f"{player.name}'s forest changed since version {base} (now "
                                 f"{player.version}): look again before entering", 409)
            undoes: str | None = None
            done = player.done
            if op.get("op") == "undo":
                last = self.db.last_entry(row.id, seat)
                if last is None:
                    raise PadRefused(f"nothing to undo in {player.name}'s forest")
                forest = last.before
                undoes = last.entry_id
                if last.op.get("op") == "done":
                    done = not bool(last.op.get("done", True))
            else:
                forest = apply_op(player.forest, op)
                if op.get("op") == "done":
                    done = bool(op.get("done", True))
            forest["name"] = player.name
            forests = [forest if p.seat == seat else p.forest for p in row.players]
            score_document(table_document(live.game, forests))  # the reader decides
            new = PadPlayerRow(seat, player.name, player.token, forest, player.version + 1,
                               done)
            try:
                self.db.write_entry(row.id, entry_id, seat, op, player.forest, new,
                                    row.version + 1, undoes)
            except IntegrityError:  # another process stored that id first
                raise PadRefused("that entry was stored meanwhile: read the table", 409
                                 ) from None
            except StaleTable:
                raise self._stale(live) from None
            row.players[seat] = new
            row.version += 1
            self._published(live)
            return {"entry_id": entry_id, "replayed": False, "seat": seat,
                    "version": new.version}

    def close(self, table_id: str, token: str | None) -> None:
        """Close a table (host token): its result is kept for the history; no more entries."""
        with self._lock:
            live = self._fresh(table_id)
            row = live.row
            if not token or not secrets.compare_digest(token, row.host_token):
                raise PadRefused("only the table's host closes it", 403)
            self._open(row)
            result = score_document(table_document(live.game,
                                                   [p.forest for p in row.players]))
            now = time.time()
            try:
                self.db.close(row.id, now, row.version + 1, result)
            except StaleTable:
                raise self._stale(live) from None
            row.closed, row.result = now, result
            row.version += 1
            self._published(live)

    # ------------------------------------------------------------ history

    def history(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """Closed tables, newest first: id, game, dates, players with totals, winners."""
        out = []
        for tid, game, created, closed, result in self.db.closed_tables(limit, offset):
            out.append({"id": tid, "game": game, "created": created, "closed": closed,
                        "players": [{"name": p["name"], "total": p["total"]}
                                    for p in result["players"]],
                        "winners": result["winners"]})
        return out

    def stats(self, name: str | None = None) -> list[dict[str, Any]]:
        """Statistics by player name over the closed tables: games, wins, average and best
        total, points by score-pad line and by species (sums); one name or every name."""
        by: dict[str, dict[str, Any]] = {}
        offset = 0
        while True:
            page = self.db.closed_tables(500, offset)
            for _tid, _game, _created, _closed, result in page:
                for p in result["players"]:
                    if name is not None and p["name"] != name:
                        continue
                    s = by.setdefault(p["name"], {"name": p["name"], "games": 0, "wins": 0,
                                                  "totals": [], "lines": {},
                                                  "species": {}})
                    s["games"] += 1
                    s["wins"] += p["name"] in result["winners"]
                    s["totals"].append(p["total"])
                    for line, pts in p["lines"].items():
                        s["lines"][line] = s["lines"].get(line, 0) + pts
                    for c in p["cards"]:
                        s["species"][c["species"]] = (s["species"].get(c["species"], 0)
                                                      + c["points"])
            if len(page) < 500:
                break
            offset += 500
        out = []
        for s in sorted(by.values(), key=lambda s: str(s["name"]).casefold()):
            totals = s.pop("totals")
            out.append({**s, "average": round(sum(totals) / len(totals), 2),
                        "best": max(totals)})
        return out


# ---------------------------------------------------------------- the REST API

PadToken = Annotated[str | None, Header(alias="X-Pad-Token",
                                        description="a player's or the host's token")]


class NewTable(BaseModel):
    """``POST /api/pad/tables``: the game and the first players' names."""

    game: str = Field(max_length=80, description="a registered game id (GET /api/pad/games)")
    players: list[str] = Field(min_length=1, max_length=MAX_PLAYERS)


class JoinIn(BaseModel):
    """``POST /api/pad/tables/{id}/players``: the table link's token and a name."""

    join: str = Field(max_length=64)
    name: str = Field(max_length=200)


class EntryIn(BaseModel):
    """``POST /api/pad/tables/{id}/entries``: one entry (docs/pad.md, "Entries")."""

    entry_id: str = Field(max_length=64, description="made by the client, unique per entry")
    seat: int | None = Field(default=None, description="the forest (needed with the host's "
                                                       "token)")
    base: int | None = Field(default=None, description="the forest's version the client "
                                                       "last saw")
    op: dict[str, Any]


def _json_answer(data: Any) -> Response:
    return Response(json.dumps(data, ensure_ascii=False).encode(),
                    media_type="application/json")


def _refused(exc: PadRefused) -> JSONResponse:
    headers = {"Retry-After": "5"} if exc.status in (429, 503) else None
    return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)


def _guarded(fn: Callable[[], Response]) -> Response:
    try:
        return fn()
    except PadRefused as exc:
        return _refused(exc)


def pad_router(svc: PadService) -> APIRouter:
    """The score pad's routes over ``svc``'s tables: ``/api/pad/...`` and ``/pad``."""
    r = APIRouter()

    @r.get("/api/pad/games", tags=["pad"])
    def pad_games() -> Response:
        """Every registered game: id, title and its score-pad lines."""
        return _json_answer([{"id": g, "title": make_game(g).title,
                              "lines": list(make_game(g).pad_lines)} for g in game_ids()])

    @r.get("/api/pad/catalog", tags=["pad"])
    def pad_catalog(game: Annotated[str, Query(max_length=80)] = "base",
                    lang: Annotated[str, Query(max_length=20)] = "en") -> Response:
        """What may be placed in a game: hosts, dwellers with sides, tags and symbols, and
        each one's name as printed in the ``lang`` edition (en, de, fr, zh)."""
        return _guarded(lambda: _json_answer(catalog_of(_game(game), lang)))

    @r.post("/api/pad/tables", tags=["pad"])
    def pad_new(body: NewTable) -> Response:
        """Open a table: its id, the join token of its link, the host token, the seats'."""
        return _guarded(lambda: _json_answer(svc.create(body.game, list(body.players))))

    @r.post("/api/pad/import", tags=["pad"])
    def pad_import(doc: dict[str, Any]) -> Response:
        """Open a table from a Forest JSON document (refused in the reader's words)."""
        return _guarded(lambda: _json_answer(svc.import_document(doc)))

    @r.get("/api/pad/tables/{table_id}", tags=["pad"])
    def pad_table(table_id: str) -> Response:
        """The table: each player's forest, lines, total, cards with points and reasons."""
        return _guarded(lambda: Response(svc.fresh_answer(table_id),
                                         media_type="application/json"))

    @r.get("/api/pad/tables/{table_id}/wait", tags=["pad"])
    async def pad_wait(table_id: str, since: Annotated[int, Query(ge=0)] = 0,
                       timeout: Annotated[float, Query(gt=0, le=WAIT_MAX)] = WAIT_MAX
                       ) -> Response:
        """Long poll: the table once its version is past ``since`` (or at the timeout)."""
        try:
            body = await svc.wait(table_id, since, timeout)
        except PadRefused as exc:
            return _refused(exc)
        return Response(body, media_type="application/json")

    @r.post("/api/pad/tables/{table_id}/players", tags=["pad"])
    def pad_join(table_id: str, body: JoinIn) -> Response:
        """Join with the table link's token: the new seat and its token."""
        return _guarded(lambda: _json_answer(svc.join(table_id, body.join, body.name)))

    @r.post("/api/pad/tables/{table_id}/entries", tags=["pad"])
    def pad_enter(table_id: str, body: EntryIn, x_pad_token: PadToken = None) -> Response:
        """Apply one entry to a forest (idempotent by ``entry_id``)."""
        return _guarded(lambda: _json_answer(svc.enter(
            table_id, x_pad_token, body.entry_id, body.seat, body.base, body.op)))

    @r.post("/api/pad/tables/{table_id}/close", tags=["pad"])
    def pad_close(table_id: str, x_pad_token: PadToken = None) -> Response:
        """Close the table (host token); it goes to the history."""
        def run() -> Response:
            svc.close(table_id, x_pad_token)
            return Response(svc.answer(table_id), media_type="application/json")
        return _guarded(run)

    @r.get("/api/pad/tables/{table_id}/forest.json", tags=["pad"])
    def pad_export(table_id: str) -> Response:
        """The table as a Forest JSON document (``forest-shuffle score`` reads it)."""
        def run() -> Response:
            body = _json_answer(svc.document(table_id))
            body.headers["Content-Disposition"] = (
                f"attachment; filename=\"table-{table_id}.json\"")
            return body
        return _guarded(run)

    @r.get("/api/pad/tables/{table_id}/qr.svg", tags=["pad"])
    def pad_qr(table_id: str, request: Request,
               join: Annotated[str, Query(max_length=64)]) -> Response:
        """The table link (with its join token) as a QR code in SVG, drawn by segno."""
        def run() -> Response:
            import io

            import segno

            with svc._lock:
                row = svc._get(table_id).row
                if not secrets.compare_digest(join, row.join_token):
                    raise PadRefused("this link does not open the table", 403)
            link = f"{str(request.base_url).rstrip('/')}/pad/{table_id}?join={join}"
            out = io.BytesIO()
            segno.make(link, error="m").save(out, kind="svg", scale=4, border=2,
                                             title="The table's link")
            return Response(out.getvalue(), media_type="image/svg+xml")
        return _guarded(run)

    @r.get("/api/pad/history", tags=["pad"])
    def pad_history(limit: Annotated[int, Query(ge=1, le=HISTORY_MAX)] = 50,
                    offset: Annotated[int, Query(ge=0)] = 0) -> Response:
        """Closed tables, newest first, with players, totals and winners."""
        return _json_answer(svc.history(limit, offset))

    @r.get("/api/pad/stats", tags=["pad"])
    def pad_stats(name: Annotated[str | None, Query(max_length=MAX_NAME)] = None
                  ) -> Response:
        """Statistics by player name over the closed tables (one name, or all)."""
        return _json_answer(svc.stats(name))

    def page() -> Response:
        html = STATIC / "pad.html"
        if not html.is_file():
            return JSONResponse({"error": "the pad page is not installed"}, status_code=404)
        return FileResponse(html, media_type="text/html")

    @r.get("/pad", include_in_schema=False)
    def pad_page() -> Response:
        return page()

    @r.get("/pad/{table_id}", include_in_schema=False)
    def pad_table_page(table_id: str) -> Response:
        return page()

    return r
