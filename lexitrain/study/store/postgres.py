"""A progress store on PostgreSQL: one schema per player, behind the connection the store's modules use.

A club keeps each member's progress store in a schema of its own (`member_<id>`), with the same
tables, made by the same migrations, as a player's SQLite file. The connection's `search_path` is
that schema alone, and the store's statements never name a schema, so a store opened for one
member cannot reach another's rows: the scoping is not a condition each statement must remember.

The store's modules call `execute` and `executemany` as on an `sqlite3.Connection`; this class
spells each statement for PostgreSQL (`study.store.dialect`) and binds values on the client side
(psycopg's ClientCursor), so a value is typed as SQLite would take it (`? IS NULL` needs no type, a
Python bool is the 0 or 1 the store's integer flags hold). Numbers PostgreSQL computes as `numeric`
(sums, averages) come back as int or float, as from SQLite.

A store's write transaction takes the schema's advisory lock first: the writers of one member queue
as a SQLite file's do behind `BEGIN IMMEDIATE` (a read-then-write inside it sees nothing move), and
two members never wait for each other. Readers never wait (PostgreSQL's snapshots, as SQLite's WAL).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from psycopg.adapt import Loader
from psycopg.types.numeric import Int8Dumper
from psycopg.pq import TransactionStatus

from lexitrain.errors import LexitrainError
from lexitrain.study.store.dialect import postgres_ddl, postgres_sql

#: A member's schema: `member_` and their id (a name that needs no quoting).
_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def member_schema(member_id: int) -> str:
    return f"member_{int(member_id)}"


class PostgresConnection:
    """One PostgreSQL connection (autocommit: the store says BEGIN itself), its search path one schema."""

    dialect = "postgresql"

    def __init__(self, conn: psycopg.Connection[Any], schema: str) -> None:
        """The store owns CONN from now on: it is closed as the store closes."""
        if not _SCHEMA.match(schema):
            raise LexitrainError(f"{schema!r} is not a progress store's schema name")
        self.schema = schema
        self._raw = conn
        conn.autocommit = True
        conn.cursor_factory = psycopg.ClientCursor
        conn.adapters.register_loader("numeric", _PlainNumberLoader)
        conn.adapters.register_dumper(bool, _BoolAsIntDumper)
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        conn.execute(f"SET search_path TO {schema}")

    @property
    def in_transaction(self) -> bool:
        return self._raw.info.transaction_status != TransactionStatus.IDLE

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        try:
            return self._raw.execute(postgres_sql(sql), tuple(parameters))
        except psycopg.DataError as exc:
            raise BadValue(str(exc)) from None

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """Run a statement once per row, the rows sent together (psycopg pipelines them: one round trip,
        not one a row); how many rows it changed in all."""
        with self._raw.cursor() as cursor:
            try:
                cursor.executemany(postgres_sql(sql), [tuple(row) for row in rows])
            except psycopg.DataError as exc:
                raise BadValue(str(exc)) from None
            return max(cursor.rowcount, 0)

    def execute_ddl(self, statement: str) -> None:
        self._raw.execute(postgres_ddl(statement).replace("%", "%%"))

    def lock_writes(self) -> None:
        """Queue behind this schema's other writers until the transaction ends (see the module's docstring)."""
        self._raw.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.schema,))

    def snapshot(self) -> int:
        """A number that moves whenever a transaction of any connection commits (a digest of the
        transactions running and the next one's id)."""
        row = self._raw.execute("SELECT hashtext(CAST(pg_current_snapshot() AS TEXT))").fetchone()
        assert row is not None
        return int(row[0])

    def close(self) -> None:
        self._raw.close()  # (a transaction left open is rolled back by the server)


class BadValue(ValueError):
    """A value PostgreSQL refuses where SQLite would take it (a NUL in a text): a ValueError, as SQLite's
    bad values are, so what catches those (an import refusing a damaged backup whole) catches it too."""


class _PlainNumberLoader(Loader):
    """`numeric` as SQLite gives it: an int when whole (a SUM of integers), else a float (an AVG)."""

    def load(self, data: bytes | bytearray | memoryview) -> int | float:
        text = bytes(data).decode()
        return float(text) if "." in text or "e" in text.lower() or "n" in text.lower() else int(text)


class _BoolAsIntDumper(Int8Dumper):
    """True and False as SQLite stores them: 1 and 0 (the store's flags are integer columns)."""

    def dump(self, obj: Any) -> bytes:
        return b"1" if obj else b"0"
