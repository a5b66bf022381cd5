"""A tile play, scored or not, and its GCG notation.

`8D QUITE` goes across from row 8, column D; `D8 QUITE` goes down from column
D, row 8. Tiles already on the board are written `.` (`8D QUIT.`), in
parentheses (`8D (QU)ITE`), or as their letters (old GCG files do this; the
board tells which squares were already filled). A blank is lowercase.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lexitrain.engine.board import BLANK_FLAG, Board, column_index, column_name, tile_number, tile_text
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, TileSet

#: a square of a parsed play whose letter is not known until it meets a board
UNKNOWN = -2

_POSITION = re.compile(r"^(?:(\d+)([A-Za-z]+)|([A-Za-z]+)(\d+))$")


class NotationError(LexitrainError):
    """A play written in a way that cannot be read."""


def parse_position(text: str) -> tuple[int, int, bool]:
    """`8D` -> (7, 3, across); `D8` -> (7, 3, down). Raises NotationError."""
    m = _POSITION.match(text.strip())
    if not m:
        raise NotationError(f"bad position {text!r}: expected e.g. 8D (across) or D8 (down)")
    if m.group(1):
        row, col, down = int(m.group(1)) - 1, column_index(m.group(2)), False
    else:
        row, col, down = int(m.group(4)) - 1, column_index(m.group(3)), True
    if row < 0:
        raise NotationError(f"bad position {text!r}: rows start at 1")
    return row, col, down


def format_position(row: int, col: int, down: bool) -> str:
    return f"{column_name(col)}{row + 1}" if down else f"{row + 1}{column_name(col)}"


def letter_case(answer: str, rack: str) -> str:
    """The play with its tiles in capitals when it has more lowercase letters than the rack
    has blanks (lowercase could only mean blanks it cannot play): `8d quite` is 8D QUITE then."""
    parts = answer.split()
    if len(parts) != 2 or sum(1 for c in parts[1] if c.islower()) <= rack.count(BLANK):
        return answer
    return f"{parts[0]} {parts[1].upper()}"


class Placement:
    """Tiles in one line from (row, col), what every play has: `letters` has
    one tile number per square of the main word (UNKNOWN for a `.` not yet
    read off a board); bit i of `through` is set when square i already held
    a tile. `Play` and `ScoredPlay` are the two kinds; both are named tuples
    (the generator makes thousands of plays, and tuples are cheap)."""

    __slots__ = ()
    row: int
    col: int
    down: bool
    letters: tuple[int, ...]
    through: int

    # -- geometry --------------------------------------------------------------
    def squares(self) -> list[tuple[int, int]]:
        dr, dc = (1, 0) if self.down else (0, 1)
        return [(self.row + dr * i, self.col + dc * i) for i in range(len(self.letters))]

    def placed(self) -> list[tuple[int, int, int]]:
        """(row, col, tile) of every tile this play puts on the board."""
        return [(r, c, t) for i, ((r, c), t) in enumerate(zip(self.squares(), self.letters)) if not self.through >> i & 1]

    @property
    def tile_count(self) -> int:
        return len(self.letters) - self.through.bit_count()

    @property
    def position(self) -> str:
        return format_position(self.row, self.col, self.down)

    # -- text ------------------------------------------------------------------
    def word(self, tiles: TileSet) -> str:
        """The whole main word as players write it, blanks lowercase (`INFaNCY`,
        Spanish `OCHO`); `format` brackets multi-letter tiles so it reads back."""
        return "".join(tile_text(tiles, t) if t != UNKNOWN else "." for t in self.letters)

    def tiles_text(self, tiles: TileSet) -> str:
        """The word with `.` for each tile that was already on the board."""
        parts = ["." if self.through >> i & 1 or t == UNKNOWN else tile_text(tiles, t) for i, t in enumerate(self.letters)]
        return tiles.spell(parts) if tiles.multi else "".join(parts)

    def format(self, tiles: TileSet) -> str:
        """GCG notation: `8D QUIT.`"""
        return f"{self.position} {self.tiles_text(tiles)}"

    def key(self) -> tuple[int, int, bool, tuple[int, ...]]:
        """Identity of a placement (a score, if any, aside)."""
        return (self.row, self.col, self.down, self.letters)

    def resolve(self, board: Board) -> Play:
        """Read `.` squares off the board and mark every square already filled.

        A letter written over a filled square is accepted when it matches the
        tile there (blank or not). Raises NotationError naming the square.
        """
        if not self.letters:
            raise NotationError("a play needs at least one tile")
        letters = list(self.letters)
        through = 0
        for i, (r, c) in enumerate(self.squares()):
            name = format_position(r, c, False)
            if not board.inside(r, c):
                raise NotationError(f"{self.position} {self.tiles_text(board.tiles)} runs off the board at {name}")
            there = board.get(r, c)
            if there < 0:
                if letters[i] == UNKNOWN or self.through >> i & 1:
                    raise NotationError(f"no tile on the board at {name} to play through")
                continue
            if letters[i] != UNKNOWN and (letters[i] & ~BLANK_FLAG) != (there & ~BLANK_FLAG):
                raise NotationError(
                    f"square {name} holds {tile_text(board.tiles, there)}, not {tile_text(board.tiles, letters[i])}"
                )
            letters[i] = there
            through |= 1 << i
        return Play(self.row, self.col, self.down, tuple(letters), through)


class _PlayFields(NamedTuple):
    row: int
    col: int
    down: bool
    letters: tuple[int, ...]
    through: int = 0


class Play(_PlayFields, Placement):
    """A play as written or put down, not scored yet."""

    __slots__ = ()

    def with_score(self, score: int) -> ScoredPlay:
        return ScoredPlay(self.row, self.col, self.down, self.letters, self.through, score)

    @staticmethod
    def parse(text: str, tiles: TileSet) -> Play:
        """Read `8D QUITE`, `H8 QUIT.`, `8D (QU)ITE` or `8D QUITe`."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(f"bad play {text!r}: expected a position and tiles, e.g. 8D QUITE")
        return Play.from_notation(parts[0], parts[1], tiles)

    @staticmethod
    def from_notation(position: str, word: str, tiles: TileSet) -> Play:
        row, col, down = parse_position(position)
        letters, through = parse_tiles(word, tiles)
        return Play(row, col, down, tuple(letters), through)


