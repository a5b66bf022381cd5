"""Playability: how often each word is played in self-play, kept beside a compiled lexicon.

Zyzzyva orders and filters by it. The figures are counted by the engine
(`engine/playability.py`, `lexitrain lexicon playability`) and stored in
`playability.sqlite` in the lexicon's folder: one row per word played at
least once, its plays, the points it scored in them, and its rank among the
words of its length (1 the most played; ties by word). A word never played
has no row and no rank. The points over the games counted are the points a
game holds for a player who knows the word: `search --order points-per-game` and
study by points at stake (study/records/stakes.py) read them. Figures counted
before points were (an older shipped file) have NULL points.
The file is written whole beside the tables and renamed into place, so a
reader sees the old figures or the new, and a lexicon's other files are
never touched. Figures shipped for an embedded list
(`lexicons/playability/<name>.tsv`) name the words they were counted on
(the lexicon's content hash); the compiler copies them into a build of
the same words.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped

FILE = "playability.sqlite"
#: the schema name a reader attaches the file under (schema.connect)
DATABASE = "playability_db"

_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE playability (
    word TEXT PRIMARY KEY,       -- uppercase, as in words.word
    length INTEGER NOT NULL,     -- in tiles
    plays INTEGER NOT NULL,      -- times played in the self-play games counted
    points INTEGER,              -- points it scored in those plays (bingo bonus with the main word); NULL: not counted
    rank INTEGER NOT NULL        -- 1 = the most played of its length; ties by word
) WITHOUT ROWID;
CREATE INDEX playability_length_rank ON playability (length, rank);
"""


def shipped_dir() -> Path:
    return shipped("lexicons") / "playability"


def ranked(plays: Mapping[str, int], length: Callable[[str], int]) -> list[tuple[str, int, int, int]]:
    """(word, length, plays, rank) of every word played, ranked within its length."""
    rows = sorted(((word, length(word), n) for word, n in plays.items() if n > 0), key=lambda r: (r[1], -r[2], r[0]))
    out: list[tuple[str, int, int, int]] = []
    rank = 0
    for i, (word, size, n) in enumerate(rows):
        rank = 1 if i == 0 or rows[i - 1][1] != size else rank + 1
        out.append((word, size, n, rank))
    return out


def write(folder: Path, plays: Mapping[str, int], points: Mapping[str, int] | None, length: Callable[[str], int],
          meta: Mapping[str, Any]) -> None:
    """Store the figures in a compiled lexicon's folder, replacing any there (atomically);
    `points` None: figures counted before points were."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".playability-", suffix=".tmp")
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.executescript(_TABLES)
            with conn:
                conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                                 [(k, json.dumps(v)) for k, v in meta.items()])
                conn.executemany("INSERT INTO playability (word, length, plays, points, rank) VALUES (?, ?, ?, ?, ?)",
                                 [(word, size, n, None if points is None else points.get(word, 0), rank)
                                  for word, size, n, rank in ranked(plays, length)])
        finally:
            conn.close()
        os.replace(tmp, folder / FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_shipped(path: Path) -> tuple[dict[str, Any], dict[str, int], dict[str, int] | None, dict[str, int] | None]:
    """A shipped figures file: its header (one `# {json}` line) and WORD<TAB>plays<TAB>points lines
    (WORD<TAB>plays in a file counted before points were: its points are None), with each word's
    plays in the even blocks of the games where the file has them (a fourth column, which
    `scripts/playability_figures.py --resume` carries on from; else None)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        meta = json.loads(lines[0].removeprefix("# "))
        fields = [line.split("\t") for line in lines[1:] if line]
        plays = {row[0]: int(row[1]) for row in fields}
        points = {row[0]: int(row[2]) for row in fields} if "scored" in meta else None
        even = {row[0]: int(row[3]) for row in fields} if fields and len(fields[0]) > 3 else None
    except (OSError, ValueError, IndexError) as exc:
        raise LexitrainError(f"{path}: cannot read the playability figures ({exc})") from None
    return meta, plays, points, even


def write_shipped(path: Path, plays: Mapping[str, int], points: Mapping[str, int], meta: Mapping[str, Any],
                  even: Mapping[str, int] | None = None) -> None:
    """Write figures to ship with a list: most played first, each word with its plays and points (and,
    given `even`, its plays in the even blocks of the games, for the count to carry on from)."""
    lines = [f"# {json.dumps(dict(meta), sort_keys=True)}"]
    lines += [f"{word}\t{n}\t{points.get(word, 0)}" + ("" if even is None else f"\t{even.get(word, 0)}")
              for word, n in sorted(plays.items(), key=lambda item: (-item[1], item[0])) if n > 0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def copy_shipped(folder: Path, content_hash: str, length: Callable[[str], int]) -> bool:
    """Store the shipped figures counted on these very words, if any are shipped; whether some were."""
    for path in sorted(shipped_dir().glob("*.tsv")):
        with path.open(encoding="utf-8") as head:
            if f'"content_hash": "{content_hash}"' not in head.readline():
                continue
        meta, plays, points, _ = read_shipped(path)
        write(folder, plays, points, length, {**meta, "shipped": path.name})
        return True
    return False
