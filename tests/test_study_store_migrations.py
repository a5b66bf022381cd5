"""Upgrading real version-1 progress files: with and without the positions table that
version 1's position commands created by themselves, every row is kept."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.drills.positions import Filters, StoredPosition
from lexitrain.study.quiz.replay import replay_card
from lexitrain.study.records.sync import StorePeer, sync
from lexitrain.study.store import SCHEMA_VERSION, ProgressStore
from lexitrain.study.store.migrations import CORE_TABLES, MIGRATIONS, statements
from lexitrain.study.store.uids import legacy_answer_uid

ROOT = Path(__file__).resolve().parents[1]

#: What version 1 ran (lexitrain/study/drills/positions.py, `open_table`) the first time a position
#: command was used; copied here so that the test keeps making the files users have.
V1_POSITIONS = """
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
CREATE INDEX IF NOT EXISTS positions_score ON positions (lexicon, top_score)
"""
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def make_v1(path: Path, positions: bool) -> None:
    """A version-1 progress file as version 1 wrote it, with a little of everything in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(f"BEGIN; {CORE_TABLES}; PRAGMA user_version = 1; COMMIT;")
    conn.execute("INSERT INTO cards (lexicon, kind, key, state, due, added) VALUES ('enable', 'anagram', 'AB', 2, 5, 1)")
    conn.execute("INSERT INTO sessions (mode, lexicon, source, started) VALUES ('quiz', 'enable', 'twos', 1)")
    conn.execute("INSERT INTO answers (session_id, mode, card_id, kind, key, given, correct, at) "
                 "VALUES (1, 'quiz', 1, 'anagram', 'AB', 'AB BA', 1, 2)")
    conn.execute("INSERT INTO settings VALUES ('mode', '\"leitner\"')")
    if positions:
        for statement in V1_POSITIONS.split(";"):
            conn.execute(statement)
        conn.execute("INSERT INTO positions (lexicon, cgp, source, top_score, top_play, top_word, top_length, bingo, "
                     f"blank, margin, top_rank, plays, added) VALUES ('enable', '{EMPTY} AEINRST/ 0/0 0', 'x:1', 74, "
                     "'8H RETAINS', 'RETAINS', 7, 1, 0, 2, 1, 99, 3)")
    conn.close()


def table_layout(store: ProgressStore, table: str) -> tuple[list[tuple], list[tuple]]:
    """A table's columns and its indexes (unique or not, and their columns)."""
    columns = store.conn.execute(f"PRAGMA table_info({table})").fetchall()
    indexes = [(unique, [c[2] for c in store.conn.execute(f"PRAGMA index_info('{name}')")])
               for _, name, unique, *_ in store.conn.execute(f"PRAGMA index_list({table})")]
    return columns, sorted(indexes)


@pytest.mark.parametrize("with_positions", [False, True])
def test_a_version_1_file_upgrades_keeping_every_row(home, with_positions):
    path = home / "progress.sqlite"
    make_v1(path, with_positions)
    with ProgressStore() as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        card = store.find_card("enable", "anagram", "AB")
        assert card is not None and (card.state, card.due) == (2, 5)
        assert store.setting("mode") == "leitner"
        assert store.answers_since("quiz", "enable", 0) == (0, 1)
        kept = store.select_positions("enable", "position", Filters(), now=10)
        assert [(p.cgp, p.top_play, p.id) for p in kept] == (
            [(f"{EMPTY} AEINRST/ 0/0 0", "8H RETAINS", 1)] if with_positions else [])
        new = StoredPosition(f"{EMPTY} EIPRST?/ 0/0 0", "y:1", 70, "8D PRIESTs", "PRIESTs", 7, True, True, 5, None, 900)
        assert store.store_positions("enable", [new, new], now=11) == 1  # stored once, duplicates skipped
        assert store.position_count("enable") == 1 + with_positions


def test_both_upgrades_and_a_new_file_have_the_same_positions_table(home, tmp_path):
    layouts = []
    for name, kind in (("plain.sqlite", False), ("lazy.sqlite", True), ("new.sqlite", None)):
        path = tmp_path / name
        if kind is not None:
            make_v1(path, kind)
        with ProgressStore(path) as store:
            layouts.append(table_layout(store, "positions"))
    assert layouts[0] == layouts[1] == layouts[2]
    columns, indexes = layouts[0]
    assert [c[1] for c in columns][:3] == ["id", "lexicon", "cgp"]
    assert (1, ["lexicon", "cgp"]) in indexes and (0, ["lexicon", "top_score"]) in indexes


