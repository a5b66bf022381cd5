"""Read a word list: plain words, or Zyzzyva-style `WORD definition` lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.tiles import TileSet

MIN_TILES = 2


@dataclass
class WordList:
    """Words of a list keyed by their tile codes, with what was skipped."""

    source: Path
    definitions: dict[str, str] = field(default_factory=dict)  # code -> definition
    warnings: list[str] = field(default_factory=list)
    skipped_invalid: int = 0
    skipped_unplayable: int = 0
    duplicates: int = 0

    @property
    def codes(self) -> list[str]:
        return list(self.definitions)


def _decode_text(path: Path, data: bytes) -> str:
    if b"\x00" in data:
        raise LexitrainError(f"{path}: binary data, not a word list")
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
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise LexitrainError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LexitrainError(f"{path}: is a folder, not a word list") from None
    except OSError as exc:
        raise LexitrainError(f"{path}: cannot read ({exc.strerror})") from None
    text = _decode_text(path, data)
    result = WordList(path)
    definitions = result.definitions
    encode = tiles.encode
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, definition = line.partition(" ") if "\t" not in line else line.replace("\t", " ").partition(" ")
        try:
            code = encode(word)
        except ValueError as exc:
            message = f"{path}:{lineno}: {word!r}: {exc}"
            if not skip_invalid:
                raise LexitrainError(message + " (use --skip-invalid to skip such words)") from None
            result.skipped_invalid += 1
            result.warnings.append(message + "; skipped")
            continue
        if not MIN_TILES <= len(code) <= max_tiles:
            result.skipped_unplayable += 1
            result.warnings.append(
                f"{path}:{lineno}: {word.upper()!r} has {len(code)} tiles; "
                f"unplayable (words are {MIN_TILES}-{max_tiles} tiles); skipped"
            )
            continue
        definition = definition.strip()
        if code in definitions:
            result.duplicates += 1
            if definition and not definitions[code]:
                definitions[code] = definition
            continue
        definitions[code] = definition
    if not definitions:
        raise LexitrainError(f"{path}: no words found")
    return result
