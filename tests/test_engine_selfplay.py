"""Fast self-play (the compiled best-move search and its lean game loop) plays the very games the
reference plays (game.Game, equity.EquityPlayer and the pure Python move generator), seed for seed;
the exhaustive leave table numbers every leave once."""

from __future__ import annotations

import random

import numpy as np
import pytest

from lexitrain.engine import movegen
from lexitrain.engine.board import Board
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.equity import EquityPlayer
from lexitrain.engine.game import self_play
from lexitrain.engine.leave import load_leave_model
from lexitrain.engine.leave_table import LONGEST, LeaveTable, every_leave, leave_index, leave_ways, load_table
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.selfplay import SelfPlayer
from lexitrain.errors import LexitrainError
from lexitrain.tiles import load_tile_set

ENGLISH = load_tile_set("english")
pytestmark = pytest.mark.skipif(movegen.compiled is None, reason="the compiled move generator is not built")


def random_table(seed: int, points: int = 20) -> LeaveTable:
    """A table of random values (-points to +points): any slip in numbering leaves changes the moves
    chosen; at 300 points, leaves outweigh scores and exchanges and passes are common."""
    size = sum(leave_ways(ENGLISH)[: LONGEST + 1])
    values = np.random.default_rng(seed).integers(-100 * points, 100 * points, size, dtype=np.int16)
    return LeaveTable(ENGLISH, values, load_leave_model(ENGLISH))


def reference_moves(enable, table: LeaveTable, seed: int) -> tuple[list[tuple[str, int, str]], list[int]]:
    game, _ = self_play(Board(enable.layout, enable.tiles), MoveGenerator(dawg_for(enable), engine="python"), seed,
                        policies=(EquityPlayer(table),))
    moves = [(m.kind, m.score, m.play.format(enable.tiles) if m.play else "-" + enable.tiles.spell(m.exchanged))
             for m in game.history]
    return moves, [p.score for p in game.players]


@pytest.mark.parametrize("table_seed, points, game_seeds", [(1, 20, (0, 1)), (2, 300, (5, 10))])
def test_fast_self_play_plays_the_reference_game(enable, table_seed: int, points: int,
                                                 game_seeds: tuple[int, ...]) -> None:
    table = random_table(table_seed, points)
    fast = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, table)
    kinds = set()
    for seed in game_seeds:
        record = fast.play(seed)
        moves, scores = reference_moves(enable, table, seed)
        assert [(t.kind, t.score, t.move) for t in record.turns] == moves
        assert record.scores == scores
        kinds |= {t.kind for t in record.turns}
    assert kinds == ({"play"} if points == 20 else {"play", "exchange", "pass"})


def test_shipped_table_games_match_the_reference(enable) -> None:
    from lexitrain.engine.leave_table import load_leaves

    table = load_leaves(ENGLISH)
    assert isinstance(table, LeaveTable)
    record = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, table).play(3)
    moves, scores = reference_moves(enable, table, 3)
    assert [(t.kind, t.score, t.move) for t in record.turns] == moves and record.scores == scores


def test_the_shipped_table_records_its_training_and_values_leaves_as_players_do() -> None:
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.tiles import Rack

    table = load_leaves(ENGLISH)
    assert isinstance(table, LeaveTable)
    trained = table.trained
    assert trained["lexicon"] == "enable" and trained["games"] >= 40_000 and len(trained["rounds_done"]) >= 2

    def value(text: str) -> float:
        return table.value(Rack.parse(ENGLISH, text))

    assert value("?") > value("S") > 0 > value("Q")
    assert value("QU") > value("Q") and value("ERS") > value("UUV")
    assert value("IIII") < value("I") < value("E")
    assert value("AEINRST") == load_leave_model(ENGLISH).value(Rack.parse(ENGLISH, "AEINRST"))  # seven: the model's


def test_the_leave_each_turn_keeps_is_numbered_as_python_numbers_it(enable) -> None:
    table = random_table(3)
    record = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, table).play(5)
    played = [t for t in record.turns if t.kind == "play" and t.bag > 0]
    assert played
    for turn in played:  # the equity is the score plus the table's value of the leave kept
        assert turn.equity == turn.score * 100 + int(table.values[turn.leave])


def test_every_leave_numbered_once_in_order() -> None:
    ways = leave_ways(ENGLISH)
    leaves = list(every_leave(ENGLISH))
    assert len(leaves) == sum(ways[: LONGEST + 1]) == 914_625
    for i in random.Random(4).sample(range(len(leaves)), 3000):
        assert leave_index(ways, *leaves[i]) == i
    assert leaves[0] == ((0,) * ENGLISH.size, 0)
    assert all(sum(c) + b <= LONGEST for c, b in leaves[-50:])


def test_a_damaged_table_is_refused_in_one_line(tmp_path) -> None:
    path = tmp_path / "english.npz"
    path.write_bytes(b"not a table")
    with pytest.raises(LexitrainError, match="cannot read the leave table"):
        load_table(path, load_leave_model(ENGLISH))