class _ScoredFields(NamedTuple):
    row: int
    col: int
    down: bool
    letters: tuple[int, ...]
    through: int
    score: int


class ScoredPlay(_ScoredFields, Placement):
    """A resolved play with the points the rules give it (from the scorer
    or the move generator)."""

    __slots__ = ()


def parse_tiles(word: str, tiles: TileSet) -> tuple[list[int], int]:
    """`QUIT.` / `(QU)ITE` / `[CH]E` -> (tile numbers, through bitmask)."""
    letters: list[int] = []
    through = 0
    i = 0
    inside = False
    while i < len(word):
        ch = word[i]
        if ch == "(":
            if inside:
                raise NotationError(f"bad tiles {word!r}: nested '('")
            inside = True
            i += 1
            continue
        if ch == ")":
            if not inside:
                raise NotationError(f"bad tiles {word!r}: ')' without '('")
            inside = False
            i += 1
            continue
        if ch == ".":
            through |= 1 << len(letters)
            letters.append(UNKNOWN)
            i += 1
            continue
        end = i + 1
        if ch == "[":
            end = word.find("]", i)
            if end < 0:
                raise NotationError(f"bad tiles {word!r}: unclosed '['")
            end += 1
            text = word[i + 1 : end - 1]
        else:
            text = _longest_tile(word, i, tiles)
            end = i + len(text)
        try:
            number = tile_number(tiles, text)
        except ValueError:
            raise NotationError(f"bad tiles {word!r}: {text!r} is not a tile of the {tiles.name} set") from None
        if inside:
            through |= 1 << len(letters)
        letters.append(number)
        i = end
    if inside:
        raise NotationError(f"bad tiles {word!r}: unclosed '('")
    if not letters:
        raise NotationError("a play needs at least one tile")
    return letters, through


def _longest_tile(word: str, i: int, tiles: TileSet) -> str:
    upper = word.upper()
    for multi in tiles.multi:
        if upper.startswith(multi, i):
            return word[i : i + len(multi)]
    return word[i]
