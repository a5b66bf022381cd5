"""The board: a grid over any layout and tile set, holding placed tiles.

A square holds `EMPTY` or a tile number: the tile's index in the tile set,
plus `BLANK_FLAG` when a blank stands for that letter. Integers keep the move
generator and the scorer free of string work; `tile_text` turns a square back
into what a player writes (`Q`, `q` for a blank, `CH` / `ch`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lexitrain.layouts import PREMIUMS, BoardLayout
from lexitrain.tiles import TileSet

EMPTY = -1
BLANK_FLAG = 128
LETTER_MASK = BLANK_FLAG - 1


def letter_of(tile: int) -> int:
    """The tile-set index a placed tile spells (blank or not)."""
    return tile & LETTER_MASK


def is_blank(tile: int) -> bool:
    return tile >= BLANK_FLAG


def tile_number(tiles: TileSet, text: str) -> int:
    """`Q` -> its index, `q` -> index | BLANK_FLAG. ValueError if not a tile."""
    upper = text.upper()
    index = tiles.index(upper) if upper in tiles.letters else None
    if index is None:
        raise ValueError(f"{text!r} is not a tile of the {tiles.name} set")
    return index | BLANK_FLAG if text != upper else index


def tile_text(tiles: TileSet, tile: int) -> str:
    """The tile as players write it: uppercase, lowercase when a blank."""
    letter = tiles.letters[tile & LETTER_MASK]
    return letter.lower() if tile >= BLANK_FLAG else letter


def tile_points(tiles: TileSet, tile: int) -> int:
    return 0 if tile >= BLANK_FLAG else tiles.points[tile]


def column_name(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet style, for boards over 26 wide)."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def column_index(name: str) -> int:
    """Inverse of `column_name`, case-insensitive; ValueError if not letters."""
    if not name.isascii() or not name.isalpha():
        raise ValueError(f"{name!r} is not a column")
    col = 0
    for ch in name.upper():
        col = col * 26 + (ord(ch) - ord("A") + 1)
    return col - 1


@dataclass
class Board:
    """Tiles on a layout. `squares` is row-major, `rows * cols` long."""

    layout: BoardLayout
    tiles: TileSet
    squares: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.squares:
            self.squares = [EMPTY] * (self.layout.rows * self.layout.cols)

    @property
    def rows(self) -> int:
        return self.layout.rows

    @property
    def cols(self) -> int:
        return self.layout.cols

    def inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.layout.rows and 0 <= col < self.layout.cols

    def get(self, row: int, col: int) -> int:
        return self.squares[row * self.layout.cols + col]

    def set(self, row: int, col: int, tile: int) -> None:
        self.squares[row * self.layout.cols + col] = tile

    def occupied(self, row: int, col: int) -> bool:
        return self.inside(row, col) and self.squares[row * self.layout.cols + col] != EMPTY

    def text_at(self, row: int, col: int) -> str:
        """The tile on a square as players write it, or '' if empty."""
        tile = self.get(row, col)
        return "" if tile == EMPTY else tile_text(self.tiles, tile)

    def is_empty(self) -> bool:
        return all(s == EMPTY for s in self.squares)

    def tile_count(self) -> int:
        return sum(1 for s in self.squares if s != EMPTY)

    def premium(self, row: int, col: int) -> str:
        return self.layout.premiums[row][col]

    def multipliers(self, row: int, col: int) -> tuple[int, int]:
        """(letter, word) multiplier of a square."""
        return PREMIUMS[self.layout.premiums[row][col]]

    def copy(self) -> Board:
        return Board(self.layout, self.tiles, list(self.squares))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self.layout.premiums == other.layout.premiums
            and self.tiles.letters == other.tiles.letters
            and self.squares == other.squares
        )

    def rows_text(self) -> list[str]:
        """Each row as text, `.` for an empty square (for tests and logs)."""
        out = []
        for r in range(self.rows):
            out.append("".join(self.text_at(r, c) or "." for c in range(self.cols)))
        return out
