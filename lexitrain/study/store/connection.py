"""Opening the progress database, and the one transaction style of the store.

One SQLite file in the user's data folder, opened in WAL mode with a busy
timeout so that two quiz processes can write to it at once. A file written by
a newer lexitrain, or one that is not a readable SQLite database, is refused
with a clear message and never touched; an older one is upgraded by the
migrations. A club member's store is a schema on PostgreSQL instead
(`study.store.postgres`): the same tables, statements and transactions.
"""

from __future__ import annotations

import errno
import math
import shutil
import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Self, Sequence

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home
from lexitrain.study.store import backups
from lexitrain.study.store.clock import utc_now
from lexitrain.study.store.integrity import (UNDECODABLE, FullCheck, WriteGate, checked_since, damaged_message,
                                             mark_checked, quick_check, refuse_if_damaged)
from lexitrain.study.store.migrations import SCHEMA_VERSION, SqlConnection, migrate, migrate_postgres, schema_version

if TYPE_CHECKING:
    from lexitrain.study.store.postgres import PostgresConnection

FILE_NAME = "progress.sqlite"
#: how long a process waits for another that holds the database
BUSY_SECONDS = 10.0
#: SQLite's largest integer
SQL_INT_MAX = 2**63 - 1


def sql_int(value: int) -> int:
    """A number the player typed, within SQLite's integers: 10**20 is as good as no bound
    for a count or a limit, and binding it unclamped fails."""
    return max(-SQL_INT_MAX, min(value, SQL_INT_MAX))


def progress_path() -> Path:
    return data_home() / FILE_NAME


