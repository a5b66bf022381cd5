"""Rolling automatic backups of the progress file, and the one taken before each upgrade.

On the first use of each day (the file passed `quick_check` as it opened) a
copy is made as the file is closed, with SQLite's online backup API, a consistent snapshot even while
another drill writes, into `backups/` beside it, and copies more than a week
old are removed; an upgrade of the schema is always preceded by a copy of its
own (kept a week too). Every copy passes SQLite's full check before it is kept (a copy is
the file as it was, so a damaged one is the file damaged): damage is never copied. `lexitrain progress backups` lists them, and
`lexitrain progress import FILE` restores one (it merges: the more recent
state of each card wins).
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.study.store.integrity import damaged_message, forget_checked, full_check, mark_checked

FOLDER = "backups"
#: How long the automatic copies are kept.
KEEP_DAYS = 7
_STAMP = "%Y-%m-%dT%H%M%S"
_STAMP_LENGTH = len("2026-03-01T101500")


@dataclass(frozen=True)
class Backup:
    path: Path
    taken: datetime
    reason: str  # "daily", or "before-upgrade-vN"
    size: int


def folder(progress: Path) -> Path:
    return progress.parent / FOLDER


def backups(progress: Path) -> list[Backup]:
    """The automatic backups of a progress file, oldest first."""
    found = []
    for path in folder(progress).glob(f"{progress.stem}-*.sqlite"):
        rest = path.stem[len(progress.stem) + 1:]
        stamp, reason = rest[:_STAMP_LENGTH], rest[_STAMP_LENGTH + 1:]
        try:
            taken = datetime.strptime(stamp, _STAMP)
        except ValueError:
            continue  # not one of ours
        found.append(Backup(path, taken, reason or "daily", path.stat().st_size))
    return sorted(found, key=lambda backup: (backup.taken, backup.path.name))


def taken_today(progress: Path, now: datetime) -> bool:
    """Whether a copy of today (local time) is there: then today's check was made too."""
    return any(backup.taken.date() == now.date() for backup in backups(progress))


def take(conn: sqlite3.Connection, progress: Path, now: datetime, reason: str = "") -> Path:
    """Copy the open database (a snapshot, by SQLite's backup API) into the backups folder;
    the copy is written beside its final name, checked in full, and moved there whole. A damaged
    copy is removed and the damage raised (LexitrainError)."""
    target_folder = folder(progress)
    target_folder.mkdir(parents=True, exist_ok=True)
    name = f"{progress.stem}-{now.strftime(_STAMP)}{'-' + reason if reason else ''}.sqlite"
    target = target_folder / name
    partial = target.with_name(f"{name}.{os.getpid()}.partial")  # (two processes may copy in the same second)
    copy = sqlite3.connect(partial)
    try:
        conn.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        problem = full_check(copy)
    finally:
        copy.close()
    if problem is not None:
        partial.unlink(missing_ok=True)
        forget_checked(progress, target_folder)
        raise LexitrainError(damaged_message(progress, f"{problem}; found as a backup was taken, which was not kept"))
    partial.replace(target)
    mark_checked(progress, target_folder, now)
    return target


def prune(progress: Path, now: datetime) -> None:
    """Remove the automatic copies older than KEEP_DAYS (and copies left half-written)."""
    for backup in backups(progress):
        if now - backup.taken > timedelta(days=KEEP_DAYS):
            backup.path.unlink(missing_ok=True)
    for partial in folder(progress).glob("*.partial"):
        if time.time() - partial.stat().st_mtime > 3600:  # (another process may be writing one now)
            partial.unlink(missing_ok=True)
