"""Compile a word list into tries and probability-ordered SQLite tables.

Output folder (see docs/formats.md):
- `words.marisa`: marisa-trie of every word as tile codes (judge, prefixes);
- `reversed.marisa`: every word reversed (suffixes, back extensions);
- `alphagrams.marisa`: BytesTrie alphagram code -> word codes (anagrams, builds);
- `lexicon.sqlite`: tables `words`, `alphagrams` and `meta` (search, quizzes).
"""

from __future__ import annotations

import sqlite3
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import marisa_trie
import numpy as np
import sqlite_utils

from lexitrain.errors import LexitrainError
from lexitrain.layouts import load_layout
from lexitrain.lexicon import store
from lexitrain.lexicon.probability import combinations, ranks, tile_counts
from lexitrain.lexicon.wordlist import WordList, read_wordlist
from lexitrain.tiles import TileSet, load_tile_set

Progress = Callable[[str, int, int], None]
SCHEMA_VERSION = 1

WORD_COLUMNS = {
    "word": str,
    "alphagram": str,
    "length": int,
    "definition": str,
    "front_hooks": str,
    "back_hooks": str,
    "inner_front": int,
    "inner_back": int,
    "points": int,
    "vowels": int,
    "symbols": str,
    "probability_rank0": int,
    "probability_rank1": int,
    "probability_rank2": int,
}
ALPHAGRAM_COLUMNS = {
    "alphagram": str,
    "length": int,
    "anagrams": int,
    "combinations0": int,
    "combinations1": int,
    "combinations2": int,
    "alphagram_rank0": int,
    "alphagram_rank1": int,
    "alphagram_rank2": int,
}


@dataclass
class BuildReport:
    name: str
    words: int
    by_length: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    bytes_on_disk: int = 0


def _quiet(stage: str, done: int, total: int) -> None:
    pass


