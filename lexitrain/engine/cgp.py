"""CGP: a whole position on one line (board, racks, scores, zero turns, ops).

See ../shared/data/formats/cgp.md. Rows are separated by `/`, digits count
empty squares, lowercase letters are blanks, `[CH]` marks a multi-letter tile
where plain text would be ambiguous. Errors name the field (and row) at fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lexitrain.engine.board import EMPTY, Board, is_blank, letter_of, tile_number, tile_text
from lexitrain.errors import LexitrainError
from lexitrain.layouts import BoardLayout, load_layout
from lexitrain.tiles import Rack, TileSet, load_tile_set

#: CGP `bdn` names we recognise -> our layout names
BOARD_NAMES = {
    "crosswordgame": "standard",
    "standard": "standard",
    "supercrosswordgame": "super",
    "super": "super",
    "wordswithfriends": "wordswithfriends",
}


class CGPError(LexitrainError):
    """A CGP string that cannot be read; the message names the field."""


@dataclass
class Position:
    """A position as CGP describes it."""

    board: Board
    racks: list[str] = field(default_factory=lambda: ["", ""])
    scores: list[int] = field(default_factory=lambda: [0, 0])
    zero_turns: int = 0
    ops: dict[str, str] = field(default_factory=dict)

    @property
    def rack(self) -> str:
        """The rack of the player to move."""
        return self.racks[0] if self.racks else ""


_ROW_TOKEN = re.compile(r"\d+|[^\d]+")


def parse_cgp(text: str, tiles: TileSet | None = None, layout: BoardLayout | None = None) -> Position:
    """Read a CGP line. Tile set and layout come from the `ld` / `bdn` ops
    when given there, else from the arguments, else English / standard."""
    fields = text.strip().split()
    if not fields:
        raise CGPError("empty CGP")
    if len(fields) < 4:
        raise CGPError(f"CGP needs 4 fields (board racks scores zero-turns), got {len(fields)}")
    ops = _parse_ops(" ".join(fields[4:]))
    if "ld" in ops:
        tiles = load_tile_set(ops["ld"].split("_")[0].lower())
    tiles = tiles or load_tile_set("english")
    if "bdn" in ops:
        name = BOARD_NAMES.get(ops["bdn"].lower())
        if name is None:
            raise CGPError(f"bdn: unknown board {ops['bdn']!r}")
        layout = load_layout(name)
    layout = layout or load_layout("standard")
    board = _parse_board(fields[0], tiles, layout)
    racks = fields[1].split("/")
    for n, rack in enumerate(racks, start=1):
        try:
            Rack.parse(tiles, rack, f"racks: rack {n}")
        except LexitrainError as exc:
            raise CGPError(str(exc)) from None
    racks = [r.upper() for r in racks]
    try:
        scores = [int(s) for s in fields[2].split("/")]
    except ValueError:
        raise CGPError(f"scores: {fields[2]!r} is not numbers separated by '/'") from None
    if len(scores) != len(racks):
        raise CGPError(f"scores: {len(scores)} scores for {len(racks)} racks")
    if not fields[3].isdigit():
        raise CGPError(f"zero turns: {fields[3]!r} is not a number")
    if "bb" in ops:
        try:
            bonus = int(ops["bb"])
        except ValueError:
            raise CGPError(f"bb: {ops['bb']!r} is not a number") from None
        board.layout = BoardLayout(layout.name, layout.rows, layout.cols, layout.premiums, bonus)
    return Position(board, racks, scores, int(fields[3]), ops)


def parse_cgp_ops(text: str) -> dict[str, str]:
    """The operations of a CGP line (`lex NWL23;` -> {"lex": "NWL23"}), read before its board (which may need their tiles)."""
    return _parse_ops(" ".join(text.strip().split()[4:]))


def _parse_ops(text: str) -> dict[str, str]:
    ops: dict[str, str] = {}
    if not text:
        return ops
    if not text.rstrip().endswith(";"):
        raise CGPError(f"operations: {text!r} does not end with ';'")
    for op in text.split(";"):
        op = op.strip()
        if op:
            code, _, operand = op.partition(" ")
            ops[code] = operand.strip()
    return ops


def _parse_board(text: str, tiles: TileSet, layout: BoardLayout) -> Board:
    rows = text.split("/")
    if len(rows) != layout.rows:
        raise CGPError(f"board: {len(rows)} rows, expected {layout.rows}")
    board = Board(layout, tiles)
    for r, row in enumerate(rows):
        col = 0
        for token in _ROW_TOKEN.findall(row):
            if token.isdigit():
                col += int(token)
                continue
            try:  # '?' reads as a tile but is none on the board (a blank there is a lowercase letter)
                numbers = [tile_number(tiles, letter) for letter in tiles.tokenize(token)]
            except ValueError as exc:
                raise CGPError(f"board row {r + 1}: unknown tile ({exc})") from None
            for number in numbers:
                if col < layout.cols:
                    board.set(r, col, number)
                col += 1
        if col != layout.cols:
            raise CGPError(f"board row {r + 1}: {row!r} covers {col} squares, expected {layout.cols}")
    return board


def board_to_cgp(board: Board) -> str:
    rows = []
    for r in range(board.rows):
        out = ""
        gap = 0
        run: list[str] = []  # the tiles since the last gap, spelled together (L L is not the LL tile)
        for c in range(board.cols):
            tile = board.get(r, c)
            if tile == EMPTY:
                gap += 1
                continue
            if gap:
                out += board.tiles.spell(run) + str(gap)
                run, gap = [], 0
            run.append(tile_text(board.tiles, tile))
        out += board.tiles.spell(run) + (str(gap) if gap else "")
        rows.append(out)
    return "/".join(rows)


def to_cgp(position: Position) -> str:
    """Write a position back as one CGP line."""
    parts = [board_to_cgp(position.board), "/".join(position.racks),
             "/".join(str(s) for s in position.scores), str(position.zero_turns)]
    ops = dict(position.ops)
    if position.board.layout.bingo_bonus != 50:
        ops.setdefault("bb", str(position.board.layout.bingo_bonus))
    parts.extend(f"{code} {value};" if value else f"{code};" for code, value in ops.items())
    return " ".join(parts)


def check_tile_counts(position: Position) -> None:
    """Refuse a position holding more of a tile than the set has (board and
    racks together; a lowercase tile on the board and `?` on a rack are blanks).
    Kept out of `parse_cgp` so that partial or made-up boards still read."""
    tiles = position.board.tiles
    used = [0] * tiles.size
    blanks = 0
    for square in position.board.squares:
        if square == EMPTY:
            continue
        if is_blank(square):
            blanks += 1
        else:
            used[letter_of(square)] += 1
    for text in position.racks:
        try:
            rack = Rack.parse(tiles, text)
        except LexitrainError as exc:  # racks given outside a CGP line (a GCG turn, --rack) are unchecked
            raise CGPError(str(exc)) from None
        used = [n + m for n, m in zip(used, rack.counts)]
        blanks += rack.blanks
    if blanks > tiles.blanks:
        raise CGPError(f"{blanks} blanks on the board and racks, but the {tiles.name} set has {tiles.blanks}")
    for letter, have, count in zip(tiles.letters, used, tiles.counts):
        if have > count:
            raise CGPError(f"{have} {letter} tiles on the board and racks, but the {tiles.name} set has {count}")
