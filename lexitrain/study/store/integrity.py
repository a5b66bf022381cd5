"""SQLite's own checks of the progress file, before what must not run on a damaged one.

A damaged file can still open and answer most queries, and a write to it can
spread the damage (or bury the rows a rescue could still read). Two checks:

- `PRAGMA quick_check` (the pages and their cells; 58-77 ms at 100,000 cards) runs at the first
  open of each day before anything is read or written;
- `PRAGMA integrity_check` also compares every index with its table, which quick_check never
  does: a damaged key in the cards' unique index passes quick_check, and the next answer to that
  card makes a second card of one question. It costs some 490 ms of CPU at 100,000 cards
  (scripts/bench_integrity.py), more than the first question's budget, so it runs beside the
  command: at an open whose last full check is more than CHECK_EVERY old, on a connection of its
  own on a thread (SQLite lets go of the GIL while it reads), table by table, while no row of a
  table may be written until that table has passed (`WriteGate`, an authorizer on the store's
  connection) and the command's end waits for the whole verdict. It also runs in full before every migration, import, export and bulk
  reschedule, and on every backup's copy before the copy is kept, so damage is never copied.

A file that fails is refused with what to do.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from lexitrain.errors import LexitrainError

#: How long a full check that passed is trusted: an open after that checks again.
CHECK_EVERY = timedelta(hours=1)
#: The 0-byte file beside the backups whose modification time is when the last full check passed.
STAMP = "{stem}.checked"
#: What SQLite says of a file whose schema holds bytes that are not text (it cannot be decoded).
UNDECODABLE = "malformed database schema (a name or statement that is not text)"


def quick_check(conn: sqlite3.Connection) -> str | None:
    """None if SQLite finds the file's pages sound, else its first complaint."""
    return _first_complaint(conn, "PRAGMA quick_check(1)")


def full_check(conn: sqlite3.Connection) -> str | None:
    """None if SQLite finds the file sound, its indexes included, else its first complaint."""
    return _first_complaint(conn, "PRAGMA integrity_check(1)")


def _first_complaint(conn: sqlite3.Connection, pragma: str) -> str | None:
    try:
        first = conn.execute(pragma).fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    except UnicodeDecodeError:
        return UNDECODABLE
    if first == "ok":
        return None
    # (integrity_check heads a complaint about the pages with '*** in database main ***' on a line of its own)
    return "; ".join(line.strip() for line in str(first).splitlines() if line.strip() and not line.startswith("***"))


def refuse_if_damaged(conn: sqlite3.Connection, path: Path, before: str) -> None:
    """Raise the one-line refusal if the file fails the full check; `before` says what did not run."""
    problem = full_check(conn)
    if problem is not None:
        raise LexitrainError(damaged_message(path, f"{problem}; {before} did not run"))


def damaged_message(path: Path, problem: str) -> str:
    return (f"{path} is damaged ({problem}); it was left untouched: save what can still be read with "
            "`lexitrain progress rescue FILE.json`, move it aside, and import that (or a backup: "
            "`lexitrain progress backups`) with `lexitrain progress import`")


def stamp(path: Path, folder: Path) -> Path:
    return folder / STAMP.format(stem=path.stem)


def checked_since(path: Path, folder: Path, now: datetime) -> bool:
    """Whether a full check of the file passed less than CHECK_EVERY before `now` (local time)."""
    try:
        passed = datetime.fromtimestamp(stamp(path, folder).stat().st_mtime)
    except OSError:
        return False
    return passed <= now < passed + CHECK_EVERY