def _hooks(codes: list[str], code_set: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Front and back hook tiles of every word, found from the longer words.

    `codes` in dictionary order makes each word's hooks come out in tile order.
    """
    front: dict[str, str] = defaultdict(str)
    back: dict[str, str] = defaultdict(str)
    codes_ = code_set
    for code in codes:
        if len(code) > 2:
            if code[1:] in codes_:
                front[code[1:]] += code[0]
            if code[:-1] in codes_:
                back[code[:-1]] += code[-1]
    return front, back


def _sql_int(value: int) -> int | str:
    """SQLite integers are 64-bit; larger exact counts are kept as text."""
    return value if value < 2**63 else str(value)


def compile_lexicon(
    source: Path,
    name: str,
    tiles_name: str = "english",
    board_name: str = "standard",
    compare: dict[str, str] | None = None,
    skip_invalid: bool = False,
    progress: Progress = _quiet,
) -> BuildReport:
    """Build lexicon NAME from a word list, replacing any previous build atomically."""
    started = time.perf_counter()
    store.check_name(name)
    tiles = load_tile_set(tiles_name)
    layout = load_layout(board_name)
    progress("reading", 0, 1)
    wordlist = read_wordlist(Path(source), tiles, layout.longest_word, skip_invalid)
    others = _open_compared(compare or {}, name)
    progress("reading", 1, 1)
    build_dir = store.new_build_dir(name)
    try:
        report = _build(wordlist, tiles, build_dir, others, progress)
        manifest = {
            "name": name,
            "source": str(Path(source).resolve()),
            "tiles": tiles.name,
            "board": layout.name,
            "words": report.words,
            "by_length": report.by_length,
            "compare": compare or {},
            "schema": SCHEMA_VERSION,
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        _write_meta(build_dir / "lexicon.sqlite", manifest)
        report.bytes_on_disk = sum(p.stat().st_size for p in build_dir.iterdir())
        store.publish(name, build_dir, {**manifest, "bytes": report.bytes_on_disk})
    except BaseException:
        store.discard(build_dir)
        raise
    report.name = name
    report.warnings = wordlist.warnings
    report.seconds = time.perf_counter() - started
    return report


def _open_compared(compare: dict[str, str], name: str) -> dict[str, tuple[str, marisa_trie.Trie]]:
    from lexitrain.lexicon.lexicon import open_lexicon

    others = {}
    for other, symbol in compare.items():
        if other == name:
            raise LexitrainError(f"--compare {other}: a lexicon cannot be compared with itself")
        others[other] = (symbol, open_lexicon(other).trie)
    return others


def _build(
    wordlist: WordList,
    tiles: TileSet,
    out: Path,
    others: dict[str, tuple[str, marisa_trie.Trie]],
    progress: Progress,
) -> BuildReport:
    definitions = wordlist.definitions
    codes = sorted(definitions, key=tiles.sort_key)
    n = len(codes)
    code_set = set(codes)

    progress("tries", 0, 3)
    alph_of = [tiles.alphagram_code(c) for c in codes]
    marisa_trie.Trie(codes).save(str(out / "words.marisa"))
    progress("tries", 1, 3)
    marisa_trie.Trie([c[::-1] for c in codes]).save(str(out / "reversed.marisa"))
    progress("tries", 2, 3)
    marisa_trie.BytesTrie(zip(alph_of, (c.encode("utf-8") for c in codes))).save(
        str(out / "alphagrams.marisa")
    )
    progress("tries", 3, 3)

    progress("probabilities", 0, 1)
    alph_index: dict[str, int] = {}
    for a in alph_of:
        alph_index.setdefault(a, len(alph_index))
    alphagrams = list(alph_index)
    word_alph = np.fromiter((alph_index[a] for a in alph_of), dtype=np.int64, count=n)
    anagram_count = np.bincount(word_alph, minlength=len(alphagrams))
    counts = tile_counts(alphagrams, tiles)
    alph_points = counts @ np.array(tiles.points, dtype=np.int64)
    vowel_mask = np.array([tiles.is_vowel(t) for t in tiles.letters], dtype=np.int64)
    alph_vowels = counts @ vowel_mask
    combos = combinations(alphagrams, tiles, counts)
    alph_lengths = counts.sum(axis=1)
    alph_sorted = sorted(range(len(alphagrams)), key=lambda j: tiles.sort_key(alphagrams[j]))
    alph_ties = np.empty(len(alphagrams), dtype=np.int64)
    alph_ties[alph_sorted] = np.arange(len(alphagrams))
    alph_rank = [ranks(alph_lengths, [c[b] for c in combos], alph_ties) for b in range(3)]
    word_lengths = alph_lengths[word_alph]
    word_ties = alph_ties[word_alph] * n + np.arange(n)  # codes are in word order
    word_rank = [
        ranks(word_lengths, [combos[j][b] for j in word_alph.tolist()], word_ties).tolist()
        for b in range(3)
    ]
    progress("probabilities", 1, 1)

    progress("hooks", 0, 1)
    front, back = _hooks(codes, code_set)
    progress("hooks", 1, 1)

    decode, show = tiles.decode, tiles.display_alphagram
    if not tiles.multi:
        decode = show = str  # codes are the letters themselves
    symbol_of = [
        "".join(sym for sym, trie in others.values() if code not in trie) for code in codes
    ] if others else [""] * n
    word_points = alph_points[word_alph].tolist()
    word_vowels = alph_vowels[word_alph].tolist()
    rows = [
        (
            decode(code), show(alph_of[i]), len(code), definitions[code],
            show(front.get(code, "")), show(back.get(code, "")),
            code[1:] in code_set, code[:-1] in code_set,
            word_points[i], word_vowels[i], symbol_of[i],
            word_rank[0][i], word_rank[1][i], word_rank[2][i],
        )
        for i, code in enumerate(codes)
    ]
    ranks_t = [r.tolist() for r in alph_rank]
    lengths_t = alph_lengths.tolist()
    anagrams_t = anagram_count.tolist()
    alph_rows = [
        (show(a), lengths_t[j], anagrams_t[j], _sql_int(combos[j][0]), _sql_int(combos[j][1]),
         _sql_int(combos[j][2]), ranks_t[0][j], ranks_t[1][j], ranks_t[2][j])
        for j, a in ((j, alphagrams[j]) for j in alph_sorted)
    ]
    progress("database", 0, 1)
    _write_tables(out / "lexicon.sqlite", rows, alph_rows)
    progress("database", 1, 1)

    per_length = np.bincount(word_lengths)
    by_length = {str(k): int(v) for k, v in enumerate(per_length.tolist()) if v}
    return BuildReport("", n, by_length)


def _write_tables(path: Path, rows: list[tuple], alph_rows: list[tuple]) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    db = sqlite_utils.Database(conn)
    words = db["words"].create(WORD_COLUMNS, pk="word")
    alph = db["alphagrams"].create(ALPHAGRAM_COLUMNS, pk="alphagram")
    with conn:
        conn.executemany(f"INSERT INTO words VALUES ({','.join('?' * len(WORD_COLUMNS))})", rows)
        conn.executemany(
            f"INSERT INTO alphagrams VALUES ({','.join('?' * len(ALPHAGRAM_COLUMNS))})", alph_rows
        )
    words.create_index(["alphagram"])
    words.create_index(["length", "probability_rank2"])
    alph.create_index(["length", "alphagram_rank2"])
    conn.close()


def _write_meta(path: Path, manifest: dict) -> None:
    db = sqlite_utils.Database(path)
    db["meta"].insert_all(
        [{"key": k, "value": str(v)} for k, v in manifest.items()], pk="key", replace=True
    )
    db.close()
