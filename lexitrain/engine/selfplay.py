"""Fast self-play: games of the equity player, its every move chosen in C.

`game.self_play` with `equity.EquityPlayer` is the reference: every play
listed as an object, every candidate valued in Python. Here the compiled
search (`MoveGenerator.best_by_equity`) returns only the move of best
equity under a leave table, and a lean loop applies it with the same rules,
the same bag and the same draws as `game.Game`, so a seed gives the same
game both ways (tests/test_engine_selfplay.py holds them to it). What a
game leaves behind is small: each turn's kind, score and equity, the leave
kept (for training the table) and, on request, the words played (for
playability).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lexitrain.engine.bag import Bag
from lexitrain.engine.board import BLANK_FLAG, LETTER_MASK, Board
from lexitrain.engine.equity import tie_draws
from lexitrain.engine.exchanges import EXCHANGE_LIMIT, can_exchange
from lexitrain.engine.leave_table import LeaveTable
from lexitrain.engine.movegen import EXCHANGE, PASS, PLAY, MoveGenerator
from lexitrain.engine.rules import word_score, word_text, words_formed
from lexitrain.layouts import BoardLayout
from lexitrain.tiles import BLANK, RACK_SIZE, Rack

#: scoreless turns in a row that end a game, and the turns after which self-play stops (as game.self_play)
MAX_ZERO_TURNS = 6
MAX_TURNS = 60


@dataclass
class Turn:
    """One move: its kind (play, exchange, pass), the player, its score, its
    equity (hundredths of a point), the tiles in the bag before it, the leave
    kept (its place in the leave table, -1 when none), and what it was
    (a play as GCG writes it, the tiles put back, or nothing)."""

    kind: str
    player: int
    score: int
    equity: int
    bag: int
    leave: int
    move: str


@dataclass
class GameRecord:
    """A finished self-play game: its turns, final scores and, when asked, the words its plays formed,
    each with the points it scored (the bingo bonus counted with the play's main word)."""

    seed: int
    turns: list[Turn] = field(default_factory=list)
    scores: list[int] = field(default_factory=lambda: [0, 0])
    words: list[tuple[str, int]] = field(default_factory=list)


class SelfPlayer:
    """Plays equity-player games over one word graph and leave table; keep one per process."""

    def __init__(self, generator: MoveGenerator, layout: BoardLayout, table: LeaveTable) -> None:
        self.generator = generator
        self.layout = layout
        self.table = table
        self.tiles = table.tiles

    def play(self, seed: int, words: bool = False, max_turns: int = MAX_TURNS,
             second: LeaveTable | None = None, draw_ties: bool = False) -> GameRecord:
        """One game from `seed` (the same as `game.self_play(..., seed, policies=(EquityPlayer(table),))`);
        with `second`, the player moving second values leaves by that table instead (a match of two tables);
        with `draw_ties`, each turn's play is drawn among those tied at the best equity and score (as
        `EquityPlayer(table, tie_draws(seed))` draws it) instead of the first of them by placement."""
        tiles = self.tiles
        tables = (self.table, second or self.table)
        letters = tiles.letters
        board = Board(self.layout, tiles)
        bag = Bag(tiles, seed)
        racks = [bag.draw(RACK_SIZE), bag.draw(RACK_SIZE)]
        record = GameRecord(seed)
        scores = record.scores
        turn = zero_turns = 0
        over = False
        ties = tie_draws(seed) if draw_ties else None
        for _ in range(max_turns):
            if over:
                break
            rack_list = racks[turn]
            rack = Rack.of(tiles, rack_list)
            in_bag = len(bag)
            best = self.generator.best_by_equity(board, rack, tables[turn], in_bag,
                                                 can_exchange(in_bag, EXCHANGE_LIMIT),
                                                 None if ties is None else ties.getrandbits(32))
            if best.kind == PLAY:
                play = best.play
                assert play is not None
                placed = play.placed()
                if words:
                    bonus = self.layout.bingo_bonus if len(placed) == RACK_SIZE else 0
                    record.words += [(word_text(board, w).upper(), word_score(board, w) + (bonus if i == 0 else 0))
                                     for i, w in enumerate(words_formed(board, play))]
                for r, c, t in placed:
                    board.set(r, c, t)
                    rack_list.remove(BLANK if t >= BLANK_FLAG else letters[t & LETTER_MASK])
                rack_list += bag.draw(RACK_SIZE - len(rack_list))
                scores[turn] += play.score
                zero_turns = 0 if play.score else zero_turns + 1
                record.turns.append(Turn("play", turn, play.score, best.equity, in_bag, best.leave,
                                         play.format(tiles)))
            elif best.kind == EXCHANGE:
                given = _given(rack, best.kept)
                need = Counter(given)
                put_back: list[str] = []
                kept: list[str] = []
                for name in rack_list:  # back in their order on the rack, as Game.exchange
                    if need[name]:
                        need[name] -= 1
                        put_back.append(name)
                    else:
                        kept.append(name)
                drawn = bag.draw(len(put_back))
                bag.put_back(put_back)
                racks[turn] = kept + drawn
                zero_turns += 1
                record.turns.append(Turn("exchange", turn, 0, best.equity, in_bag, best.leave,
                                         "-" + tiles.spell(put_back)))
            else:
                assert best.kind == PASS
                zero_turns += 1
                record.turns.append(Turn("pass", turn, 0, best.equity, in_bag, -1, "-"))
            mover = turn
            turn = 1 - turn
            if zero_turns >= MAX_ZERO_TURNS:
                over = _end(scores, racks, tiles.points, letters, None)
            if best.kind == PLAY and not racks[mover] and not len(bag):
                over = _end(scores, racks, tiles.points, letters, mover)
        return record


def _given(rack: Rack, kept: int) -> list[str]:
    """The tiles an exchange puts back: those of the rack (in set order, blanks last) not in the mask `kept`."""
    names = [rack.tiles.letters[i] for i, n in enumerate(rack.counts) for _ in range(n)] + [BLANK] * rack.blanks
    return [name for slot, name in enumerate(names) if not kept >> slot & 1]


def _end(scores: list[int], racks: list[list[str]], points: tuple[int, ...], letters: tuple[str, ...],
         out: int | None) -> bool:
    """The end of the game under tournament rules (as Game._end): going out earns
    twice the other's rack; after six scoreless turns each loses their own."""
    index = {name: i for i, name in enumerate(letters)}
    for player, rack in enumerate(racks):
        if out is not None and player == out:
            continue
        value = sum(points[index[t]] for t in rack if t != BLANK)
        if out is None:
            scores[player] -= value
        else:
            scores[out] += 2 * value
    return True

