"""Compile a word list into tries, a word graph and probability-ordered SQLite tables.

Output folder (see docs/formats.md):
- `words.marisa`: marisa-trie of every word as tile codes (judge, prefixes);
- `reversed.marisa`: every word reversed (suffixes, back extensions);
- `alphagrams.marisa`: BytesTrie alphagram code -> word codes (anagrams, builds);
- `words.sqlite`, `alphagrams.sqlite`: tables `words` and `meta`, and `alphagrams`
  (search, quizzes; schema.py);
- `dawg-v3.bin`: the word graph the move generator searches (graph.py).
Where the platform can fork, the files are written by three processes on
the machine's cores: the tries of words and the graph as soon as the words
are sorted (they need nothing else), the words table once the analysis is
done, and the alphagram table and trie by the build itself.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, NamedTuple

import marisa_trie
import numpy as np

from lexitrain.children import end_with_parent, may_fork
from lexitrain.errors import LexitrainError
from lexitrain.layouts import load_layout
from lexitrain.lexicon import graph, playability, store
from lexitrain.lexicon.analysis import Analysis, analyse
from lexitrain.lexicon.definitions import all_written_out
from lexitrain.lexicon.lexicon import TILES_FILE, content_hash
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.lexicon.schema import SCHEMA_VERSION, write_alphagrams, write_words
from lexitrain.lexicon.wordlist import WordList, read_wordlist
from lexitrain.tiles import TileSet, is_shipped_tile_set, read_tile_csv, tile_set_path

#: free space below which a failed write is put down to a full disk (a compiled ENABLE is about 34 MB)
FREE_SPACE_WANTED = 40 << 20

class Compared(NamedTuple):
    """A lexicon the build marks its words against: a word not in `words` gets `symbol`."""

    symbol: str
    words: marisa_trie.Trie


@dataclass
class BuildReport:
    name: str
    words: int
    by_length: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    bytes_on_disk: int = 0
    duplicates: int = 0  # lines repeating a word (kept once)


def compile_lexicon(
    source: Path,
    name: str,
    tiles_name: str = "english",
    board_name: str = "standard",
    compare: Mapping[str, Compared] | None = None,
    skip_invalid: bool = False,
    progress: Progress = quiet,
    definitions: Path | None = None,
    revision: str | None = None,
) -> BuildReport:
    """Build lexicon NAME from a word list, replacing any previous build atomically; DEFINITIONS,
    a file of `WORD definition` lines, defines the words the list itself leaves undefined;
    REVISION marks an embedded list's build, so that a newer one is compiled again.
    A write that fails (a full disk, a read-only home) is one line saying what to do."""
    try:
        return _compile(source, name, tiles_name, board_name, compare, skip_invalid, progress, definitions, revision)
    except (OSError, sqlite3.Error, RuntimeError) as exc:  # marisa reports a failed write as RuntimeError
        raise _write_failed(name, exc) from None


def _write_failed(name: str, exc: BaseException) -> LexitrainError:
    """The one-line error for a build that could not write its files."""
    folder = store.lexicons_dir()
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).split(": ")[-1]
    if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        advice = "point LEXITRAIN_HOME at a folder you can write, and run again"
    elif shutil.disk_usage(folder).free < FREE_SPACE_WANTED or (isinstance(exc, OSError) and exc.errno == errno.ENOSPC):
        reason, advice = "the disk is full", f"free some space (ENABLE takes about {FREE_SPACE_WANTED >> 20} MB) and run again"
    else:
        advice = "check the folder and run again"
    return LexitrainError(f"cannot build lexicon {name!r} in {folder}: {reason}; {advice} (nothing was changed)")


def _compile(
    source: Path,
    name: str,
    tiles_name: str,
    board_name: str,
    compare: Mapping[str, Compared] | None,
    skip_invalid: bool,
    progress: Progress,
    definitions: Path | None,
    revision: str | None,
) -> BuildReport:
    started = time.perf_counter()
    store.check_name(name)
    tiles_path = tile_set_path(tiles_name)
    tiles = read_tile_csv(tiles_path, tiles_path.stem)
    layout = load_layout(board_name)
    progress("reading", 0, 3)
    wordlist = read_wordlist(Path(source), tiles, layout.longest_word, skip_invalid)
    if definitions is not None:
        _add_definitions(wordlist, read_wordlist(definitions, tiles, layout.longest_word, skip_invalid=True))
    others = dict(compare or {})
    codes = sorted(wordlist.definitions, key=None if tiles.codes_in_order else tiles.sort_key)
    progress("probabilities", 1, 3)
    build_dir = store.new_build_dir(name)
    try:
        own_tiles: dict[str, str] = {}
        if not is_shipped_tile_set(tiles_path):  # the lexicon keeps its own copy: the file may move or change
            shutil.copyfile(tiles_path, build_dir / TILES_FILE)
            own_tiles = {"tiles_file": TILES_FILE}
        with _Children() as children:
            children.start(lambda: _write_tries_and_graph(build_dir, codes, tiles, name))
            analysis = analyse(codes, tiles)
            by_length = {str(k): int(v) for k, v in enumerate(np.bincount(analysis.word_lengths).tolist()) if v}
            manifest = {
                "name": name,
                "source": str(Path(source).resolve()),
                "source_sha256": wordlist.sha256,  # the list's very bytes, as read for its words
                "tiles": tiles.name,
                **own_tiles,
                "board": layout.name,
                "words": len(codes),
                "by_length": by_length,
                "compare": {other: c.symbol for other, c in others.items()},
                "content_hash": content_hash(tiles.name, codes),
                "schema": SCHEMA_VERSION,
                **({"revision": revision} if revision else {}),
                **({"definitions": str(Path(definitions).resolve())} if definitions else {}),
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            progress("writing", 2, 3)
            children.start(lambda: _write_words(build_dir, analysis, wordlist, tiles, others, manifest))
            _write_alphagrams(build_dir, analysis, tiles)
        playability.copy_shipped(build_dir, str(manifest["content_hash"]), lambda word: len(tiles.encode(word)))
        size = sum(p.stat().st_size for p in build_dir.iterdir())
        store.publish(name, build_dir, {**manifest, "bytes": size})
    except BaseException:
        store.discard(build_dir)
        raise
    progress("done", 3, 3)
    return BuildReport(name, len(codes), by_length, wordlist.warnings, time.perf_counter() - started, size,
                       wordlist.duplicates)


def _add_definitions(wordlist: WordList, extra: WordList) -> None:
    """Give each word of WORDLIST that has no definition its definition in EXTRA (words only
    EXTRA lists are not added: the list says what is a word)."""
    own = wordlist.definitions
    for code, text in extra.definitions.items():
        if text and own.get(code) == "":
            own[code] = text


#: between key and value in a marisa BytesTrie's keys (its default)
_VALUE_SEPARATOR = b"\xff"


def _sql_int(value: int) -> int | str:
    """SQLite integers are 64-bit; larger exact counts are kept as text."""
    return value if value < 2**63 else str(value)


def _write_words(
    out: Path,
    a: Analysis,
    wordlist: WordList,
    tiles: TileSet,
    others: dict[str, Compared],
    manifest: dict,
) -> None:
    codes = a.codes
    texts = [codes, a.alph_of, a.front_hooks, a.back_hooks]  # codes are the text of single-character tiles
    if tiles.multi:
        show = tiles.display_alphagram
        texts = [list(map(tiles.decode, codes)), *(list(map(show, column)) for column in texts[1:])]
    words, alphagrams, front_hooks, back_hooks = texts
    symbols = (
        ["".join(s for s, trie in others.values() if c not in trie) for c in codes]
        if others
        else [""] * len(codes)
    )
    wa = a.word_alph
    rows = zip(
        words,
        alphagrams,
        a.word_lengths.tolist(),
        all_written_out(words, list(map(wordlist.definitions.__getitem__, codes))),
        front_hooks,
        back_hooks,
        a.inner_front.tolist(),
        a.inner_back.tolist(),
        a.points[wa].tolist(),
        a.vowels[wa].tolist(),
        symbols,
        *(r.tolist() for r in a.word_rank),
    )
    meta = {k: v if isinstance(v, str) else json.dumps(v) for k, v in manifest.items()}
    write_words(out, rows, meta)


def _write_tries_and_graph(out: Path, codes: list[str], tiles: TileSet, name: str) -> None:
    graph.save(graph.from_codes(codes, tiles, name), out / graph.FILE_NAME)
    marisa_trie.Trie(codes).save(str(out / "words.marisa"))
    marisa_trie.Trie([c[::-1] for c in codes]).save(str(out / "reversed.marisa"))


def _write_alphagrams(out: Path, a: Analysis, tiles: TileSet) -> None:
    _alphagram_trie(a).save(str(out / "alphagrams.marisa"))
    combos = a.combos.T.tolist()  # by column: no list per row to transpose
    if a.combos.dtype == object:
        combos = [[_sql_int(v) for v in column] for column in combos]
    rows = zip(
        list(map(tiles.display_alphagram, a.alphagrams)) if tiles.multi else a.alphagrams,
        a.lengths.tolist(),
        a.anagrams.tolist(),
        *combos,
        *(r.tolist() for r in a.alph_rank),
    )
    write_alphagrams(out, rows)


def _alphagram_trie(a: Analysis) -> marisa_trie.BinaryTrie:
    """Alphagram code -> word codes: the file marisa's BytesTrie writes, built from its
    keys (`alphagram`, its value separator, `word`) made in one go."""
    joined = "\n".join(map("\0".join, zip(a.alph_of, a.codes))).encode("utf-8")
    return marisa_trie.BinaryTrie(joined.replace(b"\0", _VALUE_SEPARATOR).split(b"\n"))


class ChildFailed(RuntimeError):
    """A build job in a child process failed (its exception's type and text)."""


class _Children:
    """Jobs run in forked child processes beside the build's own work, every one
    waited for on leaving the `with` (and, if the build failed, stopped first),
    so nothing writes into a build folder once it is published or discarded.
    A child's failure comes back here as ChildFailed. Where this process may
    not fork (`may_fork`: Windows, or other threads), each job simply runs
    when started.
    """

    def __init__(self) -> None:
        self._running: list[tuple[int, int]] = []  # (pid, read end of its pipe)

    def __enter__(self) -> _Children:
        return self

    def start(self, job: Callable[[], None]) -> None:
        if not may_fork():
            job()
            return
        read_end, write_end = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: do the job, report any failure, never return
            end_with_parent(parent)
            os.close(read_end)
            status = 0
            try:
                job()
            except BaseException as exc:  # noqa: BLE001 - everything must reach the parent
                os.write(write_end, f"{type(exc).__name__}: {exc}".encode()[:4000])
                status = 1
            finally:
                os._exit(status)
        os.close(write_end)
        self._running.append((pid, read_end))

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        failures = []
        for pid, read_end in self._running:
            if kind is not None:
                os.kill(pid, signal.SIGTERM)
            with os.fdopen(read_end, "rb") as pipe:
                failure = pipe.read().decode(errors="replace")
            _, status = os.waitpid(pid, 0)
            if failure or (status != 0 and kind is None):
                failures.append(failure or f"status {status}")
        self._running = []
        if failures and kind is None:
            told = failures[0].removeprefix(f"{LexitrainError.__name__}: ")
            raise LexitrainError(told) if told != failures[0] else ChildFailed(failures[0])
