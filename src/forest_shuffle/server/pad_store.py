"""Durable storage of the score pad's tables, in the games' database (SQLAlchemy).

Contract: a table row (game, tokens, open or closed, times, version, the final result once
closed), one row per player (name, token, forest as Forest JSON, the forest's version, done)
and one row per accepted entry (its client-generated id, the operation, the forest before
it, whether it was undone). :meth:`PadStore.write_entry` stores an entry, the player's new
forest and both versions in **one transaction**; ``(table_id, entry_id)`` is the primary key,
so a replayed entry is found again rather than applied twice, and every write moves the
table's version on only from the one its writer read (:class:`StaleTable` otherwise: two
server processes never both write from one version). Any URL of
:class:`~forest_shuffle.server.store.Store` works (SQLite, PostgreSQL).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)

from forest_shuffle.server.store import Store

pad_metadata = MetaData()

pad_tables = Table(
    "pad_tables", pad_metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(80), nullable=False),
    Column("join_token", String(64), nullable=False),
    Column("host_token", String(64), nullable=False),
    Column("closed", Float, nullable=True),  # None while open
    Column("created", Float, nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("result", Text, nullable=True),  # JSON: the scorer's answer at closing
)

pad_players = Table(
    "pad_players", pad_metadata,
    Column("table_id", String(32), ForeignKey("pad_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=False),
    Column("token", String(64), nullable=False),
    Column("forest", Text, nullable=False),  # JSON: the Forest JSON player object
    Column("version", Integer, nullable=False, default=0),
    Column("done", Boolean, nullable=False, default=False),
)

pad_entries = Table(
    "pad_entries", pad_metadata,
    Column("table_id", String(32), ForeignKey("pad_tables.id"), primary_key=True),
    Column("entry_id", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("seq", Integer, nullable=False),  # the table's version the entry made
    Column("op", Text, nullable=False),
    Column("before", Text, nullable=False),  # JSON: the forest before the entry
    Column("undone", Boolean, nullable=False, default=False),
    Column("time", Float, nullable=False),
)


class StaleTable(Exception):
    """The table's stored version is not the one the writer started from (another
    process wrote first): nothing was written."""


def _bump(conn: Any, table_id: str, version: int, **more: Any) -> None:
    """Set the table's version to ``version`` if it is ``version - 1`` (else StaleTable,
    and the transaction rolls back)."""
    done = conn.execute(update(pad_tables).where(
        (pad_tables.c.id == table_id) & (pad_tables.c.version == version - 1))
        .values(version=version, **more))
    if done.rowcount != 1:
        raise StaleTable(table_id)


@dataclass
class PadPlayerRow:
    """One player of a stored table."""

    seat: int
    name: str
    token: str
    forest: dict[str, Any]
    version: int = 0
    done: bool = False


@dataclass
class PadTableRow:
    """A stored table with its players in seat order."""

    id: str
    game: str
    join_token: str
    host_token: str
    created: float
    closed: float | None = None
    version: int = 0
    result: dict[str, Any] | None = None
    players: list[PadPlayerRow] = field(default_factory=list)


@dataclass(frozen=True)
class EntryRow:
    """One stored entry (for replays and undo)."""

    entry_id: str
    seat: int
    seq: int
    op: dict[str, Any]
    before: dict[str, Any]
    undone: bool


class PadStore:
    """The pad's tables in the database of ``store`` (same engine, its own tables)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        pad_metadata.create_all(self.engine)

    def create(self, row: PadTableRow) -> None:
        """Insert a new table with its players (one transaction)."""
        with self.store.guard(), self.engine.begin() as conn:
            conn.execute(insert(pad_tables).values(
                id=row.id, game=row.game, join_token=row.join_token,
                host_token=row.host_token, closed=None, created=row.created,
                version=row.version, result=None))
            for p in row.players:
                self._insert_player(conn, row.id, p)

    @staticmethod
    def _insert_player(conn: Any, table_id: str, p: PadPlayerRow) -> None:
        conn.execute(insert(pad_players).values(
            table_id=table_id, seat=p.seat, name=p.name, token=p.token,
            forest=json.dumps(p.forest), version=p.version, done=p.done))

    def add_player(self, table_id: str, p: PadPlayerRow, version: int) -> None:
        """Add a player and set the table's version (one transaction)."""
        with self.store.guard(), self.engine.begin() as conn:
            _bump(conn, table_id, version)
            self._insert_player(conn, table_id, p)

    def load(self, table_id: str) -> PadTableRow | None:
        """The stored table, or None."""
        with self.store.guard(), self.engine.connect() as conn:
            t = conn.execute(select(pad_tables).where(pad_tables.c.id == table_id)).first()
            if t is None:
                return None
            ps = conn.execute(select(pad_players).where(pad_players.c.table_id == table_id)
                              .order_by(pad_players.c.seat)).all()
        return PadTableRow(
            id=t.id, game=t.game, join_token=t.join_token, host_token=t.host_token,
            created=t.created, closed=t.closed, version=t.version,
            result=None if t.result is None else json.loads(t.result),
            players=[PadPlayerRow(p.seat, p.name, p.token, json.loads(p.forest), p.version,
                                  bool(p.done)) for p in ps])

    def entry(self, table_id: str, entry_id: str) -> EntryRow | None:
        """The stored entry of that id, or None."""
        with self.store.guard(), self.engine.connect() as conn:
            e = conn.execute(select(pad_entries).where(
                (pad_entries.c.table_id == table_id)
                & (pad_entries.c.entry_id == entry_id))).first()
        return None if e is None else _entry_row(e)

    def last_entry(self, table_id: str, seat: int) -> EntryRow | None:
        """The seat's latest entry that is neither an undo nor undone, or None."""
        with self.store.guard(), self.engine.connect() as conn:
            rows = conn.execute(select(pad_entries).where(
                (pad_entries.c.table_id == table_id) & (pad_entries.c.seat == seat)
                & (pad_entries.c.undone == False))  # noqa: E712 (SQL, not Python)
                .order_by(pad_entries.c.seq.desc())).all()
        for e in rows:
            row = _entry_row(e)
            if row.op.get("op") != "undo":
                return row
        return None

    def write_entry(self, table_id: str, entry_id: str, seat: int, op: dict[str, Any],
                    before: dict[str, Any], player: PadPlayerRow, version: int,
                    undoes: str | None = None) -> None:
        """Store an entry, the player's forest and versions (one transaction); ``undoes``:
        the id of the entry an undo takes back (marked undone). IntegrityError when the
        entry id is taken (the caller looks the entry up again)."""
        with self.store.guard(), self.engine.begin() as conn:
            _bump(conn, table_id, version)
            conn.execute(insert(pad_entries).values(
                table_id=table_id, entry_id=entry_id, seat=seat, seq=version,
                op=json.dumps(op), before=json.dumps(before), undone=False,
                time=time.time()))
            if undoes is not None:
                conn.execute(update(pad_entries).where(
                    (pad_entries.c.table_id == table_id)
                    & (pad_entries.c.entry_id == undoes)).values(undone=True))
            conn.execute(update(pad_players).where(
                (pad_players.c.table_id == table_id) & (pad_players.c.seat == seat))
                .values(forest=json.dumps(player.forest), version=player.version,
                        done=player.done))

    def close(self, table_id: str, closed: float, version: int,
              result: dict[str, Any]) -> None:
        """Mark a table closed with its final result."""
        with self.store.guard(), self.engine.begin() as conn:
            _bump(conn, table_id, version, closed=closed, result=json.dumps(result))

    def version(self, table_id: str) -> int | None:
        """The table's stored version (None: no such table)."""
        with self.store.guard(), self.engine.connect() as conn:
            v = conn.execute(select(pad_tables.c.version)
                             .where(pad_tables.c.id == table_id)).scalar()
        return None if v is None else int(v)

    def closed_tables(self, limit: int, offset: int = 0
                      ) -> list[tuple[str, str, float, float, dict[str, Any]]]:
        """Closed tables, newest first: (id, game, created, closed, result)."""
        with self.store.guard(), self.engine.connect() as conn:
            rows = conn.execute(
                select(pad_tables.c.id, pad_tables.c.game, pad_tables.c.created,
                       pad_tables.c.closed, pad_tables.c.result)
                .where(pad_tables.c.closed.is_not(None))
                .order_by(pad_tables.c.closed.desc(), pad_tables.c.id)
                .limit(limit).offset(offset)).all()
        return [(r.id, r.game, r.created, r.closed, json.loads(r.result)) for r in rows]


def _entry_row(e: Any) -> EntryRow:
    return EntryRow(e.entry_id, e.seat, e.seq, json.loads(e.op), json.loads(e.before),
                    bool(e.undone))
