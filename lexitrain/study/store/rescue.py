"""Every row that can still be read from a damaged progress file.

A damaged page makes a whole-table read fail at the first row on it, though
the rows before and after are sound. So each table is read whole if it can
be, and otherwise range by range of row ids, halving a range that fails down
to the single rows that cannot be read, which are counted, never guessed at.
A copy of the file is read (a copy cut short padded to its length), the file itself never written; `study.transfer.rescue`
turns the rows into a backup `progress import` takes. The copy is read with SQLite's schema errors
let pass (`writable_schema`, never written): a damaged index's name or statement would
otherwise refuse the whole file, though no table read here goes through an index.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.store.integrity import UNDECODABLE

TABLES = ("cards", "decks", "sessions", "answers", "challenges", "plans", "positions", "settings", "schedulings",
          "word_lists")
#: Row ids are probed this far past the last one read when the table's largest cannot be read.
_PROBE_PAST = 1 << 16
_CHUNK = 4096


@dataclass
class Rescued:
    """The rows read, table by table (column -> value), and the row ids that could not be read."""

    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    unreadable: dict[str, int] = field(default_factory=dict)
    missing_tables: list[str] = field(default_factory=list)


def rescue_rows(path: Path) -> Rescued:
    """Read what can be read of every table of the progress file at `path`, without writing to it."""
    if not path.is_file():
        raise LexitrainError(f"{path}: no such file")
    with tempfile.TemporaryDirectory(prefix="lexitrain-rescue-") as folder:
        copy = Path(folder) / path.name
        try:
            shutil.copyfile(path, copy)
        except OSError as exc:
            raise LexitrainError(f"{path}: cannot read ({exc.strerror or exc})") from None
        _pad_to_full_length(copy)
        return _rescue_from(copy, path)


def _pad_to_full_length(copy: Path) -> None:
    """A file cut short is padded with zeros to the length its header gives, so that SQLite reads
    the pages that are left (it refuses the whole file otherwise); the padding reads as damage."""
    with copy.open("r+b") as file:
        header = file.read(100)
        if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
            return
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        length = page_size * pages
        if file.seek(0, 2) < length:
            file.truncate(length)


def _rescue_from(copy: Path, path: Path) -> Rescued:
    conn = _open_read_only(copy, path)
    rescued = Rescued()
    try:
        for table in TABLES:
            try:
                columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            except sqlite3.DatabaseError:
                columns = []
            if not columns:
                rescued.missing_tables.append(table)
                rescued.rows[table] = []
                continue
            rows, lost = _read_table(conn, table)
            rescued.rows[table] = [dict(zip(columns, row[1:])) for row in rows]
            rescued.unreadable[table] = lost
    finally:
        conn.close()
    return rescued


def _open_read_only(copy: Path, path: Path) -> sqlite3.Connection:
    """The copy, read-only and immutable (no lock, no `-shm` made beside it); errors name the original."""
    try:
        conn = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        reason = UNDECODABLE if isinstance(exc, UnicodeDecodeError) else exc
        raise LexitrainError(f"{path}: nothing can be read (not an SQLite database, or its first page is "
                             f"damaged: {reason})") from None
    return conn


def _read_table(conn: sqlite3.Connection, table: str) -> tuple[list[tuple[Any, ...]], int]:
    """The readable rows (row id first) and how many row ids in the table's range could not be read."""
    try:
        return conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall(), 0
    except sqlite3.DatabaseError:
        pass
    rows: list[tuple[Any, ...]] = []
    lost = 0
    start, last_seen = 1, 0
    try:
        largest: int | None = int(conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0)
    except sqlite3.DatabaseError:
        largest = None
    while start <= (largest if largest is not None else last_seen + _PROBE_PAST):
        found, failed = _read_range(conn, table, start, start + _CHUNK - 1)
        rows.extend(found)
        lost += failed
        if found:
            last_seen = max(last_seen, int(found[-1][0]))
        start += _CHUNK
    return rows, lost


def _read_range(conn: sqlite3.Connection, table: str, low: int, high: int) -> tuple[list[tuple[Any, ...]], int]:
    """The readable rows with row ids low..high, halving the range where a read fails."""
    try:
        return conn.execute(f"SELECT rowid, * FROM {table} WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                            (low, high)).fetchall(), 0
    except sqlite3.DatabaseError:
        if low == high:
            return [], 1
    middle = (low + high) // 2
    first, lost_first = _read_range(conn, table, low, middle)
    second, lost_second = _read_range(conn, table, middle + 1, high)
    return first + second, lost_first + lost_second
