"""All of a lexicon's words in one newline-separated string, for regex scans.

Scanning one string with an anchored regex is several times faster than
matching 170,000 words one by one in Python. The string is kept in memory
and cached as a file in the lexicon's (immutable) build folder, so a fresh
process reads it in a few milliseconds instead of walking the trie; other
things worked out once from the words (the top stems) are kept there too.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from lexitrain.lexicon.lexicon import Lexicon

CACHE_FILE = "search-words.txt"
_CACHE: dict[tuple[int, ...], str] = {}


def build_identity(lex: Lexicon) -> tuple[int, ...]:
    """Names one build, even through hard-linked copies (size and time guard against inode reuse):
    a key for what is worked out once from a lexicon's words."""
    stat = (lex.folder / "words.marisa").stat()
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


def word_blob(lex: Lexicon) -> str:
    """'\\n' + every word code + '\\n', one per line."""
    identity = build_identity(lex)
    blob = _CACHE.get(identity)
    if blob is None:
        blob = _read_or_build(lex)
        _CACHE[identity] = blob
    return blob


def _read_or_build(lex: Lexicon) -> str:
    path = lex.folder / CACHE_FILE
    try:
        blob = path.read_text(encoding="utf-8")
        if blob.startswith("\n") and blob.count("\n") == lex.word_count + 1:  # whole: one line a word
            return blob
    except (OSError, UnicodeDecodeError):
        pass
    blob = "\n" + "\n".join(lex.trie.keys()) + "\n"
    _write_atomically(path, blob)  # best effort: a read-only folder just means no cache
    return blob


def cached_lines(path: Path, make: Callable[[], list[str]]) -> list[str]:
    """Lines kept in a file of the (immutable) build folder: read if there, else made and written
    (best effort: a read-only folder just means no cache)."""
    try:
        text = path.read_text(encoding="utf-8")
        if text.endswith("\n"):  # whole
            return text.splitlines()
    except (OSError, UnicodeDecodeError):
        pass
    lines = make()
    _write_atomically(path, "".join(line + "\n" for line in lines))
    return lines


def _write_atomically(path: Path, text: str) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def all_codes(lex: Lexicon) -> list[str]:
    return word_blob(lex)[1:-1].split("\n")


def codes_of_length(lex: Lexicon, length: int) -> list[str]:
    """Word codes of exactly LENGTH tiles."""
    return scan(lex, f"[^\n]{{{length}}}")


def scan(lex: Lexicon, regex_source: str) -> list[str]:
    """Word codes matching the regex source in full (it must not contain groups)."""
    return re.findall(f"\n({regex_source})(?=\n)", word_blob(lex))
