"""Word files: one word a line, the way players keep lists (and Zyzzyva's In Word List reads them)."""

from __future__ import annotations

from pathlib import Path

from lexitrain.lexicon.wordlist import read_text


def word_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, word in uppercase) for each word of the file: the first thing on a
    line; blank lines and `#` comments are skipped. Unreadable or binary files are a one-line error."""
    return words_of_text(read_text(path))


def words_of_text(text: str) -> list[tuple[int, str]]:
    """(line number, word in uppercase) for each word of a word file's text, as `word_lines` reads them."""
    found: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        text = line.split("#", 1)[0].strip()
        if text:
            found.append((number, text.split()[0].upper()))
    return found
