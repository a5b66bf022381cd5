"""The progress database's schema, one versioned migration at a time, and the one migration runner.

`PRAGMA user_version` holds the number of migrations applied (on PostgreSQL,
the schema's `store_version` table; the same migrations make the same tables
there, their types spelled by `study.store.dialect`). `upgrade` runs them, and
the club's own tables' (`club.store.schema`) too. Each entry of
MIGRATIONS upgrades the schema from version i to i + 1; the missing ones run
in one transaction with their version bumps, so an upgrade either happens
whole or not at all. A migration, once released, is never edited: real files were made by
it; a change to a table is a new migration, in SQL both databases take; a step SQL cannot say (ids made by a digest) is a function of the
connection, run in the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lexitrain.errors import LexitrainError
from lexitrain.study.store.dialect import ddl
from lexitrain.study.store.uids import digest_uid, legacy_answer_uid, new_uid

if TYPE_CHECKING:
    from lexitrain.study.store.postgres import PostgresConnection

class SqlConnection(Protocol):
    """What the store's modules use of a connection: an `sqlite3.Connection`, or a `PostgresConnection` (here,
    where the migrations need it first; `study.store.connection` opens them)."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...

    def close(self) -> None: ...


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

#: The open rounds (a wall, a review, a position round) as rows, so any process carries one on and a
#: restarted one finds it: its kind, lexicon and everything to carry it on (`state`, JSON), the start form's
#: nonce (a second submit finds the round), when its clock runs out, and when it ended (kept a while, so its
#: page shows its end); and the word lists a player uploaded, by name, as uploaded.
OPEN_ROUNDS_AND_LISTS = """
CREATE TABLE rounds (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    lexicon TEXT NOT NULL,
    state TEXT NOT NULL,
    nonce TEXT,
    deadline REAL,
    opened REAL NOT NULL,
    touched REAL NOT NULL,
    closed REAL
);
CREATE UNIQUE INDEX rounds_nonce ON rounds (nonce) WHERE nonce IS NOT NULL;
CREATE INDEX rounds_open ON rounds (touched) WHERE closed IS NULL;
CREATE TABLE word_lists (
    name TEXT PRIMARY KEY,
    words TEXT NOT NULL,
    added REAL NOT NULL
);
"""

#: The cards due by a time, counted from the index alone (suspended ones are not in it): the day's counts a review
#: page shows after every answer, at 100,000 cards 35 ms a count read from the table's rows, 1.6 ms from this.
DUE_COUNTS = """
CREATE INDEX cards_due_counted ON cards (lexicon, due) WHERE due IS NOT NULL AND suspended = 0;
"""

#: Version 10: what a card's schedule is made of, kept so that it travels (`study.store.history`) and is
#: made again the same anywhere (`study.quiz.replay`): each answer's stable id and the way of scheduling
#: in force when it was given (`schedulings`: a spec by its digest; NULL: the answer moved no card, or
#: was given before version 10), the changes made to answers after (a mark, a late mark, a retraction: an
#: undo), the events of a card that are no answer (its state set by an import, its due date moved, the
#: card forgotten), and a number for every change, in the order this store made or took it (`seq`,
#: from `change_seq`, beside the store's own random id): what a sync has sent to and taken from another
#: store is told by these numbers (`sync_peers`, kept by the store that starts the sync). A session taken
#: from another store is `taken`: a round is resumed only where it was played.
HISTORY_TABLES = """
ALTER TABLE answers ADD COLUMN uid TEXT;
ALTER TABLE answers ADD COLUMN scheduling TEXT;
ALTER TABLE answers ADD COLUMN seq INTEGER;
ALTER TABLE sessions ADD COLUMN seq INTEGER;
ALTER TABLE sessions ADD COLUMN taken INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sessions_seq ON sessions (seq);
CREATE TABLE schedulings (id TEXT PRIMARY KEY, spec TEXT NOT NULL);
CREATE TABLE answer_changes (uid TEXT PRIMARY KEY, answer TEXT NOT NULL, what TEXT NOT NULL, value INTEGER,
    at REAL NOT NULL, seq INTEGER NOT NULL);
CREATE INDEX answer_changes_answer ON answer_changes (answer);
CREATE INDEX answer_changes_seq ON answer_changes (seq);
CREATE TABLE card_events (uid TEXT PRIMARY KEY, lexicon TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL,
    what TEXT NOT NULL, at REAL NOT NULL, body TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE INDEX card_events_card ON card_events (lexicon, kind, key, at);
CREATE INDEX card_events_seq ON card_events (seq);
CREATE TABLE change_seq (seq INTEGER NOT NULL, store TEXT NOT NULL);
CREATE TABLE sync_peers (peer TEXT PRIMARY KEY, store TEXT, sent INTEGER NOT NULL, received INTEGER NOT NULL,
    synced REAL)
"""

