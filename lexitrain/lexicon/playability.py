"""Playability: how often each word is played in self-play, kept beside a compiled lexicon.

Zyzzyva orders and filters by it. The figures are counted by the engine
(`engine/playability.py`, `lexitrain lexicon playability`) and stored in
`playability.sqlite` in the lexicon's folder: one row per word played at
least once, its plays, and its rank among the words of its length (1 the
most played; ties by word). A word never played has no row and no rank.
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


def write(folder: Path, plays: Mapping[str, int], length: Callable[[str], int], meta: Mapping[str, Any]) -> None:
    """Store the figures in a compiled lexicon's folder, replacing any there (atomically)."""
    import sqlite3

    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".playability-", suffix=".tmp")
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.executescript(_TABLES)
            with conn:
                conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                                 [(k, json.dumps(v)) for k, v in meta.items()])
                conn.executemany("INSERT INTO playability (word, length, plays, rank) VALUES (?, ?, ?, ?)",
                                 ranked(plays, length))
        finally:
            conn.close()
        os.replace(tmp, folder / FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_shipped(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """A shipped figures file: its header (one `# {json}` line) and WORD<TAB>plays lines."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        meta = json.loads(lines[0].removeprefix("# "))
        plays = {word: int(n) for word, n in (line.split("\t") for line in lines[1:] if line)}
    except (OSError, ValueError, IndexError) as exc:
        raise LexitrainError(f"{path}: cannot read the playability figures ({exc})") from None
    return meta, plays


def write_shipped(path: Path, plays: Mapping[str, int], meta: Mapping[str, Any]) -> None:
    """Write figures to ship with a list: most played first."""
    lines = [f"# {json.dumps(dict(meta), sort_keys=True)}"]
    lines += [f"{word}\t{n}" for word, n in sorted(plays.items(), key=lambda item: (-item[1], item[0])) if n > 0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def copy_shipped(folder: Path, content_hash: str, length: Callable[[str], int]) -> bool:
    """Store the shipped figures counted on these very words, if any are shipped; whether some were."""
    for path in sorted(shipped_dir().glob("*.tsv")):
        with path.open(encoding="utf-8") as head:
            if f'"content_hash": "{content_hash}"' not in head.readline():
                continue
        meta, plays = read_shipped(path)
        write(folder, plays, length, {**meta, "shipped": path.name})
        return True
    return False
