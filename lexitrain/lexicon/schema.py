"""The SQLite layout of a compiled lexicon (docs/formats.md describes it for users), written with sqlite-utils.

Two files, `words.sqlite` (tables words and meta, and `words_fts`, a full-text index
of the definitions) and `alphagrams.sqlite` (table alphagrams), so the compiler can
write both at once on two cores; a reader opens the first, attaches the second, and
joins them as one database. A third, `playability.sqlite`, is attached when the
lexicon has playability figures (lexicon/playability.py). sqlite-utils makes the
tables with their types, the indexes and the full-text index, so a player can open
a compiled lexicon with sqlite-utils or Datasette and search its definitions there
too; the rows go in through its connection with one `executemany` per table
(its `insert_all` checks every value for JSON and took 2.3 times as long for ENABLE).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from lexitrain.lexicon import playability

if TYPE_CHECKING:  # slow to import (it loads pandas where pandas is installed): only a build writes with it
    import sqlite_utils

SCHEMA_VERSION = 4  # 2: two files; 3: definitions with their links written out; 4: sqlite-utils, words_fts
WORDS_FILE = "words.sqlite"
ALPHAGRAMS_FILE = "alphagrams.sqlite"
#: the full-text index of `words.definition` (sqlite-utils' name for it: `<table>_fts`)
DEFINITIONS_INDEX = "words_fts"

#: column -> type, in the order the compiler hands rows over
WORD_TYPES: dict[str, type] = {
    "word": str,  # as players write it, uppercase
    "alphagram": str,  # tiles in tile-set order, multi-letter tiles bracketed
    "length": int,  # in tiles, not characters
    "definition": str,
    "front_hooks": str,  # tiles that make a word in front, in tile order
    "back_hooks": str,
    "inner_front": int,  # 1 if the word minus its first tile is a word
    "inner_back": int,  # 1 if the word minus its last tile is a word
    "points": int,
    "vowels": int,
    "symbols": str,  # lexicon symbols from --compare
    "probability_rank0": int,  # per word within its length, 0/1/2 blanks
    "probability_rank1": int,
    "probability_rank2": int,
}
ALPHAGRAM_TYPES: dict[str, type] = {
    "alphagram": str,
    "length": int,
    "anagrams": int,  # how many words it makes
    "combinations0": int,  # exact draws with 0/1/2 blanks (text if > 2^63)
    "combinations1": int,
    "combinations2": int,
    "alphagram_rank0": int,  # per alphagram within its length, 0/1/2 blanks
    "alphagram_rank1": int,
    "alphagram_rank2": int,
}
#: every table the two files hold (only lexicon/ names them: tests/test_architecture.py)
TABLES = ("meta", "words", DEFINITIONS_INDEX, "alphagrams")
WORD_COLUMNS = tuple(WORD_TYPES)
ALPHAGRAM_COLUMNS = tuple(ALPHAGRAM_TYPES)


def write_words(folder: Path, rows: Iterable[tuple], meta: dict[str, str]) -> None:
    """Create words.sqlite in a build folder: the words, their indexes, the definitions' full-text index."""
    db = _database(folder / WORDS_FILE)
    try:
        db.table("meta").insert_all(({"key": key, "value": value} for key, value in meta.items()), pk="key", not_null={"value"})
        words = _fill(db, "words", WORD_TYPES, rows)
        words.create_index(["alphagram"], "words_alphagram")
        words.create_index(["length", "probability_rank2"], "words_length_rank")
        words.enable_fts(["definition"])
    finally:
        db.close()


def write_alphagrams(folder: Path, rows: Iterable[tuple]) -> None:
    """Create alphagrams.sqlite in a build folder."""
    db = _database(folder / ALPHAGRAMS_FILE)
    try:
        _fill(db, "alphagrams", ALPHAGRAM_TYPES, rows).create_index(["length", "alphagram_rank2"], "alphagrams_length_rank")
    finally:
        db.close()


def _database(path: Path) -> sqlite_utils.Database:
    import sqlite_utils

    db = sqlite_utils.Database(path)
    db.execute("PRAGMA journal_mode=OFF")  # a failed build folder is thrown away
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-131072")  # 128 MB: the tables and their index sorts stay in memory
    db.execute("PRAGMA temp_store=MEMORY")
    return db


def _fill(db: sqlite_utils.Database, name: str, types: dict[str, type], rows: Iterable[tuple]) -> sqlite_utils.db.Table:
    """Table NAME keyed by its first column, every column NOT NULL, holding ROWS."""
    table = db.create_table(name, types, pk=next(iter(types)), not_null=set(types))
    columns = ", ".join(types)
    with db.conn:
        db.conn.executemany(f"INSERT INTO {name} ({columns}) VALUES ({', '.join('?' * len(types))})", rows)
    return table


def connect(folder: Path) -> sqlite3.Connection:
    """Read-only connection to a compiled lexicon, both files joined, rows as sqlite3.Row."""
    conn = sqlite3.connect(f"{(folder / WORDS_FILE).as_uri()}?mode=ro", uri=True, check_same_thread=False)
    conn.execute("ATTACH DATABASE ? AS alphagram_db", (f"{(folder / ALPHAGRAMS_FILE).as_uri()}?mode=ro",))
    figures = folder / playability.FILE
    if figures.is_file():  # counted by self-play (lexicon/playability.py): not every lexicon has them
        conn.execute(f"ATTACH DATABASE ? AS {playability.DATABASE}", (f"{figures.as_uri()}?mode=ro",))
    conn.row_factory = sqlite3.Row
    return conn
