"""Word files: one word a line, the way players keep lists (and Zyzzyva's In Word List reads them)."""

from __future__ import annotations

from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
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


#: The lines not words that a list's error names (the rest are counted).
MOST_NAMED = 5


def listed_words(lex: Lexicon, name: str, text: str) -> list[str]:
    """The words of a named list's text (as `words_of_text` reads them), every one a word of LEX, else a one-line
    error naming the list and the lines that are not (the first MOST_NAMED of them, and how many more)."""
    found = words_of_text(text)
    bad = [(number, word) for number, word in found if word not in lex]
    if not bad:
        return [lex.tiles.decode(lex.tiles.encode(word)) for _, word in found]  # (its tiles as the lexicon spells them)
    named = [f"line {number}: {word}" for number, word in bad[:MOST_NAMED]]
    if len(bad) == 1:
        said = f"{named[0]} is not a word"
    elif len(bad) == 2:
        said = f"{named[0]} and {named[1]} are not words"
    else:
        more = f" (and {len(bad) - MOST_NAMED} more)" if len(bad) > MOST_NAMED else ""
        said = f"{', '.join(named)}{more} are not words"
    raise LexitrainError(f"list {name!r}: {said} of {lex.name}")
