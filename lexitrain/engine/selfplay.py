"""Fast self-play: games of the equity player, played whole in C.

`game.self_play` with `equity.EquityPlayer` is the reference: every play
listed as an object, every candidate valued in Python. Here the compiled
game (`_movegen.SelfPlay`) chooses each move as `MoveGenerator.best_by_equity`
does (the move of best equity under a leave table, no play object made for a
candidate that loses) on a board it keeps up to date a tile at a time, and
makes it with the same rules, the same bag and the same draws as `game.Game`
(the bag's own random generator taken over), so a seed gives the same game
both ways (tests/test_engine_selfplay.py holds them to it, and to the games
of fixed seeds byte for byte). What a game leaves behind is small: each
turn's kind, score and equity, the leave kept (for training the table) and,
on request, the words played (for playability).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lexitrain.engine.bag import Bag
from lexitrain.engine.board import Board
from lexitrain.engine.engines import compiled_movegen
from lexitrain.engine.equity import KINDS, tie_draws
from lexitrain.engine.exchanges import EXCHANGE_LIMIT
from lexitrain.engine.leave_table import LeaveTable
from lexitrain.engine.movegen import PLAY, MoveGenerator, table_leaves
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.rules import word_score, word_text, words_formed
from lexitrain.layouts import BoardLayout
from lexitrain.tiles import BLANK, RACK_SIZE, TileSet

#: scoreless turns in a row that end a game, and the turns after which self-play stops (as game.self_play)
MAX_ZERO_TURNS = 6
MAX_TURNS = 60


@dataclass
class Turn:
    """One move: its kind (play, exchange, pass), the player, its score, its
    equity (hundredths of a point), the tiles in the bag before it, the leave
    kept (its place in the leave table, -1 when none), and what it was
    (`made`: the play, the tiles put back as tile numbers, a blank the number of
    letters, or None), written out as GCG writes it when asked (`move`: writing
    every move out cost some 6% of a game)."""

    kind: str
    player: int
    score: int
    equity: int
    bag: int
    leave: int
    made: ScoredPlay | tuple[int, ...] | None
    tiles: TileSet = field(repr=False, compare=False)

    @property
    def move(self) -> str:
        """A play as GCG writes it (`8D QUIT.`), the tiles an exchange put back (`-QU`), or `-` for a pass."""
        if isinstance(self.made, ScoredPlay):
            return self.made.format(self.tiles)
        if self.made is None:
            return "-"
        names = self.tiles.letters
        return "-" + self.tiles.spell([names[t] if t < len(names) else BLANK for t in self.made])


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
        self._games: compiled_movegen.SelfPlay | None = None

    def play(self, seed: int, words: bool = False, max_turns: int = MAX_TURNS,
             second: LeaveTable | None = None, draw_ties: bool = False) -> GameRecord:
        """One game from `seed` (the same as `game.self_play(..., seed, policies=(EquityPlayer(table),))`);
        with `second`, the player moving second values leaves by that table instead (a match of two tables);
        with `draw_ties`, each turn's play is drawn among those tied at the best equity and score (as
        `EquityPlayer(table, tie_draws(seed))` draws it) instead of the first of them by placement."""
        tiles = self.tiles
        if self._games is None:
            blank = tiles.size
            self._games = self.generator.self_play(Board(self.layout, tiles),
                                                   [blank if t == BLANK else tiles.index(t) for t in Bag(tiles).contents])
        moves, scores = self._games.play(table_leaves(self.table), table_leaves(second or self.table), seed,
                                         tie_draws(seed) if draw_ties else None, max_turns, EXCHANGE_LIMIT,
                                         MAX_ZERO_TURNS)
        record = GameRecord(seed, scores=scores)
        board = Board(self.layout, tiles) if words else None
        for kind, player, score, equity, in_bag, leave, made in moves:
            if kind == PLAY and board is not None:
                record.words += _words_of(board, made, self.layout.bingo_bonus)
            record.turns.append(Turn(KINDS[kind], player, score, equity, in_bag, leave, made, tiles))
        return record


def _words_of(board: Board, play: ScoredPlay, bingo_bonus: int) -> list[tuple[str, int]]:
    """The words the play forms on the board, each with the points it scores (the bingo bonus with the
    main word's), the play then put down."""
    placed = play.placed()
    bonus = bingo_bonus if len(placed) == RACK_SIZE else 0
    formed = [(word_text(board, w).upper(), word_score(board, w) + (bonus if i == 0 else 0))
              for i, w in enumerate(words_formed(board, play))]
    for r, c, t in placed:
        board.set(r, c, t)
    return formed
