"""The progress database: cards, answers, sessions, plans and challenge history.

One SQLite file in the user's data folder. It is opened in WAL mode with a
busy timeout so that two quiz processes can write to it at once, and every
answer is committed in its own short transaction the moment it is given, so a
killed process loses nothing already answered. The schema is versioned with
`PRAGMA user_version` and upgraded by the migrations below; a file written by
a newer lexitrain, or one that is not a readable SQLite database, is refused
with a clear message and never touched.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home

FILE_NAME = "progress.sqlite"
#: how long a process waits for another that holds the database
BUSY_SECONDS = 10.0

#: Each entry upgrades the schema from version i to i + 1.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE cards (
        id INTEGER PRIMARY KEY,
        lexicon TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        state INTEGER NOT NULL DEFAULT 0,     -- 0 new, else fsrs.State (1 learning, 2 review, 3 relearning)
        step INTEGER,
        stability REAL,
        difficulty REAL,
        due REAL,                             -- unix seconds, UTC; NULL while new
        last_review REAL,
        cardbox INTEGER NOT NULL DEFAULT 0,   -- Leitner box (Zyzzyva's numbering)
        correct INTEGER NOT NULL DEFAULT 0,
        incorrect INTEGER NOT NULL DEFAULT 0,
        streak INTEGER NOT NULL DEFAULT 0,    -- > 0 right in a row, < 0 wrong in a row
        added REAL NOT NULL,
        UNIQUE (lexicon, kind, key)
    );
    CREATE INDEX cards_due ON cards (lexicon, due) WHERE due IS NOT NULL;
    CREATE TABLE plans (
        id INTEGER PRIMARY KEY,
        lexicon TEXT NOT NULL,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,                   -- JSON: the steps the plan was built from
        cards INTEGER NOT NULL,
        created REAL NOT NULL,
        UNIQUE (lexicon, name)
    );
    -- New cards of a plan still waiting to be introduced, in study order.
    CREATE TABLE plan_queue (
        plan_id INTEGER NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        card_id INTEGER NOT NULL REFERENCES cards (id),
        PRIMARY KEY (plan_id, position)
    );
    CREATE INDEX plan_queue_card ON plan_queue (card_id);
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL,                   -- quiz, daily, challenge
        lexicon TEXT NOT NULL,
        source TEXT NOT NULL,
        started REAL NOT NULL,
        ended REAL
    );
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        mode TEXT NOT NULL,
        card_id INTEGER REFERENCES cards (id),
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        given TEXT NOT NULL,
        correct INTEGER NOT NULL,
        was_new INTEGER NOT NULL DEFAULT 0,
        before TEXT,                          -- JSON card state before, to redo on override
        at REAL NOT NULL,
        ms INTEGER
    );
    CREATE INDEX answers_at ON answers (at);
    CREATE INDEX answers_session ON answers (session_id);
    CREATE INDEX answers_card ON answers (card_id);
    CREATE TABLE challenges (
        session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
        date TEXT NOT NULL,
        kind TEXT NOT NULL,
        lexicon TEXT NOT NULL,
        score INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL,
        seconds REAL NOT NULL DEFAULT 0,
        completed INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX challenges_day ON challenges (lexicon, kind, date);
    CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)

CARD_COLUMNS = (
    "id, lexicon, kind, key, state, step, stability, difficulty, due, last_review, "
    "cardbox, correct, incorrect, streak, added"
)


@dataclass
class CardRow:
    """A card as stored: identity, scheduling state and counters."""

    id: int
    lexicon: str
    kind: str
    key: str
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: float | None
    last_review: float | None
    cardbox: int
    correct: int
    incorrect: int
    streak: int
    added: float


def progress_path() -> Path:
    return data_home() / FILE_NAME


class ProgressStore:
    """An open progress database. Use as a context manager or call close()."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or progress_path()
        self.conn = _open(self.path)

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> None:
        damaged = isinstance(exc, sqlite3.DatabaseError) and not self._healthy()
        self.close()
        if damaged:  # (an error from another database, e.g. a lexicon's, is not blamed on this one)
            raise LexitrainError(
                f"{self.path}: the progress database failed ({exc}); answers given before this were saved; "
                "if it is damaged, move it aside or restore a backup with `lexitrain progress import`"
            ) from None

    def close(self) -> None:
        self.conn.close()

    def _healthy(self) -> bool:
        try:
            return self.conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        except sqlite3.DatabaseError:
            return False

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction, taken at once so concurrent writers queue."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- settings ----------------------------------------------------------------
    def setting(self, name: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, name: str, value: Any) -> None:
        with self.write() as conn:
            conn.execute(
                "INSERT INTO settings (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (name, json.dumps(value)),
            )

    # -- cards -------------------------------------------------------------------
    def ensure_cards(self, lexicon: str, kind_keys: list[tuple[str, str]], now: float) -> list[int]:
        """Card ids for these (kind, key) pairs, creating new cards as needed."""
        with self.write() as conn:
            return [self.ensure_card(conn, lexicon, kind, key, now) for kind, key in kind_keys]

    def ensure_card(self, conn: sqlite3.Connection, lexicon: str, kind: str, key: str, now: float) -> int:
        """The id of a card, created new if it is not there yet (inside `write()`)."""
        conn.execute("INSERT OR IGNORE INTO cards (lexicon, kind, key, added) VALUES (?, ?, ?, ?)",
                     (lexicon, kind, key, now))
        return conn.execute(
            "SELECT id FROM cards WHERE lexicon = ? AND kind = ? AND key = ?", (lexicon, kind, key)
        ).fetchone()[0]

    def card(self, card_id: int) -> CardRow:
        row = self.conn.execute(f"SELECT {CARD_COLUMNS} FROM cards WHERE id = ?", (card_id,)).fetchone()
        if row is None:
            raise LexitrainError(f"no card with id {card_id} in {self.path}")
        return CardRow(*row)

    def find_card(self, lexicon: str, kind: str, key: str) -> CardRow | None:
        row = self.conn.execute(
            f"SELECT {CARD_COLUMNS} FROM cards WHERE lexicon = ? AND kind = ? AND key = ?", (lexicon, kind, key)
        ).fetchone()
        return None if row is None else CardRow(*row)

    def due_cards(self, lexicon: str, now: float, limit: int, skip: frozenset[int] = frozenset()) -> list[CardRow]:
        """Cards due by `now`, most overdue first (leaving out the ids in `skip`)."""
        rows = self.conn.execute(
            f"SELECT {CARD_COLUMNS} FROM cards WHERE lexicon = ? AND due IS NOT NULL AND due <= ? "
            "AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY due LIMIT ?",
            (lexicon, now, json.dumps(sorted(skip)), limit),
        ).fetchall()
        return [CardRow(*r) for r in rows]

    def new_cards(self, plan_id: int, limit: int, skip: frozenset[int] = frozenset()) -> list[CardRow]:
        """The next cards a plan introduces, in its order."""
        rows = self.conn.execute(
            f"SELECT {', '.join('c.' + c.strip() for c in CARD_COLUMNS.split(','))} "
            "FROM plan_queue q JOIN cards c ON c.id = q.card_id "
            "WHERE q.plan_id = ? AND c.state = 0 AND c.id NOT IN (SELECT value FROM json_each(?)) "
            "ORDER BY q.position LIMIT ?",
            (plan_id, json.dumps(sorted(skip)), limit),
        ).fetchall()
        return [CardRow(*r) for r in rows]

    def save_card(self, conn: sqlite3.Connection, card: CardRow) -> None:
        """Write a card's scheduling state and counters (inside `write()`)."""
        conn.execute(
            "UPDATE cards SET state = ?, step = ?, stability = ?, difficulty = ?, due = ?, last_review = ?, "
            "cardbox = ?, correct = ?, incorrect = ?, streak = ? WHERE id = ?",
            (card.state, card.step, card.stability, card.difficulty, card.due, card.last_review,
             card.cardbox, card.correct, card.incorrect, card.streak, card.id),
        )
        if card.state != 0:
            conn.execute("DELETE FROM plan_queue WHERE card_id = ?", (card.id,))

    # -- sessions ----------------------------------------------------------------
    def start_session(self, mode: str, lexicon: str, source: str, now: float) -> int:
        with self.write() as conn:
            cur = conn.execute(
                "INSERT INTO sessions (mode, lexicon, source, started) VALUES (?, ?, ?, ?)",
                (mode, lexicon, source, now),
            )
            return int(cur.lastrowid)

    def end_session(self, session_id: int, now: float) -> None:
        with self.write() as conn:
            conn.execute("UPDATE sessions SET ended = ? WHERE id = ?", (now, session_id))

    def answers_since(self, mode: str, lexicon: str, since: float) -> tuple[int, int]:
        """(new cards introduced, reviews done) in sessions of `mode` since a time."""
        row = self.conn.execute(  # CROSS JOIN: walk today's answers by time, not every card of the lexicon
            "SELECT COALESCE(SUM(a.was_new), 0), COALESCE(SUM(1 - a.was_new), 0) FROM answers a "
            "CROSS JOIN sessions s ON s.id = a.session_id "
            "WHERE a.at >= ? AND a.mode = ? AND a.card_id IS NOT NULL AND s.lexicon = ?",
            (since, mode, lexicon),
        ).fetchone()
        return int(row[0]), int(row[1])


