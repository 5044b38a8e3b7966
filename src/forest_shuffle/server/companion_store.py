"""Durable storage of the solo companion's games, in the games' database (SQLAlchemy).

Contract: one row per companion game, keyed by its unguessable token: the challenge, the
medal aimed at, the **secret seed** (never sent to a page), the game's progress as JSON
(:mod:`.companion`'s state, Anna's undrawn automa cards included), a version, the linked
score-pad table (its id and the seat's and host's tokens) and the times. Every write moves
the version on only from the one its writer read (:class:`StaleCompanion` otherwise), so two
server processes never both write from one version. Any URL of
:class:`~forest_shuffle.server.store.Store` works (SQLite, PostgreSQL).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select, update

from forest_shuffle.server.store import Store

companion_metadata = MetaData()

companion_games = Table(
    "companion_games", companion_metadata,
    Column("token", String(64), primary_key=True),
    Column("challenge", Integer, nullable=False),
    Column("medal", String(16), nullable=False),
    Column("seed", String(64), nullable=False),  # secret: decimal digits
    Column("state", Text, nullable=False),  # JSON: the progress (secret parts included)
    Column("version", Integer, nullable=False, default=0),
    Column("pad_table", String(32), nullable=False),
    Column("pad_token", String(64), nullable=False),
    Column("pad_host", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


class StaleCompanion(Exception):
    """The game's stored version is not the one the writer started from: nothing written."""


@dataclass
class CompanionRow:
    """One stored companion game."""

    token: str
    challenge: int
    medal: str
    seed: int
    state: dict[str, Any]
    pad_table: str
    pad_token: str
    pad_host: str
    created: float
    version: int = 0


class CompanionStore:
    """The companion's games in the database of ``store`` (same engine, its own table)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        companion_metadata.create_all(self.engine)

    def create(self, row: CompanionRow) -> None:
        """Insert a new game."""
        with self.store.guard(), self.engine.begin() as conn:
            conn.execute(insert(companion_games).values(
                token=row.token, challenge=row.challenge, medal=row.medal,
                seed=str(row.seed), state=json.dumps(row.state), version=row.version,
                pad_table=row.pad_table, pad_token=row.pad_token, pad_host=row.pad_host,
                created=row.created, updated=row.created))

    def load(self, token: str) -> CompanionRow | None:
        """The stored game of ``token``, or None."""
        with self.store.guard(), self.engine.connect() as conn:
            r = conn.execute(select(companion_games)
                             .where(companion_games.c.token == token)).first()
        if r is None:
            return None
        return CompanionRow(r.token, r.challenge, r.medal, int(r.seed), json.loads(r.state),
                            r.pad_table, r.pad_token, r.pad_host, r.created, r.version)

    def save(self, row: CompanionRow, version: int) -> None:
        """Store ``row``'s state at ``version`` if the stored one is ``version - 1``
        (else :class:`StaleCompanion`)."""
        with self.store.guard(), self.engine.begin() as conn:
            done = conn.execute(update(companion_games).where(
                (companion_games.c.token == row.token)
                & (companion_games.c.version == version - 1))
                .values(version=version, state=json.dumps(row.state), updated=time.time()))
            if done.rowcount != 1:
                raise StaleCompanion(row.token)
