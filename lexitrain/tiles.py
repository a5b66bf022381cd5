"""Tile sets: which tiles a game has, how many of each, what they score.

A tile may be several characters (Spanish CH, Catalan L·L). Words are
tokenised into tiles greedily, longest tile first; `[CH]` forces a
multi-character tile where a text would otherwise be ambiguous, as in CGP.
Each tile also has a one-character *code* so that a word becomes a string
with one character per tile: alphagrams, tries and the move generator work
on codes and never have to think about multi-character tiles again.

A `Rack` is tiles held in no order (a rack, letters to anagram, tiles to
exchange): the one reading of such text for every command.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped

BLANK = "?"
#: tiles on a player's rack
RACK_SIZE = 7
VOWELS = frozenset("AEIOUÀÁÂÄÈÉÊËÌÍÎÏÒÓÔÖÙÚÛÜĄĘ")
_PRIVATE_USE = 0xE000


@dataclass(frozen=True)
class TileSet:
    """Letters in play order, their counts in the bag and their points."""

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    points: tuple[int, ...]
    blanks: int
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.letters)})

    # -- codes -----------------------------------------------------------------
    @cached_property
    def codes(self) -> tuple[str, ...]:
        """One character per tile: the letter itself, or a private-use char."""
        return tuple(t if len(t) == 1 else chr(_PRIVATE_USE + i) for i, t in enumerate(self.letters))

    @cached_property
    def _code_index(self) -> dict[str, int]:
        return {c: i for i, c in enumerate(self.codes)}

    @cached_property
    def multi(self) -> tuple[str, ...]:
        """Multi-character tiles, longest first (the tokeniser tries these first)."""
        return tuple(sorted((t for t in self.letters if len(t) > 1), key=len, reverse=True))

    @property
    def size(self) -> int:
        return len(self.letters)

    def index(self, tile: str) -> int:
        """Position of a tile in the set (its sort order); KeyError if absent."""
        return self._index[tile]

    def code_index(self, code: str) -> int:
        return self._code_index[code]

    # -- tokenising ------------------------------------------------------------
    def tokenize(self, text: str) -> list[str]:
        """Split text into tiles. Lowercase letters stay lowercase (blanks).

        Plain text is read greedily (CH is the CH tile). Text with any `[...]`
        is read strictly: bracketed groups are tiles, other characters single
        tiles, so `[CH]` and `C[H]` are told apart. Raises ValueError naming
        the first character that is not a tile.
        """
        text = unicodedata.normalize("NFC", text)  # Ñ typed as N + combining tilde is still Ñ
        strict = "[" in text
        tiles: list[str] = []
        i = 0
        n = len(text)
        upper = text.upper()
        while i < n:
            ch = text[i]
            if ch == BLANK:
                tiles.append(BLANK)
                i += 1
                continue
            if ch == "[":
                end = text.find("]", i)
                if end < 0:
                    raise ValueError(f"unclosed '[' in {text!r}")
                tile = text[i + 1 : end]
                if tile.upper() not in self._index:
                    raise ValueError(f"{tile!r} is not a tile of the {self.name} set")
                tiles.append(tile)
                i = end + 1
                continue
            if not strict:
                for m in self.multi:
                    if upper.startswith(m, i):
                        tiles.append(text[i : i + len(m)])
                        i += len(m)
                        break
                else:
                    m = ""
                if m:
                    continue
            if upper[i] not in self._index:
                raise ValueError(f"{ch!r} is not a tile of the {self.name} set")
            tiles.append(ch)
            i += 1
        return tiles

    def spell(self, tiles: list[str]) -> str:
        """Tiles as text that `tokenize` reads back to exactly these tiles."""
        if not self.multi:
            return "".join(tiles)
        text = "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)
        if "[" not in text and self.tokenize(text) != tiles:
            text = f"[{tiles[0]}]" + text[len(tiles[0]):]  # any bracket reads strictly
        return text

    @cached_property
    def _plain_word(self) -> re.Pattern[str]:
        """Matches an uppercase word made only of single-character tiles."""
        singles = "".join(re.escape(t) for t in self.letters if len(t) == 1)
        return re.compile(f"[{singles}]+")

    def encode(self, text: str) -> str:
        """Word -> code string, one character per tile (case folded to upper).

        Raises ValueError naming the first character that is not a tile.
        """
        upper = text.upper()
        if not self.multi and self._plain_word.fullmatch(upper):
            return upper  # single-character tiles are their own codes
        codes = self.codes
        tiles = self.tokenize(text)
        if BLANK in tiles:
            raise ValueError(f"{BLANK!r} is a blank, not a letter: a word has letters only")
        return "".join(codes[self._index[t.upper()]] for t in tiles)

    def decode(self, code: str) -> str:
        """Code string -> word as players write it (multi-letter tiles joined)."""
        if not self.multi:
            return code
        letters = self.letters
        return "".join(letters[self._code_index[c]] for c in code)

    @cached_property
    def codes_in_order(self) -> bool:
        """True when sorting codes by character already gives tile-set order."""
        return list(self.codes) == sorted(self.codes)

    def alphagram_code(self, code: str) -> str:
        """Codes sorted into tile-set order."""
        if self.codes_in_order:
            return "".join(sorted(code))
        return "".join(sorted(code, key=self._code_index.__getitem__))

    @cached_property
    def _sort_table(self) -> dict[int, str]:
        return {ord(c): chr(0x100 + i) for i, c in enumerate(self.codes)}

    def sort_key(self, code: str) -> str:
        """A string that sorts code strings into tile-set (dictionary) order."""
        return code if self.codes_in_order else code.translate(self._sort_table)

    def display_alphagram(self, code: str) -> str:
        """Codes (an alphagram, a rack) as text that reads back unambiguously."""
        if not self.multi:
            return code
        letters = self.letters
        return self.spell([letters[self._code_index[c]] for c in code])

    def alphagram(self, word: str) -> str:
        """The alphagram of a word, as text."""
        return self.display_alphagram(self.alphagram_code(self.encode(word)))

    # -- values ----------------------------------------------------------------
    def points_of(self, tile: str) -> int:
        """Points of a tile; a blank (`?` or a lowercase letter) scores 0."""
        if tile == BLANK or tile != tile.upper():
            return 0
        return self.points[self._index[tile]]

    def is_vowel(self, tile: str) -> bool:
        return tile.upper() in VOWELS


@dataclass(frozen=True)
class Rack:
    """Tiles held, in no order: a count per tile of the set (in set order)
    and a number of blanks."""

    tiles: TileSet = field(repr=False)
    counts: tuple[int, ...]
    blanks: int

    @property
    def size(self) -> int:
        return sum(self.counts) + self.blanks

    @staticmethod
    def of(tiles: TileSet, names: Iterable[str]) -> Rack:
        """The rack holding these tiles, named as `tokenize` gives them
        (`?` a blank, case ignored)."""
        counts = [0] * tiles.size
        blanks = 0
        for name in names:
            if name == BLANK:
                blanks += 1
            else:
                counts[tiles.index(name.upper())] += 1
        return Rack(tiles, tuple(counts), blanks)

    @staticmethod
    def parse(tiles: TileSet, text: str, what: str = "rack", *, required: bool = False,
              in_play: bool = False) -> Rack:
        """Read tiles as typed (`?` a blank, case ignored, `[CH]` allowed).

        `what` names the text in the one-line error (`rack 'AB1': '1' is not a
        tile of the english set`). `required`: refuse no tiles at all;
        `in_play`: a rack in a game, at most RACK_SIZE tiles and no more
        blanks than the set has."""
        stripped = text.strip()
        if required and not stripped:
            raise LexitrainError(f"empty {what}: give some letters, e.g. AEINRST (? is a blank)")
        try:
            rack = Rack.of(tiles, tiles.tokenize(stripped))
        except ValueError as exc:
            raise LexitrainError(f"{what} {text!r}: {exc}") from None
        if in_play and rack.size > RACK_SIZE:
            raise LexitrainError(f"{what} {text!r}: a rack holds at most {RACK_SIZE} tiles")
        if in_play and rack.blanks > tiles.blanks:
            raise LexitrainError(f"{what} {text!r}: the {tiles.name} set has {tiles.blanks} blanks")
        return rack

    def names(self) -> list[str]:
        """The tiles in set order, blanks (`?`) last."""
        letters = self.tiles.letters
        return [letters[i] for i, n in enumerate(self.counts) for _ in range(n)] + [BLANK] * self.blanks

    def lacking(self, names: Iterable[str]) -> Shortfall | None:
        """The first of these tiles (named as `names` gives them, in the order
        given) that the rack runs out of, with how many are wanted and held;
        None when it holds them all."""
        names = list(names)
        left = Counter(self.names())
        for name in names:
            if left[name] <= 0:
                return Shortfall(name, names.count(name), Counter(self.names())[name])
            left[name] -= 1
        return None


@dataclass(frozen=True)
class Shortfall:
    """A tile a play or exchange wants more of than the rack holds."""

    name: str  # as the rack names it (`?` for a blank)
    wanted: int
    held: int

    def said(self, rack: str, what: str = "the play") -> str:
        """`Q is not on the rack AEINRST`, or with some held, `the play needs 3 M, the rack KEMMEZN has 2`."""
        if not self.held:
            return f"{'a blank' if self.name == BLANK else self.name} is not on the rack {rack}"
        tile = "blanks" if self.name == BLANK else self.name
        return f"{what} needs {self.wanted} {tile}, the rack {rack} has {self.held}"


def tiles_dir() -> Path:
    return shipped("lexicons") / "tiles"


def available_tile_sets() -> list[str]:
    return sorted(p.stem for p in tiles_dir().glob("*.csv"))


def load_tile_set(name: str) -> TileSet:
    """Load a shipped tile set by name, or a CSV file by path."""
    path = tile_set_path(name)
    return read_tile_csv(path, path.stem)


def is_shipped_tile_set(path: Path) -> bool:
    """Whether a tile set's CSV is one lexitrain ships (a compiled lexicon names it; any other it keeps a copy of)."""
    return path.parent == tiles_dir()


