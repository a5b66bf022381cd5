"""The move generator's LiveBoard (the endgame search's board, changed a tile
at a time) lists exactly find_flat's plays, in find_flat's order, for the
same board and rack: on real boards of the games, after any sequence of
tiles put down and lifted, for racks with and without blanks."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexitrain.engine import movegen
from lexitrain.engine.board import BLANK_FLAG, EMPTY, Board
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.replay import replay
from lexitrain.layouts import load_layout
from lexitrain.tiles import RACK_SIZE, Rack, load_tile_set

compiled = pytest.importorskip("lexitrain.engine._movegen")

GAMES = Path(__file__).parent / "data" / "gcg"


@lru_cache(maxsize=1)
def late_boards() -> tuple[tuple[int, ...], ...]:
    """Boards of the real games late in the game (most tiles down), one per game, first 8 games."""
    tiles = load_tile_set("english")
    out = []
    for path in sorted(GAMES.glob("*.gcg")):
        if "polish" in path.name:
            continue
        turns = list(replay(read_gcg(path), tiles))
        if turns:
            out.append(tuple(turns[-1].board.squares))
        if len(out) == 8:
            break
    return tuple(out)


def generate(dawg: Dawg, board: Board, counts: tuple[int, ...], blanks: int, live: object | None = None) -> bytes:
    if live is not None:
        return live.find_flat(counts, blanks).tobytes()  # type: ignore[attr-defined]
    return compiled.find_flat(setting(dawg, board), board.squares, counts, blanks).tobytes()


def setting(dawg: Dawg, board: Board) -> object:
    return movegen.compiled_setting(dawg, board.layout, board.tiles)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(board_index=st.integers(0, 7), data=st.data())
def test_live_board_lists_find_flats_plays_after_any_changes(enable, board_index: int, data: st.DataObject) -> None:
    dawg = dawg_for(enable)
    tiles = enable.tiles
    start = late_boards()[board_index]
    board = Board(load_layout("standard"), tiles, list(start))
    live = compiled.LiveBoard(setting(dawg, board), list(board.squares))
    letter = st.integers(0, tiles.size - 1)
    for _ in range(data.draw(st.integers(1, 12), label="changes")):
        k = data.draw(st.integers(0, len(board.squares) - 1), label="square")
        if board.squares[k] == EMPTY:
            t = data.draw(letter, label="tile") | (BLANK_FLAG if data.draw(st.booleans(), label="blank") else 0)
        else:
            t = EMPTY
        board.squares[k] = t
        live.set(k, t)
        size = data.draw(st.integers(1, RACK_SIZE), label="rack size")
        drawn = data.draw(st.lists(letter, min_size=size, max_size=size), label="rack")
        blanks = data.draw(st.integers(0, min(2, size)), label="blanks")
        counts = [0] * tiles.size
        for tile in drawn[blanks:]:
            counts[tile] += 1
        assert generate(dawg, board, tuple(counts), blanks, live) == generate(dawg, board, tuple(counts), blanks)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(board_index=st.integers(0, 7), data=st.data())
def test_best_single_is_the_best_one_tile_play_after_any_changes(enable, board_index: int,
                                                                   data: st.DataObject) -> None:
    """`LiveBoard.best_single` (the endgame's side with one tile left) is the highest score among
    find_flat's plays of that one tile (a blank: -1), -1 where it has none, after tiles come and go."""
    dawg = dawg_for(enable)
    tiles = enable.tiles
    board = Board(load_layout("standard"), tiles, list(late_boards()[board_index]))
    live = compiled.LiveBoard(setting(dawg, board), list(board.squares))
    for _ in range(data.draw(st.integers(0, 6), label="changes")):
        k = data.draw(st.integers(0, len(board.squares) - 1), label="square")
        t = EMPTY if board.squares[k] != EMPTY else data.draw(st.integers(0, tiles.size - 1), label="tile")
        board.squares[k] = t
        live.set(k, t)
    for letter in [*range(tiles.size), -1]:
        counts = [0] * tiles.size
        if letter >= 0:
            counts[letter] = 1
        plays = movegen.MoveGenerator(dawg).plays(board, Rack(tiles, tuple(counts), 0 if letter >= 0 else 1))
        assert live.best_single(letter) == max((p.score for p in plays), default=-1), letter


def test_live_board_on_an_empty_board_plays_through_the_centre(enable) -> None:
    dawg = dawg_for(enable)
    board = Board(load_layout("standard"), enable.tiles)
    live = compiled.LiveBoard(setting(dawg, board), list(board.squares))
    counts = Rack.parse(enable.tiles, "RETAINS").counts
    found = generate(dawg, board, counts, 0, live)
    assert found == generate(dawg, board, counts, 0)
    assert len(found) > 0
    # and the board is as it was: a tile put down then lifted changes nothing
    live.set(0, 0)
    live.set(0, EMPTY)
    assert generate(dawg, board, counts, 0, live) == found