def _open(path: Path) -> sqlite3.Connection:
    """Open (creating or upgrading) the database; refuse newer or damaged files."""
    exists = path.exists() and path.stat().st_size > 0
    try:
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise LexitrainError(f"{path}: cannot open the progress database ({exc})") from None
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if exists:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise LexitrainError(
            f"{path} is damaged or not a lexitrain progress database ({exc}); it was left untouched: "
            "move it aside (or restore a backup with `lexitrain progress import`) and run again"
        ) from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise LexitrainError(
            f"{path} was written by a newer lexitrain (schema {version}, this one reads up to "
            f"{SCHEMA_VERSION}); it was left untouched: upgrade lexitrain to use it"
        )
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    conn.execute("PRAGMA foreign_keys = ON")
    _use_wal(conn, path)
    conn.execute("PRAGMA synchronous = NORMAL")
    if version < SCHEMA_VERSION:
        _migrate(conn, path)
    return conn


def _use_wal(conn: sqlite3.Connection, path: Path) -> None:
    """Switch a new database to WAL. The switch needs every other connection
    out of the file, and SQLite does not wait for that as it does for writes,
    so two processes starting on a new database at once retry here."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                conn.close()
                raise LexitrainError(f"{path}: cannot open the progress database ({exc})") from None
            time.sleep(0.02)


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Apply the missing migrations, each in one transaction with its version bump."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
        for number in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[number]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number + 1}")
    except sqlite3.DatabaseError as exc:
        conn.execute("ROLLBACK")
        raise LexitrainError(f"{path}: could not upgrade the progress database ({exc})") from None
    conn.execute("COMMIT")


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (executescript would commit early)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
