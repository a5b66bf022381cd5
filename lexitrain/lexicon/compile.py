"""Compile a word list into tries and probability-ordered SQLite tables.

Output folder (see docs/formats.md):
- `words.marisa`: marisa-trie of every word as tile codes (judge, prefixes);
- `reversed.marisa`: every word reversed (suffixes, back extensions);
- `alphagrams.marisa`: BytesTrie alphagram code -> word codes (anagrams, builds);
- `lexicon.sqlite`: tables `words`, `alphagrams` and `meta` (search, quizzes);
- `dawg-v3.bin`: the word graph the move generator searches (graph.py).
The words table, and the alphagram table with the tries and the graph, are
written side by side on two cores where the platform can fork: together
they are most of the build time.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import marisa_trie
import numpy as np

from lexitrain.errors import LexitrainError
from lexitrain.layouts import load_layout
from lexitrain.lexicon import graph, store
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.lexicon.probability import combinations, ranks, tile_counts
from lexitrain.lexicon.schema import SCHEMA_VERSION, write_alphagrams, write_words
from lexitrain.lexicon.wordlist import WordList, read_wordlist
from lexitrain.tiles import TileSet, load_tile_set

@dataclass
class BuildReport:
    name: str
    words: int
    by_length: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    bytes_on_disk: int = 0


@dataclass
class _Analysis:
    """Everything computed about a word list before anything is written."""

    codes: list[str]  # word codes in dictionary order
    alph_of: list[str]  # alphagram code of each word
    alphagrams: list[str]  # distinct alphagram codes
    alph_order: list[int]  # alphagram indexes in dictionary order
    word_alph: np.ndarray  # alphagram index of each word
    combos: np.ndarray  # (alphagrams, 3) exact combinations
    alph_rank: list[np.ndarray]  # per alphagram, 0/1/2 blanks
    word_rank: list[np.ndarray]  # per word, 0/1/2 blanks
    points: np.ndarray  # per alphagram
    vowels: np.ndarray  # per alphagram
    anagrams: np.ndarray  # per alphagram
    lengths: np.ndarray  # per alphagram


def compile_lexicon(
    source: Path,
    name: str,
    tiles_name: str = "english",
    board_name: str = "standard",
    compare: dict[str, str] | None = None,
    skip_invalid: bool = False,
    progress: Progress = quiet,
) -> BuildReport:
    """Build lexicon NAME from a word list, replacing any previous build atomically."""
    started = time.perf_counter()
    store.check_name(name)
    tiles = load_tile_set(tiles_name)
    layout = load_layout(board_name)
    progress("reading", 0, 3)
    wordlist = read_wordlist(Path(source), tiles, layout.longest_word, skip_invalid)
    others = _open_compared(compare or {}, name)
    progress("probabilities", 1, 3)
    analysis = _analyse(wordlist, tiles)
    word_lengths = analysis.lengths[analysis.word_alph]
    by_length = {str(k): int(v) for k, v in enumerate(np.bincount(word_lengths).tolist()) if v}
    manifest = {
        "name": name,
        "source": str(Path(source).resolve()),
        "tiles": tiles.name,
        "board": layout.name,
        "words": len(analysis.codes),
        "by_length": by_length,
        "compare": compare or {},
        "schema": SCHEMA_VERSION,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    progress("writing", 2, 3)
    build_dir = store.new_build_dir(name)
    try:
        _side_by_side(
            lambda: _write_words(build_dir, analysis, wordlist, tiles, others, manifest),
            lambda: _write_alphagrams_tries_and_graph(build_dir, analysis, tiles, name),
        )
        size = sum(p.stat().st_size for p in build_dir.iterdir())
        store.publish(name, build_dir, {**manifest, "bytes": size})
    except BaseException:
        store.discard(build_dir)
        raise
    progress("done", 3, 3)
    return BuildReport(
        name, len(analysis.codes), by_length, wordlist.warnings, time.perf_counter() - started, size
    )


def _open_compared(compare: dict[str, str], name: str) -> dict[str, tuple[str, marisa_trie.Trie]]:
    from lexitrain.lexicon.lexicon import open_lexicon

    others = {}
    for other, symbol in compare.items():
        if other == name:
            raise LexitrainError(f"--compare {other}: a lexicon cannot be compared with itself")
        others[other] = (symbol, open_lexicon(other).trie)
    return others


def _analyse(wordlist: WordList, tiles: TileSet) -> _Analysis:
    in_order = tiles.codes_in_order  # then codes sort as plain strings
    codes = sorted(wordlist.definitions, key=None if in_order else tiles.sort_key)
    n = len(codes)
    alph_of = ["".join(sorted(c)) for c in codes] if in_order else list(map(tiles.alphagram_code, codes))
    alph_index: dict[str, int] = {}
    for a in alph_of:
        alph_index.setdefault(a, len(alph_index))
    alphagrams = list(alph_index)
    word_alph = np.fromiter((alph_index[a] for a in alph_of), dtype=np.int64, count=n)
    counts = tile_counts(alphagrams, tiles)
    combos = combinations(alphagrams, tiles, counts)
    lengths = counts.sum(axis=1)
    alph_keys = alphagrams if in_order else list(map(tiles.sort_key, alphagrams))
    alph_order = sorted(range(len(alphagrams)), key=alph_keys.__getitem__)
    alph_ties = np.empty(len(alphagrams), dtype=np.int64)
    alph_ties[alph_order] = np.arange(len(alphagrams))
    word_ties = alph_ties[word_alph] * n + np.arange(n)  # ties: alphagram, then word
    word_lengths = lengths[word_alph]
    vowel_mask = np.array([tiles.is_vowel(t) for t in tiles.letters], dtype=np.int64)
    return _Analysis(
        codes=codes,
        alph_of=alph_of,
        alphagrams=alphagrams,
        alph_order=alph_order,
        word_alph=word_alph,
        combos=combos,
        alph_rank=[ranks(lengths, combos[:, b], alph_ties) for b in range(3)],
        word_rank=[ranks(word_lengths, combos[word_alph, b], word_ties) for b in range(3)],
        points=counts @ np.array(tiles.points, dtype=np.int64),
        vowels=counts @ vowel_mask,
        anagrams=np.bincount(word_alph, minlength=len(alphagrams)),
        lengths=lengths,
    )


def _hooks(codes: list[str], code_set: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Front and back hook tiles of every word, found from the longer words.

    `codes` in dictionary order makes each word's hooks come out in tile order.
    """
    front: dict[str, str] = defaultdict(str)
    back: dict[str, str] = defaultdict(str)
    for code in codes:
        if len(code) > 2:
            if code[1:] in code_set:
                front[code[1:]] += code[0]
            if code[:-1] in code_set:
                back[code[:-1]] += code[-1]
    return front, back


