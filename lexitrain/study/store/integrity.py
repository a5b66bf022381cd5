"""SQLite's own check of the progress file, before what must not run on a damaged one.

A damaged file can still open and answer most queries, and a write to it can
spread the damage (or bury the rows a rescue could still read). So `PRAGMA
quick_check` runs before every migration, import, export and bulk reschedule,
and at the first open of each day, before any write (scripts/bench_integrity.py
times it at 100,000 cards); a file that fails is refused with what to do.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from lexitrain.errors import LexitrainError


def quick_check(conn: sqlite3.Connection) -> str | None:
    """None if SQLite finds the file sound, else its first complaint."""
    try:
        first = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if first == "ok" else str(first)


def refuse_if_damaged(conn: sqlite3.Connection, path: Path, before: str) -> None:
    """Raise the one-line refusal if the file fails the check; `before` says what did not run."""
    problem = quick_check(conn)
    if problem is not None:
        raise LexitrainError(damaged_message(path, f"{problem}; {before} did not run"))


def damaged_message(path: Path, problem: str) -> str:
    return (f"{path} is damaged ({problem}); it was left untouched: save what can still be read with "
            "`lexitrain progress rescue FILE.json`, move it aside, and import that (or a backup: "
            "`lexitrain progress backups`) with `lexitrain progress import`")