def mark_checked(path: Path, folder: Path, now: datetime) -> None:
    """Note that a full check passed at `now` (a home that cannot be written checks again next time)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        marker = stamp(path, folder)
        marker.touch()
        moment = now.timestamp()
        os.utime(marker, (moment, moment))
    except OSError:
        pass


def forget_checked(path: Path, folder: Path) -> None:
    stamp(path, folder).unlink(missing_ok=True)


class FullCheck:
    """`full_check` of a file on a connection and a thread of its own, table by table (the small ones
    first: the leases and the session a drill writes before its first question are checked in a few
    milliseconds; the cards, then the answers, last); `verdict(table)` waits for one table's, or all.

    One runs at a time per file in a process: every connection the process opens meanwhile (the web
    app's readers) waits for the same verdict."""

    _running: dict[Path, FullCheck] = {}
    _lock = threading.Lock()
    #: The tables checked last, in this order (the largest: some 240 ms of CPU each at 100,000 cards).
    LAST = ("cards", "answers")

    def __init__(self, path: Path, passed: Callable[[], None]) -> None:
        self.path = path
        self._problem: str | None = None
        self._checked: set[str] = set()
        self._ended = False
        self._changed = threading.Condition()
        self._passed = passed
        self._thread = threading.Thread(target=self._run, name="lexitrain-integrity", daemon=True)

    @classmethod
    def start(cls, path: Path, passed: Callable[[], None]) -> FullCheck:
        """The check of this file under way in this process, else a new one started; `passed` runs
        when it passes."""
        with cls._lock:
            running = cls._running.get(path)
            if running is None:
                running = cls._running[path] = FullCheck(path, passed)
                running._thread.start()
            return running

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
            try:
                self._check_tables(conn)
            finally:
                conn.close()
        except sqlite3.Error as exc:
            self._tell(problem=str(exc))
        finally:
            with self._lock:
                self._running.pop(self.path, None)
            self._tell(ended=True)
        if self._problem is None:
            self._passed()

    def _check_tables(self, conn: sqlite3.Connection) -> None:
        try:
            names = [row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        except UnicodeDecodeError:
            self._tell(problem=UNDECODABLE)
            return
        for table in sorted(names, key=lambda name: (name in self.LAST, self.LAST.index(name) if name in self.LAST else 0)):
            quoted = table.replace('"', '""')
            problem = _first_complaint(conn, f'PRAGMA integrity_check("{quoted}")')
            self._tell(problem=problem, checked=table)
            if problem is not None:
                return

    def _tell(self, problem: str | None = None, checked: str | None = None, ended: bool = False) -> None:
        with self._changed:
            self._problem = self._problem or problem
            if checked is not None:
                self._checked.add(checked)
            self._ended = self._ended or ended
            self._changed.notify_all()

    def found(self) -> str | None:
        """The first complaint found so far (without waiting)."""
        return self._problem

    def verdict(self, table: str | None = None) -> str | None:
        """The first complaint found so far, once TABLE (None: every table) has been checked or the check
        has ended; None when all checked so far passed."""
        with self._changed:
            self._changed.wait_for(lambda: self._problem is not None or self._ended
                                   or (table is not None and table in self._checked))
            return self._problem


#: The authorizer's actions that write a table's rows: each waits for that table's check.
_ROW_WRITES = frozenset({sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE})
#: Those that change the schema: they wait for every table's.
_SCHEMA_WRITES = frozenset({sqlite3.SQLITE_ALTER_TABLE, sqlite3.SQLITE_CREATE_TABLE, sqlite3.SQLITE_CREATE_INDEX,
                            sqlite3.SQLITE_DROP_TABLE, sqlite3.SQLITE_DROP_INDEX})
_WRITES = _ROW_WRITES | _SCHEMA_WRITES


class WriteGate:
    """Holds a connection's writes to a table until the full check has passed it (a change to the
    schema, until it has passed them all); after a failed check every write is refused (SQLite's
    'not authorized') and `damage` says why."""

    def __init__(self, conn: sqlite3.Connection, check: FullCheck) -> None:
        self.check = check
        self.damage: str | None = None
        self._open = False
        self._passed: set[str] = set()
        conn.set_authorizer(self._authorize)

    def _authorize(self, action: int, first: str | None, second: str | None, database: str | None,
                   source: str | None) -> int:
        if self._open or action not in _WRITES:
            return sqlite3.SQLITE_OK
        table = first if action in _ROW_WRITES and first and not first.startswith("sqlite_") else None
        if table is not None and table in self._passed:
            problem = self.check.found()
        else:
            problem = self.check.verdict(table)
            if problem is None and table is not None:
                self._passed.add(table)
            elif problem is None:
                self._open = True  # (every table passed)
        if problem is not None:
            self.damage = problem
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def settle(self) -> str | None:
        """Wait for the whole check; its complaint, or None (and every write goes ahead) when it passed."""
        if not self._open and self.damage is None:
            self.damage = self.check.verdict()
            self._open = self.damage is None
        return self.damage