def _sql_int(value: int) -> int | str:
    """SQLite integers are 64-bit; larger exact counts are kept as text."""
    return value if value < 2**63 else str(value)


def _write_words(
    out: Path,
    a: _Analysis,
    wordlist: WordList,
    tiles: TileSet,
    others: dict[str, tuple[str, marisa_trie.Trie]],
    manifest: dict,
) -> None:
    codes = a.codes
    code_set = set(codes)
    front, back = _hooks(codes, code_set)
    show = tiles.display_alphagram if tiles.multi else str
    no_hooks = [""] * len(codes)
    symbols = (
        ["".join(s for s, trie in others.values() if c not in trie) for c in codes]
        if others
        else no_hooks
    )
    wa = a.word_alph
    rows = zip(
        list(map(tiles.decode, codes)) if tiles.multi else codes,
        list(map(show, a.alph_of)),
        map(len, codes),
        map(wordlist.definitions.__getitem__, codes),
        map(show, map(front.get, codes, no_hooks)),
        map(show, map(back.get, codes, no_hooks)),
        [c[1:] in code_set for c in codes],
        [c[:-1] in code_set for c in codes],
        a.points[wa].tolist(),
        a.vowels[wa].tolist(),
        symbols,
        *(r.tolist() for r in a.word_rank),
    )
    meta = {k: v if isinstance(v, str) else json.dumps(v) for k, v in manifest.items()}
    write_words(out, rows, meta)


def _write_alphagrams_tries_and_graph(out: Path, a: _Analysis, tiles: TileSet, name: str) -> None:
    codes = a.codes
    graph.save(graph.from_codes(codes, tiles, name), out / graph.FILE_NAME)
    marisa_trie.Trie(codes).save(str(out / "words.marisa"))
    marisa_trie.Trie([c[::-1] for c in codes]).save(str(out / "reversed.marisa"))
    values = (c.encode("utf-8") for c in codes)
    marisa_trie.BytesTrie(zip(a.alph_of, values)).save(str(out / "alphagrams.marisa"))
    show = tiles.display_alphagram if tiles.multi else str
    order = np.array(a.alph_order)  # once: numpy indexing by a list converts it each time
    combos = a.combos[order].T.tolist()  # by column: no list per row to transpose
    if a.combos.dtype == object:
        combos = [[_sql_int(v) for v in column] for column in combos]
    rows = zip(
        [show(a.alphagrams[j]) for j in a.alph_order],
        a.lengths[order].tolist(),
        a.anagrams[order].tolist(),
        *combos,
        *(r[order].tolist() for r in a.alph_rank),
    )
    write_alphagrams(out, rows)


def _side_by_side(child_job: Callable[[], None], own_job: Callable[[], None]) -> None:
    """Run two independent writers at once: one in a forked child, one here.

    Where there is no fork (Windows), they simply run one after the other.
    A failure in the child comes back here as a LexitrainError.
    """
    if not hasattr(os, "fork"):
        child_job()
        own_job()
        return
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: do the job, report any failure, never return
        os.close(read_end)
        status = 0
        try:
            child_job()
        except BaseException as exc:  # noqa: BLE001 - everything must reach the parent
            os.write(write_end, f"{type(exc).__name__}: {exc}".encode()[:4000])
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        own_job()
    finally:
        with os.fdopen(read_end, "rb") as pipe:
            failure = pipe.read().decode(errors="replace")
        _, status = os.waitpid(pid, 0)
    if failure or status != 0:
        raise LexitrainError(f"writing the lexicon database failed: {failure or f'status {status}'}")
