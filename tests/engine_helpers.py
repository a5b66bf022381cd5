"""Engine pieces only the tests need: plays from rack text, the board and a
play mirrored on the main diagonal, every word of a graph, a bag set up by hand."""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

import pytest

from lexitrain.engine import movegen
from lexitrain.engine.bag import Bag
from lexitrain.engine.board import Board
from lexitrain.engine.dawg import Dawg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play, ScoredPlay
from lexitrain.layouts import BoardLayout
from lexitrain.tiles import Rack

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