class StoreConnection:
    """An open database of lexitrain's (a progress store, or a club's tables): the connection and its transactions.

    The store's methods are each one short transaction of their own (an
    answer is committed the moment it is given, so a killed process loses
    nothing already answered); `transaction()` groups several into one commit.
    A method that writes with one statement just runs it: alone, SQLite commits it at once;
    inside `transaction()` it is part of it. A method of several statements
    wraps them in `transaction()`.
    """

    #: Whether a write transaction on PostgreSQL first takes its schema's lock, so the writers of one player's
    #: store queue as a SQLite file's do (a club's tables are written by conditional statements instead).
    SERIALIZED_WRITES = True

    def __init__(self, path: Path | None = None, read_only: bool = False,
                 postgres: PostgresConnection | None = None, made: bool = False,
                 borrowed: sqlite3.Connection | None = None) -> None:
        """Open the progress file; `read_only` (to export it) never writes to it or beside it where it
        need not, so a home on a read-only disk can still be backed up. With `postgres`, the store is
        that connection's schema instead (made or upgraded now, unless `made`: a pool made it). With
        `borrowed`, the store is an SQLite connection someone else opened and closes (PATH names it)."""
        self._postgres = postgres
        self._borrowed = borrowed is not None
        self._gate: WriteGate | None = None
        #: the connection, for the store's own modules (and tests' checks): callers use the methods
        self.conn: SqlConnection
        if postgres is not None:
            self.path = Path(f"postgresql:{postgres.schema}")  # (what messages name)
            self.conn, self._backup_due = postgres, False
            try:
                if not made:
                    self.upgrade()
            except BaseException:
                postgres.close()
                raise
            return
        if borrowed is not None:
            self.path = path or Path("?")
            self.conn, self._backup_due = borrowed, False
            return
        self.path = path or progress_path()
        self.conn, self._backup_due, self._gate = (_open_read_only if read_only else _open)(self.path)

    def upgrade(self) -> None:
        """Make or upgrade the store's schema on PostgreSQL (a file is upgraded as it opens)."""
        assert self._postgres is not None
        migrate_postgres(self._postgres)

    def lock_schema(self) -> None:
        """(PostgreSQL) Queue behind the schema's other lockers until the transaction ends (an upgrade)."""
        assert self._postgres is not None
        self._postgres.lock_writes()

    @property
    def dialect(self) -> str:
        """"sqlite" or "postgresql"."""
        return "sqlite" if self._postgres is None else "postgresql"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> None:
        """An SQLite error on the way out becomes one line: a full disk is said so (never called
        damage), damage found mid-use is named, anything else is this database failing to write.
        Damage the full check found is said even when nothing failed (a command that only read)."""
        if self._gate is not None and self._gate.settle() is not None:
            self._backup_due = False
            self.close()  # (raises the damage)
        full = isinstance(exc, sqlite3.Error) and disk_full(exc, self.path.parent)
        damaged = isinstance(exc, sqlite3.DatabaseError) and not full and not self._healthy()
        failed = isinstance(exc, sqlite3.OperationalError) and any(
            word in str(exc) for word in ("locked", "readonly", "disk I/O"))
        if exc is not None:
            self._backup_due = False
        self.close()
        if full:
            raise LexitrainError(f"disk full: {self.path} could not be written; answers given before this were "
                                 "saved; free some space and run again") from None
        if damaged:  # (an error from another database, e.g. a lexicon's, is not blamed on this one)
            raise LexitrainError(
                f"{self.path}: the progress database failed ({exc}); answers given before this were saved; "
                "if it is damaged, move it aside or restore a backup with `lexitrain progress import`"
            ) from None
        if failed:  # e.g. locked by another program past the busy timeout, or made read-only
            raise LexitrainError(f"{self.path}: the progress database could not be written ({exc}); "
                                 "answers given before this were saved") from None

    def close(self) -> None:
        """Close the file; the day's rolling backup is taken now, when the day's check at the open
        found it sound (here, not at the open, so the first question is not kept waiting). The full
        check begun at the open is waited for: a damaged file is said so (LexitrainError), never copied."""
        damage = None if self._gate is None else self._gate.settle()
        try:
            if self._backup_due and damage is None and isinstance(self.conn, sqlite3.Connection):
                self._backup_due = False
                take_daily_backup(self.conn, self.path)
        finally:
            if not self._borrowed:
                self.conn.close()
        if damage is not None:
            raise LexitrainError(damaged_message(self.path, damage))

    def data_version(self) -> int:
        """A value that moves whenever another connection (of any process) commits a change: what a
        cache of counts read through this connection checks before it is used again (on PostgreSQL
        the snapshot, which moves on any commit: a cache there is read again more often, never stale)."""
        if self._postgres is not None:
            return self._postgres.snapshot()
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def _healthy(self) -> bool:
        return not isinstance(self.conn, sqlite3.Connection) or quick_check(self.conn) is None

    def check_integrity(self, before: str) -> None:
        """Refuse (one line, naming the rescue) a file SQLite's full check finds damaged; `before`
        names what would have run (an export, an import, a bulk reschedule). PostgreSQL checks its
        own pages (and a club backs it up with pg_dump), so there is nothing to check here."""
        if isinstance(self.conn, sqlite3.Connection):
            refuse_if_damaged(self.conn, self.path, before)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction: everything inside commits together, or not at all.

        The outermost use takes the write lock at once (BEGIN IMMEDIATE; on
        PostgreSQL the schema's advisory lock), so concurrent writers queue
        instead of failing, and what a transaction reads stays as read until it
        commits; an inner use joins it as a savepoint: an error inside undoes the inner
        part and propagates, and nothing is committed before the outer block ends.
        """
        conn = self.conn
        if conn.in_transaction:
            with _savepoint(conn):
                yield
            return
        if self._postgres is not None:
            conn.execute("BEGIN")
            if self.SERIALIZED_WRITES:
                self._postgres.lock_writes()
        else:
            conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # (an error may already have rolled it back)
                conn.execute("ROLLBACK")
            raise

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that see one committed state, whatever other connections write meanwhile (a backup's)."""
        if self.conn.in_transaction:
            yield
            return
        self.conn.execute("BEGIN" if self._postgres is None else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            yield
        finally:
            self.conn.execute("COMMIT")

    def _next_seq(self) -> int:
        """The next number of this store's changes (inside `transaction()`): every change that travels
        (an answer, a change to one, a card's event) is numbered as it is made or taken, in order, so that
        a sync asks another store only for what came after the last number it has (`study.store.exchange`)."""
        return int(self.conn.execute("UPDATE change_seq SET seq = seq + 1 RETURNING seq").fetchone()[0])

    def _next_seqs(self, count: int) -> range:
        """The next `count` numbers of this store's changes at once (inside `transaction()`)."""
        last = int(self.conn.execute("UPDATE change_seq SET seq = seq + ? RETURNING seq", (count,)).fetchone()[0])
        return range(last - count + 1, last + 1)

    def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """Run one statement for each row (inside `transaction()`); how many rows it changed in all."""
        if self._postgres is not None:
            return self._postgres.executemany(sql, rows)
        assert isinstance(self.conn, sqlite3.Connection)
        return int(self.conn.executemany(sql, rows).rowcount)

    def _insert(self, table: str, row: dict[str, Any]) -> int:
        """Add one row (inside `transaction()`); its id."""
        columns = ", ".join(row)
        return int(self.conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(row))}) "
                                     "RETURNING id", tuple(row.values())).fetchone()[0])

    def _insert_all(self, table: str, rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> int:
        """Add rows of these columns (inside `transaction()`), leaving out those a unique key already
        holds; how many were added."""
        return self._run_many(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) ON CONFLICT DO NOTHING",
            [tuple(row.get(name) for name in columns) for row in rows])

    def _table_rows(self, table: str, columns: str = "*") -> list[dict[str, Any]]:
        """Every row of a table (column -> value), in the order of its key."""
        cursor = self.conn.execute(f"SELECT {columns} FROM {table} ORDER BY 1")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]