def test_two_processes_upgrading_one_file_at_once(home):
    """Both wait for the write lock; the second finds the upgrade done and applies nothing twice."""
    make_v1(home / "progress.sqlite", positions=True)
    env = {**os.environ, "LEXITRAIN_HOME": str(home), "PYTHONPATH": str(ROOT)}
    opener = "from lexitrain.study.store import ProgressStore; ProgressStore().close()"
    procs = [subprocess.Popen([sys.executable, "-c", opener], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    with ProgressStore() as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.position_count("enable") == 1


def test_a_damaged_file_is_refused_untouched(home):
    path = home / "progress.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)  # a header, then nonsense
    before = path.read_bytes()
    with pytest.raises(LexitrainError, match="damaged or not a lexitrain progress database"):
        ProgressStore()
    assert path.read_bytes() == before


def make_v7(run: Callable[[str], object], insert: Callable[[str, tuple], object], dialect: str = "sqlite") -> None:
    """A version-7 store (before answers had ids), with a little history: a card answered three times (twice
    at one pinned moment), a card given a schedule by a cardbox import and never answered, a new card, a
    practice answer. RUN makes a table (spelled for DIALECT); INSERT adds a row."""
    for migration in MIGRATIONS[:7]:
        assert isinstance(migration, str)
        for statement in statements(migration, dialect):
            run(statement)
    insert("INSERT INTO cards (lexicon, kind, key, state, step, stability, difficulty, due, last_review, cardbox, "
           "correct, incorrect, streak, added) VALUES ('enable', 'anagram', 'AB', 2, NULL, 3.5, 5.2, 900000, 600000, "
           "2, 2, 1, 2, 1000)", ())
    insert("INSERT INTO cards (lexicon, kind, key, state, due, cardbox, correct, added) "
           "VALUES ('enable', 'hooks', 'CARE', 2, 800000, 4, 5, 1000)", ())
    insert("INSERT INTO cards (lexicon, kind, key, added) VALUES ('enable', 'anagram', 'QI', 1000)", ())
    insert("INSERT INTO sessions (mode, lexicon, source, started, ended, complete) "
           "VALUES ('quiz', 'enable', 'twos', 1000, 2000, 1)", ())
    for at, correct in ((500000, 0), (600000, 1), (600000, 1)):
        insert("INSERT INTO answers (session_id, mode, card_id, kind, key, given, correct, was_new, at, ms) "
               "VALUES (1, 'quiz', 1, 'anagram', 'AB', 'AB', ?, 0, ?, 900)", (correct, float(at)))
    insert("INSERT INTO answers (session_id, mode, card_id, kind, key, given, correct, was_new, at, ms) "
           "VALUES (1, 'quiz', NULL, 'anagram', 'ZZ', 'ZZ', 0, 0, 650000.5, 900)", ())


def test_a_version_7_file_gets_ids_made_from_its_answers_and_every_card_stays_as_it_was(home, tmp_path):
    """The upgrade to numbered history: each old answer's id is made from what it is (two files holding
    the same answers name them alike, so a sync takes none twice); each card with a schedule keeps it as
    a `set` event, so making any card again from its history changes nothing."""
    stores = []
    for name in ("laptop", "copy"):
        path = tmp_path / f"{name}.sqlite"
        conn = sqlite3.connect(path, isolation_level=None)
        make_v7(conn.execute, conn.execute)
        conn.execute("PRAGMA user_version = 7")
        conn.close()
        stores.append(ProgressStore(path))
    laptop, copy = stores
    uids = [row[0] for row in laptop.conn.execute("SELECT uid FROM answers ORDER BY id")]
    assert uids == [row[0] for row in copy.conn.execute("SELECT uid FROM answers ORDER BY id")]
    assert uids[:3] == [legacy_answer_uid("quiz", "enable", "twos", 1000.0, "anagram", "AB", at, repeat)
                        for at, repeat in ((500000.0, 0), (600000.0, 0), (600000.0, 1))]
    assert len(set(uids)) == 4 and laptop.store_id() != copy.store_id()
    events = laptop.conn.execute("SELECT key, what, at FROM card_events ORDER BY key").fetchall()
    assert events == [("AB", "set", 600000.0), ("CARE", "set", 1000.0)]  # (QI is new: it has no schedule to keep)
    before = {card.key: card for card in laptop.scheduled_cards()}
    with laptop.transaction():
        for card in laptop.scheduled_cards():
            assert replay_card(laptop, card.id) == before[card.key]
    assert sync(laptop, StorePeer(copy), "copy").to_json() == {"sent": 0, "received": 0, "cards": 0}
    assert laptop.last_seq() == 7  # four answers, one session, two events