#: A card's scheduling fields (a CardRow's, less its id, names and when it was added).
SCHEDULE_FIELDS = ("state", "step", "stability", "difficulty", "due", "last_review", "cardbox", "correct",
                   "incorrect", "streak")
#: Rows read and written at a time by `number_the_history` (a home of a million answers upgrades in bounded memory).
_CHUNK = 20_000


def number_the_history(conn: Any) -> None:
    """Version 11: every answer stored before version 10 gets its id from what it is (`legacy_answer_uid`),
    and its number in the order it was stored; every card with a schedule gets a `set` event holding it,
    at its latest answer or review, so that making a card again from its history starts from the
    schedule it has now (an answer given before version 10 kept no way of scheduling to be graded again by)."""
    repeats = {(s, k, key, at) for s, k, key, at, _ in conn.execute(
        "SELECT session_id, kind, key, at, count(*) FROM answers GROUP BY session_id, kind, key, at "
        "HAVING count(*) > 1").fetchall()}
    seen: Counter[tuple[Any, ...]] = Counter()
    last = 0
    while True:
        rows = conn.execute(
            "SELECT a.id, a.session_id, COALESCE(s.mode, a.mode), COALESCE(s.lexicon, ''), COALESCE(s.source, ''), "
            "COALESCE(s.started, 0), a.kind, a.key, a.at FROM answers a LEFT JOIN sessions s ON s.id = a.session_id "
            "WHERE a.id > ? ORDER BY a.id LIMIT ?", (last, _CHUNK)).fetchall()
        if not rows:
            break
        named = []
        for answer_id, session_id, mode, lexicon, source, started, kind, key, at in rows:
            repeat = 0
            if (session_id, kind, key, at) in repeats:
                repeat = seen[(session_id, kind, key, at)]
                seen[(session_id, kind, key, at)] += 1
            named.append((legacy_answer_uid(mode, lexicon, source, started, kind, key, at, repeat), answer_id))
        conn.executemany("UPDATE answers SET uid = ?, seq = id WHERE id = ?", named)
        last = rows[-1][0]
    number = int(conn.execute("SELECT COALESCE(max(id), 0) FROM answers").fetchone()[0])
    conn.execute("UPDATE sessions SET seq = ? + id", (number,))
    number += int(conn.execute("SELECT COALESCE(max(id), 0) FROM sessions").fetchone()[0])
    last = 0
    while True:
        cards = conn.execute(
            f"SELECT c.id, c.lexicon, c.kind, c.key, {', '.join('c.' + f for f in SCHEDULE_FIELDS)}, c.added, "
            "(SELECT max(a.at) FROM answers a WHERE a.card_id = c.id) FROM cards c WHERE c.id > ? AND "
            "(c.state != 0 OR c.step IS NOT NULL OR c.stability IS NOT NULL OR c.difficulty IS NOT NULL "
            "OR c.due IS NOT NULL OR c.last_review IS NOT NULL OR c.cardbox != 0 OR c.correct != 0 "
            "OR c.incorrect != 0 OR c.streak != 0) ORDER BY c.id LIMIT ?", (last, _CHUNK)).fetchall()
        if not cards:
            break
        events = []
        for card_id, lexicon, kind, key, *schedule, added, answered in cards:
            body = json.dumps(dict(zip(SCHEDULE_FIELDS, schedule)), sort_keys=True)
            at = max(float(added), schedule[5] or 0.0, answered or 0.0)
            number += 1
            events.append((digest_uid("set", lexicon, kind, key, at, body), lexicon, kind, key, at, body, number))
        conn.executemany("INSERT INTO card_events (uid, lexicon, kind, key, what, at, body, seq) "
                         "VALUES (?, ?, ?, ?, 'set', ?, ?, ?)", events)
        last = cards[-1][0]
    conn.execute("INSERT INTO change_seq (seq, store) VALUES (?, ?)", (number, new_uid()))
    conn.execute("CREATE UNIQUE INDEX answers_uid ON answers (uid)")
    conn.execute("CREATE INDEX answers_seq ON answers (seq)")


