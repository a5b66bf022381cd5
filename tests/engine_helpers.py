"""Engine pieces only the tests (and the endgame benchmark) need: plays from
rack text, the board and a play mirrored on the main diagonal, every word of a
graph, a bag set up by hand, a game written back as GCG, a play from tiles put
on squares, the real games' endgame positions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TypeVar

import pytest

from lexitrain.engine import movegen
from lexitrain.engine.bag import Bag
from lexitrain.engine.board import Board
from lexitrain.engine.dawg import Dawg
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play, ScoredPlay, format_position
from lexitrain.engine.replay import replay
from lexitrain.engine.rules import IllegalPlay
from lexitrain.layouts import BoardLayout
from lexitrain.tiles import RACK_SIZE, Rack, TileSet

P = TypeVar("P", Play, ScoredPlay)

#: both searches, for `@pytest.mark.parametrize("engine", ENGINES)`; the
#: compiled one is skipped where the install could not build it
ENGINES = [
    "python",
    pytest.param("compiled", marks=pytest.mark.skipif(movegen.compiled is None, reason="compiled search not built")),
]


def plays_for(board: Board, rack: str, dawg: Dawg, engine: str | None = None) -> list[ScoredPlay]:
    """Every legal play for rack text, best first, from a new generator."""
    return MoveGenerator(dawg, engine=engine).plays(board, Rack.parse(board.tiles, rack, in_play=True))


def transposed_board(board: Board) -> Board:
    """The board mirrored on its main diagonal: down plays become across."""
    layout, rows, cols = board.layout, board.rows, board.cols
    premiums = tuple(tuple(layout.premiums[r][c] for r in range(rows)) for c in range(cols))
    squares = [board.squares[r * cols + c] for c in range(cols) for r in range(rows)]
    return Board(BoardLayout(layout.name, cols, rows, premiums, layout.bingo_bonus), board.tiles, squares)


def transposed(play: P) -> P:
    """The play mirrored on the main diagonal (8D QUITE -> D8 QUITE)."""
    return play._replace(row=play.col, col=play.row, down=not play.down)


def graph_words(dawg: Dawg) -> list[tuple[int, ...]]:
    """Every word of the graph as tile indices (walks the whole graph)."""
    out: list[tuple[int, ...]] = []

    def walk(node: int, prefix: tuple[int, ...]) -> None:
        for letter in range(dawg.letters):
            if dawg.mask[node] >> letter & 1:
                word = prefix + (letter,)
                if dawg.final[node] >> letter & 1:
                    out.append(word)
                walk(dawg.edge[node + letter], word)

    walk(0, ())
    return out


def take_from_bag(bag: Bag, tiles: list[str]) -> None:
    """Take out tiles the test puts elsewhere (a rack set by hand)."""
    left = Counter(bag.contents)
    left.subtract(tiles)
    assert all(n >= 0 for n in left.values()), f"the bag has not got {tiles}"
    bag.contents = list(left.elements())


def play_from_tiles(board: Board, placed: list[tuple[int, int, int]]) -> Play:
    """A play from tiles put on squares (row, col, tile): one line, no gap,
    free squares; takes in the adjacent tiles already on the board."""
    if not placed:
        raise IllegalPlay("no tiles placed")
    squares = {(r, c) for r, c, _ in placed}
    if len(squares) < len(placed):
        raise IllegalPlay("two tiles on the same square")
    for r, c, _ in placed:
        if not board.inside(r, c):
            raise IllegalPlay(f"square {format_position(r, c, False)} is off the board")
        if board.occupied(r, c):
            raise IllegalPlay(f"square {format_position(r, c, False)} already holds {board.text_at(r, c)}")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(squares) == 1:
        (r, c), = squares
        down = not (board.occupied(r, c - 1) or board.occupied(r, c + 1)) and (
            board.occupied(r - 1, c) or board.occupied(r + 1, c))
    elif len(rows) == 1:
        down = False
    elif len(cols) == 1:
        down = True
    else:
        raise IllegalPlay("the tiles are not in one line")
    dr, dc = (1, 0) if down else (0, 1)
    row, col = min(squares)
    while board.inside(row - dr, col - dc) and board.occupied(row - dr, col - dc):  # the run's first tile
        row, col = row - dr, col - dc
    last = max(squares)
    by_square = {(r, c): t for r, c, t in placed}
    letters: list[int] = []
    through = 0
    r, c = row, col
    while board.inside(r, c) and ((r, c) <= last or board.occupied(r, c)):
        if (r, c) in by_square:
            letters.append(by_square[(r, c)])
        elif board.occupied(r, c):
            through |= 1 << len(letters)
            letters.append(board.get(r, c))
        else:
            raise IllegalPlay(f"gap at {format_position(r, c, False)} between the tiles")
        r, c = r + dr, c + dc
    return Play(row, col, down, tuple(letters), through)


def recorded_endgames(folder: Path, tiles: TileSet, unseen_beyond: int = 0) -> list[tuple[str, Board, Rack, Rack, int]]:
    """Per English game in `folder`, the first turn with a recorded rack whose
    unseen tiles number at most a rack plus `unseen_beyond` (0: the bag is
    empty; 1: one tile in the bag): (file name, board, the mover's rack, the
    unseen tiles, the mover's spread). A position seen in an earlier file (a
    game and its annotated copy) is taken once."""
    out = []
    seen = set()
    for path in sorted(folder.glob("*.gcg")):
        if "polish" in path.name:
            continue  # Polish tiles: not an ENABLE position
        for turn in replay(read_gcg(path), tiles):
            rack = turn.rack.upper()
            if not rack or not all(ch == "?" or ch in tiles.letters for ch in rack):
                continue
            mine = Rack.parse(tiles, rack)
            unseen = unseen_tiles(turn.board, mine)
            if unseen.size <= unseen_beyond:
                break  # the game is past that point without a recorded rack there
            if unseen.size <= RACK_SIZE + unseen_beyond:
                key = (tuple(turn.board.squares), mine.counts, mine.blanks)
                if key not in seen:
                    seen.add(key)
                    out.append((path.name, turn.board, mine, unseen, turn.scores[0] - turn.scores[1]))
                break
    return out
