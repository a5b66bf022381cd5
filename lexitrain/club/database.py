"""A club's database: one SQLite file, or PostgreSQL through a pool, behind one small API.

The club's SQL is written once, in the dialect SQLite and PostgreSQL share
(`?` placeholders, `ON CONFLICT`, `RETURNING`, `FILTER`, `TRUE`/`FALSE`); this
module translates the placeholders for psycopg and spells the one thing the
two never agree on, an identity key (`{id}` in a migration). Every write that
reads first is one conditional statement (`UPDATE ... WHERE nothing moved`,
`INSERT ... ON CONFLICT DO NOTHING`), so it is safe at any isolation level and
across processes. Nothing about a member, a session or an attempt is kept in
the serving process: two `serve` processes over one PostgreSQL serve one club.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

#: What a statement is given: the values of its `?`s, in order.
Params = Sequence[Any]
#: SQLite waits this long for another writer.
BUSY_SECONDS = 10.0

MEMBERS = """
CREATE TABLE members (
    id {id},
    name TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    admin BOOLEAN NOT NULL DEFAULT FALSE,
    joined DOUBLE PRECISION NOT NULL
);
CREATE TABLE invites (
    code_hash TEXT PRIMARY KEY,
    made DOUBLE PRECISION NOT NULL,
    used_by BIGINT REFERENCES members (id) ON DELETE SET NULL,
    used DOUBLE PRECISION
);
CREATE TABLE logins (
    token_hash TEXT PRIMARY KEY,
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE INDEX logins_member ON logins (member_id);
CREATE TABLE login_failures (
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX login_failures_name ON login_failures (name, at);
CREATE INDEX login_failures_address ON login_failures (address, at);
CREATE TABLE attempts (
    id {id},
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    lexicon TEXT NOT NULL,
    kind TEXT NOT NULL,
    date TEXT NOT NULL,
    total INTEGER NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION,
    score INTEGER,
    retake BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX attempts_first ON attempts (member_id, lexicon, kind, date) WHERE NOT retake;
CREATE INDEX attempts_board ON attempts (lexicon, kind, date);
CREATE TABLE guesses (
    attempt_id BIGINT NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
    word TEXT NOT NULL,
    alphagram TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (attempt_id, word)
);
CREATE TABLE member_cards (
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    lexicon TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    state INTEGER NOT NULL,
    step INTEGER,
    stability DOUBLE PRECISION,
    difficulty DOUBLE PRECISION,
    due DOUBLE PRECISION,
    last_review DOUBLE PRECISION,
    cardbox INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    incorrect INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    added DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (member_id, lexicon, kind, key)
);
CREATE TABLE misses (
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    lexicon TEXT NOT NULL,
    alphagram TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX misses_at ON misses (lexicon, at);
"""

#: Shared walls: a table on a list of alphagrams, who sits at it, the words found (the first finder
#: credited), the questions each member answered right (their card scheduled once), and every guess as an event (`body` JSON), which the WebSockets are sent.
TABLES = """
CREATE TABLE club_tables (
    id {id},
    lexicon TEXT NOT NULL,
    owner_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    keys TEXT NOT NULL,
    practice BOOLEAN NOT NULL,
    opened DOUBLE PRECISION NOT NULL,
    closed DOUBLE PRECISION
);
CREATE TABLE table_seats (
    table_id BIGINT NOT NULL REFERENCES club_tables (id) ON DELETE CASCADE,
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    joined DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, member_id)
);
CREATE TABLE table_finds (
    table_id BIGINT NOT NULL REFERENCES club_tables (id) ON DELETE CASCADE,
    word TEXT NOT NULL,
    alphagram TEXT NOT NULL,
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, word)
);
CREATE TABLE table_answers (
    table_id BIGINT NOT NULL REFERENCES club_tables (id) ON DELETE CASCADE,
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    alphagram TEXT NOT NULL,
    PRIMARY KEY (table_id, member_id, alphagram)
);
CREATE TABLE table_events (
    id {id},
    table_id BIGINT NOT NULL REFERENCES club_tables (id) ON DELETE CASCADE,
    at DOUBLE PRECISION NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX table_events_table ON table_events (table_id, id);
"""

#: A member's study on the server: a card's version, which every write moves on (a write names the version
#: it read: see club.cards), the answers that moved cards (`before`: the card as it was, JSON), and the
#: due cards found by member.
STUDY = """
ALTER TABLE member_cards ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
CREATE INDEX member_cards_due ON member_cards (member_id, lexicon, due);
CREATE TABLE member_reviews (
    id {id},
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    lexicon TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    source TEXT NOT NULL,
    given TEXT NOT NULL,
    correct BOOLEAN NOT NULL,
    rating INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    before TEXT NOT NULL
);
CREATE INDEX member_reviews_member ON member_reviews (member_id, at);
"""

#: The reviews a club write owes a member's progress store (a challenge's finish, a shared wall's find:
#: `answers` a JSON list of [kind, key, right]), written in that write's transaction and deleted once the
#: store has them (club.owed). Since this migration the club keeps no cards: `member_cards` and
#: `member_reviews` only hold what an earlier lexitrain kept there, until it is moved to the members' stores.
OWED = """
CREATE TABLE owed_reviews (
    id {id},
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    lexicon TEXT NOT NULL,
    source TEXT NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    answers TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX owed_reviews_member ON owed_reviews (member_id, id);
"""

#: One list for both databases; a released migration is never edited, a change is a new one.
MIGRATIONS: list[str] = [MEMBERS, TABLES, STUDY, OWED]
SCHEMA_VERSION = len(MIGRATIONS)

_IDENTITY = {"sqlite": "INTEGER PRIMARY KEY", "postgresql": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"}


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def to_psycopg(sql: str) -> str:
    """The statement with psycopg's placeholders: `%` doubled, then each `?` a `%s`."""
    return sql.replace("%", "%%").replace("?", "%s")


def statements(script: str, dialect: str) -> list[str]:
    """A migration split into statements, its `{id}` spelled for the dialect."""
    text = "\n".join(line.split("--", 1)[0] for line in script.splitlines()).replace("{id}", _IDENTITY[dialect])
    return [part.strip() for part in text.split(";") if part.strip()]


class Tx:
    """The statements of one transaction, SQL in the shared dialect."""

    def __init__(self, cursor: Any, postgres: bool) -> None:
        self._cursor = cursor
        self._postgres = postgres

    def run(self, sql: str, params: Params = ()) -> int:
        """Run a statement; how many rows it changed."""
        self._cursor.execute(to_psycopg(sql) if self._postgres else sql, tuple(params))
        return int(self._cursor.rowcount)

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        self._cursor.execute(to_psycopg(sql) if self._postgres else sql, tuple(params))
        return [tuple(row) for row in self._cursor.fetchall()]

    def one(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def many(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            self._cursor.executemany(to_psycopg(sql) if self._postgres else sql, [tuple(r) for r in rows])


class ClubDatabase:
    """An open club database. `transaction()` is the only way in: each is committed whole or not at all."""

    def __init__(self, target: str, pool_size: int = 8) -> None:
        self.target = target
        self.dialect = "postgresql" if is_postgres_url(target) else "sqlite"
        self._pool: ConnectionPool | None = None
        self._local = threading.local()
        self._sqlite_connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        if self.dialect == "postgresql":
            self._pool = _open_pool(target, pool_size)
        else:
            self.path = Path(target)
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
        if self._pool is not None:
            self._pool.close()
        with self._lock:
            for conn in self._sqlite_connections:
                conn.close()
            self._sqlite_connections.clear()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One transaction (SQLite: BEGIN IMMEDIATE, so writers queue instead of failing)."""
        if self._pool is not None:
            with self._pool.connection() as pg, pg.transaction(), pg.cursor() as cursor:
                yield Tx(cursor, postgres=True)
            return
        conn = self._sqlite()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield Tx(conn.cursor(), postgres=False)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @contextmanager
    def reading(self) -> Iterator[Tx]:
        """Statements that each stand alone, for a read of one statement (which sees one committed state):
        on PostgreSQL one round trip each (no BEGIN and COMMIT around it), on SQLite without the write lock
        a transaction takes. Every request's session look-up is one."""
        if self._pool is not None:
            with self._pool.connection() as pg, pg.cursor() as cursor:
                yield Tx(cursor, postgres=True)
            return
        yield Tx(self._sqlite().cursor(), postgres=False)

    @contextmanager
    def listening(self, channel: str) -> Iterator[Any]:
        """A connection of its own LISTENing on a channel (PostgreSQL only): its `notifies()` yields events."""
        import psycopg

        conn = psycopg.connect(self.target, autocommit=True)
        try:
            conn.execute(f"LISTEN {channel}")
            yield conn
        finally:
            conn.close()

    def _sqlite(self) -> sqlite3.Connection:
        """This thread's connection to the file (a connection is not shared between threads)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None,
                                       check_same_thread=False)
                conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
                conn.execute("PRAGMA foreign_keys = ON")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.DatabaseError as exc:
                raise LexitrainError(f"{self.path}: cannot open the club database ({exc})") from None
            self._local.conn = conn
            with self._lock:
                self._sqlite_connections.append(conn)
        return conn

    def _migrate(self) -> None:
        """Bring the schema up to date in one transaction (PostgreSQL: under an advisory lock, so two
        processes starting at once upgrade it once); refuse a database from a newer lexitrain."""
        with self.transaction() as tx:
            if self.postgres:
                tx.run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            tx.run("CREATE TABLE IF NOT EXISTS club_schema (version INTEGER NOT NULL)")
            row = tx.one("SELECT version FROM club_schema")
            version = int(row[0]) if row else 0
            if row is None:
                tx.run("INSERT INTO club_schema (version) VALUES (0)")
            if version > SCHEMA_VERSION:
                raise LexitrainError(f"{self.target} was written by a newer lexitrain (club schema {version}, "
                                     f"this one reads up to {SCHEMA_VERSION}): upgrade lexitrain to serve it")
            for number in range(version, SCHEMA_VERSION):
                for statement in statements(MIGRATIONS[number], self.dialect):
                    tx.run(statement)
            tx.run("UPDATE club_schema SET version = ?", (SCHEMA_VERSION,))


#: The advisory lock migrations take on PostgreSQL (any fixed number: "lexi" in ASCII).
_MIGRATION_LOCK = 0x6C657869


def _open_pool(url: str, size: int) -> ConnectionPool:
    """A pool over the server, after one plain connection has shown it can be reached (the pool
    itself would only time out, its reason logged, not raised)."""
    try:
        import psycopg
        from psycopg_pool import ConnectionPool
    except ImportError:
        raise LexitrainError("a PostgreSQL club needs the club extra: pip install 'lexitrain[club]'") from None
    try:
        psycopg.connect(url, connect_timeout=10).close()
    except psycopg.Error as exc:
        raise LexitrainError(f"cannot connect to {_redacted(url)}: {_one_line(exc)}") from None
    pool = ConnectionPool(url, min_size=1, max_size=size, open=False, timeout=30.0,
                          kwargs={"autocommit": True})  # (transaction() says BEGIN itself; reading() needs none)
    pool.open(wait=True, timeout=30.0)
    return pool


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)
