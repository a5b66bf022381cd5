"""The progress database's schema, one versioned migration at a time.

`PRAGMA user_version` holds the number of migrations applied (on PostgreSQL,
the schema's `store_version` table; the same migrations make the same tables
there, their types spelled by `study.store.dialect`). Each entry of
MIGRATIONS upgrades the schema from version i to i + 1; the missing ones run
in one transaction with their version bumps, so an upgrade either happens
whole or not at all. A migration, once released, is never edited: real files were made by
it; a change to a table is a new migration, in SQL both databases take.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.study.store.postgres import PostgresConnection

#: Version 1: cards, plans and their queue, sessions, answers, challenges, settings.
CORE_TABLES = """
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
"""

#: Version 2: the stored positions of the position quiz. Before version 2 the
#: position commands created this table themselves, the first time they ran,
#: with exactly this statement; so it is kept as SQL (not rebuilt through
#: sqlite-utils, which would leave two spellings of one table in users' files)
#: and `IF NOT EXISTS` keeps a table made that way, and every row in it, as it is.
POSITIONS_TABLE = """
CREATE TABLE IF NOT EXISTS positions (
    id INTEGER PRIMARY KEY,
    lexicon TEXT NOT NULL,
    cgp TEXT NOT NULL,                    -- board, racks (player to move first), scores, zero turns
    source TEXT NOT NULL,                 -- file:line, or the self-play seed, game and turn
    top_score INTEGER NOT NULL,
    top_play TEXT NOT NULL,               -- GCG notation, e.g. 8D QUITE
    top_word TEXT NOT NULL,
    top_length INTEGER NOT NULL,          -- tiles in the top play's main word
    bingo INTEGER NOT NULL,
    blank INTEGER NOT NULL,
    margin INTEGER NOT NULL,              -- top score minus the runner-up's (the top score if alone)
    top_rank INTEGER,                     -- probability rank of the top word (2 blanks), NULL if unknown
    plays INTEGER NOT NULL,               -- how many legal plays the rack has
    added REAL NOT NULL,
    UNIQUE (lexicon, cgp)
);
CREATE INDEX IF NOT EXISTS positions_score ON positions (lexicon, top_score);
"""

#: Version 3: a challenge attempt finished after the day's first finished one is a retake
#: (kept, never a personal best; attempts already stored are marked so); and the leases on
#: cards a daily drill has handed out, so two drills at once never ask the same card: the
#: drill holding it (`holder`) and until when (unix seconds; a killed drill's lease runs out).
#: (No comments inside the CREATE: SQLite keeps its text in the schema, which stays on one page.)
RETAKES_AND_LEASES = """
ALTER TABLE challenges ADD COLUMN retake INTEGER NOT NULL DEFAULT 0;
UPDATE challenges SET retake = 1 WHERE EXISTS (
    SELECT 1 FROM challenges earlier WHERE earlier.lexicon = challenges.lexicon AND earlier.kind = challenges.kind
    AND earlier.date = challenges.date AND earlier.completed = 1 AND earlier.session_id < challenges.session_id);
CREATE TABLE card_leases (card_id INTEGER PRIMARY KEY REFERENCES cards (id) ON DELETE CASCADE,
    holder TEXT NOT NULL, until REAL NOT NULL);
CREATE INDEX card_leases_holder ON card_leases (holder);
"""


#: Decks with their own FSRS settings (NULL: the player's general setting), a
#: card's deck (NULL: no deck) and whether it is suspended, and the grade
#: (1-4, Again to Easy) an answer was given (NULL: typed and checked only).
DECKS_AND_CARD_FLAGS = """
CREATE TABLE decks (
    id INTEGER PRIMARY KEY,
    lexicon TEXT NOT NULL,
    name TEXT NOT NULL,
    retention REAL,                       -- FSRS desired retention of its cards
    new_per_day INTEGER,                  -- most of its new cards a daily drill introduces
    reviews_per_day INTEGER,              -- most of its reviews a daily drill asks
    created REAL NOT NULL,
    UNIQUE (lexicon, name)
);
ALTER TABLE cards ADD COLUMN deck_id INTEGER REFERENCES decks (id);
ALTER TABLE cards ADD COLUMN suspended INTEGER NOT NULL DEFAULT 0;
CREATE INDEX cards_deck ON cards (deck_id) WHERE deck_id IS NOT NULL;
ALTER TABLE answers ADD COLUMN rating INTEGER;
"""

#: Version 5: whether a session's round reached its end (every question asked, or its time
#: up), so that only a round stopped before its end is resumed by the next `quiz` on its source.
ROUNDS_AT_THEIR_END = """
ALTER TABLE sessions ADD COLUMN complete INTEGER NOT NULL DEFAULT 0;
"""

#: Version 6: a "mark correct" / "mark missed" given to a challenge answer after the challenge ended
#: (its time up, or every question scored): kept here (1 correct, 0 missed), the answer's verdict,
#: and so the attempt's score and the personal best, staying what was typed in time.
LATE_MARKS = """
ALTER TABLE answers ADD COLUMN late_mark INTEGER;
"""

#: Version 7: a position's analysis (JSON), made once when an analysed card is made (`best-play`: the
#: simulation's table; `endgame`: every first move's exact value and a best line), so asking it is instant.
POSITION_ANALYSES = """
ALTER TABLE positions ADD COLUMN analysis TEXT;
"""

MIGRATIONS: list[str] = [CORE_TABLES, POSITIONS_TABLE, RETAKES_AND_LEASES, DECKS_AND_CARD_FLAGS, ROUNDS_AT_THEIR_END,
                         LATE_MARKS, POSITION_ANALYSES]
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Apply the missing migrations and their version bumps in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for number in range(schema_version(conn), SCHEMA_VERSION):  # another process may have upgraded it
            for statement in _statements(MIGRATIONS[number]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number + 1}")
    except sqlite3.DatabaseError as exc:
        conn.execute("ROLLBACK")
        reason = "disk full" if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL else str(exc)
        raise LexitrainError(f"{path}: could not upgrade the progress database ({reason}); it was left "
                             "as it was") from None
    conn.execute("COMMIT")


def migrate_postgres(conn: PostgresConnection) -> None:
    """Make or upgrade a store's schema on PostgreSQL in one transaction, under the schema's write lock
    (two processes opening a member's store at once upgrade it once); refuse a newer one."""
    conn.execute("BEGIN")
    try:
        conn.lock_writes()
        conn.execute("CREATE TABLE IF NOT EXISTS store_version (version BIGINT NOT NULL)")
        row = conn.execute("SELECT version FROM store_version").fetchone()
        version = 0 if row is None else int(row[0])
        if version > SCHEMA_VERSION:
            raise LexitrainError(f"{conn.schema} was written by a newer lexitrain (schema {version}, this one reads "
                                 f"up to {SCHEMA_VERSION}); it was left untouched: upgrade lexitrain to use it")
        for number in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[number]):
                conn.execute_ddl(statement)
        if row is None:
            conn.execute("INSERT INTO store_version (version) VALUES (?)", (SCHEMA_VERSION,))
        elif version < SCHEMA_VERSION:
            conn.execute("UPDATE store_version SET version = ?", (SCHEMA_VERSION,))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (executescript would commit early)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