#: Free space under which an I/O error is taken for a full disk: SQLite says only "disk I/O error"
#: when it cannot grow the shared-memory file it keeps beside the database (32 KiB at a time).
NEARLY_FULL = 1 << 20


def disk_full(exc: BaseException, folder: Path | None = None) -> bool:
    """Whether an SQLite (or file) error means the disk (or the database's size limit) is full;
    with the database's folder, an SQLite I/O error on a disk with (almost) no space left too."""
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "disk is full" in str(exc):
        return True
    if folder is None or code is None or code & 0xFF != sqlite3.SQLITE_IOERR:
        return False

    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL
    except OSError:
        return False


@contextmanager
def _savepoint(conn: SqlConnection) -> Iterator[None]:
    """A nested part of a transaction (one name will do: SQLite takes the innermost of that name)."""
    conn.execute("SAVEPOINT inner_part")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK TO inner_part")
            conn.execute("RELEASE inner_part")
        raise
    conn.execute("RELEASE inner_part")


def _open(path: Path) -> tuple[sqlite3.Connection, bool, WriteGate | None]:
    """Open (creating or upgrading) the database; refuse newer or damaged files, and an empty
    one with what may be the player's progress beside it. Whether the day's backup is due, and
    the gate that holds the writes while a full check runs (None when one passed lately)."""
    exists = path.exists() and path.stat().st_size > 0
    if path.exists() and not exists:
        _refuse_empty_beside_backups(path)
    try:
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise LexitrainError(f"{path}: cannot open the progress database ({exc})") from None
    try:
        version = schema_version(conn)
        if exists:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as failure:
        conn.close()
        error = _as_database_error(failure)
        if disk_full(error, path.parent):
            raise LexitrainError(f"disk full: {path} could not be opened (it is not damaged and was left "
                                 "untouched); free some space and run again") from None
        if not _damage(error):  # e.g. a read-only folder: SQLite cannot make the files beside the database
            raise LexitrainError(
                f"{path}: cannot open the progress database ({error}); it was left untouched: make sure "
                f"{path.parent} can be written (or point LEXITRAIN_HOME at a folder that can), and run again"
            ) from None
        raise LexitrainError(
            f"{path} is damaged or not a lexitrain progress database ({error}); it was left untouched: save what "
            "can still be read with `lexitrain progress rescue FILE.json`, move it aside, and import that (or a "
            "backup: `lexitrain progress backups`) with `lexitrain progress import`"
        ) from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise LexitrainError(
            f"{path} was written by a newer lexitrain (schema {version}, this one reads up to "
            f"{SCHEMA_VERSION}); it was left untouched: upgrade lexitrain to use it"
        )
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    conn.execute("PRAGMA foreign_keys = ON")
    _add_floor(conn)
    backup_due = exists and _look_after(conn, path, version)
    _use_wal(conn, path)
    conn.execute("PRAGMA synchronous = NORMAL")
    gate = _watch(conn, path) if exists else None
    if version < SCHEMA_VERSION:
        migrate(conn, path)
    return conn, backup_due, gate


def _watch(conn: sqlite3.Connection, path: Path) -> WriteGate | None:
    """Start the full check beside the command when the last one that passed is CHECK_EVERY old;
    the gate holds the connection's writes until it passes."""
    now, folder = _local_now(), backups.folder(path)
    if checked_since(path, folder, now):
        return None
    return WriteGate(conn, FullCheck.start(path, lambda: mark_checked(path, folder, now)))


def _as_database_error(failure: sqlite3.DatabaseError | UnicodeDecodeError) -> sqlite3.DatabaseError:
    """SQLite's complaint; a schema whose bytes are not text (Python cannot decode SQLite's message
    naming them) is damage too."""
    return sqlite3.DatabaseError(UNDECODABLE) if isinstance(failure, UnicodeDecodeError) else failure


def connect_file(path: Path, what: str) -> sqlite3.Connection:
    """A plain connection to an SQLite database of lexitrain's other than a progress file (a club's tables):
    WAL, a busy timeout, foreign keys, the store's `floor`; a file that cannot be opened is one line naming WHAT."""
    try:
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        _add_floor(conn)
    except sqlite3.DatabaseError as exc:
        raise LexitrainError(f"{path}: cannot open {what} ({exc})") from None
    _use_wal(conn, path, what)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _add_floor(conn: sqlite3.Connection) -> None:
    """floor(), which the store's statements share with PostgreSQL, where SQLite was built without
    its math functions."""
    try:
        conn.execute("SELECT floor(1.5)")
    except sqlite3.OperationalError:
        conn.create_function("floor", 1, lambda x: None if x is None else float(math.floor(x)), deterministic=True)


