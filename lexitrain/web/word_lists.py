"""Word lists a player brings to the web app: uploaded and named, or a path to a text file.

The app may be driven by anyone who holds its key, so a path typed into the
word-file box is read only if it is a regular file of at most MAX_BYTES that
is text, and an error about it names the path and the reason, never a line
of the file (the file may be someone else's, /etc/passwd). An uploaded list
is the player's own: it is kept in their progress store under the name given
(`Words(upload=NAME)` plays it), so every process of a club serves it and no
server path ever names it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search.word_files import listed_words
from lexitrain.study.drills.requests import Words
from lexitrain.study.store import ProgressStore
from lexitrain.study.store.word_lists import CONTROL, LIST_NAME

#: The largest list read or kept (1 MB holds some 100,000 words).
MAX_BYTES = 1 << 20
FOLDER = "word-lists"


def checked_path(text: str) -> Path:
    """The regular text file of at most MAX_BYTES a path names, else a one-line error that quotes
    nothing of what the path holds."""
    path = Path(text.strip()).expanduser()
    try:
        info = os.stat(path)
    except OSError as exc:
        raise LexitrainError(f"word file {str(path)!r}: cannot read it ({exc.strerror or 'no access'})") from None
    if not stat.S_ISREG(info.st_mode):
        raise LexitrainError(f"word file {str(path)!r}: not a regular file (a folder, a device or a pipe): "
                             "give a text file of words, one a line")
    if info.st_size > MAX_BYTES:
        raise LexitrainError(f"word file {str(path)!r}: larger than {MAX_BYTES // 1024} KB")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise LexitrainError(f"word file {str(path)!r}: cannot read it ({exc.strerror or 'no access'})") from None
    if len(data) > MAX_BYTES or not _is_text(data):
        raise LexitrainError(f"word file {str(path)!r}: not a text file of words (larger than "
                             f"{MAX_BYTES // 1024} KB, binary, or not UTF-8)")
    return path


def save_list(store: ProgressStore, name: str, data: bytes, lex: Lexicon, now: float) -> str:
    """Keep an uploaded list in the player's store under its name (replacing one of that name); the name. A list
    with a line that is not a word of LEX is refused, naming the line and the word: the player fixes the typo
    now, not when the list is played."""
    name = name.strip()
    if not LIST_NAME.fullmatch(name):
        raise LexitrainError("a list's name: up to 60 letters, digits, spaces, dots, dashes or underscores")
    if not data.strip():
        raise LexitrainError(f"list {name!r}: the file is empty")
    text = _text(data) if len(data) <= MAX_BYTES else None
    if text is None:
        raise LexitrainError(f"list {name!r}: not a text file of words (larger than {MAX_BYTES // 1024} KB, "
                             "binary, or not UTF-8)")
    if not listed_words(lex, name, text):
        raise LexitrainError(f"list {name!r}: no words in it (one word a line; # starts a comment)")
    store.keep_word_list(name, text, now)
    return name


def adopt_list_files(store: ProgressStore, home: Path) -> None:
    """Lists an earlier lexitrain kept as files in the data folder (`word-lists/NAME.txt`) are kept in the store,
    under their names, the first time the app opens it after (a list of that name already there, or removed, stays
    as it is)."""
    folder = home / FOLDER
    if not folder.is_dir():
        return
    known = {version.name for version in store.list_versions()}  # (a list removed since is not brought back)
    for path in sorted(folder.glob("*.txt")):
        text = _text(path.read_bytes()) if path.stat().st_size <= MAX_BYTES else None
        if LIST_NAME.fullmatch(path.stem) and path.stem not in known and text is not None:
            store.keep_word_list(path.stem, text, path.stat().st_mtime)


def _is_text(data: bytes) -> bool:
    return _text(data) is not None


def _text(data: bytes) -> str | None:
    """The text of UTF-8 (or UTF-16 with its byte-order mark, as Windows saves lists) with no NUL nor other
    control bytes; None for anything else."""
    try:
        text = data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig")
    except UnicodeDecodeError:
        return None
    return None if CONTROL.search(text) else text


@dataclass(frozen=True)
class ListRecord:
    """How a list has gone, as Aerolith's saved lists say: attempts, accuracy, the best time of a
    finished attempt, the questions missed across attempts and those missed in the last one."""

    name: str
    attempts: int
    answered: int
    right: int
    best_seconds: float | None
    missed: list[tuple[str, int]]  # (alphagram, times missed), the most missed first
    missed_last_time: list[str]

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answered if self.answered else None


def list_record(store: ProgressStore, lexicon: str, name: str) -> ListRecord:
    """A list's record in a lexicon (its walls' sessions are named after it: `Words(upload=NAME).text()`)."""
    source = Words(upload=name).text()
    attempts = store.source_attempts(lexicon, source)
    finished = [ended - started for _, started, ended, answered, _ in attempts if ended is not None and answered]
    misses = store.source_misses(lexicon, source)
    last = max((session for session, _, _, answered, _ in attempts if answered), default=None)
    return ListRecord(name, sum(1 for a in attempts if a[3]), sum(a[3] for a in attempts), sum(a[4] for a in attempts),
                      min(finished, default=None), [(key, times) for key, times, _ in misses],
                      [key for key, _, session in misses if session == last])


def missed_list(store: ProgressStore, lex: Lexicon, name: str, alphagrams: list[str], now: float) -> str:
    """An uploaded list of the words of the alphagrams missed last time (`NAME - missed`), to play in one click;
    its name."""
    if not alphagrams:
        raise LexitrainError(f"list {name!r}: nothing was missed the last time it was played")
    words = sorted({word for key in alphagrams for word in lex.anagrams(key)})
    return save_list(store, f"{name[:50]} - missed", "".join(f"{w}\n" for w in words).encode(), lex, now)
