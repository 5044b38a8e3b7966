"""Durable storage of browser games: SQLAlchemy tables for games, seats and actions.

Contract: a game is its seed, its settings and its list of actions; the state is rebuilt by
replaying them. :meth:`Store.append_action` writes one accepted action and the new version
in **one transaction** and refuses (:class:`StaleWrite`) when another writer got that index
first: ``(game_id, index)`` is the primary key of ``actions`` and the game row's version is
checked in the same transaction, so two writers racing for one turn cannot both land. Any
SQLAlchemy URL works (``sqlite:///path``, ``postgresql+psycopg://...``); ``sqlite://``
is a private in-memory database (tests). A game row that cannot be read (its settings not
a JSON object, its deal seed not a scheme and hex digits) raises :class:`BrokenRow` naming
the game and the field, never the secret seed; :meth:`Store.broken_rows` lists such rows of
the unfinished games at start-up. A write the database refuses (read-only, full disk,
I/O error, locked too long) raises :class:`StoreUnwritable` with one line; the store logs
one line when writes start failing and one when they work again, none in between.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool

from forest_shuffle.engine.setup import LEGACY, SCHEMES, check_seed

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("seed", BigInteger, nullable=False),  # a legacy deal's seed (0 for keyed deals)
    # How the deal is made, for every game since the keyed deal: "keyed:<seed in hex>"
    # (128 secret bits do not fit a BIGINT). NULL: a legacy deal of ``seed``.
    Column("deal_seed", String(80), nullable=True),
    Column("settings", Text, nullable=False),  # JSON: hotseat, rules, first player
    Column("version", Integer, nullable=False, default=0),
    Column("over", Boolean, nullable=False, default=False),
    Column("bot_to_move", Boolean, nullable=False, default=False),
    Column("rematch", String(32), nullable=True),
    Column("created", Float, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token", String(64), nullable=True),  # None for a bot seat, or not claimed yet
    # An invited seat's claim code until it is claimed (its link; None once claimed)
    Column("invite", String(64), nullable=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("level", String(16), nullable=True),
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("index", Integer, primary_key=True, autoincrement=False),
    Column("text", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("time", Float, nullable=False),
)

log = logging.getLogger(__name__)


class StaleWrite(Exception):
    """The action index was taken by another writer (or the game moved on)."""


class BrokenRow(ValueError):
    """A stored game's row cannot be read; the message is one line naming the game and
    what is wrong (never the seed)."""


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(s.seat, s.kind, s.name, s.level, s.token, s.invite)


def decode_row(game_id: str, settings: str | None, deal_seed: str | None,
               seed: int | None) -> tuple[str, int, dict[str, Any]]:
    """The deal scheme, seed and settings of a stored game's row; BrokenRow if they
    cannot be read."""
    if deal_seed is None:
        if not isinstance(seed, int):
            raise BrokenRow(f"game {game_id}: its legacy seed is missing")
        deal, number = LEGACY, seed
    else:
        deal, _, hexed = deal_seed.partition(":")
        if deal not in SCHEMES or not hexed or not all(c in HEX for c in hexed):
            raise BrokenRow(f"game {game_id}: its deal seed is not a deal scheme and "
                            "hex digits")
        number = int(hexed, 16)
    try:
        data = json.loads(settings or "")
    except (ValueError, RecursionError):
        raise BrokenRow(f"game {game_id}: its settings are not JSON") from None
    if not isinstance(data, dict):
        raise BrokenRow(f"game {game_id}: its settings are not a JSON object")
    return deal, number, data


HEX = frozenset("0123456789abcdefABCDEF")


class StoreUnwritable(Exception):
    """The database refused a write (a read-only file, a full disk, an I/O error): nothing
    was stored. The message is one line for people: why, never the driver's text."""


