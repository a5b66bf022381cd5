"""Read a word list: plain words, or Zyzzyva-style `WORD definition` lines (or Zyzzyva's database of one)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.definitions import SENSES
from lexitrain.tiles import TileSet

MIN_TILES = 2


class InvalidWord(LexitrainError):
    """A word of a list with a character outside the tile set; `line` names the file, the line and why, and the
    message adds `lexicon build`'s way to leave such words out (another command says its own)."""

    def __init__(self, line: str) -> None:
        super().__init__(line + " (use --skip-invalid to skip such words)")
        self.line = line


@dataclass
class WordList:
    """Words of a list keyed by their tile codes, with a warning for each word skipped."""

    source: Path
    sha256: str  # of the very bytes read (a build records it: the list its words came from, read once)
    definitions: dict[str, str] = field(default_factory=dict)  # code -> definition
    warnings: list[str] = field(default_factory=list)
    duplicates: int = 0  # lines repeating a word already read (kept once, their definitions joined)


def zyzzyva_database_lines(path: Path) -> list[str]:
    """The `WORD definition` lines of the lexicon database Zyzzyva makes of a word list
    (`lexicons/NAME.db`, its table `words` holding each word and its definition), in word order."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT word, definition FROM words ORDER BY word").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise LexitrainError(f"{path}: not a lexicon database Zyzzyva made ({exc})") from None
    lines = [f"{word} {definition or ''}".rstrip() for word, definition in rows if isinstance(word, str) and word]
    if not lines:
        raise LexitrainError(f"{path}: its words table holds no words")
    return lines


def read_text(path: Path, what: str = "a word list") -> str:
    """The text of a file of lines (`what` it should be, for the error), or a one-line error
    (missing, a folder, binary, not UTF-8)."""
    return _decode_text(path, _read_bytes(path, what), what)


def _read_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise LexitrainError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LexitrainError(f"{path}: is a folder, not {what}") from None
    except OSError as exc:
        raise LexitrainError(f"{path}: cannot read ({exc.strerror})") from None


def _decode_text(path: Path, data: bytes, what: str) -> str:
    """UTF-8 text (a byte-order mark is dropped), or UTF-16 with its byte-order mark:
    Windows PowerShell's `>` and Notepad's "Unicode" save lists that way."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")  # the codec reads and drops the byte-order mark
        except UnicodeDecodeError:
            raise LexitrainError(f"{path}: damaged UTF-16 text") from None
    if b"\x00" in data:
        raise LexitrainError(f"{path}: binary data, not {what}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LexitrainError(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x})") from None
    return text.removeprefix("\ufeff")


def read_wordlist(
    path: Path, tiles: TileSet, max_tiles: int, skip_invalid: bool = False
) -> WordList:
    """Parse a word list into tile codes, checking every word against the tile set.

    A character outside the tile set is an error naming the file and line,
    unless `skip_invalid`, when it is a counted warning. Words longer than the
    board (`max_tiles`) or shorter than two tiles can never be played: they are
    skipped with a warning.
    """
    data = _read_bytes(path, "a word list")
    sha256 = hashlib.sha256(data).hexdigest()
    text = _decode_text(path, data, "a word list")
    plain = _plain_words(text, tiles, max_tiles)
    if plain is not None:
        words = dict.fromkeys(plain, "")
        return WordList(path, sha256, words, duplicates=len(plain) - len(words))
    text = text.replace("\t", " ")
    entries: list[tuple[int, str, str]] = []  # (line number, word, definition)
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if line and line[0] != "#":
            word, _, definition = line.partition(" ")
            entries.append((lineno, word, definition))
    result = WordList(path, sha256)
    definitions = result.definitions
    for (lineno, word, definition), code in zip(entries, _encode_all(entries, tiles)):
        if code is None:
            message = f"{path}:{lineno}: {word!r}: {_why_not(word, tiles)}"
            if not skip_invalid:
                raise InvalidWord(message)
            result.warnings.append(message + "; skipped")
            continue
        if not MIN_TILES <= len(code) <= max_tiles:
            shown = word.upper() if len(word) <= 40 else word.upper()[:30] + "..."  # a runaway line, not a word
            result.warnings.append(
                f"{path}:{lineno}: {shown!r} has {len(code)} tiles; "
                f"unplayable (words are {MIN_TILES}-{max_tiles} tiles); skipped"
            )
            continue
        definition = definition.strip()
        if code in definitions:  # a word listed twice: a sense not yet read is added, not lost
            result.duplicates += 1
            known = definitions[code]
            if definition and definition not in known.split(SENSES):
                definitions[code] = f"{known}{SENSES}{definition}" if known else definition
            continue
        definitions[code] = definition
    if not definitions:
        raise LexitrainError(f"{path}: no words found")
    return result


def _plain_words(text: str, tiles: TileSet, max_tiles: int) -> list[str] | None:
    """The words of a list that holds only playable words of single-character
    tiles, one a line (most lists), read in a few passes over the whole text;
    None for any other list, which is read line by line."""
    if tiles.multi:
        return None
    upper = text.upper()
    if re.search(f"[^{re.escape(''.join(tiles.letters))}\r\n]", upper):
        return None  # a definition, a comment, a character that is no tile, ...
    words = upper.split()
    if not words or min(map(len, words)) < MIN_TILES or max(map(len, words)) > max_tiles:
        return None
    return words


def _encode_all(entries: list[tuple[int, str, str]], tiles: TileSet) -> Sequence[str | None]:
    """Tile codes of every word, None where a word is not made of tiles.

    Lists for single-character tile sets are checked in one pass over all the
    text: each word is then its own code.
    """
    upper = [word.upper() for _, word, _ in entries]
    if not tiles.multi:
        singles = re.escape("".join(tiles.letters))
        if not re.search(f"[^{singles}\n]", "\n".join(upper)):
            return upper
    codes: list[str | None] = []
    for word in upper:
        try:
            codes.append(tiles.encode(word))
        except ValueError:
            codes.append(None)
    return codes


def _why_not(word: str, tiles: TileSet) -> str:
    try:
        tiles.encode(word)
    except ValueError as exc:
        return str(exc)
    return "not a word of tiles"
