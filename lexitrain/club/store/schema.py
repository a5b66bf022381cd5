"""The club's tables, one versioned migration at a time, made and upgraded by the one migration runner
(`study.store.migrations.upgrade`) in the one dialect (`study.store.dialect`); the version is kept in the
table `club_schema` on both databases.
"""

from __future__ import annotations

MEMBERS = """
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
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
    id INTEGER PRIMARY KEY,
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
    id INTEGER PRIMARY KEY,
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
    id INTEGER PRIMARY KEY,
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
    id INTEGER PRIMARY KEY,
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
    id INTEGER PRIMARY KEY,
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    lexicon TEXT NOT NULL,
    source TEXT NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    answers TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX owed_reviews_member ON owed_reviews (member_id, id);
"""

#: The club's flags are the integers 0 and 1 on both databases, as the progress store's are (one dialect:
#: `study.store.dialect`): on PostgreSQL, where they were made BOOLEAN, their type changes (a statement SQLite
#: skips: its columns hold any type, and its TRUE and FALSE were 1 and 0). The first attempts' index is made
#: again with a condition both spell alike.
INTEGER_FLAGS = """
DROP INDEX attempts_first;
ALTER TABLE members ALTER COLUMN admin DROP DEFAULT, ALTER COLUMN admin TYPE BIGINT
    USING CASE WHEN admin THEN 1 ELSE 0 END, ALTER COLUMN admin SET DEFAULT 0;
ALTER TABLE attempts ALTER COLUMN retake TYPE BIGINT USING CASE WHEN retake THEN 1 ELSE 0 END;
ALTER TABLE club_tables ALTER COLUMN practice TYPE BIGINT USING CASE WHEN practice THEN 1 ELSE 0 END;
ALTER TABLE member_reviews ALTER COLUMN correct TYPE BIGINT USING CASE WHEN correct THEN 1 ELSE 0 END;
CREATE UNIQUE INDEX attempts_first ON attempts (member_id, lexicon, kind, date) WHERE retake = 0;
"""

#: Nothing of a member outlives them, and no guessing flood can lock one out:
#: - `member_ids`: the last member id given (never given again, though its member is removed: a new member must
#:   never find a removed one's store under the same id);
#: - `removals`: a removal committed whose store and folder are not yet deleted (finished by the next start);
#: - `login_throttle`: the password checks of each name, known browser and address (`club.members`): how many since
#:   the last success, the wait now in force and when the next may come; `login_failures` goes;
#: - `devices`: the browsers a member logged in from (a cookie's digest), whose checks are counted apart from their
#:   name's, so failures of others never delay them.
TRUST = """
CREATE TABLE member_ids (last BIGINT NOT NULL);
INSERT INTO member_ids (last) SELECT coalesce(max(id), 0) FROM members;
CREATE TABLE removals (
    member_id BIGINT PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL
);
CREATE TABLE login_throttle (
    key TEXT PRIMARY KEY,
    checks BIGINT NOT NULL,
    wait DOUBLE PRECISION NOT NULL,
    next_at DOUBLE PRECISION NOT NULL,
    last DOUBLE PRECISION NOT NULL
);
CREATE TABLE devices (
    token_hash TEXT PRIMARY KEY,
    member_id BIGINT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    made DOUBLE PRECISION NOT NULL
);
CREATE INDEX devices_member ON devices (member_id);
DROP TABLE login_failures;
"""

#: Shared walls' guesses bounded, counted in the guess's own conditional UPDATE (`club.tables`): each seat's
#: guesses so far, and each seat's and each table's allowance of guesses (a bucket refilled with time) and when
#: it was last refilled.
TABLE_LIMITS = """
ALTER TABLE table_seats ADD COLUMN guesses BIGINT NOT NULL DEFAULT 0;
ALTER TABLE table_seats ADD COLUMN allowance DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE table_seats ADD COLUMN refilled DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE club_tables ADD COLUMN allowance DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE club_tables ADD COLUMN refilled DOUBLE PRECISION NOT NULL DEFAULT 0;
"""

#: A table opened on a challenge's set says which (kind and day): today's ranked set is shown only to a member whose
#: ranked attempt at it is over.
TABLE_SETS = """
ALTER TABLE club_tables ADD COLUMN set_kind TEXT;
ALTER TABLE club_tables ADD COLUMN set_date TEXT;
"""

#: A shared table's clock: its round lasts `seconds` from when it was opened, and ends for everyone seated at 0
#: (NULL: a table opened before tables were timed, ended by its opener alone).
TABLE_TIMES = """
ALTER TABLE club_tables ADD COLUMN seconds DOUBLE PRECISION;
"""

#: One list for both databases; a released migration is never edited, a change is a new one. (Their `{id}`,
#: spelled by the club's own runner once, is the dialect's `id INTEGER PRIMARY KEY`, which spells the same.)
MIGRATIONS: list[str] = [MEMBERS, TABLES, STUDY, OWED, INTEGER_FLAGS, TRUST, TABLE_LIMITS, TABLE_SETS,
                             TABLE_TIMES]
SCHEMA_VERSION = len(MIGRATIONS)