#: Version 12: the rest of what is the player's travels as well, each change numbered as it is made and
#: each row with when it last changed, so that where two stores changed the same thing the latest change
#: wins: settings, decks (a deck deleted leaves a tombstone), a card's place (its deck and whether it is
#: suspended: `placed`), plans, the daily challenge's attempts, stored positions, and saved searches
#: (a copy of searches.json's, kept as the sync finds them changed; NULL conditions: deleted).
PLAYERS_THINGS = """
ALTER TABLE settings ADD COLUMN changed REAL NOT NULL DEFAULT 0;
ALTER TABLE settings ADD COLUMN seq INTEGER;
ALTER TABLE decks ADD COLUMN changed REAL NOT NULL DEFAULT 0;
ALTER TABLE decks ADD COLUMN seq INTEGER;
ALTER TABLE cards ADD COLUMN placed REAL NOT NULL DEFAULT 0;
ALTER TABLE cards ADD COLUMN placed_seq INTEGER;
ALTER TABLE plans ADD COLUMN changed REAL NOT NULL DEFAULT 0;
ALTER TABLE plans ADD COLUMN seq INTEGER;
ALTER TABLE challenges ADD COLUMN seq INTEGER;
ALTER TABLE positions ADD COLUMN seq INTEGER;
CREATE TABLE tombstones (what TEXT NOT NULL, name TEXT NOT NULL, changed REAL NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (what, name));
CREATE TABLE saved_searches (name TEXT PRIMARY KEY, conditions TEXT, changed REAL NOT NULL, seq INTEGER NOT NULL);
CREATE INDEX settings_seq ON settings (seq);
CREATE INDEX decks_seq ON decks (seq);
CREATE INDEX cards_placed_seq ON cards (placed_seq) WHERE placed_seq IS NOT NULL;
CREATE INDEX plans_seq ON plans (seq);
CREATE INDEX challenges_seq ON challenges (seq);
CREATE INDEX positions_seq ON positions (seq);
CREATE INDEX tombstones_seq ON tombstones (seq);
CREATE INDEX saved_searches_seq ON saved_searches (seq)
"""


def number_the_players_things(conn: Any) -> None:
    """Version 13: what version 12 numbers, numbered once for what is there already (after every change
    numbered so far), so that a first sync sends it: settings, decks, cards in a deck or suspended, plans,
    attempts, positions."""
    number = int(conn.execute("SELECT seq FROM change_seq").fetchone()[0])
    for table, key, where in (("settings", "name", ""), ("decks", "id", ""), ("plans", "id", ""),
                              ("challenges", "session_id", ""), ("positions", "id", "")):
        ids = [row[0] for row in conn.execute(f"SELECT {key} FROM {table} {where} ORDER BY {key}").fetchall()]
        conn.executemany(f"UPDATE {table} SET seq = ? WHERE {key} = ?", [(number + n, k) for n, k in enumerate(ids, 1)])
        number += len(ids)
    placed = [row[0] for row in conn.execute(
        "SELECT id FROM cards WHERE deck_id IS NOT NULL OR suspended != 0 ORDER BY id").fetchall()]
    conn.executemany("UPDATE cards SET placed_seq = ? WHERE id = ?", [(number + n, k) for n, k in enumerate(placed, 1)])
    number += len(placed)
    conn.execute("UPDATE change_seq SET seq = ?", (number,))


#: Version 14: uploaded word lists travel as the rest of the player's things do: each version of a list has an
#: id made where it was uploaded (`uid`), when it was made (`changed`: the latest change of a list wins, the
#: same moment by id), whether it is a removal (`removed`: its words gone, its row kept so the removal
#: travels) and its change's number (`seq`).
LISTS_TRAVEL = """
ALTER TABLE word_lists ADD COLUMN uid TEXT;
ALTER TABLE word_lists ADD COLUMN changed REAL NOT NULL DEFAULT 0;
ALTER TABLE word_lists ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE word_lists ADD COLUMN seq INTEGER;
CREATE INDEX word_lists_seq ON word_lists (seq)
"""


def number_the_lists(conn: Any) -> None:
    """Version 15: the lists kept before version 14, numbered after every change so far (a first sync sends
    them), each with an id made from what it is (the same list kept in two stores, one restored from the
    other's backup, is named alike) and changed when it was added."""
    number = int(conn.execute("SELECT seq FROM change_seq").fetchone()[0])
    rows = conn.execute("SELECT name, words, added FROM word_lists ORDER BY name").fetchall()
    conn.executemany("UPDATE word_lists SET uid = ?, changed = ?, seq = ? WHERE name = ?",
                     [(digest_uid("list", name, words, float(added)), float(added), number + n, name)
                      for n, (name, words, added) in enumerate(rows, 1)])
    conn.execute("UPDATE change_seq SET seq = ?", (number + len(rows),))