def _look_after(conn: sqlite3.Connection, path: Path, version: int) -> bool:
    """Before an upgrade, and at the first open of each day: refuse a damaged file (before anything
    writes to it); an upgrade is then preceded by a backup. Whether the day's backup is due (taken
    when the file is closed)."""
    upgrading = version < SCHEMA_VERSION
    if not upgrading and backups.taken_today(path, _local_now()):
        return False
    problem = quick_check(conn)
    if problem is not None:
        conn.close()
        raise LexitrainError(damaged_message(path, problem))
    if not upgrading:
        return True
    try:
        backups.take(conn, path, _local_now(), f"before-upgrade-v{version}")
    except LexitrainError:  # (the copy was damaged)
        conn.close()
        raise
    except (OSError, sqlite3.Error) as exc:
        conn.close()
        raise LexitrainError(f"{path}: no backup could be made before upgrading it ({exc}); it was left "
                             f"as it was: make sure {backups.folder(path)} can be written, and run again") from None
    return False


def take_daily_backup(conn: sqlite3.Connection, path: Path) -> None:
    """Copy the file into the rolling backups and remove those more than a week old; a copy that
    cannot be made (a full disk, a read-only folder) stops no one's study: the next open tries again."""
    try:
        now = _local_now()
        backups.take(conn, path, now)
        backups.prune(path, now)
    except (OSError, sqlite3.Error):
        pass


def _local_now() -> datetime:
    """Local time (backups are named and kept by the day), by the store's one clock (LEXITRAIN_NOW pins it)."""
    return utc_now().astimezone().replace(tzinfo=None)


def _open_read_only(path: Path) -> tuple[sqlite3.Connection, bool, WriteGate | None]:
    """Open the file to read it only (an export): without writing to the folder where SQLite can
    (`mode=ro`), else as an immutable file, unless answers wait in its `-wal` beside it. A file not
    there yet, or one to upgrade first, is opened as usual."""
    if not (path.exists() and path.stat().st_size > 0):
        return _open(path)
    error: sqlite3.DatabaseError | None = None
    for query in ("mode=ro", "mode=ro&immutable=1"):
        if "immutable" in query and _waiting_in_wal(path):
            break
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True, timeout=BUSY_SECONDS,
                                   isolation_level=None, check_same_thread=False)
            _add_floor(conn)
            version = schema_version(conn)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            error = _as_database_error(exc)
            continue
        if version == SCHEMA_VERSION:
            return conn, False, None  # (an export checks the file in full first)
        conn.close()
        return _open(path)  # newer: refused there; older: upgraded there (which needs a writable folder)
    if error is not None and _damage(error):
        raise LexitrainError(f"{path} is damaged or not a lexitrain progress database ({error}); it was left "
                             "untouched: save what can be read with `lexitrain progress rescue FILE.json`") from None
    raise LexitrainError(f"{path}: cannot read the progress database ({error or 'its -wal file holds answers not yet in it'}); "
                         f"it was left untouched: make sure {path.parent} can be written, and run again") from None


def _waiting_in_wal(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _damage(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite failed on the file's contents (not a database, or corrupt), rather than on
    being let at it (a read-only folder, no permission, an I/O error): only the first is damage."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is None or code & 0xFF in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT)


def _refuse_empty_beside_backups(path: Path) -> None:
    """A zero-byte progress file (a copy or a sync cut short) is not made into a fresh database
    while a backup beside it (a copy, an export) may hold the progress. SQLite's own files beside
    it (`-journal`, `-wal`, `-shm`) do not count: another process may be making the database now."""
    beside = sorted(str(other.relative_to(path.parent))
                    for other in [*path.parent.glob(f"{path.stem}*"), *backups.folder(path).glob(f"{path.stem}*")]
                    if other != path and not other.name.endswith(("-journal", "-wal", "-shm")) and other.is_file()
                    and other.stat().st_size > 0)
    if beside:
        raise LexitrainError(
            f"{path} is empty (0 bytes), and {', '.join(beside)} beside it may hold your progress: all were left "
            "untouched; move the empty file aside, then restore with `lexitrain progress import FILE` "
            "(a file written by `progress export`), or run again to start afresh"
        )


def _use_wal(conn: sqlite3.Connection, path: Path, what: str = "the progress database") -> None:
    """Switch a new database to WAL. The switch needs every other connection
    out of the file, and SQLite does not wait for that as it does for writes,
    so two processes starting on a new database at once retry here."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.DatabaseError as exc:  # (a file that is no database is one line too)
            if "locked" not in str(exc) or time.monotonic() > deadline:
                conn.close()
                raise LexitrainError(f"{path}: cannot open {what} ({exc})") from None
            time.sleep(0.02)