def tile_set_path(name: str) -> Path:
    """The CSV of a shipped tile set named `name`, or `name` itself when it is a .csv file."""
    path = Path(name)
    if path.is_file() and path.suffix != ".csv":
        raise LexitrainError(f"{path}: a tile set file is a .csv of letter,count,points rows")
    if path.suffix != ".csv" or not path.is_file():
        path = tiles_dir() / f"{name}.csv"
    if not path.is_file():
        known = ", ".join(available_tile_sets())
        raise LexitrainError(f"unknown tile set {name!r} (known: {known})")
    return path


#: The most of one tile a bag may hold: far beyond any game's, small enough for the probability tables.
MAX_TILE_COUNT = 1000


def _check_tile_row(where: str, letter: str, count: int, value: int, seen: list[str]) -> None:
    """A row a bag can be made of, or a one-line error naming the file and line."""
    if not letter or any(ch.isspace() for ch in letter):
        raise LexitrainError(f"{where}: a tile needs a letter (got {letter!r})")
    if letter in seen:
        raise LexitrainError(f"{where}: tile {letter} is listed twice")
    if not 0 <= count <= MAX_TILE_COUNT or value < 0:
        raise LexitrainError(f"{where}: tile {letter}: count {count}, points {value}; "
                             f"a count is 0 to {MAX_TILE_COUNT} and points cannot be negative")


def read_tile_csv(path: Path, name: str) -> TileSet:
    """Parse `letter,count,points` rows; `?` is the blank."""
    letters: list[str] = []
    counts: list[int] = []
    points: list[int] = []
    blanks = 0
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except UnicodeDecodeError:
        raise LexitrainError(f"{path}: not a tile set (not UTF-8 text)") from None
    except (OSError, csv.Error) as exc:
        raise LexitrainError(f"{path}: cannot read the tile set ({getattr(exc, 'strerror', None) or exc})") from None
    for lineno, row in enumerate(rows, start=2):
        try:
            letter = row["letter"].strip().upper()
            count = int(row["count"])
            value = int(row["points"])
        except (KeyError, TypeError, ValueError, AttributeError):
            raise LexitrainError(f"{path}:{lineno}: expected letter,count,points") from None
        _check_tile_row(f"{path}:{lineno}", letter, count, value, letters)
        if letter == BLANK:
            blanks = count
            continue
        letters.append(letter)
        counts.append(count)
        points.append(value)
    if not letters:
        raise LexitrainError(f"{path}: no tiles")
    return TileSet(name, tuple(letters), tuple(counts), tuple(points), blanks)