#: Version 16: the cards due on each day (UTC days since the epoch, per lexicon; suspended cards left out), kept
#: by the database itself on every write of a card (triggers, whichever statement moves a card: an answer, an undo,
#: a sync, an import, a suspension), so the day's counts a review page shows after every answer are read from a
#: few rows (`Cards.due_count`: the days before today's, and today's own cards on the due index) instead of
#: counting every card due (at 100,000 cards, 1.6 ms a count, two a page, more as the backlog grows).
DUE_DAYS_TABLE = """
CREATE TABLE due_days (
    lexicon TEXT NOT NULL,
    day INTEGER NOT NULL,
    cards INTEGER NOT NULL,
    PRIMARY KEY (lexicon, day)
)
"""
#: Which cards the days count, and a card's day (the same expression in both dialects).
_COUNTED = "{row}.due IS NOT NULL AND {row}.suspended = 0"
_DAY = "CAST(floor({row}.due / 86400) AS INTEGER)"
_LEAVES = ("UPDATE due_days SET cards = cards - 1 WHERE lexicon = OLD.lexicon AND day = {day}; "
           "DELETE FROM due_days WHERE lexicon = OLD.lexicon AND day = {day} AND cards = 0;")
_JOINS = ("INSERT INTO due_days (lexicon, day, cards) VALUES (NEW.lexicon, {day}, 1) "
          "ON CONFLICT (lexicon, day) DO UPDATE SET cards = due_days.cards + 1;")
#: An update moves a card between days only when one of these changed.
_MOVED = ("OLD.lexicon IS DISTINCT FROM NEW.lexicon OR OLD.suspended IS DISTINCT FROM NEW.suspended "
          "OR floor(OLD.due / 86400) IS DISTINCT FROM floor(NEW.due / 86400)")


def keep_due_days(conn: Any) -> None:
    """Version 16: the `due_days` table, filled from the cards, and the triggers that keep it (`DUE_DAYS_TABLE`).
    Triggers are spelled apart for each database (a trigger's body holds `;`, and PostgreSQL's is a function)."""
    dialect = getattr(conn, "dialect", "sqlite")
    for statement in statements(DUE_DAYS_TABLE, dialect):
        conn.execute(statement)
    old, new = (f"({_COUNTED.format(row=row)})" for row in ("OLD", "NEW"))
    leaves, joins = _LEAVES.format(day=_DAY.format(row="OLD")), _JOINS.format(day=_DAY.format(row="NEW"))
    conn.execute(f"INSERT INTO due_days (lexicon, day, cards) SELECT lexicon, {_DAY.format(row='cards')}, count(*) "
                 f"FROM cards WHERE {_COUNTED.format(row='cards')} GROUP BY 1, 2")
    if dialect == "sqlite":
        moved = _MOVED.replace("IS DISTINCT FROM", "IS NOT")
        conn.execute(f"CREATE TRIGGER due_days_added AFTER INSERT ON cards WHEN {new} BEGIN {joins} END")
        conn.execute(f"CREATE TRIGGER due_days_deleted AFTER DELETE ON cards WHEN {old} BEGIN {leaves} END")
        conn.execute(f"CREATE TRIGGER due_days_left AFTER UPDATE OF lexicon, due, suspended ON cards "
                     f"WHEN {old} AND ({moved}) BEGIN {leaves} END")
        conn.execute(f"CREATE TRIGGER due_days_joined AFTER UPDATE OF lexicon, due, suspended ON cards "
                     f"WHEN {new} AND ({moved}) BEGIN {joins} END")
        return
    # (the function reads the schema it was made in, whatever the search path of the connection that fires it)
    conn.execute(
        "CREATE FUNCTION due_days_kept() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $body$ "
        f"BEGIN IF TG_OP <> 'INSERT' AND {old} THEN {leaves} END IF; "
        f"IF TG_OP <> 'DELETE' AND {new} THEN {joins} END IF; RETURN NULL; END $body$")
    conn.execute("CREATE TRIGGER due_days_added_or_deleted AFTER INSERT OR DELETE ON cards "
                 "FOR EACH ROW EXECUTE FUNCTION due_days_kept()")
    conn.execute(f"CREATE TRIGGER due_days_moved AFTER UPDATE OF lexicon, due, suspended ON cards FOR EACH ROW "
                 f"WHEN ({_MOVED}) EXECUTE FUNCTION due_days_kept()")


