"""A progress store on PostgreSQL: one schema per player, behind the connection the store's modules use; the pool.

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

A server process lends these connections from one bounded pool (`PostgresPool`), shared by the club's
own tables and every member's store, each checkout set to one schema; schemas are made and dropped there.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.adapt import Loader
from psycopg.types.numeric import Int8Dumper
from psycopg.pq import TransactionStatus

from lexitrain.errors import LexitrainError
from lexitrain.study.store.dialect import postgres_sql

#: A member's schema: `member_` and their id (a name that needs no quoting).
_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def member_schema(member_id: int) -> str:
    return f"member_{int(member_id)}"


def configure(conn: psycopg.Connection[Any]) -> None:
    """Make a connection speak the dialect: autocommit (a store says BEGIN itself), values bound on the client
    as SQLite would take them, numbers read back as SQLite gives them (a pool's every new connection)."""
    conn.autocommit = True
    conn.cursor_factory = psycopg.ClientCursor
    conn.adapters.register_loader("numeric", _PlainNumberLoader)
    conn.adapters.register_dumper(bool, _BoolAsIntDumper)


class PostgresConnection:
    """One PostgreSQL connection, its search path one schema: a connection of its own (owned: closed with
    the store), or one a pool lends for a while (`PostgresPool.connection`)."""

    dialect = "postgresql"

    def __init__(self, conn: psycopg.Connection[Any], schema: str, owned: bool = True, on_path: bool = False) -> None:
        """The store owns CONN (unless OWNED is False: a pool's, given back after): it is closed as the store
        closes. Its own connection's schema is made here if need be (a pool makes its schemas itself). ON_PATH:
        the connection's search path is SCHEMA already (a pool's, lent for it last time too)."""
        if not _SCHEMA.match(schema):
            raise LexitrainError(f"{schema!r} is not a progress store's schema name")
        self.schema = schema
        self._raw = conn
        self.owned = owned
        if owned:
            configure(conn)
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        if not on_path:
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
        if self.owned:
            self._raw.close()  # (a transaction left open is rolled back by the server)


class PostgresPool:
    """One bounded pool of connections to one PostgreSQL database, for everything a server process keeps
    there: the club's own tables (schema `public`) and every member's store (a schema each). A checkout sets
    the connection's search path to the one schema asked for, so however many members are active, the
    process never holds more than SIZE connections. A member's schema is made (and upgraded) here, the first
    time this process lends a connection to it, and dropped here (`drop_schema`)."""

    def __init__(self, url: str, size: int, wait: float = 30.0) -> None:
        from psycopg_pool import ConnectionPool

        try:
            psycopg.connect(url, connect_timeout=10).close()  # (the pool itself would only time out, its reason logged)
        except psycopg.Error as exc:
            raise LexitrainError(f"cannot connect to {redacted(url)}: {' '.join(str(exc).split())}") from None
        self.url = url
        self.size = size
        self._pool = ConnectionPool(url, min_size=1, max_size=size, open=False, timeout=wait, configure=configure,
                                    kwargs={"autocommit": True})
        self._pool.open(wait=True, timeout=wait)
        self._made: set[str] = set()
        self._paths: weakref.WeakKeyDictionary[psycopg.Connection[Any], str] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    @contextmanager
    def connection(self, schema: str, make: Callable[[PostgresConnection], None] | None = None
                   ) -> Iterator[PostgresConnection]:
        """A pooled connection whose search path is SCHEMA until it is given back (at the block's end);
        MAKE makes or upgrades the schema, the first time this process uses it. The path is set only when the
        connection was last lent for another schema (a round trip saved on most of a busy club's checkouts: its
        own tables'; a path set outside any transaction stays set, and a connection the pool replaces is new)."""
        with self._pool.connection() as raw:
            if make is not None and schema not in self._made:
                raw.execute(f"CREATE SCHEMA IF NOT EXISTS {_checked(schema)}")
                make(PostgresConnection(raw, schema, owned=False))
                with self._lock:
                    self._made.add(schema)
            with self._lock:
                on_path = self._paths.get(raw) == schema
            lent = PostgresConnection(raw, schema, owned=False, on_path=on_path)
            with self._lock:
                self._paths[raw] = schema
            yield lent

    def drop_schema(self, schema: str) -> None:
        """Delete a schema and everything in it (a member removed)."""
        with self._pool.connection() as raw:
            raw.execute(f"DROP SCHEMA IF EXISTS {_checked(schema)} CASCADE")
        with self._lock:
            self._made.discard(schema)

    def notifications(self, channel: str, stop: threading.Event, poll: float = 1.0,
                      on_listening: Callable[[], None] | None = None) -> Iterator[str]:
        """The payloads NOTIFYed on CHANNEL, as they come, until STOP is set (checked every POLL seconds), on a
        connection of the pool held for it (a lost connection is replaced, after a pause); ON_LISTENING is
        called each time it listens."""
        while not stop.is_set():
            try:
                with self._pool.connection() as raw:
                    raw.execute(f"LISTEN {_checked(channel)}")
                    if on_listening is not None:
                        on_listening()
                    try:
                        while not stop.is_set():
                            for note in raw.notifies(timeout=poll):
                                yield note.payload
                    finally:
                        raw.execute(f"UNLISTEN {_checked(channel)}")
            except psycopg.OperationalError:  # (the server restarted: listen again)
                stop.wait(poll)

    def close(self) -> None:
        self._pool.close()


def _checked(name: str) -> str:
    if not _SCHEMA.match(name):
        raise LexitrainError(f"{name!r} is not a plain name")
    return name


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


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
