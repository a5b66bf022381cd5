"""Fast self-play (the compiled best-move search and its lean game loop) plays the very games the
reference plays (game.Game, equity.EquityPlayer and the pure Python move generator), seed for seed;
the exhaustive leave table numbers every leave once."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from lexitrain.engine import movegen
from lexitrain.engine.board import Board
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.equity import EquityPlayer, tie_draws
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


def reference_moves(enable, table: LeaveTable, seed: int,
                    draw_ties: bool = False) -> tuple[list[tuple[str, int, str]], list[int]]:
    player = EquityPlayer(table, tie_draws(seed) if draw_ties else None)
    game, _ = self_play(Board(enable.layout, enable.tiles), MoveGenerator(dawg_for(enable), engine="python"), seed,
                        policies=(player,))
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


def test_the_games_of_fixed_seeds_stay_the_same_byte_for_byte(enable) -> None:
    """Twenty games (an extreme table first, so exchanges and passes come, a mild one second, ties drawn,
    words kept) written out turn by turn hash as they did when fast self-play moved into C: a change to
    any game, in fast self-play or in the reference alike (the bag, the rules, the search), shows here.
    (The tables' 7-tile values come from the shipped model: retraining it changes these games.)"""
    import hashlib

    fast = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, random_table(2, 300))
    records = [fast.play(seed, words=True, draw_ties=True, second=random_table(1)) for seed in range(20)]
    assert [t.move for t in records[0].turns][:4] == ["8D ZOONAL", "D8 .ORI", "12A GIES", "C9 MOP.S"]
    assert records[0].scores == [302, 334]
    assert Counter(t.kind for r in records for t in r.turns) == {"play": 543, "exchange": 31, "pass": 2}
    text = "".join(f"{r.seed} {r.scores} {[(t.kind, t.player, t.score, t.equity, t.bag, t.leave, t.move) for t in r.turns]}"
                   f" {r.words}\n" for r in records)
    assert hashlib.sha256(text.encode()).hexdigest() == "bd66d052f1ece17192eb882fd8daadda04cf04aad1c00f0e0779d583ad15ee4a"


def test_a_game_of_any_seed_opens_with_the_rack_the_python_bag_draws(enable) -> None:
    """The compiled game seeds its bag's generator itself, as random.Random seeds one from an int (every
    32-bit word of it, the sign dropped): a game of a large or negative seed opens with the best move for
    the rack Bag(tiles, seed) draws first."""
    from lexitrain.engine.bag import Bag
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.equity import KINDS
    from lexitrain.tiles import Rack

    table = load_leaves(ENGLISH)
    assert isinstance(table, LeaveTable)
    generator = MoveGenerator(dawg_for(enable))
    fast = SelfPlayer(generator, enable.layout, table)
    for seed in (0, 2**31 + 5, 2**32, 2**32 + 7, 2**70 + 3, -12345):
        rack = Rack.of(ENGLISH, Bag(ENGLISH, seed).draw(7))
        best = generator.best_by_equity(Board(enable.layout, ENGLISH), rack, table, 86, True)
        opening = fast.play(seed, max_turns=1).turns[0]
        assert (opening.kind, opening.equity, opening.leave) == (KINDS[best.kind], best.equity, best.leave)
        assert best.play is None or opening.move == best.play.format(ENGLISH)


def test_shipped_table_games_match_the_reference(enable) -> None:
    from lexitrain.engine.leave_table import load_leaves

    table = load_leaves(ENGLISH)
    assert isinstance(table, LeaveTable)
    record = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, table).play(3)
    moves, scores = reference_moves(enable, table, 3)
    assert [(t.kind, t.score, t.move) for t in record.turns] == moves and record.scores == scores


def test_drawn_ties_play_the_reference_game(enable) -> None:
    from lexitrain.engine.leave_table import load_leaves

    table = load_leaves(ENGLISH)
    assert isinstance(table, LeaveTable)
    fast = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, table)
    differs = 0
    for seed in (3, 4):
        record = fast.play(seed, draw_ties=True)
        moves, scores = reference_moves(enable, table, seed, draw_ties=True)
        assert [(t.kind, t.score, t.move) for t in record.turns] == moves and record.scores == scores
        differs += [t.move for t in record.turns] != [t.move for t in fast.play(seed).turns]
    assert differs  # a tie was drawn otherwise than the first by placement


def test_the_opening_bingo_is_drawn_evenly_among_its_anagrams(enable) -> None:
    """On an empty board the nine anagrams of AEINRST tie at 66 in six places each: the first by
    placement is always ANESTRI, and tickets 0 to 53 draw each of the 54 plays once."""
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.tiles import Rack

    table = load_leaves(ENGLISH)
    assert isinstance(table, LeaveTable)
    generator, board = MoveGenerator(dawg_for(enable)), Board(enable.layout, enable.tiles)
    rack = Rack.parse(ENGLISH, "AEINRST")
    first = generator.best_by_equity(board, rack, table, 86, True).play
    assert first is not None and first.format(ENGLISH) == "8B ANESTRI"
    drawn = [generator.best_by_equity(board, rack, table, 86, True, ticket).play for ticket in range(54)]
    assert len({p.format(ENGLISH) for p in drawn if p is not None}) == 54
    words = Counter(p.word(ENGLISH) for p in drawn if p is not None)
    assert words == {w: 6 for w in ("ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS", "RETSINA",
                                    "STAINER", "STEARIN")}
    assert all(p is not None and p.score == 66 for p in drawn)


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