#: A migration: SQL statements, or a step of Python given the connection (in the same transaction).
Migration = str | Callable[[Any], None]
MIGRATIONS: list[Migration] = [CORE_TABLES, POSITIONS_TABLE, RETAKES_AND_LEASES, DECKS_AND_CARD_FLAGS,
                               ROUNDS_AT_THEIR_END, LATE_MARKS, POSITION_ANALYSES, OPEN_ROUNDS_AND_LISTS, DUE_COUNTS,
                               HISTORY_TABLES, number_the_history, PLAYERS_THINGS, number_the_players_things,
                               LISTS_TRAVEL, number_the_lists, keep_due_days]
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return UserVersion().read(conn)


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring a progress file's schema up to date (see `upgrade`)."""
    try:
        upgrade(conn, "sqlite", MIGRATIONS, UserVersion(), str(path))
    except sqlite3.DatabaseError as exc:
        reason = "disk full" if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL else str(exc)
        raise LexitrainError(f"{path}: could not upgrade the progress database ({reason}); it was left "
                             "as it was") from None


def migrate_postgres(conn: PostgresConnection) -> None:
    """Make or upgrade a store's schema on PostgreSQL (see `upgrade`)."""
    upgrade(conn, "postgresql", MIGRATIONS, VersionTable("store_version"), conn.schema, lock=conn.lock_writes)


class Versions(Protocol):
    """Where a database keeps the number of migrations applied to it."""

    def read(self, conn: SqlConnection) -> int: ...

    def write(self, conn: SqlConnection, version: int) -> None: ...


class UserVersion:
    """SQLite's own header field (a player's progress file)."""

    def read(self, conn: SqlConnection) -> int:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def write(self, conn: SqlConnection, version: int) -> None:
        conn.execute(f"PRAGMA user_version = {int(version)}")


class VersionTable:
    """A table of one row (a store on PostgreSQL: `store_version`; a club's database: `club_schema`)."""

    def __init__(self, table: str) -> None:
        self.table = table

    def read(self, conn: SqlConnection) -> int:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {self.table} (version INTEGER NOT NULL)")
        row = conn.execute(f"SELECT version FROM {self.table}").fetchone()
        if row is None:
            conn.execute(f"INSERT INTO {self.table} (version) VALUES (0)")
        return 0 if row is None else int(row[0])

    def write(self, conn: SqlConnection, version: int) -> None:
        conn.execute(f"UPDATE {self.table} SET version = ?", (version,))


def upgrade(conn: SqlConnection, dialect: str, scripts: Sequence[Migration], versions: Versions, name: str,
            lock: Callable[[], None] | None = None) -> None:
    """Apply the scripts not applied yet, and their version, in one transaction: the one migration runner
    of every database lexitrain keeps (a player's progress, a member's schema, a club's tables). LOCK
    (PostgreSQL) is taken first, so two processes opening one database at once upgrade it once (SQLite's
    BEGIN IMMEDIATE does that on a file). A script is SQL or a step of Python given the connection.
    A database written by a newer lexitrain (NAME in the message)
    is refused, untouched."""
    conn.execute("BEGIN IMMEDIATE" if dialect == "sqlite" else "BEGIN")
    try:
        if lock is not None:
            lock()
        version = versions.read(conn)  # (another process may have upgraded it meanwhile)
        if version > len(scripts):
            raise LexitrainError(f"{name} was written by a newer lexitrain (schema {version}, this one reads "
                                 f"up to {len(scripts)}); it was left untouched: upgrade lexitrain to use it")
        for number in range(version, len(scripts)):
            script = scripts[number]
            if callable(script):
                script(conn)
                continue
            for statement in statements(script, dialect):
                conn.execute(statement)
        if version < len(scripts):
            versions.write(conn, len(scripts))
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def statements(script: str, dialect: str = "sqlite") -> list[str]:
    """A migration script's statements, spelled for the dialect (`study.store.dialect`): split, as
    executescript would commit early, and its comments left out."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    spelled = (ddl(s.strip(), dialect) for s in "\n".join(lines).split(";") if s.strip())
    return [s for s in spelled if s is not None]
