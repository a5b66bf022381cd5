"""The SQLite layout of a compiled lexicon (docs/formats.md describes it for users).

Two files, `words.sqlite` (tables words and meta) and `alphagrams.sqlite`
(table alphagrams), so the compiler can write both at once on two cores; a
reader opens the first, attaches the second, and joins them as one database.
A third, `playability.sqlite`, is attached when the lexicon has playability
figures (lexicon/playability.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from lexitrain.lexicon import playability

SCHEMA_VERSION = 3  # 2: words and alphagrams in two files; 3: definitions stored with their links written out
WORDS_FILE = "words.sqlite"
ALPHAGRAMS_FILE = "alphagrams.sqlite"

WORD_COLUMNS = (
    "word", "alphagram", "length", "definition", "front_hooks", "back_hooks",
    "inner_front", "inner_back", "points", "vowels", "symbols",
    "probability_rank0", "probability_rank1", "probability_rank2",
)
ALPHAGRAM_COLUMNS = (
    "alphagram", "length", "anagrams", "combinations0", "combinations1", "combinations2",
    "alphagram_rank0", "alphagram_rank1", "alphagram_rank2",
)

_WORDS_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE words (
    word TEXT PRIMARY KEY,      -- as players write it, uppercase
    alphagram TEXT NOT NULL,    -- tiles in tile-set order, multi-letter tiles bracketed
    length INTEGER NOT NULL,    -- in tiles, not characters
    definition TEXT NOT NULL,
    front_hooks TEXT NOT NULL,  -- tiles that make a word in front, in tile order
    back_hooks TEXT NOT NULL,
    inner_front INTEGER NOT NULL,  -- 1 if the word minus its first tile is a word
    inner_back INTEGER NOT NULL,   -- 1 if the word minus its last tile is a word
    points INTEGER NOT NULL,
    vowels INTEGER NOT NULL,
    symbols TEXT NOT NULL,      -- lexicon symbols from --compare
    probability_rank0 INTEGER NOT NULL,  -- per word within its length, 0/1/2 blanks
    probability_rank1 INTEGER NOT NULL,
    probability_rank2 INTEGER NOT NULL
) WITHOUT ROWID;
"""
_WORDS_INDEXES = """
CREATE INDEX words_alphagram ON words (alphagram);
CREATE INDEX words_length_rank ON words (length, probability_rank2);
"""
_ALPHAGRAMS_TABLE = """
CREATE TABLE alphagrams (
    alphagram TEXT PRIMARY KEY,
    length INTEGER NOT NULL,
    anagrams INTEGER NOT NULL,  -- how many words it makes
    combinations0 INTEGER NOT NULL,  -- exact draws with 0/1/2 blanks (text if > 2^63)
    combinations1 INTEGER NOT NULL,
    combinations2 INTEGER NOT NULL,
    alphagram_rank0 INTEGER NOT NULL,  -- per alphagram within its length, 0/1/2 blanks
    alphagram_rank1 INTEGER NOT NULL,
    alphagram_rank2 INTEGER NOT NULL
) WITHOUT ROWID;
"""
_ALPHAGRAMS_INDEXES = """
CREATE INDEX alphagrams_length_rank ON alphagrams (length, alphagram_rank2);
"""


def write_words(folder: Path, rows: Iterable[tuple], meta: dict[str, str]) -> None:
    """Create words.sqlite in a build folder."""
    _write(folder / WORDS_FILE, _WORDS_TABLES, _WORDS_INDEXES, {
        "meta": (("key", "value"), meta.items()),
        "words": (WORD_COLUMNS, rows),
    })


def write_alphagrams(folder: Path, rows: Iterable[tuple]) -> None:
    """Create alphagrams.sqlite in a build folder."""
    _write(folder / ALPHAGRAMS_FILE, _ALPHAGRAMS_TABLE, _ALPHAGRAMS_INDEXES, {
        "alphagrams": (ALPHAGRAM_COLUMNS, rows),
    })


def _write(
    path: Path, tables: str, indexes: str, data: dict[str, tuple[tuple[str, ...], Iterable]]
) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=OFF")  # a failed build folder is thrown away
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA cache_size=-131072")  # 128 MB: the tables and their index sorts stay in memory
        conn.execute("PRAGMA temp_store=MEMORY")
        conn.executescript(tables)
        with conn:
            for table, (columns, rows) in data.items():
                marks = ", ".join("?" * len(columns))
                conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
        conn.executescript(indexes)
    finally:
        conn.close()


def connect(folder: Path) -> sqlite3.Connection:
    """Read-only connection to a compiled lexicon, both files joined, rows as sqlite3.Row."""
    conn = sqlite3.connect(f"{(folder / WORDS_FILE).as_uri()}?mode=ro", uri=True, check_same_thread=False)
    conn.execute("ATTACH DATABASE ? AS alphagram_db", (f"{(folder / ALPHAGRAMS_FILE).as_uri()}?mode=ro",))
    figures = folder / playability.FILE
    if figures.is_file():  # counted by self-play (lexicon/playability.py): not every lexicon has them
        conn.execute(f"ATTACH DATABASE ? AS {playability.DATABASE}", (f"{figures.as_uri()}?mode=ro",))
    conn.row_factory = sqlite3.Row
    return conn
