"""The club's database: its tables on SQLite or PostgreSQL, every statement on them, behind methods.

The club's own tables (members, sessions, attempts, shared walls, what it owes its members' stores) are a
store like a player's progress (`study.store`): the same connection class, the same transactions, one
dialect (`study.store.dialect`) and one migration runner (`study.store.migrations.upgrade`); only this
package speaks SQL to them (checked: tests/test_architecture.py). Every write that reads first is one
conditional statement (`UPDATE ... WHERE nothing moved`, `INSERT ... ON CONFLICT DO NOTHING`), so it is
safe at any isolation level and across processes, and a club's writes never queue behind a lock of the
whole database. Nothing about a member, a session or an attempt is kept in the serving process: two
`serve` processes over one PostgreSQL serve one club.

On PostgreSQL the club's tables are the database's `public` schema, and the process's one bounded pool
(`study.store.postgres.PostgresPool`) lends its connections to them and to every member's store alike.
On SQLite each thread keeps a connection of its own to the club's file.
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from lexitrain.club.store.attempts import Attempts
from lexitrain.club.store.debts import Debts
from lexitrain.club.store.membership import Membership
from lexitrain.club.store.schema import MIGRATIONS, SCHEMA_VERSION
from lexitrain.club.store.shared_walls import SharedWalls
from lexitrain.errors import LexitrainError
from lexitrain.study.store.connection import connect_file
from lexitrain.study.store.migrations import VersionTable, upgrade

if TYPE_CHECKING:
    from lexitrain.study.store.postgres import PostgresPool

__all__ = ["SCHEMA_VERSION", "ClubDatabase", "ClubStore", "is_postgres_url"]

#: The club's tables on PostgreSQL: the database's own schema.
SCHEMA = "public"
#: How many connections a process's pool holds at most (the club's tables and every member's store together).
POOL_SIZE = 8


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


class ClubStore(Membership, Attempts, SharedWalls, Debts):
    """The club's tables on one connection (one thread's, or one the pool lends for a transaction)."""

    SERIALIZED_WRITES = False


class _Held:
    """A thread's connection, held by the thread's locals alone: dropped with them as the thread ends."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn


def _close(conn: sqlite3.Connection, open_ones: set[sqlite3.Connection], lock: threading.Lock) -> None:
    with lock:
        open_ones.discard(conn)
    conn.close()


class ClubDatabase:
    """An open club database. `transaction()` is the way in to write: each is committed whole or not at all."""

    def __init__(self, target: str, pool_size: int = POOL_SIZE) -> None:
        self.target = target
        self.dialect = "postgresql" if is_postgres_url(target) else "sqlite"
        self.pool: PostgresPool | None = None
        self._local = threading.local()
        self._sqlite_connections: set[sqlite3.Connection] = set()
        self._lock = threading.Lock()
        if self.dialect == "postgresql":
            try:
                from lexitrain.study.store.postgres import PostgresPool
            except ImportError:
                raise LexitrainError("a PostgreSQL club needs the club extra: pip install 'lexitrain[club]'") from None
            self.pool = PostgresPool(target, pool_size)
            self.path = Path(SCHEMA)
        else:
            self.path = Path(target)
            if not target.strip():  # (Path("") is the folder the server runs in)
                raise LexitrainError("--database is empty: give an SQLite file or a postgresql:// URL")
            if self.path.is_dir():
                raise LexitrainError(f"{target} is a folder: --database takes a file or a postgresql:// URL")
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    @property
    def postgres(self) -> bool:
        return self.dialect == "postgresql"

    def __enter__(self) -> ClubDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
        with self._lock:
            for conn in self._sqlite_connections:
                conn.close()
            self._sqlite_connections.clear()

    @contextmanager
    def transaction(self) -> Iterator[ClubStore]:
        """One transaction (SQLite: BEGIN IMMEDIATE, so writers queue instead of failing)."""
        with self.reading() as store, store.transaction():
            yield store

    @contextmanager
    def reading(self) -> Iterator[ClubStore]:
        """The tables for statements that each stand alone (a read of one statement sees one committed state):
        on PostgreSQL one round trip each (no BEGIN and COMMIT around it), on SQLite without the write lock a
        transaction takes. Every request's session look-up is one."""
        if self.pool is not None:
            with self.pool.connection(SCHEMA) as pg:
                yield ClubStore(postgres=pg, made=True)
            return
        yield ClubStore(self.path, borrowed=self._sqlite())

    def _sqlite(self) -> sqlite3.Connection:
        """This thread's connection to the file (a connection is not shared between threads), closed when the thread
        ends: a server's worker threads come and go (anyio ends one idle for 10 seconds), and each one's connection
        kept open for good held its file descriptors until the process ran out of them."""
        held: _Held | None = getattr(self._local, "held", None)
        if held is None:
            held = self._local.held = _Held(connect_file(self.path, "the club database"))
            with self._lock:
                self._sqlite_connections.add(held.conn)
            weakref.finalize(held, _close, held.conn, self._sqlite_connections, self._lock)
        return held.conn

    def _migrate(self) -> None:
        """Bring the tables up to date in one transaction (PostgreSQL: under a lock, so two processes starting at
        once upgrade it once); refuse a database from a newer lexitrain."""
        with self.reading() as store:
            lock = store.lock_schema if self.postgres else None
            upgrade(store.conn, self.dialect, MIGRATIONS, VersionTable("club_schema"), self.target, lock=lock)