class StoreClosed(Exception):
    """The store was closed (the server is stopping): nothing was read or written."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a stored game."""

    seat: int
    kind: str  # "human" or "bot"
    name: str
    level: str | None
    token: str | None
    invite: str | None = None  # the claim code of an invited seat not claimed yet


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game with its seats and its actions in order."""

    id: str
    seed: int
    deal: str  # the deal scheme of forest_shuffle.engine.setup
    settings: dict[str, Any]
    version: int
    over: bool
    rematch: str | None
    seats: tuple[SeatRow, ...]
    actions: tuple[str, ...]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # WAL: a killed process loses no commit
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite gets WAL, full sync and threads; memory one connection."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if url.startswith("sqlite"):
        if url in ("sqlite://", "sqlite:///:memory:"):
            engine = create_engine(url, connect_args={"check_same_thread": False},
                                   poolclass=StaticPool)
        else:
            engine = create_engine(url, connect_args={"check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """The games database. Thread-safe: every method uses its own connection."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        metadata.create_all(self.engine)
        self._upgrade()
        self._closed = False
        self._busy = 0  # calls in progress
        self._cond = threading.Condition()
        #: An in-memory database is one connection shared by every thread: its
        #: transactions must take turns (a bot's move beside a rematch's write collided).
        self._one_at_a_time: threading.RLock | None = (
            threading.RLock() if isinstance(self.engine.pool, StaticPool) else None)
        #: Whether the last write failed (the log says so once, and once when it works).
        self._failing = False

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Around every write: a refusal of the database becomes :class:`StoreUnwritable`,
        logged once until a write works again."""
        try:
            yield
        except OperationalError as exc:
            text = str(getattr(exc, "orig", exc)).lower()
            reason = ("the database is busy" if "locked" in text or "busy" in text
                      else "the database is not writable")
            if not self._failing:
                self._failing = True
                first = (str(getattr(exc, "orig", exc)).splitlines() or ["?"])[0][:120]
                log.error("%s (%s): writes get 503 until it can write again", reason, first)
            raise StoreUnwritable(reason) from None
        if self._failing:
            self._failing = False
            log.warning("the database is writable again")

    @contextlib.contextmanager
    def _open(self) -> Iterator[None]:
        """Around every use of the database: :class:`StoreClosed` once closed, and
        :meth:`close` waits for the calls in progress (a thread still writing when the
        server stops must not find the connection pool gone)."""
        with self._cond:
            if self._closed:
                raise StoreClosed("the server is stopping")
            self._busy += 1
        try:
            if self._one_at_a_time is None:
                yield
            else:
                with self._one_at_a_time:
                    yield
        finally:
            with self._cond:
                self._busy -= 1
                self._cond.notify_all()

    def guard(self) -> contextlib.AbstractContextManager[None]:
        """The guard of every use of the database (:meth:`_open`), for the tables other
        modules keep in the same database (the score pad's, ``pad_store.py``)."""
        return self._open()

    def _upgrade(self) -> None:
        """Add the columns that databases made by earlier versions lack (their rows keep
        their meaning: a NULL ``deal_seed`` is a legacy deal)."""
        have = {c["name"] for c in inspect(self.engine).get_columns("games")}
        if "deal_seed" not in have:
            with self.engine.begin() as conn:
                conn.execute(sql_text("ALTER TABLE games ADD COLUMN deal_seed VARCHAR(80)"))
        if "invite" not in {c["name"] for c in inspect(self.engine).get_columns("seats")}:
            with self.engine.begin() as conn:  # seats of older games: all claimed
                conn.execute(sql_text("ALTER TABLE seats ADD COLUMN invite VARCHAR(64)"))

    def close(self, wait: float = 10.0) -> None:
        """Refuse new calls, wait up to ``wait`` seconds for those in progress, then
        release the connections."""
        with self._cond:
            self._closed = True
            self._cond.wait_for(lambda: self._busy == 0, timeout=wait)
        self.engine.dispose()

    def create_game(self, game_id: str, seed: int, deal: str, settings: dict[str, Any],
                    seat_rows: list[SeatRow], bot_to_move: bool) -> bool:
        """Insert a new game with its seats (one transaction); False if the id is taken."""
        try:
            with self._open(), self._writing():
                self._create(game_id, seed, deal, settings, seat_rows, bot_to_move)
        except IntegrityError:
            return False
        return True

    def _create(self, game_id: str, seed: int, deal: str, settings: dict[str, Any],
                seat_rows: list[SeatRow], bot_to_move: bool) -> None:
        check_seed(seed, deal)
        legacy = deal == LEGACY
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=game_id, seed=seed if legacy else 0,
                deal_seed=None if legacy else f"{deal}:{seed:x}",
                settings=json.dumps(settings), version=0, over=False,
                bot_to_move=bot_to_move, rematch=None, created=time.time()))
            conn.execute(insert(seats), [
                {"game_id": game_id, "seat": s.seat, "token": s.token, "kind": s.kind,
                 "name": s.name, "level": s.level, "invite": s.invite} for s in seat_rows])

    def append_action(self, game_id: str, index: int, text: str, seat: int, *,
                      over: bool, bot_to_move: bool) -> None:
        """Store action number ``index`` (0-based) and set the version to ``index + 1``, in
        one transaction. :class:`StaleWrite` if the game is not at version ``index``."""
        try:
            with self._open(), self._writing(), self.engine.begin() as conn:
                done = conn.execute(
                    update(games).where(games.c.id == game_id, games.c.version == index)
                    .values(version=index + 1, over=over, bot_to_move=bot_to_move))
                if done.rowcount != 1:
                    raise StaleWrite(f"game {game_id} is not at version {index}")
                conn.execute(insert(actions).values(
                    game_id=game_id, index=index, text=text, seat=seat, time=time.time()))
        except IntegrityError:
            raise StaleWrite(f"action {index} of game {game_id} is already stored") from None

    def seat_rows(self, game_id: str) -> tuple[SeatRow, ...]:
        """The game's seats as stored now (tokens and invites change after creation)."""
        with self._open(), self.engine.connect() as conn:
            rows = conn.execute(select(seats).where(seats.c.game_id == game_id)
                                .order_by(seats.c.seat)).all()
        return tuple(_seat_row(s) for s in rows)

    def claim_seat(self, game_id: str, seat: int, invite: str, token: str) -> bool:
        """Give seat ``seat`` the token ``token`` if its invite is still ``invite`` (then
        the invite is gone); False if it was claimed or re-issued meanwhile."""
        with self._open(), self._writing(), self.engine.begin() as conn:
            done = conn.execute(update(seats).where(
                seats.c.game_id == game_id, seats.c.seat == seat, seats.c.invite == invite)
                .values(token=token, invite=None))
            return done.rowcount == 1

    def reissue_seat(self, game_id: str, seat: int, invite: str) -> None:
        """A new invite for seat ``seat``: its token (if claimed) and old invite revoked."""
        with self._open(), self._writing(), self.engine.begin() as conn:
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(token=None, invite=invite))

    def set_rematch(self, game_id: str, new_id: str) -> bool:
        """Record the rematch of a game; False if it already had one."""
        with self._open(), self._writing(), self.engine.begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id,
                                                    games.c.rematch.is_(None))
                                .values(rematch=new_id))
            return done.rowcount == 1

    def load(self, game_id: str) -> GameRow | None:
        """The game with its seats and actions, or None."""
        with self._open(), self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(
                select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
            texts = conn.execute(
                select(actions.c.text).where(actions.c.game_id == game_id)
                .order_by(actions.c.index)).scalars().all()
        deal, seed, settings = decode_row(game_id, row.settings, row.deal_seed, row.seed)
        return GameRow(
            id=row.id, seed=seed, deal=deal, settings=settings,
            version=row.version,
            over=row.over, rematch=row.rematch,
            seats=tuple(_seat_row(s) for s in seat_rows),
            actions=tuple(texts),
        )

    def actions_from(self, game_id: str, index: int) -> list[str]:
        """The texts of the game's actions from number ``index`` (0-based) on, in order:
        what a process holding the game at version ``index`` missed."""
        with self._open(), self.engine.connect() as conn:
            return list(conn.execute(
                select(actions.c.text).where(actions.c.game_id == game_id,
                                             actions.c.index >= index)
                .order_by(actions.c.index)).scalars().all())

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The stored version of each of these games (those that exist)."""
        if not game_ids:
            return {}
        with self._open(), self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id, games.c.version)
                                .where(games.c.id.in_(game_ids))).all()
        return {str(r.id): int(r.version) for r in rows}

    def rematch_of(self, game_id: str) -> str | None:
        """The id of the game's rematch, if it has one."""
        with self._open(), self.engine.connect() as conn:
            value = conn.execute(select(games.c.rematch).where(games.c.id == game_id)).scalar()
        return None if value is None else str(value)

    def broken_rows(self, check: Callable[[dict[str, Any]], str | None] = lambda _s: None,
                    ) -> list[tuple[str, str]]:
        """``(game id, one line)`` for each unfinished game whose row cannot be read
        (:func:`decode_row`) or whose settings ``check`` refuses (its one line): what
        start-up names before it serves the others."""
        with self._open(), self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id, games.c.settings, games.c.deal_seed,
                                       games.c.seed).where(games.c.over.is_(False))).all()
        out = []
        for r in rows:
            try:
                settings = decode_row(str(r.id), r.settings, r.deal_seed, r.seed)[2]
            except BrokenRow as exc:
                out.append((str(r.id), str(exc)))
                continue
            problem = check(settings)
            if problem is not None:
                out.append((str(r.id), f"game {r.id}: {problem}"))
        return out

    def games_waiting_for_bots(self) -> list[str]:
        """Ids of the unfinished games whose next decision is a bot's."""
        with self._open(), self.engine.connect() as conn:
            return list(conn.execute(select(games.c.id).where(
                games.c.bot_to_move.is_(True), games.c.over.is_(False))).scalars().all())
